#!/usr/bin/env node
// Project recall's cost (issue [17]): the real shim and both .wasm modules answer `recall` with
// scope `project` over N earlier Claude Code sessions of this project, each a transcript of about
// 4 MB (the row shape the real CLI writes: bench/session.mjs's kind of filler, a marker near each
// end), and, in the same run, a plain scan of the same bytes: the same `$.fs.read` calls, each text
// searched by a V8 regex for the same terms. The files are on disk (a temp folder standing for the
// home), read through the fake host of the shim's tests (tests/shim/fake-host.mjs: a worker hop
// and a structured clone per answer, as the real host's MessagePort); so the process holds one
// read at a time, not the files, and the memory a call adds is measured, not the fake's.
//
// Each measurement runs in a process of its own (`node --expose-gc`, or `bun`): the modules
// compiled by a first call, then per run a garbage collection, the resident memory, the run, and
// the most resident memory seen at any of its reads; "added" is that less the memory before. Prints
// the time of the process's first search call and of later ones (the module keeps nothing between
// calls; the best of --repeat), the sessions view, each as a multiple of the scan, and what a
// call read. Printed, never judged:
// --quick (CI) proves it runs, at a small size. `--shim DIR` measures the shim and pkg/ of another
// tree (a checkout of an older commit), for a before/after in one run.
//
// --md ends with the figures as rows of docs/recall.md's table.
//
//   node bench/recall-project.mjs [--sessions 20,100] [--mb 4] [--repeat 3] [--quick] [--shim DIR] [--json FILE] [--md]
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, openSync, readSync, closeSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const DAY = 86400000
const QUERY = 'heron-0 lexer'
const PROJECT = '/home/u/.claude/projects/-work-app'
const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`
const isBun = typeof globalThis.Bun !== 'undefined'

function parseArgs(argv) {
  const args = { sessions: [20, 100], mb: 4, repeat: 3, quick: false, shim: null, json: null, md: false, child: null, root: null, reads: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--sessions') args.sessions = value().split(',').map(Number)
    else if (a === '--mb') args.mb = Number(value())
    else if (a === '--repeat') args.repeat = Number(value())
    else if (a === '--quick') args.quick = true
    else if (a === '--shim') args.shim = resolve(value())
    else if (a === '--json') args.json = value()
    else if (a === '--md') args.md = true
    else if (a === '--child') args.child = value()
    else if (a === '--root') args.root = value()
    else if (a === '--reads') args.reads = value()
    else if (a === '--help' || a === '-h') {
      console.log('usage: recall-project.mjs [--sessions 20,100] [--mb 4] [--repeat 3] [--quick] [--shim DIR] [--json FILE] [--md]')
      process.exit(0)
    } else throw new Error(`unknown argument: ${a}`)
  }
  if (args.quick) Object.assign(args, { sessions: [4], mb: 0.25, repeat: 2 })
  if (!(args.sessions.every((n) => n > 0) && args.mb > 0 && args.repeat > 0)) throw new Error('--sessions, --mb and --repeat take positive numbers')
  return args
}

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

/** N sessions of this project on disk under `root` (the home's `/`), newest first by mtime. */
function place(root, sessions, bytes, now) {
  const dir = join(root, PROJECT)
  mkdirSync(dir, { recursive: true })
  let total = 0
  for (let n = 0; n < sessions; n++) {
    const t = transcript(n, bytes)
    const file = join(dir, `${t.session}.jsonl`)
    writeFileSync(file, t.text)
    const at = new Date(now - (n + 1) * DAY)
    utimesSync(file, at, at)
    total += t.text.length
  }
  return total
}

// ---- a child: one measurement, in a process of its own ----

/**
 * The fake host's `$.fs`, on the files under `root`: a worker hop and a structured clone per answer
 * (the worker boundary); a read goes into one buffer the host keeps, so what a call adds is the
 * plugin's, not the fake's.
 */
function diskFs(host, root, hop, sample) {
  let pool = Buffer.alloc(0)
  const real = (p) => join(root, String(p))
  const rec = (op, args) => host.calls.push({ op, args })
  const kind = (s) => (s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other')
  host.$.fs.read = async (p, o) => {
    rec('fs.read', [p, o])
    await hop()
    const fd = openSync(real(p), 'r')
    try {
      const length = o?.length ?? statSync(real(p)).size
      if (pool.length < length) pool = Buffer.allocUnsafe(length)
      const n = readSync(fd, pool, 0, length, o?.offset ?? 0)
      sample()
      return structuredClone(pool.toString('utf8', 0, n))
    } finally {
      closeSync(fd)
    }
  }
  host.$.fs.list = async (p) => {
    rec('fs.list', [p])
    await hop()
    return readdirSync(real(p)).map((name) => {
      const s = statSync(join(real(p), name))
      return { name, kind: kind(s), size: s.isFile() ? s.size : 0, mtimeMs: s.isFile() ? s.mtimeMs : 0, isLink: false }
    })
  }
  host.$.fs.stat = async (p) => {
    rec('fs.stat', [p])
    await hop()
    const s = statSync(real(p))
    return { kind: kind(s), size: s.size, mtimeMs: s.mtimeMs, isLink: false }
  }
  host.$.fs.exists = async (p) => {
    rec('fs.exists', [p])
    await hop()
    try {
      statSync(real(p))
      return true
    } catch {
      return false
    }
  }
}

async function child(args) {
  const shimRoot = args.shim ?? resolve(HERE, '..')
  const { register } = await import(pathToFileURL(join(shimRoot, 'js/compact-plus.js')))
  // The tool's name as that tree's shim hooks it: a tool of its own (`compact_plus_recall`) since
  // issue [13]'s start-up work, an MCP server's before (`recall`, listed as mcp__compact-plus__recall).
  const { RECALL_TOOL } = await import(pathToFileURL(join(shimRoot, 'pkg/compact_plus.js')))
  const toolName = RECALL_TOOL.name === 'recall' ? 'mcp__compact-plus__recall' : RECALL_TOOL.name
  const { FakeHost, hop } = await import(new URL('../tests/shim/fake-host.mjs', import.meta.url))
  const compile = (path) => WebAssembly.compile(readFileSync(resolve(shimRoot, 'js', path)))
  const host = new FakeHost({ compile })
  host.now = Date.now()
  register(host.on, {})
  // The process's memory at each read, by kind: where a peak comes from.
  const most = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }
  const sample = () => {
    const m = process.memoryUsage()
    for (const k of Object.keys(most)) most[k] = Math.max(most[k], m[k])
  }
  diskFs(host, args.root, hop, sample)
  const gc = () => (isBun ? Bun.gc(true) : globalThis.gc?.())
  const call = async (input) => {
    const before = host.calls.length
    const t0 = performance.now()
    const out = await host.fire('tool.call', { tool: toolName, ...input }, () => {
      throw new Error('next')
    })
    const ms = performance.now() - t0
    const reads = host.calls.slice(before).filter((c) => c.op === 'fs.read').map((c) => [c.args[0], c.args[1]?.offset ?? 0, c.args[1]?.length ?? 0])
    return { ms, reads, answer: String(out.value?.result ?? '') }
  }
  // Both modules compiled (a call of scope session with nothing saved). Each measured run starts
  // after a collection; its memory is the most the process held at any read of it (or at its end)
  // less what it held before: the first run's pays the recall module's first instance and its
  // code's compilation by the engine, the next ones a call's alone.
  await call({ query: 'warm' })
  const result = { runs: [] }
  const measured = async (run) => {
    gc()
    const before = process.memoryUsage().rss
    for (const k of Object.keys(most)) most[k] = 0
    const out = await run()
    sample()
    result.runs.push({ ...out, added: most.rss - before, heap: most.heapUsed, external: most.external })
    return out
  }
  const terms = new RegExp(QUERY.split(' ').map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi')
  // The plain scan: the same reads, each text searched by a V8 regex.
  const scan = async (reads) => {
    let readMs = 0
    let hits = 0
    const t0 = performance.now()
    for (const [path, offset, length] of reads) {
      const r0 = performance.now()
      const text = await host.$.fs.read(path, { offset, length })
      readMs += performance.now() - r0
      terms.lastIndex = 0
      while (terms.exec(text)) hits++
    }
    return { ms: performance.now() - t0, readMs, hits }
  }
  if (args.child === 'scan') {
    const reads = JSON.parse(readFileSync(args.reads, 'utf8'))
    for (let r = 0; r < args.repeat; r++) await measured(() => scan(reads))
  } else {
    // Each call, then the scan of its reads: the two timed in turn, in one process, so a busy
    // machine slows both alike.
    const input = args.child === 'view' ? { scope: 'project' } : { query: QUERY, scope: 'project' }
    let first = null
    result.scans = []
    for (let r = 0; r < args.repeat; r++) {
      const out = await measured(() => call(input))
      first ??= out
      result.same = (result.same ?? true) && out.answer === first.answer
      result.scans.push((await scan(out.reads)).ms)
    }
    result.reads = first.reads
    result.head = first.answer.split('\n')[0]
    for (const r of result.runs) {
      r.read = r.reads.reduce((n, x) => n + x[2], 0)
      r.reads = r.reads.length
      delete r.answer
    }
  }
  process.stdout.write(JSON.stringify(result))
}

// ---- the parent: places the files, runs each measurement, prints ----

function measure(mode, args, root, reads) {
  const argv = [...(isBun ? [] : ['--expose-gc']), fileURLToPath(import.meta.url), '--child', mode, '--root', root, '--repeat', String(args.repeat)]
  if (args.shim) argv.push('--shim', args.shim)
  if (reads) argv.push('--reads', reads)
  const out = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 64 << 20 })
  if (out.status !== 0) throw new Error(`${mode}: ${out.stderr}`)
  return JSON.parse(out.stdout)
}

async function main() {
  const args = parseArgs(process.argv.slice(2))
  if (args.child) return child(args)
  const engine = isBun ? `Bun ${Bun.version} (JavaScriptCore, the engine Claude Code runs on)` : `Node ${process.versions.node} (V8 ${process.versions.v8})`
  const shim = args.shim ? `the shim and pkg/ of ${args.shim}` : 'this tree\'s shim and pkg/'
  console.log(`project recall, ${engine}, ${shim}; the query "${QUERY}"`)
  const report = []
  for (const sessions of args.sessions) {
    const root = mkdtempSync(join(tmpdir(), 'recall-bench-'))
    try {
      const bytes = Math.round(args.mb * 1e6)
      const total = place(root, sessions, bytes, Date.now())
      const search = measure('search', args, root)
      const readsFile = join(root, 'reads.json')
      writeFileSync(readsFile, JSON.stringify(search.reads))
      const scan = measure('scan', args, root, readsFile)
      const view = measure('view', args, root)
      const read = search.runs[0].read
      const best = (runs) => Math.min(...runs.map((r) => r.ms))
      const most = (runs) => Math.max(0, ...runs.map((r) => r.added))
      const later = (runs) => (runs.length > 1 ? runs.slice(1) : runs)
      const line = {
        sessions,
        bytes,
        total,
        read,
        reads: search.runs[0].reads,
        scanMs: best(scan.runs),
        scanReadMs: Math.min(...scan.runs.map((r) => r.readMs)),
        scanAdded: most(scan.runs),
        firstMs: search.runs[0].ms,
        firstAdded: search.runs[0].added,
        repeatedMs: best(later(search.runs)),
        repeatedScanMs: Math.min(...search.scans),
        repeatedAdded: most(later(search.runs)),
        viewMs: best(later(view.runs)),
        viewScanMs: Math.min(...view.scans),
        viewAdded: most(later(view.runs)),
        head: search.head,
        same: search.same && view.same,
        hits: scan.runs[0].hits,
      }
      report.push(line)
      const x = (ms, scanMs) => `${ms.toFixed(0)} ms, ${(ms / scanMs).toFixed(2)}× the scan (${scanMs.toFixed(0)} ms in turn with it)`
      console.log(`\n${sessions} sessions of ${mib(bytes)} (${mib(total)} on disk); a call reads ${mib(read)} in ${line.reads} reads`)
      console.log(`  plain scan (the same reads, a JS regex): ${line.scanMs.toFixed(0)} ms (the reads ${line.scanReadMs.toFixed(0)} ms); +${mib(line.scanAdded)} resident`)
      console.log(`  search, the process's first: ${line.firstMs.toFixed(0)} ms; +${mib(line.firstAdded)} resident (the module's first instance and compiled code with it)`)
      console.log(`  search, a call:               ${x(line.repeatedMs, line.repeatedScanMs)}; +${mib(line.repeatedAdded)} resident`)
      console.log(`  sessions view, a call:        ${x(line.viewMs, line.viewScanMs)}; +${mib(line.viewAdded)} resident`)
      console.log(`  answer: ${line.head}`)
      console.log(`  every call answers the same: ${line.same}`)
      if (!line.same || !/^recall: \d+ hits?/.test(line.head)) process.exitCode = 1
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }
  if (args.json) writeFileSync(args.json, JSON.stringify({ engine, shim: args.shim, query: QUERY, report }, null, 2))
  if (args.md) {
    const name = isBun ? `Bun ${Bun.version}` : `Node ${process.versions.node.split('.')[0]}`
    const tree = args.shim ? 'before' : 'now'
    const ms = (n) => `${Math.round(n).toLocaleString('en')} ms`
    const x = (a, b) => `${(a / b).toFixed(2)}×`
    const plus = (n) => `+${(n / 1048576).toFixed(1)} MiB`
    console.log('\n| shim and module | engine, sessions | plain scan, in turn | a search call | memory it adds | the sessions view | the process\'s first call |')
    console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
    for (const l of report) {
      console.log(`| ${tree} | ${name}, ${l.sessions} × ${args.mb} MB | ${ms(l.repeatedScanMs)} (${plus(l.scanAdded)}) | ${ms(l.repeatedMs)}, ${x(l.repeatedMs, l.repeatedScanMs)} | ${plus(l.repeatedAdded)} | ${ms(l.viewMs)}, ${x(l.viewMs, l.viewScanMs)}, ${plus(l.viewAdded)} | ${ms(l.firstMs)}, ${plus(l.firstAdded)} |`)
    }
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
