// Issue [16] on the REAL Claude Code CLI, headless (`-p` with stream-json in and out, as the SDK
// drives it): the receipt after every compaction (a `ui_log` of plugin compact-plus, never in a
// request), pins across five compactions and `--resume`, `/unpin`, `/recall` for the person (no
// model request, nothing of the query or answer in later requests), the brief from an earlier
// session of the project (once, only where a summary exists), each option off.
//
//   node --test --test-concurrency=1 tests/e2e/steer.test.mjs      (E2E_KEEP=1 keeps the work dirs)
//
// What the engine was measured to do, which these assert on: tests/HOST.md, "The person's
// commands and lines".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { runSession, debugLines } from './harness.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';
const skip = MOD !== 'repo' && 'issue [16] is compact-plus\'s own';
const KEY = `sk-ant-api03-${'Ab3dEf6hIj'.repeat(9)}-AA`;
const PIN = 'Never push to main; open a pull request. PIN-16';
const T1 = `Please fix the flaky parser test KIWI-7781; deploy with my key ${KEY}`;
const T2 = 'PROBE_TOOL:echo "test result: FAILED parser::tests::nested TOOL-OUT-16"';
// What the fake summarizer answers (tests/e2e/fake-api.mjs `summary`): the engine's sections, ours.
const SUMMARY = '1. Primary Request and Intent:\n   Fix the flaky parser test.\n\n7. Pending Tasks:\n   - Re-run the whole suite NEXT-KIWI\n\n## Open Questions\n- Keep the public API? OPEN-LIME';

const receipts = (run) => run.stream.filter((m) => m.type === 'system' && m.subtype === 'ui_log' && m.plugin === 'compact-plus').map((m) => m.text);
const body = (r) => JSON.stringify(r.body ?? {});
const count = (hay, needle) => hay.split(needle).length - 1;
const settings = (options) => ['--settings', JSON.stringify({ pluginConfigs: { 'compact-plus': { options } } })];
const requestsOf = (run, n) => run.messageRequests.filter((r) => run.requests.indexOf(r) >= run.turns[n].requestsFrom && run.requests.indexOf(r) < run.turns[n].requestsTo);
function keep(t, run, passed) {
  t.after(() => (passed() && !process.env.E2E_KEEP ? run.cleanup() : t.diagnostic(`kept ${run.workDir}`)));
}

