// The recall tool's project scope through the shim: the reads the core names
// (by range, newest sessions first), the recall module's answer, and nothing
// kept between calls. The fake host's `$.fs.read` ranges and `$.session.cwd`
// follow the d.ts (fake-host.mjs cites it).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim } from './fake-host.mjs'
import { RECALL_TOOL } from '../../pkg/compact_plus.js'

const DAY = 86400000
const row = (type, content, ts) => JSON.stringify({ type, message: { role: type, content }, timestamp: ts, sessionId: 's' })

function earlier(host) {
  const here = '/home/u/.claude/projects/-work-app'
  host.addFile(`${here}/aaaa-old.jsonl`, [row('user', 'first try at the walrus-77 parser', '2026-01-01T10:00:00.000Z'), row('assistant', 'walrus-77 done', '2026-01-01T10:01:00.000Z')].join('\n') + '\n', host.now - 3 * DAY)
  // Over 4 MiB: read by ranges, its newest end holding the answer.
  const filler = row('assistant', 'x'.repeat(1000), '2026-01-02T10:00:00.000Z')
  const big = Array.from({ length: 5000 }, () => filler).join('\n') + '\n' + row('user', 'the walrus-77 token is ghp_FAKE0123456789abcdefghijklmnopqrstuv', '2026-01-02T11:00:00.000Z') + '\n'
  host.addFile(`${here}/bbbb-big.jsonl`, big, host.now - DAY)
  host.addFile('/home/u/.claude/projects/-work-other/cccc.jsonl', row('user', 'walrus-77 elsewhere', '2026-01-03T10:00:00.000Z') + '\n', host.now)
  return big.length
}

async function call(host, input) {
  const out = await host.fire('tool.call', { tool: RECALL_TOOL.name, ...input }, () => assert.fail('next'))
  return out.value?.result
}

test('scope project reads this project\'s sessions by range and answers redacted', async () => {
  const host = withShim(register, {}, {})
  const size = earlier(host)
  assert.ok(size > 4 * 1024 * 1024)
  const answer = await call(host, { query: 'walrus-77', scope: 'project' })
  assert.match(answer, /^recall: 3 hits in 3 messages of 2 earlier sessions/)
  assert.match(answer, /── claude-code · session bbbb-big · 2026-01-02 11:00Z · message \d+ \(user\)/)
  assert.ok(answer.includes('[REDACTED:github-token]') && !answer.includes('ghp_FAKE'), answer)
  assert.ok(!answer.includes('elsewhere'), 'nothing from the other project')
  const reads = host.calls.filter((c) => c.op === 'fs.read').map((c) => c.args)
  assert.ok(reads.every(([, o]) => o && o.length <= 4 * 1024 * 1024), JSON.stringify(reads))
  assert.ok(reads.some(([p, o]) => p.endsWith('bbbb-big.jsonl') && o.offset > 0))
  const view = await call(host, {})
  assert.match(view, /^recall: 2 earlier sessions of this project, newest first/)
  assert.ok(view.indexOf('bbbb-big') < view.indexOf('aaaa-old'))
  assert.match(view, /first request: "first try at the walrus-77 parser"/)
})

test('a read that fails is counted, and the next call answers the same from a fresh module', async () => {
  const host = withShim(register, {}, {})
  earlier(host)
  const first = await call(host, { query: 'walrus-77', scope: 'project' })
  const again = await call(host, { query: 'walrus-77', scope: 'project' })
  assert.equal(again, first)
  host.faults.push({ op: 'fs.read', times: Infinity, when: (p) => String(p).endsWith('aaaa-old.jsonl'), answer: { reject: new Error('EACCES') } })
  const partial = await call(host, { query: 'walrus-77', scope: 'project' })
  assert.match(partial, /1 file that could not be read/)
  assert.ok(!partial.includes('aaaa-old'))
})

test('recallScope session keeps the tool to this session', async () => {
  const host = withShim(register, {}, { recallScope: 'session' })
  earlier(host)
  assert.match(await call(host, { query: 'walrus-77', scope: 'project' }), /option recallScope/)
  assert.ok(!host.calls.some((c) => c.op === 'fs.read' || c.op === 'session.cwd'))
})
