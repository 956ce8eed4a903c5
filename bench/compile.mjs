// One cold compile + instantiate of the committed .wasm, in a fresh process (run.mjs spawns this
// a few times and takes the median). Prints one JSON line: milliseconds for reading the file,
// `new WebAssembly.Module(bytes)` (the host's `$.wasm.compile` does this part), and the glue's
// `initSync({ module })` (`new WebAssembly.Instance` + the start function), as the shim does it.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const t0 = performance.now()
const bytes = readFileSync(fileURLToPath(new URL('../pkg/compact_plus_bg.wasm', import.meta.url)))
const t1 = performance.now()
const module = new WebAssembly.Module(bytes)
const t2 = performance.now()
const glue = await import('../pkg/compact_plus.js')
const t3 = performance.now()
glue.initSync({ module })
glue.init('{}', '', 1)
const t4 = performance.now()
// The first real call pays for lazy tiers (JavaScriptCore compiles functions on first use).
glue.start('turn.complete', '{"reason":"answer"}')
const t5 = performance.now()
console.log(JSON.stringify({ read: t1 - t0, compile: t2 - t1, glueImport: t3 - t2, instantiate: t4 - t3, firstCall: t5 - t4 }))
