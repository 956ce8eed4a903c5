// Synthetic Claude Code sessions for the benchmark, the same for a given seed in every engine.
//
// A session is a `session.compact` event as the host hands it over: `{ trigger, messages }`, each
// message `{ role, text, toolUses, toolResults?, handle }` (see /work/shared/notes/host-probe.md).
// Turns look like real agentic work: a prompt (prose, sometimes pasted code or a log, sometimes a
// machine row or a system reminder), then a run of tool calls (Bash, Read, Edit, Write, Grep, Glob,
// WebFetch, TodoWrite) whose outcome the host carries twice, on the assistant's `toolUses[].text`
// and on the next user row's `toolResults`, then an answer. Text mixes English prose, code, shell
// output and JSON with non-ASCII (accents, CJK, Cyrillic) and emoji (surrogate pairs). Tool results
// run up to 50 KB; 4,096 messages come to about 24 MB of JSON.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** mulberry32: small, fast, and the same in V8 and JavaScriptCore. */
export function rng(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    // Log-normal-ish sizes: most small, a long tail, capped.
    size: (median, cap) => Math.min(cap, Math.max(1, Math.round(median * Math.exp((next() + next() + next() - 1.5) * 2.2)))),
  }
  return r
}

const WORDS = (
  'the a to of and in that is for it with as on this be by are from at or an not but have we can will ' +
  'function module test build error value result file path config session compaction summary history ' +
  'message token budget handle verbatim instructions hook engine shim boundary parse render string ' +
  'wasm memory benchmark median reference output input tool command branch commit review change fix ' +
  'because should would could then when where which while after before again still already instead'
).split(' ')
const FOREIGN = [
  'naïve café', 'déjà vu', 'Grüße aus München', 'Straße', 'œuvre', 'señor', 'façade', 'Zürich',
  'テストが失敗しました', '日本語のコメント', '压缩历史', '한국어', 'Привет, мир', 'ошибка сборки',
  'αβγ', 'ß→ss', '—', '…', '“quoted”', '½ × 3 ≈ 1.5', '€42', '✓ done', '→',
]
const EMOJI = ['🚀', '✅', '🔥', '🐛', '👍', '🎉', '⚠️', '❌', '🤔', '📦', '👨‍👩‍👧', '🏳️‍🌈', '🇯🇵']

const CODE = [
  'fn main() {', '    let mut total = 0usize;', '    for line in input.lines() {', '        total += line.len();', '    }',
  '    println!("{total}");', '}', 'pub fn cut_middle(s: &str, max: f64, note: &str) -> String {',
  '    match serde_json::from_str::<Vec<Message>>(json) {', '        Ok(list) => list,', '        Err(_) => Vec::new(),',
  'export function renderHistory(messages, meta) {', '  const out = []', '  for (const m of messages) {',
  "    if (m.role !== 'user') continue", '  return out.join("\\n")', '}', 'def parse(path: str) -> dict:',
  '    with open(path, encoding="utf-8") as f:', '        return json.load(f)', 'import { readFileSync } from "node:fs"',
  '#[derive(Debug, Clone, Deserialize)]', 'struct Entry { name: String, kind: String }', '    // TODO: handle the empty case',
  "  const label = '✓ passed' // non-ASCII in code", '  assert.equal(result.length, 3, `got ${result.length}`)',
  'SELECT id, name FROM sessions WHERE updated_at < $1;', '    return Err(format!("no such file: {path}"));',
]
const SHELL = [
  '   Compiling compact-plus v0.1.0 (/work/main)', '    Finished `release` profile [optimized] target(s) in 12.84s',
  'running 42 tests', 'test history::tests::renders_headings ... ok', 'test verbatim::tests::budget ... ok',
  'test result: ok. 42 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s',
  'error[E0308]: mismatched types', '  --> src/hooks.rs:214:23', '   |', '214 |     let dir = history_dir(host).await;',
  '   |                       ^^^^^^^^^^^^^^^^^^^^^^^^ expected `String`, found `Option<String>`',
  'npm warn deprecated inflight@1.0.6: This module is not supported', 'added 312 packages in 4s',
  '-rw-r--r--  1 user user  18342 Nov 29 10:14 compact_plus_bg.wasm', 'drwxr-xr-x  5 user user   4096 Nov 29 10:12 src',
  'On branch main', "Your branch is up to date with 'origin/main'.", 'Changes not staged for commit:', '\tmodified:   src/history.rs',
  'commit 612f9c4a1b2c3d4e5f60718293a4b5c6d7e8f901', 'Author: Dev <dev@example.com>', 'Date:   Sat Nov 29 10:02:11 2026 +0000',
  '✔ tests/golden.test.mjs (812ms)', '✖ tests/e2e/compact.test.mjs (30012ms)', '  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
  'FAIL  src/render.test.ts > renderHistory > cuts long results', 'Traceback (most recent call last):',
  '  File "/work/tool.py", line 12, in <module>', 'KeyError: \'messages\'', '\u001b[32mPASS\u001b[0m  ok 17 - handles emoji 🎉',
]

