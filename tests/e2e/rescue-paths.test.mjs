// The paths a rescue leads to next (issue [13] items 3, 4, 6, 7, 8, 14), on the REAL Claude Code
// CLI, headless (`claude -p`, stream-json), against tests/e2e/fake-api.mjs: its summarizer failures
// are the kit's (failures/fake-api-fail.mjs, measured against 2.1.328 in e2e-kit failures/README.md
// section 1), `compactText` is a summarizer reply as a model may word it (rows measured in
// tests/HOST.md, "The summary row the engine writes"), `rescueFailPart` / `rescueDelayMs` a rescue
// model that fails one part or answers slowly. Each test fails on the code before issue [13].
//
// It prints the rows of docs/rescue.md's table "The paths after a rescue" and writes them to
// $E2E_RESCUE_PATHS_TABLE (default tests/e2e/out/rescue-paths-table.md). Its middle column is what
// the same sessions gave on the code before issue [13] (commit 01f22ba, measured 2026-12-01), kept
// here as text: that code is not run.
//
//   node --test --test-concurrency=1 tests/e2e/rescue-paths.test.mjs
//   E2E_KEEP=1 keeps the work dirs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runSession, allMessagesText, textOf, REPO_ROOT } from './harness.mjs';
import { measuredTable } from '../docs-tables.mjs';

const table = [];
after(() => {
  const out = process.env.E2E_RESCUE_PATHS_TABLE ?? path.join(REPO_ROOT, 'tests/e2e/out/rescue-paths-table.md');
  const md = ['| path | before issue [13] | with compact-plus now |', '| --- | --- | --- |', ...table].join('\n');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, md + '\n');
  console.log(md);
});

const RESCUED = '[compact-plus wrote this summary';
const VERBATIM_OPEN = '<user-messages-verbatim>';
// Two retries: a 500 is otherwise retried for 185 s before `next` rejects (kit r-manual-500-default).
const ENV = { CLAUDE_CODE_MAX_RETRIES: '2' };
// A turn-end compaction is queued 1.5 s after its turn and runs once the CLI is idle.
const TURN_END_WAIT_MS = 20000;

const count = (text, needle) => text.split(needle).length - 1;
const kinds = (reqs, kind) => reqs.filter((r) => r.kind === kind);
const rescues = (run) => run.historyLog.filter((e) => e.event === 'rescue');

/** Runs a session; keeps its work dir when the test fails or E2E_KEEP is set. */
async function session(t, opts) {
  const run = await runSession({ env: ENV, ...opts });
  t.diagnostic(`${run.label}: ${run.totalMs} ms, session ${run.sessionId}, work dir ${run.workDir}`);
  let passed = false;
  t.after(() => {
    if (passed && !process.env.E2E_KEEP) run.cleanup();
    else t.diagnostic(`kept ${run.workDir}`);
  });
  run.passed = () => { passed = true; };
  assert.ok(!run.timedOut, `timed out: ${run.timedOut}\nstderr: ${run.stderr.slice(-2000)}`);
  return run;
}

test('/compact right after /clear: the engine\'s refusal stands, no rescue is asked, as with no mod', async (t) => {
  // Measured: the engine alone answers `Not enough messages to compact.` (tests/HOST.md).
  const turns = ['turn one: remember KIWI-1001', '/clear', '/compact', 'turn two: a new topic'];
  const alone = await session(t, { label: 'paths-clear-none', mod: 'none', turns, fake: { rescueFail: '500' } });
  const ours = await session(t, { label: 'paths-clear', mod: 'repo', turns, fake: { rescueFail: '500' } });
  const said = (run) => run.turns[2].result?.result;
  assert.equal(said(alone), 'Not enough messages to compact.');
  assert.equal(said(ours), said(alone), 'compact-plus changed the engine\'s answer');
  assert.equal(kinds(ours.requests, 'rescue').length, 0, 'a rescue request was sent');
  assert.deepEqual(rescues(ours), []);
  assert.equal(ours.compactBoundaries.length, 0);
  assert.ok(ours.turns[3].result && !ours.turns[3].result.is_error);
  table.push(`| \`/clear\`, then \`/compact\` | rescued: 3 rescue requests, a summary made of one message | \`${said(ours)}\`, as the engine alone says it (\`${said(alone)}\`); ${kinds(ours.requests, 'rescue').length} rescue requests, no compaction |`);
  alone.passed();
  ours.passed();
});

