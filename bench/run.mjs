#!/usr/bin/env node
// The benchmark of issue [5]: the Rust/wasm core (pkg/, driven by the real shim js/compact-plus.js)
// against the reference lib.js/index.js, on synthetic sessions (bench/session.mjs), in one run.
// Runs as is under Node and under Bun:
//
//   node bench/run.mjs [--sizes 100,1000,4096] [--reps N] [--quick] [--json FILE]
//   ~/.cache/compact-plus-tools/node_modules/.bin/bun bench/run.mjs ...
//
// For each size, the median of repeated runs, wasm and reference side by side, as wasm/reference:
//   selectVerbatim   the JS-value exports (pkg/) against lib.selectVerbatim
//   renderHistory    likewise
//   prepare          everything session.compact does before `next`: the shim's skeleton of the
//                    event (texts left out), start/resume with the answers to env, sessionId and
//                    the person's texts, up to the `next` call; for the reference, its index.js
//                    hook up to `next` (historyDir, selectVerbatim, stamp, renderHistory, the write,
//                    handoffInstructions, joinInstructions). Both run under the same fake `$`, whose
//                    calls answer at once, so this is the CPU the hook costs before the summary
//                    request can go out.
//   while summarizing  the main thread's busy time between `next` and its answer (a pretend
//                    summarizer answers after 3x the whole work): the core's history (all texts
//                    across, rendered, redacted, written) and the audit's collection run here. The
//                    reference does nothing here.
//   after its answer from `next`'s answer to the hook's end (blocks, the audit's check against the
//                    summary, prune over an empty folder, the log line), plus the session.append
//                    hook that hands the blocks over
//   all three        the sum: what the hook costs the host's main thread in all
//   redact, audit    the core's two passes against straightforward JS (bench/baselines.mjs), measured
//                    in place (see `passRows` below)
// Also: the .wasm's size raw and gzipped, cold compile + instantiate in fresh processes, peak wasm
// linear memory over a whole compaction of the largest session. Timings are printed, never judged:
// nothing here fails on a slow machine (--quick is the CI smoke run).
//
// The reference is cut at run time out of ../shared/seeds (tests/e2e/reference-mod.mjs); without
// the seed, the wasm figures are printed alone.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

import * as glue from '../pkg/compact_plus.js'
// The audit alone (`benchHold`/`benchAudit`) and the reference's JS-value helpers (`selectVerbatim`,
// `renderHistory`): exports of a build with the `bench` and `compat` features, which the shipped
// .wasm leaves out (scripts/build-dev builds it into target/dev-pkg; scripts/bench runs that).
const DEV_PKG = new URL('../target/dev-pkg/', import.meta.url)
const benchGlue = existsSync(new URL('compact_plus.js', DEV_PKG)) ? await import(new URL('compact_plus.js', DEV_PKG)) : null
if (benchGlue) benchGlue.initSync({ module: readFileSync(new URL('compact_plus_bg.wasm', DEV_PKG)) })
else console.error('no target/dev-pkg (scripts/build-dev builds it): the audit and the reference helpers are not timed')
import { register as registerShim } from '../js/compact-plus.js'
import { commit, compactResult, makeSession, sessionSize } from './session.mjs'
import { auditJs, redactJs } from './baselines.mjs'
import { SEED_PATH, referenceSources } from '../tests/e2e/reference-mod.mjs'

const WASM_PATH = fileURLToPath(new URL('../pkg/compact_plus_bg.wasm', import.meta.url))
const NOW = Date.UTC(2026, 10, 29, 10, 30, 0)
const SESSION_ID = '3e771ee8-7a5c-472f-8c77-3dfd1e6415f3'
const HOME = '/home/u'
const VERBATIM_TOKENS = 8000

// ---- arguments ----

function parseArgs(argv) {
  const args = { sizes: [100, 1000, 4096], reps: null, quick: false, json: null, compileRuns: 5 }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--sizes') args.sizes = value().split(',').map((s) => Number(s.trim())).filter((n) => n > 0)
    else if (a === '--reps') args.reps = Number(value())
    else if (a === '--quick') args.quick = true
    else if (a === '--json') args.json = value()
    else if (a === '--help' || a === '-h') {
      console.log('usage: run.mjs [--sizes 100,1000,4096] [--reps N] [--quick] [--json FILE]')
      process.exit(0)
    } else throw new Error(`unknown argument: ${a}`)
  }
  if (args.quick) {
    args.sizes = [40]
    args.reps = args.reps ?? 3
    args.compileRuns = 1
  }
  return args
}

