#!/usr/bin/env node
// What the REAL host (Claude Code, headless `claude -p`, fake Messages API on 127.0.0.1) charges at
// start-up for a hooks module, part by part: no module, a module that hooks nothing, each of
// compact-plus's events alone, all seven, the same with compact-plus's JavaScript imported (nothing
// called), with the .wasm compiled, with 25 KB of comments or of code, and compact-plus itself
// (bench/host-mods.mjs builds the probes). The variants are interleaved, rotated each round, so a
// busy moment of this shared machine weighs on each alike; medians with the spread.
//
//   node bench/host-cost.mjs [rounds]                 (default 10 rounds of every variant)
//   node bench/host-cost.mjs 8 --only none,empty,compact-plus
//   node bench/host-cost.mjs 8 --before <folder>      (also another tree, a `git archive` of an
//                                                      earlier commit, as the variant "before")
//   node bench/host-cost.mjs --quick                  (one round of three: CI's proof that it runs)
//
// Per run, from the process's spawn: the first request to the API (the fake's arrival time), the
// CPU time of the whole run (user + system, /usr/bin/time), and from the debug log (--debug-file):
//   scan    the plugins found → the hooks worker spawned (the engine reads and scans the module's
//           source on its main thread before the worker starts)
//   worker  spawned → the module loaded (the worker loads the engine's hooks host and links the module)
//   to API  the plugins found → the first request (what all of the module's cost adds up to on the
//           path, without the CLI's own start before it, which moves by ±100 ms between runs)
// tests/HOST.md "Start-up" has the figures and what they show.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeApi } from '../tests/e2e/fake-api.mjs'
import { claudeBin } from '../tests/e2e/harness.mjs'
import { buildReferenceMod } from '../tests/e2e/reference-mod.mjs'
import { buildProbe, PROBES } from './host-mods.mjs'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null)
const rounds = quick ? 1 : Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 10)
const before = opt('--before')
const DEFAULT = ['none', 'empty', ...Object.keys(PROBES).filter((p) => p.startsWith('only:')), 'pass-through', '+core-glue', '+recall-glue', '+both-glue', '+compile', '+both-glue+compile', '+comments-25k', '+code-25k', 'compact-plus', ...(before ? ['before'] : []), 'reference']
const variants = quick ? ['none', 'empty', 'compact-plus'] : (opt('--only')?.split(',') ?? DEFAULT)

// What a marketplace install copies (`plugin/`, scripts/build), else the tree itself (an older one).
const shipped = (tree) => (fs.existsSync(path.join(tree, 'plugin', 'mod.json')) ? path.join(tree, 'plugin') : tree)
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-host-cost-'))
const dirs = {}
for (const v of variants) {
  if (v === 'none') dirs[v] = null
  else if (v === 'compact-plus') dirs[v] = shipped(REPO)
  else if (v === 'before') dirs[v] = shipped(path.resolve(before))
  else if (v === 'reference') dirs[v] = buildReferenceMod(fs.mkdtempSync(path.join(work, 'ref-')))
  else dirs[v] = buildProbe(v, path.join(work, 'probes'))
}

const CLI = claudeBin()
const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : null

async function runOnce(modDir) {
  const dir = fs.mkdtempSync(path.join(work, 'run-'))
  const home = path.join(dir, 'home')
  const proj = path.join(dir, 'proj')
  fs.mkdirSync(home)
  fs.mkdirSync(proj)
  const fake = await startFakeApi({})
  const debug = path.join(dir, 'debug.log')
  const env = { PATH: process.env.PATH, HOME: home, TERM: 'dumb', ANTHROPIC_API_KEY: 'dummy-key', ANTHROPIC_BASE_URL: fake.url, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1' }
  const cli = ['-p', 'hello', '--output-format', 'json', '--debug-file', debug, ...(modDir ? ['--plugin-dir', modDir] : [])]
  const timeFile = path.join(dir, 'time.txt')
  const [cmd, argv] = TIME ? [TIME, ['-f', '%U %S', '-o', timeFile, CLI, ...cli]] : [CLI, cli]
  const t0 = Date.now()
  const child = spawn(cmd, argv, { cwd: proj, env, stdio: 'ignore' })
  const killer = setTimeout(() => child.kill('SIGKILL'), 60000)
  const code = await new Promise((r) => child.on('exit', r))
  clearTimeout(killer)
  const first = fake.requests.find((r) => r.kind === 'normal')
  await fake.close()
  const log = fs.existsSync(debug) ? fs.readFileSync(debug, 'utf8').split('\n') : []
  const at = (re) => {
    const l = log.find((x) => re.test(x))
    return l ? Date.parse(l.slice(0, 24)) - t0 : null
  }
  const cpu = TIME && fs.existsSync(timeFile) ? fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number) : null
  const failed = log.find((l) => /hooks module did not load|failed to load/.test(l))
  const r = {
    code,
    failed: failed ? failed.slice(25, 300) : null,
    firstRequest: first ? Date.parse(first.t) - t0 : null,
    cpu: cpu && cpu.every(Number.isFinite) ? Math.round((cpu[0] + cpu[1]) * 1000) : null,
    found: at(/Found \d+ plugins/),
    spawned: at(/hooks worker spawned/),
    loaded: at(/hooks module (?!cc-plugin)\S+ loaded/),
    api: at(/\[API REQUEST\]/),
  }
  fs.rmSync(dir, { recursive: true, force: true })
  return r
}

