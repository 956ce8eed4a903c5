// A session's start-up through the shim: the recall tool joins the tool list by the `tool.list`
// hook, with no MCP server (`$.tool.register` made the first turn wait for one, 240–700 ms:
// tests/HOST.md), and the compile starts there, at load, so the first prompt's `prompt.context`
// finds the module ready. The fake host raises `tool.list` as the engine does (fake-host.mjs
// `tools()`, d.ts `ToolInfo`).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RECALL_TOOL } from '../../pkg/compact_plus.js'
import { FakeHost, ENGINE_TOOLS, hop, gate, coreModule, VERBATIM_OPEN } from './fake-host.mjs'
import { NEXT_FIRST } from '../../pkg/compact_plus.js'

// The shim compiles once per module load, so each test loads a copy of its own (as
// compile-wait.test.mjs does: a query string makes a new module record).
let copies = 0
async function withShim(opts = {}, options = {}) {
  const { register } = await import(`../../js/compact-plus.js?start-up=${++copies}`)
  const host = new FakeHost(opts)
  register(host.on, options)
  return host
}

test('tool.list: the engine\'s tools as they were, and the recall tool once, a tool of the hook\'s own', async () => {
  const host = await withShim()
  const first = await host.tools()
  assert.equal(first.nexts, 1)
  assert.deepEqual(first.value.value.slice(0, ENGINE_TOOLS.length), ENGINE_TOOLS)
  const added = first.value.value.slice(ENGINE_TOOLS.length)
  assert.equal(added.length, 1)
  assert.equal(added[0].name, 'compact_plus_recall')
  // `mcp: false` and no `mcp__` name: the engine refuses an added entry with one (d.ts ToolInfo).
  assert.equal(added[0].mcp, false)
  assert.ok(!added[0].name.startsWith('mcp__'))
  assert.ok(added[0].description.length > 100 && added[0].description.length < 4096)
  assert.equal(added[0].inputSchema.type, 'object')
  assert.deepEqual(host.callsOf('tool.register'), [], 'no MCP server registered')
  // Raised again (a setting changed), the list that comes down already holds ours: still once.
  const again = await host.tools(first.value.value)
  assert.equal(again.value.value.filter((t) => t.name === RECALL_TOOL.name).length, 1)
})

test('the tool the list names is the one the tool.call hook serves', async () => {
  const host = await withShim()
  assert.deepEqual(host.hooks.find((h) => h.event === 'tool.call')?.matcher, { tool: RECALL_TOOL.name })
  await host.tools()
  const out = await host.fire('tool.call', { tool: RECALL_TOOL.name, query: 'zebra' }, () => assert.fail('next'))
  assert.match(String(out.value?.result), /^recall: nothing has been saved/)
})

test('the compile starts at tool.list, the first hook, and the first prompt.context finds the module ready', async () => {
  const host = await withShim()
  await host.tools()
  assert.equal(host.callsOf('wasm.compile').length, 1)
  for (let i = 0; i < 5; i++) await hop()
  await host.prompt('the first prompt')
  assert.equal(host.callsOf('wasm.compile').length, 1, 'compiled once')
  assert.ok(!host.debug.some((l) => /not ready/.test(l)), host.debug.join('\n'))
})

test('recallTool false: the list is the engine\'s own, the compile still starts there', async () => {
  const host = await withShim({}, { recallTool: false })
  const listed = await host.tools()
  assert.deepEqual(listed.value, listed.below)
  assert.equal(host.callsOf('wasm.compile').length, 1)
  assert.equal(host.registration('tool.call', { tool: RECALL_TOOL.name }), undefined)
})

test('a tool.list whose next rejects passes the rejection up untouched (the engine\'s to answer)', async () => {
  const host = await withShim()
  const refused = new Error('no tools')
  const out = await host.fire('tool.list', {}, () => Promise.reject(refused))
  assert.equal(out.nexts, 1)
  assert.ok(out.failed === refused || out.hookError === refused, JSON.stringify(out))
})

test('prompt.context and turn.complete start the engine\'s next before the module is there, and the core goes on from its answer', async () => {
  assert.deepEqual([...NEXT_FIRST].sort(), ['prompt.context', 'turn.complete'])
  const compiled = gate()
  const host = await withShim({ compile: () => compiled.wait() })
  const context = host.promptContext()
  await host.settle()
  // The engine computes its blocks while the module compiles: before, next waited for it.
  assert.equal(host.nexts.filter((n) => n.event === 'prompt.context').length, 1, 'next did not start before the compile settled')
  compiled.open(await coreModule())
  const out = await context
  assert.equal(out.nexts, 1, 'next once')
  assert.equal(out.hookError, undefined)
  assert.deepEqual(out.value.blocks, out.below.blocks)
  // turn.complete alike: its answer is the engine's as soon as the engine has it.
  const late = gate()
  const other = await withShim({ compile: () => late.wait() })
  const turn = other.fire('turn.complete', { reason: 'answer', answer: 'Done.', isAborted: false, durationMs: 5, turnId: 't1' }, () => ({ text: 'Done.' }))
  await other.settle()
  assert.equal(other.nexts.filter((n) => n.event === 'turn.complete').length, 1)
  late.open(await coreModule())
  const t = await turn
  assert.equal(t.nexts, 1)
  assert.deepEqual(t.value, { text: 'Done.' })
})

test('a compaction\'s blocks still reach the next prompt.context whose next started early, once', async () => {
  const host = await withShim({ mode: 'tui' })
  await host.tools()
  await host.prompt('turn one: remember KIWI-3003')
  await host.compact({ trigger: 'manual' })
  const out = await host.promptContext()
  assert.equal(out.nexts, 1)
  const text = JSON.stringify(out.value.blocks)
  assert.equal(text.split(VERBATIM_OPEN).length - 1, 1, text.slice(0, 300))
})

test('an early next that rejects passes its very error up, once, whether or not the module came', async () => {
  for (const compile of ['never', 'file']) {
    const host = await withShim(compile === 'never' ? { compile: 'never' } : {})
    const refused = new Error('the engine could not compute its blocks')
    const pending = host.fire('prompt.context', { blocks: [] }, () => Promise.reject(refused))
    await host.settle()
    if (compile === 'never') await host.advance(5000)
    const out = await pending
    assert.equal(out.nexts, 1, compile)
    assert.ok(out.failed === refused || out.hookError === refused, `${compile}: ${out.failed ?? out.hookError}`)
  }
})
