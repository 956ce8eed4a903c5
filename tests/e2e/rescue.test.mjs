// When the engine's compaction fails, compact-plus compacts (issue 15): on the REAL Claude Code
// CLI, headless, with the repo's fake API failing the summarizer request alone
// (tests/e2e/fake-api.mjs `compactFail`, the answers the kit's failures/fake-api-fail.mjs gives,
// measured against 2.1.328 in e2e-kit failures/README.md section 1) and, to force tier 2, the
// rescue's own $.model.complete requests too (`rescueFail`; told apart by the rescue's system prompt).
//
// Each scenario runs twice: with compact-plus, the turn after the failure is answered and its
// request carries compact-plus's summary and the person's words, the history is written; with no
// mod (`none`) the same scenario stays as the engine leaves it (no compaction; at the blocking
// limit, every turn fails). It prints the rows of the README's fault table and writes them to
// $E2E_RESCUE_TABLE (default tests/e2e/out/rescue-table.md).
//
//   node --test --test-concurrency=1 tests/e2e/rescue.test.mjs
//   E2E_RESCUE=id,id runs only those rows; E2E_KEEP=1 keeps the work dirs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runSession, allMessagesText, REPO_ROOT } from './harness.mjs';
import { measuredTable } from '../docs-tables.mjs';

const RESCUED = '[compact-plus wrote this summary';
const T1 = 'turn one: remember KIWI-1001';
const T2 = 'turn two: remember LIME-2002';
const T4 = 'turn four: what fruits?';
// Two retries instead of ten: a 500 is otherwise retried for 185 s before `next` rejects (kit r-manual-500-default).
const ENV = { CLAUDE_CODE_MAX_RETRIES: '2' };

const manual = [{ prompt: T1, pad: 3000 }, { prompt: T2, pad: 3000 }, '/compact keep the fruit', T4];
// The kit's auto-blocked scenario: 978,500 tokens reported, over the blocking limit (977,000).
const blocked = [
  { prompt: T1 },
  { prompt: T2 },
  { prompt: 'turn three: remember FIG-3003' },
  { prompt: T4 },
];

// The kit's auto scenario: 975,000 tokens reported, over the auto-compact threshold (967,000), under
// the blocking limit: alone, every turn from the 3rd runs a failing auto-compaction of 4-8 summarizer
// requests and answers anyway (kit r-auto-ptl).
const auto = ['turn one: remember KIWI-1001', 'turn two: remember LIME-2002', 'turn three: remember FIG', 'turn four: remember PLUM', 'turn five: what fruits?'];

