// prompt.context: instruction files edited on disk since the engine loaded
// them come back as the engine itself would load them now.

import { test, expect } from 'claude-code/testing'
import type { InstructionFile } from 'claude-code'
import { world, LOG } from './world.ts'

const PROJECT = '/work/app/CLAUDE.md'
const MEMORY = '/home/tester/.claude/projects/app/memory/MEMORY.md'
const MANAGED = '/etc/claude-code/CLAUDE.md'
/** On disk: frontmatter, CRLF and a comment the engine strips (a recorded engine vector). */
const RAW = '---\r\ntitle: probe\r\n---\r\n# Project\r\n<!-- note -->\r\nBody line.\r\n'
/** What the engine loads from RAW. */
const LOADED = '# Project\nBody line.\n'

function files(content: string): InstructionFile[] {
  return [
    { path: PROJECT, kind: 'project', content },
    { path: MEMORY, kind: 'memory', content: '- old memory\n' },
  ]
}

function context(instructionFiles: InstructionFile[]) {
  return { blocks: [{ name: 'claudeMd', text: 'rendered by the engine' }], instructionFiles }
}

/** The text on disk when the engine loaded `# Project\nOld line.\n` at the session's start. */
const OLD_RAW = '# Project\nOld line.\n'


// The instruction files read. The first prompt.context of a process also reads the session's
// pending-blocks.json (blocks an earlier process kept), without asking first whether it is there:
// a missing file rejects, which costs nothing (tests/HOST.md, "Start-up").
const instructionReads = (w: ReturnType<typeof world>) =>
  w.ops('read').map((c) => c.path).filter((p) => !p.includes('/.claude/compact-history/'))

test('a file edited on disk comes back with the engine-exact content, and the refresh is logged', async ($, on) => {
  const w = world(on, { [PROJECT]: OLD_RAW })
  on('prompt.context', (_$, e) => ({ blocks: e.blocks, instructionFiles: e.instructionFiles }))
  // The session's start: the engine has just read the file as it is on disk.
  const first = await $.prompt.context(context(files('# Project\nOld line.\n')))
  expect(first.instructionFiles).toEqual(files('# Project\nOld line.\n'))
  // Edited on disk; after a compaction the engine computes the context again, with its old copy.
  w.files[PROJECT] = RAW
  w.calls.length = 0

  const r = await $.prompt.context(context(files('# Project\nOld line.\n')))

  expect(r.instructionFiles).toEqual([
    { path: PROJECT, kind: 'project', content: LOADED },
    { path: MEMORY, kind: 'memory', content: '- old memory\n' },
  ])
  // The engine renders the claudeMd text again from the files returned.
  expect(r.blocks).toHaveLength(1)
  expect(r.blocks[0]?.text).toContain(`Contents of ${PROJECT} (project instructions, checked into the codebase):\n\n${LOADED}`)
  // The memory index is the engine's to keep fresh: never read.
  expect(instructionReads(w)).toEqual([PROJECT])
  expect(w.ops('write').map((c) => c.path)).toEqual([LOG])
  expect(JSON.parse(w.text(LOG))).toEqual({ at: '2025-11-29T12:00:00.000Z', event: 'instructions-refreshed', files: [PROJECT] })
})

test('a file whose disk text loads as the content given comes back unchanged, and nothing is written', async ($, on) => {
  const w = world(on, { [PROJECT]: RAW })
  on('prompt.context', (_$, e) => ({ blocks: e.blocks, instructionFiles: e.instructionFiles }))

  const r = await $.prompt.context(context(files(LOADED)))

  expect(r.instructionFiles).toEqual(files(LOADED))
  expect(instructionReads(w)).toEqual([PROJECT])
  expect(w.ops('write')).toEqual([])
})

test('memory and managed files are never read', async ($, on) => {
  const w = world(on, { [MEMORY]: '- new memory\n', [MANAGED]: 'new policy\n' })
  on('prompt.context', (_$, e) => ({ blocks: e.blocks, instructionFiles: e.instructionFiles }))
  const given: InstructionFile[] = [
    { path: MANAGED, kind: 'managed', content: 'old policy\n' },
    { path: MEMORY, kind: 'memory', content: '- old memory\n' },
  ]

  const r = await $.prompt.context(context(given))

  expect(r.instructionFiles).toEqual(given)
  expect(instructionReads(w)).toEqual([])
})

test('a file emptied on disk is left out, as the engine would', async ($, on) => {
  const w = world(on, { [PROJECT]: OLD_RAW })
  on('prompt.context', (_$, e) => ({ blocks: e.blocks, instructionFiles: e.instructionFiles }))
  await $.prompt.context(context(files('# Project\nOld line.\n')))
  w.files[PROJECT] = '<!-- only a comment -->\n'

  const r = await $.prompt.context(context(files('# Project\nOld line.\n')))

  expect(r.instructionFiles).toEqual([{ path: MEMORY, kind: 'memory', content: '- old memory\n' }])
  expect(JSON.parse(w.text(LOG)).files).toEqual([PROJECT])
})
