// Real sessions: every Claude Code transcript in ../shared/real-transcripts/ (public sessions
// other people committed; SOURCES.md says where each came from) resumed in the REAL Claude Code
// CLI with the mod, `/compact`, one more turn; then what compact-plus made of it, file by file.
//
//   node --test tests/e2e/real.test.mjs
//   E2E_MOD=<folder>            the mod under test (default: the repo root, as every e2e suite)
//   E2E_REAL_TRANSCRIPTS=<dir>  where the transcripts are (default <repo>/../shared/real-transcripts)
//   E2E_REAL_FILES=a,b          only the files whose path holds one of these strings
//   E2E_REAL_TIMING=none,reference,recall-off   the comparison runs per file (default all three;
//                               `E2E_REAL_TIMING=` runs the mod alone)
//   E2E_REAL_REPEAT=n           runs of each variant per file, for steadier medians (default 1)
//   E2E_REAL_PARALLEL=n         files at a time (default 1, for honest timings; 2 halves the wall
//                               time; the variants of one file always run one after another)
//   E2E_KEEP=1                  keeps every work dir (a failing file's mod run is always kept)
//   E2E_REAL_TABLE=<file>       where the table goes (default tests/e2e/out/real-sessions.md)
//
// The transcripts are read from ../shared at run time and copied into each run's throwaway HOME
// only, byte for byte: never into this repo. Without them every test here is skipped, saying why.
//
// How a transcript is resumed (measured on Claude Code 2.1.328, `-p` with stream-json):
//   * the file goes to <HOME>/.claude/projects/<slug>/<sessionId>.jsonl, <slug> being the cwd its
//     first row records with every non-alphanumeric character as `-` (where the CLI itself would
//     have written it); the session id is the rows' `sessionId` (the Entire checkpoint files are
//     named otherwise);
//   * `claude -p --resume <sessionId>` finds `<sessionId>.jsonl` in any project folder of the config
//     dir, not only the one of its own cwd, and appends to that file; the recorded cwd need not
//     exist (none of these do here: /Users/…, /path/to/Demo, /mnt/c/…). So the CLI runs in the
//     harness's own project dir and nothing in the transcript is rewritten; the rows it appends
//     carry that cwd. (A session id with no file answers `No conversation found with session ID`.)
//   * the resumed window is what the engine loads: the main-thread messages after the last
//     `compact_boundary` (sidechain rows of subagents and `progress` rows are not messages). A
//     person message or tool result counts only when the engine really sent it to the summarizer
//     (the fake API records the request); the others are listed as not loaded.
//   * plugin options (`recallTool: false` for the timing run without the recall tool) are read
//     from `pluginConfigs["compact-plus"].options` in <HOME>/.claude/settings.json (the debug log
//     says which keys it looked for: "compact-plus" or "compact-plus@inline").
//
// Per file it prints, and it FAILS on the first three:
//   * person messages of the resumed window found in the history file (each missing one named);
//   * audit entries (the block after the summary) that the history file does not hold by their
//     exact text, each with why (only in the cut part of a tool result, whitespace collapsed, …);
//   * redactions (`[REDACTED:<kind>]` in the history, the summary row or log.jsonl), each with 40
//     characters either side and the text it replaced: these transcripts are public and hold no
//     live credentials (SOURCES.md), so every redaction is a false positive;
//   * a verbatim block that marks a request current: the resumed session's `/compact` runs between
//     turns, so the next prompt follows every request it keeps (issue [13] item 2);
//   and also: tool results found (by the head of their text), whether the newest person message is
//   the last one the verbatim block keeps, audit entries in a noise shape (the named predicates below), and the
//   `/compact` wall time with the mod, without it (`mod: 'none'`), with the reference mod and with
//   the mod's recall tool off (the tool joins the tool list through a tool.list hook).
// The Codex CLI rollouts there have no host to resume them in: they must at least parse (every
// line JSON, every row of a known type); their row types are counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSession, projectSlug, summaryRows, textOf, firstUserText, hookTimes, REPO_ROOT } from './harness.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';
const SOURCE = process.env.E2E_REAL_TRANSCRIPTS ?? path.resolve(REPO_ROOT, '..', 'shared', 'real-transcripts');
const ONLY = process.env.E2E_REAL_FILES ? process.env.E2E_REAL_FILES.split(',').filter(Boolean) : null;
const TIMING = (process.env.E2E_REAL_TIMING ?? 'none,reference,recall-off').split(',').map((s) => s.trim()).filter(Boolean);
const REPEAT = Math.max(1, Number(process.env.E2E_REAL_REPEAT ?? 1));
const PARALLEL = Math.max(1, Number(process.env.E2E_REAL_PARALLEL ?? 1));
const TABLE = process.env.E2E_REAL_TABLE ?? path.join(REPO_ROOT, 'tests', 'e2e', 'out', 'real-sessions.md');
const KEEP = !!process.env.E2E_KEEP;
const TURN_TIMEOUT_MS = 45000; // a hung CLI is killed (its process group) after this
const SESSION_TIMEOUT_MS = 90000;

