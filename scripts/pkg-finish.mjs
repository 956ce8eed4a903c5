// Finishes pkg/ after wasm-bindgen: the reference's constant exports (wasm
// exports only functions, so their values are read from the built module and
// written out), and the package.json wasm-pack would write.
//   node scripts/pkg-finish.mjs [folder]   another glue folder (target/dev-pkg): constants only
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'

const other = process.argv[2]
const pkg = other ? pathToFileURL(resolve(other) + '/') : new URL('../pkg/', import.meta.url)
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
