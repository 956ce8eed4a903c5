#!/usr/bin/env node
// The memory the core hands back (issue [8], "Memory handed back"): wasm linear memory only grows,
// so after one large compaction an instance would keep its peak for the rest of the process. The
// core says when (`handBack`, src/hooks/mod.rs: past 32 MiB, no hook in flight) and the shim
// rebuilds the instance, its state carried (js/core.js `core.step`). Runs as is under Node and under Bun:
//
//   node bench/memory.mjs [--messages 4096] [--quick] [--json FILE]
//
// Drives the real shim through one `auto` compaction of a synthetic session (bench/session.mjs;
// 4,096 messages are about 24 MB of JSON) against the fake host of the shim's tests
// (tests/shim/fake-host.mjs, which answers as the real CLI was measured to), then the summary row
// at door `compaction` as the engine appends it headless. Prints the core's linear memory
// (`memoryBytes`) before the compaction, at its peak (sampled at every `$` call the shim makes,
// the core idle between steps, and the figure the shim logs as it hands the memory back), and
// after the hand-back, in bytes and as ratios; and whether the blocks the compaction made still
// reached the summary row after the rebuild (its carried state). Figures are printed, never
// judged: --quick (CI) proves it runs, on a session too small to be handed back.
import { writeFileSync } from 'node:fs'

import { register } from '../js/compact-plus.js'
import { memoryBytes } from '../pkg/compact_plus.js'
import { withShim, VERBATIM_OPEN, POINTER_HEAD, count } from '../tests/shim/fake-host.mjs'
import { commit, makeSession, sessionSize } from './session.mjs'

const HAND_BACK_BYTES = 32 * 1024 * 1024 // src/hooks/mod.rs HAND_BACK_BYTES

function parseArgs(argv) {
  const args = { messages: 4096, quick: false, json: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--messages') args.messages = Number(value())
    else if (a === '--quick') args.quick = true
    else if (a === '--json') args.json = value()
    else if (a === '--help' || a === '-h') {
      console.log('usage: memory.mjs [--messages 4096] [--quick] [--json FILE]')
      process.exit(0)
    } else throw new Error(`unknown argument: ${a}`)
  }
  if (args.quick) args.messages = 200
  if (!(args.messages > 0)) throw new Error('--messages takes a positive number')
  return args
}

const isBun = typeof globalThis.Bun !== 'undefined'
const engine = () => (isBun ? `Bun ${Bun.version}` : `Node ${process.versions.node} (V8 ${process.versions.v8})`)


const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`
const x = (a, b) => (b > 0 ? `${(a / b).toFixed(a / b < 0.1 ? 3 : 2)}x` : '-')

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const e = makeSession(args.messages)
  const size = sessionSize(e)
  let sampled = 0
  const host = withShim(register, { mode: 'headless', messages: e.messages, onCall: () => (sampled = Math.max(sampled, memoryBytes())) })

  // The core is instantiated by its first hook: a turn's end, as a session has before it compacts.
  await host.turnComplete()
  await host.settle()
  const before = memoryBytes()
  sampled = before

  const t0 = performance.now()
  const compaction = await host.fire('session.compact', { trigger: 'auto', messages: host.conversation }, (d) => host.summarize(d))
  const ms = performance.now() - t0
  const after = memoryBytes()
  if (compaction.hookError || !Array.isArray(compaction.value?.messages)) throw new Error(`the compaction failed: ${compaction.hookError}`)

  // The shim's own line: the memory it had just before the rebuild, and after.
  const line = host.debugLines("the core's memory handed back")[0] ?? null
  const logged = line?.match(/\((\d+) bytes, now (\d+)\)/)
  const peak = Math.max(sampled, logged ? Number(logged[1]) : 0)

  // The state carried across the rebuild: the blocks reach the summary row as the engine appends it.
  const row = await host.fire(
    'session.append',
    { message: { type: 'user', role: 'user', content: [{ type: 'text', text: compaction.value.messages[0].text }] }, door: 'compaction', origin: { kind: 'engine' }, uuid: compaction.value.messages[0].handle },
    (d) => ({ message: d.message, uuid: compaction.value.messages[0].handle }),
  )
  const stored = row.value.message.content.map((c) => c.text).join('\n')
  const blocks = { verbatim: count(stored, VERBATIM_OPEN), pointer: count(stored, POINTER_HEAD) }
  await host.settle()

  const report = {
    date: new Date().toISOString(),
    engine: engine(),
    commit: commit(),
    messages: args.messages,
    sessionJsonBytes: size.jsonBytes,
    compactionMs: ms,
    beforeBytes: before,
    peakBytes: peak,
    afterBytes: after,
    handedBack: line !== null,
    handBackBoundBytes: HAND_BACK_BYTES,
    shimLine: line,
    blocksAfter: blocks,
  }
  console.log(`compact-plus memory handed back: ${report.engine}, ${report.date}, ${report.commit}`)
  console.log(`session: ${args.messages} messages, ${mib(size.jsonBytes)} of JSON; one auto compaction through the shim, ${ms.toFixed(0)} ms`)
  console.log(`core linear memory: before ${before} bytes (${mib(before)}), peak ${peak} (${mib(peak)}), after ${after} (${mib(after)})`)
  console.log(`  peak/before ${x(peak, before)}, peak/session JSON ${x(peak, size.jsonBytes)}, after/peak ${x(after, peak)}, after/before ${x(after, before)}`)
  if (line) console.log(`  handed back ${peak - after} bytes (${((1 - after / peak) * 100).toFixed(1)} %); the shim: ${line}`)
  else console.log(`  not handed back: the peak is under the shim's ${mib(HAND_BACK_BYTES)} bound`)
  console.log(`state carried: the summary row after the compaction got ${blocks.verbatim} verbatim block(s) and ${blocks.pointer} pointer(s)`)
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2) + '\n')
}

await main()