test('a summarizer reply with a preamble is the engine\'s summary and stands; one with no <summary> at all is replaced', async (t) => {
  const turns = ['turn one: remember KIWI-1001', '/compact', 'turn two: what do you remember?'];
  const preamble = 'Here is the summary of our conversation so far.\n\n<summary>\n1. Primary Request and Intent: PREAMBLE-KEPT\n</summary>';
  const kept = await session(t, { label: 'paths-preamble', turns, fake: { compactText: preamble, rescueFail: '500' } });
  const row = kept.transcript.find((r) => r.isCompactSummary);
  assert.ok(row && textOf(row.message.content).includes('Here is the summary of our conversation so far.\n\nSummary:\n1. Primary Request and Intent: PREAMBLE-KEPT'), 'the engine\'s row');
  assert.equal(kinds(kept.requests, 'rescue').length, 0, 'the summary was replaced');
  assert.deepEqual(rescues(kept), []);
  assert.ok(allMessagesText(kept.normalRequests.at(-1)).includes('PREAMBLE-KEPT'));
  const notags = 'Primary request: the person asked about KIWI.';
  const replaced = await session(t, { label: 'paths-notags', turns, fake: { compactText: notags, rescueFail: '500' } });
  assert.equal(rescues(replaced).length, 1);
  assert.equal(rescues(replaced)[0].cause, 'no summary');
  table.push(`| a summarizer reply with a sentence before its \`<summary>\` | replaced by a digest (cause \`no summary\`, 3 rescue requests) | the engine's row stands, ${kinds(kept.requests, 'rescue').length} rescue requests; a reply with no \`<summary>\` at all: replaced (cause \`${rescues(replaced)[0].cause}\`, tier ${rescues(replaced)[0].tier}) |`);
  kept.passed();
  replaced.passed();
});

test('after a rescue, the next compaction\'s verbatim block quotes the person, not the rescue\'s row', async (t) => {
  const run = await session(t, {
    label: 'paths-quoted',
    turns: [
      'turn one: remember KIWI-1001',
      { prompt: '/compact', fake: { compactFail: '500', rescueFail: '500' } },
      { prompt: 'turn two: remember LIME-2002', fake: { compactFail: null, rescueFail: null } },
      '/compact',
      'turn three: what fruits?',
    ],
  });
  assert.equal(rescues(run).length, 1);
  const second = run.transcript.filter((r) => r.isCompactSummary).at(-1);
  const text = textOf(second?.message?.content);
  assert.ok(text.includes(VERBATIM_OPEN) && text.includes('turn two: remember LIME-2002'), text.slice(-1500));
  const block = text.slice(text.indexOf(VERBATIM_OPEN));
  assert.equal(count(block, RESCUED), 0, 'the rescue\'s header quoted as the person\'s words');
  table.push(`| a rescue, a turn, then \`/compact\` | the rescue's header quoted once as \`--- user message (earlier) ---\` | the second summary row's verbatim block: the person's messages, ${count(block, RESCUED)} copies of the rescue's header |`);
  run.passed();
});

