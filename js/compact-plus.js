// compact-plus: the shim. The Rust core (pkg/) decides everything; this file
// performs the `$` calls it asks for and hands the answers back (see src/host.rs).
// Every path fails open: on any error the engine's own behaviour runs unchanged.

import { initSync, __wbg_reset_state, init, start, resume, resumePacked, cancel, takeText, RECALL_TOOL } from '../pkg/compact_plus.js'
import { initSync as initRecall, recall } from '../pkg/recall/compact_plus_recall.js'

// A `$` call that hangs must not hang the compaction: the hook's budget stops
// while a `$` call is in flight.
const CALL_TIMEOUT_MS = 30000

let compiled = null // Promise<WebAssembly.Module | null>, once per load
let recallCompiled = null // the recall tool's search, compiled on its first call
let live = false // the instance exists and has its options
let options = '{}'

const text = (err) => String(err && err.message ? err.message : err)

// Calls into wasm are synchronous; a trap rebuilds the instance for the next call.
function guarded(call) {
  try {
    const step = JSON.parse(call())
    // Long write texts wait in the core's outbox: one string each, no JSON escaping.
    for (const c of step.calls ?? []) if (c.op === 'write' && typeof c.textRef === 'number') c.text = takeText(c.textRef)
    return step
  } catch (err) {
    live = false
    try {
      __wbg_reset_state()
      init(options)
      live = true
    } catch {}
    throw err
  }
}

function ready(module) {
  if (!live) {
    initSync({ module })
    init(options)
    live = true
  }
}

function downEvent(e, call) {
  let down = e
  if (typeof call.instructions === 'string') down = { ...down, instructions: call.instructions }
  if (Array.isArray(call.append)) {
    const content = [...down.message.content, ...call.append.map((t) => ({ type: 'text', text: t }))]
    down = { ...down, message: { ...down.message, content } }
  }
  return down
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

function skeleton(e) {
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
        }
      : m
  return [{ ...e, messages: e.messages.map(message) }, texts]
}

