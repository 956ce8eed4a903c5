// compact-plus: the shim. The Rust core (pkg/) decides everything; this file
// performs the `$` calls it asks for and hands the answers back (src/step.rs, src/hooks/protocol.rs).
//
// What the shim promises, whatever happens:
// 1. `next` is called at most once per hook (`Run.callNext`), and a hook that
//    called it returns what it gave.
// 2. An error reaches the engine only when it is `next`'s own rejection, passed
//    up as it came (the same error object); every other failure lets the
//    engine's result through. After `next` rejected, the core may answer a
//    compaction of its own instead (`done.compacted`); after it resolved or
//    without it, only where the core says so (`compacted.replaces`: a summary
//    row that is no summary, a summarizer that failed within the cool-down).
// 3. Every call into wasm is synchronous and goes through `step`, `guarded`
//    (the recall module's) or `quietly`. A throw in the core rebuilds the
//    instance with the session state the core last carried and ids that go on
//    past the old ones; a hook of the old instance then lets the engine's
//    result through and says so in the debug log. (A throw in the recall
//    module costs its calls in flight.)
// 4. Nothing a hook waits on waits forever: each `$` call is given up on as
//    the Rust side says (`waitMs`, a `deadline` shared by name), the compile
//    wait is bounded. (The turn-end job's queued `/compact` resolves only when
//    it has run; nothing waits on the job.)

import { initSync, __wbg_reset_state, init, start, resume, resumePacked, cancel, takeText, memoryBytes, RECALL_TOOL, NEXT_FIRST } from '../pkg/compact_plus.js'
import { initSync as initRecall, start as recallStart, resume as recallResume, cancel as recallCancel, __wbg_reset_state as resetRecall } from '../pkg/recall/compact_plus_recall.js'

// The compile starts at the first hook (`tool.list` or `prompt.context`, both
// raised at load) and settles 45–340 ms later (tests/HOST.md); a hook still
// waiting past this passes through, within the host's 10 s budget.
const COMPILE_WAIT_MS = 5000
// The core's memory only grows; past this, once no hook is in flight, the
// instance is rebuilt (its state carried) to hand the memory back.
const HAND_BACK_BYTES = 32 * 1024 * 1024

let compiled = null // Promise<WebAssembly.Module | null>, once per load
let settled = null // what `compiled` gave, once it has
let waitedOut = false // a hook waited the whole bound: later ones do not wait again
let recallCompiled = null // the recall tool's search, compiled on its first call
let recallsInFlight = 0 // recall calls on the recall module's one instance
let options = '{}'
let recallOn = true // the recallTool option: the tool is listed and served

// The one wasm instance and what outlives it.
const core = {
  module: null,
  live: false, // instantiated, with its options and state
  generation: 0, // bumped at every rebuild: a hook of an older one is lost
  lastId: 0, // the highest hook id handed out: a rebuilt core starts past it
  carried: '', // the session state the core last sent (`carry`), as JSON
  inFlight: 0, // hooks between their first and last step
}

const text = (err) => String(err && err.message ? err.message : err)

function instantiate() {
  if (!core.live) {
    initSync({ module: core.module })
    init(options, core.carried, core.lastId + 1)
    core.live = true
  }
}

// A new instance, with the state and ids going on. Throws if even that fails;
// the next hook then tries to instantiate again.
function rebuild() {
  core.live = false
  core.generation++
  __wbg_reset_state()
  init(options, core.carried, core.lastId + 1)
  core.live = true
}

// One synchronous call into the core that answers a step (JSON). A throw (a
// trap) rebuilds the instance for the next call and passes the error on.
function step(call) {
  try {
    const s = JSON.parse(call())
    if (typeof s.id === 'number' && s.id > core.lastId) core.lastId = s.id
    if (s.carry !== undefined) core.carried = JSON.stringify(s.carry)
    // Long write texts wait in the core's outbox: one string each, no JSON escaping.
    for (const c of s.calls ?? []) if (c.op === 'write' && typeof c.textRef === 'number') c.text = takeText(c.textRef)
    return s
  } catch (err) {
    try {
      rebuild()
    } catch {}
    throw err
  }
}

