// The shim's promises 1 and 2 (js/compact-plus.js, its header): `next` is called at most once per
// hook, and a hook that called it returns what it gave; an error reaches the engine only when it is
// `next`'s own rejection, passed up as it came, and every other failure lets the engine's result
// through. The real shim and the real core (pkg/), against the fake host (./fake-host.mjs).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { isDeepStrictEqual } from 'node:util'
import { register } from '../../js/compact-plus.js'
import { withShim, HANDOFF_HEAD, VERBATIM_OPEN, POINTER_HEAD, count } from './fake-host.mjs'

const shim = (opts, options) => withShim(register, opts, options)

/** Design-8: compact-plus never calls `$.session.compact()` (the terminal skips its own hook). */
function neverCompactsItself(host) {
  assert.equal(host.callsOf('session.compact').length, 0, '$.session.compact was called')
}

test('session.compact calls next once, with the handoff after the person\'s words, and returns the engine\'s compaction as it came', async () => {
  const host = shim({ mode: 'tui' })
  const out = await host.compact({ trigger: 'manual', instructions: 'keep the parser details' })
  assert.equal(out.hookError, undefined)
  assert.equal(out.nexts, 1)
  assert.deepEqual(out.value, out.below)
  const asked = host.requests.filter((r) => r.kind === 'summarizer')
  assert.equal(asked.length, 1)
  assert.ok(asked[0].instructions.startsWith(`keep the parser details\n\n${HANDOFF_HEAD}`), asked[0].instructions)
  await host.settle()
  neverCompactsItself(host)
})

test('every hook of a headless session calls next once and returns what next gave', async () => {
  const host = shim({ mode: 'headless' })
  await host.prompt('turn one: the parser fails on nested lists')
  await host.compact({ trigger: 'manual' })
  await host.prompt('turn two: go on')
  await host.settle()
  const events = host.outcomes.map((o) => o.event)
  // The headless order [probe §5]: prompt.context, turn.complete, session.compact, the two
  // compaction rows, then the next request's prompt.context and turn.complete.
  assert.deepEqual(events, ['prompt.context', 'turn.complete', 'session.compact', 'session.append', 'session.append', 'prompt.context', 'turn.complete'])
  for (const o of host.outcomes) {
    assert.equal(o.hookError, undefined, `${o.event}: ${o.hookError}`)
    assert.equal(o.nexts, 1, `${o.event} called next ${o.nexts} times`)
    assert.deepEqual(o.value, o.below, `${o.event} returned something else than next gave`)
  }
  // The summary row is what carried the blocks here: what next gave is the row with them appended.
  const summaryRow = host.outcomes[4]
  assert.equal(count(summaryRow.value.message.content.map((c) => c.text).join('\n'), VERBATIM_OPEN), 1)
  neverCompactsItself(host)
})

test('a terminal prompt.context after /compact returns next\'s result with the compact-plus block added last', async () => {
  const host = shim({ mode: 'tui' })
  await host.compact({ trigger: 'manual' })
  const out = await host.promptContext()
  assert.equal(out.nexts, 1)
  assert.deepEqual(out.value.instructionFiles, out.below.instructionFiles)
  assert.deepEqual(out.value.blocks.slice(0, -1), out.below.blocks, 'the engine\'s blocks first, as they came')
  assert.equal(out.value.blocks.at(-1).name, 'compact-plus')
  neverCompactsItself(host)
})

test('a $ call failing after next was called: the hook still returns what next gave, and the failure costs what depended on it', async () => {
  const host = shim({ mode: 'tui' })
  host.fault('fs.write', { reject: new Error('ENOSPC: no space left on device') }, (path) => path.endsWith('.md'), Infinity)
  const out = await host.compact({ trigger: 'manual' })
  assert.equal(out.hookError, undefined)
  assert.equal(out.nexts, 1)
  assert.deepEqual(out.value, out.below)
  assert.ok(host.debugLines('was not written: ENOSPC').length >= 1, host.debug.join('\n'))
  // No history file, so no pointer to one; the verbatim block still comes.
  const context = await host.promptContext()
  const block = context.value.blocks.find((b) => b.name === 'compact-plus')?.text ?? ''
  assert.equal(count(block, VERBATIM_OPEN), 1)
  assert.equal(count(block, POINTER_HEAD), 0)
  neverCompactsItself(host)
})

