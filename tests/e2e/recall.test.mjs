// The recall tool on the real CLI: added by the shim's tool.list hook (in the
// model's tool list from turn one, no MCP server), and after a compaction the
// model's call finds a string from before it, with its message number.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runSession, textOf } from './harness.mjs'

const MOD = process.env.E2E_MOD ?? 'repo'
const TOOL = 'compact_plus_recall'

function toolResults(req) {
  return (req.body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b?.type === 'tool_result')
}

test('recall: the model searches what was compacted away', { skip: MOD === 'reference' && 'the reference has no recall tool', timeout: 120000 }, async (t) => {
  const marker = `OSPREY-${Date.now().toString(36)}-7731`
  const run = await runSession({
    mod: MOD,
    label: 'recall',
    args: ['--allowedTools', 'Bash'],
    turns: [
      'Run the probe for me.',
      `PROBE_TOOL:echo "probe said ${marker} at the end"`,
      '/compact',
      `FAKE_TOOL_USE:{"name":"${TOOL}","input":{"query":"${marker}"}}`,
      `FAKE_TOOL_USE:{"name":"${TOOL}","input":{"query":"(unclosed","regex":true}}`,
    ],
  })
  let passed = false
  t.after(() => (passed && !process.env.E2E_KEEP ? run.cleanup() : t.diagnostic(`kept ${run.workDir}`)))
  assert.ok(run.ok, `the session did not complete: ${run.stderr.slice(-1500)}`)

  const first = run.requests.find((r) => r.kind === 'normal')
  const tools = (first?.body?.tools ?? []).map((x) => x.name)
  assert.ok(tools.includes(TOOL), `the first request's tools lack ${TOOL}: ${tools.join(', ')}`)
  t.diagnostic(`turn one lists ${TOOL} among ${tools.length} tools`)

  const results = run.requests.flatMap(toolResults).map((b) => ({ text: textOf(b.content) ?? String(b.content ?? ''), isError: b.is_error }))
  const answer = results.find((r) => r.text.startsWith('1 hit') || /hits? in \d+ messages?/.test(r.text) || r.text.includes('── '))
  assert.ok(answer, `no recall answer among the tool results: ${JSON.stringify(results.map((r) => r.text.slice(0, 120)))}`)
  assert.ok(answer.text.includes(marker), `the answer lacks the marker: ${answer.text.slice(0, 600)}`)
  assert.match(answer.text, /\[\d+\] (assistant|user)/, 'the answer names the message')
  assert.match(answer.text, /^recall: \d+ hits? in \d+ messages? of 1 compaction \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(manual\)\)/, 'the answer names the compaction')
  assert.ok(answer.text.length <= 8000, `${answer.text.length} characters`)
  assert.notEqual(answer.isError, true)
  t.diagnostic(`recall answered ${answer.text.length} chars: ${answer.text.split('\n').slice(0, 3).join(' | ')}`)

  const bad = results.find((r) => r.text.startsWith('recall: the regex'))
  assert.ok(bad, `a bad regex got no clear answer: ${JSON.stringify(results.map((r) => r.text.slice(0, 80)))}`)
  t.diagnostic(`bad regex answered: ${bad.text.split('\n')[0]}`)
  passed = true
})
