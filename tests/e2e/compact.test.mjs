// Level-3 end-to-end tests: the real Claude Code CLI, a fake Messages API, and the compact-plus mod
// loaded with --plugin-dir. They assert what the engine really did with the mod in place: the
// summarizer request, the history file, the stored summary row, log.jsonl, the instruction files.
//
//   E2E_MOD=reference node --test tests/e2e/     # the reference mod, built from the seed
//   E2E_MOD=repo      node --test tests/e2e/     # the repo's mod (the default)
//   E2E_KEEP=1 keeps every run's work dir (home, project, requests.jsonl, stream.jsonl, debug.log);
//   a failed test's work dir is always kept and named in the output.
//
// The behaviour is the reference index.js's: session.compact writes the conversation to
// $HOME/.claude/compact-history/<session>/<stamp>-<trigger>.md and adds handoff instructions after
// the person's own; session.append (door compaction) appends the person's messages word for word
// and a pointer to the history file to the stored summary row; prompt.context swaps in instruction
// files changed on disk; turn.complete compacts between turns once the context passes 90 % of the
// auto-compact threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSession, textOf, lastMessageText, firstUserText, allMessagesText, debugLines, summaryRows, instructionsIn } from './harness.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';
const TEST_TIMEOUT_MS = 120000; // a hung CLI is killed by the harness well before this

// Defects of the reference implementation that the tests observe. For the reference each is
// asserted to still reproduce (so a change is noticed); any other mod must not have them.
//   false-instructions-refresh  prompt.context logs `instructions-refreshed` for an unchanged
//                               CLAUDE.md: its own stripping of an HTML comment leaves the
//                               comment's (now empty) line, which the engine drops, so the texts
//                               never compare equal.
//   claudemd-text-altered       ... and, having judged the file changed, it hands back its own
//                               rendering, so every request's claudeMd text differs from the
//                               engine's (an extra blank line where the comment was).
//   stale-turn-end-compaction   the turn-end compaction is scheduled 1.5 s after a turn ends; when
//                               the next prompt auto-compacts inside that window, the timer still
//                               fires and compacts the fresh context a second time.
const KNOWN_DEFECTS = {
  reference: new Set(['false-instructions-refresh', 'claudemd-text-altered', 'stale-turn-end-compaction']),
};
const allowedDefects = KNOWN_DEFECTS[MOD] ?? new Set();

function expectDefect(t, name, observed, detail) {
  if (allowedDefects.has(name)) {
    t.diagnostic(`known ${MOD} defect "${name}": observed=${observed}${detail ? ` (${detail})` : ''}`);
    assert.equal(observed, true, `known defect "${name}" no longer reproduces with the ${MOD} mod: update KNOWN_DEFECTS`);
  } else {
    t.diagnostic(`defect "${name}" absent: ${!observed}${detail ? ` (${detail})` : ''}`);
    assert.equal(observed, false, `defect "${name}": ${detail}`);
  }
}

// The wording of the parts a person or a model reads: the reference's, or the
// repo mod's (its handoff carries evidence labels and marks the current request).
const HANDOFF_HEAD = MOD === 'reference' ? 'Extra instructions from the compact-plus mod:' : 'From the compact-plus mod:';
const VERBATIM_OPEN = '<user-messages-verbatim>';
const VERBATIM_CLOSE = '</user-messages-verbatim>';
const POINTER_HEAD = 'compact-plus saved the conversation from before this compaction';

