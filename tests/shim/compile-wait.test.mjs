// The shim's promise 4 (js/compact-plus.js header), the compile wait: the core compiles once per
// load, in about 0.2 s after start-up in the real CLI; a compile that never settles must not hold
// the hooks until the host's 10 s budget cuts them (issue [8] item 6): past the bound every hook
// passes through, one debug line says why. Measured on the fake clock (`$.clock.after` [api D]).
//
// The shim compiles once per module load, so each test loads a copy of its own (a query string
// makes a new module record; the glue it imports is shared, and at most one copy here ever
// instantiates it).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { FakeHost, gate, coreModule, HANDOFF_HEAD } from './fake-host.mjs'

const COMPILE_WAIT_MS = 5000 // js/core.js
let copies = 0
async function freshShim(opts) {
  const { register } = await import(`../../js/compact-plus.js?copy=${++copies}`)
  const host = new FakeHost(opts)
  register(host.on, {})
  return host
}
const compactEvent = (host) => ({ trigger: 'manual', instructions: 'keep KIWI', messages: host.conversation })

test('a compile that never settles: the hook passes through after the bound, with the event as it came, and one debug line says why', async () => {
  const host = await freshShim({ compile: 'never' })
  const e = compactEvent(host)
  const pending = host.fire('session.compact', e, (d) => host.summarize(d))
  await host.settle()
  assert.equal(host.nexts.length, 0)
  assert.ok(host.liveTimers().some((t) => t.at === host.now + COMPILE_WAIT_MS), 'no bound on the host clock')
  await host.advance(COMPILE_WAIT_MS - 1)
  assert.equal(host.nexts.length, 0, 'passed through before the bound')
  await host.advance(1)
  const out = await pending
  assert.equal(out.hookError, undefined)
  assert.equal(out.nexts, 1)
  assert.deepEqual(host.nexts[0].down, e, 'next got another event than the engine raised')
  assert.deepEqual(out.value, out.below)
  assert.equal(host.debugLines(`not ready after ${COMPILE_WAIT_MS} ms`).length, 1, host.debug.join('\n'))
  assert.deepEqual(host.liveTimers(), [])
})

test('once the bound has passed, a later hook passes through at once: it does not wait for the compile again, and the why is said once', async () => {
  const host = await freshShim({ compile: 'never' })
  const first = host.fire('session.compact', compactEvent(host), (d) => host.summarize(d))
  await host.settle()
  await host.advance(COMPILE_WAIT_MS)
  await first
  // prompt.context comes before every request after a compaction: a wait here is the person's.
  let done = false
  const later = host.promptContext().then((o) => ((done = true), o))
  await host.settle()
  const waitedAgain = !done
  await host.advance(COMPILE_WAIT_MS) // lets it end either way
  const out = await later
  assert.equal(out.nexts, 1)
  assert.ok(!waitedAgain, `a hook after the bound waited for the compile again (${COMPILE_WAIT_MS} ms more of its budget)`)
  assert.equal(host.debugLines('not ready after').length, 1, host.debug.join('\n'))
})

test('a compile that settles within the bound: the hook waits for it and runs, the bound\'s timer is cancelled, nothing logged', async () => {
  const compiled = gate()
  const host = await freshShim({ compile: () => compiled.wait() })
  const pending = host.fire('session.compact', compactEvent(host), (d) => host.summarize(d))
  await host.settle()
  await host.advance(3000)
  assert.equal(host.nexts.length, 0)
  compiled.open(await coreModule())
  const out = await pending
  assert.equal(out.nexts, 1)
  assert.ok(host.nexts[0].down.instructions.startsWith(`keep KIWI\n\n${HANDOFF_HEAD}`), 'the core did not run')
  await host.settle()
  assert.deepEqual(host.liveTimers(), [])
  assert.equal(host.debugLines('not ready').length, 0)
})

test('a compile that fails: every hook passes through at once, one debug line says why', async () => {
  const host = await freshShim({ compile: () => Promise.reject(new WebAssembly.CompileError('WebAssembly.Module(): expected magic word')) })
  const e = compactEvent(host)
  const out = await host.fire('session.compact', e, (d) => host.summarize(d))
  assert.deepEqual(host.nexts[0].down, e)
  assert.deepEqual(out.value, out.below)
  const context = await host.promptContext()
  assert.equal(context.nexts, 1)
  assert.deepEqual(context.value, context.below)
  await host.settle()
  assert.equal(host.debugLines('did not compile, every hook passes through').length, 1, host.debug.join('\n'))
})

test('a compile that settles after the bound: hooks passed through meanwhile, and the ones after it run the core', async () => {
  const compiled = gate()
  const host = await freshShim({ compile: () => compiled.wait() })
  const first = host.fire('session.compact', compactEvent(host), (d) => host.summarize(d))
  await host.settle()
  await host.advance(COMPILE_WAIT_MS)
  const passed = await first
  assert.equal(passed.nexts, 1)
  assert.equal(host.nexts[0].down.instructions, 'keep KIWI', 'the core ran before it compiled')
  compiled.open(await coreModule())
  await host.settle()
  const out = await host.fire('session.compact', compactEvent(host), (d) => host.summarize(d))
  assert.equal(out.nexts, 1)
  assert.ok(host.nexts.at(-1).down.instructions.startsWith(`keep KIWI\n\n${HANDOFF_HEAD}`), 'a hook after the compile settled still passed through')
  assert.equal(host.debugLines('not ready after').length, 1)
})

test('session.end before the core ever ran does not wait for the compile: nothing to drop, the exit stays fast', async () => {
  const host = await freshShim({ compile: 'never' })
  const out = await host.fire('session.end', { reason: 'prompt_input_exit', sessionId: 's' }, () => ({}))
  assert.equal(out.hookError, undefined)
  assert.equal(out.nexts, 1)
  assert.deepEqual(host.liveTimers(), [], 'it set a compile bound')
})