test('headless: a receipt after every compaction, a pin through five compactions and --resume, /unpin, /recall for the person alone', { skip, timeout: 400000 }, async (t) => {
  const after = (n) => `after compaction ${n}: what next? STEP-${n}`;
  const turns = [
    T1, T2,
    `/pin ${PIN}`,
    '/pin',
    ...[1, 2, 3, 4, 5].flatMap((n) => ['/compact', after(n)]),
    '/recall KIWI-7781',
    `FAKE_TOOL_USE:{"name":"mcp__compact-plus__recall","input":{"query":"KIWI-7781"}}`,
    'after the recall',
  ];
  const run = await runSession({ mod: MOD, label: 'steer', args: ['--allowedTools', 'Bash'], fake: { summary: SUMMARY }, turns, turnTimeoutMs: 60000, sessionTimeoutMs: 300000 });
  let ok = false;
  keep(t, run, () => ok);
  assert.ok(run.ok, `the session did not complete: ${run.stderr.slice(-1500)}`);
  const at = (prompt) => run.turns.findIndex((x) => x.prompt === prompt);

  // The commands: answered at once, no model request, no model turn.
  for (const cmd of [`/pin ${PIN}`, '/pin', '/recall KIWI-7781']) {
    const n = at(cmd);
    assert.equal(requestsOf(run, n).length, 0, `${cmd} sent a model request`);
    assert.equal(run.turns[n].result?.num_turns, 0, `${cmd}: num_turns ${run.turns[n].result?.num_turns}`);
  }
  const outputs = run.stream.filter((m) => m.type === 'assistant' && m.message?.model === '<synthetic>').map((m) => m.message.content.map((c) => c.text ?? '').join(''));
  assert.ok(outputs.some((o) => o.startsWith(`compact-plus: pinned as pin 1 ("${PIN}", `)), JSON.stringify(outputs));
  assert.ok(outputs.some((o) => o.includes(`1 pinned (`) && o.includes(`  1. ${PIN}`)), 'the listing');
  // The command's line holds no text (rewritten at door command): the pin reaches the model in the
  // block after each compaction alone.
  assert.ok(run.messageRequests.every((r) => !body(r).includes('<command-args>Never push')), 'a /pin line with its text reached the model');

  // The receipt: one per compaction, at most two lines, never in a request.
  const lines = receipts(run);
  const saved = lines.filter((l) => l.startsWith('history saved to ~/.claude/compact-history/'));
  assert.equal(saved.length, 5, JSON.stringify(lines, null, 1));
  const files = run.history.filter((f) => /-manual\.md$/.test(f.rel)).sort((a, b) => a.rel.localeCompare(b.rel));
  assert.ok(saved[0].includes(path.basename(files[0].rel)), `${saved[0]} names ${files[0].rel}`);
  assert.ok(saved.every((l) => l.includes(' kept word for word') && l.includes('1 pin kept') && !l.includes('already')), JSON.stringify(saved));
  assert.equal(lines[1], 'redacted 1 credential (1 anthropic-key): the model sees [REDACTED:<kind>] in their place, so paste a key again if it needs one');
  assert.ok(!lines.some((l) => l.includes('sk-ant-api03')), 'a credential value in a receipt');
  for (const r of run.messageRequests) assert.equal(count(body(r), 'history saved to'), 0, `a receipt reached request #${run.requests.indexOf(r)}`);
  t.diagnostic(`receipt: ${lines[0]}`);

  // The pin: once in every request after each compaction, with the words, never twice.
  for (let n = 1; n <= 5; n++) {
    const req = requestsOf(run, at(after(n))).find((r) => r.kind === 'normal');
    assert.ok(req, `no request for "${after(n)}"`);
    assert.equal(count(body(req), 'PIN-16'), 1, `compaction ${n}: the pin ${count(body(req), 'PIN-16')} times`);
    assert.equal(count(body(req), '<user-pinned>'), 1, `compaction ${n}`);
    assert.ok(!body(req).includes('sk-ant-api03'), 'the key after a compaction');
  }

  // /recall: the answer names the file and the message heading; the query and the answer never
  // reach the model afterwards; the model's own tool finds the same.
  const recall = outputs.find((o) => o.startsWith('compact-plus: recall "KIWI-7781"'));
  assert.ok(recall, JSON.stringify(outputs.map((o) => o.slice(0, 60))));
  assert.match(recall, /-manual(-\d+)?\.md:\d+ · compaction .* · \[\d+\] user/);
  assert.ok(recall.includes('[REDACTED:anthropic-key]') && !recall.includes('sk-ant-api03'));
  const later = run.messageRequests.filter((r) => run.requests.indexOf(r) >= run.turns[at('/recall KIWI-7781')].requestsTo);
  for (const r of later) {
    assert.ok(!body(r).includes('<command-args>KIWI-7781'), 'the query reached the model');
    assert.ok(!body(r).includes("this session (saved history):"), 'the answer reached the model');
  }
  const settled = (event) => debugLines(run, new RegExp(`compact-plus@inline ${event} settled in`)).map((l) => Number(/settled in ([\d.]+)ms/.exec(l)?.[1]));
  t.diagnostic(`/recall (two searches: this session, then the project) settled in ${settled('command.run').at(-1)} ms; the model's recall tool (one search) in ${settled('tool.call').at(-1)} ms`);

  // --resume: a new process of the session keeps the pin.
  const resumed = await runSession({ mod: MOD, label: 'steer-resume', workDir: run.workDir, args: ['--resume', run.sessionId], turns: ['/compact', 'after the resume RESUMED-16', '/unpin 1', '/compact', 'after the unpin AFTER-UNPIN'] });
  assert.ok(resumed.ok, resumed.stderr.slice(-1500));
  const afterResume = resumed.messageRequests.find((r) => r.kind === 'normal' && body(r).includes('RESUMED-16'));
  assert.equal(count(body(afterResume), 'PIN-16'), 1, 'the pin after --resume');
  const afterUnpin = resumed.messageRequests.find((r) => r.kind === 'normal' && body(r).includes('AFTER-UNPIN'));
  assert.equal(count(body(afterUnpin), '<user-pinned>'), 0, 'the pin after /unpin');
  assert.equal(count(body(afterUnpin), 'PIN-16'), 0);
  assert.ok(receipts(resumed).filter((l) => l.startsWith('history saved to')).every((l, i) => (i === 0) === l.includes('1 pin kept')), JSON.stringify(receipts(resumed)));
  ok = true;
});

test('headless: a rescue\'s receipt says Claude Code\'s compaction failed, why, and who wrote the summary', { skip, timeout: 200000 }, async (t) => {
  for (const [fake, author] of [
    [{ compactFail: 'ptl' }, 'the rescue model (haiku) wrote the summary'],
    [{ compactFail: 'ptl', rescueFail: '500' }, ': the summary is compact-plus\'s digest'],
  ]) {
    const run = await runSession({ mod: MOD, label: 'steer-rescue', env: { CLAUDE_CODE_MAX_RETRIES: '2' }, fake, turns: [T1, 'turn two LIME-2002', '/compact', 'after'] });
    let ok = false;
    keep(t, run, () => ok);
    assert.ok(run.ok, run.stderr.slice(-1500));
    const lines = receipts(run);
    assert.equal(lines.length, 2, JSON.stringify(lines));
    assert.ok(lines[0].startsWith('Claude Code\'s own compaction failed (prompt too long); compact-plus compacted in its place: '), lines[0]);
    assert.ok(lines[0].includes(author), lines[0]);
    assert.ok(lines[1].startsWith('history saved to ~/.claude/compact-history/') && lines[1].includes('redacted 1 credential (1 anthropic-key)'), lines[1]);
    t.diagnostic(lines.join(' ⏎ '));
    ok = true;
  }
});

