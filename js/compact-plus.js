// compact-plus: the shim. The Rust core (pkg/) decides everything; this file
// performs the `$` calls it asks for and hands the answers back (src/hooks/protocol.rs).
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
// 3. Every call into wasm is synchronous and goes through `step` or `quietly`.
//    A throw there rebuilds the instance with the session state the core last
//    carried and ids that go on past the old ones; a hook of the old instance
//    then lets the engine's result through and says so in the debug log.
// 4. Nothing a hook waits on waits forever: `$` calls time out, the compile
//    wait is bounded. (The turn-end job's queued `/compact` resolves only when
//    it has run; nothing waits on the job.)

import { initSync, __wbg_reset_state, init, start, resume, resumePacked, cancel, takeText, memoryBytes, RECALL_TOOL, COMMANDS } from '../pkg/compact_plus.js'
import { initSync as initRecall, recall, recallProject, walkStart, walkResume, __wbg_reset_state as resetRecall } from '../pkg/recall/compact_plus_recall.js'

// A `$` call that hangs must not hang the compaction: the hook's budget stops
// while a `$` call is in flight.
const CALL_TIMEOUT_MS = 30000
// The compile settles in about 0.2 s after start-up (measured in the real CLI);
// a hook still waiting past this passes through, within the host's 10 s budget.
const COMPILE_WAIT_MS = 5000
// The core's memory only grows; past this, once no hook is in flight, the
// instance is rebuilt (its state carried) to hand the memory back.
const HAND_BACK_BYTES = 32 * 1024 * 1024

let compiled = null // Promise<WebAssembly.Module | null>, once per load
let settled = null // what `compiled` gave, once it has
let waitedOut = false // a hook waited the whole bound: later ones do not wait again
let recallCompiled = null // the recall tool's search, compiled on its first call
let options = '{}'

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
  if (Array.isArray(call.content)) down = { ...down, message: { ...down.message, content: call.content.map((t) => ({ type: 'text', text: t })) } }
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

// The answer to one of the core's calls, as `{ok}` or `{err}`.
async function answer(call, run, seen, next, io) {
  switch (call.op) {
    case 'texts':
    case 'pack':
      if (!seen) return { err: 'no texts were left out' }
      try {
        if (call.op === 'texts') return { ok: call.messages.map((i) => (typeof seen.messages[i]?.text === 'string' ? seen.messages[i].text : null)) }
        const [skeleton, bytes] = pack(seen, call.results === true)
        run.packed = bytes
        return { ok: skeleton }
      } catch (err) {
        return { err: text(err) }
      }
    case 'startNext':
      if (run.called || !next) return { err: 'next is not available here' }
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
        return { err: text(err), rejected: true, aborted: next?.signal?.aborted === true }
      }
    case 'next':
      if (run.called || !next) return { err: 'next is not available here' }
      return { ok: await run.callNext(downEvent(run.e, call)) }
    case 'search':
      return { ok: await search(call.search, io) }
    default:
      try {
        return { ok: await io.perform(call) }
      } catch (err) {
        return { err: text(err) }
      }
  }
}

