#!/usr/bin/env node
// Wasm figures of the redaction benchmark (bench/redact/run.sh builds the module): each
// redactor over every line of every transcript under the folder given, best of 9 alternating rounds, MB/s
// and new/old. Nothing is judged: the figures are printed.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const [wasmPath, dir = '../shared/real-transcripts'] = process.argv.slice(2)
const files = []
const walk = (d) => {
  for (const name of readdirSync(d).sort()) {
    const p = join(d, name)
    if (statSync(p).isDirectory()) walk(p)
    else if (p.endsWith('.jsonl')) files.push(p)
  }
}
walk(dir)
const text = Buffer.from(files.map((f) => readFileSync(f, 'utf8')).join('\n'))
const mb = text.length / (1 << 20)
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {})
const { memory, buffer } = instance.exports
const at = buffer(text.length)
new Uint8Array(memory.buffer, at, text.length).set(text)
console.log(`wasm: ${files.length} files, ${mb.toFixed(1)} MB`)
// Old and new alternate, 9 rounds, best of each: the machine's load drifts, and both see it.
const best = { old: Infinity, new: Infinity }
const changed = {}
for (const which of ['old', 'new']) instance.exports[`redact_${which}`]()
for (let round = 0; round < 9; round++) {
  for (const which of ['old', 'new']) {
    const t = performance.now()
    changed[which] = instance.exports[`redact_${which}`]()
    best[which] = Math.min(best[which], performance.now() - t)
  }
}
const rate = {}
for (const which of ['old', 'new']) {
  rate[which] = mb / (best[which] / 1000)
  console.log(`wasm ${which} redactor:   ${rate[which].toFixed(1).padStart(7)} MB/s (${changed[which]} lines changed)`)
}
console.log(`wasm new/old:        ${(rate.new / rate.old).toFixed(2).padStart(7)}x`)
