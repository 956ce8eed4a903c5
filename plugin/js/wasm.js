// compact-plus: the two wasm modules' instances, one synchronous call into them at a time, each
// guarded (the shim's promise 3, js/compact-plus.js): the core's (pkg/compact_plus.js), rebuilt
// with its state carried after a trap or when the core hands its memory back, and the recall
// module's (pkg/recall/), compiled on the recall tool's first call. No `$` here: the shim
// compiles the modules and performs every host call; the step loop is js/steps.js.

import { initSync, __wbg_reset_state, init, start, resume, resumePacked, cancel, takeText, memoryBytes } from '../pkg/compact_plus.js'
import { initSync as initRecall, start as recallStart, resume as recallResume, cancel as recallCancel, __wbg_reset_state as resetRecall } from '../pkg/recall/compact_plus_recall.js'
import { steps } from './steps.js'

const text = (err) => String(err && err.message ? err.message : err).slice(0, 300)

// The compile starts at the first hook (`tool.list` or `prompt.context`, both raised at load) and
// settles 45–340 ms later (tests/HOST.md); a hook still waiting past this passes through, within
// the host's 10 s budget.
const COMPILE_WAIT_MS = 5000

// The core's one instance and what outlives it. One per load of the shim (`register` starts it
// over with the mod's options).
export class Core {
  compiled = null // Promise<WebAssembly.Module | null>: the shim's `$.wasm.compile`, once per load
  settled = null // what `compiled` gave, once it has
  waitedOut = false // a hook waited the whole bound: later ones do not wait again
  options = '{}'
  live = false // instantiated, with its options and state
  generation = 0 // bumped at every rebuild: a hook of an older one is lost
  lastId = 0 // the highest hook id handed out: a rebuilt core starts past it
  carried = '' // the session state the core last sent (`carry`), as JSON

  // The module, or null when it did not compile or is not there within the wait. Once one hook has
  // waited the whole bound, the others take what is there.
  async compiledWithin(io) {
    if (this.waitedOut) return this.settled
    let timer
    const late = new Promise((resolve) => (timer = io.after(COMPILE_WAIT_MS, () => resolve('late'))))
    const module = await Promise.race([this.compiled, late])
    timer?.cancel?.()
    if (module !== 'late') return module
    if (!this.waitedOut) io.log(`compact-plus: the wasm core was not ready after ${COMPILE_WAIT_MS} ms; hooks pass through until it is`)
    this.waitedOut = true
    return this.settled
  }

  instantiate(module) {
    if (this.live) return
    initSync({ module })
    init(this.options, this.carried, this.lastId + 1)
    this.live = true
  }

  // A new instance, with the state and ids going on. Throws if even that fails; the next hook
  // then instantiates again.
  rebuild() {
    this.live = false
    this.generation++
    __wbg_reset_state()
    init(this.options, this.carried, this.lastId + 1)
    this.live = true
  }

  // One call into the core, answering a step. A throw (a trap) rebuilds the instance for the next
  // call and passes the error on. The core says when its memory should go back (`handBack`:
  // large, and no hook in flight): the instance is rebuilt small, its state carried.
  step(call, log) {
    try {
      const s = JSON.parse(call())
      if (typeof s.id === 'number' && s.id > this.lastId) this.lastId = s.id
      if (s.carry !== undefined) this.carried = JSON.stringify(s.carry)
      // Long write texts wait in the core's outbox: one string each, no JSON escaping.
      for (const c of s.calls ?? []) if (c.op === 'write' && typeof c.textRef === 'number') c.text = takeText(c.textRef)
      if (s.handBack) {
        this.rebuild()
        log(`compact-plus: the core's memory handed back (${s.handBack} bytes, now ${memoryBytes()}); its state carried`)
      }
      return s
    } catch (err) {
      try {
        this.rebuild()
      } catch {}
      throw err
    }
  }

  // Runs `hook` on its event (`json`) to its last step, `run` answering the calls it answers
  // itself (js/run.js); `null` when the hook was lost to a rebuild.
  run(hook, json, run, io) {
    const generation = this.generation
    const machine = {
      resume: (id, answers) => {
        const packed = run.packed
        run.packed = null
        return this.step(() => (packed ? resumePacked(id, answers, packed) : resume(id, answers)), io.log)
      },
      forget(id) {
        try {
          cancel(id)
        } catch {}
      },
      lost: () => {
        if (generation === this.generation) return false
        io.log(`compact-plus: ${hook} was lost when the core was rebuilt; the engine's result stands`)
        return true
      },
    }
    return steps(this.step(() => start(hook, json), io.log), machine, io, (call) => run.answer(call))
  }
}

// The recall module's one instance: made for a call, dropped once no call is in flight (its memory
// only grows, so it keeps nothing between calls).
export class Recall {
  inFlight = 0

  // The recall tool's answer to `request` (the core's `search` end): the module's own machine, on
  // the same step loop as the hooks. Any failure is the tool's answer, never the session's.
  async search(module, request, io) {
    if (!module) return 'recall: the search module did not load'
    this.inFlight++
    try {
      initRecall({ module })
      const machine = {
        resume: (id, answers, texts) => this.step(() => recallResume(id, answers, texts)),
        forget: (id) => recallCancel(id),
        lost: () => false,
      }
      const s = await steps(this.step(() => recallStart(JSON.stringify(request))), machine, io, () => undefined)
      return typeof s?.done === 'string' ? s.done : 'recall: the search stopped short'
    } catch (err) {
      return `recall: the search failed: ${text(err)}`
    } finally {
      if (--this.inFlight === 0) this.drop()
    }
  }

  // One call into the module: a throw (a trap) drops the instance, and a call in flight on it then
  // answers that it lost its place.
  step(call) {
    try {
      return JSON.parse(call())
    } catch (err) {
      this.drop()
      throw err
    }
  }

  drop() {
    try {
      resetRecall()
    } catch {}
  }
}
