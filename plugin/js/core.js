// compact-plus: the two wasm modules' instances and the step protocol's loop (src/step.rs) that
// runs both. Every call into wasm is synchronous and guarded (the shim's promise 3): the core's
// instance is rebuilt with its state carried after a trap or when the core hands its memory back;
// the recall module's is made for a search and dropped once none is in flight. Each step's calls
// are performed at once and given up on as the machine said (promise 4). No `$` here.

import { initSync, __wbg_reset_state, init, start, resume, resumePacked, cancel, takeText, memoryBytes } from '../pkg/compact_plus.js'
import * as recallGlue from '../pkg/recall/compact_plus_recall.js'

export const message = (err) => String(err && err.message ? err.message : err)
const encoder = new TextEncoder()

// The compile starts at the first hook (`tool.list` or `prompt.context`, both raised at load) and
// settles 45–340 ms later (tests/HOST.md); a hook still waiting past this passes through, within
// the host's 10 s budget.
const COMPILE_WAIT_MS = 5000

// The core's one instance and what outlives it, one per load of the shim (`register` starts it
// over with the options).
export const coreInstance = () => {
  const core = {
    compiled: null, // Promise<WebAssembly.Module | null>: the shim's `$.wasm.compile`, once per load
    settled: null, // what `compiled` gave, once it has
    waitedOut: false, // a hook waited the whole bound: later ones take what is there
    options: '{}',
    live: false, // instantiated, with its options and state
    generation: 0, // bumped at every rebuild: a hook of an older one is lost
    lastId: 0, // the highest hook id handed out: a rebuilt core starts past it
    carried: '', // the session state the core last sent (`carry`), as JSON

    async compiledWithin(io) {
      if (core.waitedOut) return core.settled
      let timer
      const late = new Promise((resolve) => (timer = io.after(COMPILE_WAIT_MS, () => resolve('late'))))
      const module = await Promise.race([core.compiled, late])
      timer?.cancel?.()
      if (module !== 'late') return module
      if (!core.waitedOut) io.log(`compact-plus: the wasm core was not ready after ${COMPILE_WAIT_MS} ms; hooks pass through until it is`)
      core.waitedOut = true
      return core.settled
    },

    instantiate(module) {
      if (core.live) return
      initSync({ module })
      init(core.options, core.carried, core.lastId + 1)
      core.live = true
    },

    // A new instance, the state and ids going on. If even that throws, the next hook instantiates.
    rebuild() {
      core.live = false
      core.generation++
      __wbg_reset_state()
      init(core.options, core.carried, core.lastId + 1)
      core.live = true
    },

    // One call into the core. A throw (a trap) rebuilds the instance and passes the error on. The
    // core says when its memory should go back (`handBack`: large, no hook in flight).
    step(call, io) {
      try {
        const s = JSON.parse(call())
        if (typeof s.id === 'number' && s.id > core.lastId) core.lastId = s.id
        if (s.carry !== undefined) core.carried = JSON.stringify(s.carry)
        // Long write texts wait in the core's outbox: one string each, no JSON escaping.
        for (const c of s.calls ?? []) if (c.op === 'write' && typeof c.textRef === 'number') c.text = takeText(c.textRef)
        if (s.handBack) {
          core.rebuild()
          io.log(`compact-plus: the core's memory handed back (${s.handBack} bytes, now ${memoryBytes()}); its state carried`)
        }
        return s
      } catch (err) {
        try {
          core.rebuild()
        } catch {}
        throw err
      }
    },

    // Runs `hook` to its last step, `run` answering the calls it answers itself (js/event.js);
    // `null` when the hook was lost to a rebuild.
    run(hook, run, io) {
      const generation = core.generation
      const json = run.json()
      const lost = () => {
        if (generation === core.generation) return false
        io.log(`compact-plus: ${hook} was lost when the core was rebuilt; the engine's result stands`)
        return true
      }
      // Texts beside a step's answers are a `pack` answer's (the core asks no `beside` call).
      const next = (id, answers, texts) => core.step(() => (texts ? resumePacked(id, answers, texts) : resume(id, answers)), io)
      return steps(
        core.step(() => start(hook, json), io),
        { next, forget: cancel, lost },
        io,
        run.answer,
      )
    },
  }
  return core
}

