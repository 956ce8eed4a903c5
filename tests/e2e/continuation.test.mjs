// What the summary lost, kept (issue [14]), in the real CLI headless: after a compaction whose
// summary says nothing of the work, the next request carries the work record (the command whose
// last run failed with its error line, the commit on the branch made for it), the flag on a
// request the summary puts in the person's mouth, and the history file ends with the whole
// record; a credential the failing command printed reaches neither. Then the next path: a second
// compaction lists only its own window's work, and a rescue's tier-2 digest carries the record.
//
//   node --test tests/e2e/continuation.test.mjs      (E2E_KEEP=1 keeps the work dirs)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runSession, textOf, summaryRows } from './harness.mjs'

// The texts compact-plus writes (src/audit/block.rs, src/record/mod.rs, src/attribution/mod.rs).
const RECORD_INTRO = 'compact-plus: work before this compaction the summary above leaves out'
const FULL_HEAD = '# compact-plus work record'
const FLAG_HEAD = 'compact-plus: words the summary above gives the user that match none of the user\'s messages'
const TOKEN = 'ghp_8fK2mQx9TzL4vB7nR1wY5cJ3hD6sG0aPeU2i' // GitHub's shape (fake)

// A build that fails (`sh`, not a look-up), printing a credential on its error line. The prompt
// holds the command, so the verbatim block does: the error line and the commit's subject are
// made by the shell ($((6*2)), printf), so only the tools' output holds them as the record says.
const FAIL = `PROBE_TOOL:sh -c 'printf "error: parser.rs:%d: expected a token (auth ${TOKEN})\\n" $((6*2)) >&2; exit 3'`
const ERROR = `error: parser.rs:12: expected a token (auth ${TOKEN})`
const BRANCH = 'PROBE_TOOL:git init -q . && git checkout -q -b feature/parser-fix && echo on-branch'
const COMMIT = `PROBE_TOOL:git -c user.email=a@example.com -c user.name=A commit --allow-empty -m "$(printf 'Fix the %s token' parser)" 2>&1`
const SUMMARY = '1. Primary Request and Intent:\n   The user asked to fix the parser.\n\n6. All user messages:\n   - "turn one: build it"\n   - "please deploy it to production tonight"\n\n7. Pending Tasks:\n   - none'

async function session(t, opts) {
  const run = await runSession({ mod: 'repo', args: ['--allowedTools', 'Bash'], turnTimeoutMs: 45000, sessionTimeoutMs: 150000, ...opts })
  t.after(() => (process.env.E2E_KEEP || !run.passed ? t.diagnostic(`kept ${run.workDir}`) : run.cleanup()))
  assert.ok(run.ok, `the session did not complete: ${run.timedOut ?? JSON.stringify(run.exit)}\n${run.stderr.slice(-1500)}`)
  return run
}

/** Every message's text of the request of the turn whose prompt holds `marker`. */
function requestText(run, marker) {
  // The turn's prompt is its last message but the `system` ones 2.1.328 sends mid-conversation.
  const req = run.normalRequests.findLast((r) => JSON.stringify((r.body?.messages ?? []).filter((m) => m.role !== 'system').at(-1) ?? '').includes(marker))
  assert.ok(req, `no request for the turn ${marker}`)
  return (req.body.messages ?? []).map((m) => textOf(m.content)).join('\n')
}

const historyParts = (run) => run.history.filter((f) => /\.md$/.test(f.rel) && !f.rel.endsWith('.summary.md')).sort((a, b) => a.rel.localeCompare(b.rel))