test('the cool-down by cause: a server error keeps the turn-end compaction off the summarizer; a prompt too long does not', async (t) => {
  // A 500 on the person's /compact: rescued, and 5 minutes of cool-down. The next turn ends near the
  // threshold (900,000 of 967,000 tokens): our turn-end /compact runs, inside the cool-down, and must
  // not ask the failing summarizer (before: it asked it 3 times, then rescued).
  const turnEnd = (run) => run.historyLog.filter((e) => e.trigger === 'turn-end').length >= 1;
  const server = await session(t, {
    label: 'paths-cool-500',
    fake: { inputTokens: 5000, compactFail: '500', rescueFail: '500' },
    turns: [
      'turn one: remember KIWI-1001',
      '/compact',
      { prompt: 'turn two: remember LIME-2002', fake: { inputTokens: 900000 }, waitAfter: { ms: TURN_END_WAIT_MS, until: (ctx) => turnEnd({ historyLog: ctx.readHistoryLog() }) } },
      { prompt: 'turn three: what fruits?', fake: { inputTokens: 5000 } },
    ],
  });
  const log = rescues(server);
  assert.equal(log.length, 2, JSON.stringify(server.historyLog));
  assert.deepEqual(log.map((e) => [e.trigger, e.cause]), [['manual', 'API server error'], ['turn-end', 'summarizer failing (cool-down)']]);
  const firstRescue = server.requests.findIndex((r) => r.kind === 'rescue');
  assert.equal(kinds(server.requests.slice(firstRescue), 'compaction').length, 0, 'the failing summarizer was asked again in the cool-down');
  // A prompt too long on the person's /compact: rescued, no cool-down. The turn after ends over the
  // threshold, so the next turn starts with the engine's automatic compaction (before the turn-end
  // one, queued 1.5 s after a turn, comes to the front); it asks the summarizer, which answers now.
  const ptl = await session(t, {
    label: 'paths-cool-ptl',
    fake: { inputTokens: 5000, compactFail: 'ptl', rescueFail: '500' },
    turns: [
      'turn one: remember KIWI-1001',
      '/compact',
      { prompt: 'turn two: remember LIME-2002', fake: { inputTokens: 975000, compactFail: null } },
      { prompt: 'turn three: what fruits?', fake: { inputTokens: 5000 } },
    ],
  });
  assert.deepEqual(rescues(ptl).map((e) => e.cause), ['prompt too long']);
  const after = ptl.requests.slice(ptl.requests.findIndex((r) => r.kind === 'rescue'));
  assert.ok(kinds(after, 'compaction').length >= 1, 'the summarizer was not asked after a prompt too long');
  assert.ok(ptl.historyLog.some((e) => e.event === 'compact'), 'the engine\'s compaction after it');
  assert.ok(ptl.transcript.some((r) => r.isCompactSummary), 'no summary row of the engine\'s');
  table.push(`| a 500 on \`/compact\`, then a turn near the threshold | the turn-end \`/compact\` asked the failing summarizer 3 times, then rescued | the turn-end \`/compact\` in the cool-down: ${kinds(server.requests.slice(firstRescue), 'compaction').length} summarizer requests after the rescue, answered by the rescue (\`${log[1].cause}\`) |`);
  table.push(`| a prompt too long on \`/compact\`, then a turn over the threshold | 15 minutes of cool-down: the next automatic compaction rescued again, 0 summarizer requests | no cool-down: the next compaction asks the summarizer (${kinds(after, 'compaction').length} request), the engine's summary stands |`);
  server.passed();
  ptl.passed();
});

test('a long conversation\'s parts go to the rescue model at once; a part that fails costs that part alone', async (t) => {
  // Three 100 kB turns: a history over one rescue request's 240 kB, in two parts. The rescue model
  // takes 3 s an answer and fails part 1 (500, retried by the engine): asked one after another the
  // parts would reach it 3 s apart.
  const pad = 100000;
  const run = await session(t, {
    label: 'paths-parts',
    fake: { inputTokens: 50, compactFail: '500', rescueDelayMs: 3000, rescueFailPart: 1 },
    turns: [{ prompt: 'turn one: remember KIWI-1001', pad }, { prompt: 'turn two: remember LIME-2002', pad }, { prompt: 'turn three: remember FIG-3003', pad }, '/compact', 'turn four: what fruits?'],
  });
  const [log] = rescues(run);
  assert.ok(log, JSON.stringify(run.historyLog));
  assert.equal(log.tier, 1, 'the part that came back was thrown away');
  assert.equal(log.modelCalls, 3, 'two parts and the merge');
  const parts = kinds(run.requests, 'rescue').filter((r) => /This is part \d of 2/.test(JSON.stringify(r.body.messages)));
  const firstOf = (k) => parts.find((r) => JSON.stringify(r.body.messages).includes(`This is part ${k} of 2`));
  const gap = Math.abs(Date.parse(firstOf(1).t) - Date.parse(firstOf(2).t));
  assert.ok(gap < 2000, `the parts reached the model ${gap} ms apart`);
  const sent = allMessagesText(run.normalRequests.at(-1));
  assert.ok(sent.includes('summarized by the rescue model') && sent.includes('Parts not in this summary, by number: 1 ('), sent.slice(0, 800));
  table.push(`| a 300 kB conversation rescued in 2 parts, the rescue model 3 s an answer, part 1 failing | part 1 asked alone (10.3 s with the engine's retries), part 2 never: the digest, tier 2 | the parts reached the model ${gap} ms apart; tier ${log.tier} with part 2 and the merge (${log.modelCalls} calls, ${log.ms} ms), the row naming part 1 |`);
  run.passed();
});

