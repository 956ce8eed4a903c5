#!/usr/bin/env node
// The first prompt of a session in the REAL interactive CLI (tmux, fake Messages API on
// 127.0.0.1), typed as soon as the prompt box shows (issue [13] item 5): the time from its Enter to
// the answer on screen, with compact-plus, with the engine alone, with a mod that only passes
// compact-plus's events on (the engine's cost of hosting a mod) and with the reference mod, in one
// run, the starts interleaved so a busy machine weighs on each alike. The plugin is
// installed as people install it (a folder marketplace); `--plugin-dir` loads it as the other
// suites do. Each start is tests/tui/fresh-start.mjs.
//
//   node bench/first-prompt.mjs [starts]        (default 10 starts of each variant)
//   node bench/first-prompt.mjs --quick         (one of each: CI's proof that it runs, never judged)
//   node bench/first-prompt.mjs --plugin-dir    (load with --plugin-dir instead)
//   node bench/first-prompt.mjs --no-reference  (without the reference)
//   node bench/first-prompt.mjs --before <folder>  (also that tree, say a `git archive` of an
//                                               earlier commit, as the variant "before", interleaved)
//   TUI_PLUGIN_SRC=<folder> node bench/first-prompt.mjs   (another tree as compact-plus)
//
// Goal (issue [13]): at most 100 ms added to the first prompt by compact-plus (median with minus
// median without). Prints each start, then the medians.
import fs from 'node:fs'
import { freshStart } from '../tests/tui/fresh-start.mjs'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const install = args.includes('--plugin-dir') ? 'plugin-dir' : 'marketplace'
const starts = quick ? 1 : Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--before') ?? 10)
const before = args.includes('--before') ? args[args.indexOf('--before') + 1] : null
// empty: a hooks module that hooks nothing (the host's floor: a hooks worker to start before the
// first turn); pass-through: compact-plus's nine registrations, each passing its event on
// (bench/host-mods.mjs). So the engine's cost of hosting a mod at all shows apart from
// compact-plus's own work.
const variants = ['none', 'empty', 'pass-through', 'compact-plus', ...(before ? ['before'] : []), ...(args.includes('--no-reference') ? [] : ['reference'])]

const rows = Object.fromEntries(variants.map((v) => [v, []]))
for (let i = 0; i < starts; i++) {
  // Rotated each round: no variant always runs first, on a cold cache, or last.
  const order = variants.map((_, k) => variants[(k + i) % variants.length])
  for (const variant of order) {
    let s
    try {
      s = await freshStart({ variant, install, typing: 'at-once', index: i, label: 'bench-first', tree: variant === 'before' ? before : null })
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
  const tool = v === 'compact-plus' || v === 'before' ? `; the recall tool in the first request ${rs.filter((r) => r.toolInFirst || r.mcpToolInFirst).length} of ${rs.length}` : ''
  console.log(`  ${v.padEnd(12)} Enter to answer ${ms(answer)}${added}; Enter to request ${ms(median(rs.map((r) => r.enterToRequestMs)))}; prompt box after ${ms(median(rs.map((r) => r.shownMs)))}; Enters lost ${lost} of ${rs.length}${tool}`)
}
const ours = rows['compact-plus']
const hook = (h) => median(ours.map((r) => r.hooks[h]))
console.log(`  compact-plus's own hooks (debug log, median): tool.list ${ms(hook('tool.list'))}, the first prompt.context ${ms(hook('prompt.context'))}`)
const ourAnswer = median(ours.map((r) => r.enterToAnswerMs))
const hosted = median(rows['pass-through'].map((r) => r.enterToAnswerMs))
if (base !== null && ourAnswer !== null) {
  console.log(`  goal (issue [13]): at most 100 ms added; measured ${Math.round(ourAnswer - base)} ms${quick ? ' (one start: a smoke run, not a figure)' : ''}`)
  const floor = median(rows.empty.map((r) => r.enterToAnswerMs))
  if (floor !== null) console.log(`    of it, the host's floor, a hooks module that hooks nothing (empty minus none) ${Math.round(floor - base)} ms; compact-plus over it ${Math.round(ourAnswer - floor)} ms`)
  if (hosted !== null) console.log(`    the engine hosting a mod on these events (pass-through minus none) ${Math.round(hosted - base)} ms; compact-plus's own work (compact-plus minus pass-through) ${Math.round(ourAnswer - hosted)} ms`)
}
