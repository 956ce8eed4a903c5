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

/**
 * The engine beneath: a queued command resolves only once it has run (measured
 * on Claude Code 2.1.328, terminal and headless: `$.command.run` settles after
 * the queued `/compact` compacted), so `command.run` here waits for `ran`, which
 * the test gives once it has run the compaction itself. `queue` throws for a
 * command that cannot be queued.
 */
function engine(on: On, ran: Promise<void> = Promise.resolve(), queue: () => void = () => {}) {
  const raised: { event: string; e: any }[] = []
  on('turn.complete', (_$, e) => ({ text: e.answer }))
  on('session.compact', (_$, e): SessionCompactResult => {
    raised.push({ event: 'session.compact', e })
    return { messages: [{ role: 'user', text: 'The summary.', toolUses: [] }] }
  })
  on('command.run', async (_$, e) => {
    raised.push({ event: 'command.run', e })
    queue()
    await ran
    return {}
  })
  return raised
}

const MESSAGES = [
  { role: 'user' as const, text: 'Please finish the KIWI parser', toolUses: [] },
  { role: 'assistant' as const, text: 'Done with the KIWI parser.', toolUses: [] },
]

test('near the threshold the answer passes unchanged and a /compact of ours is queued 1500 ms after the turn', async ($, on) => {
  const w = world(on)
  const asked = usage(on, NEAR)
  let ran = () => {}
  const raised = engine(on, new Promise<void>((r) => (ran = r)))

  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.settle()
  expect(asked).toEqual([undefined, 'summary'])
  expect(JSON.parse(w.text(LOG))).toEqual({ at: '2025-11-29T12:00:00.000Z', event: 'turn-end-compact', percent: 90 })
  await w.clock.advance(1499)
  expect(raised).toEqual([])
  await w.clock.advance(1)
  // Never `$.session.compact()`: in the terminal it would skip our own hook.
  expect(raised.map((r) => r.event)).toEqual(['command.run'])
  const queued = raised[0]?.e
  expect(queued).toMatchObject({ command: 'compact', origin: { kind: 'plugin', name: 'compact-plus' } })
  // Words and the time it was queued (issue [13] item 13), not an internal token.
  expect(queued.args).toBe("compact-plus: compacting between turns, the context is near the auto-compact threshold (queued at 12:00:01 UTC)")

  // The engine runs it when idle: our session.compact, trigger manual, the args as instructions.
  await $.session.compact({ trigger: 'manual', instructions: queued.args, messages: MESSAGES })
  ran()
  const down = raised[1]?.e
  expect(down.instructions.startsWith('From the compact-plus mod:')).toBe(true)
  expect(down.instructions.includes('compacting between turns')).toBe(false)
  await w.clock.settle()
  const lines = w.text(LOG).trim().split('\n').map((l) => JSON.parse(l))
  expect(lines.map((l) => [l.event, l.trigger])).toEqual([['turn-end-compact', undefined], ['compact', 'turn-end']])
  expect(w.ops('write').some((c) => c.path?.endsWith('-turn-end.md'))).toBe(true)
})

test('a /compact that cannot be queued re-arms and says why in the log', async ($, on) => {
  const w = world(on)
  usage(on, NEAR)
  const raised = engine(on, Promise.resolve(), () => {
    throw new Error('$.command.run: past a Stop')
  })

  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.advance(1500)
  await w.clock.settle()
  expect(raised.map((r) => r.event)).toEqual(['command.run'])
  const lines = w.text(LOG).trim().split('\n').map((l) => JSON.parse(l))
  expect(lines.map((l) => l.event)).toEqual(['turn-end-compact', 'turn-end-compact-failed'])
  // The kit reports the refusal in its own words ("no implementation for command.run").
  expect(String(lines[1].error ?? '').length).toBeGreaterThan(0)
  // Re-armed: the next answer near the threshold tries again.
  expect(await $.turn.complete(TURN)).toEqual({ text: 'Done.' })
  await w.clock.advance(1500)
  await w.clock.settle()
  expect(raised.map((r) => r.event)).toEqual(['command.run', 'command.run'])
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
