#!/usr/bin/env node
// Compile + instantiate of the committed .wasm inside the REAL host (Claude Code, level-3 harness:
// tests/e2e/harness.mjs, fake Messages API on 127.0.0.1). The mod is copied to a temp folder and
// the copy's shim (js/compact-plus.js, js/core.js) logs performance.now() around `$.wasm.compile`
// and around `initSync` + `init` to the debug log; the repo's own shim is not touched. One `hello` turn per CLI run (its hooks
// compile the module); prints each run and the median.
//
//   node bench/host-compile.mjs [runs]      (default 5; needs the CLI: scripts/setup)
//   node bench/host-compile.mjs --quick     (one run: CI's proof that it runs)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { REPO_ROOT, runSession } from '../tests/e2e/harness.mjs'

const runs = process.argv[2] === '--quick' ? 1 : Number(process.argv[2] ?? 5)
const mod = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-bench-host-'))
for (const p of ['.claude-plugin', 'mod.json', 'js', 'pkg']) fs.cpSync(path.join(REPO_ROOT, p), path.join(mod, p), { recursive: true })

// The shim is js/compact-plus.js (the compile, the hooks) and js/core.js (the instance): each
// wrapper must find its text exactly, or the bench stops, so a changed shim is looked at.
const shimPath = path.join(mod, 'js', 'compact-plus.js')
const wasmPath = path.join(mod, 'js', 'core.js')
let shim = fs.readFileSync(shimPath, 'utf8')
let wasmJs = fs.readFileSync(wasmPath, 'utf8')
const compile = "core.compiled ??= $.wasm\n    .compile('../pkg/compact_plus_bg.wasm')"
const ready = "    instantiate(module) {\n      if (core.live) return\n      initSync({ module })\n      init(core.options, core.carried, core.lastId + 1)\n      core.live = true\n    },"
// How long the first hook that needs the core waited for the module (tool.list, where the compile
// starts, does not); its io.log is the debug log the other lines go to.
const awaitCompiled = '    const module = await core.compiledWithin(io)\n'
if (!shim.includes(compile) || !wasmJs.includes(ready) || !shim.includes(awaitCompiled)) {
  throw new Error('js/compact-plus.js or js/core.js changed shape: update the wrappers in bench/host-compile.mjs')
}
// Beside the compile, a `$.clock.now()` started at the same moment: how long any `$` call takes to
// come back then (the host's own work at that moment), so the compile's share can be told apart.
shim = shim.replace(
  compile,
  "core.compiled ??= ((t0) => { $.clock.now().then(() => $.ui.log(`compact-plus-bench: a $ call meanwhile ${(performance.now() - t0).toFixed(2)} ms`, { to: 'debug' })); return $.wasm.compile('../pkg/compact_plus_bg.wasm').then((m) => { $.ui.log(`compact-plus-bench: compile ${(performance.now() - t0).toFixed(2)} ms`, { to: 'debug' }); return m }) })(performance.now())",
)
shim = shim.replace(
  awaitCompiled,
  "    globalThis.__benchLog ??= io.log\n    const tWait = performance.now()\n    const module = await core.compiledWithin(io)\n    if (!globalThis.__benchWaited) { globalThis.__benchWaited = true; io.log(`compact-plus-bench: first wait ${hook} ${(performance.now() - tWait).toFixed(2)} ms`) }\n",
)
wasmJs = wasmJs.replace(
  ready,
  `    instantiate(module) {
      if (core.live) return
      const t0 = performance.now()
      initSync({ module })
      const t1 = performance.now()
      init(core.options, core.carried, core.lastId + 1)
      core.live = true
      globalThis.__benchLog?.(\`compact-plus-bench: instantiate \${(t1 - t0).toFixed(2)} ms, init \${(performance.now() - t1).toFixed(2)} ms\`)
    },`,
)
fs.writeFileSync(shimPath, shim)
fs.writeFileSync(wasmPath, wasmJs)

const samples = []
try {
  for (let i = 0; i < runs; i++) {
    const run = await runSession({ mod, turns: ['hello'], label: 'bench-compile' })
    const lines = run.debugLog.split('\n').filter((l) => l.includes('compact-plus-bench:'))
    const num = (re) => {
      for (const l of lines) {
        const m = l.match(re)
        if (m) return Number(m[1])
      }
      return null
    }
    const s = { compile: num(/compile ([\d.]+) ms/), instantiate: num(/instantiate ([\d.]+) ms/), init: num(/init ([\d.]+) ms/), call: num(/a \$ call meanwhile ([\d.]+) ms/), wait: num(/first wait \S+ ([\d.]+) ms/) }
    console.log(`run ${i + 1}: $.wasm.compile ${s.compile} ms, instantiate ${s.instantiate} ms, init ${s.init} ms; a $.clock.now() started with it: ${s.call} ms; the first hook needing the core waited ${s.wait} ms for it`)
    if (s.compile === null) console.log('  (no bench line in the debug log: did a hook run?)')
    samples.push(s)
  }
} finally {
  fs.rmSync(mod, { recursive: true, force: true })
}
const median = (k) => {
  const v = samples.map((s) => s[k]).filter((x) => x !== null).sort((a, b) => a - b)
  return v.length ? v[v.length >> 1] : null
}
const size = fs.statSync(path.join(REPO_ROOT, 'pkg', 'compact_plus_bg.wasm')).size
const total = median('compile') !== null && median('instantiate') !== null ? (median('compile') + median('instantiate')).toFixed(2) : '-'
console.log(`real host, median of ${runs}: $.wasm.compile ${median('compile')} ms + instantiate ${median('instantiate')} ms = ${total} ms (init ${median('init')} ms); .wasm ${size} bytes`)
console.log(`a $.clock.now() started with the compile came back after ${median('call')} ms (median): the host's own work at that moment`)
console.log(`the first hook needing the core waited ${median('wait')} ms for the module (median; the compile starts at the first hook, tool.list or prompt.context, whichever the engine raises first; prompt.context's next does not wait for it)`)
