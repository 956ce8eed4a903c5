// compact-plus: the shim. The Rust core (pkg/) decides everything; this file performs the `$`
// calls it asks for and hands back the answers and how each hook ended. Beside it, with no `$`:
// js/steps.js (the step protocol's loop, src/step.rs), js/wasm.js (the wasm instances),
// js/run.js (one hook's `next`) and js/event.js (the core's decisions applied to the engine's
// own objects).
//
// What the shim promises, whatever happens:
// 1. `next` is called at most once per hook (js/run.js `callNext`), and a hook that called it
//    returns what it gave.
// 2. An error reaches the engine only when it is `next`'s own rejection, passed up as it came (the
//    same error object); every other failure lets the engine's result through. After `next`
//    rejected, the core may answer a compaction of its own instead (`compacted` in place of the
//    rejection); after it resolved or without it, only where the core says so (in place of the
//    result: a summary row that is no summary, a summarizer that failed within the cool-down).
// 3. Every call into wasm is synchronous and guarded (js/wasm.js). A throw in the core rebuilds the
//    instance with the session state the core last carried and ids that go on past the old ones;
//    a hook of the old instance then lets the engine's result through and says so in the debug
//    log. (A throw in the recall module costs its calls in flight.)
// 4. Nothing a hook waits on waits forever: each `$` call is given up on as the Rust side says
//    (`waitMs`, a `deadline` shared by name: js/steps.js), the compile wait is bounded. (The
//    turn-end job's queued `/compact` resolves only when it has run; nothing waits on the job.)

import { RECALL_TOOL, NEXT_FIRST, COMMANDS } from '../pkg/compact_plus.js'
import { Core, Recall } from './wasm.js'
import { hookRun } from './run.js'
import { slim, down, amended, compaction } from './event.js'

let recallCompiled = null // the recall tool's search, compiled on its first call
let recallOn = true // the recallTool option: the tool is listed and served
let commandsAsked = false // the slash commands were registered in this load
const core = new Core()
const recall = new Recall()

const text = (err) => String(err && err.message ? err.message : err).slice(0, 300)

// Runs one hook of the core to its end.
async function drive(hook, e, next, io) {
  const run = hookRun(e, next)
  // A hook whose first call is always for `next`'s result on the event as it came (the core's
  // `NEXT_FIRST`): the engine's own work starts now, while the module compiles (tests/HOST.md).
  if (next && NEXT_FIRST.includes(hook)) run.startNext(e)
  try {
    const module = await core.compiledWithin(io)
    if (!module) return run.passThrough()
    core.instantiate(module)
    const [json, seen] = coreEvent(hook, e)
    run.seen = seen
    const s = await core.run(hook, json, run, io)
    // A rejected `next` is the core's to answer (`hookResult`), or passes up there.
    if (run.started) await run.started.catch(() => {})
    if (s?.done) return await hookResult(s.done, run, io)
    if (s?.lost) io.log(`compact-plus: ${hook} stopped short (${s.lost}); the engine's result stands`)
  } catch (err) {
    if (run.rejected) throw run.rejected.err
    io.log(`compact-plus: ${hook} failed open: ${text(err)}`)
  }
  return run.passThrough()
}

// What the core starts on: the event's JSON, and the event whose texts it may ask for later
// (session.compact's, sent slimmed: js/event.js; null for the others, which go across whole).
// Made before the call into wasm: a value that will not stringify costs this hook alone.
function coreEvent(hook, e) {
  if (hook === 'session.compact' && Array.isArray(e?.messages)) return [slim(e), e]
  return [JSON.stringify(e ?? {}), null]
}

// What the hook returns, by how the core ended it (`Done`, src/hooks/protocol.rs).
async function hookResult(done, run, io) {
  if (Array.isArray(done.notice)) told(done.notice, io)
  switch (done.end) {
    case 'spawn': // work that outlives its hook: nothing waits on it
      drive(done.job, {}, null, io).catch(() => {})
      break
    case 'skip':
      if (!run.called) return { skip: done.reason }
      break
    case 'answer':
      return { result: done.text }
    case 'search':
      return { result: await searched(done.request, io) }
    case 'reply': // a command's answer, for the person alone: no model turn
      if (!run.called) return { text: done.text, isTextDisplayOnly: true }
      break
    case 'rewritten':
      if (!run.called) return run.callNext(down(run.e, done))
      break
    case 'compacted':
      if (run.rejected || done.inPlaceOf === 'result') return compaction(done, run.e)
      break
    case 'amended':
      return amended(await run.passThrough(), done)
  }
  return run.passThrough()
}

// The recall module's answer to a request of the core's (the recall tool's `search` end, or
// `/recall`'s `search` calls).
async function searched(request, io) {
  return recall.search(await recallCompiled, request, io)
}

// The core's lines for the person, logged once the hook has returned and the engine's command that
// ran it (a `/compact`) has settled: the terminal draws a line logged while that command still runs
// above its `/compact` line, one logged after it below `Compacted` (tests/HOST.md). A command that
// does not settle holds them 5 s at most.
let commandsRunning = 0 // the engine's own commands in flight (not ours)
const onSettled = [] // what waits for them
function told(lines, io) {
  let shown = false
  const show = () => {
    if (shown) return
    shown = true
    io.after(0, () => {
      for (const line of lines) {
        try {
          io.show(String(line))
        } catch {}
      }
    })
  }
  if (commandsRunning === 0) return show()
  onSettled.push(show)
  io.after(5000, show)
}
function commandRun(e, next) {
  commandsRunning++
  const settled = () => {
    if (--commandsRunning === 0) for (const f of onSettled.splice(0)) f()
  }
  let out
  try {
    out = next(e)
  } catch (err) {
    settled()
    throw err
  }
  Promise.resolve(out).then(settled, settled)
  return out
}

