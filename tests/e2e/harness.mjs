#!/usr/bin/env node
// End-to-end harness: the REAL Claude Code CLI, a fake Messages API on 127.0.0.1 and a mod.
// Adapted from /work/shared/e2e-kit/run-e2e.mjs into a library. Node 20, no dependencies.
//
//   import { runSession } from './harness.mjs';
//   const run = await runSession({ mod: 'reference', turns: ['hello', '/compact keep X', 'bye'] });
//   run.requests, run.stream, run.debugLog, run.sessionId, run.transcript, run.history, ...
//
// One `claude -p --input-format stream-json --output-format stream-json --verbose` process per
// session, fed one turn at a time: a prompt is written only after the previous turn's `result`
// line (prompts written ahead are queued and merged into one turn). Everything lives in a fresh
// work dir (throwaway HOME, project dir, logs) so runs can go side by side.
//
// The CLI: $CLAUDE_BIN, else $COMPACT_PLUS_TOOLS/node_modules/.bin/claude, else
// ~/.cache/compact-plus-tools/node_modules/.bin/claude (scripts/setup installs it).
// The mod: 'repo' (the repo root, whose .claude-plugin/plugin.json names ./mod.json), 'reference'
// (built from the seed by reference-mod.mjs), 'none', or a folder path. Default $E2E_MOD or 'repo'.
//
// From a shell (for hand runs and the benchmark), with a kit-style scenario JSON
// ({ fake, env, args, claudeMd, turns: [{ prompt, pad, fake, waitAfterMs }] }):
//   node tests/e2e/harness.mjs --mod reference --scenario s.json [--keep]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeApi } from './fake-api.mjs';
import { buildReferenceMod, REPO_ROOT } from './reference-mod.mjs';

export { REPO_ROOT };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function claudeBin() {
  if (process.env.CLAUDE_BIN) return process.env.CLAUDE_BIN;
  const tools = process.env.COMPACT_PLUS_TOOLS ?? path.join(os.homedir(), '.cache', 'compact-plus-tools');
  return path.join(tools, 'node_modules', '.bin', 'claude');
}

/** The plugin folder for a mod name ('repo' | 'reference' | 'none' | a path); null for none. */
export function resolveMod(mod = process.env.E2E_MOD ?? 'repo', workDir = null) {
  if (mod === 'none' || mod === null) return null;
  if (mod === 'reference') return buildReferenceMod(workDir ? fs.mkdtempSync(path.join(workDir, 'refmod-')) : undefined);
  const dir = mod === 'repo' ? REPO_ROOT : path.resolve(mod);
  if (!fs.existsSync(path.join(dir, '.claude-plugin', 'plugin.json'))) {
    throw new Error(`no mod at ${dir} (.claude-plugin/plugin.json is missing); set E2E_MOD=reference to test the reference mod`);
  }
  return dir;
}

/** The CLI's project slug: the absolute cwd with every non-alphanumeric character as '-'. */
export const projectSlug = (dir) => dir.replace(/[^A-Za-z0-9]/g, '-');

/** The session's transcript (<configDir>/projects/<slug>/<session>.jsonl), or null. */
export function findTranscript(configDir, sessionId) {
  const projectsDir = path.join(configDir, 'projects');
  if (!sessionId || !fs.existsSync(projectsDir)) return null;
  for (const d of fs.readdirSync(projectsDir)) {
    const p = path.join(projectsDir, d, `${sessionId}.jsonl`);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export function readJsonl(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => {
    try { return JSON.parse(l); } catch { return { _unparsed: l }; }
  });
}

/** Every file under root (recursively): [{ rel, path, size, text }]. */
export function listTree(root) {
  const out = [];
  const walk = (dir) => {
    let entries = [];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const st = fs.statSync(p);
        out.push({ rel: path.relative(root, p), path: p, size: st.size, mode: st.mode & 0o777, text: fs.readFileSync(p, 'utf8') });
      }
    }
  };
  walk(root);
  return out;
}

function filler(n) {
  if (!n) return '';
  return `\n\n<filler>\n${'lorem ipsum dolor sit amet '.repeat(Math.ceil(n / 27)).slice(0, n)}\n</filler>`;
}