// A call into the core whose failure costs nothing but its own result.
function quietly(call, fallback) {
  try {
    return call()
  } catch {
    return fallback
  }
}

// After a hook: a core grown large by one compaction is rebuilt small, once no
// other hook is in flight (their machines would be lost).
function handBack(log) {
  if (core.inFlight > 0 || !core.live) return
  const before = quietly(memoryBytes, 0)
  if (before <= HAND_BACK_BYTES) return
  try {
    rebuild()
    log(`compact-plus: the core's memory handed back (${before} bytes, now ${quietly(memoryBytes, 0)}); its state carried`)
  } catch (err) {
    log(`compact-plus: the core could not be rebuilt: ${text(err).slice(0, 300)}`)
  }
}

// The module, or null when it did not compile or is not there within the wait.
// Once one hook has waited the whole bound, the others take what is there.
async function compiledWithin(io) {
  if (waitedOut) return settled
  let timer
  const late = new Promise((resolve) => {
    timer = io.after(COMPILE_WAIT_MS, () => resolve('late'))
  })
  const module = await Promise.race([compiled, late])
  timer?.cancel?.()
  if (module === 'late') {
    if (!waitedOut) io.log(`compact-plus: the wasm core was not ready after ${COMPILE_WAIT_MS} ms; hooks pass through until it is`)
    waitedOut = true
    return settled
  }
  return module
}

function downEvent(e, call) {
  let down = e
  if (typeof call.instructions === 'string') down = { ...down, instructions: call.instructions }
  if (Array.isArray(call.append)) {
    const content = [...down.message.content, ...call.append.map((t) => ({ type: 'text', text: t }))]
    down = { ...down, message: { ...down.message, content } }
  }
  if (Array.isArray(call.cut) && Array.isArray(down.messages)) down = { ...down, messages: cutMessages(down.messages, call.cut) }
  return down
}

// The trim before the summarizer: each listed message built from its role,
// text and tool blocks with the core's tool-result texts, its handle left out
// (a changed message is built, not mapped: e2e-kit failures/README.md section 3);
// every other message goes down as the engine sent it, handle and all.
function cutMessages(messages, cuts) {
  const byIndex = new Map(cuts.map((c) => [c.index, c]))
  return messages.map((m, i) => {
    const c = byIndex.get(i)
    if (!c || !m || typeof m !== 'object' || !Array.isArray(m.toolResults)) return m
    const { handle, ...rest } = m
    const results = Array.isArray(c.results) ? c.results : []
    return { ...rest, toolResults: m.toolResults.map((r, k) => (typeof results[k] === 'string' && r && typeof r === 'object' ? { ...r, text: results[k] } : r)) }
  })
}

// A session.compact event starts the core with each message's role and handle
// alone: the person's texts for the verbatim block come by `texts`, the rest
// (every text, tool inputs) by `pack` once `next` has started, so the summary
// request does not wait for the history. `pack` numbers the texts in a skeleton
// of the event and hands them over as UTF-8 beside it: no escaping either way.
function roles(e) {
  const slim = (m) => (m && typeof m === 'object' && !Array.isArray(m) ? { role: m.role, handle: m.handle } : m)
  return JSON.stringify({ ...e, messages: e.messages.map(slim), textsDeferred: true })
}

function skeleton(e, withResults) {
  const texts = []
  const text = (s) => (typeof s === 'string' ? texts.push(s) - 1 : null)
  const use = (u) => (u && typeof u === 'object' ? { tool: u.tool, input: u.input, text: text(u.text), isError: u.isError } : u)
  const message = (m) =>
    m && typeof m === 'object' && !Array.isArray(m)
      ? {
          role: m.role,
          text: text(m.text),
          handle: m.handle,
          toolUses: Array.isArray(m.toolUses) ? m.toolUses.map(use) : m.toolUses,
          toolResults: typeof m.toolResults?.length === 'number' ? m.toolResults.length : undefined,
          resultTexts: withResults && Array.isArray(m.toolResults) ? m.toolResults.map((r) => text(r?.text)) : undefined,
        }
      : m
  return [{ ...e, messages: e.messages.map(message) }, texts]
}