function sentence(r) {
  const n = r.int(6, 22)
  const words = []
  for (let i = 0; i < n; i++) {
    if (r.chance(0.03)) words.push(r.pick(FOREIGN))
    else if (r.chance(0.01)) words.push(r.pick(EMOJI))
    else if (r.chance(0.04)) words.push(`\`src/${r.pick(WORDS)}.rs\``)
    else words.push(r.pick(WORDS))
  }
  const s = words.join(' ')
  return s.charAt(0).toUpperCase() + s.slice(1) + r.pick(['.', '.', '.', '?', '!', ':'])
}

function prose(r, chars) {
  const out = []
  let len = 0
  while (len < chars) {
    const para = []
    for (let i = r.int(1, 5); i > 0; i--) para.push(sentence(r))
    const p = para.join(' ')
    out.push(p)
    len += p.length + 2
  }
  return out.join('\n\n')
}

function lines(r, pool, chars, numbered = false) {
  const out = []
  let len = 0
  for (let i = 1; len < chars; i++) {
    let l = r.pick(pool)
    if (r.chance(0.02)) l += ' ' + r.pick(FOREIGN)
    if (numbered) l = `${String(i).padStart(6)}\t${l}`
    out.push(l)
    len += l.length + 1
  }
  return out.join('\n')
}

function uuid(r) {
  const h = () => Math.floor(r.next() * 0x10000).toString(16).padStart(4, '0')
  return `${h()}${h()}-${h()}-4${h().slice(1)}-a${h().slice(1)}-${h()}${h()}${h()}`
}

function toolCall(r, id) {
  const path = `src/${r.pick(WORDS)}/${r.pick(WORDS)}.${r.pick(['rs', 'ts', 'js', 'py', 'md'])}`
  const kind = r.pick(['Bash', 'Bash', 'Bash', 'Read', 'Read', 'Edit', 'Edit', 'Write', 'Grep', 'Glob', 'WebFetch', 'TodoWrite'])
  const size = r.size(3300, 48000)
  let input
  let text
  let result
  switch (kind) {
    case 'Bash': {
      input = { command: r.pick(['cargo test --locked', 'npm test', 'git status', 'ls -la', 'git log -3', 'rg -n "handle" src', 'python3 tool.py']), description: sentence(r) }
      text = lines(r, SHELL, size)
      result = { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false }
      break
    }
    case 'Read': {
      input = { file_path: `/work/main/${path}` }
      text = lines(r, CODE, size, true)
      result = { type: 'text', file: { filePath: `/work/main/${path}`, numLines: text.split('\n').length, startLine: 1, totalLines: 400 } }
      break
    }
    case 'Edit': {
      input = { file_path: `/work/main/${path}`, old_string: lines(r, CODE, r.size(300, 4000)), new_string: lines(r, CODE, r.size(300, 4000)), replace_all: false }
      text = `The file /work/main/${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${lines(r, CODE, r.size(600, 3000), true)}`
      result = { filePath: `/work/main/${path}`, userModified: false, replaceAll: false }
      break
    }
    case 'Write': {
      input = { file_path: `/work/main/${path}`, content: lines(r, CODE, r.size(2000, 20000)) }
      text = `File created successfully at: /work/main/${path}`
      result = { type: 'create', filePath: `/work/main/${path}` }
      break
    }
    case 'Grep': {
      input = { pattern: r.pick(WORDS), path: '/work/main/src', output_mode: 'content', '-n': true }
      text = lines(r, CODE, size).split('\n').map((l, i) => `/work/main/${path}:${i + 1}:${l}`).join('\n')
      result = { mode: 'content', numFiles: r.int(1, 9), numLines: r.int(1, 400) }
      break
    }
    case 'Glob': {
      input = { pattern: '**/*.rs' }
      text = Array.from({ length: r.int(3, 60) }, () => `/work/main/src/${r.pick(WORDS)}.rs`).join('\n')
      result = { numFiles: r.int(3, 60), truncated: false }
      break
    }
    case 'WebFetch': {
      input = { url: `https://docs.example.org/${r.pick(WORDS)}/${r.pick(WORDS)}`, prompt: sentence(r) }
      text = prose(r, size)
      result = { code: 200, codeText: 'OK', bytes: size }
      break
    }
    default: {
      input = { todos: Array.from({ length: r.int(2, 8) }, (_, i) => ({ content: sentence(r), status: r.pick(['pending', 'in_progress', 'completed']), activeForm: sentence(r), id: String(i + 1) })) }
      text = 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.'
      result = { oldTodos: [], newTodos: input.todos }
    }
  }
  // Tool results stay under 50 KB (a Grep's path prefixes can push a result past its size).
  if (text.length > 50000) text = text.slice(0, text.lastIndexOf('\n', 50000))
  const isError = r.chance(0.06)
  const use = { tool_use_id: id, tool: kind, input, result, text }
  if (isError) use.isError = true
  return { use, res: { tool_use_id: id, text, isError, result } }
}