/** Runs a session; keeps its work dir when the test fails or E2E_KEEP is set. */
async function session(t, opts) {
  const run = await runSession({ mod: MOD, turnTimeoutMs: 30000, sessionTimeoutMs: 90000, ...opts, label: `${MOD}-${opts.label ?? 'run'}` });
  t.diagnostic(`${run.label}: ${run.totalMs} ms, session ${run.sessionId}, work dir ${run.workDir}`);
  let failed = true;
  t.after(() => {
    if (!failed && !process.env.E2E_KEEP) run.cleanup();
    else t.diagnostic(`kept ${run.workDir}`);
  });
  run.passed = () => { failed = false; };
  assert.ok(!run.timedOut, `timed out: ${run.timedOut}\nstderr: ${run.stderr.slice(-2000)}`);
  assert.ok(run.ok, `session did not complete every turn: exit ${JSON.stringify(run.exit)}\nturns ${JSON.stringify(run.turns.map((x) => x.result?.result))}\nstderr: ${run.stderr.slice(-2000)}`);
  assert.match(run.debugLog, /hooks module \S+ loaded \(worker/, 'the mod\'s hooks module did not load');
  assert.doesNotMatch(run.stderr, /hooks module did not load/);
  return run;
}

/** The text after the last `Additional Instructions:` line of the summarizer prompt, up to the REMINDER. */
const additionalInstructions = (req) => instructionsIn(lastMessageText(req));

/** The history .md files of the session (everything but log.jsonl), oldest first. */
function historyFiles(run, root = run.historyRoot) {
  const dir = path.join(root, run.sessionId);
  // The history parts, not the summaries saved beside them (`<time>-<trigger>.summary.md`).
  return run.history.filter((f) => f.path.startsWith(dir + path.sep) && f.rel.endsWith('.md') && !f.rel.endsWith('.summary.md'))
    .map((f) => ({ ...f, path: f.path.split(path.sep).join('/') }));
}


function verbatimBlock(text) {
  const start = text.lastIndexOf(VERBATIM_OPEN);
  const end = text.indexOf(VERBATIM_CLOSE, start);
  return start >= 0 && end > start ? text.slice(start, end + VERBATIM_CLOSE.length) : null;
}

/**
 * Asserts that a summary text carries the verbatim block (prompts in order) and the pointer, and
 * that `current` prompts are marked current: none on every path these tests take (a `/compact`,
 * ours at a turn's end, an automatic compaction whose prompt the engine kept after the summary):
 * a message of the person's follows the block in every request that carries it (tests/HOST.md,
 * "Which request is current"; issue [13] item 2).
 */
function checkSummaryText(t, where, text, prompts, historyFile, { current = 0 } = {}) {
  assert.ok(text.startsWith('This session is being continued from a previous conversation'), `${where}: not the engine's summary`);
  const block = verbatimBlock(text);
  assert.ok(block, `${where}: no ${VERBATIM_OPEN} block`);
  let from = 0;
  for (const p of prompts) {
    const i = block.indexOf(p, from);
    assert.ok(i >= 0, `${where}: the verbatim block lacks (or misorders) the prompt ${JSON.stringify(p)}`);
    from = i + p.length;
  }
  assert.doesNotMatch(block, /<command-name>|<local-command|<system-reminder>/, `${where}: machine text in the verbatim block`);
  t.diagnostic(`${where}: ${VERBATIM_OPEN} holds the ${prompts.length} prompt(s) in order, no machine rows`);
  if (MOD !== 'reference') {
    const marks = block.split('--- user message (current request when compacted) ---').length - 1;
    assert.equal(marks, current, `${where}: ${marks} current-request marks, ${current} expected`);
    assert.ok(!block.includes('--- user message (current request) ---'), `${where}: the old, unqualified mark`);
    assert.equal(block.split('--- user message (earlier) ---').length - 1 + marks, prompts.length, `${where}: every kept prompt is marked earlier or current`);
    if (marks === 1) {
      const last = prompts.at(-1);
      assert.ok(block.includes(`(current request when compacted) ---\n${last}`), `${where}: the current request is not the newest prompt`);
    }
    t.diagnostic(`${where}: marks: ${marks} current request, ${prompts.length - marks} earlier`);
  }
  if (historyFile) {
    assert.ok(text.includes(POINTER_HEAD), `${where}: no pointer text`);
    assert.ok(text.includes(`"${historyFile}"`), `${where}: the pointer does not name ${historyFile}`);
    t.diagnostic(`${where}: the pointer names ${historyFile}`);
  }
}

function compactEvents(run) {
  return run.historyLog.filter((e) => e.event === 'compact');
}

// ---------------------------------------------------------------------------------------------

test('tool call, then /compact <instructions>: handoff after own instructions, history, summary row, log', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const readMarker = 'READ-TOOL-MARKER-5521 notes file body';
  const prompts = [
    'turn one: remember KIWI-7781 and run PROBE_TOOL:echo probe-tool-output-123',
    'turn two: LIME-4410, read the notes FAKE_TOOL_USE:{"name":"Read","input":{"file_path":"@PROJ@/notes.txt"}}',
    'turn three: and remember FIG-9902',
  ];
  const own = 'keep KIWI-7781 and the tool output';
  const run = await session(t, {
    label: 'manual',
    args: ['--allowedTools', 'Bash,Read'],
    files: { 'notes.txt': `${readMarker}\n` },
    turns: [
      { prompt: prompts[0], fake: { reply: 'REPLY-ONE after the tool' } },
      { prompt: (ctx) => (prompts[1] = prompts[1].replace('@PROJ@', ctx.projectDir)), fake: { reply: 'REPLY-TWO after the read' } },
      { prompt: prompts[2], fake: { reply: 'REPLY-THREE' } },
      `/compact ${own}`,
      { prompt: 'turn five: what do you remember?', fake: { reply: 'REPLY-FIVE' } },
    ],
  });

  // The tools really ran: their results came back to the fake API.
  const toolResults = run.normalRequests.flatMap((r) => (r.body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result').map((b) => textOf(b.content)));
  assert.ok(toolResults.some((x) => x.includes('probe-tool-output-123')), 'the Bash tool result did not reach the API');
  assert.ok(toolResults.some((x) => x.includes(readMarker)), 'the Read tool result did not reach the API');
  t.diagnostic('Bash (PROBE_TOOL) and Read (FAKE_TOOL_USE) ran; their results reached the API');

  // One manual compaction.
  assert.equal(run.compactionRequests.length, 1, 'summarizer requests');
  assert.deepEqual(run.compactBoundaries.map((m) => m.compact_metadata.trigger), ['manual']);

  // The summarizer got the person's instructions first, then the mod's handoff instructions.
  const extra = additionalInstructions(run.compactionRequests[0]);
  assert.ok(extra, 'no "Additional Instructions:" paragraph in the summarizer request');
  assert.ok(extra.startsWith(`${own}\n\n`), `own instructions are not first: ${JSON.stringify(extra.slice(0, 120))}`);
  const handoff = extra.slice(own.length + 2);
  assert.ok(handoff.startsWith(HANDOFF_HEAD), `no handoff instructions after the own ones: ${JSON.stringify(handoff.slice(0, 120))}`);
  assert.match(handoff, /handoff/);
  assert.ok(handoff.includes(prompts[0].slice(0, 40)), 'the handoff does not name the first message kept word for word');
  assert.equal(lastMessageText(run.compactionRequests[0]).split('\nAdditional Instructions:\n').length, 2, 'more than one Additional Instructions paragraph');
  t.diagnostic(`summarizer request: "Additional Instructions:" = own (${JSON.stringify(own)}), blank line, "${HANDOFF_HEAD}" ... naming the first verbatim prompt`);

  // The history file holds the whole compacted conversation.
  const files = historyFiles(run);
  assert.equal(files.length, 1, `history files: ${run.history.map((f) => f.rel)}`);
  const [hist] = files;
  assert.match(path.basename(hist.path), /^\d{4}-\d{2}-\d{2}T\d{6}Z-manual\.md$/);
  // Beside it, the summary row's text, for a later session's project recall.
  const saved = run.history.find((f) => f.path.split(path.sep).join('/') === hist.path.replace(/\.md$/, '.summary.md'));
  assert.ok(saved, `no summary saved beside the history: ${run.history.map((f) => f.rel)}`);
  const savedText = fs.readFileSync(saved.path, 'utf8').trim();
  assert.ok(savedText.length > 0 && textOf(summaryRows(run)[0].message.content).includes(savedText), `the saved summary is not the row's text: ${savedText.slice(0, 200)}`);
  for (const needle of [...prompts, 'REPLY-ONE after the tool', 'REPLY-TWO after the read', 'REPLY-THREE',
    'probe-tool-output-123', 'echo probe-tool-output-123', readMarker, run.sessionId]) {
    assert.ok(hist.text.includes(needle), `history file lacks ${JSON.stringify(needle)}`);
  }
  assert.ok(!hist.text.includes('turn five'), 'history file holds a prompt from after the compaction');
  t.diagnostic(`history ${hist.rel} (${hist.size} B): all 3 prompts, 3 replies, Bash command + output, Read output`);

  // The stored summary row and the next request carry the verbatim block and the pointer.
  const rows = summaryRows(run);
  assert.equal(rows.length, 1, 'summary rows in the transcript');
  checkSummaryText(t, 'transcript summary row', textOf(rows[0].message.content), prompts, hist.path);
  const after = run.normalRequests.at(-1);
  assert.ok(allMessagesText(after).includes('turn five'), 'the last request is not turn five');
  checkSummaryText(t, 'next request, first user message', firstUserText(after), prompts, hist.path);

  // log.jsonl
  const events = compactEvents(run);
  assert.equal(events.length, 1, `log.jsonl: ${JSON.stringify(run.historyLog)}`);
  assert.equal(events[0].trigger, 'manual');
  assert.equal(events[0].file, hist.path);
  assert.ok(events[0].messages >= prompts.length * 2, `messages=${events[0].messages}`);
  t.diagnostic(`log.jsonl: compact event ${JSON.stringify(events[0])}`);
  run.passed();
});

test('automatic compaction (inflated usage): handoff instructions alone, history, summary row, log', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const prompts = ['turn one: remember KIWI-1001', 'turn two: remember LIME-2002', 'turn three: what fruits?'];
  const run = await session(t, {
    label: 'auto',
    fake: { inputTokens: 5000 },
    turns: [
      prompts[0],
      { prompt: prompts[1], fake: { inputTokens: 975000 } }, // over the 967,000 threshold of the 1M window
      // Kept open 3 s: a turn-end compaction armed by turn two (975,000 is also over 90 %) would fire here.
      { prompt: prompts[2], fake: { inputTokens: 5000 }, waitAfter: { ms: 3000 } },
    ],
  });
  const boundaries = run.compactBoundaries.map((m) => m.compact_metadata.trigger);
  assert.equal(boundaries[0], 'auto', `boundaries ${boundaries}`);
  // The auto compaction runs when turn three is submitted, before its request: the engine keeps
  // the last answer and the new prompt as they are and summarizes the rest.
  assert.deepEqual(run.messageRequests.slice(0, 4).map((r) => r.kind), ['normal', 'normal', 'compaction', 'normal']);
  const autoReq = run.compactionRequests[0];
  assert.ok(!allMessagesText(autoReq).includes(prompts[2]), 'turn three was summarized');
  assert.ok(allMessagesText(run.messageRequests[3]).includes(prompts[2]), 'the request after the auto compaction is not turn three');
  const extra = additionalInstructions(autoReq);
  assert.ok(extra?.startsWith(HANDOFF_HEAD), `auto compaction: no handoff instructions: ${JSON.stringify(extra?.slice(0, 100))}`);
  t.diagnostic('auto compaction when turn three was submitted; "Additional Instructions:" holds the handoff alone');

  // The history holds the whole conversation the hook saw, turn three included.
  const [hist] = historyFiles(run);
  assert.ok(hist, 'no history file');
  assert.match(hist.rel, /-auto\.md$/);
  for (const p of prompts) assert.ok(hist.text.includes(p), `history lacks ${p}`);
  t.diagnostic(`history ${hist.rel}: all 3 prompts`);

  // The verbatim block leaves out turn three: the engine keeps that message itself.
  const rowText = textOf(summaryRows(run)[0].message.content);
  checkSummaryText(t, 'transcript summary row (auto)', rowText, prompts.slice(0, 2), hist.path);
  assert.ok(!verbatimBlock(rowText).includes(prompts[2]), 'the verbatim block repeats the prompt the engine kept');
  checkSummaryText(t, 'turn three request, first user message', firstUserText(run.messageRequests[3]), prompts.slice(0, 2), hist.path);
  t.diagnostic('the verbatim block leaves out turn three (kept by the engine after the summary)');
  const events = compactEvents(run);
  assert.equal(events[0]?.trigger, 'auto');
  assert.equal(events[0].file, hist.path);
  assert.ok(events[0].tokensBefore >= 967000, `tokensBefore ${events[0].tokensBefore}`);
  t.diagnostic(`log.jsonl: ${JSON.stringify(events[0])}`);

  const second = run.compactionRequests.length > 1;
  expectDefect(t, 'stale-turn-end-compaction', second,
    `compactions ${boundaries.join(',')}; log ${run.historyLog.map((e) => e.event).join(',')}`);
  run.passed();
});

test('turn-end compaction: context at >= 90 % of the auto-compact threshold compacts between turns', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const prompts = ['turn one: remember KIWI-3003', 'turn two: remember LIME-4004'];
  const run = await session(t, {
    label: 'turn-end',
    fake: { inputTokens: 5000 },
    turns: [
      prompts[0],
      {
        // 900,000 of the 967,000 threshold: 93 %, over the 90 % turn-end mark, under auto-compact.
        prompt: prompts[1],
        fake: { inputTokens: 900000 },
        // The compaction starts 1.5 s after the turn; wait for its boundary and its result line.
        waitAfter: { ms: 10000, until: (ctx) => ctx.stream.some((m) => m.subtype === 'compact_boundary') && ctx.unsolicitedResults.length > 0 },
      },
      { prompt: 'turn three: what fruits?', fake: { inputTokens: 5000 } },
    ],
  });
  const turnTwo = run.turns[1];
  assert.ok(turnTwo.waitedMs >= 1000, `the compaction came ${turnTwo.waitedMs} ms after turn two's result (expected after ~1.5 s)`);
  assert.equal(run.compactBoundaries.length, 1, `boundaries ${run.compactBoundaries.map((m) => m.compact_metadata.trigger)}`);
  const trigger = run.compactBoundaries[0].compact_metadata.trigger;
  assert.notEqual(trigger, 'auto');
  // Turn two's requests come first, the summarizer before turn three's request.
  const kinds = run.messageRequests.map((r) => r.kind);
  assert.deepEqual(kinds, ['normal', 'normal', 'compaction', 'normal']);
  assert.ok(!allMessagesText(run.compactionRequests[0]).includes('turn three'), 'compacted after turn three started');
  t.diagnostic(`compacted ${turnTwo.waitedMs} ms after turn two's result, before turn three; boundary trigger "${trigger}"`);
  // In -p, $.session.compact rejects ("not available in a headless (-p / SDK) session yet"; the
  // debug line still says "compacting"), so the reference's fallback $.command.run({ command:
  // 'compact' }) queues a /compact: the engine reports it as a manual compaction.
  t.diagnostic(`debug: ${debugLines(run, /\$\.session\.compact|\$\.command\.run/).map((l) => l.replace(/^\S+ \[\w+\] /, '')).join(' | ')}`);

  const log = run.historyLog.map((e) => e.event);
  const at = log.indexOf('turn-end-compact');
  assert.ok(at >= 0, `no turn-end-compact in log.jsonl: ${log}`);
  assert.equal(run.historyLog[at].percent, 90);
  assert.ok(log.indexOf('compact', at) > at, `no compact after turn-end-compact: ${log}`);
  const ev = compactEvents(run)[0];
  assert.equal(ev.tokensBefore, 900010, 'tokensBefore (900,000 input + 10 output)');
  t.diagnostic(`log.jsonl: turn-end-compact (percent 90), then ${JSON.stringify(ev)}`);

  const [hist] = historyFiles(run);
  assert.ok(hist, 'no history file');
  for (const p of prompts) assert.ok(hist.text.includes(p), `history lacks ${p}`);
  assert.ok(additionalInstructions(run.compactionRequests[0])?.startsWith(HANDOFF_HEAD), 'no handoff instructions');
  checkSummaryText(t, 'transcript summary row (turn-end)', textOf(summaryRows(run)[0].message.content), prompts, hist.path);
  checkSummaryText(t, 'turn three request, first user message', firstUserText(run.normalRequests.at(-1)), prompts, hist.path);
  run.passed();
});