// CLI process groups still running; killed when this process exits or is told to stop. A CLI
// left behind (its parent killed outright) keeps retrying the vanished fake API for minutes, so
// each CLI also runs under coreutils `timeout -s KILL` as a watchdog that outlives its parent.
const liveGroups = new Set();
const killLive = () => { for (const pid of liveGroups) { try { process.kill(-pid, 'SIGKILL'); } catch {} } };
process.on('exit', killLive);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => { killLive(); process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1)); });
}
const WATCHDOG = ['/usr/bin/timeout', '/bin/timeout'].find((p) => fs.existsSync(p)) ?? null;

/**
 * Runs one CLI session.
 *
 * opts:
 *   mod           'repo' | 'reference' | 'none' | folder (default $E2E_MOD or 'repo')
 *   turns         list of a prompt string (may be '/compact <instructions>') or
 *                 { prompt, pad, fake, before(ctx), waitAfter: { ms, until(ctx) } }:
 *                   prompt     the text, or a function of ctx returning it (run after `before`)
 *                   fake       knobs set on the fake API before the prompt is sent
 *                   before     async hook run before the prompt (edit files, change env-visible state)
 *                   pad        that many filler characters appended to the prompt
 *                   waitAfter  after the result line, keep the session open up to `ms` (or until
 *                              `until(ctx)` is true, polled every 50 ms) before the next turn / exit
 *   fake          starting knobs of the fake API (see fake-api.mjs)
 *   env           extra env for the CLI (a null value removes a variable; with HOME removed or
 *                 empty, CLAUDE_CONFIG_DIR is set to <home>/.claude so the real home stays untouched)
 *   args          extra CLI args (e.g. ['--allowedTools', 'Bash'])
 *   claudeMd      text of <project>/CLAUDE.md written before the start (null: no file)
 *   files         { 'relative/path': text } written into the project dir before the start
 *   turnTimeoutMs per turn (default 60000); sessionTimeoutMs overall (default 150000)
 *   workDir       default: a fresh mkdtemp under $E2E_WORK_ROOT or os.tmpdir()
 *   label         for the work dir name
 *   historyRoot   where to list compact-history from (default <home>/.claude/compact-history)
 *
 * ctx (handed to before/until): { home, projectDir, workDir, fake, stream, results, unsolicitedResults, historyRoot,
 *   writeProjectFile(rel, text), readHistoryLog(sid?) }
 */
