// Issue [13] item 5 in the real interactive terminal: fresh starts with compact-plus, the first
// prompt typed as soon as the prompt box shows, and every Enter taken: the request carries the
// prompt exactly (no keystroke lost, not joined to a later one), the box is empty after, the answer
// shows. Tried as the issue did: before the fix, 2 of 10 starts lost the Enter (the text stayed in
// the box and went out later joined to the next prompt), never without compact-plus.
//
// The starts alternate how the plugin is installed (a folder marketplace, as people install it, and
// `--plugin-dir`, as the other suites load it: there the CLI writes type roots into the folder and
// loads the hooks later, tests/HOST.md) and how the prompt is typed (all at once, or a key every
// 25 ms), so the Enter lands at different moments of the start-up. Each also checks the recall tool
// is in the first request (no MCP server to wait for: it joins through `tool.list`).
//
// FIRST_PROMPT_STARTS (default 20) sets how many starts; each takes 4–8 s here. The time to the
// answer is the benchmark's (bench/first-prompt.mjs), never judged here.
import { test } from 'node:test'
import fs from 'node:fs'
import { freshStart } from './fresh-start.mjs'
import { RECALL_TOOL } from './driver.mjs'

const STARTS = Number(process.env.FIRST_PROMPT_STARTS ?? 20)
const results = []

for (let i = 0; i < STARTS; i++) {
  const install = i % 2 === 0 ? 'marketplace' : 'plugin-dir'
  const typing = i % 4 < 2 ? 'at-once' : 25
  test(`terminal, fresh start ${i + 1} of ${STARTS} (${install}, typed ${typing === 'at-once' ? 'at once' : `a key every ${typing} ms`}): the first prompt's Enter is taken`, { timeout: 180000 }, async (t) => {
    const s = await freshStart({ variant: 'compact-plus', install, typing, index: i })
    const { tui } = s
    t.after(async () => {
      // Ended as a person ends it, so nothing still writes into the folder when it goes.
      if (!s.lost) await tui.exit().catch(() => {})
      await tui.close()
      if (tui.ok && !process.env.TUI_KEEP) fs.rmSync(tui.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
      else t.diagnostic(`kept ${tui.dir} (cap/after-enter.txt, requests.jsonl, debug-1.log)`)
    })
    results.push(s)
    t.diagnostic(`prompt box after ${s.shownMs} ms; Enter to the request ${s.enterToRequestMs ?? '–'} ms, to the answer ${s.enterToAnswerMs ?? '–'} ms; compact-plus hooks ${JSON.stringify(s.hooks)}`)
    tui.check('the Enter was taken (a request went out)', !s.lost, s.lost ? `the box still holds ${JSON.stringify(s.boxAfter)}` : '')
    tui.check('the request carries the prompt exactly: no keystroke lost, nothing joined', s.exact, JSON.stringify(s.requestPrompt))
    tui.check('the answer showed and the prompt box is empty after', s.enterToAnswerMs !== undefined && s.cleared)
    tui.check(`${RECALL_TOOL} is in the first request`, s.toolInFirst)
    const failedOpen = tui.debugLines(/compact-plus: \S+ (failed open|stopped short)|not ready after/)
    tui.check('no hook of compact-plus failed open or waited out the compile', failedOpen.length === 0, failedOpen.slice(0, 2).join(' | '))
    tui.finish(t)
  })
}

test('every start took its Enter', () => {
  const lost = results.filter((s) => s.lost)
  if (results.length < STARTS) throw new Error(`${STARTS - results.length} start(s) did not run to the end`)
  if (lost.length) throw new Error(`${lost.length} of ${results.length} Enters lost`)
})
