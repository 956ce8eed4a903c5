// The README's "run it": the real Claude Code CLI, offline, through a short
// session with a tool call and a /compact, with compact-plus loaded from this
// folder; then what compact-plus added, as the engine stored it.
import { runSession, textOf } from '../tests/e2e/harness.mjs'

const run = await runSession({
  mod: 'repo',
  label: 'demo',
  args: ['--allowedTools', 'Bash'],
  turns: [
    'Please fix the flaky test in src/parser.rs; keep the public API as it is.',
    'PROBE_TOOL:echo "test result: FAILED. 1 failed (parser::tests::nested)"',
    '/compact focus on the parser fix',
    'Thanks. What was the failing test again?',
  ],
})
const line = (s = '') => console.log(s)
if (!run.ok) {
  console.error(`the session did not complete: ${JSON.stringify(run.exit)}\n${run.stderr.slice(-2000)}`)
  process.exit(1)
}
line(`session ${run.sessionId}, ${run.turns.length} turns, ${run.totalMs} ms (real CLI, fake API on 127.0.0.1)`)
for (const f of run.history) {
  line(`\n==== ${f.rel} (${f.size} bytes)`)
  line(f.text)
}
const summary = run.transcript.find((r) => r.isCompactSummary && r.type === 'user')
const text = summary ? textOf(summary.message?.content) : ''
const from = text.indexOf('<user-messages-verbatim>')
line('\n==== what compact-plus appended to the stored summary row')
line(from >= 0 ? text.slice(from) : '(nothing: see the debug log)')
run.cleanup()
