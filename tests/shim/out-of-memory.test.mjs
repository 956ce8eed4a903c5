// The most natural trap: a compaction too large for the core's linear memory. The core allocates
// as it renders the history; when the memory cannot grow, the allocation aborts and the instance
// traps (`unreachable`) in the middle of a call. V8's page cap (`--wasm-max-mem-pages`, read when
// a memory grows) stands in for a host whose memory runs out. It is process-wide, so this file has
// a process of its own (node --test runs each file in one).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import v8 from 'node:v8'
import { probe } from './wasm-probe.mjs'
import { register } from '../../js/compact-plus.js'
import { memoryBytes } from '../../pkg/compact_plus.js'
import { withShim, VERBATIM_OPEN, count } from './fake-host.mjs'
import { makeSession } from '../../bench/session.mjs'

const PAGE = 65536

test('a session too large for the core\'s memory traps it mid-compaction: the engine\'s result passes through, the instance is rebuilt, the next compaction works', async () => {
  const big = makeSession(1500) // about 9 MB of messages
  const host = withShim(register, { mode: 'headless', messages: big.messages })
  await host.turnComplete()
  await host.settle()
  const instances = probe.instances.length
  const cap = Math.ceil(memoryBytes() / PAGE) + 64 // 4 MiB more than the core has now
  v8.setFlagsFromString(`--wasm-max-mem-pages=${cap}`)
  let out
  try {
    out = await host.compact({ trigger: 'auto' })
  } finally {
    v8.setFlagsFromString('--wasm-max-mem-pages=65536')
  }
  assert.equal(out.hookError, undefined)
  assert.equal(out.nexts, 1)
  assert.deepEqual(out.value, out.below, 'the engine\'s compaction did not pass through')
  assert.equal(host.debugLines(/session\.compact failed open: .*(unreachable|memory)/i).length, 1, host.debug.join('\n'))
  assert.equal(probe.instances.length, instances + 1, 'the instance was not rebuilt')
  assert.equal(host.logLines().filter((l) => l.event === 'compact').length, 0)
  // The summary row of the failed one gets nothing; the rebuilt core does the next in full.
  const rows = host.outcomes.filter((o) => o.event === 'session.append')
  assert.ok(rows.every((r) => r.value.message.content.length === 1))
  await host.prompt('after the trap: remember FIG-6006')
  await host.compact({ trigger: 'manual' })
  assert.equal(host.logLines().filter((l) => l.event === 'compact').length, 1)
  const row = host.outcomes.filter((o) => o.event === 'session.append').at(-1)
  const stored = row.value.message.content.map((c) => c.text).join('\n')
  assert.equal(count(stored, VERBATIM_OPEN), 1)
  assert.ok(stored.includes('FIG-6006'))
})
