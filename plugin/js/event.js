// compact-plus: the shim's work on the engine's own objects, which must stay JS objects (a
// message's `handle`, `next`'s result) and can be megabytes (a compaction's messages): what the
// core gets of an event, the event `next` gets, the hook's result. The core decides each (its
// calls and its end, src/hooks/protocol.rs); these functions only apply that to the objects.
// No `$` here: js/compact-plus.js performs every host call.

// session.compact's event as the core starts on it: each message's role and handle alone. The
// person's texts come by `texts`, the rest by `pack` once `next` has started, so the summary
// request does not wait for the history.
export function slim(e) {
  const slim = (m) => (m && typeof m === 'object' && !Array.isArray(m) ? { role: m.role, handle: m.handle } : m)
  return JSON.stringify({ ...e, messages: e.messages.map(slim), textsDeferred: true })
}

// The `text` of these messages (`null` for a non-string): the answer to `texts`.
export const texts = (e, indices) => indices.map((i) => (typeof e.messages[i]?.text === 'string' ? e.messages[i].text : null))

// The answer to `pack`: the event with each text numbered in a skeleton of it, and the texts as
// UTF-8 beside it (each one's byte length in `lens`): no escaping either way.
const encoder = new TextEncoder()
export function pack(e, withResults) {
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
  const lens = new Array(strings.length)
  let at = 0
  for (let i = 0; i < strings.length; i++) {
    if (bytes.length - at < strings[i].length * 3) {
      const grown = new Uint8Array(Math.max(bytes.length * 2, at + strings[i].length * 3))
      grown.set(bytes.subarray(0, at))
      bytes = grown
    }
    lens[i] = encoder.encodeInto(strings[i], bytes.subarray(at)).written
    at += lens[i]
  }
  return [{ lens, event }, bytes.subarray(0, at)]
}

// The event `next` gets: the one the engine sent, with the changes a `next` call (or the
// `rewritten` end: a row's text blocks replaced) names.
export function down(e, call) {
  let down = e
  if (Array.isArray(call.content)) down = { ...down, message: { ...down.message, content: call.content.map((t) => ({ type: 'text', text: t })) } }
  if (typeof call.instructions === 'string') down = { ...down, instructions: call.instructions }
  if (Array.isArray(call.append)) {
    const content = [...down.message.content, ...call.append.map((t) => ({ type: 'text', text: t }))]
    down = { ...down, message: { ...down.message, content } }
  }
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
