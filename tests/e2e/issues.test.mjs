// Level-3 tests for two compact-plus issues, on the REAL Claude Code CLI with a fake Messages API
// (tests/e2e/harness.mjs), the mod being the repo root:
//
//   [3] Nothing lost at any size, and where the files go.
//       * 4,096 messages, ~30 MB of text: the history is written in parts, none over the
//         4,194,304-byte limit of one $.fs.write, each opening with its part heading, and every
//         message is found exactly once across the folder by a fixed-string search (rg when it is
//         on PATH, else grep: CI does not install ripgrep), under its own "## [n] role" heading,
//         its text whole; the pointer in the summary row names the first part and the count.
//         A real 4,096-message session through the CLI is too slow, so the session.compact event
//         the core sees is rewritten (a plugin copy with the fault layer of fault-mods.mjs); the
//         engine's own next() keeps its real event.
//       * HOME with spaces and non-ASCII: the history goes under it.
//       * HOME relative (`relative/home`): the CLI itself then keeps its own files in
//         <project>/relative/home; compact-plus writes nothing anywhere.
//       * A session id that is not one safe path segment (`../../escape`, `a/b`): the real CLI
//         only takes UUIDs (`--session-id`: "Invalid session ID. Must be a valid UUID."), so the
//         fault layer answers `$.session.id()` with them: everything stays inside
//         <home>/.claude/compact-history/<one segment>/.
//   [4] part 4: the instruction refresh against the engine's own reading of CLAUDE.md, one
//       session per file variant (and a no-mod session beside it): an "unchanged" phase (turn,
//       /compact, turn) and an "edited" phase (edit between turns, turn, /compact, turn). The
//       table (file variant, run, engine content equal to disk?, refreshed?, ...) is printed and
//       written to $E2E_INSTRUCTIONS_TABLE (default tests/e2e/out/instructions-table.md); issue 3's
//       table to $E2E_ISSUE3_TABLE (default tests/e2e/out/issue3-table.md).
//
//   node --test tests/e2e/issues.test.mjs
//   E2E_KEEP=1 keeps every run's work dir (a failed test's is always kept and named).
//   E2E_ISSUES=a1,home-spaces,home-relative,session-id,instructions runs only those tests.
//   E2E_INSTRUCTION_VARIANTS=bom,crlf runs only those rows of the matrix; E2E_PARALLEL=n runs n
//   variants at a time (default 2: four CLIs).
//   A fixed-string search checks the history: rg and grep when rg is on PATH, else grep alone.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  runSession, listTree, listPaths, summaryRows, hookTimes, findTranscript, readJsonl, textOf, allMessagesText, lastMessageText, REPO_ROOT,
} from './harness.mjs';
import { makeFaultMod, EVENT_REWRITES, FAULT_LOG_PREFIX } from './fault-mods.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';
// The fault-layer rows copy the repo's mod; the expectations are the repo mod's.
const skipAll = MOD !== 'repo' ? `these tests are about the repo's mod (E2E_MOD=${MOD})` : false;
const only = process.env.E2E_ISSUES ? new Set(process.env.E2E_ISSUES.split(',')) : null;
const skipUnless = (id) => skipAll || (only && !only.has(id) ? `not in E2E_ISSUES` : false);

const WRITE_LIMIT = 4194304; // bytes of UTF-8 in one $.fs.write
const HOOK_LIMIT_MS = 10000; // the host's budget for one hook
const HANDOFF_HEAD = 'From the compact-plus mod:';
const VERBATIM_OPEN = '<user-messages-verbatim>';
const POINTER_HEAD = 'compact-plus saved the conversation from before this compaction';
const PART_HEADING = (k, n) => `# Conversation before compaction, part ${k} of ${n}\n`;

const workRoot = process.env.E2E_WORK_ROOT ?? os.tmpdir();
const modsRoot = fs.mkdtempSync(path.join(workRoot, 'cp-issue-mods-'));
after(() => fs.rmSync(modsRoot, { recursive: true, force: true }));
const OUT_DIR = path.join(REPO_ROOT, 'tests', 'e2e', 'out');
const issue3Rows = [];

/** Cleans the run's work dir when the test passed (unless E2E_KEEP); returns `passed()`. */
function track(t, run) {
  let passed = false;
  t.after(() => {
    if (passed && !process.env.E2E_KEEP) run.cleanup();
    else t.diagnostic(`kept ${run.workDir}`);
  });
  return () => { passed = true; };
}

function assertCompleted(run, what = run.label) {
  assert.ok(!run.timedOut, `${what}: timed out: ${run.timedOut}\nstderr: ${run.stderr.slice(-1500)}`);
  assert.ok(run.ok, `${what}: not every turn completed: exit ${JSON.stringify(run.exit)} ${JSON.stringify(run.turns.map((x) => x.result?.result?.slice?.(0, 80)))}\nstderr: ${run.stderr.slice(-1500)}`);
  if (run.modDir) assert.match(run.debugLog, /hooks module compact-plus@inline loaded \(worker/, `${what}: the mod did not load`);
}

function compactHookMs(run) {
  const times = hookTimes(run).filter((h) => h.hook === 'session.compact');
  assert.ok(times.length > 0, 'no session.compact dispatch of compact-plus settled');
  return Math.max(...times.map((h) => h.ms));
}

/** rg if on PATH (it is what the pointer tells a model to run), and grep, which is always there. */
const SEARCH_TOOLS = ['rg', 'grep'].filter((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0);

/**
 * How often each of `patterns` occurs (fixed strings, non-overlapping) in the files under `dir`,
 * by one run of `tool`: Map(pattern -> count). rg skips hidden files, where compact-plus keeps its
 * own state (`.verbatim.json`: the words the next compaction carries on); grep is told to.
 */
function countFixedStrings(tool, patterns, dir, scratch) {
  const file = path.join(scratch, `patterns-${tool}.txt`);
  fs.writeFileSync(file, `${patterns.join('\n')}\n`);
  const args = tool === 'rg'
    ? ['--no-config', '--fixed-strings', '--only-matching', '--no-filename', '--no-line-number', '--text', '-f', file, dir]
    : ['-r', '-h', '-o', '-F', '-a', '--exclude=.*', '-f', file, dir];
  const r = spawnSync(tool, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } });
  assert.ok(r.status === 0 || r.status === 1, `${tool} failed (${r.status}): ${r.stderr}`);
  const counts = new Map(patterns.map((p) => [p, 0]));
  for (const line of r.stdout.split('\n')) if (counts.has(line)) counts.set(line, counts.get(line) + 1);
  return counts;
}