const AUDIT_INTRO = 'compact-plus: these were mentioned before this compaction and are not in the summary above; search the history file for them before asking the user:';
const VERBATIM_OPEN = '<user-messages-verbatim>';
const VERBATIM_CLOSE = '</user-messages-verbatim>';
// A message's separator in the verbatim block: `(earlier)`, or `(current request …)` for the one marked current.
const SEPARATOR = /\n--- user message \(([^)\n]*)\) ---\n/g;
const REDACTED = /\[REDACTED:[a-z0-9-]+\]/g;
const CONTEXT = 40;

// ---- the transcripts --------------------------------------------------------------------------

const present = fs.existsSync(SOURCE) && fs.statSync(SOURCE).isDirectory();
const SKIP = present ? false
  : `no real transcripts at ${SOURCE} (CI has a read-only copy at ../shared/real-transcripts beside the repo; set E2E_REAL_TRANSCRIPTS to point elsewhere)`;

function listJsonl(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.jsonl')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Every line of a JSONL file: { rows, bad: [{ line, error }] } (blank lines skipped). */
function readRows(file) {
  const rows = [];
  const bad = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try { rows.push(JSON.parse(line)); } catch (err) { bad.push({ line: i + 1, error: String(err.message ?? err).slice(0, 120) }); }
  });
  return { rows, bad };
}

// Codex CLI rollout rows, as the four rollouts here and the Codex sources name them.
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const isCodex = (rows) => rows.length > 0 && rows.every((r) => !r.sessionId) && rows.some((r) => r.type === 'session_meta' || r.type === 'response_item');

const FILES = present ? listJsonl(SOURCE).map((p) => ({ path: p, rel: path.relative(SOURCE, p) }))
  .filter((f) => !ONLY || ONLY.some((s) => f.rel.includes(s))) : [];
for (const f of FILES) {
  const { rows, bad } = readRows(f.path);
  f.rows = rows;
  f.bad = bad;
  f.format = isCodex(rows) ? 'codex' : rows.some((r) => r.sessionId) ? 'claude-code' : 'unknown';
  f.short = f.rel.replace(/^([^/]+)\/(.{0,14}).*$/, '$1/$2…');
}
const CLAUDE = FILES.filter((f) => f.format === 'claude-code');
for (const f of CLAUDE) {
  // The session id and the cwd the session started in (the CLI names the project folder by it).
  const first = f.rows.find((r) => r.sessionId && r.cwd);
  f.sessionId = first?.sessionId ?? f.rows.find((r) => r.sessionId).sessionId;
  f.cwd = first?.cwd ?? '/';
  f.version = first?.version ?? '?';
}
const CODEX = FILES.filter((f) => f.format === 'codex');

// ---- what the transcript holds -----------------------------------------------------------------

const contentBlocks = (c) => (typeof c === 'string' ? [{ type: 'text', text: c }] : Array.isArray(c) ? c : []);

/**
 * The rows the engine resumes: the main-thread messages after the last compact boundary (the
 * engine loads nothing before it), in file order. Which of them the engine really loaded is
 * judged against its summarizer request, not here: walking `parentUuid` from the newest message
 * misses rows it loads (the results of parallel tool calls hang off their own call, and a call
 * can hang off a hook's `progress` row: b8-659b3a4dd4, c8-4852f00024, ee-7e610ffc3f).
 */
function resumedWindow(rows) {
  const at = rows.findLastIndex((r) => r.type === 'system' && r.subtype === 'compact_boundary');
  const messages = rows.slice(at + 1).filter((r) => (r.type === 'user' || r.type === 'assistant') && !r.isSidechain);
  return { rows: messages, boundary: at >= 0 };
}

// Text a person did not type: slash-command echoes and their output, the interrupt notice.
const MACHINE_PREFIXES = ['<command-name>', '<command-message>', '<local-command-', '[Request interrupted by user', '<system-reminder>', 'Caveat: The messages below'];
const isPersonText = (t) => t.trim() !== '' && !MACHINE_PREFIXES.some((p) => t.trimStart().startsWith(p));

/** What the window holds: person texts, tool results (with their tool), every text (for origins). */
function windowContents(window) {
  const person = [];
  const results = [];
  const texts = [];
  const toolOf = new Map();
  for (const r of window) {
    const blocks = contentBlocks(r.message?.content);
    if (r.type === 'assistant') {
      for (const b of blocks) {
        if (b?.type === 'text') texts.push(b.text);
        if (b?.type === 'tool_use') { toolOf.set(b.id, b.name); texts.push(JSON.stringify(b.input ?? {})); }
      }
      continue;
    }
    if (r.type !== 'user') continue;
    const hasResult = blocks.some((b) => b?.type === 'tool_result');
    for (const b of blocks) {
      if (b?.type === 'tool_result') {
        const text = textOf(contentBlocks(b.content));
        texts.push(text);
        results.push({ id: b.tool_use_id, tool: toolOf.get(b.tool_use_id) ?? '?', text });
      } else if (b?.type === 'text' && typeof b.text === 'string') {
        texts.push(b.text);
        if (!hasResult && !r.isMeta && !r.isCompactSummary && isPersonText(b.text)) person.push(b.text);
      }
    }
  }
  return { person, results, texts };
}

