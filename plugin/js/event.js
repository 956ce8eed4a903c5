// compact-plus: one hook's run on the engine's own objects, which must stay JS objects (a message's
// `handle`, `next`'s result) and can be megabytes (a compaction's messages). The core decides every
// change (src/hooks/protocol.rs); this applies it. No `$` here.

const encoder = new TextEncoder()
const message = (err) => String(err && err.message ? err.message : err)

// One hook's run: its `next`, called at most once (the shim's promise 1), its result or rejection
// kept, and the calls of the core the run answers itself (`next`, the event's texts); every other
// call is a `$` call. A job has no `next`.
export function hookRun(hook, e, next) {
  const run = {
    e,
    seen: null, // the event whose texts the core may ask for (session.compact's)
    called: false,
    result: undefined,
    rejected: null, // { err }: `next` rejected with err, passed up as it came
    started: null, // a `next` started and not awaited

    // What the core starts on. session.compact's messages go slimmed (role and handle): the
    // person's texts come by `texts`, the rest by `pack` once `next` has started, so the summary
    // request does not wait for the history. Made before the call into wasm: a value that will
    // not stringify costs this hook alone.
    json() {
      if (hook !== 'session.compact' || !Array.isArray(e?.messages)) return JSON.stringify(e ?? {})
      run.seen = e
      const slim = (m) => (m && typeof m === 'object' && !Array.isArray(m) ? { role: m.role, handle: m.handle } : m)
      return JSON.stringify({ ...e, messages: e.messages.map(slim), textsDeferred: true })
    },

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

    // The engine's own result: `next`'s if called (its very rejection), else a fresh `next(e)`.
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
          if (!run.seen) return Promise.resolve({ err: 'no texts were left out' })
          return Promise.resolve({ ok: call.messages.map((i) => (typeof run.seen.messages[i]?.text === 'string' ? run.seen.messages[i].text : null)) })
        case 'pack':
          return Promise.resolve()
            .then(() => (run.seen ? pack(run.seen, call.results === true) : { err: 'no texts were left out' }))
            .catch((err) => ({ err: message(err) }))
        case 'startNext':
          return Promise.resolve(unavailable ?? run.startNext(down(e, call)))
        case 'nextResult':
          // A rejection is an answer too: the core may compact in the engine's place.
          if (!run.started) return Promise.resolve({ err: 'no next was started' })
          return run.started.then((ok) => ({ ok }), (err) => ({ err: message(err), rejected: true, aborted: next?.signal?.aborted === true }))
        case 'next':
          return unavailable ? Promise.resolve(unavailable) : run.callNext(down(e, call)).then((ok) => ({ ok }))
      }
    },
  }
  return run
}

// The answer to `pack`: the event with each text numbered in a skeleton of it, and the texts as
// UTF-8 beside it (each one's byte length in `lens`): no escaping either way.
function pack(e, withResults) {
  const strings = []
  const text = (s) => (typeof s === 'string' ? strings.push(s) - 1 : null)
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
  const event = { ...e, messages: e.messages.map(message) }
  const size = strings.reduce((n, s) => n + s.length, 0)
  let bytes = new Uint8Array(size + (size >> 3) + 1024)
  let at = 0
  const lens = strings.map((s) => {
    if (bytes.length - at < s.length * 3) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + s.length * 3))
      grown.set(bytes.subarray(0, at))
      bytes = grown
    }
    const n = encoder.encodeInto(s, bytes.subarray(at)).written
    at += n
    return n
  })
  return { ok: { lens, event }, bytes: bytes.subarray(0, at) }
}

// The event `next` gets: the one the engine sent, with the changes a `next` call (or the
// `rewritten` end: a row's text blocks replaced) names.
export function down(e, call) {
  const blocks = (texts) => texts.map((t) => ({ type: 'text', text: t }))
  let down = e
  if (Array.isArray(call.content)) down = { ...down, message: { ...down.message, content: blocks(call.content) } }
  if (typeof call.instructions === 'string') down = { ...down, instructions: call.instructions }
  if (Array.isArray(call.append)) down = { ...down, message: { ...down.message, content: [...down.message.content, ...blocks(call.append)] } }
  if (Array.isArray(call.cut) && Array.isArray(down.messages)) down = { ...down, messages: cut(down.messages, call.cut) }
  return down
}

// The trim before the summarizer: each listed message built from its role, text and tool blocks
// with the core's tool-result texts, its handle left out (a changed message is built, not
// mapped: e2e-kit failures/README.md section 3); every other one as the engine sent it.
function cut(messages, cuts) {
  const byIndex = new Map(cuts.map((c) => [c.index, c]))
  return messages.map((m, i) => {
    const c = byIndex.get(i)
    if (!c || !m || typeof m !== 'object' || !Array.isArray(m.toolResults)) return m
    const { handle, ...rest } = m
    const results = Array.isArray(c.results) ? c.results : []
    return { ...rest, toolResults: m.toolResults.map((r, k) => (typeof results[k] === 'string' && r && typeof r === 'object' ? { ...r, text: results[k] } : r)) }
  })
}

// `next`'s result with the core's changes (`amended`): its instruction files, a block added.
export function amended(result, done) {
  if (done.instructionFiles !== undefined) result = { ...result, instructionFiles: done.instructionFiles }
  if (done.contextBlock) result = { ...result, blocks: [...(Array.isArray(result?.blocks) ? result.blocks : []), done.contextBlock] }
  return result
}

// A compaction of the core's own (`compacted`): its summary as a user row, then the event's
// messages it keeps, each built from its role, text and tool blocks, without its handle, so the
// engine writes new rows for them (d.ts SessionCompacted.messages: "one without is built"). Kept
// by handle, the engine writes copies that keep the originals' message ids and tool links, and
// `--resume` merges each copy with its original and walks back past the boundary (measured on
// 2.1.328: tests/HOST.md, "What --resume rebuilds after a hook's compaction").
export function compaction({ summary, keep }, e) {
  const built = (m) => ({
    role: m.role,
    text: typeof m.text === 'string' ? m.text : '',
    toolUses: Array.isArray(m.toolUses) ? m.toolUses : [],
    ...(Array.isArray(m.toolResults) ? { toolResults: m.toolResults } : {}),
  })
  const kept = (Array.isArray(keep) ? keep : []).map((i) => e.messages[i]).filter((m) => m && typeof m === 'object')
  return { messages: [{ role: 'user', text: String(summary), toolUses: [] }, ...kept.map(built)] }
}