export async function runSession(opts = {}) {
  const t0 = performance.now();
  const label = (opts.label ?? 'run').replace(/[^A-Za-z0-9_.-]/g, '_');
  const workRoot = process.env.E2E_WORK_ROOT ?? os.tmpdir();
  fs.mkdirSync(workRoot, { recursive: true });
  const workDir = opts.workDir ?? fs.mkdtempSync(path.join(workRoot, `cp-e2e-${label}-`));
  const home = path.join(workDir, 'home');
  const projectDir = path.join(workDir, 'proj');
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(projectDir, { recursive: true });
  if (opts.claudeMd != null) fs.writeFileSync(path.join(projectDir, 'CLAUDE.md'), opts.claudeMd);
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(projectDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(projectDir, rel), text);
  }
  const modName = opts.mod ?? process.env.E2E_MOD ?? 'repo';
  let modDir;
  try { modDir = resolveMod(modName, workDir); } catch (err) {
    if (!opts.workDir) fs.rmSync(workDir, { recursive: true, force: true });
    throw err;
  }

  const fake = await startFakeApi({ knobs: opts.fake ?? {}, logPath: path.join(workDir, 'requests.jsonl') });
  const debugFile = path.join(workDir, 'debug.log');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'dumb',
    ANTHROPIC_API_KEY: 'dummy-key',
    ANTHROPIC_BASE_URL: fake.url,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === null || v === undefined) delete env[k];
    else env[k] = String(v);
  }
  // Without HOME (unset or empty) the CLI falls back to the account's home from the password
  // database and would write the real ~/.claude; CLAUDE_CONFIG_DIR keeps all of it in the work dir
  // (checked: with it set, nothing at all is written to the real home).
  if (!env.HOME && !env.CLAUDE_CONFIG_DIR) env.CLAUDE_CONFIG_DIR = path.join(home, '.claude');
  const configDir = env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude');
  const cli = opts.cli ?? claudeBin();
  if (!fs.existsSync(cli)) throw new Error(`Claude Code CLI not found at ${cli} (run scripts/setup, or set CLAUDE_BIN)`);
  const cliArgs = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose',
    '--debug-file', debugFile,
    ...(modDir ? ['--plugin-dir', modDir] : []),
    ...(opts.args ?? [])];

  const stream = [];
  const results = [];
  const unsolicitedResults = [];
  const waiters = [];
  const streamOut = fs.createWriteStream(path.join(workDir, 'stream.jsonl'));
  let stderr = '';
  const sessionTimeoutMs = opts.sessionTimeoutMs ?? 150000;
  const [cmd, argv] = WATCHDOG
    ? [WATCHDOG, ['-s', 'KILL', `${Math.ceil(sessionTimeoutMs / 1000) + 30}`, cli, ...cliArgs]]
    : [cli, cliArgs];
  const child = spawn(cmd, argv, { cwd: projectDir, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  liveGroups.add(child.pid);
  const exited = new Promise((r) => child.on('exit', (code, signal) => { liveGroups.delete(child.pid); r({ code, signal }); }));
  let exitInfo = null;
  exited.then((x) => { exitInfo = x; });
  child.stdin.on('error', () => {});
  child.stderr.on('data', (d) => { stderr += d.toString('utf8'); });
  let buf = '';
  child.stdout.on('data', (d) => {
    streamOut.write(d);
    buf += d.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.trim()) continue;
      let msg;
      try { msg = JSON.parse(line); } catch { msg = { type: '_unparsed', line }; }
      msg._at = Math.round(performance.now() - t0);
      stream.push(msg);
      if (msg.type === 'result') {
        const w = waiters.shift();
        if (w) w(msg); else unsolicitedResults.push(msg);
      }
    }
  });

  let timedOut = null;
  const killGroup = (why) => {
    if (exitInfo) return;
    timedOut = timedOut ?? why;
    try { process.kill(-child.pid, 'SIGKILL'); } catch {}
  };
  const sessionTimer = setTimeout(() => killGroup(`session timeout ${sessionTimeoutMs} ms`), sessionTimeoutMs);

  const historyRoot = opts.historyRoot ?? path.join(home, '.claude', 'compact-history');
  const ctx = {
    home, projectDir, workDir, fake, stream, results, unsolicitedResults, historyRoot,
    writeProjectFile(rel, text) {
      const p = path.join(projectDir, rel);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    },
    sessionId: () => stream.find((m) => m.session_id)?.session_id ?? null,
    readHistoryLog(sid = ctx.sessionId(), root = historyRoot) {
      return sid ? readJsonl(path.join(root, sid, 'log.jsonl')) : [];
    },
  };

  const turnTimeoutMs = opts.turnTimeoutMs ?? 60000;
  const turns = [];
  for (const [n, raw] of (opts.turns ?? []).entries()) {
    const turn = typeof raw === 'string' ? { prompt: raw } : raw;
    if (exitInfo) break;
    if (turn.before) await turn.before(ctx);
    if (turn.fake) fake.configure(turn.fake);
    const started = performance.now();
    const reqBefore = fake.requests.length;
    const result = new Promise((r) => waiters.push(r));
    const prompt = typeof turn.prompt === 'function' ? await turn.prompt(ctx) : turn.prompt;
    child.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: prompt + filler(turn.pad) } }) + '\n');
    let turnTimer;
    const res = await Promise.race([
      result,
      exited.then(() => null),
      new Promise((r) => { turnTimer = setTimeout(() => { killGroup(`turn ${n} timeout ${turnTimeoutMs} ms`); r(null); }, turnTimeoutMs); }),
    ]);
    clearTimeout(turnTimer);
    const record = { n, prompt, ms: Math.round(performance.now() - started), result: res, requestsFrom: reqBefore };
    if (res && turn.waitAfter) {
      const until = turn.waitAfter.until ?? (() => false);
      const deadline = performance.now() + (turn.waitAfter.ms ?? 3000);
      while (performance.now() < deadline && !exitInfo && !(await until(ctx))) await sleep(50);
      record.waitedMs = Math.round(performance.now() - started) - record.ms;
    }
    record.requestsTo = fake.requests.length;
    results.push(res);
    turns.push(record);
    if (!res) break;
  }
  child.stdin.end();
  const exitTimer = setTimeout(() => killGroup('no exit 20 s after stdin closed'), 20000);
  const exit = await exited;
  clearTimeout(exitTimer);
  clearTimeout(sessionTimer);
  await new Promise((r) => streamOut.end(r));
  await fake.close();
  fs.writeFileSync(path.join(workDir, 'stderr.txt'), stderr);

  const sessionId = ctx.sessionId();
  const transcriptPath = findTranscript(configDir, sessionId);
  const history = listTree(historyRoot);
  const debugLog = fs.existsSync(debugFile) ? fs.readFileSync(debugFile, 'utf8') : '';
  const messageRequests = fake.requests.filter((r) => r.kind === 'normal' || r.kind === 'compaction');
  const run = {
    label, mod: modName, modDir, workDir, home, projectDir, configDir, cli, cliArgs, env,
    exit, timedOut, totalMs: Math.round(performance.now() - t0),
    turns, results, unsolicitedResults,
    stream,
    stderr,
    debugLog,
    requests: fake.requests,
    messageRequests,
    compactionRequests: messageRequests.filter((r) => r.kind === 'compaction'),
    normalRequests: messageRequests.filter((r) => r.kind === 'normal'),
    compactBoundaries: stream.filter((m) => m.type === 'system' && m.subtype === 'compact_boundary'),
    sessionId,
    transcriptPath,
    transcript: transcriptPath ? readJsonl(transcriptPath) : [],
    historyRoot,
    history,
    historyLog: sessionId ? readJsonl(path.join(historyRoot, sessionId, 'log.jsonl')) : [],
    ok: !timedOut && turns.length === (opts.turns ?? []).length && turns.every((t) => t.result && !t.result.is_error),
    cleanup() { fs.rmSync(workDir, { recursive: true, force: true }); },
  };
  fs.writeFileSync(path.join(workDir, 'summary.json'), JSON.stringify({
    label, mod: modName, modDir, cliArgs, exit, timedOut, totalMs: run.totalMs, sessionId, transcriptPath,
    turns: turns.map((t) => ({ ...t, result: t.result && { subtype: t.result.subtype, is_error: t.result.is_error, result: t.result.result } })),
    compactBoundaries: run.compactBoundaries.map((m) => m.compact_metadata),
    history: history.map((f) => ({ rel: f.rel, size: f.size })),
  }, null, 2));
  return run;
}

