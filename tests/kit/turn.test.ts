// turn.complete, and the compaction between turns it starts when the context
// is near the auto-compact threshold.

import { test, expect } from 'claude-code/testing'
import type { On, SessionCompactResult } from 'claude-code'
import { world, LOG } from './world.ts'

const TURN = { answer: 'Done.', durationMs: 1200, isAborted: false, turnId: 't1', reason: 'answer' as const }
/** Past 90% of the 967,000-token threshold: 870,300. */
const NEAR = 900000
const FAR = 100000

/** `$.session.usage`: `tokens` in the window; the breakdown with the threshold when asked. */
function usage(on: On, tokens: number) {
  const asked: (string | undefined)[] = []
  on('session.usage', (_$, e) => {
    const breakdown = (e as { breakdown?: string } | undefined)?.breakdown
    asked.push(breakdown)
    const context = breakdown
      ? { tokens, window: 1000000, breakdown: { isAutoCompactEnabled: true, autoCompactThreshold: 967000 } }
      : { tokens, window: 1000000 }
    // The fields the mod reads; the rest of a breakdown is left out.
    return { value: { startedAt: 0, context, rateLimits: [] } } as any
  })
  return asked
}

function engine(on: On, compact: () => SessionCompactResult = () => ({ messages: [{ role: 'assistant', text: 'The summary.', toolUses: [] }] })) {
  const raised: { event: string; e: unknown }[] = []
  on('turn.complete', (_$, e) => ({ text: e.answer }))
  on('session.compact', (_$, e) => {
    raised.push({ event: 'session.compact', e })
    return compact()
  })
  on('command.run', (_$, e) => {
    raised.push({ event: 'command.run', e })
    return {}
  })
  return raised
}

test('near the threshold the answer passes unchanged and the context compacts 1500 ms after the turn', async ($, on) => {
  const w = world(on)
  const asked = usage(on, NEAR)
  const raised = engine(on)

  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.settle()
  expect(asked).toEqual([undefined, 'summary'])
  expect(JSON.parse(w.text(LOG))).toEqual({ at: '2025-11-29T12:00:00.000Z', event: 'turn-end-compact', percent: 90 })
  await w.clock.advance(1499)
  expect(raised).toEqual([])
  await w.clock.advance(1)
  // In the kit a plugin's `$.session.compact()` reaches the test's hook as
  // called, with no argument: the engine fills `trigger` in a real session.
  expect(raised).toEqual([{ event: 'session.compact', e: {} }])
})

test('when the compaction is refused (a headless host) a /compact command is queued instead', async ($, on) => {
  const w = world(on)
  usage(on, NEAR)
  const raised = engine(on, () => {
    throw new Error('$.session.compact: a turn is running (t2)')
  })

  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.advance(1500)
  expect(raised.map((r) => r.event)).toEqual(['session.compact', 'command.run'])
  expect(raised[1]?.e).toMatchObject({ command: 'compact', origin: { kind: 'plugin', name: 'compact-plus' } })
})

test('far from the threshold nothing happens after the answer', async ($, on) => {
  const w = world(on)
  const asked = usage(on, FAR)
  const raised = engine(on)

  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.advance(5000)
  expect(asked.length).toBeGreaterThan(0)
  expect(raised).toEqual([])
  expect(w.ops('write')).toEqual([])
})

test('a subagent\'s turn never compacts the main conversation', async ($, on) => {
  const w = world(on)
  const asked = usage(on, NEAR)
  const raised = engine(on)

  expect(await $.turn.complete({ ...TURN, agentId: 'agent-7' })).toEqual({ text: 'Done.' })
  await w.clock.advance(5000)
  expect(asked).toEqual([])
  expect(raised).toEqual([])
})

test('turnEndPercent 0 turns the turn-end compaction off', { options: { turnEndPercent: 0 } }, async ($, on) => {
  const w = world(on)
  const asked = usage(on, NEAR)
  const raised = engine(on)

  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.advance(5000)
  expect(asked).toEqual([])
  expect(raised).toEqual([])
  expect(w.calls).toEqual([])
})