test('CLAUDE.md: an edited file shows after compaction, an unchanged one is left as the engine loads it', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const V1 = '---\ntitle: probe project\ntags: [e2e, compact-plus]\n---\n# Project instructions\n\n<!-- HTML comment: hidden note for humans only -->\nAlways answer briefly. MD-MARKER-V1.\n';
  const V2 = V1.replace('MD-MARKER-V1.', 'MD-MARKER-V2, edited mid-session.');
  const turns = [
    'turn one',
    '/compact', // unchanged file re-read
    'turn three',
    { prompt: 'turn four', before: (ctx) => ctx.writeProjectFile('CLAUDE.md', V2) },
    '/compact', // edited file re-read
    'turn six',
  ];
  const [run, base] = await Promise.all([
    session(t, { label: 'claude-md', claudeMd: V1, turns }),
    runSession({ mod: 'none', label: 'claude-md-nomod', claudeMd: V1, turns, turnTimeoutMs: 30000, sessionTimeoutMs: 90000 }),
  ]);
  t.after(() => { if (!process.env.E2E_KEEP) base.cleanup(); });
  assert.ok(base.ok, 'the no-mod baseline run failed');
  const claudeMdText = (req) => {
    const all = allMessagesText(req);
    const m = /Contents of \S*CLAUDE\.md[^\n]*\n\n([\s\S]*?)(?:\n<\/system-reminder>|$)/.exec(all);
    return m ? m[1] : null;
  };
  const texts = run.normalRequests.map(claudeMdText);
  // requests: turn one, turn three, turn four, turn six (the summarizer requests aside)
  assert.equal(texts.length, 4);
  assert.match(texts[0], /MD-MARKER-V1/);
  assert.match(texts[2], /MD-MARKER-V1/, 'turn four (edited, not yet compacted) should still carry the loaded copy');
  assert.match(texts[3], /MD-MARKER-V2, edited mid-session\./, 'the edited CLAUDE.md is not in the request after compaction');
  assert.doesNotMatch(texts[3], /MD-MARKER-V1/);
  assert.ok(texts.every((x) => !/^---|title: probe project|<!--/.test(x)), 'frontmatter or the HTML comment reached the request');
  t.diagnostic('claudeMd text: V1 before, V1 in turn four (edited, not compacted), V2 after the second /compact; no frontmatter/comment');

  // Unchanged file: the mod must leave the engine's text alone and log no refresh.
  const baseTexts = base.normalRequests.map(claudeMdText);
  const altered = texts.map((x, i) => x !== baseTexts[i]);
  expectDefect(t, 'claudemd-text-altered', altered.some(Boolean),
    `requests whose claudeMd differs from the no-mod run: ${altered.map((a, i) => (a ? i : null)).filter((i) => i !== null)}; e.g. ${JSON.stringify(texts[0])} vs ${JSON.stringify(baseTexts[0])}`);
  // In this build the engine re-reads CLAUDE.md at every compaction (the no-mod run shows V2 too),
  // so the file never differs from the engine's copy here: every refresh logged is a false one.
  assert.match(baseTexts[3], /MD-MARKER-V2/, 'baseline: the engine itself did not re-read CLAUDE.md at compaction');
  const refreshes = run.historyLog.filter((e) => e.event === 'instructions-refreshed');
  expectDefect(t, 'false-instructions-refresh', refreshes.length > 0,
    `${refreshes.length} instructions-refreshed event(s) though the engine's copy matched the file each time`);
  run.passed();
});

