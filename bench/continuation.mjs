#!/usr/bin/env node
// The continuation benchmark of issue [14]: what the next model can still see right after a real
// compaction, with no mod (the engine alone), with the reference mod and with compact-plus, side by
// side in one run.
//
//   node bench/continuation.mjs [--quick] [--only 9b,b8] [--verbose] [--keep] [--json FILE]
//   CONTINUATION_MOD=<folder> node bench/continuation.mjs    compact-plus's column from another build
//
// For each real compaction in ../shared/real-transcripts (a `compact_boundary` row followed by the
// `isCompactSummary` row: the summary Claude really wrote), the transcript file is cut before the
// boundary (its raw bytes, up to the boundary line's first byte), put where the CLI keeps its
// transcripts in a throwaway HOME, and resumed in the real CLI, headless (`claude -p --resume`,
// stream-json, tests/e2e/harness.mjs); `/compact` is answered by the fake API with that real
// summary, then one more turn. The probes are read from the request of that turn: every message
// it carries (the summary row, whatever the mod added and wherever it landed), without the turn's
// own prompt. The summary is the same for every variant: a mod's instructions to the summarizer
// cannot change it here, so this measures only what each adds around the same summary.
//
// The probes come from the transcript's window (the main-thread rows the compaction summarized:
// after the previous boundary, before this one), by this file's own reading of the rows; nothing
// here imports compact-plus's code. The classes, and when a probe counts as held ("norm" is
// lowercase, quotes and backticks unified, `*` dropped, whitespace collapsed):
//   files      each file an Edit, Write, MultiEdit or NotebookEdit call changed without an error
//              (Write's "File created" result: created), and each path a successful `rm`/`git rm`
//              removed. Held: the path (relative to the session's cwd, or as written when outside
//              it) is in the context; for a deleted file, on a line that also says delet/remov/rm.
//   commits    each `git commit` whose output has git's `[<branch> <sha>] <subject>` line, and each
//              branch made (`git checkout -b`, `git switch -c`, `git branch <name>`, `git worktree
//              add -b`). Held: a hex word of 7+ characters that is a prefix of the commit's sha (or
//              the sha a prefix of it), or its subject (norm, 12+ characters); a branch by its name
//              as a whole word.
//   failures   unresolved failures: a Bash command whose last run in the window ended in an error
//              (the tool result's is_error; a call the person rejected or that never ran, "Sibling
//              tool call errored", does not count), with no later successful run of the same
//              command (its core: `cd … &&` in front and output filters behind, `2>&1`, `| tail`,
//              `| head`, `| grep`, dropped); look-ups are not counted (LOOKUPS below). Held: the
//              core (norm) and the head of its error line (norm, 60 characters) are both in the
//              context. The error line: the first line of the output (not its `Exit code N`, not a
//              task runner's `$ command` echo) with an error word (ERROR_WORDS), else the first
//              compiler diagnostic (`path:line:col: …`), else the first line.
//   requests   the person's last three messages (not machine rows, tool results, slash-command
//              echoes or interrupts; the words given when rejecting a tool call, a text beside
//              tool results, and a message
//              typed while the model worked, a `queue-operation` row, count: the transcript holds
//              them, though a resumed engine loads neither as a message) and every sentence of a person message with must, never,
//              don't, do not, always or only (not in a plan the person accepted: "Implement the
//              following plan:" is the model's text). Held: the norm head (300 characters) of the
//              message, or the norm sentence, is in the context.
//   todos      the open items at the window's end: the last TodoWrite list's items not completed,
//              and the TaskCreate tasks not completed or deleted by a later TaskUpdate. Held: the
//              item's norm text is in the context.
//   current    the task in progress at the window's end (a todo item in_progress), else the
//              person's newest message. Held as above.
//
// Split: the compactions of HELD_OUT were frozen as held out before the work record was written,
// and are reported apart from the ones it was tuned against.
//
// Tokens: every message's text in that request (the turn's prompt left out), in UTF-16 units over
// 4, as compact-plus measures its own budgets; the engine's own reminders are the same for every
// variant, so the differences are what each mod adds.
//
// The summary check: with compact-plus, the run also replays each summary seeded with invented
// requests (messages of other sessions, 6 to 30 words) and inverted ones (a message of this
// window with its first must/never/don't/always/… flipped) and counts the flags that name them;
// on the real summaries every flag is printed (for the table: each judged false or true by hand).
//
// Timings are never judged. --quick (CI) runs one compaction with every variant: it proves the
// harness, the CLI and the mod still run together.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { runSession, projectSlug, textOf, REPO_ROOT } from '../tests/e2e/harness.mjs'

const SOURCE = process.env.E2E_REAL_TRANSCRIPTS ?? path.resolve(REPO_ROOT, '..', 'shared', 'real-transcripts')

/** Frozen before the work record was written: these compactions are never tuned against. */
export const HELD_OUT = ['c8-946606a339', 'ee-7e610ffc3f', '9b-04c3d92e38']