// ---- the audit's entries and their noise shapes ------------------------------------------------

/** The listed entries of the audit block in `text`: [{ kind, text, count }]. */
function auditEntries(text) {
  const at = text.lastIndexOf(AUDIT_INTRO);
  if (at < 0) return [];
  const out = [];
  for (const line of text.slice(at + AUDIT_INTRO.length).split('\n').slice(1)) {
    const m = /^- ([a-z]+): (.*) \(×(\d+)\)$/.exec(line);
    if (!m) break;
    out.push({ kind: m[1], text: m[2], count: Number(m[3]) });
  }
  return out;
}

// The shapes of entries a model cannot use, as issue [9] found them on real sessions. Each takes
// one entry ({ kind, text }) and says whether it is in that shape.
/** A download or transfer counter read as a path: `514M/1.42G`, `12.5MB/40.1MB`. */
const isProgressCounter = (e) => /^\d+(?:\.\d+)?\s?[KMGTP]?i?B?\/\d+(?:\.\d+)?\s?[KMGTP]?i?B?$/i.test(e.text) && /[KMGTP]/i.test(e.text);
/** A device or kernel file, mostly from a redirect (`2>/dev/null`). */
const isDevicePath = (e) => /^\/(?:dev|proc|sys)(?:\/|$)/.test(e.text);
/** A path inside a vendored tree: installed packages, not the project's files. */
const isVendoredPath = (e) => /(?:^|\/)(?:node_modules|site-packages|dist-packages|\.venv)(?:\/|$)|\.cargo\/registry\//.test(e.text);
/** A package registry's tarball or wheel URL, as a lockfile lists them. */
const isRegistryTarball = (e) => /^https?:\/\/(?:registry\.npmjs\.org|registry\.yarnpkg\.com|npm\.pkg\.github\.com|files\.pythonhosted\.org|pypi\.org\/packages|crates\.io\/api)\//.test(e.text)
  || (/^https?:\/\//.test(e.text) && /\/-\/[^/]+\.tgz$|\.whl$/.test(e.text));
/** A git diff's `a/…` or `b/…` side, not the path itself. */
const isGitDiffPrefix = (e) => e.kind === 'path' && /^[ab]\/[^/]/.test(e.text);
/** A conda environment as `conda env list` prints it: an install's root or `…/envs/<name>`. */
const isCondaEnv = (e) => e.kind === 'path'
  && /(?:^|\/)(?:(?:ana|mini)conda\d*|(?:mamba|mini)forge\d*)(?:\/envs\/[^/]+)?\/?$|\/envs\/[^/]+\/?$/.test(e.text);
/** A blob id from a diff's `index <old>..<new>` line listed as a commit. */
const isDiffBlobId = (e, texts) => e.kind === 'commit' && /^[0-9a-f]+$/.test(e.text)
  && texts.some((t) => new RegExp(`(?:^|\\n)index (?:[0-9a-f]*${e.text}[0-9a-f]*\\.\\.[0-9a-f]+|[0-9a-f]+\\.\\.[0-9a-f]*${e.text})`).test(t));
const NOISE_SHAPES = {
  'progress counter': isProgressCounter,
  'device path': isDevicePath,
  'vendored path': isVendoredPath,
  'registry tarball': isRegistryTarball,
  'git-diff prefix': isGitDiffPrefix,
  'conda env': isCondaEnv,
  'diff blob id': isDiffBlobId,
};
/** The names of the noise shapes an entry has; `texts` are the window's texts (for context). */
const noiseShapes = (e, texts) => Object.entries(NOISE_SHAPES).filter(([, is]) => is(e, texts)).map(([name]) => name);

/** Why an entry the history lacks is not there, from what the window really held. */
function whyUnfindable(entry, history, contents) {
  const squash = (s) => s.replace(/\s+/g, ' ');
  if (squash(history).includes(entry.text)) return 'whitespace collapsed (the history has it with tabs or newlines)';
  const result = contents.results.find((r) => r.text.includes(entry.text));
  if (result) return `only in the cut part of a ${result.tool} result (${result.text.length} chars; the history keeps 12,000)`;
  if (contents.texts.some((t) => squash(t).includes(entry.text))) return 'in the window only with other whitespace';
  return 'not in the resumed window as written';
}

// ---- redactions --------------------------------------------------------------------------------

/** Every `[REDACTED:<kind>]` in `text`, 40 characters either side, and what it replaced. */
function redactionsIn(where, text, contents) {
  const matches = [...text.matchAll(REDACTED)];
  return matches.map((m, i) => {
    const end = m.index + m[0].length;
    // What the source must hold around it: the text since the last redaction, up to the next.
    const lead = text.slice(Math.max(i ? matches[i - 1].index + matches[i - 1][0].length : 0, m.index - 24), m.index);
    const tail = text.slice(end, Math.min(i + 1 < matches.length ? matches[i + 1].index : text.length, end + 16));
    return {
      where, kind: m[0].slice(10, -1),
      before: text.slice(Math.max(0, m.index - CONTEXT), m.index),
      after: text.slice(end, end + CONTEXT),
      was: originalOf(lead, tail, contents),
    };
  });
}

/** The source text between `lead` and `tail`, found in the window's own texts. */
function originalOf(lead, tail, contents) {
  if (lead.length < 4) return null;
  for (const t of contents.texts) {
    let from = t.indexOf(lead);
    while (from >= 0) {
      const start = from + lead.length;
      const end = tail ? t.indexOf(tail, start) : Math.min(t.length, start + 60);
      if (end >= start && end - start <= 400) return t.slice(start, end);
      from = t.indexOf(lead, from + 1);
    }
  }
  return null;
}

// ---- one file ------------------------------------------------------------------------------------

/** A fresh work dir whose HOME holds the transcript (and settings, when given): the harness's layout. */
function prepareHome(file, sessionId, cwd, label, settings) {
  const workRoot = process.env.E2E_WORK_ROOT ?? os.tmpdir();
  fs.mkdirSync(workRoot, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(workRoot, `cp-e2e-real-${label.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
  const configDir = path.join(workDir, 'home', '.claude');
  const dest = path.join(configDir, 'projects', projectSlug(cwd), `${sessionId}.jsonl`);
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  fs.copyFileSync(file.path, dest);
  if (settings) fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify(settings, null, 2));
  return workDir;
}

const VARIANTS = {
  mod: { mod: MOD },
  none: { mod: 'none' },
  reference: { mod: 'reference' },
  'recall-off': { mod: MOD, settings: { pluginConfigs: { 'compact-plus': { options: { recallTool: false } } } } },
};

/** One resume of `file` with a variant: `/compact`, one more turn. */
async function resumeOnce(file, variant, k) {
  const { sessionId, cwd } = file;
  const v = VARIANTS[variant];
  const label = `${file.short}-${variant}-${k}`;
  const workDir = prepareHome(file, sessionId, cwd, label, v.settings);
  const run = await runSession({
    mod: v.mod, workDir, label,
    args: ['--resume', sessionId],
    turns: ['/compact', 'one more turn after the compaction'],
    turnTimeoutMs: TURN_TIMEOUT_MS, sessionTimeoutMs: SESSION_TIMEOUT_MS,
  });
  const compactMs = run.turns[0]?.result && !run.turns[0].result.is_error ? run.turns[0].ms : null;
  const times = hookTimes(run);
  const first = (hook) => times.find((h) => h.hook === hook)?.ms ?? null;
  return {
    run, variant, compactMs, ...phases(run.debugLog),
    // The mod's (and the reference's) own hooks on the way to the summarizer request.
    toolListMs: first('tool.list'),
    firstContextMs: first('prompt.context'),
    recallListed: run.requests.some((r) => (r.body?.tools ?? []).some((x) => x?.name === 'compact_plus_recall')),
    optionsRead: /no pluginConfigs\["compact-plus"/.test(run.debugLog) ? 'defaults' : run.modDir ? 'settings' : null,
  };
}

/**
 * Where a run's start-up went, from the debug log's timestamps: `bootMs` from its first line to
 * the engine raising session.start (plugins and hooks modules loaded in it), `startupHooksMs` from
 * there to the summarizer request of the `/compact` (session.start hooks, the recall tool's MCP
 * server connecting, prompt.context, session.compact up to its `next`).
 */
function phases(debugLog) {
  const at = (re) => {
    const line = debugLog.split('\n').find((l) => re.test(l));
    const t = line && Date.parse(line.slice(0, 24));
    return Number.isFinite(t) ? t : null;
  };
  const first = at(/^\d{4}-/);
  const raised = at(/\] session\.start: raised/);
  const request = at(/\[API REQUEST\] \/v1\/messages source=compact/);
  return {
    bootMs: first !== null && raised !== null ? raised - first : null,
    startupHooksMs: raised !== null && request !== null ? request - raised : null,
  };
}

/** Every run of a file: the mod's (judged), then the comparison runs, one after another. */
async function resumeFile(file) {
  const t0 = performance.now();
  const runs = { mod: [] };
  for (const v of TIMING) runs[v] = [];
  const order = ['mod', ...TIMING.filter((v) => !(MOD === 'reference' && (v === 'reference' || v === 'recall-off')))];
  for (let k = 0; k < REPEAT; k++) {
    // Rotated each repeat, so no variant always runs first (on a cold cache) or last.
    const rot = order.map((_, i) => order[(i + k) % order.length]);
    for (const v of rot) {
      const r = await resumeOnce(file, v, k);
      runs[v].push(r);
      if (!(v === 'mod' && k === 0) && !KEEP) r.run.cleanup();
    }
  }
  return { runs, ms: Math.round(performance.now() - t0) };
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** What the mod made of one file: the per-file report and the failures. */
function judge(file, { runs }) {
  const modRun = runs.mod[0];
  const run = modRun.run;
  const failures = [];
  const lines = [];
  const say = (s) => lines.push(s);
  const timing = Object.fromEntries(Object.entries(runs).map(([v, rs]) => [v, median(rs.map((r) => r.compactMs))]));
  const boot = Object.fromEntries(Object.entries(runs).map(([v, rs]) => [v, median(rs.map((r) => r.bootMs))]));
  const hooks = Object.fromEntries(Object.entries(runs).map(([v, rs]) => [v, median(rs.map((r) => r.startupHooksMs))]));
  const firstContext = Object.fromEntries(Object.entries(runs).map(([v, rs]) => [v, median(rs.map((r) => r.firstContextMs))]));
  const row = { file: file.rel, short: file.short, timing, boot, hooks, firstContext, toolListMs: median(runs.mod.map((r) => r.toolListMs)), failures };
  if (!run.ok) {
    failures.push(`the resumed session did not complete: ${run.timedOut ?? `exit ${JSON.stringify(run.exit)}`}; turns ${JSON.stringify(run.turns.map((x) => x.result?.result?.slice?.(0, 120) ?? null))}; stderr ${run.stderr.slice(-600)}`);
    return { row, lines, failures, run };
  }
  if (run.modDir && !/hooks module \S+@inline loaded \(worker/.test(run.debugLog)) failures.push('the mod did not load');
  const failOpen = run.debugLog.split('\n').filter((l) => /compact-plus: \S+ failed open/.test(l)).map((l) => l.replace(/^.*?compact-plus: /, ''));
  if (failOpen.length) failures.push(`the mod failed open ${failOpen.length}×: ${[...new Set(failOpen)].slice(0, 3).join(' | ')}`);

  // The CLI appends to the transcript it resumed; what was there must stay byte for byte.
  const source = fs.readFileSync(file.path);
  const resumedFile = run.transcriptPath ? fs.readFileSync(run.transcriptPath) : Buffer.alloc(0);
  const intact = resumedFile.length >= source.length && resumedFile.subarray(0, source.length).equals(source);
  if (!intact) failures.push(`the resumed transcript ${run.transcriptPath ?? '(not found)'} no longer starts with the original's ${source.length} bytes`);

  const resumed = resumedWindow(file.rows);
  const window = resumed.rows;
  const contents = windowContents(window);
  const compaction = run.compactionRequests[0];
  const sent = compaction ? JSON.stringify(compaction.body?.messages ?? []) : '';
  const inRequest = (t) => sent.includes(JSON.stringify(t).slice(1, -1));
  const person = contents.person.filter(inRequest);
  const notSent = contents.person.filter((t) => !inRequest(t));
  const resultsSent = contents.results.filter((x) => !x.text.trim() || inRequest(x.text.slice(0, 200)));
  const resultsNotSent = contents.results.filter((x) => !resultsSent.includes(x));
  say(`resumed window: ${window.length} messages after ${resumed.boundary ? 'the last compact boundary' : 'the start'}; ${contents.person.length} person messages (${notSent.length} not in the engine's summarizer request${notSent.length ? `: ${notSent.map((t) => JSON.stringify(t.slice(0, 50))).join(', ')}` : ''}), ${contents.results.length} tool results (${resultsNotSent.length} not in it${resultsNotSent.length ? `: ${resultsNotSent.map((x) => `${x.tool} ${x.text.length} chars ${JSON.stringify(x.text.slice(0, 50))}`).join(', ')}` : ''})`);
  if (!compaction) failures.push('no summarizer request: /compact did not compact');
  if (contents.person.length && !person.length) failures.push('the summarizer request holds none of the window\'s person messages: the resume did not load the transcript');

  // The history the compaction wrote.
  const dir = path.join(run.historyRoot, run.sessionId ?? '');
  const mdFiles = run.history.filter((f) => f.path.startsWith(dir + path.sep) && f.rel.endsWith('.md') && !f.rel.endsWith('.summary.md'));
  const history = mdFiles.map((f) => f.text).join('\n');
  const logText = run.history.find((f) => f.path === path.join(dir, 'log.jsonl'))?.text ?? '';
  const event = run.historyLog.find((e) => e.event === 'compact');
  say(`transcript: the original ${source.length} bytes intact: ${intact ? 'yes' : 'NO'}, ${resumedFile.length - source.length} bytes appended by the resumed session`);
  say(`history: ${mdFiles.map((f) => `${path.basename(f.rel)} (${f.size} B)`).join(', ') || 'NONE'}; log.jsonl compact: ${event ? `messages ${event.messages}, verbatim ${event.verbatim}, tokensBefore ${event.tokensBefore}` : 'none'}`);
  if (run.modDir && !mdFiles.length && MOD !== 'none') failures.push('no history file written');

  // Person messages.
  const plain = (s) => s.replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '');
  const lost = person.filter((t) => !history.includes(t.trim()) && !history.includes(plain(t).trim()));
  row.person = `${person.length - lost.length}/${person.length}`;
  say(`person messages in the history: ${person.length - lost.length}/${person.length}${lost.length ? `; MISSING: ${lost.map((t) => JSON.stringify(t.slice(0, 80))).join(', ')}` : ''}`);
  for (const t of lost) failures.push(`person message lost from the history: ${JSON.stringify(t.slice(0, 120))}`);

  // Tool results, by the head of their text (the history cuts long ones in the middle).
  const withText = resultsSent.filter((r) => r.text.trim());
  const head = (r) => plain(r.text).trim().slice(0, 80);
  const missingResults = withText.filter((r) => !history.includes(head(r)));
  row.results = `${withText.length - missingResults.length}/${withText.length}`;
  say(`tool results in the history: ${row.results}${missingResults.length ? `; not found by their head: ${missingResults.slice(0, 5).map((r) => `${r.tool} ${JSON.stringify(head(r).slice(0, 50))}`).join(', ')}` : ''}`);

  // The summary row's blocks: the verbatim block and its current-request mark, the audit.
  const rows = summaryRows(run);
  const rowText = rows.length ? textOf(rows.at(-1).message.content) : '';
  const vStart = rowText.lastIndexOf(VERBATIM_OPEN);
  const vEnd = rowText.indexOf(VERBATIM_CLOSE, vStart);
  const verbatim = vStart >= 0 && vEnd > vStart ? rowText.slice(vStart, vEnd) : null;
  const lastPerson = person.at(-1);
  let current = 'no verbatim block';
  if (verbatim) {
    const seps = [...verbatim.matchAll(SEPARATOR)];
    const marked = seps.filter((m) => m[1].startsWith('current request')).length;
    if (marked) failures.push(`the verbatim block after a /compact marks ${marked} request(s) current`);
    const at = seps.at(-1);
    const newest = at ? verbatim.slice(at.index + at[0].length).trim() : null;
    // A long message is cut in the middle to the verbatim budget, with a note where.
    const cut = newest && /\n\[\.\.\. (\d+) characters cut; [^\]]*\]\n/.exec(newest);
    const same = (m, p) => m === p.trim()
      || (cut && p.trim().startsWith(m.slice(0, cut.index)) && p.trim().endsWith(m.slice(cut.index + cut[0].length)));
    current = newest === null ? 'no message kept'
      : lastPerson && same(newest, lastPerson) ? `yes: the newest person message is the last kept${cut ? ` (cut to ${newest.length} of ${lastPerson.trim().length} chars)` : ''}, ${marked} marked current`
        : `last kept: ${JSON.stringify(newest.slice(0, 60))}, newest person message ${JSON.stringify(lastPerson?.slice(0, 60))}`;
  }
  row.current = current.startsWith('yes') ? 'yes' : current;
  say(`the newest person message in the verbatim block: ${current}`);
  const nextReq = run.normalRequests.at(-1);
  const reached = nextReq && firstUserText(nextReq).includes(VERBATIM_OPEN);
  say(`the turn after /compact: ${run.turns[1]?.result?.is_error === false ? 'answered' : 'NOT answered'}; its request carries the verbatim block: ${reached ? 'yes' : 'no'}`);

  const entries = auditEntries(rowText);
  const unfindable = entries.filter((e) => !history.includes(e.text));
  const noisy = entries.map((e) => ({ e, shapes: noiseShapes(e, contents.texts) })).filter((x) => x.shapes.length);
  row.audit = { listed: entries.length, findable: entries.length - unfindable.length, noise: noisy.length };
  say(`audit: ${entries.length} listed, ${entries.length - unfindable.length} findable verbatim in the history, ${noisy.length} in a noise shape`);
  const byKind = {};
  for (const e of entries) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
  if (entries.length) say(`  kinds: ${Object.entries(byKind).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  const byShape = {};
  for (const x of noisy) for (const s of x.shapes) (byShape[s] ??= []).push(x.e.text);
  for (const [s, xs] of Object.entries(byShape)) say(`  noise, ${s} (${xs.length}): ${xs.slice(0, 6).map((x) => JSON.stringify(x)).join(', ')}${xs.length > 6 ? ', …' : ''}`);
  for (const e of unfindable) {
    const why = whyUnfindable(e, history, contents);
    say(`  UNFINDABLE ${e.kind}: ${JSON.stringify(e.text)}: ${why}`);
    failures.push(`audit entry not in the history by its exact text: ${e.kind} ${JSON.stringify(e.text)} (${why})`);
  }

  // Redactions: in the history, the stored summary row, log.jsonl.
  const redactions = [
    ...mdFiles.flatMap((f) => redactionsIn(path.basename(f.rel), f.text, contents)),
    ...redactionsIn('summary row', rowText, contents),
    ...redactionsIn('log.jsonl', logText, contents),
  ];
  row.redactions = redactions.length;
  row.redactionKinds = [...new Set(redactions.map((r) => r.kind))];
  say(`redactions: ${redactions.length}`);
  for (const r of redactions) {
    const line = `[REDACTED:${r.kind}] in ${r.where}: …${JSON.stringify(r.before)} ⟨here⟩ ${JSON.stringify(r.after)}…; it replaced ${r.was === null ? '(not found in the window)' : JSON.stringify(r.was)}`;
    say(`  ${line}`);
    failures.push(`false redaction (the transcripts hold no live credentials): ${line}`);
  }

  const fmt = (ms) => (ms === null || ms === undefined ? '–' : `${(ms / 1000).toFixed(2)} s`);
  say(`/compact wall time (CLI start to its result): ${Object.entries(timing).map(([v, ms]) => `${v} ${fmt(ms)}`).join(', ')}${REPEAT > 1 ? ` (medians of ${REPEAT})` : ''}`);
  say(`  of it, boot to session.start: ${Object.entries(boot).map(([v, ms]) => `${v} ${ms ?? '–'} ms`).join(', ')}; session.start to the summarizer request: ${Object.entries(hooks).map(([v, ms]) => `${v} ${ms ?? '–'} ms`).join(', ')}`);
  say(`  compact-plus's tool.list hook (the recall tool listed, the compile started) settled in ${row.toolListMs ?? '–'} ms; the first prompt.context settled in ${Object.entries(firstContext).map(([v, ms]) => `${v} ${ms ?? '–'} ms`).join(', ')}`);
  const off = runs['recall-off']?.[0];
  if (off && off.optionsRead !== 'settings') failures.push(`the recall-off run did not read its options from settings.json (${off.optionsRead})`);
  if (off && off.recallListed) failures.push('the recall-off run still listed the recall tool');
  if (!modRun.recallListed) failures.push('the recall tool was in no request');
  return { row, lines, failures, run };
}

// ---- the tests -----------------------------------------------------------------------------------

let pool = null;
/** Starts every file's runs, PARALLEL files at a time; each test awaits its own file. */
function startPool() {
  if (pool) return pool;
  const jobs = CLAUDE.map((f) => {
    let resolve;
    const p = new Promise((r) => { resolve = r; });
    return { f, p, resolve };
  });
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const j = jobs[next++];
      try { j.resolve({ ok: true, value: await resumeFile(j.f) }); } catch (err) { j.resolve({ ok: false, err }); }
    }
  };
  pool = { jobs: new Map(jobs.map((j) => [j.f, j.p])), done: Promise.all(Array.from({ length: Math.min(PARALLEL, jobs.length) }, worker)) };
  return pool;
}