// ---- [3] 4,096 messages, ~30 MB -------------------------------------------------------------

/**
 * The made-up conversation: `count` messages, user and assistant by turns, each text opening
 * with a unique marker. Its source text runs inside the plugin copy's shim (so it may use nothing
 * from outside) and here, to know what to look for. Every 8th message is non-ASCII text, every
 * 16th marker ends in non-ASCII; message GIANT is 4.5 M characters of non-ASCII text, ~6.7 MB (over a part on its own, so it goes on
 * under "(continued)") and ends with a marker of its own; 21 assistant messages carry a Bash
 * tool use whose 250,000-character result opens with a marker (results are cut at 12,000
 * characters in the history by design, keeping the head).
 */
function issue3Messages(seed, count) {
  const GIANT = 1001;
  let s = seed >>> 0;
  const rnd = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const tag = () => Array.from({ length: 8 }, () => alphabet[Math.floor(rnd() * 36)]).join('');
  const asciiLine = 'the quick brown fox jumps over the lazy dog while the history grows, line after line of plain words\n';
  const wideLine = 'Grüße aus Köln, naïve café — 日本語のテキスト, ελληνικά, русский текст и эмодзи 🙂🚀 noch eine Zeile\n';
  const lines = (line, chars) => line.repeat(Math.max(1, Math.round(chars / line.length)));
  const out = [];
  for (let i = 0; i < count; i++) {
    const role = i % 2 ? 'assistant' : 'user';
    const wide = i % 8 === 3 || i === GIANT;
    const marker = `MSG-MARKER-${i}-${tag()}${i % 16 === 5 ? '-ü日本🙂' : ''}`;
    const size = i === GIANT ? 4.5 * 1024 * 1024 : 2400 + Math.floor(rnd() * 4000);
    const m = { role, text: `${marker} ${lines(wide ? wideLine : asciiLine, size)}`, toolUses: [], handle: `issue3-${i}` };
    if (i === GIANT) m.text += `MSG-END-MARKER-${i}-${tag()}`;
    if (role === 'assistant' && i % 194 === 97) {
      m.toolUses.push({
        tool_use_id: `toolu_issue3_${i}`, tool: 'Bash', input: { command: `cat big-output-${i}.log` },
        text: `TOOL-RESULT-MARKER-${i}-${tag()} ${lines(asciiLine, 250000)}`,
      });
    }
    out.push(m);
  }
  return out;
}

const SEED = 3;
const MADE = 4094; // and the engine's own last two: 4,096
EVENT_REWRITES['issue3-4096-30mb'] = `(ev) => { const made = ${issue3Messages.toString()}; const own = (ev.messages ?? []).slice(-2); return { ...ev, messages: [...made(${SEED}, ${4096} - own.length), ...own] } }`;

