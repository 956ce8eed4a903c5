// Level-3 tests of compact-plus's compactions between turns and around the engine's background
// "precompute", on the REAL Claude Code CLI, headless (`-p`, stream-json), with a fake Messages
// API (tests/e2e/harness.mjs), the mod being the repo root (issue 13, items 3 and 4):
//
//   * two turn-end compactions in a row, then the person's `/compact keep …`: all three compact,
//     none is answered "Not compacted"; three history files (two `*-turn-end.md`, one
//     `*-manual.md`), three log.jsonl `compact` lines (triggers turn-end, turn-end, manual), each
//     summarizer request carries the handoff (and never the turn-end marker), and the request
//     after each compaction carries that compaction's verbatim block and pointer, once;
//   * a precompute, then the person's `/compact` that installs it: one history file, one
//     `compact` line, nothing for the precompute itself, and the blocks of that compaction (its
//     verbatim block holds the person's messages it compacted) in the request after it, once.
//
//   node --test tests/e2e/turns.test.mjs
//   E2E_KEEP=1 keeps every run's work dir (a failed test's is always kept and named).
//   E2E_MOD=<folder> runs them against another copy of the repo's mod (a checkout of an older
//   commit, say); they are about the repo's mod, so E2E_MOD=reference or none skips them.
//
// The host behaviour these runs rely on, measured on Claude Code 2.1.328 headless with a probe
// mod (tests/HOST.md, "precompute" and "A compaction between turns"):
//   [Q] `$.command.run({ command: 'compact', args })` from a `$.clock.after` timer queues a
//       `/compact` that runs at once when the CLI is idle: `session.compact` arrives with trigger
//       `manual`, `instructions` = args exactly, `next.origin` = { plugin: 'engine', tier: 'core' };
//       the promise resolves `{}` only after that hook settled (after its summary came back), just
//       before the door-`compaction` session.append dispatches; the queued command's own `result`
//       line comes unsolicited (`""` when it compacted). Measured 3 runs, same order each time.
//   [P] The engine precomputes only behind a feature flag: `tengu_sepia_moth`, read from the
//       cached flags in ~/.claude.json (`cachedGrowthBookFeatures`) when
//       CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF=1 (the harness turns telemetry and
//       nonessential traffic off). Without it no `precompute` dispatch ever comes (measured).
//       `--settings '{"precomputeArmTokens":40000}'` (flag settings only) moves the arming point
//       from 80 % of the effective window (784,000 of 980,000) down to 40,000 tokens, so a real
//       (`estimate`) context arms it. It arms after an API response (`api_response`) or at a
//       prompt (`estimate`) once the context is over that, with two or more turns behind it.
//   [P1] The precompute dispatch: trigger `precompute`, no instructions, origin engine/core, in
//       the middle of a turn; `next` resolves within ~15-70 ms with the summary and the kept
//       messages, `tokensBefore`, no `tokensAfter`, `usage` present; one summarizer request,
//       carrying whatever instructions the hook passed down; no session.append door
//       `compaction` for it.
//   [P2] A `/compact` (no instructions) after it installs it: one dispatch, trigger `manual`,
//       instructions absent, `next` resolves in ~10 ms with no `usage`, NO new summarizer
//       request, compact_boundary `precomputed: true`, door `compaction` twice (boundary and
//       summary row). If the hook passes instructions down on that dispatch, the engine does not
//       use the precomputed summary (debug `precomputed compact: discarded
//       (post_compact_cleanup)` afterwards): `next` runs a fresh summarizer request with them.
//       (The threshold compaction behaves the same way: installs it when the instructions are
//       left alone, `discarded (hook_rewrite)` and a fresh request when they are not.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSession, allMessagesText, lastMessageText, debugLines, hookTimes, instructionsIn } from './harness.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';
const skipAll = MOD === 'reference' || MOD === 'none' ? `these tests are about the repo's mod (E2E_MOD=${MOD})` : false;
const TEST_TIMEOUT_MS = 180000; // a hung CLI is killed by the harness well before this
const TURN_TIMEOUT_MS = 45000;
const SESSION_TIMEOUT_MS = 150000;
// A turn-end compaction is queued 1.5 s after its turn and runs at once when the CLI is idle
// ([Q]); this bounds the wait for it on a loaded machine.
const TURN_END_WAIT_MS = 20000;