test('session.compact\'s next rejecting with the rescue off: that same error object passes up, the summarizer is not asked again, nothing is counted or pending', async () => {
  const host = shim({ mode: 'tui' }, { rescue: false })
  // Measured headless: an `auto` compaction whose summarize set had no assistant message made
  // `next(e)` reject in the mod's hook, and the rejection passes up [probe §4].
  const bailed = new Error('Reactive compact: no assistant messages in summarize set, bailing')
  host.summarizer.reject = bailed
  const out = await host.compact({ trigger: 'auto' })
  assert.equal(out.hookError, bailed, 'the hook rejected with another error than next\'s')
  assert.equal(out.nexts, 1)
  assert.equal(out.failed, bailed, 'the .catch handler\'s replayed next passes it up too')
  assert.equal(host.requests.filter((r) => r.kind === 'summarizer').length, 1)
  await host.settle()
  assert.equal(host.logLines().filter((l) => l.event === 'compact').length, 0)
  host.summarizer.reject = null
  const context = await host.promptContext()
  assert.equal(context.value.blocks.filter((b) => b.name === 'compact-plus').length, 0)
  neverCompactsItself(host)
})

test('prompt.context\'s, turn.complete\'s and session.append\'s own next rejecting pass up as they came', async () => {
  const host = shim({ mode: 'headless' })
  for (const [event, e] of [
    ['prompt.context', host.engineContext()],
    ['turn.complete', { answer: 'hi', durationMs: 5, isAborted: false, turnId: 't1', reason: 'answer' }],
    ['session.append', { message: { type: 'user', role: 'user', content: [{ type: 'text', text: 'row' }] }, door: 'compaction', origin: { kind: 'engine' }, uuid: 'u1' }],
  ]) {
    let thrown
    const below = () => {
      thrown = new Error(`${event} refused below`)
      return Promise.reject(thrown)
    }
    const out = await host.fire(event, e, below)
    assert.ok(thrown, `${event} never called next`)
    assert.equal(out.hookError, thrown, `${event}: ${out.hookError}`)
    assert.equal(out.nexts, 1)
  }
  neverCompactsItself(host)
})

test('session.append with blocks waiting: its next (the blocks appended) rejecting passes up as it came', async () => {
  const host = shim({ mode: 'tui' })
  await host.compact({ trigger: 'manual' }) // the terminal: the blocks wait for a channel
  let thrown
  let down
  const out = await host.fire('session.append', { message: { type: 'user', role: 'user', content: [{ type: 'text', text: 'This session is being continued' }] }, door: 'compaction', origin: { kind: 'engine' }, uuid: 'u2' }, (d) => {
    down = d
    thrown = new Error('the transcript could not be written')
    return Promise.reject(thrown)
  })
  assert.equal(count(down.message.content.map((c) => c.text).join('\n'), VERBATIM_OPEN), 1, 'next got the blocks')
  assert.equal(out.hookError, thrown)
  assert.equal(out.nexts, 1)
  neverCompactsItself(host)
})

test('with every $ call failing, no error reaches the engine: each hook lets the engine\'s result through', async () => {
  const host = shim({ mode: 'headless' })
  const broken = new Error('the host is not answering')
  for (const op of ['env.get', 'session.id', 'session.usage', 'clock.now', 'fs.exists', 'fs.read', 'fs.write', 'fs.list', 'fs.stat', 'process.run', 'command.run']) {
    host.fault(op, { reject: broken }, () => true, Infinity)
  }
  host.instructionFiles = [{ path: '/tmp/proj/CLAUDE.md', kind: 'project', content: '# Project\n' }]
  await host.tools()
  await host.prompt('turn one', { tokens: 63_000 })
  await host.compact({ trigger: 'manual', instructions: 'keep KIWI' })
  await host.prompt('turn two', { tokens: 63_000 })
  await host.settle()
  assert.ok(host.outcomes.length >= 8, host.outcomes.map((o) => o.event).join(' '))
  for (const o of host.outcomes) {
    assert.equal(o.hookError, undefined, `${o.event} let an error through: ${o.hookError}`)
    assert.equal(o.failed, undefined)
    assert.ok(o.nexts <= 1, `${o.event} called next ${o.nexts} times`)
    // The tool list alone gains the recall tool; every other result is the engine's own.
    if (o.event === 'tool.list') assert.deepEqual(o.value.value.slice(0, -1), o.below.value)
    else assert.deepEqual(o.value, o.below, `${o.event} changed the engine's result`)
  }
  neverCompactsItself(host)
})