// ---- helpers for assertions over a run ------------------------------------------------------

export function textOf(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (b?.type === 'text' ? b.text : b?.type === 'tool_result' ? textOf(b.content) : '')).join('\n');
}

/** The text of the last message of a request (the summarizer prompt for a compaction request). */
export function lastMessageText(req) {
  const msgs = (req?.body?.messages ?? []).filter((m) => m.role !== 'system');
  return textOf(msgs[msgs.length - 1]?.content);
}

/** The text of the first user message of a request (context blocks, and the summary after a compaction). */
export function firstUserText(req) {
  return textOf((req?.body?.messages ?? []).find((m) => m.role === 'user')?.content);
}

/** All the text a request carries in `messages` (all roles). */
export function allMessagesText(req) {
  return (req?.body?.messages ?? []).map((m) => textOf(m.content)).join('\n');
}

/** Debug-log lines matching a regex. */
export function debugLines(run, re) {
  return run.debugLog.split('\n').filter((l) => re.test(l));
}

/**
 * The stored summary rows of the run's transcript (one per compaction of the main conversation).
 * `transcript`: rows read elsewhere (run.transcript is looked up under the work dir's home, so a
 * run with its own HOME reads it with findTranscript + readJsonl).
 */
/**
 * Each compaction's stored summary: the engine's summary row (`isCompactSummary`), its content
 * followed by the text of the compact-plus context block the transcript stores after it (an
 * `attachment` row of type `context_sections`, before the next summary row), if any. The blocks
 * take that channel where the next request is built before the summary row is appended (an auto
 * compaction inside a turn) or where no hook sees the summary row (the terminal's `/compact`);
 * both measured on Claude Code 2.1.328. Throws when both hold compact-plus's blocks: they must
 * reach the model once.
 */