const ROWS = [
  { id: 'manual-ptl', what: 'prompt too long on `/compact`', turns: manual, fake: { inputTokens: 50, compactFail: 'ptl', rescueFail: '500' }, at: 2, tier: 2 },
  { id: 'manual-500', what: '500 on `/compact` (2 retries)', turns: manual, fake: { inputTokens: 50, compactFail: '500', rescueFail: '500' }, at: 2, tier: 2 },
  { id: 'manual-529', what: '529 on `/compact`', turns: manual, fake: { inputTokens: 50, compactFail: '529', rescueFail: '500' }, at: 2, tier: 2 },
  { id: 'manual-empty', what: 'an empty summary on `/compact`', turns: manual, fake: { inputTokens: 50, compactFail: 'empty', rescueFail: '500' }, at: 2, tier: 2 },
  { id: 'manual-ptl-tier1', what: 'prompt too long on `/compact`, the rescue model answering', turns: manual, fake: { inputTokens: 50, compactFail: 'ptl' }, at: 2, tier: 1 },
  // The engine installs a reply without <summary> as the summary (kit r-manual-nosummary): alone it
  // compacts, with that junk; compact-plus replaces the row (`aloneCompacts`).
  { id: 'manual-nosummary', what: 'a reply with no `<summary>` on `/compact`', turns: manual, fake: { inputTokens: 50, compactFail: 'nosummary', rescueFail: '500' }, at: 2, tier: 2, aloneCompacts: true },
  // The fake reports 975,000 tokens for every main request, so the engine compacts at every turn;
  // after the first rescue, compact-plus answers those within its cool-down without the summarizer
  // (an automatic compaction's failure, which the engine does not explain: 2 minutes,
  // src/compaction/rescue/cool_down.rs).
  { id: 'auto-ptl', what: 'prompt too long on auto-compaction (under the blocking limit)', turns: auto, fake: { inputTokens: 975000, inputTokensSeq: [5000], compactFail: 'ptl', rescueFail: '500' }, at: 2, tier: 2, everyTurn: true, coolDown: true },
  // The API refuses the main request as too long (kit r-ptl-real-500: `ptlAbove` 60k, 100 kB pads,
  // summarizer 500): alone, every turn from the refusal on fails and the conversation keeps growing.
  { id: 'ptl-real-500', what: 'a real prompt-too-long from the API on the main request, summarizer 500', turns: [{ prompt: T1, pad: 100000 }, { prompt: T2, pad: 100000 }, { prompt: 'turn three: remember FIG-3003', pad: 100000 }, T4, 'turn five: still there?'], fake: { inputTokens: 'estimate', ptlAbove: 60000, compactFail: '500', rescueFail: '500' }, at: 1, tier: 2, stuckAlone: true },
  { id: 'blocked-ptl', what: 'at the blocking limit, summarizer prompt too long', turns: blocked, fake: { inputTokens: 978500, inputTokensSeq: [5000], compactFail: 'ptl', rescueFail: '500' }, at: 2, tier: 2, stuckAlone: true },
  { id: 'blocked-500-tier1', what: 'at the blocking limit, summarizer 500, the rescue model answering', turns: blocked, fake: { inputTokens: 978500, inputTokensSeq: [5000], compactFail: '500' }, at: 2, tier: 1, stuckAlone: true },
];

const only = process.env.E2E_RESCUE?.split(',');
const table = [];
after(() => {
  const out = process.env.E2E_RESCUE_TABLE ?? path.join(REPO_ROOT, 'tests/e2e/out/rescue-table.md');
  const lines = ['| fault | engine alone | with compact-plus |', '| --- | --- | --- |', ...table];
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, lines.join('\n') + '\n');
  console.log(lines.join('\n'));
});

const kinds = (run, kind) => run.requests.filter((r) => r.kind === kind);
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;

function describeAlone(run, row) {
  const failed = run.turns.filter((t) => t.result?.is_error).length;
  const after = run.turns.slice(row.at);
  const errs = run.turns.map((t) => t.result?.result ?? '').filter((r) => /compaction|too long/i.test(r));
  if (row.coolDown) return `every turn answered, but each from the 3rd runs a failing auto-compaction: ${kinds(run, 'compaction').length} summarizer requests over ${run.turns.length - row.at} turns, no compaction`;
  if (row.aloneCompacts) return `compacted with the reply as its summary (context lost without a word), ${kinds(run, 'compaction').length} summarizer requests`;
  if (row.stuckAlone) {
    return `stuck: ${failed} of ${run.turns.length} turns fail (\`${(errs.at(-1) ?? '').slice(0, 60)}\`), ${kinds(run, 'compaction').length} summarizer requests, no compaction`;
  }
  return `no compaction (\`${(run.turns[row.at].result?.result ?? '').slice(0, 60)}\`), ${kinds(run, 'compaction').length} summarizer requests; later turns answered: ${after.slice(1).every((t) => t.result && !t.result.is_error)}`;
}