test('every registration has a .catch, and each answers as the engine needs it: what next gave when it was called, else next(e) once', async () => {
  const host = shim({ mode: 'tui' })
  const events = host.hooks.map((h) => h.event)
  assert.deepEqual(events.sort(), ['command.run', 'prompt.context', 'session.append', 'session.append', 'session.compact', 'session.end', 'tool.call', 'tool.list', 'turn.complete'])
  for (const reg of host.hooks) {
    assert.equal(typeof reg.catch, 'function', `${reg.event} has no .catch`)
    if (reg.event === 'command.run') {
      // Our own command, answered without next: a failure is the person's line, and no command runs
      // beneath (none does: the engine has no run of its own for a registered name) [d16]. Any
      // other command is the engine's, as below.
      const answer = await reg.catch(host.$, { command: 'pin' }, Object.assign(() => assert.fail('next'), { called: false }))
      assert.deepEqual(answer, { text: '/pin failed', isTextDisplayOnly: true })
    }
    if (reg.event === 'tool.call') {
      // The recall tool's own answer: a failed search is the tool's result, never the session's.
      assert.match(String((await reg.catch(host.$, {}, Object.assign(() => assert.fail('next'), { called: false }))).result), /^recall:/)
      continue
    }
    const given = { from: 'next', event: reg.event }
    let calls = 0
    const replay = Object.assign(async () => (calls++, given), { event: reg.event, called: true, error: { kind: 'throw', message: 'x', budget: 10000 } })
    assert.equal(await reg.catch(host.$, { e: 1, command: 'compact' }, replay), given)
    assert.equal(calls, 1)
    let down
    const fresh = Object.assign(async (d) => ((down = d), given), { event: reg.event, called: false, error: { kind: 'timeout', budget: 10000 } })
    assert.equal(await reg.catch(host.$, { e: 2, command: 'compact' }, fresh), given)
    assert.deepEqual(down, { e: 2, command: 'compact' })
  }
})

test('options turn hooks off as documented: recallTool false lists no tool and serves no tool.call', async () => {
  const host = shim({ mode: 'tui' }, { recallTool: false })
  // tool.list stays hooked: it is the session's first hook, where the compile starts.
  assert.deepEqual(host.hooks.map((h) => h.event).sort(), ['command.run', 'prompt.context', 'session.append', 'session.append', 'session.compact', 'session.end', 'tool.list', 'turn.complete'])
  const listed = await host.tools()
  assert.deepEqual(listed.value, listed.below)
})

// The engine's wording when its summarizer answers 500 after its retries [e2e-kit failures/README.md §1].
const FAILED_500 = 'Error during compaction: API Error: 500 Internal server error. This is a server-side issue, usually temporary'
const FAILED_PTL = 'Compaction failed · conversation could not be reduced below the context limit'
const RESCUED = '[compact-plus wrote this summary'

for (const mode of ['headless', 'tui']) {
  test(`${mode}: session.compact's next rejecting: compact-plus answers a compaction of its own, once, and the blocks come in its row`, async () => {
    const host = shim({ mode })
    await host.prompt('turn one: the parser fails on nested lists')
    await host.prompt('turn two: keep the old API')
    const given = host.conversation
    host.summarizer.reject = new Error(FAILED_500)
    const out = await host.compact({ trigger: 'manual' })
    assert.equal(out.hookError, undefined, String(out.hookError))
    assert.equal(out.nexts, 1, 'next once, never again')
    assert.equal(host.requests.filter((r) => r.kind === 'summarizer').length, 1)
    const [row, ...kept] = out.value.messages
    assert.equal(row.role, 'user')
    assert.equal(row.handle, undefined)
    assert.ok(row.text.startsWith(RESCUED), row.text)
    assert.equal(count(row.text, POINTER_HEAD), 1)
    // Kept messages are the newest of the event's, built from their role, text and tool blocks,
    // without their handle: kept by handle, --resume showed each reply once per rescue
    // (issue [13] item 4, tests/HOST.md "What --resume rebuilds after a hook's compaction").
    assert.ok(kept.length > 0)
    const tail = given.slice(given.length - kept.length)
    for (const [i, m] of kept.entries()) {
      assert.equal(m.handle, undefined, 'a kept message goes up without its handle')
      const { role, text, toolUses, toolResults } = tail[i]
      assert.deepEqual(m, { role, text, toolUses, ...(toolResults && { toolResults }) })
    }
    assert.equal(host.callsOf('model.complete').length, 1, 'tier 1 tried')
    await host.settle()
    const lines = host.logLines().filter((l) => l.event === 'rescue')
    assert.equal(lines.length, 1)
    assert.equal(lines[0].tier, 2)
    // Nothing else carries our blocks afterwards: the row has them, once.
    host.summarizer.reject = null
    const context = await host.promptContext()
    assert.equal(context.value.blocks.filter((b) => b.name === 'compact-plus').length, 0)
    for (const r of host.rows) if (r !== host.rows.at(-1)) assert.equal(count(JSON.stringify(r), POINTER_HEAD), 0)
    neverCompactsItself(host)
  })
}

