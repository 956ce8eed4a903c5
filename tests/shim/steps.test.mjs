// The one step loop (js/core.js `steps`, `waited`; js/event.js `answer`), for the core's hooks and the
// recall module alike: each `$` call waited for as its step says (src/step.rs `Wait`: the core's
// `$` calls 30 s, a shared deadline for the recall module's walk and reads), and texts handed
// beside the answers as UTF-8, each to its own call whatever order the calls answer in. The fake
// host's `$.clock.after` and `$.fs.read` ranges follow the d.ts (fake-host.mjs cites it).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim, gate } from './fake-host.mjs'

test('a hook\'s $ calls get the wait the core gives them, and no timer outlives the hook', async () => {
  const host = withShim(register, { mode: 'tui' })
  const out = await host.compact({ trigger: 'manual' })
  assert.deepEqual(out.value, out.below)
  // Past the compile's own wait (5 s, the shim's start-up), one timer per `$` call, of 30 s.
  const [compile, ...timers] = host.callsOf('clock.after').map((c) => c.args[0])
  assert.equal(compile, 5000)
  // And one of 0: the receipt, logged once the hook has returned (tests/shim/steer.test.mjs).
  assert.deepEqual(timers.filter((ms) => ms === 0), [0])
  const waits = timers.filter((ms) => ms !== 0)
  assert.ok(waits.length > 3 && waits.every((ms) => ms === 30000), JSON.stringify(waits))
  await host.settle() // the receipt's timer fires on the host's next turn
  assert.equal(host.liveTimers().length, 0)
})

test('texts beside the answers reach their own calls: Codex heads of many-byte text, read at once, answered out of order', async () => {
  const host = withShim(register, {}, {})
  const day = '/home/u/.codex/sessions/2026/11/28'
  const head = (id, cwd) => JSON.stringify({ timestamp: '2026-11-28T10:00:00.000Z', type: 'session_meta', payload: { id, cwd, note: 'ünïcödé 日本語 🦀'.repeat(200), base_instructions: { text: '🚀'.repeat(20000) } } })
  const ask = (id, text) => JSON.stringify({ timestamp: '2026-11-28T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: text } })
  const ours = '019a0000-0000-7000-8000-0000000000aa'
  const theirs = '019a0000-0000-7000-8000-0000000000bb'
  host.addFile(`${day}/rollout-2026-11-28T10-00-00-${theirs}.jsonl`, `${head(theirs, '/work/other')}\n${ask(theirs, 'plover-3 elsewhere')}\n`, host.now - 1000)
  host.addFile(`${day}/rollout-2026-11-28T09-00-00-${ours}.jsonl`, `${head(ours, '/work/app')}\n${ask(ours, 'plover-3 här: 日本語')}\n`, host.now - 2000)
  // The newer head answers last.
  const held = host.hold('fs.read', (p) => String(p).includes(theirs))
  const pending = host.fire('tool.call', { tool: 'compact_plus_recall', query: 'plover-3', scope: 'project' }, () => assert.fail('next'))
  await host.settle()
  held.open()
  const answer = (await pending).value.result
  assert.match(answer, /^recall: 1 hit in 1 message of 1 earlier session \(of 1 searched\)/)
  assert.ok(answer.includes(`session ${ours}`) && answer.includes('plover-3 här: 日本語') && !answer.includes('elsewhere'), answer)
  const heads = host.callsOf('fs.read').filter((c) => c.args[1]?.length <= 64 * 1024 && c.args[1]?.offset === 0)
  assert.ok(heads.length >= 2, 'both heads were read')
})
