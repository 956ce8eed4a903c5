// compact-plus: the step protocol's JS side (src/step.rs), one loop for the core's hooks and the
// recall module alike. Each step's calls are performed at once, each given up on as its machine
// said (`waitMs`, a `deadline` shared by name), and their answers handed back until the machine
// is done. No `$` here: js/compact-plus.js performs every host call (`io.perform`).

const encoder = new TextEncoder()
const message = (err) => String(err && err.message ? err.message : err)

// Runs `machine` ({ resume(id, json, texts), forget(id), lost() }) from its step `s` to its end:
// the last step, or `null` when it was lost (its instance rebuilt). `own(call)` answers the calls
// the hook's run answers itself (`next`, the event's texts); every other call is a `$` call.
export async function steps(s, machine, io, own) {
  const deadlines = new Map()
  try {
    while (Array.isArray(s?.calls)) {
      let answers
      try {
        answers = await Promise.all(s.calls.map((call) => own(call) ?? performed(call, io, deadlines)))
      } catch (err) {
        machine.forget(s.id)
        throw err
      }
      if (machine.lost()) return null
      const texts = beside(answers)
      s = machine.resume(s.id, JSON.stringify(answers), texts)
    }
    return s
  } finally {
    for (const { timer } of deadlines.values()) timer?.cancel?.()
  }
}

// A `$` call's answer: `{ok}`, `{err}`, or `{text}` with the UTF-8 `bytes` of a call marked
// `beside` (a file's text, neither escaped into JSON nor passed a char at a time as wasm-bindgen
// passes a string).
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

// The texts beside a step's answers, one after the other in the order of their calls; one (a read
// a step, most often) as it is.
function beside(answers) {
  const parts = answers.filter((a) => a.bytes)
  const texts = parts.length === 1 ? parts[0].bytes : new Uint8Array(parts.reduce((n, a) => n + a.text, 0))
  let at = 0
  for (const a of parts) {
    if (parts.length > 1) texts.set(a.bytes, at)
    at += a.text
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