test('the rescue model\'s summary stands as tier 1, through $.model.complete with a timeout', async () => {
  const host = shim({ mode: 'headless' }, { rescueModel: 'claude-haiku-4-5' })
  await host.prompt('turn one: the parser fails on nested lists')
  host.summarizer.reject = new Error(FAILED_PTL)
  host.completions.push({ isAnswered: true, text: '## Decisions\n- keep the old API because callers depend on it\n## Open Questions\n- No open questions.', usage: {} })
  const out = await host.compact({ trigger: 'manual' })
  const row = out.value.messages[0].text
  assert.ok(row.includes('summarized by the rescue model') && row.includes('keep the old API because'), row)
  const [ask, options] = host.callsOf('model.complete')[0].args
  assert.equal(ask.model, 'claude-haiku-4-5')
  assert.ok(ask.timeoutMs > 0 && ask.maxTokens > 0)
  assert.ok(options?.signal, 'next.signal passed to the completion')
  await host.settle()
  assert.equal(host.logLines().find((l) => l.event === 'rescue').tier, 1)
})

test('a resolved next is the hook\'s result even if the core asked for its own compaction', async () => {
  const host = shim({ mode: 'headless' })
  const out = await host.compact({ trigger: 'manual' })
  assert.deepEqual(out.value, out.below)
  assert.equal(host.callsOf('model.complete').length, 0)
})

test('after a prompt too long, the next compaction cuts the largest old tool result on the way down and keeps every other message with its handle', async () => {
  const host = shim({ mode: 'headless' })
  await host.prompt('turn one: the parser fails on nested lists')
  // The engine's summarizer refused once as too long [e2e-kit failures/README.md §1]: the rescue answers.
  host.summarizer.reject = new Error(FAILED_PTL)
  await host.compact({ trigger: 'manual' })
  host.summarizer.reject = null
  // A tool loop with a large old result, then the newest round.
  const big = '1\n'.repeat(60_000)
  const id = 'toolu_01'
  host.conversation.push(
    { role: 'user', text: 'run the tests', toolUses: [], handle: 'p1' },
    { role: 'assistant', text: '', toolUses: [{ tool_use_id: id, tool: 'Bash', input: { command: 'seq 1 60000' }, text: big }], handle: 'a1' },
    { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: id, text: big, isError: false }], handle: 'r1' },
    { role: 'assistant', text: 'Done.', toolUses: [], handle: 'a2' },
    { role: 'user', text: 'now fix it', toolUses: [], handle: 'p2' },
  )
  const given = host.conversation
  const out = await host.compact({ trigger: 'manual' })
  assert.equal(out.hookError, undefined, String(out.hookError))
  const down = host.requests.filter((r) => r.kind === 'summarizer').at(-1).down
  assert.equal(down.length, given.length)
  const cut = down.filter((m, i) => !isDeepStrictEqual(m, given[i]))
  assert.equal(cut.length, 1, 'one message changed')
  const [m] = cut
  assert.equal(m.handle, undefined, 'a changed message goes down without its handle')
  assert.equal(m.role, 'user')
  assert.equal(m.toolResults[0].tool_use_id, id)
  assert.ok(m.toolResults[0].text.length < 1_200 && m.toolResults[0].text.startsWith('1\n1\n'), m.toolResults[0].text.slice(0, 80))
  // Every other message is the engine's own object, handle and all; the newest untouched.
  for (const [i, g] of given.entries()) if (g.handle !== 'r1') assert.deepEqual(down[i], g)
  await host.settle()
})

test('with no prompt too long and the context under the window, the summarizer gets the event\'s messages as they came', async () => {
  const host = shim({ mode: 'headless' })
  await host.prompt('turn one', { tokens: 30_000 })
  host.conversation.push({ role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 't', text: 'x'.repeat(100_000), isError: false }], handle: 'r1' })
  const given = host.conversation
  await host.compact({ trigger: 'manual' })
  const down = host.requests.filter((r) => r.kind === 'summarizer').at(-1).down
  assert.deepEqual(down, given, 'no message changed')
  await host.settle()
})