// What the hook returns once the core is done.
async function finish(done, run, io) {
  if (done.spawn) job(done.spawn, io)
  if (Array.isArray(done.notice)) notice(done.notice, io)
  if (typeof done.reply === 'string') return { text: done.reply, isTextDisplayOnly: true }
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

// The core's lines for the person, logged once the hook has returned: the
// terminal draws a line logged inside session.compact above the `/compact`
// line, one logged after it below `Compacted` (tests/HOST.md).
function notice(lines, io) {
  io.after(0, () => {
    for (const line of lines) {
      try {
        io.say(String(line))
      } catch {}
    }
  })
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
  let id = 0
  try {
    const module = await compiledWithin(io)
    if (!module) return run.passThrough()
    core.module = module
    instantiate()
    const generation = core.generation
    core.inFlight++
    try {
      let [s, seen] = begin(hook, e)
      while (s.calls) {
        id = s.id
        run.packed = null
        const answers = await Promise.all(s.calls.map((call) => answer(call, run, seen, next, io)))
        if (generation !== core.generation) {
          io.log(`compact-plus: ${hook} was lost when the core was rebuilt; the engine's result stands`)
          return await run.passThrough()
        }
        const packed = run.packed
        const json = JSON.stringify(answers)
        s = step(() => (packed ? resumePacked(id, json, packed) : resume(id, json)))
      }
      // A rejected `next` is the core's to answer (`finish`), or passes up there.
      if (run.started) await run.started.catch(() => {})
      if (s.done) return await finish(s.done, run, io)
      io.log(`compact-plus: ${hook} stopped short; the engine's result stands`)
    } finally {
      core.inFlight--
      handBack(io.log)
    }
  } catch (err) {
    // Its machine, if the instance still holds it, is of no more use.
    if (id) quietly(() => cancel(id))
    if (run.rejected) throw run.rejected.err
    io.log(`compact-plus: ${hook} failed open: ${text(err).slice(0, 300)}`)
  }
  return run.passThrough()
}

// The recall tool: read the files the core named, search them in the recall
// module, then drop its instance, so it keeps nothing between calls (its
// memory only grows). Any failure is the tool's answer, never the session's.
async function search({ paths, query, project }, io) {
  try {
    const module = await recallCompiled
    if (!module) return 'recall: the search module did not load'
    initRecall({ module })
    try {
      if (project) return await searchProject(project, io)
      const texts = await Promise.all(paths.map((path) => io.perform({ op: 'read', path })))
      return recall(paths, texts, query.text, query.regex, query.role ?? '', query.limit)
    } finally {
      resetRecall()
    }
  } catch (err) {
    return `recall: the search failed: ${text(err).slice(0, 300)}`
  }
}

// Scope project: the recall module's walk names the files (its `$` calls
// performed here, as the core's are), then every byte range it named is read
// at once; a call or a read that fails or is not back by the deadline goes as
// missing, which the module counts.
// Listing folders is quick; with the reads' own 5 s (`READ_DEADLINE_MS` in
// recall/src/walk.rs) a call stays inside the host's 10 s for a tool.
const WALK_DEADLINE_MS = 2000

async function searchProject({ input, historyDir }, io) {
  let walkTimer
  const walkLate = new Promise((resolve) => {
    walkTimer = io.after(WALK_DEADLINE_MS, () => resolve({ err: 'no answer within the deadline' }))
  })
  let s
  try {
    s = JSON.parse(walkStart(String(input), String(historyDir)))
    while (Array.isArray(s.calls)) {
      const answers = await Promise.all(
        s.calls.map((call) =>
          Promise.race([
            Promise.resolve()
              .then(() => io.perform(call))
              .then((ok) => ({ ok: ok ?? null }), (err) => ({ err: text(err) })),
            walkLate,
          ]),
        ),
      )
      s = JSON.parse(walkResume(JSON.stringify(answers)))
    }
  } finally {
    walkTimer?.cancel?.()
  }
  const done = s?.done ?? {}
  if (typeof done.answer === 'string') return done.answer
  const { sources, deadlineMs, request } = done
  if (!Array.isArray(sources) || typeof request !== 'string') return 'recall: the search stopped short'
  let timer
  const late = new Promise((resolve) => {
    timer = io.after(deadlineMs, () => resolve(null))
  })
  const reads = []
  for (const s of sources) {
    for (const r of s.reads) {
      const read = io.perform({ op: 'read', path: s.path, offset: r.offset, length: r.length })
      reads.push(Promise.race([read.then((t) => (typeof t === 'string' ? t : null), () => null), late]))
    }
  }
  const texts = await Promise.all(reads)
  timer?.cancel?.()
  const missing = Uint8Array.from(texts, (t) => (t === null ? 1 : 0))
  return recallProject(request, texts.map((t) => t ?? ''), missing)
}

// session.start registers the recall tool from the spec the core's build wrote
// into pkg/: the session's start does not wait for the wasm, which compiles
// meanwhile for the hooks that need it.
async function startSession(e, next, io) {
  try {
    await io.perform({ op: 'registerTool', spec: RECALL_TOOL })
  } catch (err) {
    io.log(`compact-plus: no recall tool: ${text(err).slice(0, 300)}`)
  }
  return next(e)
}

// Work that outlives its hook (the turn-end compaction).
function job(name, io) {
  drive(name, {}, null, io).catch(() => {})
}

// The `$` call behind each of the core's calls.
function perform($, call, signal) {
  switch (call.op) {
    case 'env':
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
      return $.process.run(call.argv, { timeoutMs: call.timeoutMs })
    case 'debug':
      return $.ui.log(call.text, { to: 'debug' })
    case 'after':
      return new Promise((resolve) => $.clock.after(call.ms, resolve))
    case 'command':
      return $.command.run({ command: call.command, args: call.args })
    case 'registerTool':
      return $.tool.register(call.spec)
    case 'messages':
      return $.session.messages({ last: call.last })
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

// Calls that end by themselves: a wait, and the queued command (it resolves
// once the command has run, however long the compaction takes).
const UNTIMED = new Set(['after', 'command'])

// What a hook does with the world: `$` calls bounded in time, the debug log, a clock.
function hostOf($, signal) {
  return {
    log: (line) => $.ui.log(line, { to: 'debug' }),
    say: (line) => $.ui.log(line),
    after: (ms, fn) => $.clock.after(ms, fn),
    perform(call) {
      const op = perform($, call, signal)
      if (UNTIMED.has(call.op)) return op
      let timer
      const late = new Promise((_, reject) => {
        // A completion has its own bound (`timeoutMs`); this one only backs it up.
        const ms = call.op === 'complete' ? Number(call.timeoutMs) + CALL_TIMEOUT_MS : CALL_TIMEOUT_MS
        timer = $.clock.after(ms, () => reject(new Error(`${call.op} timed out`)))
      })
      return Promise.race([op, late]).finally(() => timer && timer.cancel())
    },
  }
}

// The person's slash commands, registered once per load at the first hook the
// engine raises (`tool.list`, at load): a command typed before it is
// registered goes to the model as a prompt (tests/HOST.md).
let commandsAsked = false
function registerCommands($) {
  if (commandsAsked) return
  commandsAsked = true
  for (const spec of COMMANDS) {
    Promise.resolve()
      .then(() => $.command.register(spec))
      .catch((err) => $.ui.log(`compact-plus: no /${spec.name}: ${text(err).slice(0, 300)}`, { to: 'debug' }))
  }
}

// One hook for every event; `next.event` says which.
function hook($, e, next) {
  compiled ??= $.wasm
    .compile('../pkg/compact_plus_bg.wasm')
    .catch((err) => {
      $.ui.log(`compact-plus: the wasm core did not compile, every hook passes through: ${text(err)}`, { to: 'debug' })
      return null
    })
    .then((module) => (settled = module))
  if (next.event === 'tool.call' || next.event === 'command.run') {
    recallCompiled ??= $.wasm.compile('../pkg/recall/compact_plus_recall_bg.wasm').catch((err) => {
      $.ui.log(`compact-plus: the recall module did not compile: ${text(err)}`, { to: 'debug' })
      return null
    })
  }
  const io = hostOf($, next?.signal)
  if (next.event === 'session.start') return startSession(e, next, io)
  // The session's end has one short bound for every hook: a core never
  // instantiated holds no state to drop, so there is nothing to wait for.
  if (next.event === 'session.end' && !core.live) return next(e)
  return drive(next.event, e, next, io)
}

export function register(on, opts) {
  options = JSON.stringify(opts ?? {})
  core.live = false
  core.carried = ''
  commandsAsked = false
  on('session.compact', hook).catch(($, e, next) => next(e))
  on('session.append', { door: 'compaction' }, hook).catch(($, e, next) => next(e))
  on('prompt.context', hook).catch(($, e, next) => next(e))
  on('turn.complete', hook).catch(($, e, next) => next(e))
  on('session.end', hook).catch(($, e, next) => next(e))
  on('tool.list', ($, e, next) => (registerCommands($), next(e))).catch(($, e, next) => next(e))
  // One registration for the three: with more than one, the engine keeps each command's line
  // without its arguments (tests/HOST.md).
  on('command.run', ($, e, next) => (COMMANDS.some((c) => c.name === e?.command) ? hook($, e, next) : next(e))).catch(($, e, next) =>
    next.called || !COMMANDS.some((c) => c.name === e?.command) ? next(e) : { text: `/${e.command} failed`, isTextDisplayOnly: true },
  )
  on('session.append', { door: 'command' }, hook).catch(($, e, next) => next(e))
  if (opts?.recallTool === false) return
  on('session.start', hook).catch(($, e, next) => next(e))
  on('tool.call', { tool: 'mcp__compact-plus__recall' }, hook).catch(() => ({ result: 'recall: the search failed' }))
}
