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

// ---- two calls at once, deadlines, one read at a time (issues [13] item 10, [17], [18]) ----

test('two project recalls at once (subagents, agent teams) each get their own answer', async () => {
  const host = withShim(register, {}, {})
  earlier(host)
  // The first call stops at its first look (the project's folder) until the gate opens.
  const cwd = host.hold('session.cwd')
  const first = call(host, { query: 'walrus-77', scope: 'project' })
  await host.settle()
  host.faults = host.faults.filter((f) => f.op !== 'session.cwd')
  // The second runs to its end meanwhile, its reads interleaved with nothing of the first's.
  const view = await call(host, {})
  cwd.open()
  const found = await first
  assert.match(view, /^recall: 2 earlier sessions of this project, newest first/)
  assert.match(found, /^recall: 3 hits in 3 messages of 2 earlier sessions/)
  // And two searches reading at once: each read answers its own call.
  const reads = host.hold('fs.read', (p) => String(p).endsWith('aaaa-old.jsonl'))
  const a = call(host, { query: 'walrus-77', scope: 'project' })
  const b = call(host, { query: 'walrus-77 parser', scope: 'project' })
  await host.settle()
  reads.open()
  const [ra, rb] = await Promise.all([a, b])
  assert.match(ra, /^recall: 3 hits in 3 messages/)
  assert.match(rb, /^recall: 4 hits in 3 messages of 2 earlier sessions .*1 of them hold every term/)
})

test('the waits are the Rust side\'s: the walk\'s look-ups share 2 s, the reads 5 s; what is not back is counted', async () => {
  const host = withShim(register, {}, {})
  earlier(host)
  // The older session's read never answers; the newer one is read before it.
  host.hold('fs.read', (p) => String(p).endsWith('aaaa-old.jsonl')) // never opened
  const pending = call(host, { query: 'walrus-77', scope: 'project' })
  await host.settle()
  const waits = host.callsOf('clock.after').map((c) => c.args[0])
  assert.ok(waits.includes(2000) && waits.includes(5000), JSON.stringify(waits))
  await host.advance(4999)
  let done = false
  pending.then(() => (done = true))
  await host.settle()
  assert.equal(done, false, 'gave up before the reads\' deadline')
  await host.advance(1)
  const answer = await pending
  assert.match(answer, /^recall: 1 hit in 1 message of 1 earlier session/)
  assert.match(answer, /1 file that could not be read in time/)
  assert.equal(host.liveTimers().length, 0, 'every timer cancelled or fired')
  // A walk whose look-ups hang answers within its own 2 s.
  const slow = withShim(register, {}, {})
  earlier(slow)
  slow.hold('fs.list')
  const walked = call(slow, { scope: 'project' })
  await slow.settle()
  await slow.advance(2000)
  assert.match(await walked, /^recall: no earlier sessions of this project were found/)
})

test('a session\'s history parts are read one at a time, oldest first, and the answer names the compaction', async () => {
  const host = withShim(register, {}, {})
  const dir = host.historyDir()
  const part = (n, text) => `# Conversation before compaction\n\nSession s, compacted (manual), 2 messages.\n\n## [${n}] user\n\n${text}\n`
  host.addFile(`${dir}/2026-11-29T232701Z-manual.md`, part(0, 'the heron-9 plan'))
  host.addFile(`${dir}/2026-11-30T080000Z-auto.md`, part(0, 'nothing here'))
  const gate1 = host.hold('fs.read', (p) => String(p).endsWith('232701Z-manual.md'))
  const pending = call(host, { query: 'heron-9' })
  await host.settle()
  const asked = () => host.callsOf('fs.read').map((c) => c.args[0].split('/').pop())
  assert.deepEqual(asked(), ['2026-11-29T232701Z-manual.md'], 'the next part is asked only once this one is in')
  gate1.open()
  const answer = await pending
  assert.deepEqual(asked(), ['2026-11-29T232701Z-manual.md', '2026-11-30T080000Z-auto.md'])
  assert.match(answer, /^recall: 1 hit in 1 message of 1 compaction \(2026-11-29 23:27:01Z \(manual\)\) for "heron-9"/)
})

test('OpenCode prompts are this project\'s when a file they name is in this folder', async () => {
  const host = withShim(register, {}, {})
  const prompt = (input, url) => JSON.stringify({ input, mode: 'normal', parts: url ? [{ type: 'file', mime: 'text/plain', filename: 'a.rs', url, source: { type: 'file', path: 'a.rs', text: { start: 0, end: 5, value: '@a.rs' } } }] : [] })
  host.addFile('/home/u/.local/state/opencode/prompt-history.jsonl', [
    prompt('fix the kestrel-12 bug in @a.rs', 'file:///work/app/a.rs'),
    prompt('kestrel-12 in another project @a.rs', 'file:///work/other/a.rs'),
    prompt('kestrel-12 with no file named', null),
  ].join('\n') + '\n')
  const answer = await call(host, { query: 'kestrel-12', scope: 'project' })
  assert.match(answer, /^recall: 1 hit in 1 message of 1 earlier session/)
  assert.ok(answer.includes('fix the kestrel-12 bug') && !answer.includes('another project') && !answer.includes('no file named'), answer)
  assert.match(await call(host, {}), /opencode \(prompts naming a file in this folder\)/)
})
