// The recall tool in the real interactive terminal UI: listed in `tools` of every request (the
// first one, typed as soon as the prompt box shows, and the summarizer's), and when the model calls
// it after a `/compact`, it answers with a hit from before the compaction, naming the compaction.
// With scope `project` it reads an earlier session of this folder placed in the HOME before the
// start (a Claude Code transcript, rows as ../shared/real-transcripts has them), and OpenCode's
// prompt history, keeping the one prompt that names a file of this folder.
//
// Measured (tests/HOST.md, "The recall tool's start-up"): a tool a `tool.list` hook adds is in
// `tools` of every request, summarizer requests included; its `tool.call` hook answers with no
// permission prompt, and the screen shows `● compact_plus_recall({…})`.
// The model's call is the fake's `FAKE_TOOL_USE:{…}` answer (../e2e/fake-api.mjs), as headless
// in tests/e2e/recall.test.mjs.
import { test } from 'node:test'
import fs from 'node:fs'
import path from 'node:path'
import { openTui, requestTable, toolResults, RECALL_TOOL } from './driver.mjs'

test('terminal: the recall tool is in every request and finds what a /compact summarized away', { timeout: 240000 }, async (t) => {
  const tui = await openTui(t, { label: 'recall' })
  // Only the command's output holds the marker as written ($((1000+729)) becomes 1729): a hit on
  // it can only come from the tool result saved before the compaction.
  const MARKER = 'OSPREY-1729-END'
  const P1 = 'Run the release probe for me, please.'
  const P2 = 'PROBE_TOOL:echo "probe said OSPREY-$((1000+729))-END at the end"'
  const P3 = `FAKE_TOOL_USE:{"name":"${RECALL_TOOL}","input":{"query":"${MARKER}"}}`
  const P4 = `FAKE_TOOL_USE:{"name":"${RECALL_TOOL}","input":{"query":"kestrel-9","scope":"project"}}`

  // An earlier session of this folder, and OpenCode's prompts of this folder and of another.
  const earlier = 'aaaaaaaa-1111-4111-8111-00000000000a'
  const folder = path.join(tui.home, '.claude', 'projects', tui.proj.replace(/[^A-Za-z0-9]/g, '-'))
  fs.mkdirSync(folder, { recursive: true })
  const row = (type, text, i) => JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd: tui.proj, sessionId: earlier, version: '2.1.328', type, message: { role: type, content: type === 'user' ? text : [{ type: 'text', text }] }, uuid: `${earlier}-${i}`, timestamp: `2026-11-20T10:0${i}:00.000Z` })
  const placed = path.join(folder, `${earlier}.jsonl`)
  fs.writeFileSync(placed, [row('user', 'the kestrel-9 parser drops tokens', 1), row('assistant', 'kestrel-9: we keep the lexer and fix the splitter', 2)].join('\n') + '\n')
  const tenDaysAgo = new Date(Date.now() - 10 * 86400e3)
  fs.utimesSync(placed, tenDaysAgo, tenDaysAgo)
  const prompt = (input, dir) => JSON.stringify({ input, mode: 'normal', parts: [{ type: 'file', mime: 'text/plain', filename: 'a.rs', url: `file://${dir}/a.rs`, source: { type: 'file', path: 'a.rs', text: { start: 0, end: 5, value: '@a.rs' } } }] })
  const state = path.join(tui.home, '.local', 'state', 'opencode')
  fs.mkdirSync(state, { recursive: true })
  fs.writeFileSync(path.join(state, 'prompt-history.jsonl'), [prompt('kestrel-9 asked in OpenCode about @a.rs', tui.proj), prompt('kestrel-9 of another project @a.rs', `${tui.proj}-other`)].join('\n') + '\n')

  await tui.launch()
  await tui.say('01-turn', P1)
  await tui.say('02-tool', P2)
  await tui.say('03-compact', '/compact', { until: /Compacted/ })
  const s3 = await tui.say('04-recall', P3)
  const screen = await tui.screen()
  const s4 = await tui.say('05-recall-project', P4)
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)

  const reqs = tui.requests()
  const without = reqs.filter((r) => !(r.body?.tools ?? []).some((x) => x?.name === RECALL_TOOL))
  tui.check(`${RECALL_TOOL} is in tools of every request (${reqs.length}, the summarizer's too)`, reqs.length > 0 && without.length === 0,
    without.map((r) => `#${r.i} ${r.kind}`).join(', '))
  tui.check('a summarizer request was among them', tui.compactionRequests().length === 1)
  const [hist] = tui.historyFiles()
  tui.check('the /compact saved the tool output in the history', hist?.text.includes(MARKER))

  // The model's call, and the tool's answer in the follow-up request.
  const call = reqs.find((r) => r.i >= s3.from && r.toolUse?.name === RECALL_TOOL)
  tui.check('the model called the recall tool', call, call ? '' : 'the fake answered no tool_use of it')
  const answers = reqs.filter((r) => r.i >= s3.from).flatMap(toolResults)
  const answer = answers.find((a) => a.text.startsWith('recall:'))
  tui.check('the recall tool answered', answer, JSON.stringify(answers.map((a) => a.text.slice(0, 120))))
  tui.check('with a hit', /^recall: \d+ hits? in \d+ messages? of \d+ compactions?/.test(answer?.text ?? ''), JSON.stringify(answer?.text.slice(0, 160)))
  tui.check('naming the compaction', /of 1 compaction \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(manual\)\)/.test(answer?.text ?? ''), JSON.stringify(answer?.text.slice(0, 200)))
  tui.check('the hit holds the marker from before the compaction', answer?.text.includes(MARKER))
  tui.check('the hit names the history file', hist && answer?.text.includes(hist.name), hist?.name)
  tui.check('the answer is no error', answer && answer.isError !== true)
  // A tool of the hook's own, no MCP server: the screen shows `● compact_plus_recall({…})`.
  tui.check('the screen shows the call', screen.includes(`${RECALL_TOOL}(`) && !screen.includes('(MCP)'), 'see cap/04-recall.txt')

  // Scope project: the earlier session's words, and OpenCode's prompt of this folder alone.
  const project = reqs.filter((r) => r.i >= s4.from).flatMap(toolResults).filter((a) => a.text.startsWith('recall:')).at(-1)
  tui.check('scope project answered from the earlier session', /^recall: \d+ hits? in \d+ messages? of 2 earlier sessions/.test(project?.text ?? ''), JSON.stringify(project?.text.slice(0, 300)))
  tui.check('with its words', project?.text.includes('fix the splitter') && project?.text.includes(earlier), JSON.stringify(project?.text.slice(0, 600)))
  tui.check('and the OpenCode prompt naming this folder, not the other', project?.text.includes('asked in OpenCode') && !project?.text.includes('of another project'), JSON.stringify(project?.text.slice(0, 900)))
  tui.finish(t)
})