const encoder = new TextEncoder()
function pack(e, withResults) {
  const [event, texts] = skeleton(e, withResults)
  let size = 0
  for (const s of texts) size += s.length
  let bytes = new Uint8Array(size + (size >> 3) + 1024)
  const lens = new Array(texts.length)
  let at = 0
  for (let i = 0; i < texts.length; i++) {
    const s = texts[i]
    if (bytes.length - at < s.length * 3) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + s.length * 3))
      grown.set(bytes.subarray(0, at))
      bytes = grown
    }
    const { written } = encoder.encodeInto(s, bytes.subarray(at))
    lens[i] = written
    at += written
  }
  return [{ lens, event }, bytes.subarray(0, at)]
}

// The core's first step on an event, and the event whose texts it may ask for
// later (session.compact's; null for the others, which go across whole).
// The JSON is made before the call: a value that will not stringify costs this
// hook alone, not the instance every other hook in flight is using.
function begin(hook, e) {
  if (hook === 'session.compact' && e && Array.isArray(e.messages)) {
    const json = roles(e)
    return [step(() => start(hook, json)), e]
  }
  const json = JSON.stringify(e ?? {})
  return [step(() => start(hook, json)), null]
}

// One hook's dealings with `next`: called at most once, its result or its
// rejection remembered. A job has no `next`.
function newRun(e, next) {
  const run = {
    e,
    next,
    seen: null, // the event whose texts the core may ask for (session.compact's)
    called: false,
    result: undefined,
    rejected: null, // { err }: `next` rejected with err
    started: null, // the promise of a `next` started by `startNext`
    packed: null, // the UTF-8 texts of this step's `pack` answer
    callNext(down) {
      run.called = true
      return new Promise((resolve) => resolve(next(down))).then(
        (r) => (run.result = r),
        (err) => {
          run.rejected = { err }
          throw err
        },
      )
    },
    // The engine's own result, as it stands: `next`'s if called (its very
    // rejection, if it rejected), else a fresh `next(e)`.
    passThrough() {
      if (run.started) return run.started
      if (run.called || !next) return run.result
      return run.callNext(e)
    },
  }
  return run
}

// A `$` call, given up on as its machine said: `waitMs` after it started, or
// after the first call naming the same `deadline` in this run. A timer holds
// only the calls still out, never what the others answered (megabytes).
function waited(call, io, deadlines) {
  const perform = () => Promise.resolve().then(() => io.perform(call))
  if (typeof call.waitMs !== 'number') return perform()
  const d = deadlines.get(call.deadline) ?? { out: new Set() }
  if (!d.timer) {
    d.timer = io.after(call.waitMs, () => {
      d.late = true
      for (const giveUp of d.out) giveUp()
    })
    deadlines.set(call.deadline ?? d, d)
  }
  return new Promise((resolve, reject) => {
    const giveUp = () => reject(new Error(`${call.op} timed out`))
    if (d.late) return giveUp()
    d.out.add(giveUp)
    perform()
      .then(resolve, reject)
      .finally(() => {
        d.out.delete(giveUp)
        if (call.deadline) return
        deadlines.delete(d)
        d.timer.cancel?.()
      })
  })
}

// The answer to one call of a machine: `{ok}`, `{err}`, or `{text}` with the
// UTF-8 `bytes` of a call marked `beside` (a file's text, neither escaped into
// JSON nor passed a char at a time as wasm-bindgen passes a string).
async function answer(call, run, io, deadlines) {
  switch (call.op) {
    case 'texts':
    case 'pack':
      if (!run.seen) return { err: 'no texts were left out' }
      try {
        if (call.op === 'texts') return { ok: call.messages.map((i) => (typeof run.seen.messages[i]?.text === 'string' ? run.seen.messages[i].text : null)) }
        const [skeleton, bytes] = pack(run.seen, call.results === true)
        run.packed = bytes
        return { ok: skeleton }
      } catch (err) {
        return { err: text(err) }
      }
    case 'startNext':
      if (run.called || !run.next) return { err: 'next is not available here' }
      run.started = run.callNext(downEvent(run.e, call))
      run.started.catch(() => {}) // awaited by nextResult, or at the end
      return { ok: null }
    case 'nextResult':
      if (!run.started) return { err: 'no next was started' }
      // A rejection is an answer too: the core may compact in the engine's
      // place. The error object stays in `run.rejected`, to pass up as it came.
      try {
        return { ok: await run.started }
      } catch (err) {
        return { err: text(err), rejected: true, aborted: run.next?.signal?.aborted === true }
      }
    case 'next':
      // Started before the core was ready (`NEXT_FIRST`): its answer is this one.
      if (run.started && call.instructions === undefined && call.append === undefined) return { ok: await run.started }
      if (run.called || !run.next) return { err: 'next is not available here' }
      return { ok: await run.callNext(downEvent(run.e, call)) }
    default:
      try {
        const ok = await waited(call, io, deadlines)
        if (call.beside !== true || typeof ok !== 'string') return { ok }
        const bytes = encoder.encode(ok)
        return { text: bytes.length, bytes }
      } catch (err) {
        return { err: text(err) }
      }
  }
}