const rows = Object.fromEntries(variants.map((v) => [v, []]))
for (let i = 0; i < rounds; i++) {
  const order = variants.map((_, k) => variants[(k + i) % variants.length])
  for (const v of order) {
    const r = await runOnce(dirs[v])
    if (r.failed || r.code !== 0 || r.firstRequest === null) console.log(`${v}: round ${i + 1} did not run clean (exit ${r.code}) ${r.failed ?? ''}`)
    else rows[v].push(r)
  }
  if (!quick) process.stdout.write(`round ${i + 1} of ${rounds}\r`)
}
fs.rmSync(work, { recursive: true, force: true })

const sorted = (xs) => xs.filter((x) => typeof x === 'number').sort((a, b) => a - b)
const median = (xs) => {
  const v = sorted(xs)
  if (!v.length) return null
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2
}
const quartiles = (xs) => {
  const v = sorted(xs)
  return v.length ? `${v[Math.floor((v.length - 1) / 4)]}–${v[Math.ceil(((v.length - 1) * 3) / 4)]}` : '–'
}
const span = (a, b) => (r) => (r[a] === null || r[b] === null ? null : r[b] - r[a])
const stat = (v, f) => median(rows[v].map(f))
const plus = (x, base) => (x === null || base === null ? '' : ` (${x - base >= 0 ? '+' : ''}${Math.round(x - base)})`)
const fmt = (x) => (x === null ? '–' : String(Math.round(x)))

console.log(`\nheadless start-up (\`claude -p hello\`, --plugin-dir), ms, median of ${rounds} run(s) each (p25–p75), (+ against no module):`)
console.log('| variant | runs | first request | plugins found → first request | CPU (user + system) | scan | worker |')
console.log('| --- | --- | --- | --- | --- | --- | --- |')
const base = { first: stat('none', (r) => r.firstRequest), path: stat('none', span('found', 'api')), cpu: stat('none', (r) => r.cpu) }
for (const v of variants) {
  const rs = rows[v]
  const first = stat(v, (r) => r.firstRequest)
  const onPath = stat(v, span('found', 'api'))
  const cpu = stat(v, (r) => r.cpu)
  console.log(`| ${v} | ${rs.length} | ${fmt(first)}${plus(first, base.first)} ${quartiles(rs.map((r) => r.firstRequest))} | ${fmt(onPath)}${plus(onPath, base.path)} ${quartiles(rs.map(span('found', 'api')))} | ${fmt(cpu)}${plus(cpu, base.cpu)} ${quartiles(rs.map((r) => r.cpu))} | ${v === 'none' ? '–' : fmt(stat(v, span('found', 'spawned')))} | ${v === 'none' ? '–' : fmt(stat(v, span('spawned', 'loaded')))} |`)
}
if (rows['compact-plus'] && rows.empty) {
  const ours = stat('compact-plus', span('found', 'api'))
  const share = (v) => (rows[v]?.length ? `over ${v} ${fmt(ours - stat(v, span('found', 'api')))} ms on the path, ${fmt(stat('compact-plus', (r) => r.cpu) - stat(v, (r) => r.cpu))} ms CPU` : null)
  console.log(`compact-plus's own share: ${['empty', 'pass-through', '+both-glue+compile'].map(share).filter(Boolean).join('; ')}`)
  console.log(`the host's floor (a module that hooks nothing, against none): ${fmt(stat('empty', span('found', 'api')) - base.path)} ms on the path, ${fmt(stat('empty', (r) => r.cpu) - base.cpu)} ms CPU`)
}
if (quick) console.log('(one round: a smoke run, not a figure)')