test('--resume after a rescue: each reply once, and the rescue\'s summary, in the next request and the next summarizer request', async (t) => {
  // Issue [13] item 4: kept by handle, the kept messages' copies kept the originals' message ids and
  // tool links; resumed, every reply came once per rescue, and with a tool call kept the rescue
  // summaries were lost (tests/HOST.md, "What --resume rebuilds after a hook's compaction"). The
  // rescue model answers (tier 1), so no digest quotes a reply.
  const args = ['--allowedTools', 'Bash'];
  const first = await session(t, {
    label: 'paths-resume',
    args,
    fake: { inputTokens: 50 },
    turns: [
      { prompt: 'turn one: remember KIWI-1001', fake: { reply: 'REPLY-ONE' } },
      { prompt: 'turn two: PROBE_TOOL:echo TOOL-OUT-$((6*7))', fake: { reply: 'REPLY-TWO' } },
      { prompt: '/compact', fake: { compactFail: '500' } },
      { prompt: 'turn three: after the rescue', fake: { compactFail: null, reply: 'REPLY-THREE' } },
      { prompt: '/compact', fake: { compactFail: '500' } },
      { prompt: 'turn four: after the second', fake: { compactFail: null, reply: 'REPLY-FOUR' } },
    ],
  });
  assert.equal(rescues(first).length, 2);
  const resumed = await session(t, {
    label: 'paths-resumed',
    workDir: first.workDir,
    args: [...args, '--resume', first.sessionId],
    fake: { inputTokens: 50, reply: 'REPLY-FIVE' },
    turns: ['turn five: resumed', '/compact'],
  });
  assert.equal(resumed.sessionId, first.sessionId);
  const [next] = resumed.normalRequests;
  const summarizer = resumed.compactionRequests.at(-1);
  for (const [where, req] of [['the resumed turn\'s request', next], ['the next summarizer request', summarizer]]) {
    const text = allMessagesText(req);
    for (const reply of ['REPLY-ONE', 'REPLY-TWO', 'REPLY-THREE', 'REPLY-FOUR']) assert.equal(count(text, reply), 1, `${where}: ${reply} ×${count(text, reply)}`);
    assert.equal(count(text, 'TOOL-OUT-42'), 1, `${where}: the tool result`);
    assert.equal(count(text, `${RESCUED} (`), 2, `${where}: both rescues' summaries, once each`);
  }
  const each = (req) => ['REPLY-ONE', 'REPLY-TWO', 'TOOL-OUT-42'].map((w) => `${w} ×${count(allMessagesText(req), w)}`).join(', ');
  table.push(`| two rescues (a tool call kept after the first), \`/exit\`, \`--resume\`, a turn, \`/compact\` | both requests: REPLY-ONE ×3, REPLY-TWO ×3, TOOL-OUT-42 ×1, rescue rows ×0 | the turn's request: ${each(next)}, rescue rows ×${count(allMessagesText(next), `${RESCUED} (`)}; the summarizer request: ${each(summarizer)}, rescue rows ×${count(allMessagesText(summarizer), `${RESCUED} (`)} |`);
  first.passed();
  resumed.passed();
});

// docs/rescue.md's table of the paths is this one (figures masked: tests/docs-tables.mjs;
// DOCS_WRITE=1 writes it there).
test('docs/rescue.md: the table of the paths is what this run measured', () => {
  const lines = ['| path | before issue [13] | with compact-plus now |', '| --- | --- | --- |', ...table];
  const differences = measuredTable('docs/rescue.md', 'rescue-paths', lines);
  assert.deepEqual(differences, [], differences.join('\n'));
});