// The one step loop, for the core's hooks and the recall module alike: the
// calls of each step performed, their answers handed back, until the machine
// is done; `null` when it was lost (its instance rebuilt).
async function steps(s, run, io, machine) {
  const deadlines = new Map()
  try {
    while (Array.isArray(s?.calls)) {
      let answers
      try {
        answers = await Promise.all(s.calls.map((call) => answer(call, run, io, deadlines)))
      } catch (err) {
        machine.cancel(s.id)
        throw err
      }
      if (machine.lost()) return null
      // The texts beside the answers, one after the other in the order of their
      // calls; one (a read a step, most often) as it is.
      const beside = answers.filter((a) => a.bytes)
      const texts = beside.length === 1 ? beside[0].bytes : new Uint8Array(beside.reduce((n, a) => n + a.text, 0))
      let at = 0
      for (const a of beside) {
        if (beside.length > 1) texts.set(a.bytes, at)
        at += a.text
        delete a.bytes
      }
      s = machine.resume(s.id, JSON.stringify(answers), texts)
    }
    return s
  } finally {
    for (const { timer } of deadlines.values()) timer?.cancel?.()
  }
}

// What the hook returns once the core is done.
async function finish(done, run, io) {
  if (done.spawn) job(done.spawn, io)
  if (done.skip && !run.called) return { skip: done.skip }
  if (typeof done.answer === 'string') return { result: done.answer }
  if (done.compacted && (run.rejected || done.compacted.replaces === true)) return own(done.compacted, run.e)
  if (done.search) return { result: await search(done.search, io) }
  let result = await run.passThrough()
  if (done.instructionFiles) result = { ...result, instructionFiles: done.instructionFiles }
  if (done.contextBlock) {
    const blocks = Array.isArray(result?.blocks) ? result.blocks : []
    result = { ...result, blocks: [...blocks, done.contextBlock] }
  }
  return result
}

// The core's own compaction, answered in the engine's place: its summary as a
// user row, then the event's messages it keeps, each built from its role, text
// and tool blocks, without its handle, so the engine writes new rows for them
// (d.ts SessionCompacted.messages: "one without is built"). Kept by handle, the
// engine writes copies that keep the originals' message ids and tool links, and
// `--resume` merges each copy with its original and walks back past the
// boundary: every reply shown once per rescue, the rescue's summary lost
// (measured on 2.1.328: tests/HOST.md, "What --resume rebuilds after a hook's
// compaction").
function own({ summary, keep }, e) {
  const kept = (Array.isArray(keep) ? keep : []).map((i) => e.messages[i]).filter((m) => m && typeof m === 'object').map(built)
  return { messages: [{ role: 'user', text: String(summary), toolUses: [] }, ...kept] }
}

function built(m) {
  const out = { role: m.role, text: typeof m.text === 'string' ? m.text : '', toolUses: Array.isArray(m.toolUses) ? m.toolUses : [] }
  if (Array.isArray(m.toolResults)) out.toolResults = m.toolResults
  return out
}

