// Hooks in flight at once, each with its own machine in the one core instance: the engine raises
// prompt.context and turn.complete while a compaction's summarizer is still at work (the clock of
// a hook stands still while its `next` is in flight [api C.6]; each dispatch is a worker hop of its
// own [probe §3]). Each must get its own answers back, whatever order they come in.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim, gate, VERBATIM_OPEN, count } from './fake-host.mjs'

const CLAUDE_MD = '/tmp/proj/CLAUDE.md'

test('a session.compact suspended on next while a prompt.context and a turn.complete run to their end: each gets its own answers', async () => {
  const host = withShim(register, { mode: 'tui' })
  // The engine read CLAUDE.md at the session's start; it was edited on disk since, so its copy is
  // older than the disk's: prompt.context refreshes it from its own read answer.
  host.instructionFiles = [{ path: CLAUDE_MD, kind: 'project', content: '# Project\n\nAlways answer briefly.\n' }]
  host.addFile(CLAUDE_MD, '# Project\n\nAlways answer briefly.\n')
  await host.promptContext()
  host.addFile(CLAUDE_MD, '# Project\n\nAlways answer briefly. EDITED-ON-DISK-7007.\n')
  host.summarizer.hold = gate()

  const started = host.outcomes.length
  const compaction = host.compact({ trigger: 'manual', instructions: 'keep KIWI' })
  await host.settle() // the summary request is out; the hook waits on next's result
  assert.equal(host.requests.filter((r) => r.kind === 'summarizer').length, 1)
  const sc = host.outcomes[started]
  assert.equal(sc.value, undefined, 'session.compact ended before its next answered')

  const context = await host.promptContext()
  const turn = await host.turnComplete('answered meanwhile')
  await host.settle()
  assert.equal(sc.value, undefined, 'session.compact ended before its next answered')

  // prompt.context: the engine's blocks, its own file refreshed from its own read.
  assert.equal(context.hookError, undefined)
  assert.deepEqual(context.value.blocks, context.below.blocks)
  assert.equal(context.value.instructionFiles[0].content, '# Project\n\nAlways answer briefly. EDITED-ON-DISK-7007.\n')
  assert.ok(!JSON.stringify(context.value).includes('KIWI-3003'), 'the compaction\'s texts reached prompt.context')
  // turn.complete: the engine's result; its turn-end check read usage (no tokens yet: not near).
  assert.deepEqual(turn.value, { text: 'answered meanwhile' })
  assert.ok(host.callsOf('session.usage').length >= 1)

  host.summarizer.hold.open()
  const out = await compaction
  await host.settle()
  assert.equal(out.hookError, undefined)
  assert.deepEqual(out.value, out.below, 'session.compact returned something else than its next gave')
  // Its own answers: the history is the conversation's, not the instruction file's.
  const [file] = host.historyFiles()
  const history = host.file(file)
  assert.ok(history.includes('KIWI-3003') && history.includes('PROBE-OUTPUT-123'))
  assert.ok(!history.includes('EDITED-ON-DISK-7007'))
  const log = host.logLines().map((l) => l.event)
  assert.deepEqual(log.sort(), ['compact', 'instructions-refreshed'])
  // Its blocks were made after its next resolved: they wait for the next request, once.
  const after = await host.promptContext()
  const block = after.value.blocks.find((b) => b.name === 'compact-plus')?.text ?? ''
  assert.equal(count(block, VERBATIM_OPEN), 1)
  assert.ok(block.includes('remember KIWI-3003'))
  assert.ok(!block.includes('EDITED-ON-DISK'))
})

test('two prompt.context hooks suspended on their next, answered in the other order: each returns its own files', async () => {
  const host = withShim(register, { mode: 'tui' })
  const a = '/tmp/a/CLAUDE.md'
  const b = '/tmp/b/CLAUDE.md'
  // The engine read both at the session's start, as 'old'; both were edited on disk since.
  host.addFile(a, 'old\n')
  host.addFile(b, 'old\n')
  const files = [a, b].map((path) => ({ path, kind: 'project', content: 'old\n' }))
  await host.fire('prompt.context', { blocks: [], instructionFiles: files }, (d) => ({ blocks: d.blocks, instructionFiles: d.instructionFiles }))
  host.addFile(a, 'disk A\n')
  host.addFile(b, 'disk B\n')
  const ga = gate()
  const gb = gate()
  const fire = (path, g) =>
    host.fire('prompt.context', { blocks: [], instructionFiles: [{ path, kind: 'project', content: 'old\n' }] }, async (d) => {
      await g.wait()
      return { blocks: d.blocks, instructionFiles: d.instructionFiles, originMarkedPaths: [] }
    })
  const first = fire(a, ga)
  const second = fire(b, gb)
  await host.settle()
  gb.open()
  const outB = await second
  ga.open()
  const outA = await first
  assert.deepEqual(outA.value.instructionFiles, [{ path: a, kind: 'project', content: 'disk A\n' }])
  assert.deepEqual(outB.value.instructionFiles, [{ path: b, kind: 'project', content: 'disk B\n' }])
  assert.equal(outA.nexts + outB.nexts, 2)
})

test('a turn.complete and a session.compact whose $ answers are held and released in the other order each finish their own work', async () => {
  const host = withShim(register, { mode: 'headless' })
  host.contextTokens = 1_000
  const usage = host.hold('session.usage')
  const turn = host.turnComplete()
  await host.settle() // turn.complete answered; its turn-end job waits on usage
  const compaction = host.compact({ trigger: 'manual' })
  const out = await compaction // the compaction runs to its end while the job waits
  assert.equal(out.hookError, undefined)
  assert.equal(host.logLines().filter((l) => l.event === 'compact').length, 1)
  usage.open()
  await turn
  await host.settle()
  // The job got its own usage answer (not near: re-armed, nothing queued) and asked nothing of the
  // compaction's; the compaction's blocks went on its own summary row.
  assert.equal(host.callsOf('command.run').length, 0)
  const row = host.outcomes.filter((o) => o.event === 'session.append').at(-1)
  assert.equal(count(row.value.message.content.map((c) => c.text).join('\n'), VERBATIM_OPEN), 1)
  assert.equal(host.debugLines('lost').length + host.debugLines('failed open').length, 0, host.debug.join('\n'))
})
