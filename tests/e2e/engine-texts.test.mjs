// The engine's own wording (src/engine/), held to the REAL Claude Code CLI: every text compact-plus
// recognises or depends on still appears as the pinned version writes it. The texts come from
// tests/fixtures/engine-texts.json, which a native test keeps equal to src/engine/ (`cargo test
// -p compact-plus --lib engine`); each names where it is looked for:
//
//   summary-row     the row `next` resolves to after a headless `/compact`
//   command-rows    a user row of the second `/compact`'s conversation (the first's command rows)
//   clear-compact   `next`'s rejection of `/compact` right after `/clear`
//   summarizer-500  `next`'s rejection when the summarizer answers 500 after the engine's retries
//   summarizer-ptl  `next`'s rejection when it answers "prompt is too long" to every cut
//   request         the model request after a `prompt.context` block of a name the engine does not route
//   queued-compact  the compaction a `$.command.run` of the text starts: trigger manual, its args as
//                   the instructions, exactly
//   bundle          the CLI's own code (a tag the engine builds from its quoted name), where a run
//                   here cannot reach the text (agent teams, media, an abort, the terminal's hints)
//   reference       the reference's, which this version no longer writes: reported, not required
//
// The sessions run a probe mod written here (no compact-plus), headless, against the fake API
// (tests/e2e/fake-api.mjs, its failures measured against 2.1.328 in e2e-kit failures/README.md).
//
//   node --test tests/e2e/engine-texts.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSession, claudeBin, REPO_ROOT } from './harness.mjs';

const { version, texts } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'tests/fixtures/engine-texts.json'), 'utf8'));
const seen = (where) => texts.filter((t) => t.seen === where);
const PROBE = 'ENGINE-TEXTS ';
const QUEUED_ARGS = 'ENGINE-TEXTS-QUEUED';
const BLOCK = 'engine-texts-probe';

// A mod that only looks: it logs what session.compact gets and what its `next` gives or rejects
// with, adds one context block at the first prompt, and queues one `/compact` after the first
// answer, as compact-plus's turn-end compaction does.
const PROBE_MOD = `function say($, what) {
  $.ui.log('${PROBE}' + JSON.stringify(what), { to: 'debug' })
}

export function register(on) {
  let blockGiven = false
  let queued = false
  on('session.compact', async ($, e, next) => {
    const users = (Array.isArray(e.messages) ? e.messages : []).filter((m) => m && m.role === 'user').map((m) => String(m.text ?? ''))
    say($, { hook: 'session.compact', trigger: e.trigger, instructions: e.instructions ?? null, users })
    try {
      const r = await next(e)
      say($, { hook: 'compacted', row: r?.messages?.[0]?.text ?? null })
      return r
    } catch (err) {
      say($, { hook: 'rejected', message: String(err?.message ?? err) })
      throw err
    }
  })
  on('prompt.context', async ($, e, next) => {
    const r = await next(e)
    if (blockGiven) return r
    blockGiven = true
    return { ...r, blocks: [...(Array.isArray(r?.blocks) ? r.blocks : []), { name: '${BLOCK}', text: 'ENGINE-TEXTS-BLOCK' }] }
  })
  on('turn.complete', async ($, e, next) => {
    const r = await next(e)
    if (!queued && e?.reason === 'answer') {
      queued = true
      $.clock.after(200, () => {
        $.command.run({ command: 'compact', args: '${QUEUED_ARGS}' }).catch(() => {})
      })
    }
    return r
  })
}
`;

function probeMod() {
  const dir = fs.mkdtempSync(path.join(process.env.E2E_WORK_ROOT ?? os.tmpdir(), 'cp-engine-texts-mod-'));
  fs.mkdirSync(path.join(dir, '.claude-plugin'));
  fs.writeFileSync(path.join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'engine-texts-probe', version: '0.0.1', hooks: './mod.json' }));
  fs.writeFileSync(path.join(dir, 'mod.json'), JSON.stringify({ modules: ['./probe.js'] }));
  fs.writeFileSync(path.join(dir, 'probe.js'), PROBE_MOD);
  return dir;
}

/** What the probe logged, in order. */
const probed = (run) =>
  run.debugLog.split('\n').filter((l) => l.includes(PROBE)).map((l) => JSON.parse(l.slice(l.indexOf(PROBE) + PROBE.length)));

/** Runs a session with the probe; keeps its work dir when the test fails or E2E_KEEP is set. */
async function session(t, opts) {
  const mod = probeMod();
  const run = await runSession({ mod, ...opts, env: { CLAUDE_CODE_MAX_RETRIES: '2', ...opts.env } });
  t.diagnostic(`${run.label}: ${run.totalMs} ms, work dir ${run.workDir}`);
  t.after(() => {
    if (!process.env.E2E_KEEP) {
      run.cleanup();
      fs.rmSync(mod, { recursive: true, force: true });
    }
  });
  assert.ok(!run.timedOut, `timed out: ${run.timedOut}\nstderr: ${run.stderr.slice(-2000)}`);
  return run;
}

