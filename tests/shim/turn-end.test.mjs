// Design-8 item 2: a turn that ends near the auto-compact threshold is compacted between turns by
// a queued `/compact <marker>` (`$.command.run`), never by `$.session.compact()` (which the terminal
// runs with our own hook skipped, and headless refuses [kit item 2]). Our session.compact knows its
// own queued compaction by the marker, gives the summarizer the handoff in its place, and names the
// trigger `turn-end`; a stale one is skipped, a person's `/compact` never is.
//
// The fake host as measured: usage answers `context.tokens` and, asked with a breakdown,
// `breakdown.autoCompactThreshold` (67,000 with a 100k window; 63,000 is 94 % [kit]); the job's
// wait is a `$.clock.after` [d8]; the queued command runs once the session is idle, reaches our
// session.compact as trigger `manual` with `instructions` = args and origin `{plugin:'engine',
// tier:'core'}`, and `$.command.run` resolves `{}` only after it ran [d8]; in the terminal it raises
// no door `compaction`, headless it does [kit item 1].
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim, NEAR, MARKER_HEAD, HANDOFF_HEAD, VERBATIM_OPEN, POINTER_HEAD, count } from './fake-host.mjs'

const TURN_END_DELAY_MS = 1500 // src/hooks/turn_end.rs: how long after a turn its compaction is queued

const compacts = (host) => host.outcomes.filter((o) => o.event === 'session.compact')
const summarizerAsked = (host) => host.requests.filter((r) => r.kind === 'summarizer')
const logged = (host, event) => host.logLines().filter((l) => l.event === event)

/** A near-threshold turn, then the job's wait, then the queued compaction; answers that compaction's outcome. */
async function nearTurn(host, text) {
  const before = compacts(host).length
  await host.prompt(text, { tokens: NEAR })
  await host.settle()
  assert.equal(compacts(host).length, before, 'compacted before the wait')
  const wait = host.liveTimers().find((t) => t.at === host.now + TURN_END_DELAY_MS)
  assert.ok(wait, `no ${TURN_END_DELAY_MS} ms wait on $.clock.after: ${JSON.stringify(host.liveTimers())}`)
  await host.advance(TURN_END_DELAY_MS)
  assert.equal(compacts(host).length, before + 1, 'the queued /compact did not reach our hook')
  return compacts(host).at(-1)
}

for (const mode of ['tui', 'headless']) {
  test(`${mode}: two near-threshold turns, each compacted between turns by compact-plus, then the person's /compact: all three compact`, async () => {
    const host = withShim(register, { mode })
    await host.prompt('turn one: the parser fails on nested lists, remember KIWI-3003', { tokens: 5_000 })
    await host.settle()
    assert.equal(host.callsOf('command.run').length, 0, 'queued below the threshold')
    assert.deepEqual(host.liveTimers(), [], 'a timer was left running')

    for (const [n, text] of [[1, 'turn near the threshold: remember LIME-4004'], [2, 'second turn near the threshold: remember PLUM-5005']]) {
      const sc = await nearTurn(host, text)
      // Usage asked as the host answers it: the plain call's tokens, the breakdown's threshold.
      const usage = host.callsOf('session.usage')
      assert.ok(usage.some((c) => c.args[0] === undefined) && usage.some((c) => c.args[0]?.breakdown === 'summary'))
      const commands = host.callsOf('command.run')
      assert.equal(commands.length, n)
      const { command, args } = commands.at(-1).args[0]
      assert.equal(command, 'compact')
      assert.ok(args.startsWith(MARKER_HEAD), args)
      assert.equal(sc.e.trigger, 'manual')
      assert.equal(sc.e.instructions, args, 'the queued /compact arrives with its args as instructions')
      assert.deepEqual(sc.origin, { plugin: 'engine', tier: 'core' })
      assert.equal(sc.value.skip, undefined, `turn-end compaction ${n} was skipped: ${sc.value.skip}`)
      const asked = summarizerAsked(host).at(-1)
      assert.ok(asked.instructions.startsWith(HANDOFF_HEAD), asked.instructions)
      assert.ok(!asked.instructions.includes(MARKER_HEAD), 'the marker reached the summarizer')
      const files = host.historyFiles().filter((f) => f.endsWith('-turn-end.md'))
      assert.equal(files.length, n, host.historyFiles().join('\n'))
      assert.equal(logged(host, 'turn-end-compact').length, n)
      assert.deepEqual(logged(host, 'compact').map((l) => l.trigger), Array(n).fill('turn-end'))
      assert.equal(logged(host, 'turn-end-compact-failed').length + logged(host, 'turn-end-compact-skipped').length, 0)
      // The blocks reach the model once, in the next request.
      await host.prompt(`after turn-end compaction ${n}`, { tokens: 5_000 })
      await host.settle()
      assert.equal(count(host.modelSees(), VERBATIM_OPEN), 1)
      assert.equal(count(host.modelSees(), POINTER_HEAD), 1)
      host.now += 2000
    }

    const person = await host.compact({ trigger: 'manual', instructions: 'keep the parser details' })
    assert.equal(person.value.skip, undefined, `the person's /compact was refused: ${person.value.skip}`)
    assert.ok(Array.isArray(person.value.messages))
    assert.ok(summarizerAsked(host).at(-1).instructions.startsWith(`keep the parser details\n\n${HANDOFF_HEAD}`))
    assert.deepEqual(logged(host, 'compact').map((l) => l.trigger), ['turn-end', 'turn-end', 'manual'])
    await host.settle()
    assert.equal(host.callsOf('session.compact').length, 0, '$.session.compact was called')
    assert.deepEqual(host.liveTimers(), [], 'a timer was left running')
  })
}

