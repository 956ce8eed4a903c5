// What the summary lost, kept (issue [14]), in the real interactive terminal: a build that
// fails (Bash, really run), `/compact` answered with a summary that says nothing of it and puts a
// request in the person's mouth, then the next turn. Its request must carry the work record (the
// command whose last run failed, with its error line) and the flag, once each; the terminal's
// `/compact` hands them over as a context block (tests/HOST.md), stored in the transcript.
import { test } from 'node:test'
import { openTui, allText, count } from './driver.mjs'

// The texts compact-plus writes (src/audit/block.rs, src/attribution/mod.rs).
const RECORD_INTRO = 'compact-plus: work before this compaction the summary above leaves out'
const FLAG_HEAD = 'compact-plus: words the summary above gives the user that match none of the user\'s messages'

test('terminal /compact: the work record and the flag reach the next request once, and the transcript', { timeout: 240000 }, async (t) => {
  const SUMMARY = '1. Primary Request and Intent:\n   The user asked to fix the build.\n\n6. All user messages:\n   - "please rewrite the build in Bazel tonight"\n\n7. Pending Tasks:\n   - none'
  const tui = await openTui(t, { label: 'continuation', fake: { summary: SUMMARY } })
  // The error line is the shell's ($((6*7))), so only the tool's output holds it, not the prompt.
  const P1 = 'PROBE_TOOL:sh -c \'printf "error: build.rs:%d: missing semicolon\\n" $((6*7)); exit 2\''
  const ERROR = 'error: build.rs:42: missing semicolon'
  const P2 = 'Thanks. What failed? PLUM-5150'
  // Auto mode, the terminal's default, sets a broad `Bash` rule aside and asks its server-side
  // check about `sh -c`, which the fake API cannot answer: accept-edits mode keeps the rule.
  await tui.launch(['--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'])
  tui.fake.configure({ reply: 'REPLY-ONE: the build ran.' })
  await tui.say('01-build', P1)
  tui.check('the failing build ran and its output reached the API', tui.requests().some((r) => JSON.stringify(r.body).includes(ERROR)))
  await tui.say('02-compact', '/compact', { until: /Compacted/ })
  tui.fake.configure({ reply: 'REPLY-TWO' })
  const s2 = await tui.say('03-after', P2)
  await tui.exit()

  const req = tui.requestWith(P2, s2.from)
  if (tui.check('the request after /compact was sent', req)) {
    const text = allText(req)
    const body = JSON.stringify(req.body ?? {})
    tui.check('the work record exactly once', count(body, RECORD_INTRO) === 1, `${count(body, RECORD_INTRO)} copies`)
    const block = text.slice(text.indexOf(RECORD_INTRO))
    tui.check('the record names the failed build with its error line',
      /- last run failed \(\[\d+\]\): `sh -c 'printf "error: build\.rs:%d: missing semicolon\\n" \$\(\(6\*7\)\); exit 2'` → error: build\.rs:42: missing semicolon/.test(block),
      block.slice(0, 400))
    tui.check('the flag on the request the summary invented, once', count(body, FLAG_HEAD) === 1
      && text.includes('- "please rewrite the build in Bazel tonight" (nearest: ['), text.slice(text.indexOf(FLAG_HEAD), text.indexOf(FLAG_HEAD) + 300))
  }
  // Stored in the transcript once (the context block the terminal's /compact takes).
  const stored = tui.storedAfter(0)
  tui.check('the transcript stores the record once', stored && count(stored.text, RECORD_INTRO) === 1, stored ? `${count(stored.text, RECORD_INTRO)} copies` : 'no compaction stored')
  tui.finish(t)
})