const isBun = typeof globalThis.Bun !== 'undefined'

function engine() {
  if (isBun) return `Bun ${Bun.version} (JavaScriptCore${process.versions.webkit ? ` ${process.versions.webkit.slice(0, 12)}` : ''})`
  return `Node ${process.versions.node} (V8 ${process.versions.v8})`
}

// A full collection between measurements, where the engine lets us ask for one.
let collect = () => {}
if (isBun) collect = () => Bun.gc(true)
else {
  try {
    const v8 = await import('node:v8')
    const vm = await import('node:vm')
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc')
    collect = () => gc()
  } catch {}
}

// ---- the wasm side ----

const wasmBytes = readFileSync(WASM_PATH)
const wasmModule = new WebAssembly.Module(wasmBytes)
glue.initSync({ module: wasmModule })
const memory = () => glue.initSync({ module: wasmModule }).memory
// The core's memory at its largest so far: sampled while a compaction runs, since the shim hands a
// large instance's memory back as the hook ends (bench/memory.mjs measures that hand-back).
let peakSeen = 0
const sampleMemory = () => {
  peakSeen = Math.max(peakSeen, memory().buffer.byteLength)
}

/**
 * A `$` whose every call answers at once. A write reads its text through (as the host must, to
 * hand it on), and is counted; `keep` keeps the texts, for the checks.
 */
function fakeHost(keep = false) {
  const writes = []
  const $ = {
    env: { get: async (name) => (name === 'HOME' ? HOME : undefined) },
    session: { id: async () => SESSION_ID, usage: async () => ({ context: { tokens: 0 } }), compact: async () => ({}) },
    clock: {
      now: async () => NOW,
      after: (ms, fn) => {
        const t = setTimeout(fn, ms)
        return { cancel: () => clearTimeout(t) }
      },
    },
    fs: {
      exists: async () => false,
      read: async () => '',
      write: async (path, text) => {
        sampleMemory()
        text.charCodeAt(text.length >> 1) // a rope (a lazy concatenation) is made flat here
        writes.push([path, text.length, keep ? text : null])
      },
      list: async () => [],
      stat: async (path) => ({ kind: 'dir', isLink: false, realPath: path, mtimeMs: NOW }),
    },
    process: { run: async () => ({ code: 0, stdout: '', stderr: '' }) },
    ui: { log: () => {} },
    command: { run: async () => ({}) },
    wasm: { compile: async () => wasmModule },
  }
  return { $, writes }
}

/** Registers a mod's hooks and hands back the two this benchmark drives. */
function hooksOf(register, options = {}) {
  const hooks = {}
  const on = (event, ...rest) => {
    hooks[event] = rest[rest.length - 1]
    return { catch: () => {} }
  }
  register(on, options)
  return hooks
}

const appendEvent = () => ({
  message: { type: 'user', role: 'user', content: [{ type: 'text', text: 'This session is being continued from a previous conversation …' }] },
  door: 'compaction',
  origin: { kind: 'engine' },
})

/**
 * How long the main thread was busy from now until `stop()`: a timer that re-arms itself, and
 * the gaps between its firings past a millisecond's slack. Works alike in Node and Bun.
 */
function busyMeter() {
  let last = performance.now()
  let busy = 0
  let on = true
  const lap = () => {
    const t = performance.now()
    if (t - last > 2) busy += t - last - 1
    last = t
  }
  const tick = () => {
    lap()
    if (on) setTimeout(tick, 0)
  }
  setTimeout(tick, 0)
  return {
    stop() {
      on = false
      lap()
      return busy
    },
  }
}

/**
 * One whole compaction through a mod's hooks: session.compact (timed up to `next`; then the
 * main thread's busy time while a pretend summarizer takes `summarizerMs` to answer; then from
 * its answer to the hook's end), then session.append. Fresh hooks each time (`register` resets
 * the module's state, as a reload would), so every run prunes and logs alike.
 */