// CONTINUATION_MOD: another build of compact-plus for its column (a folder: `git archive <commit>`
// of this repo, for the figures before a change).
export const VARIANTS = [
  { key: 'none', label: 'engine alone', mod: 'none' },
  { key: 'reference', label: 'reference', mod: 'reference' },
  { key: 'repo', label: 'compact-plus', mod: process.env.CONTINUATION_MOD ?? 'repo' },
]
export const CLASSES = ['files', 'commits', 'failures', 'requests', 'todos', 'current']

const TURN = 'one more turn after the compaction'
const CHARS_PER_TOKEN = 4

// ---- the compactions -----------------------------------------------------------------------------

function listJsonl(dir) {
  const out = []
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.isFile() && e.name.endsWith('.jsonl')) out.push(p)
    }
  }
  walk(dir)
  return out
}

const parse = (line) => { try { return JSON.parse(line) } catch { return null } }
const blocks = (c) => (typeof c === 'string' ? [{ type: 'text', text: c }] : Array.isArray(c) ? c : [])

/**
 * Every real compaction: a `compact_boundary` row whose next row is the `isCompactSummary` one.
 * { id, file, rel, line (0-based index of the boundary), bytes (the cut), rows (before it), summary }
 */
export function compactions(source = SOURCE) {
  const out = []
  for (const file of listJsonl(source)) {
    const buf = fs.readFileSync(file)
    const lines = buf.toString('utf8').split('\n')
    let offset = 0
    const starts = lines.map((l) => { const at = offset; offset += Buffer.byteLength(l) + 1; return at })
    const rows = lines.map(parse)
    if (!rows.some((r) => r?.sessionId)) continue // a Codex rollout
    let k = 0
    rows.forEach((r, i) => {
      if (!(r?.type === 'system' && r.subtype === 'compact_boundary')) return
      const next = rows[i + 1]
      if (!next?.isCompactSummary) return
      k++
      const rel = path.relative(source, file)
      const rowText = blocks(next.message?.content).map((b) => b.text ?? '').join('\n')
      out.push({
        id: `${path.basename(file).slice(0, 13)}#${k}`,
        key: path.basename(file).slice(0, 13),
        file, rel, line: i,
        bytes: buf.subarray(0, starts[i]),
        rows: rows.slice(0, i).filter(Boolean),
        preTokens: r.compactMetadata?.preTokens,
        summary: summaryOf(rowText),
      })
    })
  }
  return out
}

/**
 * The summarizer's reply inside a stored summary row: the row is the engine's head paragraph, the
 * body, then its "If you need specific details" paragraph; the body of older engines starts with
 * "Analysis:" and then "Summary:". Replayed as `<analysis>…</analysis><summary>…</summary>` (the
 * engine of 2.1.328 drops the analysis from the row it writes, as it does for a live summarizer).
 */
export function summaryOf(rowText) {
  let body = rowText.slice(rowText.indexOf('\n\n') + 2)
  const tail = body.lastIndexOf('\n\nIf you need specific details')
  if (tail >= 0) body = body.slice(0, tail)
  const at = body.indexOf('Summary:\n')
  return at >= 0 ? body.slice(at + 'Summary:\n'.length).trim() : body.trim()
}

/** The main-thread messages the compaction summarized: after the previous boundary, in file order. */
export function windowOf(rows) {
  const at = rows.findLastIndex((r) => r.type === 'system' && r.subtype === 'compact_boundary')
  return rows.slice(at + 1).filter((r) => ((r.type === 'user' || r.type === 'assistant') && !r.isSidechain) || isQueued(r))
}

/** A message the person typed while the model worked (2.1.x stores it as a `queue-operation` row). */
const isQueued = (r) => r.type === 'queue-operation' && r.operation === 'enqueue' && typeof r.content === 'string'
  && !/^\s*[/{]/.test(r.content) && r.content.trim() !== ''

// ---- reading the window --------------------------------------------------------------------------

const MACHINE = ['<command-name>', '<command-message>', '<command-args>', '<local-command-', '[Request interrupted',
  '<system-reminder>', 'Caveat: The messages below', '<task-notification>', '<bash-input>', '<bash-stdout>', '<bash-stderr>',
  'This session is being continued from a previous conversation']
const isPerson = (t) => t.trim() !== '' && !MACHINE.some((p) => t.trimStart().startsWith(p))

const SAID = 'To tell you how to proceed, the user said:\n'

/** The person's messages of a window, oldest first: their texts (words given when rejecting a tool call too). */
export function personMessages(window) {
  const out = []
  for (const r of window) {
    if (isQueued(r)) { out.push(r.content.trim()); continue }
    if (r.type !== 'user' || r.isMeta || r.isCompactSummary) continue
    const bs = blocks(r.message?.content)
    // A tool call the person rejected with words: "… To tell you how to proceed, the user said:\n<words>".
    for (const b of bs.filter((b) => b?.type === 'tool_result')) {
      const t = textOf(blocks(b.content))
      const at = t.indexOf(SAID)
      if (at >= 0 && t.slice(at + SAID.length).trim()) out.push(t.slice(at + SAID.length).trim())
    }
    // A message typed while tools ran can come as a text block beside their results.
    const texts = bs.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text)
    const text = (bs.some((b) => b?.type === 'tool_result') ? texts.filter(isPerson) : texts).join('\n')
    if (isPerson(text)) out.push(text.trim())
  }
  return out
}