test('no HOME: compaction still works, verbatim block kept, no history file or pointer', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const prompts = ['turn one: remember KIWI-5005', 'turn two: remember LIME-6006'];
  const run = await session(t, {
    label: 'no-home',
    env: { HOME: null }, // the harness points CLAUDE_CONFIG_DIR at <work>/home/.claude
    turns: [...prompts, '/compact keep the fruit', 'turn four'],
  });
  assert.equal(run.compactionRequests.length, 1);
  assert.ok(additionalInstructions(run.compactionRequests[0])?.startsWith(`keep the fruit\n\n${HANDOFF_HEAD}`), 'handoff instructions missing without HOME');
  const everything = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); everything.push(p); if (e.isDirectory()) walk(p); } };
  walk(run.workDir);
  assert.deepEqual(everything.filter((p) => p.includes('compact-history')), [], 'a compact-history folder was written without HOME');
  const rowText = textOf(summaryRows(run)[0].message.content);
  checkSummaryText(t, 'transcript summary row (no HOME)', rowText, prompts, null);
  assert.ok(!rowText.includes(POINTER_HEAD), 'a pointer without a history file');
  t.diagnostic('HOME unset for the CLI ($.env.get("HOME") → undefined): no compact-history anywhere, no pointer, verbatim block kept');
  run.passed();
});