const suiteStart = performance.now();
const tableRows = [];
const codexRows = [];

test('real transcripts are there', { skip: SKIP }, () => {
  assert.ok(FILES.length > 0, `no .jsonl files under ${SOURCE}${ONLY ? ` matching ${ONLY}` : ''}`);
  const unknown = FILES.filter((f) => f.format === 'unknown');
  assert.deepEqual(unknown.map((f) => f.rel), [], 'files that are neither a Claude Code transcript nor a Codex rollout');
});

for (const file of CLAUDE) {
  test(`claude-code ${file.rel}`, { skip: SKIP, timeout: 600000 }, async (t) => {
    assert.deepEqual(file.bad, [], 'lines that are not JSON');
    const ids = new Set(file.rows.filter((r) => r.sessionId).map((r) => r.sessionId));
    t.diagnostic(`session ${file.sessionId}${ids.size > 1 ? ` (and ${ids.size - 1} other id(s))` : ''}, recorded cwd ${file.cwd} (exists here: ${fs.existsSync(file.cwd)}), CC ${file.version}`);
    const settled = await startPool().jobs.get(file);
    if (!settled.ok) throw settled.err;
    const judged = judge(file, settled.value);
    for (const l of judged.lines) t.diagnostic(l);
    tableRows.push(judged.row);
    const keep = KEEP || judged.failures.length > 0;
    if (keep) t.diagnostic(`kept ${judged.run.workDir}`);
    else judged.run.cleanup();
    t.diagnostic(`${settled.value.ms} ms for ${Object.values(settled.value.runs).reduce((n, rs) => n + rs.length, 0)} resumes`);
    assert.deepEqual(judged.failures, [], `${file.rel}: ${judged.failures.length} failure(s)`);
  });
}

