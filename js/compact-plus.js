// compact-plus: the shim. The Rust core (pkg/) decides everything; this file performs the `$`
// calls it asks for and hands back the answers and how each hook ended. Beside it, with no `$`:
// js/core.js (the wasm instances and the step loop, src/step.rs) and js/event.js (one hook's
// `next` and the core's decisions applied to the engine's own objects).
//
// What the shim promises, whatever happens:
// 1. `next` is called at most once per hook (js/event.js `callNext`), and a hook that called it
//    returns what it gave.
// 2. An error reaches the engine only when it is `next`'s own rejection, passed up as it came (the
//    same error object); every other failure lets the engine's result through. After `next`
//    rejected, the core may answer a compaction of its own instead (`compacted` in place of the
//    rejection); after it resolved or without it, only where the core says so (in place of the
//    result: a summary row that is no summary, a summarizer that failed within the cool-down).
// 3. Every call into wasm is synchronous and guarded (js/core.js). A throw in the core rebuilds the
//    instance with the session state the core last carried and ids that go on past the old ones;
//    a hook of the old instance then lets the engine's result through and says so in the debug
//    log. (A throw in the recall module costs its searches in flight.)
// 4. Nothing a hook waits on waits forever: each `$` call is given up on as the Rust side says
//    (`waitMs`, a `deadline` shared by name: js/core.js), the compile wait is bounded. (The
//    turn-end job's queued `/compact` resolves only when it has run; nothing waits on the job.)

import { RECALL_TOOL, NEXT_FIRST, COMMANDS } from '../pkg/compact_plus.js'
import { coreInstance, recallInstance, message } from './core.js'
import { hookRun, down, amended, compaction } from './event.js'

let recallOn = true // the recallTool option: the tool is listed and served
let commandsAsked = false // the slash commands were registered in this load
const text = (err) => message(err).slice(0, 300)
const core = coreInstance()
const recall = recallInstance()

// Runs one hook of the core to its end.
async function drive(hook, e, next, io) {
  const run = hookRun(hook, e, next)
  // A hook whose first call is always for `next`'s result on the event as it came (the core's
  // `NEXT_FIRST`): the engine's own work starts now, while the module compiles (tests/HOST.md).
  if (next && NEXT_FIRST.includes(hook)) run.startNext(e)
  try {
    const module = await core.compiledWithin(io)
    if (!module) return run.passThrough()
    core.instantiate(module)
    const s = await core.run(hook, run, io)
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
      return { result: await recall.search(done.request, io) }
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
      for (const line of lines) io.show(String(line))
    })
  }
  if (commandsRunning === 0) return show()
  onSettled.push(show)
  io.after(5000, show)
}
function commandRun(e, next) {
  commandsRunning++
  const settled = () => {
    if (--commandsRunning === 0) for (const show of onSettled.splice(0)) show()
  }
  try {
    const out = next(e)
    Promise.resolve(out).then(settled, settled)
    return out
  } catch (err) {
    settled()
    throw err
  }
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
    case 'sessionId': return $.session.id()
    case 'now': return $.clock.now()
    case 'exists': return $.fs.exists(call.path)
    case 'read': return typeof call.offset === 'number' ? $.fs.read(call.path, { offset: call.offset, length: call.length }) : $.fs.read(call.path)
    case 'cwd': return $.session.cwd()
    case 'write': return $.fs.write(call.path, call.text)
    case 'list': return $.fs.list(call.path)
    case 'stat': return $.fs.stat(call.path, call.resolve ? { resolve: true } : undefined)
    case 'usage': return call.breakdown ? $.session.usage({ breakdown: call.breakdown }) : $.session.usage()
    // No shell [dts]; `env` is set over the host's own environment (src/prune.rs).
    case 'run': return $.process.run(call.argv, call.env ? { timeoutMs: call.timeoutMs, env: call.env } : { timeoutMs: call.timeoutMs })
    case 'debug': return $.ui.log(call.text, { to: 'debug' })
    case 'after': return new Promise((resolve) => $.clock.after(call.ms, resolve))
    case 'command': return $.command.run({ command: call.command, args: call.args })
    case 'messages': return $.session.messages({ last: call.last })
    // `timeoutMs` bounds the call itself (a `$` call's time is not the hook's); `next.signal` cuts
    // it when the person presses Esc [dts].
    case 'complete': {
      const { model, prompt, system, maxTokens, timeoutMs } = call
      return $.model.complete({ model, prompt, system, maxTokens, timeoutMs }, signal ? { signal } : undefined)
    }
    default: return Promise.reject(new Error(`unknown call: ${call.op}`))
  }
}