for (const row of ROWS) {
  test(row.id, { skip: only && !only.includes(row.id) }, async () => {
    // Each run its own knobs: the fake consumes `inputTokensSeq` as it answers.
    const alone = await runSession({ label: `rescue-${row.id}-none`, mod: 'none', turns: row.turns, fake: structuredClone(row.fake), env: ENV });
    const ours = await runSession({ label: `rescue-${row.id}`, mod: 'repo', turns: row.turns, fake: structuredClone(row.fake), env: ENV });
    try {
      // Engine alone: no boundary; at the blocking limit every turn from the failure on fails.
      if (row.aloneCompacts) {
        // The engine's junk stands: the next request carries it and not the person's words.
        assert.equal(alone.compactBoundaries.length, 1);
        const next = alone.normalRequests.filter((r) => allMessagesText(r).includes('I cannot summarize this conversation.'));
        assert.ok(next.length >= 1, 'the engine alone did not install the reply');
        assert.ok(!allMessagesText(next[0]).includes('KIWI-1001'), 'the engine alone kept the person\'s words');
      } else assert.equal(alone.compactBoundaries.length, 0, 'the engine compacted alone: the fault did not fire');
      assert.ok(kinds(alone, 'compaction').length >= 1);
      if (row.stuckAlone) {
        assert.ok(alone.turns.slice(row.at).every((t) => t.result?.is_error), 'the engine alone was not stuck');
      }

      // compact-plus: every turn answered, one boundary, and the turn after it sent.
      assert.ok(ours.turns.every((t) => t.result && !t.result.is_error), JSON.stringify(ours.turns.map((t) => t.result?.result)));
      // The fake reports the same 978,500 tokens for every main request, so at the blocking limit
      // the engine compacts again at every turn (and its summarizer fails again): one rescue each.
      const boundaries = ours.compactBoundaries.length;
      if (row.stuckAlone || row.everyTurn) assert.ok(boundaries >= 1 && boundaries <= row.turns.length - 1, `${boundaries} compactions`);
      else assert.equal(boundaries, 1, 'one compaction');
      const log = ours.historyLog.filter((e) => e.event === 'rescue');
      assert.equal(log.length, boundaries, JSON.stringify(ours.historyLog));
      assert.ok(log.every((e) => e.tier === row.tier));
      let storm = '';
      if (row.coolDown) {
        // No retry storm: after the first rescue no summarizer request, however many compactions follow.
        const firstRescue = ours.requests.findIndex((r) => r.kind === 'rescue');
        const later = ours.requests.slice(firstRescue).filter((r) => r.kind === 'compaction').length;
        assert.equal(later, 0, `${later} summarizer requests after the first rescue`);
        assert.ok(boundaries >= 2, 'the cool-down was never used');
        assert.ok(log.slice(1).every((e) => e.cause === 'summarizer failing (cool-down)'), JSON.stringify(log));
        const aloneTurns = alone.turns.slice(row.at);
        assert.ok(alone.turns.every((t) => t.result && !t.result.is_error), 'the engine alone answers every turn here');
        assert.ok(kinds(alone, 'compaction').length >= 4 * aloneTurns.length, `${kinds(alone, 'compaction').length} summarizer requests alone`);
        storm = `; ${boundaries - 1} later compaction(s) answered in the cool-down, 0 summarizer requests after the first rescue`;
      }
      assert.equal(log[0].tier, row.tier);
      const rescues = kinds(ours, 'rescue');
      const calls = log.reduce((n, e) => n + e.modelCalls, 0);
      assert.ok(rescues.length >= boundaries && rescues.length <= 8 * 3 * boundaries, `${rescues.length} rescue requests`);
      // One $.model.complete call can be several requests: the engine retries a 500 inside it.
      assert.ok(calls >= boundaries && calls <= rescues.length, `${calls} calls, ${rescues.length} requests`);
      assert.ok(ours.history.some((f) => f.rel.endsWith('.md')), 'no history file');
      // The first normal request after the compaction carries our summary and the person's words.
      const later = ours.normalRequests.filter((r) => allMessagesText(r).includes(RESCUED));
      assert.ok(later.length >= 1, 'no request carried the rescue summary');
      const sent = allMessagesText(later[0]);
      assert.ok(sent.includes('KIWI-1001') && sent.includes('LIME-2002'), 'the person\'s words');
      assert.equal(sent.split(RESCUED).length - 1, 1, 'the summary once');
      if (row.tier === 1) assert.ok(sent.includes('fake rescue summary'), 'the rescue model\'s summary');
      else assert.ok(sent.includes('compact-plus digest'), 'the digest');
      const compactTurn = ours.turns[row.at];
      const each = boundaries > 1 ? ` (${boundaries} compactions, one a turn)` : '';
      table.push(`| ${row.what} | ${describeAlone(alone, row)} | answered, tier ${row.tier}${each}: ${kinds(ours, 'compaction').length} summarizer + ${rescues.length} rescue requests (${calls} call${calls > 1 ? 's' : ''}), the failing turn ${secs(compactTurn.ms)}, rescue ${log[0].ms} ms${storm} |`);
      if (!process.env.E2E_KEEP) {
        alone.cleanup();
        ours.cleanup();
      }
    } catch (err) {
      console.log(`kept: ${alone.workDir} ${ours.workDir}`);
      throw err;
    }
  });
}

