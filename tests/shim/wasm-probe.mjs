// A probe on the core's wasm instances, for the tests that watch a rebuild: it wraps
// `WebAssembly.Instance` (what the glue calls in `initSync` and `__wbg_reset_state`; the host's
// reduced WebAssembly keeps it [api B, VERIFIED]) and reads, without changing anything:
//
//   - every step the core answers (`start`, `resume`, `resumePacked`): its id, done or calls, carry;
//   - every `init(options, carried, firstId)` the shim makes: the state carried into an instance;
//
// and, when a test asks, makes the core trap for real inside one call: it hands the real export a
// length that runs past the end of linear memory, so the core faults on a real out-of-bounds read
// in the middle of its work (inside its state's `RefCell` borrow), as a wasm trap does (a Rust
// panic or a fault surfaces as a `RuntimeError`, catchable in JS [api E, VERIFIED]). The instance is
// then poisoned for good: that is why the shim must rebuild.
//
// Import it before the first hook runs (the first hook instantiates the core).
const RealInstance = WebAssembly.Instance
const decoder = new TextDecoder()

export const probe = {
  /** The raw exports of every instance made, oldest first. */
  instances: [],
  /** Every step: { instance, fn, hook?, id?, json } (json parsed). */
  steps: [],
  /** Every init: { instance, firstId, carried (string), options (string) }. */
  inits: [],
  /** (fn, info) => boolean: the next call it matches traps for real. */
  trapWhen: null,
  /** The traps made: { fn, info, error }. */
  traps: [],
}

const text = (ex, ptr, len) => decoder.decode(new Uint8Array(ex.memory.buffer, ptr >>> 0, len >>> 0))

/** Ids the core handed out, in the order seen. */
export const idsSeen = () => probe.steps.filter((s) => typeof s.json?.id === 'number').map((s) => s.json.id)

function Instance(module, imports) {
  const real = new RealInstance(module, imports)
  const ex = real.exports
  const instance = probe.instances.length
  probe.instances.push(ex)
  const wrapped = { ...ex }
  const record = (fn, ret, info) => {
    try {
      probe.steps.push({ instance, fn, ...info, json: JSON.parse(text(ex, ret[0], ret[1])) })
    } catch {}
    return ret
  }
  const trap = (fn, info, call) => {
    if (!probe.trapWhen || !probe.trapWhen(fn, info)) return null
    probe.trapWhen = null
    try {
      call()
    } catch (error) {
      probe.traps.push({ fn, info, instance, error })
      throw error
    }
    throw new Error(`the probe asked ${fn} to trap and it did not`)
  }
  // A length that runs from any pointer past the end of linear memory (and stays a valid `usize`).
  const pastTheEnd = () => ex.memory.buffer.byteLength
  wrapped.start = (p0, l0, p1, l1) => {
    const info = { hook: text(ex, p0, l0) }
    trap('start', info, () => ex.start(p0, l0, p1, pastTheEnd()))
    return record('start', ex.start(p0, l0, p1, l1), info)
  }
  wrapped.resume = (id, p, l) => {
    const info = { id }
    trap('resume', info, () => ex.resume(id, p, pastTheEnd()))
    return record('resume', ex.resume(id, p, l), info)
  }
  wrapped.resumePacked = (id, p, l, p2, l2) => {
    const info = { id, packed: true }
    trap('resumePacked', info, () => ex.resumePacked(id, p, pastTheEnd(), p2, l2))
    return record('resumePacked', ex.resumePacked(id, p, l, p2, l2), info)
  }
  wrapped.init = (p0, l0, p1, l1, firstId) => {
    probe.inits.push({ instance, options: text(ex, p0, l0), carried: text(ex, p1, l1), firstId })
    return ex.init(p0, l0, p1, l1, firstId)
  }
  return { exports: wrapped }
}
Instance.prototype = RealInstance.prototype
WebAssembly.Instance = Instance