/** Tool calls of a window in order, each with its result: { name, input, result, isError }. */
export function toolCalls(window) {
  const calls = []
  const byId = new Map()
  for (const r of window) {
    for (const b of blocks(r.message?.content)) {
      if (r.type === 'assistant' && b?.type === 'tool_use') {
        const call = { id: b.id, name: b.name, input: b.input ?? {}, result: null, isError: false }
        calls.push(call)
        byId.set(b.id, call)
      } else if (r.type === 'user' && b?.type === 'tool_result') {
        const call = byId.get(b.tool_use_id)
        if (call) { call.result = textOf(blocks(b.content)); call.isError = !!b.is_error }
      }
    }
  }
  return calls
}

const NEVER_RAN = ['Sibling tool call errored', 'The user doesn\'t want to proceed', '[Request interrupted', 'user rejected', 'Permission to use']

// Commands that only look: their failing says nothing about the work (a grep with no match).
const LOOKUP_WORDS = new Set(['ls', 'll', 'grep', 'egrep', 'rg', 'ag', 'find', 'fd', 'cat', 'bat', 'head', 'tail', 'less', 'more',
  'wc', 'file', 'stat', 'which', 'whereis', 'type', 'command', 'echo', 'printf', 'pwd', 'env', 'printenv', 'tree', 'du', 'df',
  'ps', 'pgrep', 'lsof', 'diff', 'cmp', 'test', '[', 'id', 'whoami', 'date', 'uname', 'readlink', 'realpath', 'basename',
  'dirname', 'jq', 'sort', 'uniq', 'cut', 'awk', 'sed', 'xxd', 'od', 'md5', 'md5sum', 'shasum', 'sha256sum', 'true', 'sleep'])
const GIT_LOOKUPS = new Set(['status', 'log', 'diff', 'show', 'ls-files', 'ls-tree', 'rev-parse', 'remote', 'cat-file', 'grep',
  'blame', 'reflog', 'describe', 'config', 'count-objects', 'for-each-ref', 'show-ref', 'shortlog', 'rev-list', 'merge-base',
  'name-rev', 'check-ignore', 'fsck', 'verify-pack', 'help', 'version'])