/** The paragraph after the last `Additional Instructions:` line of a summarizer prompt's text (the
 * engine's "REMINDER" cut off), or null: where the engine puts the instructions a hook passed down. */
export function instructionsIn(text) {
  const at = text.lastIndexOf('\nAdditional Instructions:\n');
  if (at < 0) return null;
  const body = text.slice(at + '\nAdditional Instructions:\n'.length);
  const end = body.indexOf('\n\nREMINDER:');
  return end >= 0 ? body.slice(0, end) : body;
}

export function summaryRows(run, transcript = run.transcript) {
  const out = [];
  for (const r of transcript) {
    if (r.isCompactSummary && r.type === 'user') {
      out.push({ ...r, message: { ...r.message, content: contentBlocks(r.message?.content) } });
      continue;
    }
    const last = out.at(-1);
    const sections = r.type === 'attachment' && r.attachment?.type === 'context_sections' ? r.attachment.sections ?? [] : [];
    for (const s of sections.filter((s) => s?.name === 'compact-plus')) {
      if (!last) throw new Error('a compact-plus context block before any summary row');
      const row = textOf(last.message.content);
      if (row.includes('<user-messages-verbatim>') || row.includes('compact-plus saved the conversation')) {
        throw new Error('compact-plus blocks stored twice: in the summary row and in a context block');
      }
      last.message.content = [...last.message.content, { type: 'text', text: s.text }];
    }
  }
  return out;
}

const contentBlocks = (c) => (typeof c === 'string' ? [{ type: 'text', text: c }] : Array.isArray(c) ? c : []);

/** Each dispatch of a hooks module, from the host's "settled in" debug lines: [{ hook, ms }]. */
export function hookTimes(run, module = 'compact-plus@inline') {
  const re = new RegExp(`hooks module ${module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (\\S+) settled in ([\\d.]+)ms`);
  return run.debugLog.split('\n').map((l) => re.exec(l)).filter(Boolean).map((m) => ({ hook: m[1], ms: Number(m[2]) }));
}

/**
 * Every path under root, folders too, without following links: [{ rel, path, kind }] with kind
 * 'dir' | 'file' | 'link' | 'other'. (listTree lists files only and reads them.)
 */
export function listPaths(root) {
  const out = [];
  const walk = (dir) => {
    let entries = [];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      const kind = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : 'other';
      out.push({ rel: path.relative(root, p), path: p, kind });
      if (kind === 'dir') walk(p);
    }
  };
  walk(root);
  return out;
}

// ---- command line --------------------------------------------------------------------------

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
  const scenario = opt('--scenario') ? JSON.parse(fs.readFileSync(opt('--scenario'), 'utf8')) : { turns: [{ prompt: 'hello' }] };
  const run = await runSession({
    mod: opt('--mod', process.env.E2E_MOD ?? 'repo'),
    label: path.basename(opt('--scenario', 'hello'), '.json'),
    fake: scenario.fake, env: scenario.env, args: scenario.args, claudeMd: scenario.claudeMd ?? null,
    turns: (scenario.turns ?? []).map((t) => (typeof t === 'string' ? t
      : { ...t, waitAfter: t.waitAfterMs ? { ms: t.waitAfterMs } : undefined })),
  });
  console.log(JSON.stringify({
    ok: run.ok, workDir: run.workDir, mod: run.mod, totalMs: run.totalMs, exit: run.exit, timedOut: run.timedOut,
    sessionId: run.sessionId,
    turns: run.turns.map((t) => ({ n: t.n, ms: t.ms, waitedMs: t.waitedMs, result: t.result?.result, is_error: t.result?.is_error })),
    requests: run.messageRequests.map((r) => ({ kind: r.kind, inputTokens: r.inputTokens, toolUse: r.toolUse?.name })),
    compactBoundaries: run.compactBoundaries.map((m) => m.compact_metadata),
    history: run.history.map((f) => `${f.rel} (${f.size} B)`),
    historyLog: run.historyLog,
  }, null, 2));
  if (!argv.includes('--keep') && run.ok) run.cleanup();
  process.exitCode = run.ok ? 0 : 1;
}
