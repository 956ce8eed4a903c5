// Finishes pkg/ after wasm-bindgen: the glue without what no caller uses, the
// reference's constant exports (wasm exports only functions, so their values
// are read from the built module and written out), and the package.json
// wasm-pack would write.
//   node scripts/pkg-finish.mjs [folder]   another glue folder (target/dev-pkg): constants only
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

const other = process.argv[2]
const pkg = other ? pathToFileURL(resolve(other) + '/') : new URL('../pkg/', import.meta.url)

// The host reads and scans every line of code the shim imports on its main
// thread before the hooks worker starts, about 2.4 ms a KB of code at start-up
// (comments cost nothing: tests/HOST.md "Start-up", bench/host-cost.mjs). The
// glue's asynchronous init (fetch, streaming, the default export) and its
// `encodeInto` fallback serve browsers; the shim, the tests and the benches
// call `initSync`, in Bun and Node, which have `encodeInto`. Each cut must find
// its text exactly as wasm-bindgen writes it, or the build stops, so a new
// wasm-bindgen is looked at, not cut blind.
const CUTS = [
  [/\nasync function __wbg_load\(module, imports\) \{\n[\s\S]*?\n\}\n/, '\n'],
  [/\nlet __wbg_init_promise;\nasync function __wbg_init\(module_or_path\) \{\n[\s\S]*?\n\}\n\nasync function __wbg_init_once\(module_or_path\) \{\n[\s\S]*?\n\}\n/, '\n'],
  ['\nexport { initSync, __wbg_init as default };\n', '\nexport { initSync };\n'],
  [/\nif \(!\('encodeInto' in cachedTextEncoder\)\) \{\n[\s\S]*?\n\}\n/, '\n'],
]
// The d.ts says what is left: no default export.
const TYPE_CUTS = [[/\n\/\*\*\n \* If `module_or_path` is[\s\S]*?\nexport default function __wbg_init \([^\n]*\n/, '']]
function lean(file, cuts = CUTS) {
  let js = readFileSync(file, 'utf8')
  for (const [from, to] of cuts) {
    const next = js.replace(from, to)
    if (next === js) throw new Error(`scripts/pkg-finish.mjs: ${file.pathname ?? file} has no ${from}: wasm-bindgen's glue changed shape`)
    js = next
  }
  if (/__wbg_init\b|instantiateStreaming|\bfetch\(/.test(js) && cuts === CUTS) throw new Error(`scripts/pkg-finish.mjs: ${file.pathname ?? file} still holds the asynchronous init`)
  writeFileSync(file, js)
}
if (!other) {
  for (const glue of ['compact_plus', 'recall/compact_plus_recall']) {
    lean(new URL(`${glue}.js`, pkg))
    lean(new URL(`${glue}.d.ts`, pkg), TYPE_CUTS)
  }
}
const glue = await import(new URL('compact_plus.js', pkg))
glue.initSync({ module: readFileSync(new URL('compact_plus_bg.wasm', pkg)) })
const constants = glue.__constants()

let js = '\n// The reference lib.js constants, as the Rust core defines them.\n'
let dts = '\n'
for (const [name, value] of Object.entries(constants)) {
  js += `export const ${name} = ${JSON.stringify(value)};\n`
  dts += `export const ${name}: ${typeof value};\n`
}
appendFileSync(new URL('compact_plus.js', pkg), js)
appendFileSync(new URL('compact_plus.d.ts', pkg), dts)
if (other) process.exit(0)

const cargo = readFileSync(new URL('../Cargo.toml', import.meta.url), 'utf8')
const field = (k) => cargo.match(new RegExp(`^${k} = "([^"]*)"`, 'm'))?.[1]
const manifest = {
  name: 'compact-plus',
  type: 'module',
  description: field('description'),
  version: field('version'),
  license: field('license'),
  files: ['compact_plus_bg.wasm', 'compact_plus.js', 'compact_plus.d.ts', 'recall/'],
  main: 'compact_plus.js',
  types: 'compact_plus.d.ts',
  sideEffects: ['./snippets/*'],
}
writeFileSync(new URL('package.json', pkg), JSON.stringify(manifest, null, 2) + '\n')