const HANDOFF_HEAD = 'From the compact-plus mod:';
const VERBATIM_OPEN = '<user-messages-verbatim>';
const VERBATIM_CLOSE = '</user-messages-verbatim>';
const POINTER_HEAD = 'compact-plus saved the conversation from before this compaction';
const SUMMARY_START = 'This session is being continued from a previous conversation';
// The visible head of the turn-end compaction's queued `/compact` arguments (design of issue 13).
const TURN_END_MARKER = 'compact-plus: compacting between turns';
const NOT_COMPACTED = /Not compacted/;

/** Runs a session; keeps its work dir when the test fails or E2E_KEEP is set. */
async function session(t, opts) {
  const run = await runSession({ mod: MOD, turnTimeoutMs: TURN_TIMEOUT_MS, sessionTimeoutMs: SESSION_TIMEOUT_MS, ...opts });
  t.diagnostic(`${run.label}: ${run.totalMs} ms, session ${run.sessionId}, work dir ${run.workDir}`);
  let passed = false;
  t.after(() => {
    if (passed && !process.env.E2E_KEEP) run.cleanup();
    else t.diagnostic(`kept ${run.workDir}`);
  });
  run.passed = () => { passed = true; };
  assert.ok(!run.timedOut, `timed out: ${run.timedOut}\nstderr: ${run.stderr.slice(-2000)}`);
  assert.ok(run.ok, `not every turn completed: exit ${JSON.stringify(run.exit)}\nturns ${JSON.stringify(run.turns.map((x) => x.result?.result?.slice?.(0, 120)))}\nstderr: ${run.stderr.slice(-2000)}`);
  assert.match(run.debugLog, /hooks module compact-plus@inline loaded \(worker/, 'the mod\'s hooks module did not load');
  return run;
}

/** The text after the last `Additional Instructions:` line of the summarizer prompt, up to the REMINDER. */
const additionalInstructions = (req) => instructionsIn(lastMessageText(req));

const count = (text, needle) => text.split(needle).length - 1;

/** The history .md files of the session (everything but log.jsonl), by path. */
function historyFiles(run) {
  const dir = path.join(run.historyRoot, run.sessionId);
  // The history parts, not the summaries saved beside them.
  return run.history.filter((f) => f.path.startsWith(dir + path.sep) && f.rel.endsWith('.md') && !f.rel.endsWith('.summary.md'))
    .map((f) => ({ ...f, path: f.path.split(path.sep).join('/') }));
}

const compactEvents = (run) => run.historyLog.filter((e) => e.event === 'compact');

/** Every result line of the run, the turns' own and the unsolicited ones (queued commands). */
function resultTexts(run) {
  return run.stream.filter((m) => m.type === 'result').map((m) => String(m.result ?? ''));
}

/** Indexes into run.messageRequests of the summarizer requests, and of the first normal request after each. */
function compactionsAndAfter(run) {
  const reqs = run.messageRequests;
  return reqs.flatMap((r, i) => (r.kind === 'compaction' ? [i] : [])).map((i) => ({
    req: reqs[i],
    after: reqs.slice(i + 1).find((r) => r.kind === 'normal') ?? null,
  }));
}

/**
 * Asserts that a request carries compact-plus's blocks exactly once: one verbatim block holding
 * `prompts` in order and none of `notPrompts`, no machine rows or turn-end marker in it, and one
 * pointer naming `file`.
 */
function checkBlocksOnce(t, where, req, { prompts, notPrompts = [], file }) {
  assert.ok(req, `${where}: no request`);
  const all = allMessagesText(req);
  assert.ok(all.includes(SUMMARY_START), `${where}: the request does not carry the engine's summary`);
  assert.equal(count(all, VERBATIM_OPEN), 1, `${where}: ${count(all, VERBATIM_OPEN)} verbatim blocks (expected exactly one)`);
  assert.equal(count(all, POINTER_HEAD), 1, `${where}: ${count(all, POINTER_HEAD)} pointers (expected exactly one)`);
  const start = all.indexOf(VERBATIM_OPEN);
  const end = all.indexOf(VERBATIM_CLOSE, start);
  assert.ok(end > start, `${where}: the verbatim block is not closed`);
  const block = all.slice(start, end + VERBATIM_CLOSE.length);
  let from = 0;
  for (const p of prompts) {
    const at = block.indexOf(p, from);
    assert.ok(at >= 0, `${where}: the verbatim block lacks (or misorders) ${JSON.stringify(p)}:\n${block.slice(0, 1500)}`);
    from = at + p.length;
  }
  for (const p of notPrompts) assert.ok(!block.includes(p), `${where}: the verbatim block holds ${JSON.stringify(p)}, which is not this compaction's`);
  assert.doesNotMatch(block, /<command-name>|<local-command|<system-reminder>/, `${where}: machine rows in the verbatim block`);
  assert.ok(!block.includes(TURN_END_MARKER), `${where}: the turn-end marker is in the verbatim block`);
  assert.ok(all.includes(`"${file}"`), `${where}: the pointer does not name ${file}`);
  t.diagnostic(`${where}: one verbatim block (${prompts.length} prompt(s) of this compaction, in order), one pointer naming ${path.basename(file)}`);
}

// ---------------------------------------------------------------------------------------------

test('two turn-end compactions in a row, then the person\'s /compact: all three compact', { skip: skipAll, timeout: TEST_TIMEOUT_MS }, async (t) => {
  const T = [
    'turn one: remember KIWI-1001',
    'turn two: remember LIME-2002',
    'turn three: remember FIG-3003',
    'turn four: remember PLUM-4004',
  ];
  const own = 'keep the fruit';
  // Waits for the n-th compaction's boundary and the queued command's own result line ([Q]).
  const turnEnded = (n) => ({
    ms: TURN_END_WAIT_MS,
    until: (ctx) => ctx.stream.filter((m) => m.subtype === 'compact_boundary').length >= n && ctx.unsolicitedResults.length >= n,
  });
  const run = await session(t, {
    label: 'turns-two-turn-end-then-manual',
    fake: { inputTokens: 5000 },
    turns: [
      T[0],
      // 900,000 of the 967,000 threshold (1M window): 93 %, over compact-plus's 90 %, under the
      // engine's own threshold, so the engine does not compact at the next prompt.
      { prompt: T[1], fake: { inputTokens: 900000 }, waitAfter: turnEnded(1) },
      { prompt: T[2], fake: { inputTokens: 900000 }, waitAfter: turnEnded(2) },
      { prompt: T[3], fake: { inputTokens: 5000 } },
      `/compact ${own}`,
      'turn six: what fruits?',
    ],
  });

  // Nothing refused: no "Not compacted" in any result line, the queued commands' included.
  const results = resultTexts(run);
  const refused = results.filter((r) => NOT_COMPACTED.test(r));
  assert.deepEqual(refused, [], `a compaction was refused: ${JSON.stringify(refused)}`);
  assert.equal(run.turns[4].result.result, '', `the person's /compact answered ${JSON.stringify(run.turns[4].result.result)}`);
  t.diagnostic(`result lines: ${JSON.stringify(results.map((r) => r.slice(0, 40)))}`);

  // Three compactions, each between turns: the summarizer before the next turn's request.
  assert.deepEqual(run.compactBoundaries.map((m) => m.compact_metadata.trigger), ['manual', 'manual', 'manual'],
    'compact_boundary triggers (a queued /compact is `manual` to the engine [Q])');
  assert.deepEqual(run.messageRequests.map((r) => r.kind),
    ['normal', 'normal', 'compaction', 'normal', 'compaction', 'normal', 'compaction', 'normal'],
    'request order: T1, T2, turn-end, T3, turn-end, T4, /compact, T6');
  const compactions = compactionsAndAfter(run);
  assert.ok(allMessagesText(compactions[0].after).includes(T[2]), 'the request after the first turn-end compaction is not turn three');
  assert.ok(allMessagesText(compactions[1].after).includes(T[3]), 'the request after the second turn-end compaction is not turn four');
  assert.ok(allMessagesText(compactions[2].after).includes('turn six'), 'the request after the /compact is not turn six');

  // Each summarizer request carries the handoff; the turn-end marker never reaches it.
  compactions.forEach(({ req }, i) => {
    const extra = additionalInstructions(req);
    assert.ok(extra, `compaction ${i}: no "Additional Instructions:" in the summarizer request`);
    assert.ok(!extra.includes(TURN_END_MARKER), `compaction ${i}: the turn-end marker reached the summarizer: ${JSON.stringify(extra.slice(0, 160))}`);
    const expected = i === 2 ? `${own}\n\n${HANDOFF_HEAD}` : HANDOFF_HEAD;
    assert.ok(extra.startsWith(expected), `compaction ${i}: the instructions do not start ${JSON.stringify(expected)}: ${JSON.stringify(extra.slice(0, 160))}`);
  });
  t.diagnostic('every summarizer request: the handoff (after the person\'s own for /compact), no turn-end marker');

  // log.jsonl: two queued turn-end compactions, three compactions; nothing skipped or failed.
  const events = run.historyLog.map((e) => e.event);
  assert.deepEqual(events.filter((e) => e !== 'instructions-refreshed'),
    ['turn-end-compact', 'compact', 'turn-end-compact', 'compact', 'compact'], `log.jsonl events: ${events}`);
  const lines = compactEvents(run);
  assert.deepEqual(lines.map((e) => e.trigger), ['turn-end', 'turn-end', 'manual'], `compact lines: ${JSON.stringify(lines)}`);

  // Three history files, named by trigger, the ones the log lines name, each with its window.
  const files = historyFiles(run);
  assert.equal(files.length, 3, `history files: ${files.map((f) => f.rel)}`);
  assert.deepEqual(lines.map((e) => e.file).sort(), files.map((f) => f.path).sort(), 'the log lines name other files than the history holds');
  const byLine = lines.map((e) => files.find((f) => f.path === e.file));
  assert.match(path.basename(byLine[0].path), /^\d{4}-\d{2}-\d{2}T\d{6}Z.*-turn-end\.md$/);
  assert.match(path.basename(byLine[1].path), /^\d{4}-\d{2}-\d{2}T\d{6}Z.*-turn-end\.md$/);
  assert.match(path.basename(byLine[2].path), /^\d{4}-\d{2}-\d{2}T\d{6}Z.*-manual\.md$/);
  for (const p of [T[0], T[1]]) assert.ok(byLine[0].text.includes(p), `the first turn-end history lacks ${p}`);
  assert.ok(!byLine[0].text.includes(T[2]), 'the first turn-end history holds turn three');
  assert.ok(byLine[1].text.includes(T[2]), 'the second turn-end history lacks turn three');
  assert.ok(byLine[2].text.includes(T[3]), 'the /compact history lacks turn four');
  t.diagnostic(`history: ${byLine.map((f) => path.basename(f.path)).join(', ')}`);

  // The request after each compaction: that compaction's blocks, once.
  checkBlocksOnce(t, 'after turn-end 1', compactions[0].after, { prompts: [T[0], T[1]], notPrompts: [T[2]], file: byLine[0].path });
  checkBlocksOnce(t, 'after turn-end 2', compactions[1].after, { prompts: [T[2]], notPrompts: [T[3]], file: byLine[1].path });
  checkBlocksOnce(t, 'after /compact', compactions[2].after, { prompts: [T[3]], notPrompts: ['turn six'], file: byLine[2].path });
  run.passed();
});

test('a precompute, then the /compact that installs it: one history file, one compact line, that compaction\'s blocks', { skip: skipAll, timeout: TEST_TIMEOUT_MS }, async (t) => {
  // The engine's precompute needs its feature flag [P]: cached in the throwaway home's
  // ~/.claude.json before the CLI starts, and read from there with telemetry off.
  const workRoot = process.env.E2E_WORK_ROOT ?? os.tmpdir();
  fs.mkdirSync(workRoot, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(workRoot, 'cp-e2e-turns-precompute-'));
  fs.mkdirSync(path.join(workDir, 'home'), { recursive: true });
  fs.writeFileSync(path.join(workDir, 'home', '.claude.json'), JSON.stringify({ cachedGrowthBookFeatures: { tengu_sepia_moth: true } }));
  const T = [
    'turn one: remember KIWI-1001',
    'turn two: remember LIME-2002',
    'turn three: remember FIG-3003',
    'turn four: remember PLUM-4004',
  ];
  const words = (n) => 'lorem ipsum dolor sit amet '.repeat(n);
  const debugText = (ctx) => { try { return fs.readFileSync(path.join(ctx.workDir, 'debug.log'), 'utf8'); } catch { return ''; } };
  const run = await session(t, {
    label: 'turns-precompute-then-manual',
    workDir,
    env: { CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF: '1' },
    args: ['--settings', JSON.stringify({ precomputeArmTokens: 40000 })],
    // Real sizes (request bytes / 4): ~12,000 tokens of system prompt and tools; the bulk is in
    // the replies, so the person's prompts (the verbatim block) stay short. Turn four's request
    // is ~44,000 tokens: over the arming point, so the engine precomputes after its answer
    // (measured: `precomputed compact: started (… trigger api_response)`).
    fake: { inputTokens: 'estimate' },
    turns: [
      { prompt: T[0], fake: { reply: `REPLY-ONE ${words(3000)}` } },
      { prompt: T[1], fake: { reply: `REPLY-TWO ${words(150)}` } },
      { prompt: T[2], fake: { reply: `REPLY-THREE ${words(1500)}` } },
      {
        prompt: T[3],
        fake: { reply: 'REPLY-FOUR' },
        waitAfter: { ms: 15000, until: (ctx) => /precomputed compact: (ready|failed|skipped)/.test(debugText(ctx)) },
      },
      '/compact',
      { prompt: 'turn six: what fruits?', fake: { reply: 'REPLY-SIX' } },
    ],
  });

  // The engine precomputed, and compact-plus's hook took part in it (two dispatches settled).
  const pre = debugLines(run, /precomputed compact: (started|ready|failed|skipped|consumed|discarded)/).map((l) => l.replace(/^\S+ \[\w+\] /, ''));
  t.diagnostic(`engine: ${pre.join(' | ')}`);
  assert.ok(pre.some((l) => l.startsWith('precomputed compact: started')), 'the engine did not precompute (is the flag read? see [P])');
  assert.ok(pre.some((l) => l.startsWith('precomputed compact: ready')), `the precompute did not come out ready: ${pre}`);
  // (A precompute that fails, "too few groups", is tried again: more than one may come.)
  const dispatches = hookTimes(run).filter((h) => h.hook === 'session.compact');
  assert.ok(dispatches.length >= 2, `compact-plus session.compact dispatches settled: ${dispatches.length} (expected the precompute and the /compact)`);

  // One compaction, the person's, installing the precomputed summary: compact-plus leaves that
  // dispatch's instructions as the engine sent them, since [P2] any instructions passed down make
  // the engine discard it and ask the summarizer again (a request for nothing).
  assert.equal(run.compactBoundaries.length, 1, 'compact_boundary lines');
  const boundary = run.compactBoundaries[0].compact_metadata;
  assert.equal(boundary.trigger, 'manual');
  const reused = boundary.precomputed === true;
  assert.ok(reused, `the /compact did not install the precomputed summary: ${JSON.stringify(boundary)}`);
  assert.equal(run.compactionRequests.length, 1, 'summarizer requests: the precompute\'s alone');
  run.compactionRequests.forEach((req, i) => {
    const extra = additionalInstructions(req);
    assert.ok(extra?.startsWith(HANDOFF_HEAD), `summarizer request ${i}: no handoff instructions: ${JSON.stringify(extra?.slice(0, 120))}`);
  });
  t.diagnostic(`the /compact ${reused ? 'installed the precomputed summary' : 'made a fresh summary'}; ${run.compactionRequests.length} summarizer request(s), each with the handoff`);

  // Nothing for the precompute itself: one history file, one `compact` line, the /compact's.
  const files = historyFiles(run);
  assert.equal(files.length, 1, `history files: ${files.map((f) => f.rel)}`);
  const [hist] = files;
  assert.match(path.basename(hist.path), /^\d{4}-\d{2}-\d{2}T\d{6}Z.*-manual\.md$/);
  for (const needle of [...T, 'REPLY-THREE']) assert.ok(hist.text.includes(needle), `history lacks ${JSON.stringify(needle)}`);
  assert.ok(!hist.text.includes('turn six'), 'the history holds a prompt from after the compaction');
  const lines = compactEvents(run);
  assert.equal(lines.length, 1, `compact lines: ${JSON.stringify(lines)}`);
  assert.equal(lines[0].trigger, 'manual');
  assert.equal(lines[0].file, hist.path);
  assert.ok(!run.historyLog.some((e) => e.trigger === 'precompute'), `a log line for the precompute: ${JSON.stringify(run.historyLog)}`);
  t.diagnostic(`history ${path.basename(hist.path)}; log.jsonl ${JSON.stringify(run.historyLog.map((e) => e.event))}`);

  // The request after the /compact: that compaction's blocks (the person's four prompts), once.
  const after = run.normalRequests.at(-1);
  assert.ok(allMessagesText(after).includes('turn six'), 'the last request is not turn six');
  checkBlocksOnce(t, 'after /compact', after, { prompts: T, notPrompts: ['turn six'], file: hist.path });
  run.passed();
});