// The modules, each compiled once per load: the core's from the first hook on (`tool.list` or
// `prompt.context` raise at load, before the first prompt: tests/HOST.md), the recall module's at
// the first hook that can search. A module that does not compile leaves its hooks passing through.
function startCompile($, hook) {
  const failed = (what) => (err) => {
    $.ui.log(`compact-plus: ${what}: ${text(err)}`, { to: 'debug' })
    return null
  }
  core.compiled ??= $.wasm
    .compile('../pkg/compact_plus_bg.wasm')
    .catch(failed('the wasm core did not compile, every hook passes through'))
    .then((module) => (core.settled = module))
  if (hook === 'tool.call' || hook === 'command.run') recall.compiled ??= $.wasm.compile('../pkg/recall/compact_plus_recall_bg.wasm').catch(failed('the recall module did not compile'))
}

// The session's tools, with the recall tool added where it is on: a tool of this hook's own
// (`mcp: false`), in the first request and every one after (the summarizer's too), with no MCP
// server to connect first (`$.tool.register` made the first turn wait 237–1,660 ms for one:
// tests/HOST.md). The engine raises this at load, and again when the tools or settings change.
// The person's slash commands (the core's `COMMANDS`) are registered at the first one: a command
// typed before it is registered goes to the model as a prompt (tests/HOST.md).
function listTools($, e, next) {
  return Promise.resolve(next(e)).then((listed) => {
    // Started once the engine's list is back, so the answer never waits on it.
    startCompile($, 'tool.list')
    if (!commandsAsked) {
      commandsAsked = true
      for (const spec of COMMANDS) Promise.resolve().then(() => $.command.register(spec)).catch((err) => $.ui.log(`compact-plus: no /${spec.name}: ${text(err)}`, { to: 'debug' }))
    }
    if (!recallOn || !Array.isArray(listed?.value)) return listed
    return { ...listed, value: [...listed.value.filter((t) => t?.name !== RECALL_TOOL.name), RECALL_TOOL] }
  })
}

// One hook for every other event; `next.event` says which.
function hook($, e, next) {
  startCompile($, next.event)
  // What a hook does with the world: `$` calls (each bounded by js/core.js), the debug log, a clock.
  const io = {
    log: (line) => $.ui.log(line, { to: 'debug' }),
    show: (line) => Promise.resolve().then(() => $.ui.log(line)).catch(() => {}),
    after: (ms, fn) => $.clock.after(ms, fn),
    perform: (call) => (call.op === 'search' ? recall.search(call.request, io) : perform($, call, next?.signal)),
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
  recallOn = opts?.recallTool !== false
  on('session.compact', hook).catch(($, e, next) => next(e))
  on('session.append', { door: 'compaction' }, hook).catch(($, e, next) => next(e))
  on('prompt.context', hook).catch(($, e, next) => next(e))
  on('turn.complete', hook).catch(($, e, next) => next(e))
  on('session.end', hook).catch(($, e, next) => next(e))
  // Hooked with the tool off too: it is the first hook of a session, where the compile starts.
  on('tool.list', listTools).catch(($, e, next) => next(e))
  // One registration for the three commands: with more than one, the engine keeps each command's
  // line without its arguments (tests/HOST.md). A failure of our own is the person's line.
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