/** The command a run is known by: `cd … &&` in front and output filters behind dropped, spaces collapsed. */
export function commandCore(command) {
  let c = command.replace(/\s+/g, ' ').trim()
  c = c.replace(/^(?:cd (?:"[^"]*"|'[^']*'|\S+) ?(?:&&|;) ?)+/, '')
  for (;;) {
    const next = c.replace(/ ?\| ?(?:tail|head|grep|rg|less|cat|tee|sort|uniq|wc)(?: [^|]*)?$/, '').replace(/ ?2>&1$/, '').replace(/ ?2>\/dev\/null$/, '').trim()
    if (next === c) return c
    c = next
  }
}

/** Whether every stage of a command only looks (`ls`, `grep`, `git status`, …). */
export function isLookup(command) {
  const stages = commandCore(command).split(/ ?(?:&&|\|\||;|\|) ?/).map((s) => s.trim()).filter(Boolean)
  return stages.length > 0 && stages.every((s) => {
    const words = s.replace(/^(?:\w+=\S+ )+/, '').split(' ')
    const first = path.basename(words[0] ?? '')
    if (first === 'cd') return true
    if (first === 'git') {
      const sub = words.slice(1).find((w, i, a) => !w.startsWith('-') && !(i > 0 && a[i - 1] === '-C'))
      if (sub === 'branch') return !words.some((w) => /^-[dDmMcC]$|^--(?:delete|move|copy)$/.test(w)) && words.filter((w) => !w.startsWith('-')).length <= 2
      if (sub === 'stash') return words.includes('list') || words.includes('show')
      if (sub === 'worktree') return words.includes('list')
      return GIT_LOOKUPS.has(sub)
    }
    return LOOKUP_WORDS.has(first)
  })
}

const ERROR_WORDS = /error|fail|fatal|panic|exception|denied|not found|no such|cannot|can't|unable|invalid|refused|timed out|killed/i

/** The line that says how a failed run failed. */
export function errorLine(result) {
  const lines = (result ?? '').split('\n').map((l) => l.trim()).filter(Boolean)
  // Not the exit status, nor a task runner's echo of the command it runs (`$ biome check --error-on-warnings`).
  const body = lines.filter((l) => !/^Exit code \d+$/.test(l) && !/^(?:\[[^\]]*\] )?[$>] /.test(l))
  // A compiler's `path:line:col: message` says it as well as an error word does.
  return body.find((l) => ERROR_WORDS.test(l)) ?? body.find((l) => /\S:\d+:\d+: \S/.test(l)) ?? body[0] ?? lines[0] ?? ''
}

const EDITS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit'])

/** Shell words of a simple command (quotes removed; no expansion). */
function shellWords(s) {
  const out = []
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g
  let m
  while ((m = re.exec(s))) out.push(m[1] ?? m[2] ?? m[3])
  return out
}

/** Every probe of a window: [{ cls, kind, key, text, ... }]. */
export function probes(window, cwd) {
  const out = []
  const rel = (p) => (cwd && p.startsWith(cwd + '/') ? p.slice(cwd.length + 1) : p)
  const calls = toolCalls(window)
  const seen = new Set()
  const add = (p) => {
    const id = `${p.cls}\u0000${p.kind}\u0000${p.key}`
    if (seen.has(id)) return
    seen.add(id)
    out.push(p)
  }

  // files
  const created = new Set()
  for (const c of calls) {
    if (!EDITS.has(c.name) || c.isError || c.result === null) continue
    const p = c.input.file_path ?? c.input.notebook_path
    if (typeof p !== 'string' || !p) continue
    if (c.name === 'Write' && /^File created successfully/.test(c.result)) created.add(rel(p))
  }
  for (const c of calls) {
    if (!EDITS.has(c.name) || c.isError || c.result === null) continue
    const p = c.input.file_path ?? c.input.notebook_path
    if (typeof p !== 'string' || !p) continue
    add({ cls: 'files', kind: created.has(rel(p)) ? 'created' : 'edited', key: rel(p), text: rel(p) })
  }
  for (const c of calls) {
    if (c.name !== 'Bash' || c.isError || c.result === null || typeof c.input.command !== 'string') continue
    for (const stage of c.input.command.split(/&&|;|\n|\|\|/)) {
      const w = shellWords(stage.trim())
      const at = w[0] === 'rm' ? 1 : w[0] === 'git' && w[1] === 'rm' ? 2 : -1
      if (at < 0) continue
      for (const arg of w.slice(at)) {
        if (arg.startsWith('-') || /[*?$]/.test(arg) || arg.startsWith('/tmp/') || arg === '/dev/null') continue
        add({ cls: 'files', kind: 'deleted', key: rel(arg), text: rel(arg) })
      }
    }
  }

  // commits and branches
  for (const c of calls) {
    if (c.name !== 'Bash' || c.isError || typeof c.input.command !== 'string' || !c.result) continue
    const cmd = c.input.command
    if (/\bgit\b[^\n|;&]*\bcommit\b/.test(cmd)) {
      const m = /^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$/m.exec(c.result)
      if (m) add({ cls: 'commits', kind: 'commit', key: m[2], sha: m[2], subject: m[3].trim(), branch: m[1], text: `${m[2]} ${m[3].trim()}` })
    }
    for (const stage of cmd.split(/&&|;|\n|\|\|/)) {
      const w = shellWords(stage.trim())
      if (w[0] !== 'git') continue
      let name = null
      const sub = w.findIndex((x, i) => i > 0 && !x.startsWith('-') && w[i - 1] !== '-C')
      const verb = w[sub]
      if ((verb === 'checkout' || verb === 'switch') && ['-b', '-B', '-c', '-C', '--create'].some((f) => w.includes(f))) {
        const f = w.findIndex((x) => ['-b', '-B', '-c', '-C', '--create'].includes(x))
        name = w[f + 1]
      } else if (verb === 'branch') {
        const args = w.slice(sub + 1)
        if (!args.some((x) => x.startsWith('-')) && args.length >= 1 && args.length <= 2) name = args[0]
      } else if (verb === 'worktree' && w[sub + 1] === 'add' && w.includes('-b')) {
        name = w[w.indexOf('-b') + 1]
      }
      if (name && !name.startsWith('-')) add({ cls: 'commits', kind: 'branch', key: name, text: name })
    }
  }

  // unresolved failures
  const last = new Map()
  for (const c of calls) {
    if (c.name !== 'Bash' || typeof c.input.command !== 'string' || c.result === null) continue
    if (c.isError && NEVER_RAN.some((s) => c.result.includes(s))) continue
    const core = commandCore(c.input.command)
    if (!core || isLookup(c.input.command)) continue
    last.set(core, c)
  }
  for (const [core, c] of last) {
    if (!c.isError) continue
    add({ cls: 'failures', kind: 'failure', key: core, core, error: errorLine(c.result), text: `${core} → ${errorLine(c.result)}` })
  }

  // the person's last requests and constraints
  const person = personMessages(window)
  for (const m of person.slice(-3)) add({ cls: 'requests', kind: 'request', key: norm(m).slice(0, 300), text: m })
  for (const m of person) {
    if (/^Implement the following plan:/.test(m)) continue
    for (const s of sentences(m)) {
      if (/\b(?:must|never|don't|do not|always|only)\b/i.test(s.replace(/[\u2018\u2019]/g, "'"))) add({ cls: 'requests', kind: 'constraint', key: norm(s), text: s })
    }
  }

  // open todos at the window's end
  const todos = openTodos(calls)
  for (const t of todos) add({ cls: 'todos', kind: t.status, key: norm(t.text), text: t.text })

  // the current task
  const doing = todos.filter((t) => t.status === 'in_progress')
  if (doing.length) for (const t of doing) add({ cls: 'current', kind: 'in progress', key: norm(t.text), text: t.text })
  else if (person.length) add({ cls: 'current', kind: 'newest message', key: norm(person.at(-1)).slice(0, 300), text: person.at(-1) })
  return out
}

/** The sentences of a message worth a probe: 3 to 60 words, not inside a code block. */
function sentences(text) {
  const prose = text.replace(/```[\s\S]*?```/g, '\n')
  return prose.split(/(?<=[.!?])\s+|\n+/).map((s) => s.trim()).filter((s) => {
    const n = s.split(/\s+/).length
    return n >= 3 && n <= 60
  })
}

/** The open items at the end: the last TodoWrite list, and the TaskCreate tasks still open. */
function openTodos(calls) {
  let list = []
  const tasks = new Map()
  for (const c of calls) {
    if (c.name === 'TodoWrite' && Array.isArray(c.input.todos) && !c.isError) {
      list = c.input.todos.filter((t) => typeof t?.content === 'string').map((t) => ({ text: t.content, status: t.status ?? 'pending' }))
    } else if (c.name === 'TaskCreate' && !c.isError && typeof c.input.subject === 'string') {
      const id = /Task #(\d+) created/.exec(c.result ?? '')?.[1]
      if (id) tasks.set(id, { text: c.input.subject, status: 'pending' })
    } else if (c.name === 'TaskUpdate' && !c.isError && tasks.has(String(c.input.taskId))) {
      const t = tasks.get(String(c.input.taskId))
      if (typeof c.input.status === 'string') t.status = c.input.status
      if (typeof c.input.subject === 'string') t.text = c.input.subject
    }
  }
  return [...list, ...tasks.values()].filter((t) => t.status !== 'completed' && t.status !== 'deleted')
}

// ---- matching ------------------------------------------------------------------------------------

export function norm(s) {
  return String(s).toLowerCase().replace(/[\u2018\u2019\u201c\u201d"`]/g, '\'').replace(/\*/g, '').replace(/\s+/g, ' ').trim()
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Whether the context (its raw text and its norm) holds a probe, by the rules at the top. */
export function held(p, ctx) {
  switch (p.kind) {
    case 'created':
    case 'edited':
      return ctx.raw.includes(p.key)
    case 'deleted':
      return ctx.raw.split('\n').some((l) => l.includes(p.key) && /delet|remov|\brm\b/i.test(l))
    case 'commit': {
      const shaHeld = [...ctx.raw.matchAll(/\b[0-9a-f]{7,40}\b/g)].some(([w]) => w.startsWith(p.sha) || p.sha.startsWith(w))
      const subject = norm(p.subject)
      return shaHeld || (subject.length >= 12 && ctx.norm.includes(subject))
    }
    case 'branch':
      return new RegExp(`(?:^|[^\\w/.-])${escape(p.key)}(?![\\w/-])`).test(ctx.raw)
    case 'failure':
      return ctx.norm.includes(norm(p.core)) && ctx.norm.includes(norm(p.error).slice(0, 60))
    default:
      return ctx.norm.includes(p.key)
  }
}

/** The text the model gets after the compaction: every message of the turn's request but its prompt. */
export function contextOf(request) {
  const parts = []
  for (const m of request?.body?.messages ?? []) {
    for (const b of blocks(m.content)) {
      const t = b?.type === 'text' ? b.text : b?.type === 'tool_result' ? textOf(blocks(b.content)) : b?.type === 'tool_use' ? JSON.stringify(b.input) : ''
      if (t && t.trim() !== TURN) parts.push(t)
    }
  }
  const raw = parts.join('\n')
  const units = parts.reduce((n, t) => n + t.length, 0)
  return { raw, norm: norm(raw), tokens: units / CHARS_PER_TOKEN }
}

// ---- the summary check's seeds -------------------------------------------------------------------

/** A stable number for a text: FNV-1a. */
function hash(s) {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0 }
  return h
}

const FLIPS = [
  [/\bdon't\b/i, 'do'], [/\bdo not\b/i, 'do'], [/\bnever\b/i, 'always'], [/\balways\b/i, 'never'], [/\bmust not\b/i, 'must'],
  [/\bmustn't\b/i, 'must'], [/\bmust\b/i, 'must not'], [/\bshouldn't\b/i, 'should'], [/\bshould\b/i, 'should not'],
  [/\bcan't\b/i, 'can'], [/\bwon't\b/i, 'will'], [/\bdidn't\b/i, 'did'], [/\bisn't\b/i, 'is'], [/\bnot\b/i, ''], [/\bno\b/i, 'yes'],
]

// Words a request starts with when it tells the model to do something.
const IMPERATIVE = /^(?:look|commit|review|make|write|run|add|remove|use|fix|implement|create|update|delete|push|check|keep|log|document|move|rename|test|merge|revert|stash|install|try|wire|change|set|replace|show|explain|go|start|stop|let's)\b/i

/** A request turned into its opposite: its first polarity word flipped, or an imperative made a "don't"; null if neither. */
export function invert(m) {
  for (const [re, to] of FLIPS) if (re.test(m)) return m.replace(re, to).replace(/ {2,}/g, ' ')
  if (/^let's /i.test(m)) return `${m.slice(0, 6)}not ${m.slice(6)}`
  if (IMPERATIVE.test(m)) return `Don't ${m.charAt(0).toLowerCase()}${m.slice(1)}`
  return null
}

/**
 * The summary with invented and inverted requests put where summaries attribute words to the
 * person: 2 invented ones as items of its "All user messages" list and 1 as "The user also asked:
 * …" under its first section (messages of other sessions: things this person never asked), and 2
 * inverted ones (the newest two of this window's messages that `invert` can turn, in place of
 * every quote the summary has of them, else as list items). Inside the summary's double quotes a
 * message's own double quotes are single, as summaries write them.
 */
export function seeded(c, all) {
  const own = personMessages(windowOf(c.rows))
  const words = (m) => m.split(/\s+/).length
  const fits = (m) => !m.includes('\n') && words(m) >= 6 && words(m) <= 30 && !/[`{}<>]/.test(m)
  const foreign = all.filter((o) => o.key !== c.key).flatMap((o) => personMessages(windowOf(o.rows))).filter(fits)
  // Quoted inside a summary's double quotes, a message's own double quotes become single (as summaries write them).
  const quoted = (m) => m.replace(/"/g, '\'')
  const invented = [...new Set(foreign)].sort((a, b) => hash(a + c.id) - hash(b + c.id)).slice(0, 3).map(quoted)
  const inverted = own.filter((m) => !m.includes('\n') && m.length <= 300).map((m) => ({ from: m, to: invert(m) })).filter((x) => x.to).slice(-2)
    .map((x) => (c.summary.includes(x.from) ? x : { from: x.from, to: quoted(x.to) }))
  let s = c.summary
  const extra = []
  for (const x of inverted) {
    if (s.includes(x.from)) s = s.split(x.from).join(x.to)
    else extra.push(x.to)
  }
  const items = [...extra, ...invented.slice(0, 2)].map((t) => `   - "${t}"`).join('\n')
  const list = /(\n\s*\d+\. All user messages:?\s*\n)([\s\S]*?)(\n\s*\n\s*\d+\. )/i.exec(s)
  if (list) {
    const at = list.index + list[1].length + list[2].length
    s = `${s.slice(0, at)}\n${items}${s.slice(at)}`
  } else {
    s = `${s}\n\n6. All user messages:\n${items}\n`
  }
  const first = /^\s*1\. [^\n]*\n/.exec(s)
  const prose = `   The user also asked: "${invented[2] ?? invented[0]}".\n`
  s = first ? `${s.slice(0, first[0].length)}${prose}${s.slice(first[0].length)}` : `${prose}${s}`
  return { summary: s, seeds: [...inverted.map((x) => ({ kind: 'inverted', text: x.to, from: x.from })), ...invented.map((t) => ({ kind: 'invented', text: t }))] }
}

// The check's lines as compact-plus writes them (src/attribution): `- "<passage>" …`, after its head.
export const FLAG_HEAD = 'compact-plus: words the summary above gives the user that match none of the user\'s messages'

/** The flagged passages in a context: the quoted text of each flag line. */
export function flagsIn(raw) {
  const at = raw.indexOf(FLAG_HEAD)
  if (at < 0) return []
  const out = []
  for (const line of raw.slice(at).split('\n').slice(1)) {
    const m = /^- "(.*)" \((?:nearest: \[\d+\] ".*"|no message of the user's)\)$/.exec(line)
    if (!m) break
    out.push(m[1])
  }
  return out
}

/**
 * What a flag on a real summary is: `false` when the flagged passage is one of the messages a
 * hook is given (the check was wrong), `never given` when it is a message the transcript holds
 * only as a `queue-operation` row (typed while the model worked: a resumed engine loads no such
 * row, so no hook sees it), `not the person's` otherwise.
 */
export function flagKind(passage, window) {
  const p = norm(passage.replace(/…/g, ' ')).split(' ').slice(0, 8).join(' ')
  const queued = window.filter(isQueued).map((r) => norm(r.content))
  if (queued.some((q) => q.includes(p))) return 'never given'
  const given = personMessages(window.filter((r) => !isQueued(r))).map(norm)
  return given.some((m) => m.includes(p)) ? 'false' : 'not the person\'s'
}

// compact-plus's blocks in a context, by their first words (src/compaction/verbatim.rs,
// handoff.rs, src/attribution, src/audit/block.rs, src/audit/mod.rs).
const PARTS = [
  ['verbatim', /<user-messages-verbatim>[\s\S]*?<\/user-messages-verbatim>/],
  ['pointer', /compact-plus saved the conversation[^\n]*(?:\n(?!\n)[^\n]*)*/],
  ['flags', /compact-plus: words the summary above gives the user[^\n]*(?:\n- [^\n]*)*/],
  ['record', /compact-plus: work before this compaction[^\n]*(?:\n- [^\n]*)*/],
  ['audit', /compact-plus: these were mentioned before this compaction[^\n]*(?:\n- [^\n]*)*/],
]

/** The tokens each of compact-plus's blocks takes in a context. */
export function parts(raw) {
  return Object.fromEntries(PARTS.map(([k, re]) => [k, (re.exec(raw)?.[0].length ?? 0) / CHARS_PER_TOKEN]))
}

const caught = (seed, flags) => {
  const s = norm(seed.text).slice(0, 40)
  return flags.some((f) => { const n = norm(f.replace(/…$/, '')); return n.length >= 12 && (s.startsWith(n.slice(0, 40)) || n.startsWith(s)) })
}

// ---- running -------------------------------------------------------------------------------------

async function resume(c, variant, summary, opts) {
  const first = c.rows.find((r) => r.sessionId && r.cwd)
  const sid = first?.sessionId ?? c.rows.find((r) => r.sessionId)?.sessionId
  const workRoot = process.env.E2E_WORK_ROOT ?? os.tmpdir()
  const workDir = fs.mkdtempSync(path.join(workRoot, `cp-cont-${c.key}-${variant.key}-`))
  const dest = path.join(workDir, 'home', '.claude', 'projects', projectSlug(first?.cwd ?? '/'), `${sid}.jsonl`)
  fs.mkdirSync(path.dirname(dest), { recursive: true })
  fs.writeFileSync(dest, c.bytes)
  const run = await runSession({
    mod: variant.mod, workDir, label: `cont-${c.key}-${variant.key}`,
    args: ['--resume', sid],
    turns: ['/compact', TURN],
    fake: { summary },
    turnTimeoutMs: 90000, sessionTimeoutMs: 180000,
  })
  const compaction = run.compactionRequests.length
  // The turn's prompt is its last message but the `system` ones 2.1.328 sends mid-conversation.
  const after = run.normalRequests.findLast((r) => JSON.stringify((r.body?.messages ?? []).filter((m) => m.role !== 'system').at(-1) ?? '').includes(TURN))
  const out = { ok: run.ok && compaction === 1 && !!after, ctx: contextOf(after), workDir, why: null }
  if (!out.ok) out.why = `ok ${run.ok}, summarizer requests ${compaction}, turn request ${!!after}; ${run.timedOut ?? ''} ${run.stderr.slice(-300)}`
  if (!opts.keep && out.ok) run.cleanup()
  return out
}

function pct(h, n) { return n ? `${h}/${n} (${(100 * h / n).toFixed(1)} %)` : '–' }

export async function main(argv = process.argv.slice(2)) {
  const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : null }
  const quick = argv.includes('--quick')
  const verbose = argv.includes('--verbose')
  const keep = argv.includes('--keep')
  if (!fs.existsSync(SOURCE)) {
    console.log(`continuation: no real transcripts at ${SOURCE} (set E2E_REAL_TRANSCRIPTS); nothing measured`)
    return 0
  }
  const all = compactions()
  const only = opt('--only')?.split(',').filter(Boolean)
  let chosen = only ? all.filter((c) => only.some((o) => c.id.includes(o))) : all
  // The quick run: the compaction with the smallest cut, every variant.
  if (quick) chosen = [...chosen].sort((a, b) => a.bytes.length - b.bytes.length).slice(0, 1)
  const t0 = performance.now()
  const results = []
  let failed = 0
  for (const c of chosen) {
    const window = windowOf(c.rows)
    const cwd = c.rows.find((r) => r.cwd)?.cwd ?? ''
    const ps = probes(window, cwd)
    const entry = { id: c.id, heldOut: HELD_OUT.includes(c.key), probes: ps.length, variants: {}, check: null }
    for (const v of VARIANTS) {
      const r = await resume(c, v, c.summary, { keep })
      if (!r.ok) { failed++; console.error(`${c.id} ${v.label}: the run failed: ${r.why} (kept ${r.workDir})`); continue }
      const hits = ps.map((p) => held(p, r.ctx))
      entry.variants[v.key] = {
        tokens: r.ctx.tokens,
        byClass: Object.fromEntries(CLASSES.map((k) => [k, { held: ps.filter((p, i) => p.cls === k && hits[i]).length, of: ps.filter((p) => p.cls === k).length }])),
        missed: ps.filter((p, i) => !hits[i]).map((p) => `${p.cls}/${p.kind}: ${p.text.replace(/\s+/g, ' ').slice(0, 110)}`),
        flags: flagsIn(r.ctx.raw).map((f) => ({ passage: f, kind: flagKind(f, window) })),
        parts: parts(r.ctx.raw),
      }
    }
    // The check on seeded summaries: compact-plus only.
    const seed = seeded(c, all)
    const r = await resume(c, VARIANTS[2], seed.summary, { keep })
    if (r.ok) {
      const flags = flagsIn(r.ctx.raw)
      entry.check = { seeds: seed.seeds.map((s) => ({ ...s, caught: caught(s, flags) })), flags }
    } else { failed++; console.error(`${c.id} seeded: the run failed: ${r.why}`) }
    results.push(entry)
    console.error(`${c.id}: ${ps.length} probes; ${VARIANTS.map((v) => `${v.label} ${entry.variants[v.key] ? Object.values(entry.variants[v.key].byClass).reduce((n, x) => n + x.held, 0) : '–'}`).join(', ')} (${((performance.now() - t0) / 1000).toFixed(0)} s)`)
  }
  report(results, { verbose, quick, seconds: (performance.now() - t0) / 1000 })
  const json = opt('--json')
  if (json) fs.writeFileSync(json, JSON.stringify(results, null, 2))
  return failed ? 1 : 0
}

function report(results, { verbose, quick, seconds }) {
  const say = (s = '') => console.log(s)
  const groups = [
    ['tuned against', results.filter((r) => !r.heldOut)],
    ['held out', results.filter((r) => r.heldOut)],
    ['all', results],
  ].filter(([, rs]) => rs.length)
  for (const [name, rs] of groups) {
    say(`\n### ${name}: ${rs.length} compaction${rs.length === 1 ? '' : 's'} (${rs.map((r) => r.id).join(', ')})\n`)
    say(`| | ${CLASSES.join(' | ')} | overall | tokens after | added over the engine |`)
    say(`|---|${CLASSES.map(() => '---').join('|')}|---|---|---|`)
    for (const v of VARIANTS) {
      const have = rs.filter((r) => r.variants[v.key])
      const sum = (k, f) => have.reduce((n, r) => n + r.variants[v.key].byClass[k][f], 0)
      const h = CLASSES.reduce((n, k) => n + sum(k, 'held'), 0)
      const n = CLASSES.reduce((n, k) => n + sum(k, 'of'), 0)
      const tokens = have.reduce((n, r) => n + r.variants[v.key].tokens, 0) / (have.length || 1)
      const added = have.filter((r) => r.variants.none).map((r) => r.variants[v.key].tokens - r.variants.none.tokens)
      const mean = added.reduce((a, b) => a + b, 0) / (added.length || 1)
      say(`| ${v.label} | ${CLASSES.map((k) => pct(sum(k, 'held'), sum(k, 'of'))).join(' | ')} | ${pct(h, n)} | ${Math.round(tokens)} | ${v.key === 'none' ? '–' : `${Math.round(mean)} (max ${Math.round(Math.max(...added))})`} |`)
    }
  }
  say('\n### per compaction (probes held: engine alone / reference / compact-plus; the tokens compact-plus adds, and of them its blocks)\n')
  say('| compaction | split | probes | engine alone | reference | compact-plus | added tokens | verbatim | pointer | flags | record | audit |')
  say('|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of results) {
    const held = (k) => (r.variants[k] ? Object.values(r.variants[k].byClass).reduce((n, x) => n + x.held, 0) : '–')
    const added = r.variants.repo && r.variants.none ? Math.round(r.variants.repo.tokens - r.variants.none.tokens) : '–'
    const p = r.variants.repo?.parts ?? {}
    say(`| ${r.id} | ${r.heldOut ? 'held out' : 'tuned'} | ${r.probes} | ${held('none')} | ${held('reference')} | ${held('repo')} | ${added} | ${PARTS.map(([k]) => Math.round(p[k] ?? 0)).join(' | ')} |`)
  }
  const mean = (k) => Math.round(results.reduce((n, r) => n + (r.variants.repo?.parts?.[k] ?? 0), 0) / (results.length || 1))
  say(`| mean | | | | | | | ${PARTS.map(([k]) => mean(k)).join(' | ')} |`)
  say('\n### the summary check\n')
  say('| compaction | split | flags on the real summary | seeds caught (invented) | seeds caught (inverted) |')
  say('|---|---|---|---|---|')
  for (const r of results) {
    const real = r.variants.repo?.flags ?? []
    const s = r.check?.seeds ?? []
    const c = (kind) => `${s.filter((x) => x.kind === kind && x.caught).length}/${s.filter((x) => x.kind === kind).length}`
    say(`| ${r.id} | ${r.heldOut ? 'held out' : 'tuned'} | ${real.length} | ${c('invented')} | ${c('inverted')} |`)
  }
  const seeds = results.flatMap((r) => r.check?.seeds ?? [])
  const realFlags = results.flatMap((r) => (r.variants.repo?.flags ?? []).map((f) => ({ ...f, id: r.id })))
  const of = (kind) => realFlags.filter((f) => f.kind === kind).length
  for (const [name, rs] of groups) {
    const ss = rs.flatMap((r) => r.check?.seeds ?? [])
    say(`\nSeeded requests flagged, ${name}: ${pct(ss.filter((s) => s.caught).length, ss.length)}`)
  }
  say(`Flags on the real summaries: ${realFlags.length}: ${of('false')} false, ${of('never given')} on messages no hook is given (queue-operation rows), ${of('not the person\'s')} on words that are not the person's`)
  for (const f of realFlags) say(`  flag on a real summary (${f.kind}): ${f.id}: ${f.passage}`)
  for (const s of seeds.filter((x) => !x.caught)) say(`  seed not caught (${s.kind}): ${JSON.stringify(s.text.slice(0, 120))}`)
  if (verbose) {
    for (const r of results) {
      for (const v of VARIANTS) {
        const x = r.variants[v.key]
        if (!x) continue
        say(`\n${r.id} ${v.label}: missed ${x.missed.length}`)
        for (const m of x.missed) say(`  - ${m}`)
      }
    }
  }
  say(`\nClaude Code CLI headless (stream-json), ${results.length} compaction(s) × ${VARIANTS.length + 1} runs${quick ? ' (--quick)' : ''}, ${seconds.toFixed(0)} s; ${new Date().toISOString()}.`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