// The `$` call behind each op the machines ask for. A switch, not a table: the host loads a hooks
// module only where `$` is spelled `$.noun.event(...)` at each call site, and a function a table
// picks cannot be followed.
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
      // No shell [dts]; `env` is set over the host's own environment (a path passed there is a
      // value no command line parses: src/prune.rs).
      return $.process.run(call.argv, call.env ? { timeoutMs: call.timeoutMs, env: call.env } : { timeoutMs: call.timeoutMs })
    case 'debug':
      return $.ui.log(call.text, { to: 'debug' })
    case 'after':
      return new Promise((resolve) => $.clock.after(call.ms, resolve))
    case 'command':
      return $.command.run({ command: call.command, args: call.args })
    case 'messages':
      return $.session.messages({ last: call.last })
    case 'complete':
      // `timeoutMs` bounds the call itself (a `$` call's time is not the hook's); `next.signal`
      // cuts it when the person presses Esc [dts].
      return $.model.complete(
        { model: call.model, prompt: call.prompt, system: call.system, maxTokens: call.maxTokens, timeoutMs: call.timeoutMs },
        signal ? { signal } : undefined,
      )
    default:
      return Promise.reject(new Error(`unknown call: ${call.op}`))
  }
}

// The core's module, compiled once per load, from the first hook on: the `tool.list` or
// `prompt.context` raise at load, before the first prompt (tests/HOST.md).
function startCompile($) {
  core.compiled ??= $.wasm
    .compile('../pkg/compact_plus_bg.wasm')
    .catch((err) => {
      $.ui.log(`compact-plus: the wasm core did not compile, every hook passes through: ${text(err)}`, { to: 'debug' })
      return null
    })
    .then((module) => (core.settled = module))
}

// The session's tools, with the recall tool added where it is on: a tool of this hook's own
// (`mcp: false`), in the first request and every one after (the summarizer's too), with no MCP
// server to connect first (`$.tool.register` made the first turn wait 237–1,660 ms for one:
// tests/HOST.md). The engine raises this at load, and again when the tools or settings change.
function listTools($, e, next) {
  return Promise.resolve(next(e)).then((listed) => {
    // Started once the engine's list is back, so the answer never waits on it.
    startCompile($)
    registerCommands($)
    if (!recallOn || !Array.isArray(listed?.value)) return listed
    return { ...listed, value: [...listed.value.filter((t) => t?.name !== RECALL_TOOL.name), RECALL_TOOL] }
  })
}

// The person's slash commands (the core's `COMMANDS`), registered once per load at the first
// `tool.list`, raised at load: a command typed before it is registered goes to the model as a
// prompt (tests/HOST.md).
function registerCommands($) {
  if (commandsAsked) return
  commandsAsked = true
  for (const spec of COMMANDS) {
    Promise.resolve()
      .then(() => $.command.register(spec))
      .catch((err) => $.ui.log(`compact-plus: no /${spec.name}: ${text(err)}`, { to: 'debug' }))
  }
}

// One hook for every other event; `next.event` says which.
function hook($, e, next) {
  startCompile($)
  if (next.event === 'tool.call' || next.event === 'command.run') {
    recallCompiled ??= $.wasm.compile('../pkg/recall/compact_plus_recall_bg.wasm').catch((err) => {
      $.ui.log(`compact-plus: the recall module did not compile: ${text(err)}`, { to: 'debug' })
      return null
    })
  }
  // What a hook does with the world: `$` calls (each bounded by js/steps.js), the debug log, a clock.
  const io = {
    log: (line) => $.ui.log(line, { to: 'debug' }),
    show: (line) => $.ui.log(line),
    after: (ms, fn) => $.clock.after(ms, fn),
    perform: (call) => (call.op === 'search' ? searched(call.request, io) : perform($, call, next?.signal)),
  }
  // The session's end has one short bound for every hook: a core never instantiated holds no
  // state to drop, so there is nothing to wait for.
  if (next.event === 'session.end' && !core.live) return next(e)
  return drive(next.event, e, next, io)
}

export function register(on, opts) {
  core.options = JSON.stringify(opts ?? {})
  core.live = false
  core.carried = ''
  commandsAsked = false
  on('session.compact', hook).catch(($, e, next) => next(e))
  on('session.append', { door: 'compaction' }, hook).catch(($, e, next) => next(e))
  on('prompt.context', hook).catch(($, e, next) => next(e))
  on('turn.complete', hook).catch(($, e, next) => next(e))
  on('session.end', hook).catch(($, e, next) => next(e))
  // Hooked with the tool off too: it is the first hook of a session, where the compile starts.
  recallOn = opts?.recallTool !== false
  on('tool.list', listTools).catch(($, e, next) => next(e))
  // One registration for the three: with more than one, the engine keeps each command's line
  // without its arguments (tests/HOST.md). A failure of our own is the person's line.
  const ours = (e) => COMMANDS.some((c) => c.name === e?.command)
  on('command.run', ($, e, next) => (ours(e) ? hook($, e, next) : commandRun(e, next))).catch(($, e, next) =>
    next.called || !ours(e) ? next(e) : { text: `/${e.command} failed`, isTextDisplayOnly: true },
  )
  on('session.append', { door: 'command' }, hook).catch(($, e, next) => next(e))
  if (!recallOn) return
  // The name as a literal, so the engine's scan of this file reads the matcher
  // (`tool.call{tool=compact_plus_recall}`); tests/shim/start-up.test.mjs holds it to the name
  // the core lists.
  on('tool.call', { tool: 'compact_plus_recall' }, hook).catch(() => ({ result: 'recall: the search failed' }))
}