for (const file of CODEX) {
  test(`codex ${file.rel} parses`, { skip: SKIP }, (t) => {
    const counts = {};
    const payloads = {};
    for (const r of file.rows) {
      counts[r.type] = (counts[r.type] ?? 0) + 1;
      const p = r.payload?.type;
      if (p) payloads[`${r.type}/${p}`] = (payloads[`${r.type}/${p}`] ?? 0) + 1;
    }
    const unknown = Object.keys(counts).filter((k) => !CODEX_TYPES.has(k));
    const meta = file.rows.find((r) => r.type === 'session_meta')?.payload ?? {};
    t.diagnostic(`${file.rows.length} rows (${file.bad.length} not JSON), Codex ${meta.cli_version ?? '?'}: ${Object.entries(counts).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    t.diagnostic(`payload types: ${Object.entries(payloads).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    codexRows.push({ file: file.rel, rows: file.rows.length, bad: file.bad.length, counts, unknown });
    assert.deepEqual(file.bad, [], 'lines that are not JSON');
    assert.deepEqual(unknown, [], 'row types not known for a Codex rollout');
    assert.equal(counts.session_meta, 1, 'one session_meta row');
  });
}

test('the table', { skip: SKIP }, async (t) => {
  if (pool) await pool.done;
  const fmt = (ms) => (ms === null || ms === undefined ? '–' : (ms / 1000).toFixed(2));
  const esc = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const cols = ['mod', ...TIMING];
  const lines = [
    `| file | person msgs in history | tool results | newest kept, none current | audit listed / findable / noise | redactions | ${cols.map((c) => `/compact ${c} (s)`).join(' | ')} | failures |`,
    `| --- | --- | --- | --- | --- | --- | ${cols.map(() => '---').join(' | ')} | --- |`,
  ];
  const order = CLAUDE.map((f) => tableRows.find((r) => r.file === f.rel)).filter(Boolean);
  for (const r of order) {
    lines.push(`| ${esc(r.file)} | ${r.person ?? '–'} | ${r.results ?? '–'} | ${esc(r.current ?? '–')} | ${r.audit ? `${r.audit.listed} / ${r.audit.findable} / ${r.audit.noise}` : '–'} | ${r.redactions ?? '–'}${r.redactionKinds?.length ? ` (${r.redactionKinds.join(', ')})` : ''} | ${cols.map((c) => fmt(r.timing[c])).join(' | ')} | ${r.failures.length} |`);
  }
  const sum = (f) => order.reduce((n, r) => n + (f(r) ?? 0), 0);
  const med = (c) => median(order.map((r) => r.timing[c]));
  const summary = [
    '',
    `Totals over ${order.length} Claude Code sessions: audit ${sum((r) => r.audit?.listed)} entries listed, ${sum((r) => r.audit?.findable)} findable verbatim in the history, ${sum((r) => r.audit?.noise)} in a noise shape; ${sum((r) => r.redactions)} redactions (all false: public transcripts, no live credentials); ${sum((r) => r.failures.length)} failures.`,
    `Median /compact wall time (CLI start to the /compact result, \`claude -p --resume <id>\`): ${cols.map((c) => `${c} ${fmt(med(c))} s`).join(', ')}.`,
  ];
  if (REPEAT === 1) summary.push(`(One run of each variant per file${PARALLEL > 1 ? `, ${PARALLEL} files at a time` : ''}: on busy cores a single time moves by 0.1–0.3 s; E2E_REAL_REPEAT=3 gives medians of three.)`);
  if (med('none') !== null) summary.push(`What the mod adds to a /compact: ${fmt(med('mod') - med('none'))} s (median with minus median without)${med('recall-off') !== null ? `; of it, the recall tool (recallTool on vs off): ${fmt(med('mod') - med('recall-off'))} s` : ''}; per-file differences, median: ${fmt(median(order.map((r) => (r.timing.mod ?? NaN) - (r.timing.none ?? NaN)).filter((x) => !Number.isNaN(x))))} s.`);
  const medOf = (key, c) => median(order.map((r) => r[key][c]));
  summary.push(`Of it (medians over the files, from the debug log): boot to session.start ${cols.map((c) => `${c} ${medOf('boot', c) ?? '–'} ms`).join(', ')}; session.start to the summarizer request ${cols.map((c) => `${c} ${medOf('hooks', c) ?? '–'} ms`).join(', ')}.`);
  // The /compact a person waits for, as a ratio of the engine alone, file by file, then the median.
  const ratio = (c) => median(order.map((r) => (r.timing[c] && r.timing.none ? r.timing[c] / r.timing.none : NaN)).filter((x) => !Number.isNaN(x)));
  if (med('none') !== null) summary.push(`The /compact a person waits for, per file as a ratio of the engine alone, median: ${cols.filter((c) => c !== 'none').map((c) => `${c} ${ratio(c)?.toFixed(2) ?? '–'}×`).join(', ')}.`);
  summary.push(`The first prompt.context of a session (its hook's own time, debug log), median: ${cols.filter((c) => c !== 'none').map((c) => `${c} ${medOf('firstContext', c) ?? '–'} ms`).join(', ')}; compact-plus's tool.list hook (the recall tool listed, no MCP server; the compile started) ${median(order.map((r) => r.toolListMs)) ?? '–'} ms.`);
  if (codexRows.length) {
    summary.push('', '| Codex rollout | rows | not JSON | row types | unknown types |', '| --- | --- | --- | --- | --- |');
    for (const c of codexRows) summary.push(`| ${esc(c.file)} | ${c.rows} | ${c.bad} | ${Object.entries(c.counts).map(([k, n]) => `${k} ${n}`).join(', ')} | ${c.unknown.join(', ') || 'none'} |`);
  }
  summary.push('', `Claude Code CLI in -p (stream-json), mod ${MOD}; ${order.length} sessions × ${1 + TIMING.length} variant(s) × ${REPEAT}, ${PARALLEL} file(s) at a time; ${((performance.now() - suiteStart) / 1000).toFixed(0)} s; ${new Date().toISOString()}.`);
  for (const l of [...lines, ...summary]) t.diagnostic(l);
  fs.mkdirSync(path.dirname(TABLE), { recursive: true });
  fs.writeFileSync(TABLE, `# Real sessions: resume, /compact, one more turn\n\n${[...lines, ...summary].join('\n')}\n`);
  t.diagnostic(`written to ${TABLE}`);
  assert.equal(order.length, CLAUDE.length, 'a Claude Code file has no row (its test did not run to the end)');
});
