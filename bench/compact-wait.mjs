#!/usr/bin/env node
// The /compact a person waits for, on the real Claude Code sessions in ../shared/real-transcripts
// (read at run time, copied only into each run's throwaway HOME), as tests/e2e/real.test.mjs runs
// them: `claude -p --resume <id>`, `/compact` as the first turn, timed from the CLI's start to the
// /compact's result. Beside the engine alone: a hooks module that hooks nothing (the host's floor),
// compact-plus's events passed on (bench/host-mods.mjs), compact-plus, the reference, and with
// `--before <folder>` another tree (a `git archive` of an earlier commit). Per file the variants
// run one after another, rotated each repeat; each variant's figure is the median over the files
// of its time divided by the engine alone's on the same file.
//
//   node bench/compact-wait.mjs [repeats]            (default 2 runs of each variant per file)
//   node bench/compact-wait.mjs 2 --before <folder> --files agentv,sniffly
//   node bench/compact-wait.mjs --quick              (one file, one run: CI's proof that it runs)
//
// Goal (issue [17]): compact-plus at most 1.2× the engine alone.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runSession, projectSlug, REPO_ROOT } from '../tests/e2e/harness.mjs'
import { buildProbe } from './host-mods.mjs'

const args = process.argv.slice(2)
const quick = args.includes('--quick')
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null)
const repeats = quick ? 1 : Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 2)
const before = opt('--before')
const only = opt('--files')?.split(',')
const SOURCE = process.env.E2E_REAL_TRANSCRIPTS ?? path.resolve(REPO_ROOT, '..', 'shared', 'real-transcripts')
if (!fs.existsSync(SOURCE)) {
  console.log(`no real transcripts at ${SOURCE}: nothing to measure`)
  process.exit(0)
}

// The Claude Code transcripts (a row with a sessionId and a cwd), as real.test.mjs finds them.
function transcripts() {
  const out = []
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.jsonl')) {
        const rows = fs.readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => { try { return JSON.parse(l) } catch { return null } })
        const first = rows.find((r) => r?.sessionId && r.cwd)
        if (first) out.push({ path: p, rel: path.relative(SOURCE, p), sessionId: first.sessionId, cwd: first.cwd })
      }
    }
  }
  walk(SOURCE)
  return out.filter((f) => !only || only.some((s) => f.rel.includes(s)))
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-compact-wait-'))
const shipped = (tree) => (fs.existsSync(path.join(tree, 'plugin', 'mod.json')) ? path.join(tree, 'plugin') : tree)
const VARIANTS = {
  none: 'none',
  empty: buildProbe('empty', work),
  'pass-through': buildProbe('pass-through', work),
  'compact-plus': shipped(REPO_ROOT),
  ...(before ? { before: shipped(path.resolve(before)) } : {}),
  reference: 'reference',
}
const names = Object.keys(VARIANTS)

async function compactOnce(file, variant, k) {
  const workDir = fs.mkdtempSync(path.join(work, `${variant}-`))
  const dest = path.join(workDir, 'home', '.claude', 'projects', projectSlug(file.cwd), `${file.sessionId}.jsonl`)
  fs.mkdirSync(path.dirname(dest), { recursive: true })
  fs.copyFileSync(file.path, dest)
  const run = await runSession({ mod: VARIANTS[variant], workDir, label: `wait-${variant}-${k}`, args: ['--resume', file.sessionId], turns: ['/compact'], turnTimeoutMs: 45000, sessionTimeoutMs: 90000 })
  const result = run.turns[0]?.result
  const ms = result && !result.is_error && run.compactionRequests.length > 0 ? run.turns[0].ms : null
  run.cleanup()
  return ms
}

const files = transcripts().slice(0, quick ? 1 : undefined)
const times = Object.fromEntries(names.map((v) => [v, files.map(() => [])]))
for (const [i, file] of files.entries()) {
  for (let k = 0; k < repeats; k++) {
    for (const v of names.map((_, j) => names[(j + k + i) % names.length])) {
      const ms = await compactOnce(file, v, k)
      if (ms === null) console.log(`${file.rel} ${v}: the /compact did not run clean`)
      else times[v][i].push(ms)
    }
  }
  console.log(`${file.rel}: ${names.map((v) => `${v} ${times[v][i].join('/')} ms`).join(', ')}`)
}
fs.rmSync(work, { recursive: true, force: true })

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b)
  if (!v.length) return null
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2
}
const perFile = (v) => files.map((_, i) => median(times[v][i]))
const base = perFile('none')
console.log(`\nthe /compact a person waits for (\`claude -p --resume <id>\`, /compact first), ${files.length} real session(s), ${repeats} run(s) of each variant per file:`)
console.log('| variant | median wall time | per file against the engine alone, median (p25–p75) | added, median per file |')
console.log('| --- | --- | --- | --- |')
for (const v of names) {
  const mine = perFile(v)
  const ratios = mine.map((x, i) => (x && base[i] ? x / base[i] : null)).filter((x) => x !== null).sort((a, b) => a - b)
  const added = mine.map((x, i) => (x && base[i] ? x - base[i] : null))
  const q = (p) => ratios[Math.min(ratios.length - 1, Math.floor(p * (ratios.length - 1) + 0.5))]?.toFixed(2) ?? '–'
  console.log(`| ${v} | ${median(mine) === null ? '–' : `${(median(mine) / 1000).toFixed(2)} s`} | ${v === 'none' ? '1.00×' : `${median(ratios)?.toFixed(2) ?? '–'}× (${q(0.25)}–${q(0.75)})`} | ${v === 'none' ? '–' : `${Math.round(median(added) ?? NaN)} ms`} |`)
}
console.log('goal (issue [17]): compact-plus at most 1.2× the engine alone' + (quick ? ' (one run: a smoke run, not a figure)' : ''))