// Runs one hook of the core to its end.
async function drive(hook, e, next, io) {
  const run = newRun(e, next)
  // A hook whose first call is always `next` with the event as it came
  // (the core's `NEXT_FIRST`, held to it by tests/hooks.rs): the engine's own
  // work starts now and runs while the module compiles (the first
  // prompt.context waited 45–340 ms for it before, tests/HOST.md).
  if (next && NEXT_FIRST.includes(hook)) {
    run.started = run.callNext(e)
    run.started.catch(() => {}) // awaited by the core's first call, or at the end
  }
  try {
    const module = await compiledWithin(io)
    if (!module) return run.passThrough()
    core.module = module
    instantiate()
    const generation = core.generation
    core.inFlight++
    try {
      const [first, seen] = begin(hook, e)
      run.seen = seen
      const s = await steps(first, run, io, {
        resume(id, json) {
          const packed = run.packed
          run.packed = null
          return step(() => (packed ? resumePacked(id, json, packed) : resume(id, json)))
        },
        cancel: (id) => quietly(() => cancel(id)),
        lost() {
          if (generation === core.generation) return false
          io.log(`compact-plus: ${hook} was lost when the core was rebuilt; the engine's result stands`)
          return true
        },
      })
      // A rejected `next` is the core's to answer (`finish`), or passes up there.
      if (run.started) await run.started.catch(() => {})
      if (s?.done) return await finish(s.done, run, io)
      if (s) io.log(`compact-plus: ${hook} stopped short; the engine's result stands`)
    } finally {
      core.inFlight--
      handBack(io.log)
    }
  } catch (err) {
    if (run.rejected) throw run.rejected.err
    io.log(`compact-plus: ${hook} failed open: ${text(err).slice(0, 300)}`)
  }
  return run.passThrough()
}

// The recall tool: the recall module's own machine for this call (`done.search`
// is what the core hands it), on the same step loop as the hooks. Any failure
// is the tool's answer, never the session's.
async function search(request, io) {
  const module = await recallCompiled
  if (!module) return 'recall: the search module did not load'
  // One synchronous call into the module: a throw (a trap) drops the instance,
  // and a call in flight on it then answers that it lost its place.
  const guarded = (f) => {
    try {
      return JSON.parse(f())
    } catch (err) {
      quietly(resetRecall)
      throw err
    }
  }
  recallsInFlight++
  try {
    initRecall({ module })
    const s = await steps(guarded(() => recallStart(JSON.stringify(request))), newRun(null, null), io, {
      resume: (id, json, texts) => guarded(() => recallResume(id, json, texts)),
      cancel: (id) => quietly(() => recallCancel(id)),
      lost: () => false,
    })
    return typeof s?.done === 'string' ? s.done : 'recall: the search stopped short'
  } catch (err) {
    return `recall: the search failed: ${text(err).slice(0, 300)}`
  } finally {
    // Its memory only grows: dropped once no call is in flight, so it keeps
    // nothing between calls.
    if (--recallsInFlight === 0) quietly(resetRecall)
  }
}

// Work that outlives its hook (the turn-end compaction).
function job(name, io) {
  drive(name, {}, null, io).catch(() => {})
}

// The `$` call behind each op the machines ask for. A switch, not a table: the
// host loads a hooks module only where `$` is spelled `$.noun.event(...)` at
// each call site, and a function a table picks cannot be followed.
function perform($, call, signal) {
  switch (call.op) {
    case 'env': // each allowed name spelled as a literal
      if (call.name === 'HOME') return $.env.get('HOME')
      if (call.name === 'USERPROFILE') return $.env.get('USERPROFILE')
      if (call.name === 'OS') return $.env.get('OS')
      return Promise.reject(new Error(`no such variable: ${call.name}`))
    case 'sessionId':
      return $.session.id()
    case 'now':
      return $.clock.now()
    case 'exists':
      return $.fs.exists(call.path)
    case 'read':
      return typeof call.offset === 'number' ? $.fs.read(call.path, { offset: call.offset, length: call.length }) : $.fs.read(call.path)
    case 'cwd':
      return $.session.cwd()
    case 'write':
      return $.fs.write(call.path, call.text)
    case 'list':
      return $.fs.list(call.path)
    case 'stat':
      return $.fs.stat(call.path, call.resolve ? { resolve: true } : undefined)
    case 'usage':
      return call.breakdown ? $.session.usage({ breakdown: call.breakdown }) : $.session.usage()
    case 'run':
      // No shell [dts]; `env` is set over the host's own environment (a path
      // passed there is a value no command line parses: src/prune.rs).
      return $.process.run(call.argv, call.env ? { timeoutMs: call.timeoutMs, env: call.env } : { timeoutMs: call.timeoutMs })
    case 'debug':
      return $.ui.log(call.text, { to: 'debug' })
    case 'after':
      return new Promise((resolve) => $.clock.after(call.ms, resolve))
    case 'command':
      return $.command.run({ command: call.command, args: call.args })
    case 'complete':
      // `timeoutMs` bounds the call itself (a `$` call's time is not the
      // hook's); `next.signal` cuts it when the person presses Esc [dts].
      return $.model.complete(
        { model: call.model, prompt: call.prompt, system: call.system, maxTokens: call.maxTokens, timeoutMs: call.timeoutMs },
        signal ? { signal } : undefined,
      )
    default:
      return Promise.reject(new Error(`unknown call: ${call.op}`))
  }
}

