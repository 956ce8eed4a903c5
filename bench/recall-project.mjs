#!/usr/bin/env node
// Project recall's cost (issue [12], "Memory and speed"): the real shim and both .wasm modules
// answer `recall` with scope `project` over 20 earlier Claude Code sessions of this project, each a
// transcript of about 4 MB (one row shape the real CLI writes: bench/session.mjs's kind of
// filler, a marker near each end), on the fake host of the shim's tests (tests/shim/fake-host.mjs,
// whose `$.fs.read` ranges and `$.session.cwd` follow the d.ts). Prints the time of the first call
// and of repeated ones (the module keeps nothing between calls, so a repeat re-reads what the
// core's caps allow, newest first), the process's peak resident memory, and what each call read.
// Figures are printed, never judged: --quick (CI) proves it runs, at a small size.
//
//   node bench/recall-project.mjs [--sessions 20] [--mb 4] [--repeat 3] [--quick] [--json FILE]
import { writeFileSync } from 'node:fs'

import { register } from '../js/compact-plus.js'
import { withShim } from '../tests/shim/fake-host.mjs'
import { RECALL_TOOL } from '../pkg/compact_plus.js'

function parseArgs(argv) {
  const args = { sessions: 20, mb: 4, repeat: 3, quick: false, json: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--sessions') args.sessions = Number(value())
    else if (a === '--mb') args.mb = Number(value())
    else if (a === '--repeat') args.repeat = Number(value())
    else if (a === '--quick') args.quick = true
    else if (a === '--json') args.json = value()
    else if (a === '--help' || a === '-h') {
      console.log('usage: recall-project.mjs [--sessions 20] [--mb 4] [--repeat 3] [--quick] [--json FILE]')
      process.exit(0)
    } else throw new Error(`unknown argument: ${a}`)
  }
  if (args.quick) Object.assign(args, { sessions: 4, mb: 0.25, repeat: 2 })
  if (!(args.sessions > 0 && args.mb > 0 && args.repeat > 0)) throw new Error('--sessions, --mb and --repeat take positive numbers')
  return args
}

const DAY = 86400000
const isBun = typeof globalThis.Bun !== 'undefined'
const engine = () => (isBun ? `Bun ${Bun.version}` : `Node ${process.versions.node} (V8 ${process.versions.v8})`)
const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`

function row(type, text, ts, session) {
  const content = type === 'user' ? text : [{ type: 'text', text }]
  return JSON.stringify({ parentUuid: null, isSidechain: false, type, message: { role: type, content }, timestamp: ts, sessionId: session, cwd: '/work/app', version: '2.1.328' })
}

function transcript(n, bytes) {
  const session = `${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`
  const ts = `2026-11-${String(1 + (n % 28)).padStart(2, '0')}T10:00:00.000Z`
  const lines = [row('user', `session ${n}: the heron-${n} parser drops tokens`, ts, session)]
  let size = lines[0].length + 1
  for (let i = 0; size < bytes; i++) {
    const line = row(i % 2 ? 'user' : 'assistant', `step ${i} of session ${n}: ${'lorem ipsum dolor sit amet '.repeat(30)}`, ts, session)
    lines.push(line)
    size += line.length + 1
  }
  lines.push(row('assistant', `we decided heron-${n} keeps the lexer`, ts, session))
  return { session, text: lines.join('\n') + '\n' }
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  const bytes = Math.round(args.mb * 1e6)
  const host = withShim(register, {}, {})
  const here = '/home/u/.claude/projects/-work-app'
  let total = 0
  for (let n = 0; n < args.sessions; n++) {
    const t = transcript(n, bytes)
    total += t.text.length
    host.addFile(`${here}/${t.session}.jsonl`, t.text, host.now - (n + 1) * DAY)
  }
  const call = async (input) => {
    const before = host.calls.length
    const t0 = performance.now()
    const out = await host.fire('tool.call', { tool: RECALL_TOOL.name, ...input }, () => {
      throw new Error('next')
    })
    const ms = performance.now() - t0
    const reads = host.calls.slice(before).filter((c) => c.op === 'fs.read')
    const read = reads.reduce((sum, c) => sum + (c.args?.[1]?.length ?? 0), 0)
    return { ms, reads: reads.length, read, answer: String(out.value?.result ?? '') }
  }
  console.log(`project recall (${engine()}): ${args.sessions} sessions of ${mib(bytes)} (${mib(total)} in all)`)
  // What the fake host's files and the process hold before any call.
  const setupRss = process.memoryUsage().rss
  const runs = []
  for (let i = 0; i < args.repeat; i++) runs.push(await call({ query: 'heron-0 lexer', scope: 'project' }))
  const view = await call({ scope: 'project' })
  const rss = process.resourceUsage().maxRSS * 1024
  const head = runs[0].answer.split('\n')[0]
  runs.forEach((r, i) => console.log(`  search ${i ? 'repeated' : 'first   '}: ${r.ms.toFixed(0)} ms, ${r.reads} reads, ${mib(r.read)} read`))
  console.log(`  sessions view: ${view.ms.toFixed(0)} ms, ${view.reads} reads`)
  console.log(`  peak resident memory of the process: ${mib(rss)} (${mib(setupRss)} with the files in place, before any call)`)
  console.log(`  answer: ${head}`)
  const ok = runs.every((r) => r.answer === runs[0].answer) && /^recall: \d+ hits?/.test(head)
  console.log(`  repeated calls answer the same: ${ok}`)
  if (args.json) {
    writeFileSync(args.json, JSON.stringify({ engine: engine(), ...args, bytes, total, runs: runs.map(({ answer, ...r }) => r), view: { ms: view.ms, reads: view.reads }, setupRss, peakRss: rss, head }, null, 2))
  }
  if (!ok) process.exitCode = 1
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