test('headless: the budget\'s left-out words counted; receipt off says nothing', { skip, timeout: 200000 }, async (t) => {
  const long = (n) => `message ${n}: ${'words of a long request '.repeat(20)}`;
  const run = await runSession({ mod: MOD, label: 'steer-budget', args: settings({ verbatimUserTokens: 100 }), turns: [long(1), long(2), `short last one ${'x'.repeat(200)}`, '/compact', 'after'] });
  let ok = false;
  keep(t, run, () => ok);
  assert.ok(run.ok);
  assert.match(receipts(run)[0], / · 1 of your messages kept word for word, 2 older left out by the budget/);
  const off = await runSession({ mod: MOD, label: 'steer-off', args: settings({ receipt: false }), turns: [T1, '/compact', 'after'] });
  keep(t, off, () => ok);
  assert.ok(off.ok);
  assert.deepEqual(receipts(off), []);
  assert.equal(off.compactBoundaries.length, 1, 'the compaction itself happened');
  ok = true;
});

test('headless: a new session of the project gets the brief from the last session\'s summary, once; none elsewhere', { skip, timeout: 300000 }, async (t) => {
  const workDir = fs.mkdtempSync(path.join(process.env.E2E_WORK_ROOT ?? os.tmpdir(), 'cp-e2e-steer-brief-'));
  const first = await runSession({ mod: MOD, label: 'steer-brief-1', workDir, fake: { summary: SUMMARY }, turns: [T1, '/compact', 'bye'] });
  let ok = false;
  t.after(() => (ok && !process.env.E2E_KEEP ? fs.rmSync(workDir, { recursive: true, force: true }) : t.diagnostic(`kept ${workDir}`)));
  assert.ok(first.ok);
  const HEAD = 'From compact-plus: a brief from an earlier session of this project';

  const second = await runSession({ mod: MOD, label: 'steer-brief-2', workDir, turns: ['hello, new session BRIEF-Q1', 'second prompt BRIEF-Q2'] });
  assert.ok(second.ok);
  assert.notEqual(second.sessionId, first.sessionId);
  const [r1, r2] = second.messageRequests.filter((r) => r.kind === 'normal');
  for (const [r, what] of [[r1, 'first'], [r2, 'second']]) {
    assert.equal(count(body(r), HEAD), 1, `${what} request: the brief ${count(body(r), HEAD)} times`);
    assert.ok(body(r).includes('NEXT-KIWI') && body(r).includes('OPEN-LIME'), 'its next steps and open questions');
  }
  // Never the current request: it comes before the person's prompt, and says it is none.
  const text = body(r1);
  assert.ok(text.indexOf(HEAD) < text.indexOf('BRIEF-Q1'), 'the prompt comes after the brief');
  assert.ok(text.includes('Nothing in it is a request'));
  const block = /From compact-plus: a brief[\s\S]*?<\/earlier-session-brief>/.exec(JSON.parse(JSON.stringify(r1.body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => c.text ?? '').join('\n'))).join('\n'))))?.[0] ?? '';
  assert.ok(block.length > 0 && block.length <= 2400, `${block.length} characters`);
  assert.ok(!block.includes('Continue the conversation') && !block.includes('transcript at'), 'the engine\'s paragraph after the summary is no part of the brief');
  const notice = receipts(second);
  assert.equal(notice.length, 1, JSON.stringify(notice));
  assert.match(notice[0], new RegExp(`^gave the model a brief from an earlier session of this project \\(${first.sessionId.slice(0, 8)}`));
  t.diagnostic(`brief: ${block.length} characters; ${notice[0]}`);
  const firstContext = debugLines(second, /compact-plus@inline prompt\.context settled in/)[0];
  t.diagnostic(`the first prompt.context (with the brief's lookup): ${firstContext}`);

  // --resume of that session: the stored brief once, no new one.
  const third = await runSession({ mod: MOD, label: 'steer-brief-3', workDir, args: ['--resume', second.sessionId], turns: ['resumed BRIEF-Q3'] });
  assert.ok(third.ok);
  const r3 = third.messageRequests.find((r) => r.kind === 'normal');
  assert.ok(count(body(r3), HEAD) <= 1, `resumed: the brief ${count(body(r3), HEAD)} times`);
  assert.deepEqual(receipts(third), [], 'no new brief on --resume');

  // The option off: none.
  const off = await runSession({ mod: MOD, label: 'steer-brief-off', workDir, args: settings({ sessionBrief: false }), turns: ['no brief please BRIEF-Q4'] });
  assert.ok(off.ok);
  assert.equal(count(body(off.messageRequests.find((r) => r.kind === 'normal')), HEAD), 0);
  assert.deepEqual(receipts(off), []);

  // A project with no earlier summary: nothing.
  const fresh = await runSession({ mod: MOD, label: 'steer-brief-none', turns: ['first ever BRIEF-Q5'] });
  assert.ok(fresh.ok);
  assert.equal(count(body(fresh.messageRequests.find((r) => r.kind === 'normal')), HEAD), 0);
  assert.deepEqual(receipts(fresh), []);
  fresh.cleanup();
  ok = true;
});
