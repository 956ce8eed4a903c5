// The recall tool: added to the session's tools at tool.list, answered at tool.call from
// this session's history files, searched by the recall wasm module.

import { test, expect } from 'claude-code/testing'
import type { On } from 'claude-code'
import { world, DIR, LOG } from './world.ts'
import { RECALL_TOOL } from '../../pkg/compact_plus.js'

const TOOL = 'compact_plus_recall'
const START = { surface: 'terminal' as const, isInteractive: true, cwd: '/work/app' }
const PART = `${DIR}/2025-11-29T120000Z-manual.md`
const HISTORY = [
  '# Conversation before compaction',
  '',
  'Session sess-1, compacted 2025-11-29T12:00:00.000Z (manual), 4 messages. Written by the compact-plus mod.',
  '',
  '## [2] assistant',
  '',
  'Looking at the parser.',
  '',
  '## [3] user',
  '',
  'the build id is zebra-4417, keep it',
  '',
].join('\n')

// `tool.register` is there to catch a call compact-plus must not make: an MCP server the first
// turn would wait for. The tool joins through the shim's `tool.list` hook, which the kit's `$` does
// not raise (it carries the engine's events, not `tool.list`): tests/shim/start-up.test.mjs and the
// real CLI (tests/tui/first-prompt.test.mjs, tests/e2e/recall.test.mjs) test that.
function engine(on: On) {
  const registered: Record<string, unknown>[] = []
  on('session.start', () => ({ cwd: '/work/app' }))
  on('tool.register', (_$, e) => {
    registered.push(e as Record<string, unknown>)
    return { value: { tool: `mcp__compact-plus__${e.name}` } }
  })
  return registered
}

const answer = (r: unknown) => (r as { result?: unknown }).result

test('the recall tool is no MCP server: session.start registers nothing, and its tool.call is served', async ($, on) => {
  world(on)
  const registered = engine(on)
  expect(await $.session.start(START)).toEqual({ cwd: '/work/app' })
  expect(registered).toEqual([])
  expect(answer(await $.tool.call({ tool: TOOL, query: 'zebra' }))).toStartWith('recall: nothing has been saved')
  const spec = RECALL_TOOL as { name: string; description: string; mcp: boolean; inputSchema: { type: string; required?: string[]; properties: Record<string, unknown> } }
  expect(spec.name).toBe(TOOL)
  expect(spec.mcp).toBe(false)
  expect(spec.description.length).toBeGreaterThan(100)
  expect(spec.description.length).toBeLessThanOrEqual(4096)
  expect(spec.inputSchema.type).toBe('object')
  // No field is required: a call with no query lists the project's earlier sessions.
  expect(spec.inputSchema.required).toBeUndefined()
  expect(Object.keys(spec.inputSchema.properties)).toEqual(expect.arrayContaining(['query', 'scope', 'session', 'message', 'offset']))
})

test('recallTool: false lists nothing and serves no tool', { options: { recallTool: false } }, async ($, on) => {
  world(on)
  const registered = engine(on)
  expect(await $.session.start(START)).toEqual({ cwd: '/work/app' })
  expect(registered).toEqual([])
  await expect($.tool.call({ tool: TOOL, query: 'zebra' })).rejects.toThrow('no implementation for tool.call')
})

test('a call finds a string in the saved history, with its message number', async ($, on) => {
  const w = world(on, { [PART]: HISTORY, [LOG]: '{"event":"compact","note":"zebra-4417 in the log"}\n' })
  engine(on)
  await $.session.start(START)

  const r = answer(await $.tool.call({ tool: TOOL, query: 'zebra-4417' }))

  expect(typeof r).toBe('string')
  expect(r).toContain('zebra-4417, keep it')
  expect(r).toContain('[3] user')
  expect(w.ops('list').map((c) => c.path)).toEqual([DIR])
  // The log is no history: never read for a search.
  expect(w.ops('read').map((c) => c.path)).toEqual([PART])
})

test('with no history saved the answer says so', async ($, on) => {
  world(on)
  engine(on)
  await $.session.start(START)
  const r = answer(await $.tool.call({ tool: TOOL, query: 'zebra-4417' }))
  expect(r).toStartWith('recall: nothing has been saved in this session yet')
})

test('a pattern that does not parse is answered in words, not an error', async ($, on) => {
  world(on, { [PART]: HISTORY })
  engine(on)
  await $.session.start(START)
  const r = await $.tool.call({ tool: TOOL, query: 'zebra-(', regex: true })
  expect(r).not.toHaveProperty('deny')
  expect(answer(r)).toStartWith('recall: the regex does not parse:')
})