test('headless: the record and the flag reach the model after a compaction, the history ends with the record, no credential', { timeout: 240000 }, async (t) => {
  const run = await session(t, {
    label: 'cont-record',
    fake: { summary: SUMMARY },
    turns: [`turn one: build it ${FAIL}`, `turn two: branch ${BRANCH}`, `turn three: commit ${COMMIT}`, '/compact', 'turn four: AFTER-ONE go on'],
  })
  const after = requestText(run, 'AFTER-ONE')
  const block = after.slice(after.indexOf(RECORD_INTRO))
  assert.ok(after.includes(RECORD_INTRO), `no work record in the request after the compaction:\n${after.slice(-3000)}`)
  assert.match(block, /- last run failed \(\[\d+\]\): `sh -c 'printf "error: parser\.rs:%d: expected a token \(auth \[REDACTED:[a-z-]+\]\)\\n" \$\(\(6\*2\)\) >&2; exit 3'` → error: parser\.rs:12: expected a token \(auth \[REDACTED:[a-z-]+\]\)/)
  assert.match(block, /- commit [0-9a-f]{7,} on feature\/parser-fix \(a branch made here\): Fix the parser token/)
  // The flag: the invented request, with the nearest of the person's messages.
  assert.match(after, new RegExp(`${FLAG_HEAD}[^\\n]*\\n- "please deploy it to production tonight" \\(nearest: \\[\\d+\\] `))
  assert.ok(!/- "turn one: build it" \(nearest/.test(after), 'a real message was flagged')
  // Once: the record and the flag are in the request exactly once, and what the record names is
  // not listed again by the audit.
  assert.equal(after.split(RECORD_INTRO).length - 1, 1)
  assert.equal(after.split('Fix the parser token').length - 1, 1, 'the commit named twice')
  // The history file ends with the whole record.
  const parts = historyParts(run)
  assert.equal(parts.length, 1, parts.map((p) => p.rel).join(', '))
  const history = parts[0].text
  assert.ok(history.includes(`\n\n${FULL_HEAD}\n`), 'the history has no work record')
  assert.match(history.slice(history.indexOf(FULL_HEAD)), /- commit [0-9a-f]{7,} on feature\/parser-fix/)
  // No credential anywhere compact-plus wrote or the model got.
  for (const f of run.history) assert.ok(!f.text.includes(TOKEN), `${f.rel} holds the credential`)
  assert.ok(!after.includes(TOKEN), 'the request after the compaction holds the credential')
  const rows = summaryRows(run).map((r) => textOf(r.message.content)).join('\n')
  assert.ok(rows.includes(RECORD_INTRO) && !rows.split(RECORD_INTRO)[1].includes(TOKEN), 'the stored summary row holds the credential or no record')
  run.passed = true
})

test('headless, the next path: a second compaction lists its own window\'s work, not the first\'s again', { timeout: 240000 }, async (t) => {
  const second = 'PROBE_TOOL:sh -c \'printf "FAIL: lint found %d problems\\n" $((1+1)); exit 1\''
  const run = await session(t, {
    label: 'cont-second',
    fake: { summary: SUMMARY },
    turns: [
      `turn one: build it ${FAIL}`, '/compact', 'turn two: AFTER-ONE go on',
      { prompt: `turn three: lint ${second}`, fake: { summary: '1. Primary Request and Intent:\n   Lint the code.' } },
      '/compact', 'turn four: AFTER-TWO go on',
    ],
  })
  assert.equal(run.compactionRequests.length, 2)
  const after = requestText(run, 'AFTER-TWO')
  const block = after.slice(after.lastIndexOf(RECORD_INTRO))
  assert.match(block, /`sh -c 'printf "FAIL: lint found %d problems\\n" \$\(\(1\+1\)\); exit 1'` → FAIL: lint found 2 problems/)
  assert.ok(!block.includes('expected a token'), 'the first window\'s failure listed again')
  const parts = historyParts(run)
  assert.equal(parts.length, 2)
  assert.ok(parts.every((p) => p.text.includes(FULL_HEAD)), 'each history ends with its record')
  run.passed = true
})

test('headless, a rescue: the tier-2 digest carries the record, and the block after it does not repeat it', { timeout: 240000 }, async (t) => {
  const run = await session(t, {
    label: 'cont-rescue',
    fake: { compactFail: '500', rescueFail: '500' },
    env: { CLAUDE_CODE_MAX_RETRIES: '2' },
    turns: [`turn one: build it ${FAIL}`, '/compact', 'turn two: AFTER-RESCUE go on'],
  })
  const after = requestText(run, 'AFTER-RESCUE')
  assert.ok(after.includes('a digest made without a model'), `not a tier-2 rescue:\n${after.slice(0, 600)}`)
  const digest = after.slice(after.indexOf(FULL_HEAD))
  assert.ok(after.includes(FULL_HEAD), 'the digest has no work record')
  assert.match(digest, /- last run failed \(\[\d+\]\): `sh -c/)
  assert.ok(!after.includes(RECORD_INTRO), 'the block after the digest repeats the record')
  // The row is compact-plus's (the messages the rescue keeps after it are the engine's own).
  const row = after.slice(after.indexOf('[compact-plus wrote this summary'), after.indexOf('compact-plus saved the conversation'))
  assert.ok(row.includes(FULL_HEAD) && !row.includes(TOKEN), 'the rescue row holds the credential')
  run.passed = true
})