/** The "## [n] role" headings of a part: sorted [{ at, n, continued }]. */
function headings(text) {
  return [...text.matchAll(/^## \[(\d+)\] (?:user|assistant)( \(continued\))?$/gm)].map((m) => ({ at: m.index, n: Number(m[1]), continued: !!m[2] }));
}
function headingBefore(hs, at) {
  let lo = 0;
  let hi = hs.length - 1;
  let found = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (hs[mid].at < at) { found = hs[mid]; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

test('[3] 4,096 messages and ~30 MB: every part under the write limit, every message found once', { skip: skipUnless('a1'), timeout: 240000 }, async (t) => {
  const own = { user: 'turn two: ENGINE-MARKER-USER-TWO', reply: 'ENGINE-MARKER-REPLY-TWO' };
  const mod = makeFaultMod(path.join(modsRoot, 'issue3-4096'), { fault: { event: { 'session.compact': 'issue3-4096-30mb' } } });
  const run = await runSession({
    mod, label: 'issue3-4096',
    turns: ['turn one: remember KIWI-1001', { prompt: own.user, fake: { reply: own.reply } }, '/compact', { prompt: 'turn four', fake: { reply: 'Hello from the fake API.' } }],
    turnTimeoutMs: 60000, sessionTimeoutMs: 150000,
  });
  const passed = track(t, run);
  assertCompleted(run);
  const rewritten = run.debugLog.split('\n').find((l) => l.includes(`${FAULT_LOG_PREFIX} event session.compact rewritten (issue3-4096-30mb,`));
  assert.ok(rewritten, 'the event was not rewritten');
  assert.equal(run.compactionRequests.length, 1);

  // What the core was handed.
  const made = issue3Messages(SEED, MADE);
  const bytes = (s) => Buffer.byteLength(s, 'utf8');
  const textBytes = made.reduce((n, m) => n + bytes(m.text) + m.toolUses.reduce((k, u) => k + bytes(u.text), 0), 0);
  t.diagnostic(`event: 4,096 messages (${MADE} made up + the engine's last 2), ${(textBytes / 1e6).toFixed(1)} MB of text (${(textBytes / 1048576).toFixed(1)} MiB); ${rewritten.replace(/^.*rewritten /, '')}`);

  // The parts.
  const sid = run.sessionId;
  const dir = path.join(run.historyRoot, sid);
  const names = fs.readdirSync(dir).sort();
  // The history parts; the summary row's text is saved beside them (`.summary.md`).
  const md = names.filter((n) => n.endsWith('.md') && !n.endsWith('.summary.md'));
  assert.equal(names.filter((n) => n.endsWith('.summary.md')).length, 1, `the saved summary among ${names}`);
  const first = md.find((n) => /^\d{4}-\d{2}-\d{2}T\d{6}Z-manual\.md$/.test(n));
  assert.ok(first, `no first part among ${names}`);
  const stem = first.slice(0, -'.md'.length);
  const n = md.length;
  assert.ok(n >= 7, `only ${n} part(s) for ${(textBytes / 1e6).toFixed(1)} MB`);
  const expected = Array.from({ length: n }, (_, k) => (k === 0 ? first : `${stem}.part${k + 1}.md`));
  assert.deepEqual(md.slice().sort(), expected.slice().sort(), 'the parts are not <stamp>-manual.md, .part2.md, ... .partN.md');
  assert.deepEqual(names.filter((x) => !x.endsWith('.md')).sort(), ['.verbatim.json', 'log.jsonl', 'pending-blocks.json']);
  const parts = expected.map((name, k) => {
    const p = path.join(dir, name);
    const size = fs.statSync(p).size;
    const text = fs.readFileSync(p, 'utf8');
    assert.ok(size <= WRITE_LIMIT, `${name}: ${size} bytes, over ${WRITE_LIMIT}`);
    assert.equal(bytes(text), size, `${name} is not valid UTF-8`);
    assert.ok(text.startsWith(PART_HEADING(k + 1, n)), `${name} does not open with ${JSON.stringify(PART_HEADING(k + 1, n))}: ${JSON.stringify(text.slice(0, 60))}`);
    return { name, size, text, hs: headings(text) };
  });
  const total = parts.reduce((k, p) => k + p.size, 0);
  t.diagnostic(`parts: ${parts.map((p) => `${p.name.replace(stem, '…')} ${p.size}`).join(', ')} (largest ${Math.max(...parts.map((p) => p.size))} of ${WRITE_LIMIT} bytes; ${(total / 1e6).toFixed(1)} MB in all)`);

  // Every message once, by a fixed-string search over the folder.
  const markers = made.map((m) => m.text.slice(0, m.text.indexOf(' ')));
  const endMarkers = made.map((m, i) => [i, /MSG-END-MARKER-\S+$/.exec(m.text)?.[0]]).filter(([, x]) => x);
  const toolMarkers = made.flatMap((m, i) => m.toolUses.map((u) => [i, u.text.slice(0, u.text.indexOf(' '))]));
  const all = [...markers, ...endMarkers.map(([, x]) => x), ...toolMarkers.map(([, x]) => x), own.user, own.reply];
  assert.equal(new Set(all).size, all.length, 'markers are not unique');
  assert.equal(SEARCH_TOOLS.includes('grep'), true, 'no grep on PATH');
  for (const tool of SEARCH_TOOLS) {
    const t0 = performance.now();
    const counts = countFixedStrings(tool, all, dir, run.workDir);
    const wrong = [...counts].filter(([, c]) => c !== 1);
    assert.deepEqual(wrong.slice(0, 10), [], `${tool}: ${wrong.length} marker(s) not found exactly once (marker, count)`);
    t.diagnostic(`${tool} -F: each of ${all.length} markers (${markers.length} message openings, ${endMarkers.length} message end, ${toolMarkers.length} tool results, the engine's 2 messages) found exactly once across the folder (${Math.round(performance.now() - t0)} ms)`);
  }
  if (!SEARCH_TOOLS.includes('rg')) t.diagnostic('rg is not on PATH here: the search ran with grep -rhoF only (same fixed-string semantics)');

  // ... under its own heading, its text whole (the giant one across parts, under "(continued)").
  const t1 = performance.now();
  const where = (needle) => {
    for (const p of parts) {
      const at = p.text.indexOf(needle);
      if (at >= 0) return { p, at, h: headingBefore(p.hs, at) };
    }
    return null;
  };
  const segmentEnd = (p, from) => {
    const next = p.text.indexOf('\n## [', from);
    return next < 0 ? p.text.length : next;
  };
  // The openings come in message order: each search starts where the last one hit.
  let cursor = { k: 0, at: 0 };
  const whereNext = (needle) => {
    for (let k = cursor.k; k < parts.length; k++) {
      const p = parts[k];
      const at = p.text.indexOf(needle, k === cursor.k ? cursor.at : 0);
      if (at >= 0) {
        cursor = { k, at };
        return { p, at, h: headingBefore(p.hs, at) };
      }
    }
    return null;
  };
  let whole = 0;
  made.forEach((m, i) => {
    const hit = whereNext(markers[i]);
    assert.ok(hit, `message ${i} not found`);
    // Numbered from 1 as the file shows them (issue [13] item 13: no gaps).
    assert.equal(hit.h?.n, i + 1, `message ${i} sits under heading ${hit.h?.n}`);
    assert.equal(hit.h.continued, false);
    const body = m.text.trim();
    if (hit.p.text.startsWith(body, hit.at)) { whole += 1; return; }
    // Over a part on its own: it goes on in the next parts under "## [i] role (continued)".
    let joined = hit.p.text.slice(hit.at, segmentEnd(hit.p, hit.at)).replace(/\n+$/, '');
    for (const p of parts.slice(parts.indexOf(hit.p) + 1)) {
      const c = p.hs.find((h) => h.n === i + 1 && h.continued);
      if (!c) break;
      const from = p.text.indexOf('\n\n', c.at) + 2;
      joined += `\n${p.text.slice(from, segmentEnd(p, from)).replace(/\n+$/, '')}`;
    }
    assert.equal(joined.length, body.length, `message ${i}: ${joined.length} of ${body.length} characters on disk`);
    assert.ok(joined === body, `message ${i}: its text on disk differs from the event's`);
    whole += 1;
  });
  for (const [i, marker] of [...endMarkers, ...toolMarkers]) assert.equal(where(marker)?.h?.n, i + 1, `${marker} is not under message ${i + 1}`);
  const giant = parts.filter((p) => p.hs.some((h) => h.continued)).length;
  const ownAt = [where(own.user)?.h?.n, where(own.reply)?.h?.n];
  assert.deepEqual(ownAt, [4095, 4096], 'the engine\'s own messages are not the last two');
  t.diagnostic(`every message under its own "## [n] role" heading with its whole text (${whole} of ${made.length}; message 1001, ~6.7 MB, across ${giant + 1} parts under "(continued)"), each tool result's head under its message; the engine's two as [4095] and [4096] (${Math.round(performance.now() - t1)} ms)`);

  // The log line and the pointer in the summary row.
  const firstPath = path.join(dir, first).split(path.sep).join('/');
  const log = run.historyLog;
  assert.equal(log.length, 1);
  assert.equal(log[0].event, 'compact');
  assert.equal(log[0].messages, 4096);
  assert.equal(log[0].file, firstPath);
  const [row] = summaryRows(run);
  const rowText = textOf(row?.message?.content);
  assert.ok(rowText.includes(POINTER_HEAD), 'no pointer in the summary row');
  const pointer = rowText.slice(rowText.indexOf(POINTER_HEAD)).split('\n')[0];
  assert.ok(pointer.includes(`"${firstPath}"`), `the pointer does not name the first part: ${pointer}`);
  assert.match(pointer, new RegExp(`in ${n} parts`), `the pointer does not say ${n} parts: ${pointer}`);
  assert.ok(pointer.includes('.part2.md') && pointer.includes(`.part${n}.md`), `the pointer does not name .part2.md to .part${n}.md: ${pointer}`);
  t.diagnostic(`pointer: "…/${first}". ${pointer.slice(pointer.indexOf('". It is') + 3)}`);

  const ms = compactHookMs(run);
  assert.ok(ms < HOOK_LIMIT_MS, `session.compact took ${ms} ms`);
  t.diagnostic(`compact-plus session.compact settled in ${ms} ms (next() included); /compact turn ${run.turns[2].ms} ms; session ${run.totalMs} ms`);
  issue3Rows.push(['4,096 messages, ' + `${(textBytes / 1e6).toFixed(1)} MB of text`, `${n} parts in <home>/.claude/compact-history/<session>/, largest ${Math.max(...parts.map((p) => p.size))} B (limit ${WRITE_LIMIT}), each with its part heading; log.jsonl names part 1`,
    `every message found once by ${SEARCH_TOOLS.join(' and ')} -F (${all.length} markers), whole, under its heading; pointer: part 1, "${n} parts"; hook ${(ms / 1000).toFixed(1)} s`]);
  passed();
});

// ---- [3] where the files go -----------------------------------------------------------------

const T1 = 'turn one: remember KIWI-1001';
const T2 = 'turn two: remember LIME-2002';
const BASIC = [T1, T2, '/compact keep the fruit', 'turn four: what fruits?'];

/** compact-plus's files under `root`: history parts (by their heading) and log.jsonl. */
function compactPlusFiles(root) {
  return listTree(root).filter((f) => f.text.startsWith('# Conversation before compaction') || (path.basename(f.path) === 'log.jsonl' && f.text.includes('"event":"compact"')));
}

/** The summary row's text; the transcript is looked up under the HOME the CLI was given (relative: to its cwd). */
function summaryText(run) {
  const home = path.resolve(run.projectDir, run.env.HOME ?? run.home);
  const transcript = findTranscript(run.env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude'), run.sessionId);
  assert.ok(transcript, `no transcript under ${home}`);
  const rows = summaryRows(run, readJsonl(transcript));
  assert.equal(rows.length, 1, 'summary rows');
  return textOf(rows[0].message.content);
}

test('[3] HOME with spaces and non-ASCII: the history is written under it', { skip: skipUnless('home-spaces'), timeout: 120000 }, async (t) => {
  const workDir = fs.mkdtempSync(path.join(workRoot, 'cp-issue-home-spaces-'));
  const home = path.join(workDir, 'home dir ü 日本');
  fs.mkdirSync(home);
  const historyRoot = path.join(home, '.claude', 'compact-history');
  const run = await runSession({ mod: MOD, workDir, label: 'home-spaces', env: { HOME: home }, historyRoot, turns: BASIC, turnTimeoutMs: 30000, sessionTimeoutMs: 90000 });
  const passed = track(t, run);
  assertCompleted(run);
  const dir = path.join(historyRoot, run.sessionId);
  const ours = compactPlusFiles(workDir);
  assert.deepEqual(ours.map((f) => path.dirname(f.path)), [dir, dir], `compact-plus's files: ${ours.map((f) => f.path)}`);
  const hist = ours.find((f) => f.path.endsWith('.md'));
  assert.ok(hist.text.includes(T1) && hist.text.includes(T2));
  const historyPaths = listPaths(workDir).filter((p) => p.rel.split(path.sep).includes('compact-history'));
  assert.ok(historyPaths.length > 0);
  assert.deepEqual(historyPaths.filter((p) => p.path !== historyRoot && !p.path.startsWith(historyRoot + path.sep)).map((p) => p.rel), [],
    'a compact-history path outside <HOME>/.claude/compact-history');
  const text = summaryText(run);
  const histPath = hist.path.split(path.sep).join('/');
  assert.ok(text.includes(`"${histPath}"`), 'the pointer does not name the file under the HOME with spaces');
  assert.ok(text.includes(`rg -n "<term>" "${dir}"`), 'the pointer\'s search line does not quote the folder');
  assert.equal(run.historyLog[0]?.file, histPath);
  for (const tool of SEARCH_TOOLS) {
    const counts = countFixedStrings(tool, ['KIWI-1001', 'LIME-2002'], dir, workDir);
    assert.deepEqual([...counts.values()], [1, 1], `${tool} in the folder with spaces`);
  }
  t.diagnostic(`history at ${JSON.stringify(hist.rel)}; the pointer quotes it and the folder; ${SEARCH_TOOLS.join(', ')} find the prompts there; nothing under <work>/home`);
  issue3Rows.push([`HOME with spaces and non-ASCII (${JSON.stringify(path.basename(home))})`, `${JSON.stringify(path.relative(workDir, hist.path).split(path.sep).join('/').replace(run.sessionId, '<session>'))} and log.jsonl beside it, nothing elsewhere`, 'pointer quotes the path; search finds the prompts']);
  passed();
});

test('[3] HOME relative: the CLI keeps its files under <project>/relative/home, compact-plus writes nothing', { skip: skipUnless('home-relative'), timeout: 120000 }, async (t) => {
  const run = await runSession({ mod: MOD, label: 'home-relative', env: { HOME: 'relative/home' }, turns: BASIC, turnTimeoutMs: 30000, sessionTimeoutMs: 90000 });
  const passed = track(t, run);
  assertCompleted(run);
  assert.equal(run.compactBoundaries.length, 1, 'no compaction');
  // The CLI resolves ~ against its cwd, the project dir: its own files go there, the mod's none.
  const inProject = listPaths(run.projectDir).filter((p) => p.kind === 'file').map((p) => p.rel.split(path.sep).join('/'));
  assert.ok(inProject.length > 0 && inProject.every((p) => p.startsWith('relative/home/')), `files in the project dir: ${inProject}`);
  assert.deepEqual(listPaths(run.workDir).filter((p) => p.rel.split(path.sep).includes('compact-history')).map((p) => p.rel), [], 'a compact-history path');
  assert.deepEqual(compactPlusFiles(run.workDir).map((f) => f.rel), []);
  assert.ok(!fs.existsSync(path.join(REPO_ROOT, 'relative')) && !fs.existsSync(path.join(os.homedir(), '.claude', 'compact-history', run.sessionId)), 'history written relative to the test\'s cwd or the real home');
  // Without a history, compact-plus still did its other parts.
  assert.ok(lastMessageText(run.compactionRequests[0]).includes(`keep the fruit\n\n${HANDOFF_HEAD}`), 'no handoff instructions');
  const text = summaryText(run);
  assert.ok(text.includes(VERBATIM_OPEN) && text.includes(T1) && text.includes(T2), 'no verbatim block');
  assert.ok(!text.includes(POINTER_HEAD), 'a pointer without a history');
  const cliOwn = inProject.map((p) => p.replace(run.sessionId, '<session>').replace(/\d{10,}/g, '<n>').replace(/-tmp-\S+?-proj/, '<slug>'));
  t.diagnostic(`the CLI's own files in the project dir: ${cliOwn.join(', ')}`);
  t.diagnostic('compact-plus: no compact-history anywhere, no pointer; verbatim block and handoff instructions as usual');
  issue3Rows.push(['HOME relative (`relative/home`)', `nothing by compact-plus; the CLI itself writes ${cliOwn.length} files under <project>/relative/home/`, 'verbatim block and handoff kept, no pointer']);
  passed();
});

test('[3] a session id that is not one path segment (../../escape, a/b): only <home>/.claude/compact-history/<one segment>/', { skip: skipUnless('session-id'), timeout: 120000 }, async (t) => {
  const ids = ['../../escape', 'a/b'];
  const runs = await Promise.all(ids.map((id, k) => runSession({
    mod: makeFaultMod(path.join(modsRoot, `session-id-${k}`), { fault: { answer: { sessionId: id } } }),
    label: `session-id-${k}`, turns: BASIC, turnTimeoutMs: 30000, sessionTimeoutMs: 90000,
  })));
  const done = runs.map((run) => track(t, run));
  for (const [k, run] of runs.entries()) {
    const id = ids[k];
    assertCompleted(run, id);
    assert.ok(run.debugLog.includes(`${FAULT_LOG_PREFIX} sessionId answered ${JSON.stringify(id)}`), `${id}: the fault layer did not answer the id`);
    const root = run.historyRoot;
    const top = fs.readdirSync(root);
    assert.equal(top.length, 1, `${id}: entries in compact-history: ${top}`);
    const [segment] = top;
    assert.ok(segment !== '.' && segment !== '..' && !segment.includes('/') && !segment.includes('\\'), `${id}: segment ${segment}`);
    const folder = path.join(root, segment);
    assert.ok(fs.lstatSync(folder).isDirectory());
    // Everything of compact-plus's, anywhere in the work dir (HOME, project, logs), is in that folder.
    const ours = compactPlusFiles(run.workDir);
    assert.equal(ours.length, 2, `${id}: compact-plus's files: ${ours.map((f) => f.rel)}`);
    for (const f of ours) assert.equal(path.dirname(f.path), folder, `${id}: ${f.path} outside ${folder}`);
    const underRoot = listPaths(root).map((p) => p.rel);
    assert.deepEqual(underRoot.filter((p) => !p.startsWith(segment + path.sep) && p !== segment), [], `${id}: more under compact-history`);
    assert.ok(underRoot.every((p) => p.split(path.sep).length <= 2), `${id}: nested: ${underRoot}`);
    // Where the raw id would lead.
    for (const escaped of [path.resolve(root, id), path.join(run.home, 'escape'), path.join(run.workDir, 'escape'), path.join(root, 'a')]) {
      assert.ok(!fs.existsSync(escaped), `${id}: ${escaped} exists`);
    }
    assert.deepEqual(listPaths(run.workDir).filter((p) => /escape/.test(p.rel) && !p.path.startsWith(folder)).map((p) => p.rel), [], `${id}: an "escape" path outside the folder`);
    assert.deepEqual(listPaths(run.projectDir).map((p) => p.rel), [], `${id}: the project dir is not empty`);
    const md = ours.find((f) => f.path.endsWith('.md'));
    assert.ok(md.text.includes(T1) && md.text.includes(`Session ${id},`), `${id}: history text`);
    const slashed = folder.split(path.sep).join('/');
    assert.ok(summaryText(run).includes(`"${slashed}/`), `${id}: the pointer does not name ${slashed}`);
    t.diagnostic(`${JSON.stringify(id)} → ${JSON.stringify(segment)}: history and log.jsonl in <home>/.claude/compact-history/${segment}/ only; nothing at ${path.relative(run.workDir, path.resolve(root, id))} or elsewhere in HOME or the project dir`);
    issue3Rows.push([`session id ${JSON.stringify(id)} (fault layer: $.session.id())`, `<home>/.claude/compact-history/${segment}/ (history + log.jsonl), nothing elsewhere`, 'pointer names that folder']);
  }
  done.forEach((p) => p());
});

test('[3] the table', { skip: !!(skipAll || (only && !['a1', 'home-spaces', 'home-relative', 'session-id'].some((x) => only.has(x)))) }, (t) => {
  const esc = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = ['| Case | Written | Checked |', '| --- | --- | --- |', ...issue3Rows.map((r) => `| ${r.map(esc).join(' | ')} |`)];
  for (const l of lines) t.diagnostic(l);
  const out = process.env.E2E_ISSUE3_TABLE ?? path.join(OUT_DIR, 'issue3-table.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${lines.join('\n')}\n`);
  t.diagnostic(`written to ${out}`);
  assert.ok(issue3Rows.length > 0);
});

// ---- [4] part 4: the instruction refresh, file variant by file variant ----------------------

const M1 = 'MD-MARKER-V1';
const M2 = 'MD-MARKER-V2';
const body = (m) => `Always answer briefly. ${m}.\n`;
/** Each variant: the project files for a marker (V1, then V2 for the edit); `gone`: the edit deletes CLAUDE.md. */
const VARIANTS = [
  { id: 'plain', variant: 'plain (control)', files: (m) => ({ 'CLAUDE.md': `# Project\n\n${body(m)}` }) },
  { id: 'frontmatter-closed', variant: 'frontmatter, closed', files: (m) => ({ 'CLAUDE.md': `---\ntitle: probe project\ntags: [e2e, compact-plus]\n---\n# Project\n\n${body(m)}` }) },
  { id: 'frontmatter-unclosed', variant: 'frontmatter, unclosed', files: (m) => ({ 'CLAUDE.md': `---\ntitle: probe project\n# Project\n\n${body(m)}` }) },
  { id: 'inline-comment', variant: 'inline comment', files: (m) => ({ 'CLAUDE.md': `# Project\n\nAlways answer <!-- an inline note --> briefly. ${m}.\n` }) },
  { id: 'line-comment', variant: 'whole-line comment', files: (m) => ({ 'CLAUDE.md': `# Project\n\n<!-- a comment on a line of its own -->\n${body(m)}` }) },
  { id: 'multiline-comment', variant: 'multi-line comment', files: (m) => ({ 'CLAUDE.md': `# Project\n\n<!--\na comment\nover three lines\n-->\n\n${body(m)}` }) },
  { id: 'comment-in-paragraph', variant: 'whole-line comment inside a paragraph', files: (m) => ({ 'CLAUDE.md': `# Project\n\nThe first line of a paragraph.\n<!-- a comment between two lines of it -->\n${body(m)}` }) },
  { id: 'comment-in-code', variant: 'comment in a code block', files: (m) => ({ 'CLAUDE.md': `# Project\n\n\`\`\`html\n<!-- kept: inside a code block -->\n\`\`\`\n\n${body(m)}` }) },
  { id: 'link-ref-comment', variant: 'link reference definition and a comment', files: (m) => ({ 'CLAUDE.md': `# Project\n\n<!-- a comment -->\n[docs]: https://example.com/docs\n\nSee [docs]. ${body(m)}` }) },
  { id: 'crlf', variant: 'CRLF', files: (m) => ({ 'CLAUDE.md': `# Project\r\n\r\nAlways answer briefly. ${m}.\r\nA second line.\r\n` }) },
  { id: 'crlf-comment', variant: 'CRLF and a comment', files: (m) => ({ 'CLAUDE.md': `# Project\r\n\r\n<!-- a comment -->\r\nAlways answer briefly. ${m}.\r\nA second line.\r\n` }) },
  { id: 'bom', variant: 'BOM', files: (m) => ({ 'CLAUDE.md': `\uFEFF# Project\n\n${body(m)}` }) },
  { id: 'bom-frontmatter', variant: 'BOM and frontmatter', files: (m) => ({ 'CLAUDE.md': `\uFEFF---\ntitle: probe project\n---\n# Project\n\n${body(m)}` }) },
  { id: 'kitchen-sink', variant: 'BOM, frontmatter, CRLF, a comment inside a paragraph, trailing spaces', files: (m) => ({ 'CLAUDE.md': `\uFEFF---\ntitle: probe project\n---\n# Project\r\n\r\nThe first line of a paragraph.\r\n<!-- a comment -->\r\nAlways answer briefly. ${m}.  \r\n` }) },
  {
    id: 'kitchen-sink-import', variant: 'the same with an inline @import',
    files: (m) => ({ 'CLAUDE.md': `\uFEFF---\ntitle: probe project\n---\n# Project\r\n\r\nSee @docs/extra.md for more.\r\n<!-- a comment -->\r\nAlways answer briefly. ${m}.  \r\n`, 'docs/extra.md': `Extra instructions. EXTRA-${m}.\n` }),
  },
  { id: 'trailing-spaces', variant: 'trailing spaces', files: (m) => ({ 'CLAUDE.md': `# Project  \n\nAlways answer briefly. ${m}.   \nA line ending in a tab\t\n` }) },
  {
    id: 'imports', variant: '@imports',
    files: (m) => ({
      'CLAUDE.md': `# Project\n\n@docs/extra.md\n\nSee also @docs/more.md for more.\n${body(m)}`,
      'docs/extra.md': `Extra instructions. EXTRA-${m}.\n`,
      'docs/more.md': `More instructions. MORE-${m}.\n`,
    }),
  },
  {
    id: 'imports-comment', variant: 'an inline @import and a comment',
    files: (m) => ({ 'CLAUDE.md': `# Project\n\nSee @docs/extra.md for more.\n<!-- a comment -->\n${body(m)}`, 'docs/extra.md': `Extra instructions. EXTRA-${m}.\n` }),
  },
  { id: 'vanished', variant: 'vanished (deleted before the compaction)', files: (m) => ({ 'CLAUDE.md': `# Project\n\n${body(m)}` }), gone: true },
];
const variantFilter = process.env.E2E_INSTRUCTION_VARIANTS ? new Set(process.env.E2E_INSTRUCTION_VARIANTS.split(',')) : null;

const CLAUDE_MD_PREAMBLE = 'Codebase and user instructions are shown below.';
/**
 * The claudeMd block a request carries (the first user message's context blocks; after a second
 * compaction they ride on a later user message), with the project dir as <proj>, its sections by
 * file, and how many blocks the request holds.
 */
function claudeMdOf(req, projectDir) {
  const all = allMessagesText(req);
  const count = all.split(CLAUDE_MD_PREAMBLE).length - 1;
  const start = all.lastIndexOf(CLAUDE_MD_PREAMBLE);
  if (start < 0) return { block: null, sections: new Map(), count };
  const end = all.indexOf('\n</system-reminder>', start);
  const block = all.slice(start, end < 0 ? undefined : end);
  const sections = new Map();
  const re = /(?:^|\n\n)Contents of (.+?) \([^\n]*\):\n\n/g;
  const heads = [...block.matchAll(re)];
  heads.forEach((h, k) => {
    const from = h.index + h[0].length;
    const to = k + 1 < heads.length ? heads[k + 1].index : block.length;
    sections.set(path.relative(projectDir, h[1]).split(path.sep).join('/'), block.slice(from, to));
  });
  return { block: block.split(projectDir).join('<proj>'), sections, count };
}

/** 'yes', or where two texts part (JSON, a few characters either side). */
function sameOrWhere(disk, engine) {
  if (engine === disk) return 'yes';
  if (engine === undefined) return 'no: not in the claudeMd block';
  let i = 0;
  while (i < disk.length && disk[i] === engine[i]) i += 1;
  const at = Math.max(0, i - 6);
  return `no: at ${i}, disk ${JSON.stringify(disk.slice(at, i + 14))} vs engine ${JSON.stringify(engine.slice(at, i + 14))}`;
}

const jsTrim = (s) => s.trim(); // the claudeMd block trims each file's content (a BOM goes too)

/** One variant: the mod's session and a no-mod one, the same turns; the two table rows. */
async function runVariant(v) {
  const v1 = v.files(M1);
  const v2 = v.files(M2);
  const refreshesAtEdit = {};
  const turns = (key) => [
    'turn one',
    '/compact',
    'turn three',
    {
      prompt: 'turn four',
      before: (ctx) => {
        refreshesAtEdit[key] = ctx.readHistoryLog().filter((e) => e.event === 'instructions-refreshed').length;
        if (v.gone) fs.rmSync(path.join(ctx.projectDir, 'CLAUDE.md'));
        else for (const [rel, text] of Object.entries(v2)) ctx.writeProjectFile(rel, text);
      },
    },
    '/compact',
    'turn six',
  ];
  const [run, base] = await Promise.all([
    runSession({ mod: MOD, label: `instr-${v.id}`, files: v1, turns: turns('mod'), turnTimeoutMs: 30000, sessionTimeoutMs: 90000 }),
    runSession({ mod: 'none', label: `instr-${v.id}-nomod`, files: v1, turns: turns('base'), turnTimeoutMs: 30000, sessionTimeoutMs: 90000 }),
  ]);
  return { v, v1, v2, run, base, refreshesBeforeEdit: refreshesAtEdit.mod ?? null };
}

/** The table rows of one variant's runs, and the failures (expectations not met). */
function judgeVariant({ v, v1, v2, run, base, refreshesBeforeEdit }) {
  const failures = [];
  const expect = (ok, what) => { if (!ok) failures.push(what); return ok; };
  for (const [r, what] of [[run, 'mod run'], [base, 'no-mod run']]) {
    if (!r.ok) return { rows: [[v.variant, 'both', 'FAILED', 'FAILED', `${what} did not complete: ${r.timedOut ?? JSON.stringify(r.exit)}`, '']], failures: [`${v.id}: ${what} did not complete`] };
  }
  if (run.modDir) expect(/hooks module compact-plus@inline loaded/.test(run.debugLog), `${v.id}: the mod did not load`);
  const reqs = run.normalRequests.map((q) => claudeMdOf(q, run.projectDir));
  const baseReqs = base.normalRequests.map((q) => claudeMdOf(q, base.projectDir));
  if (!expect(reqs.length === 4 && baseReqs.length === 4, `${v.id}: ${reqs.length}/${baseReqs.length} requests, expected 4`)) {
    return { rows: [[v.variant, 'both', '?', '?', `requests ${reqs.length}/${baseReqs.length}`, '']], failures };
  }
  const counts = [...reqs, ...baseReqs].map((r) => r.count);
  expect(counts.every((c) => c <= 1), `${v.id}: claudeMd blocks per request ${counts}`);
  const refreshes = run.historyLog.filter((e) => e.event === 'instructions-refreshed');
  const before = refreshesBeforeEdit ?? 0;
  const after = refreshes.length - before;
  const files = Object.keys(v1);
  const engineEqual = (texts, sections) => files.map((rel) => {
    if (texts[rel] === undefined) return `${rel}: gone; engine: ${sections.has(rel) ? 'still there' : 'left out'}`;
    const verdict = sameOrWhere(jsTrim(texts[rel]), sections.get(rel));
    return files.length > 1 ? `${rel}: ${verdict}` : verdict;
  }).join('; ');
  const sameAsBase = (idx) => {
    const diff = idx.filter((i) => reqs[i].block !== baseReqs[i].block);
    return diff.length === 0 ? 'yes' : `no (request ${diff.map((i) => i + 1).join(', ')}: ${sameOrWhere(baseReqs[diff[0]].block ?? '', reqs[diff[0]].block ?? '').replace(/^no: /, '').replace('disk', 'no-mod').replace('engine', 'mod')})`;
  };
  const shows = (req, m) => {
    const text = req.block ?? '';
    if (v.gone && m === M2) return req.sections.has('CLAUDE.md') ? 'CLAUDE.md still there' : 'no CLAUDE.md';
    return text.includes(m) && !text.includes(m === M2 ? M1 : M2) ? `${m} text` : text.includes(M1) && text.includes(M2) ? 'both texts' : `not ${m}`;
  };

  // Unchanged: requests 1 (turn one) and 2 (turn three, after the first /compact).
  const unchanged = {
    engine: engineEqual(v1, baseReqs[0].sections),
    refreshed: before > 0 ? `yes (${before})` : 'no',
    same: sameAsBase([0, 1]),
    after: shows(reqs[1], M1),
  };
  expect(before === 0, `${v.id} unchanged: ${before} instructions-refreshed event(s) for a file the engine's copy matched`);
  expect(unchanged.same === 'yes', `${v.id} unchanged: claudeMd differs from the no-mod run: ${unchanged.same}`);
  expect(unchanged.after === `${M1} text`, `${v.id} unchanged: after /compact: ${unchanged.after}`);
  // Edited: requests 3 (turn four, edited before it, not yet compacted) and 4 (after the second /compact).
  const v2Texts = v.gone ? {} : v2;
  const edited = {
    engine: engineEqual(v2Texts, baseReqs[3].sections),
    refreshed: after > 0 ? `yes (${after})` : 'no',
    same: sameAsBase([2, 3]),
    after: shows(reqs[3], M2),
  };
  const wantAfter = v.gone ? 'no CLAUDE.md' : `${M2} text`;
  expect(shows(baseReqs[3], M2) === wantAfter, `${v.id} edited: the engine itself did not re-read at /compact (no-mod run: ${shows(baseReqs[3], M2)})`);
  expect(edited.after === wantAfter, `${v.id} edited: after /compact: ${edited.after}, expected ${wantAfter}`);
  expect(edited.same === 'yes', `${v.id} edited: claudeMd differs from the no-mod run: ${edited.same}`);
  // In -p the engine re-reads the files at every compaction, so its copy always matches the disk.
  expect(after === 0, `${v.id} edited: ${after} instructions-refreshed event(s) though the engine had re-read the file`);
  const hooks = hookTimes(run).filter((h) => h.hook === 'prompt.context').map((h) => Math.round(h.ms));
  return {
    rows: [
      [v.variant, 'unchanged', unchanged.engine, unchanged.refreshed, unchanged.same, unchanged.after],
      [v.variant, v.gone ? 'edited (deleted)' : 'edited', edited.engine, edited.refreshed, edited.same, edited.after],
    ],
    failures,
    note: `${v.id}: ${run.totalMs}/${base.totalMs} ms (mod/no-mod); prompt.context settled ${hooks.join(', ')} ms`,
  };
}

test('[4] instruction refresh as the engine reads the files: the table', { skip: skipUnless('instructions'), timeout: 600000 }, async (t) => {
  const variants = VARIANTS.filter((v) => !variantFilter || variantFilter.has(v.id));
  const parallel = Math.max(1, Number(process.env.E2E_PARALLEL ?? 2));
  const t0 = performance.now();
  const results = new Array(variants.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(parallel, variants.length) }, async () => {
    while (next < variants.length) {
      const k = next++;
      results[k] = await runVariant(variants[k]);
    }
  }));
  const wall = Math.round(performance.now() - t0);
  const judged = results.map(judgeVariant);
  const esc = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '| File variant | Run | Engine content equal to disk? | Refreshed? | claudeMd = no-mod run? | Request after /compact shows |',
    '| --- | --- | --- | --- | --- | --- |',
    ...judged.flatMap((j) => j.rows.map((r) => `| ${r.map(esc).join(' | ')} |`)),
  ];
  const legend = [
    '',
    'Engine content: the file\'s section of the claudeMd block in the no-mod run (the engine\'s `instructionFiles[].content`, trimmed as the block shows it) against the file on disk, trimmed (JavaScript `trim()` takes a leading BOM too, so a BOM alone cannot show here). Unchanged: turn one\'s request; edited: the request after the second /compact.',
    'Refreshed: `instructions-refreshed` lines compact-plus wrote to log.jsonl in that phase (unchanged: turn one, /compact, turn three; edited: edit, turn four, /compact, turn six).',
    'claudeMd = no-mod run: the whole claudeMd block of each request of the phase, the mod\'s run against the no-mod run (project dir masked).',
    `Claude Code CLI in -p (stream-json), mod ${MOD}; ${variants.length} variants, ${variants.length * 2} sessions, ${parallel} variants at a time, ${(wall / 1000).toFixed(1)} s.`,
  ];
  for (const l of [...lines, ...legend]) t.diagnostic(l);
  for (const j of judged) if (j.note) t.diagnostic(j.note);
  const out = process.env.E2E_INSTRUCTIONS_TABLE ?? path.join(OUT_DIR, 'instructions-table.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${[...lines, ...legend].join('\n')}\n`);
  t.diagnostic(`written to ${out}`);
  const failures = judged.flatMap((j) => j.failures);
  const keep = !!process.env.E2E_KEEP || failures.length > 0;
  for (const r of results) {
    if (keep) t.diagnostic(`kept ${r.run.workDir} and ${r.base.workDir}`);
    else { r.run.cleanup(); r.base.cleanup(); }
  }
  assert.deepEqual(failures, []);
});
