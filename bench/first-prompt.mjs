#!/usr/bin/env node
// The first prompt of a session in the REAL interactive CLI (tmux, fake Messages API on
// 127.0.0.1), typed as soon as the prompt box shows (issue [13] item 5): the time from its Enter to
// the answer on screen, with compact-plus, with the engine alone and with the reference mod, in one
// run, the starts of the three interleaved so a busy machine weighs on each alike. The plugin is
// installed as people install it (a folder marketplace); `--plugin-dir` loads it as the other
// suites do. Each start is tests/tui/fresh-start.mjs.
//
//   node bench/first-prompt.mjs [starts]        (default 10 starts of each variant)
//   node bench/first-prompt.mjs --quick         (one of each: CI's proof that it runs, never judged)
//   node bench/first-prompt.mjs --plugin-dir    (load with --plugin-dir instead)
//   node bench/first-prompt.mjs --no-reference  (without the reference)
//
// Goal (issue [13]): at most 100 ms added to the first prompt by compact-plus (median with minus
// median without). Prints each start, then the medians.
import fs from 'node:fs'
import { freshStart } from '../tests/tui/fresh-start.mjs'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const install = args.includes('--plugin-dir') ? 'plugin-dir' : 'marketplace'
const starts = quick ? 1 : Number(args.find((a) => /^\d+$/.test(a)) ?? 10)
const variants = ['none', 'compact-plus', ...(args.includes('--no-reference') ? [] : ['reference'])]

const rows = Object.fromEntries(variants.map((v) => [v, []]))
for (let i = 0; i < starts; i++) {
  // Rotated each round: no variant always runs first, on a cold cache, or last.
  const order = variants.map((_, k) => variants[(k + i) % variants.length])
  for (const variant of order) {
    let s
    try {
      s = await freshStart({ variant, install, typing: 'at-once', index: i, label: 'bench-first' })
    } catch (err) {
      console.log(`${variant.padEnd(12)} start ${i + 1}: ${err.message}`)
      continue
    }
    const { tui, ...r } = s
    rows[variant].push(r)
    const hooks = Object.entries(r.hooks).filter(([h]) => h === 'tool.list' || h === 'prompt.context').map(([h, ms]) => `${h} ${Math.round(ms)} ms`).join(', ')
    console.log(`${variant.padEnd(12)} start ${i + 1}: prompt box ${r.shownMs} ms; Enter to request ${r.enterToRequestMs ?? '–'} ms, to answer ${r.enterToAnswerMs ?? '–'} ms${r.lost ? ' — ENTER LOST' : ''}${r.exact ? '' : ' — prompt not exact'}${hooks ? `; ${hooks}` : ''}`)
    if (!r.lost) await tui.exit().catch(() => {})
    await tui.close()
    try { fs.rmSync(tui.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }) } catch {}
  }
}

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b)
  if (!v.length) return null
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2
}
const ms = (x) => (x === null ? '–' : `${Math.round(x)} ms`)
console.log(`\nfirst prompt, typed as soon as the prompt box shows (${install === 'marketplace' ? 'installed from a marketplace' : '--plugin-dir'}), median of ${starts} start(s) each:`)
const base = median(rows.none.map((r) => r.enterToAnswerMs))
for (const v of variants) {
  const rs = rows[v]
  const answer = median(rs.map((r) => r.enterToAnswerMs))
  const added = v === 'none' || answer === null || base === null ? '' : `, ${answer - base >= 0 ? '+' : ''}${Math.round(answer - base)} ms (${(answer / base).toFixed(2)}×) against the engine alone`
  const lost = rs.filter((r) => r.lost).length
  const tool = v === 'compact-plus' ? `; the recall tool in the first request ${rs.filter((r) => r.toolInFirst).length} of ${rs.length}` : ''
  console.log(`  ${v.padEnd(12)} Enter to answer ${ms(answer)}${added}; Enter to request ${ms(median(rs.map((r) => r.enterToRequestMs)))}; prompt box after ${ms(median(rs.map((r) => r.shownMs)))}; Enters lost ${lost} of ${rs.length}${tool}`)
}
const ours = rows['compact-plus']
const hook = (h) => median(ours.map((r) => r.hooks[h]))
console.log(`  compact-plus's own hooks (debug log, median): tool.list ${ms(hook('tool.list'))}, the first prompt.context ${ms(hook('prompt.context'))}`)
const ourAnswer = median(ours.map((r) => r.enterToAnswerMs))
if (base !== null && ourAnswer !== null) console.log(`  goal (issue [13]): at most 100 ms added; measured ${Math.round(ourAnswer - base)} ms${quick ? ' (one start: a smoke run, not a figure)' : ''}`)
