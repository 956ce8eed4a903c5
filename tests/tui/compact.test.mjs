// A person's `/compact` and `/compact <instructions>` in the real interactive terminal UI.
//
// Measured on Claude Code 2.1.328 (kit README, /work/shared/e2e-kit/tui/README.md, item 1): in the
// terminal, `/compact` dispatches no `session.append` at door `compaction`, so what compact-plus
// hands the next model has to leave by another channel (tests/HOST.md: a `prompt.context` block,
// which the engine sends once after a compaction and stores as a `context_sections` row). Each
// compaction must still give: a history file with the conversation (a Bash tool result included),
// a log.jsonl `compact` line, the handoff in the summarizer request, and the verbatim block and the
// pointer in the next request exactly once, stored in the transcript.
import { test } from 'node:test'
import path from 'node:path'
import {
  openTui, additionalInstructions, requestTable, checkBlocksOnce, checkStoredOnce, HANDOFF_HEAD,
} from './driver.mjs'

test('terminal /compact and /compact keep …: history, log, handoff, the blocks once in the next request and the transcript', { timeout: 240000 }, async (t) => {
  const tui = await openTui(t, { label: 'compact' })
  const P1 = 'Please fix the flaky test in src/parser.rs; keep the public API as it is. KIWI-7781'
  // The command holds $((6*7)); only its output holds "42": that text in the history is the tool result.
  const P2 = 'PROBE_TOOL:echo "test result: FAILED parser::tests::nested TOOL-OUT-$((6*7))-QUAIL"'
  const TOOL_OUT = 'TOOL-OUT-42-QUAIL'
  const P3 = 'Thanks. What was the failing test again? LIME-4410'
  const P4 = 'And what do we try next? FIG-9902'
  const OWN = 'keep the parser fix details'
  const P5 = 'Thanks, that is all for now. PLUM-1234'

  await tui.launch()
  tui.fake.configure({ reply: 'REPLY-ONE: I will look at the parser test.' })
  await tui.say('01-turn', P1)
  tui.fake.configure({ reply: 'REPLY-TWO: the test output is in.' })
  await tui.say('02-tool', P2)
  const c1 = await tui.say('03-compact', '/compact', { until: /Compacted/ })
  tui.fake.configure({ reply: 'REPLY-THREE' })
  const s3 = await tui.say('04-after-compact', P3)
  const s4 = await tui.say('05-second-turn-after', P4)
  const c2 = await tui.say('06-compact-keep', `/compact ${OWN}`, { until: /Compacted/ })
  const s5 = await tui.say('07-after-compact-keep', P5)
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)

  // The Bash tool really ran: its output came back to the API.
  const reqs = tui.requests()
  tui.check('the Bash tool (PROBE_TOOL) ran and its output reached the API', reqs.some((r) => JSON.stringify(r.body).includes(TOOL_OUT)))

  // One summarizer request per /compact, each with the handoff (after the person's own instructions).
  const comp1 = tui.compactionRequests().filter((r) => r.i >= c1.from && r.i < s3.from)
  const comp2 = tui.compactionRequests().filter((r) => r.i >= c2.from && r.i < s5.from)
  tui.check('/compact: one summarizer request', comp1.length === 1, `${comp1.length}`)
  tui.check('/compact keep …: one summarizer request', comp2.length === 1, `${comp2.length}`)
  const extra1 = comp1[0] ? additionalInstructions(comp1[0]) : null
  tui.check('/compact: the summarizer request has the handoff instructions', extra1?.startsWith(HANDOFF_HEAD), JSON.stringify(extra1?.slice(0, 80)))
  const extra2 = comp2[0] ? additionalInstructions(comp2[0]) : null
  tui.check('/compact keep …: the person\'s instructions first, then the handoff',
    extra2?.startsWith(`${OWN}\n\n${HANDOFF_HEAD}`), JSON.stringify(extra2?.slice(0, 120)))

  // The history: one *-manual.md per /compact, with the conversation.
  const files = tui.historyFiles()
  const manual = files.filter((f) => /-manual(-\d+)?(\.part\d+)?\.md$/.test(f.name))
  tui.check('two *-manual.md history files', manual.length === 2, files.map((f) => f.name).join(', ') || 'none')
  const [h1, h2] = manual
  for (const needle of [P1, P2, 'REPLY-ONE: I will look at the parser test.', TOOL_OUT]) {
    tui.check(`history 1 holds ${JSON.stringify(needle.slice(0, 50))}`, h1?.text.includes(needle))
  }
  tui.check('history 1 holds nothing from after the compaction', h1 && !h1.text.includes(P3))
  for (const needle of [P3, P4]) tui.check(`history 2 holds ${JSON.stringify(needle)}`, h2?.text.includes(needle))
  // The terminal hands session.compact its local-command rows with raw ANSI escapes (kit README item 4).
  for (const h of manual) tui.check(`${h.name} has no ANSI escape sequences`, !h.text.includes('\u001b['))
  // Issue [13] item 13: the second history holds the first /compact's local-command rows; its output
  // line keeps what the command said, not the screen's key hint (`(ctrl+o to see full summary)`).
  tui.check('history 2: the /compact output line without the screen\'s key hint', h2?.text.includes('(local command output: Compacted)') && !h2?.text.includes('ctrl+o'),
    JSON.stringify(h2?.text.match(/\(local command output:[^\n]*/)?.[0]))
  // Numbered as the file shows them, 1, 2, 3 … with no gaps, the header counting the headings.
  for (const h of manual) {
    const nums = [...h.text.matchAll(/^## \[(\d+)\] /gm)].map((m) => Number(m[1]))
    const counted = Number(/, (\d+) messages\. /.exec(h.text)?.[1])
    tui.check(`${h.name}: headings numbered 1..${nums.length} with no gap, the header says ${nums.length}`,
      nums.length > 0 && nums.every((n, i) => n === i + 1) && counted === nums.length, `headings ${nums.join(',')}; header ${counted}`)
  }

  // log.jsonl: a compact line per /compact, naming its file.
  const compacts = tui.historyLog().filter((e) => e.event === 'compact')
  tui.check('log.jsonl: two compact lines, trigger manual', compacts.length === 2 && compacts.every((e) => e.trigger === 'manual'),
    JSON.stringify(compacts.map((e) => [e.trigger, e.file && path.basename(e.file)])))
  tui.check('log.jsonl: the compact lines name the history files',
    h1 && h2 && compacts[0]?.file === h1.path && compacts[1]?.file === h2.path)

  // The next requests: the blocks exactly once, the pointer naming that compaction's file; a
  // second turn after the compaction still holds them once (not added again).
  // They come with the person's next prompt: no request in them is marked current (issue [13] item 2).
  checkBlocksOnce(tui, 'after /compact, the next request', tui.requestWith(P3, s3.from), { file: h1?.path, prompts: [P1, P2], current: 0 })
  checkBlocksOnce(tui, 'after /compact, the second turn\'s request', tui.requestWith(P4, s4.from), { file: h1?.path, prompts: [P1, P2], current: 0 })
  // The first compaction's words are carried on (issue [13] item 1).
  checkBlocksOnce(tui, 'after /compact keep …, the next request', tui.requestWith(P5, s5.from), { file: h2?.path, prompts: [P1, P2, P3, P4], current: 0 })

  // The transcript keeps them (so the screen's history and --resume have them).
  checkStoredOnce(tui, '/compact', 0, { file: h1?.path })
  checkStoredOnce(tui, '/compact keep …', 1, { file: h2?.path })
  tui.finish(t)
})