// What a hook does with the world: `$` calls (bounded by `waited`), the debug
// log, a clock.
function hostOf($, signal) {
  return {
    log: (line) => $.ui.log(line, { to: 'debug' }),
    after: (ms, fn) => $.clock.after(ms, fn),
    perform: (call) => perform($, call, signal),
  }
}

// The core's module, compiled once per load, from the first hook on: the
// `tool.list` or `prompt.context` raise at load, before the first prompt
// (tests/HOST.md).
function startCompile($) {
  compiled ??= $.wasm
    .compile('../pkg/compact_plus_bg.wasm')
    .catch((err) => {
      $.ui.log(`compact-plus: the wasm core did not compile, every hook passes through: ${text(err)}`, { to: 'debug' })
      return null
    })
    .then((module) => (settled = module))
}

// The session's tools, with the recall tool added where it is on: a tool of
// this hook's own (`mcp: false`), in the first request and every one after
// (the summarizer's too), with no MCP server to connect first. The engine
// raises this at load, before the first request, and again when the tools or
// settings change; it waits for it before a turn (d.ts `ToolInfo`).
// `$.tool.register` at session.start made the first turn wait for its MCP
// server: 237–1,660 ms at start-up (tests/HOST.md).
function listTools($, e, next) {
  return Promise.resolve(next(e)).then((listed) => {
    // Started once the engine's list is back, so the answer never waits on it.
    startCompile($)
    if (!recallOn || !Array.isArray(listed?.value)) return listed
    return { ...listed, value: [...listed.value.filter((t) => t?.name !== RECALL_TOOL.name), RECALL_TOOL] }
  })
}

// One hook for every other event; `next.event` says which.
function hook($, e, next) {
  startCompile($)
  if (next.event === 'tool.call') {
    recallCompiled ??= $.wasm.compile('../pkg/recall/compact_plus_recall_bg.wasm').catch((err) => {
      $.ui.log(`compact-plus: the recall module did not compile: ${text(err)}`, { to: 'debug' })
      return null
    })
  }
  const io = hostOf($, next?.signal)
  // The session's end has one short bound for every hook: a core never
  // instantiated holds no state to drop, so there is nothing to wait for.
  if (next.event === 'session.end' && !core.live) return next(e)
  return drive(next.event, e, next, io)
}

export function register(on, opts) {
  options = JSON.stringify(opts ?? {})
  core.live = false
  core.carried = ''
  on('session.compact', hook).catch(($, e, next) => next(e))
  on('session.append', { door: 'compaction' }, hook).catch(($, e, next) => next(e))
  on('prompt.context', hook).catch(($, e, next) => next(e))
  on('turn.complete', hook).catch(($, e, next) => next(e))
  on('session.end', hook).catch(($, e, next) => next(e))
  // Hooked with the tool off too: it is the first hook of a session, where the
  // compile starts.
  recallOn = opts?.recallTool !== false
  on('tool.list', listTools).catch(($, e, next) => next(e))
  if (!recallOn) return
  // The name as a literal, so the engine's scan of this file reads the matcher
  // (`tool.call{tool=compact_plus_recall}`); tests/shim/start-up.test.mjs holds
  // it to the name the core lists.
  on('tool.call', { tool: 'compact_plus_recall' }, hook).catch(() => ({ result: 'recall: the search failed' }))
}