test('a queued turn-end /compact the context compacted before is skipped; the person\'s next /compact is not', async () => {
  const host = withShim(register, { mode: 'tui' })
  host.pauseQueue() // the session is busy: the queued command waits
  await host.prompt('near the threshold', { tokens: NEAR })
  await host.settle()
  await host.advance(TURN_END_DELAY_MS)
  assert.equal(host.callsOf('command.run').length, 1)
  assert.equal(compacts(host).length, 0)
  // Meanwhile the engine compacts on its own (the next prompt crossed its threshold).
  await host.compact({ trigger: 'auto' })
  host.pauseQueue(false)
  await host.settle()
  const stale = compacts(host).at(-1)
  assert.ok(stale.e.instructions.startsWith(MARKER_HEAD))
  assert.match(String(stale.value.skip), /compacted after this turn-end compaction was queued/)
  assert.equal(stale.nexts, 0, 'a skipped compaction called next')
  const person = await host.compact({ trigger: 'manual' })
  assert.equal(person.value.skip, undefined)
  assert.deepEqual(logged(host, 'compact').map((l) => l.trigger), ['auto', 'manual'])
})

test('a person\'s /compact that only looks like ours (a marker of no queued compaction) is not refused', async () => {
  const host = withShim(register, { mode: 'tui' })
  const out = await host.compact({ trigger: 'manual', instructions: `${MARKER_HEAD}, the context is near the auto-compact threshold (queued at 09:09:09 UTC)` })
  assert.equal(out.value.skip, undefined)
  assert.ok(Array.isArray(out.value.messages))
})

test('a refused $.command.run logs the error and re-arms: the next near turn queues again', async () => {
  const host = withShim(register, { mode: 'tui' })
  // `$.command.run` "Rejects an unknown name, inside a hook the turn or the session's start waits
  // on, past a Stop or a host's limit" [dts]; the wording of such an error was not measured.
  host.fault('command.run', { reject: new Error('$.command.run: past a Stop') })
  await host.prompt('near the threshold', { tokens: NEAR })
  await host.settle()
  await host.advance(TURN_END_DELAY_MS)
  assert.equal(logged(host, 'turn-end-compact-failed').length, 1)
  assert.match(logged(host, 'turn-end-compact-failed')[0].error, /past a Stop/)
  const sc = await nearTurn(host, 'near again')
  assert.equal(sc.value.skip, undefined)
  assert.equal(host.callsOf('command.run').length, 2)
})

test('no tokens yet (usage answers none until the first response of a window): nothing is queued, and the next near turn is', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.turnComplete() // usage has no context.tokens yet [api D]
  await host.settle()
  assert.equal(host.callsOf('command.run').length, 0)
  assert.deepEqual(host.liveTimers(), [])
  const sc = await nearTurn(host, 'near now')
  assert.equal(sc.value.skip, undefined)
})