test('USERPROFILE set: the history goes under HOME, and under USERPROFILE only on Windows (OS=Windows_NT)', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  // WSL with WSLENV=USERPROFILE/p hands Linux the Windows home as /mnt/c/…: not where ~/.claude is.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-e2e-userprofile-'));
  t.after(() => fs.rmSync(profile, { recursive: true, force: true }));
  const profileRoot = path.join(profile, '.claude', 'compact-history');
  const prompts = ['turn one: remember KIWI-7007'];
  const run = await session(t, { label: 'userprofile', env: { USERPROFILE: profile }, turns: [prompts[0], '/compact', 'turn three'] });
  const [hist] = historyFiles(run);
  assert.ok(hist, `no history file under ${run.historyRoot}`);
  assert.ok(!fs.existsSync(profileRoot), 'history written under USERPROFILE outside Windows');
  checkSummaryText(t, 'transcript summary row (USERPROFILE outside Windows)', textOf(summaryRows(run)[0].message.content), prompts, hist.path);
  run.passed();

  const windows = await session(t, { label: 'userprofile-windows', env: { USERPROFILE: profile, OS: 'Windows_NT' }, historyRoot: profileRoot, turns: [prompts[0], '/compact', 'turn three'] });
  const [winHist] = historyFiles(windows, profileRoot);
  assert.ok(winHist, `no history file under ${profileRoot} with OS=Windows_NT`);
  assert.ok(!fs.existsSync(path.join(windows.home, '.claude', 'compact-history')), 'history also written under HOME');
  checkSummaryText(t, 'transcript summary row (USERPROFILE, Windows)', textOf(summaryRows(windows)[0].message.content), prompts, winHist.path);
  t.diagnostic(`outside Windows: ${hist.path}; with OS=Windows_NT: ${winHist.path}`);
  windows.passed();
});