function userPrompt(r, turn) {
  if (r.chance(0.06)) {
    return r.pick([
      '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
      '[Request interrupted by user for tool use]',
      `<task-notification>\n<task-id>${turn}</task-id>\n<status>completed</status>\n<summary>Background task finished</summary>\n</task-notification>`,
      'Caveat: The messages below were generated by the user while running local commands.',
      '<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>',
    ])
  }
  let text = prose(r, r.size(350, 6000))
  if (r.chance(0.15)) text += '\n\n```\n' + lines(r, r.chance(0.5) ? CODE : SHELL, r.size(800, 8000)) + '\n```'
  if (r.chance(0.2)) text += ' ' + r.pick(EMOJI)
  if (r.chance(0.1)) text = `<system-reminder>\n${prose(r, r.size(300, 2000))}\n</system-reminder>\n${text}`
  return text
}

/**
 * A `session.compact` event with exactly `count` messages, from `seed`.
 * @returns {{ trigger: string, messages: object[] }}
 */
export function makeSession(count, seed = 20261129) {
  const r = rng(seed)
  const messages = []
  let id = 0
  for (let turn = 0; messages.length < count; turn++) {
    messages.push({ role: 'user', text: userPrompt(r, turn), toolUses: [], handle: uuid(r) })
    for (let steps = r.int(1, 12); steps > 0 && messages.length < count; steps--) {
      const calls = Array.from({ length: r.chance(0.2) ? r.int(2, 3) : 1 }, () => toolCall(r, `toolu_${(++id).toString(36).padStart(8, '0')}`))
      const say = r.chance(0.5) ? prose(r, r.size(200, 1500)) : ''
      messages.push({ role: 'assistant', text: say, toolUses: calls.map((c) => c.use), handle: uuid(r) })
      messages.push({ role: 'user', text: '', toolUses: [], toolResults: calls.map((c) => c.res), handle: uuid(r) })
    }
    let answer = prose(r, r.size(600, 5000))
    if (r.chance(0.3)) answer += '\n\n```rust\n' + lines(r, CODE, r.size(500, 3000)) + '\n```'
    messages.push({ role: 'assistant', text: answer, toolUses: [], handle: uuid(r) })
  }
  messages.length = count
  return { trigger: 'auto', messages }
}

/** What `next` resolves to: the summary message, then the last two messages kept as they are. */
export function compactResult(e) {
  const kept = e.messages.slice(-2)
  return {
    messages: [{ role: 'user', text: 'This session is being continued from a previous conversation that ran out of context. Summary: …', toolUses: [], handle: 'summary-handle' }, ...kept],
    tokensBefore: 180000,
    tokensAfter: 9000,
  }
}

/** Sizes worth printing: the event's JSON and the text it carries. */
export function sessionSize(e) {
  const json = JSON.stringify(e)
  let text = 0
  for (const m of e.messages) {
    text += (m.text ?? '').length
    for (const u of m.toolUses ?? []) text += (u.text ?? '').length + JSON.stringify(u.input ?? {}).length
    for (const t of m.toolResults ?? []) text += (t.text ?? '').length
  }
  return { jsonChars: json.length, jsonBytes: Buffer.byteLength(json, 'utf8'), textChars: text }
}

/** The commit measured, for a report's header (BENCH_COMMIT overrides it). */
export function commit() {
  if (process.env.BENCH_COMMIT) return process.env.BENCH_COMMIT
  try {
    const cwd = fileURLToPath(new URL('..', import.meta.url))
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'js', 'pkg'], { cwd, encoding: 'utf8' }).trim()
    return `commit ${head}${dirty ? ' (src/js/pkg modified)' : ''}`
  } catch {
    return 'commit unknown'
  }
}