const encoder = new TextEncoder()
function pack(e) {
  const [event, texts] = skeleton(e)
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
function begin(hook, e) {
  if (hook === 'session.compact' && e && Array.isArray(e.messages)) return [guarded(() => start(hook, roles(e))), e]
  return [guarded(() => start(hook, JSON.stringify(e ?? {}))), null]
}

// Runs one hook of the core to its end. `perform` does one `$` call.
async function drive(hook, e, next, perform, log) {
  let called = false
  let started = null // a `next` started by `startNext`
  let result
  let rejected = null
  let id = 0
  try {
    const module = await compiled
    if (!module) return next(e)
    ready(module)
    let [step, seen] = begin(hook, e)
    while (step.calls) {
      id = step.id
      let packed = null
      const answers = await Promise.all(
        step.calls.map(async (call) => {
          if (call.op === 'texts' || call.op === 'pack') {
            if (!seen) return { err: 'no texts were left out' }
            try {
              if (call.op === 'texts') return { ok: call.messages.map((i) => (typeof seen.messages[i]?.text === 'string' ? seen.messages[i].text : null)) }
              const [skeleton, bytes] = pack(seen)
              packed = bytes
              return { ok: skeleton }
            } catch (err) {
              return { err: text(err) }
            }
          }
          if (call.op === 'startNext') {
            if (called || !next) return { err: 'next is not available here' }
            called = true
            started = new Promise((resolve) => resolve(next(downEvent(e, call)))).then(
              (r) => (result = r),
              (err) => {
                rejected = { err }
                throw err
              },
            )
            started.catch(() => {}) // awaited by nextResult, or at the end
            return { ok: null }
          }
          if (call.op === 'nextResult') {
            if (!started) return { err: 'no next was started' }
            return { ok: await started }
          }
          if (call.op === 'next') {
            if (called || !next) return { err: 'next is not available here' }
            called = true
            try {
              result = await next(downEvent(e, call))
            } catch (err) {
              rejected = { err }
              throw err
            }
            return { ok: result }
          }
          try {
            return { ok: await perform(call) }
          } catch (err) {
            return { err: text(err) }
          }
        }),
      )
      step = guarded(() => (packed ? resumePacked(id, JSON.stringify(answers), packed) : resume(id, JSON.stringify(answers))))
    }
    if (started) await started
    if (step.done) {
      const done = step.done
      if (done.spawn) job(done.spawn, perform, log)
      if (done.skip && !called) return { skip: done.skip }
      if (typeof done.answer === 'string') return { result: done.answer }
      if (done.search) return { result: await search(done.search, perform) }
      if (!called && next) {
        called = true
        result = await next(e)
      }
      if (done.instructionFiles) return { ...result, instructionFiles: done.instructionFiles }
      return result
    }
    log(`compact-plus: ${hook} stopped short; the engine's result stands`)
  } catch (err) {
    if (rejected) {
      try {
        cancel(id)
      } catch {}
      throw rejected.err
    }
    log(`compact-plus: ${hook} failed open: ${text(err).slice(0, 300)}`)
  }
  if (started) return started // its result, or its rejection passed up
  return called || !next ? result : next(e)
}

// The recall tool: read the history files the core named, search them in the
// recall module. Any failure is the tool's answer, never the session's.
async function search({ paths, query }, perform) {
  try {
    const module = await recallCompiled
    if (!module) return 'recall: the search module did not load'
    initRecall({ module })
    const texts = await Promise.all(paths.map((path) => perform({ op: 'read', path })))
    return recall(paths, texts, query.text, query.regex, query.role ?? '', query.limit)
  } catch (err) {
    return `recall: the search failed: ${text(err).slice(0, 300)}`
  }
}

// session.start registers the recall tool from the spec the core's build wrote
// into pkg/: the session's start does not wait for the wasm, which compiles
// meanwhile for the hooks that need it.
async function startSession(e, next, perform, log) {
  try {
    await perform({ op: 'registerTool', spec: RECALL_TOOL })
  } catch (err) {
    log(`compact-plus: no recall tool: ${text(err).slice(0, 300)}`)
  }
  return next(e)
}

// Work that outlives its hook (the turn-end compaction).
function job(name, perform, log) {
  drive(name, {}, null, perform, log).catch(() => {})
}

// One hook for the four events; `next.event` says which.
function hook($, e, next) {
  compiled ??= $.wasm.compile('../pkg/compact_plus_bg.wasm').catch((err) => {
    $.ui.log(`compact-plus: the wasm core did not compile, every hook passes through: ${text(err)}`, { to: 'debug' })
    return null
  })
  if (next.event === 'tool.call') {
    recallCompiled ??= $.wasm.compile('../pkg/recall/compact_plus_recall_bg.wasm').catch((err) => {
      $.ui.log(`compact-plus: the recall module did not compile: ${text(err)}`, { to: 'debug' })
      return null
    })
  }
  const log = (line) => $.ui.log(line, { to: 'debug' })
  const perform = (call) => {
    const op = (() => {
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
          return $.fs.read(call.path)
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
        case 'compact':
          return $.session.compact()
        case 'command':
          return $.command.run({ command: call.command })
        case 'registerTool':
          return $.tool.register(call.spec)
        default:
          return Promise.reject(new Error(`unknown call: ${call.op}`))
      }
    })()
    if (call.op === 'after' || call.op === 'compact' || call.op === 'command') return op
    let timer
    const late = new Promise((_, reject) => {
      timer = $.clock.after(CALL_TIMEOUT_MS, () => reject(new Error(`${call.op} timed out`)))
    })
    return Promise.race([op, late]).finally(() => timer && timer.cancel())
  }
  if (next.event === 'session.start') return startSession(e, next, perform, log)
  return drive(next.event, e, next, perform, log)
}

export function register(on, opts) {
  options = JSON.stringify(opts ?? {})
  live = false
  on('session.compact', hook).catch(($, e, next) => next(e))
  on('session.append', { door: 'compaction' }, hook).catch(($, e, next) => next(e))
  on('prompt.context', hook).catch(($, e, next) => next(e))
  on('turn.complete', hook).catch(($, e, next) => next(e))
  if (opts?.recallTool === false) return
  on('session.start', hook).catch(($, e, next) => next(e))
  on('tool.call', { tool: 'mcp__compact-plus__recall' }, hook).catch(() => ({ result: 'recall: the search failed' }))
}