// The recall module's one instance: made for a search, dropped once none is in flight (its memory
// only grows, so it keeps nothing between searches). Any failure is the tool's answer.
export const recallInstance = () => {
  const recall = {
    compiled: null, // compiled on the first `tool.call` or `command.run`
    inFlight: 0,

    async search(request, io) {
      const module = await recall.compiled
      if (!module) return 'recall: the search module did not load'
      recall.inFlight++
      try {
        recallGlue.initSync({ module })
        const next = (id, answers, texts) => recall.step(() => recallGlue.resume(id, answers, texts ?? new Uint8Array(0)))
        const s = await steps(
          recall.step(() => recallGlue.start(JSON.stringify(request))),
          { next, forget: recallGlue.cancel, lost: () => false },
          io,
          () => undefined,
        )
        return typeof s?.done === 'string' ? s.done : 'recall: the search stopped short'
      } catch (err) {
        return `recall: the search failed: ${message(err).slice(0, 300)}`
      } finally {
        if (--recall.inFlight === 0) recall.drop()
      }
    },

    // A throw (a trap) drops the instance; a search in flight on it then answers that it failed.
    step(call) {
      try {
        return JSON.parse(call())
      } catch (err) {
        recall.drop()
        throw err
      }
    },

    drop() {
      try {
        recallGlue.__wbg_reset_state()
      } catch {}
    },
  }
  return recall
}

// Runs a machine ({ next(id, answers, texts), forget(id), lost() }) from its step `s` to its end:
// the last step, or `null` when it was lost. `own(call)` answers the calls the hook's run answers
// itself; every other call is a `$` call (`io.perform`).
async function steps(s, machine, io, own) {
  const deadlines = new Map()
  try {
    while (Array.isArray(s?.calls)) {
      const answers = await Promise.all(s.calls.map((call) => own(call) ?? performed(call, io, deadlines))).catch((err) => {
        try {
          machine.forget(s.id)
        } catch {}
        throw err
      })
      if (machine.lost()) return null
      const texts = beside(answers)
      s = machine.next(s.id, JSON.stringify(answers), texts)
    }
    return s
  } finally {
    for (const { timer } of deadlines.values()) timer?.cancel?.()
  }
}

// A `$` call's answer: `{ok}`, `{err}`, or `{text}` with the UTF-8 `bytes` of a call marked
// `beside` (a file's text, neither escaped into JSON nor passed a char at a time).
async function performed(call, io, deadlines) {
  try {
    const ok = await waited(call, io, deadlines)
    if (call.beside !== true || typeof ok !== 'string') return { ok }
    const bytes = encoder.encode(ok)
    return { text: bytes.length, bytes }
  } catch (err) {
    return { err: message(err) }
  }
}

// The texts beside a step's answers, one after the other in the order of their calls (null: none).
function beside(answers) {
  const parts = answers.filter((a) => a.bytes)
  if (parts.length === 0) return null
  const texts = parts.length === 1 ? parts[0].bytes : new Uint8Array(parts.reduce((n, a) => n + a.bytes.length, 0))
  let at = 0
  for (const a of parts) {
    if (parts.length > 1) texts.set(a.bytes, at)
    at += a.bytes.length
    delete a.bytes
  }
  return texts
}

// A `$` call, given up on as its machine said: `waitMs` after it started, or after the first call
// naming the same `deadline` in this run. A timer holds only the calls still out, never what the
// others answered (megabytes).
function waited(call, io, deadlines) {
  const perform = () => Promise.resolve().then(() => io.perform(call))
  if (typeof call.waitMs !== 'number') return perform()
  const key = call.deadline ?? {}
  let d = deadlines.get(key)
  if (!d) {
    d = { out: new Set() }
    d.timer = io.after(call.waitMs, () => {
      d.late = true
      for (const giveUp of d.out) giveUp()
    })
    deadlines.set(key, d)
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
        deadlines.delete(key)
        d.timer.cancel?.()
      })
  })
}