async function compaction(register, e, keep = false, options = {}, summarizerMs = 0) {
  const hooks = hooksOf(register, options)
  const { $, writes } = fakeHost(keep)
  let tNext = 0
  let tAnswer = 0
  let during = 0
  let down = null
  const result = compactResult(e)
  const next = (d) => {
    tNext = performance.now()
    down = d
    const meter = busyMeter()
    return new Promise((resolve) =>
      setTimeout(() => {
        during = meter.stop()
        sampleMemory()
        tAnswer = performance.now()
        resolve(result)
      }, summarizerMs),
    )
  }
  next.event = 'session.compact'
  const t0 = performance.now()
  await hooks['session.compact']($, e, next)
  const tEnd = performance.now()
  let appended = null
  const nextAppend = async (d) => {
    appended = d
    return { message: d.message, uuid: 'u' }
  }
  nextAppend.event = 'session.append'
  const a0 = performance.now()
  await hooks['session.append']($, appendEvent(), nextAppend)
  const a1 = performance.now()
  if (!down) throw new Error('the hook never called next')
  return {
    prepare: tNext - t0,
    during,
    after: tEnd - tAnswer + (a1 - a0),
    instructions: down.instructions ?? '',
    writes,
    blocks: appended ? appended.message.content.slice(1).map((b) => b.text) : [],
  }
}

// ---- the reference ----

async function loadReference() {
  if (!existsSync(SEED_PATH)) return null
  const { index, lib } = referenceSources()
  const dir = mkdtempSync(join(tmpdir(), 'cp-bench-ref-'))
  writeFileSync(join(dir, 'index.js'), index)
  writeFileSync(join(dir, 'lib.js'), lib)
  try {
    const mod = await import(pathToFileURL(join(dir, 'index.js')).href)
    const libMod = await import(pathToFileURL(join(dir, 'lib.js')).href)
    return { register: mod.register, lib: libMod }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// ---- the redaction and audit passes, against straightforward JS (bench/baselines.mjs) ----

/**
 * Both passes run inside the hooks, measured as:
 *   redact   the work done while the summarizer runs with redaction (the default) minus the same
 *            with `redactSecrets: false`, the median of run-by-run differences; against `redactJs`
 *            over the history text. Noisy where the pass is small beside the rest (a few ms).
 *   audit    `benchAudit` (target/bench-pkg, the audit session.compact runs, over messages held in the
 *            module beforehand, so no boundary crossing is timed); against `auditJs` over the
 *            same messages and kept text.
 */
function passRows(redactCost, wasmAudit, js, line) {
  line('redact (vs JS)', redactCost, js.redact)
  line('audit (vs JS)', wasmAudit, js.audit)
}


// ---- measuring ----

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Runs each side `reps` times (after `warm` unmeasured runs), alternating which goes first. */
async function measure(sides, reps, warm) {
  const times = Object.fromEntries(Object.keys(sides).map((k) => [k, {}]))
  const names = Object.keys(sides)
  for (let i = 0; i < warm + reps; i++) {
    const order = i % 2 ? [...names].reverse() : names
    for (const name of order) {
      collect()
      const out = await sides[name]()
      if (i < warm) continue
      for (const [k, v] of Object.entries(out)) (times[name][k] ??= []).push(v)
    }
  }
  const medians = { raw: times }
  for (const [name, byKey] of Object.entries(times)) {
    medians[name] = Object.fromEntries(Object.entries(byKey).map(([k, v]) => [k, median(v)]))
  }
  return medians
}

/** The median of run-by-run differences (runs of one round share the machine's load). */
const medianDifference = (a, b) => median(a.map((x, i) => x - (b[i] ?? x)))

const timed = (f) => () => {
  const t0 = performance.now()
  f()
  return { ms: performance.now() - t0 }
}

function repsFor(size, args) {
  if (args.reps) return { reps: args.reps, warm: Math.min(2, args.reps) }
  if (size <= 200) return { reps: 31, warm: 5 }
  if (size <= 1500) return { reps: 15, warm: 3 }
  return { reps: 9, warm: 2 }
}

// ---- compile + instantiate, cold ----

function coldCompile(runs) {
  const script = fileURLToPath(new URL('./compile.mjs', import.meta.url))
  const samples = []
  for (let i = 0; i < runs; i++) {
    try {
      samples.push(JSON.parse(execFileSync(process.execPath, [script], { encoding: 'utf8', timeout: 30000 }).trim().split('\n').pop()))
    } catch (err) {
      return { error: String(err.message ?? err).slice(0, 200) }
    }
  }
  const keys = Object.keys(samples[0] ?? {})
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s[k]))]))
}

