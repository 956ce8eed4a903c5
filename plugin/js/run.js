// compact-plus: one hook's run, as far as the engine's own objects go: its `next`, called at most
// once (the shim's promise 1, js/compact-plus.js), its result or its rejection kept, and the calls
// of the core the run answers itself (`next` and the event's texts; every other call is a `$`
// call the shim performs). A job has no `next`.

import { texts, pack, down } from './event.js'

const text = (err) => String(err && err.message ? err.message : err)

export function hookRun(e, next) {
  const run = {
    e,
    seen: null, // the event whose texts the core may ask for (session.compact's)
    called: false,
    result: undefined,
    rejected: null, // { err }: `next` rejected with err
    started: null, // the promise of a `next` started and not awaited
    packed: null, // the UTF-8 texts of this step's `pack` answer

    callNext(event) {
      run.called = true
      return new Promise((resolve) => resolve(next(event))).then(
        (r) => (run.result = r),
        (err) => {
          run.rejected = { err }
          throw err
        },
      )
    },

    // `next` started and not awaited: the core works on while the engine does.
    startNext(event) {
      run.started = run.callNext(event)
      run.started.catch(() => {}) // awaited by `nextResult`, or at the end
      return { ok: null }
    },

    // The engine's own result: `next`'s if called (its very rejection, if it rejected), else a
    // fresh `next(e)`.
    passThrough() {
      if (run.started) return run.started
      if (run.called || !next) return run.result
      return run.callNext(e)
    },

    // The answer to a call the run answers itself, or `undefined` for a `$` call.
    answer(call) {
      const unavailable = run.called || !next ? { err: 'next is not available here' } : null
      switch (call.op) {
        case 'texts':
          return Promise.resolve(run.seen ? { ok: texts(run.seen, call.messages) } : { err: 'no texts were left out' })
        case 'pack':
          return Promise.resolve().then(() => {
            if (!run.seen) return { err: 'no texts were left out' }
            const [skeleton, bytes] = pack(run.seen, call.results === true)
            run.packed = bytes
            return { ok: skeleton }
          }).catch((err) => ({ err: text(err) }))
        case 'startNext':
          return Promise.resolve(unavailable ?? run.startNext(down(e, call)))
        case 'nextResult':
          // A rejection is an answer too: the core may compact in the engine's place. The error
          // object stays in `run.rejected`, to pass up as it came.
          if (!run.started) return Promise.resolve({ err: 'no next was started' })
          return run.started.then((ok) => ({ ok }), (err) => ({ err: text(err), rejected: true, aborted: next?.signal?.aborted === true }))
        case 'next':
          return unavailable ? Promise.resolve(unavailable) : run.callNext(down(e, call)).then((ok) => ({ ok }))
      }
    },
  }
  return run
}