test(`the summary row, the command rows, the context block and the queued /compact read as ${version} writes them`, { timeout: 300000 }, async (t) => {
  // The queued /compact has run once its compaction is logged as done.
  const queuedRan = (ctx) => {
    const log = path.join(ctx.workDir, 'debug.log');
    return fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes(`${PROBE}{"hook":"compacted"`);
  };
  const run = await session(t, {
    label: 'engine-texts',
    turns: [{ prompt: 'turn one: remember KIWI-1001', waitAfter: { ms: 30000, until: queuedRan } }, 'turn two', '/compact', 'turn three', '/compact', 'turn four'],
  });
  const events = probed(run);
  const compactions = events.filter((e) => e.hook === 'session.compact');
  const rows = events.filter((e) => e.hook === 'compacted').map((e) => e.row);
  assert.ok(compactions.length >= 3 && rows.length >= 3, `three compactions: ${JSON.stringify(events).slice(0, 600)}`);

  // The queued /compact: back in this plugin's own hook, trigger manual, its args exactly.
  const queued = compactions.find((c) => c.instructions === QUEUED_ARGS);
  assert.ok(queued, `no compaction with the queued args: ${JSON.stringify(compactions.map((c) => [c.trigger, c.instructions]))}`);
  assert.equal(queued.trigger, 'manual');
  for (const { name, text } of seen('queued-compact')) assert.equal(text, 'compact', `${name}: the command queued was ${text}`);

  for (const { name, text } of seen('summary-row')) {
    for (const row of rows) assert.ok(typeof row === 'string' && row.includes(text), `${name} (${JSON.stringify(text)}) not in the summary row: ${JSON.stringify(row).slice(0, 400)}`);
    if (name === 'summary_row::HEAD') for (const row of rows) assert.ok(row.startsWith(text), `the row does not open with ${name}`);
  }

  // The last /compact's conversation holds the one before's command rows.
  const last = compactions.at(-1).users;
  for (const { name, text } of seen('command-rows')) {
    assert.ok(last.some((u) => u.trimStart().startsWith(text) || u.includes(text)), `${name} (${text}) in no user row of the second /compact: ${JSON.stringify(last).slice(0, 800)}`);
  }

  // The block of a name the engine does not route reaches the model under its name, in a reminder.
  const bodies = run.normalRequests.map((r) => JSON.stringify(r.body));
  for (const { name, text } of seen('request')) {
    assert.ok(bodies.some((b) => b.includes(JSON.stringify(text).slice(1, -1))), `${name} (${text}) in no request`);
  }
});

for (const [where, label, fake, turns] of [
  ['clear-compact', 'engine-texts-clear', {}, ['turn one', '/clear', '/compact']],
  ['summarizer-500', 'engine-texts-500', { compactFail: '500' }, ['turn one', 'turn two', '/compact']],
  ['summarizer-ptl', 'engine-texts-ptl', { compactFail: 'ptl' }, ['turn one', 'turn two', '/compact']],
]) {
  test(`next's rejection (${where}) reads as ${version} words it`, { timeout: 300000 }, async (t) => {
    const run = await session(t, { label, fake, turns, turnTimeoutMs: 240000, sessionTimeoutMs: 280000 });
    const rejected = probed(run).filter((e) => e.hook === 'rejected').map((e) => e.message);
    assert.ok(rejected.length >= 1, `next did not reject: ${JSON.stringify(probed(run)).slice(0, 400)}`);
    for (const { name, text } of seen(where)) assert.ok(rejected.some((m) => m.includes(text)), `${name} (${text}) not in ${JSON.stringify(rejected)}`);
  });
}

test(`the texts no run here reaches are in the code of ${version}`, () => {
  const bin = fs.realpathSync(claudeBin());
  // One pass over the binary: each text as it is, and each tag by the quoted name it is built from.
  const tagName = (text) => text.match(/^<([a-z][a-z-]*[a-z])(?:>| source=)?$/)?.[1];
  const wanted = new Set();
  for (const { text } of [...seen('bundle'), ...seen('reference')]) {
    wanted.add(text);
    if (tagName(text)) wanted.add(`"${tagName(text)}"`);
  }
  const patterns = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cp-engine-texts-')), 'patterns');
  fs.writeFileSync(patterns, [...wanted].join('\n') + '\n');
  let found = '';
  try {
    found = execFileSync('grep', ['-a', '-o', '-F', '-f', patterns, bin], { maxBuffer: 1 << 30 }).toString('utf8');
  } catch (err) {
    found = err.stdout?.toString('utf8') ?? '';
  }
  const inBundle = new Set(found.split('\n'));
  const present = (text) => inBundle.has(text) || (tagName(text) !== undefined && inBundle.has(`"${tagName(text)}"`));
  const missing = seen('bundle').filter((t) => !present(t.text)).map((t) => `${t.name}: ${t.text}`);
  assert.deepEqual(missing, [], `not in the ${version} CLI at ${bin}`);
  for (const t of seen('reference')) console.log(`# ${t.name} ${JSON.stringify(t.text)}: the reference's; in ${version}: ${present(t.text) ? 'yes' : 'no'}`);
});