// The trim before the summarizer, on the real CLI: a first `/compact` whose summarizer refuses as too
// long (8 requests, kit r-manual-ptl) is rescued; then six turns of a 28,893-byte Bash result each and a
// second `/compact` against a real-size summarizer limit (`compactPtlAbove` 40k tokens, kit
// r-manual-big: alone the engine cuts the oldest rounds over several requests). With compact-plus the
// older results go down cut, in one request that fits.
test('trim-after-ptl', { skip: only && !only.includes('trim-after-ptl') }, async () => {
  // The summarizer refuses every request of the first `/compact`; from the first tool turn on, only
  // the size limit stands (the fake's knobs change before that turn).
  const tools = Array.from({ length: 6 }, (_, k) => `tool turn ${k + 1}: PROBE_TOOL:seq 1 6000`);
  const turns = ['turn one: remember KIWI-1001', '/compact', { prompt: tools[0], fake: { compactFail: null } }, ...tools.slice(1), '/compact keep the fruit', 'turn last: what fruits?'];
  const fake = { inputTokens: 50, compactFail: 'ptl', rescueFail: '500', compactPtlAbove: 40000 };
  const args = ['--allowedTools', 'Bash'];
  const alone = await runSession({ label: 'rescue-trim-none', mod: 'none', turns, fake: structuredClone(fake), env: ENV, args });
  const ours = await runSession({ label: 'rescue-trim', mod: 'repo', turns, fake: structuredClone(fake), env: ENV, args });
  try {
    const second = (run) => {
      const firstOk = run.requests.findIndex((r) => r.kind === 'normal' && allMessagesText(r).includes('tool turn 1'));
      return run.requests.slice(firstOk).filter((r) => r.kind === 'compaction');
    };
    const aloneSecond = second(alone);
    const oursSecond = second(ours);
    assert.ok(aloneSecond.length > 1 && aloneSecond[0].injected === 'ptl-limit', `alone: ${aloneSecond.map((r) => r.injected).join(',')}`);
    assert.equal(oursSecond.length, 1, `ours: ${oursSecond.map((r) => r.injected).join(',')}`);
    assert.equal(oursSecond[0].injected, undefined);
    const sent = allMessagesText(oursSecond[0]);
    assert.ok(sent.includes('compact-plus cut'), 'no result was cut');
    // The newest round whole: its result ends with the last number.
    assert.ok(sent.includes('5999\n6000'), 'the newest result went down cut');
    assert.ok(ours.turns.every((t) => t.result && !t.result.is_error), JSON.stringify(ours.turns.map((t) => t.result?.result)));
    const bytes = (r) => Buffer.byteLength(JSON.stringify(r.body ?? {}));
    table.push(`| the second \`/compact\` after a prompt-too-long, six 28.9 kB tool results, summarizer limit 40k tokens | ${aloneSecond.length} summarizer requests (${aloneSecond.map(bytes).join(' / ')} B), the oldest rounds cut by the engine | the older results cut on the way down: 1 request, ${bytes(oursSecond[0])} B |`);
    if (!process.env.E2E_KEEP) {
      alone.cleanup();
      ours.cleanup();
    }
  } catch (err) {
    console.log(`kept: ${alone.workDir} ${ours.workDir}`);
    throw err;
  }
});

// docs/rescue.md's table is this one, when every row ran and passed (figures masked:
// tests/docs-tables.mjs; DOCS_WRITE=1 writes it there).
test('docs/rescue.md: the rescue table is what this run measured', { skip: !!only }, () => {
  const lines = ['| fault | engine alone | with compact-plus |', '| --- | --- | --- |', ...table];
  const differences = measuredTable('docs/rescue.md', 'rescue', lines);
  assert.deepEqual(differences, [], differences.join('\n'));
});