// ---- the run ----

const fmt = (ms) => (ms === undefined ? '-' : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2))
const ratio = (a, b) => (a === undefined || b === undefined || !(b > 0) ? '-' : `${(a / b).toFixed(2)}x`)
const mb = (n) => `${(n / 1048576).toFixed(1)} MiB`

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const ref = await loadReference()
  const cpu = cpus()
  const report = {
    date: new Date().toISOString(),
    engine: engine(),
    platform: `${process.platform} ${process.arch}, ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}`,
    commit: commit(),
    load: loadavg().map((x) => +x.toFixed(2)),
    sizes: [],
  }
  console.log(`compact-plus benchmark: ${report.engine}, ${report.platform}`)
  console.log(`${report.date}, ${report.commit}, load average ${report.load.join(' ')}`)
  console.log(ref ? `reference: ${SEED_PATH}` : `reference: not found (${SEED_PATH}); wasm figures alone`)

  const gz = gzipSync(wasmBytes, { level: 9 }).length
  report.wasm = { bytes: wasmBytes.length, gzipBytes: gz }
  console.log(`pkg/compact_plus_bg.wasm: ${wasmBytes.length} bytes, ${gz} gzipped`)

  const rows = []
  let last = null
  for (const size of args.sizes) {
    const e = makeSession(size)
    const s = sessionSize(e)
    const { reps, warm } = repsFor(size, args)
    const meta = { sessionId: SESSION_ID, at: new Date(NOW).toISOString(), trigger: e.trigger }

    // Both sides write the same history (one part: the same text), and the texts the baselines use.
    const history = (writes) => writes.filter(([path]) => path.endsWith('.md'))
    const check = await compaction(registerShim, e, true)
    check.total = check.prepare + check.during + check.after
    const parts = history(check.writes).length
    const wasmWritten = history(check.writes).reduce((n, [, len]) => n + len, 0)
    let refWritten = null
    let same = null
    if (ref) {
      const r = await compaction(ref.register, e, true)
      refWritten = history(r.writes).reduce((n, [, len]) => n + len, 0)
      // One part is the reference's text exactly; a longer history is split under the write limit.
      if (parts === 1) same = history(check.writes)[0][2] === history(r.writes)[0][2]
      if (same === false) console.log(`  WARNING: at ${size} messages the wasm wrote another history text than the reference`)
    }

    // The texts the JS baselines work on: the history as written, the kept text after `next`.
    const historyText = history(check.writes).map((w) => w[2]).join('\n')
    const result = compactResult(e)
    const keptTexts = [...result.messages.map((m) => m.text), ...check.blocks]

    // The pretend summarizer answers well after the work done meanwhile (a real one takes seconds).
    const summarizerMs = Math.max(20, Math.ceil(3 * check.total))
    const side = (register, options) => async () => {
      const r = await compaction(register, e, false, options, summarizerMs)
      return { prepare: r.prepare, during: r.during, after: r.after }
    }
    const hookSides = { wasm: side(registerShim), wasmNoRedact: side(registerShim, { redactSecrets: false }) }
    if (ref) hookSides.ref = side(ref.register)
    const measured = await measure(hookSides, reps, warm)
    const hooks = { wasm: measured.wasm, ref: measured.ref }
    const redactCost = medianDifference(measured.raw.wasm.during, measured.raw.wasmNoRedact.during)
    benchGlue?.benchHold(JSON.stringify(e.messages))
    const keptJson = JSON.stringify(keptTexts)
    const js = await measure(
      {
        redact: timed(() => redactJs(historyText)),
        audit: timed(() => auditJs(e.messages, keptTexts)),
        ...(benchGlue ? { wasmAudit: timed(() => benchGlue.benchAudit(keptJson)) } : {}),
      },
      reps,
      warm,
    )
    benchGlue?.benchHold('[]')
    const lib = await measure(
      {
        ...(benchGlue
          ? {
              wasmSelect: timed(() => benchGlue.selectVerbatim(e.messages, VERBATIM_TOKENS)),
              wasmRender: timed(() => benchGlue.renderHistory(e.messages, meta)),
            }
          : {}),
        ...(ref
          ? {
              refSelect: timed(() => ref.lib.selectVerbatim(e.messages, VERBATIM_TOKENS)),
              refRender: timed(() => ref.lib.renderHistory(e.messages, meta)),
            }
          : {}),
      },
      reps,
      warm,
    )
    const sized = { messages: size, ...s, historyChars: { wasm: wasmWritten, ref: refWritten }, reps }
    const line = (step, w, r) => {
      rows.push([String(size), step, fmt(w), ref ? fmt(r) : '-', ref ? ratio(w, r) : '-'])
      sized[step] = { wasm: w, ref: ref ? r : null }
    }
    if (lib.wasmSelect) line('selectVerbatim', lib.wasmSelect.ms, lib.refSelect?.ms)
    if (lib.wasmRender) line('renderHistory', lib.wasmRender.ms, lib.refRender?.ms)
    line('prepare (to next)', hooks.wasm.prepare, hooks.ref?.prepare)
    line('while summarizing', hooks.wasm.during, hooks.ref?.during)
    line('after its answer + append', hooks.wasm.after, hooks.ref?.after)
    line('all three (CPU)', hooks.wasm.prepare + hooks.wasm.during + hooks.wasm.after, hooks.ref ? hooks.ref.prepare + hooks.ref.during + hooks.ref.after : undefined)
    passRows(redactCost, js.wasmAudit?.ms ?? NaN, { redact: js.redact.ms, audit: js.audit.ms }, (step, w, j) => {
      // A difference at or under zero: the pass is lost in the noise of the whole preparation.
      rows.push([String(size), step, Number.isNaN(w) ? 'not timed' : w > 0 ? fmt(w) : '~0', fmt(j), w > 0 ? ratio(w, j) : '-'])
      sized[step] = { wasm: w, js: j }
    })
    report.sizes.push(sized)
    console.log(
      `  ${size} messages: ${mb(s.jsonBytes)} JSON (${(s.textChars / 1e6).toFixed(2)} M chars of text), history ${wasmWritten} chars wasm / ${refWritten ?? '-'} ref${same ? ' (same text)' : ''}, ${parts} part(s), ${check.blocks.length} block(s), ${reps} runs`,
    )
    last = e
  }

  // Peak linear memory: a fresh instance (memory only grows), one whole compaction of the largest.
  if (last) {
    glue.__wbg_reset_state()
    const before = memory().buffer.byteLength
    peakSeen = before
    await compaction(registerShim, last)
    const peak = Math.max(peakSeen, memory().buffer.byteLength)
    const s = sessionSize(last)
    report.memory = { freshBytes: before, peakBytes: peak, sessionJsonBytes: s.jsonBytes, ratio: peak / s.jsonBytes }
  }

  report.compile = coldCompile(args.compileRuns)

  const head = ['messages', 'step', 'wasm ms', 'ref/JS ms', 'ratio']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const pad = (r) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  console.log('')
  console.log(pad(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const r of rows) console.log(pad(r))
  console.log('')
  if (report.memory) {
    const m = report.memory
    console.log(`peak wasm linear memory, one compaction of ${args.sizes[args.sizes.length - 1]} messages: ${mb(m.peakBytes)} (fresh ${mb(m.freshBytes)}) = ${m.ratio.toFixed(2)}x the session's ${mb(m.sessionJsonBytes)} of JSON`)
  }
  const c = report.compile
  if (c.error) console.log(`cold compile: failed: ${c.error}`)
  else console.log(`cold, fresh process (median of ${args.compileRuns}): compile ${fmt(c.compile)} ms, instantiate + start ${fmt(c.instantiate)} ms, first call ${fmt(c.firstCall)} ms (glue import ${fmt(c.glueImport)} ms)`)

  report.loadAfter = loadavg().map((x) => +x.toFixed(2))
  console.log(`load average after: ${report.loadAfter.join(' ')}`)
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2) + '\n')
}

await main()
