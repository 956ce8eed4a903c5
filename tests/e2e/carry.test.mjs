// The person's words across any number of compactions, and which request is marked current, on
// the REAL Claude Code CLI, headless (`-p`, stream-json), with the fake Messages API (issue [13]
// items 1 and 2). The terminal's side is tests/tui/carry.test.mjs.
//
// Headless, a `/compact` dispatches `session.append` at door `compaction` for its summary row, and
// the blocks go on that row (tests/HOST.md, "The channel the blocks take"): the next compaction
// finds the previous block in its first message, and the session state holds the same words.
// They must be carried once, oldest first, and since a `/compact` runs between turns (the next
// prompt follows its row in every request that carries it), no request in them is marked current.
//
//   node --test tests/e2e/carry.test.mjs        E2E_KEEP=1 keeps the work dirs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSession, textOf, allMessagesText, summaryRows } from './harness.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';
const skip = MOD === 'reference' || MOD === 'none' ? `these tests are about the repo's mod (E2E_MOD=${MOD})` : false;
const VERBATIM_OPEN = '<user-messages-verbatim>';
const VERBATIM_CLOSE = '</user-messages-verbatim>';

/** The words of the one verbatim block in `text`, oldest first, and how many are marked current. */
function block(where, text) {
  const n = text.split(VERBATIM_OPEN).length - 1;
  assert.equal(n, 1, `${where}: ${n} verbatim blocks`);
  const body = text.slice(text.indexOf(VERBATIM_OPEN), text.indexOf(VERBATIM_CLOSE));
  const pieces = body.split('\n--- user message ').slice(1);
  return {
    words: pieces.map((p) => p.slice(p.indexOf(' ---\n') + 5).trim()),
    current: pieces.filter((p) => p.startsWith('(current request')).length,
  };
}

test('headless: three /compacts with prompts between: every word carried once, oldest first, none marked current', { skip, timeout: 180000 }, async (t) => {
  const P = [
    'The migration plan: users table first, then orders; never drop a column before its backfill. PLAN-7311',
    'Start with the users table. USERS-7312',
    'Users done; now the orders. ORDERS-7313',
    'Orders done; what is left? LEFT-7314',
    'Thanks, that is all for today. DONE-7315',
  ];
  const run = await runSession({
    mod: MOD, label: 'carry-three', turnTimeoutMs: 30000, sessionTimeoutMs: 150000,
    turns: [P[0], P[1], '/compact', P[2], '/compact keep the migration plan', P[3], '/compact', P[4]],
  });
  let passed = false;
  t.after(() => (passed && !process.env.E2E_KEEP ? run.cleanup() : t.diagnostic(`kept ${run.workDir}`)));
  assert.ok(run.ok, `the session did not complete: ${JSON.stringify(run.turns.map((x) => x.result?.result))}\n${run.stderr.slice(-1500)}`);
  assert.deepEqual(run.compactBoundaries.map((m) => m.compact_metadata.trigger), ['manual', 'manual', 'manual']);

  // Each stored summary row: everything said before it, in order, once; nothing current.
  const rows = summaryRows(run).map((r) => textOf(r.message.content));
  assert.equal(rows.length, 3, 'summary rows');
  const want = [P.slice(0, 2), P.slice(0, 3), P.slice(0, 4)];
  rows.forEach((text, k) => {
    const b = block(`summary row ${k + 1}`, text);
    assert.deepEqual(b, { words: want[k], current: 0 }, `summary row ${k + 1}`);
    t.diagnostic(`summary row ${k + 1}: ${b.words.length} words, ${b.current} marked current`);
  });

  // The request of the prompt after the third: the plan is still there, once, and the prompt that
  // request is for is the only one newer than the block.
  const last = run.normalRequests.at(-1);
  const text = allMessagesText(last);
  assert.ok(text.includes(P[4]), 'the last request is not the last prompt\'s');
  assert.deepEqual(block('the last request', text), { words: want[2], current: 0 });
  assert.equal(text.split(P[0]).length - 1, 1, 'the plan is in the last request more than once');
  // And what a resumed process would carry on: the same words, kept in the session's folder.
  const kept = run.history.find((f) => f.rel === `${run.sessionId}/.verbatim.json`);
  assert.deepEqual(JSON.parse(kept?.text ?? 'null'), want[2]);
  passed = true;
});
