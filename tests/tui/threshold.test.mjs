// The engine's own threshold compaction (trigger `auto`) in the real interactive terminal UI.
//
// Measured here (Claude Code 2.1.328, TUI): with CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000 (threshold
// 67,000, kit README) and the tool_use answer of a turn reporting input_tokens 85000, the engine
// compacts in the middle of that turn, before it sends the tool result back: the summarizer request
// holds the tool_result, the next request is the turn's follow-up. Mid-turn, compact-plus's
// turn-end compaction cannot come first (it runs only after a turn), so this is the engine's path
// alone. Kit README item 1: the terminal's `auto` compaction dispatches `session.append` at door
// `compaction`; tests/HOST.md: the blocks still leave once, by whichever channel fires first.
import { test } from 'node:test'
import path from 'node:path'
import {
  openTui, additionalInstructions, requestTable, checkBlocksOnce, checkStoredOnce, HANDOFF_HEAD,
} from './driver.mjs'

test('terminal: the engine\'s threshold compaction mid-turn: history, handoff, the blocks once in the next requests', { timeout: 240000 }, async (t) => {
  const tui = await openTui(t, { label: 'threshold', env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: 100000 } })
  const P1 = 'Please fix the flaky test in src/parser.rs; remember KIWI-1001'
  const P2 = 'PROBE_TOOL:echo "build said BUILD-OUT-$((6*7))-HERON"'
  const TOOL_OUT = 'BUILD-OUT-42-HERON'
  const P3 = 'after the build, what now? FIG-9902'

  await tui.launch()
  await tui.say('01-turn', P1)
  // The next answer (turn two's tool_use) reports 85,000: over the engine's 67,000.
  tui.fake.configure({ inputTokensSeq: [85000] })
  const s2 = await tui.say('02-tool-over-threshold', P2)
  const s3 = await tui.say('03-next-turn', P3)
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)

  const reqs = tui.requests()
  const comps = tui.compactionRequests()
  tui.check('one summarizer request in all', comps.length === 1, `${comps.length}`)
  const comp = comps[0]
  const toolUse = reqs.find((r) => r.i >= s2.from && r.toolUse?.name === 'Bash')
  tui.check('it came inside turn two, after the tool call, before the tool result went back',
    comp && toolUse && comp.i > toolUse.i && comp.i < s2.to, `tool_use #${toolUse?.i}, summarizer #${comp?.i}, turn two ended at #${s2.to}`)
  const boundary = tui.transcript().find((r) => r.type === 'system' && r.subtype === 'compact_boundary')
  tui.check('the transcript\'s compaction is the engine\'s auto one', boundary?.compactMetadata?.trigger === 'auto', boundary?.compactMetadata?.trigger)
  const extra = comp ? additionalInstructions(comp) : null
  tui.check('the summarizer request has the handoff instructions', extra?.startsWith(HANDOFF_HEAD), JSON.stringify(extra?.slice(0, 80)))

  const files = tui.historyFiles()
  const auto = files.filter((f) => /-auto(-\d+)?(\.part\d+)?\.md$/.test(f.name))
  tui.check('one *-auto.md history file', auto.length === 1, files.map((f) => f.name).join(', ') || 'none')
  for (const needle of [P1, P2, TOOL_OUT]) tui.check(`the history holds ${JSON.stringify(needle)}`, auto[0]?.text.includes(needle))
  const compacts = tui.historyLog().filter((e) => e.event === 'compact')
  tui.check('log.jsonl: one compact line, trigger auto, naming the file',
    compacts.length === 1 && compacts[0].trigger === 'auto' && compacts[0].file === auto[0]?.path,
    JSON.stringify(compacts.map((e) => [e.trigger, e.file && path.basename(e.file)])))

  // The request right after the compaction (turn two's follow-up with the tool result), and the
  // person's next turn: the blocks once each.
  const next = comp ? reqs.find((r) => r.i > comp.i && r.kind === 'normal') : null
  // Compacted inside turn two, before its tool result went back: turn two's prompt is the request
  // being worked on, marked current when compacted (the row stays in the next turn's request, where
  // the mark says when it held; issue [13] item 2).
  checkBlocksOnce(tui, 'the request after the compaction (the turn\'s follow-up)', next, { file: auto[0]?.path, prompts: [P1, P2], current: 1 })
  checkBlocksOnce(tui, 'the next turn\'s request', tui.requestWith(P3, s3.from), { file: auto[0]?.path, prompts: [P1, P2], current: 1 })
  checkStoredOnce(tui, 'auto', 0, { file: auto[0]?.path })
  tui.finish(t)
})
