// Golden vectors: the Rust port (target/dev-pkg/compact_plus.js, built by scripts/build-dev) must reproduce the reference lib.js on every
// vector in tests/fixtures/golden (written by scripts/golden.mjs), with two kinds of planned
// difference:
//
// - Grapheme-adjusted cuts. Where the reference cut through a surrogate pair or a grapheme cluster,
//   the port cuts at a grapheme boundary: the head of a cut ends at the nearest boundary at or before
//   the reference's, the tail starts at the nearest boundary at or after the reference's, and the
//   "[... N characters cut; ...]" count is the code units really cut. Such vectors carry `adj`; it is
//   recomputed here independently (Intl.Segmenter) wherever the cut can be located from the inputs
//   (cutMiddle, handoffInstructions, renderHistory) and must match; selectVerbatim's, whose cuts move
//   the budget for the messages after them, is taken as recorded. The port's output must also hold
//   no lone surrogate.
// - Inputs on which the reference throws: the port must not throw and must return what
//   PORT_INSTEAD_OF_THROW says.
//
// `handle` on selectVerbatim's entries must be absent (not present and undefined) when the input
// message had none: the reference writes `handle: undefined`, which is read as "absent" here.
//
// Run: node --test tests/golden.test.mjs   (Node 20+, nothing outside the repo)
//   GOLDEN_IMPL=path.mjs       test that module instead of pkg/ (if it exports initSync, the wasm
//                              beside it, <name>_bg.wasm, is loaded)
//   GOLDEN_EXPECT=reference    expect the reference's own outputs (throws and unadjusted cuts), to
//                              check these vectors against the extracted lib.js itself
//   GOLDEN_ONLY=fn1,fn2        only these functions

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'

const FIXTURES = fileURLToPath(new URL('./fixtures/golden/', import.meta.url))
// The reference's functions are not in the shipped .wasm (feature `compat`): scripts/build-dev
// builds them into target/dev-pkg.
const PKG_GLUE = fileURLToPath(new URL('../target/dev-pkg/compact_plus.js', import.meta.url))
const REFERENCE_MODE = process.env.GOLDEN_EXPECT === 'reference'
const ONLY = process.env.GOLDEN_ONLY ? new Set(process.env.GOLDEN_ONLY.split(',')) : null

// What the port returns where the reference throws, per function: (args, port) => expected value.
// A rule may call the port on a repaired input; the port's answer on that input is itself pinned by
// ordinary vectors (rows `{}`, text undefined, and so on).
const asObject = (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null)
/** A row as the port reads it: a non-object row is an empty one; a non-string text is absent. */
function asMessage(m) {
  const o = asObject(m)
  if (!o) return {}
  const r = { ...o }
  if (typeof r.text !== 'string') r.text = undefined
  if (!Array.isArray(r.toolUses)) r.toolUses = undefined
  else r.toolUses = r.toolUses.filter((u) => asObject(u) !== null)
  return r
}
const PORT_INSTEAD_OF_THROW = {
  // new Date(ms) invalid (NaN, ±Infinity, |ms| > 8.64e15, no argument)
  stamp: () => '',
  // non-string, non-nullish text
  personText: () => '',
  // a null or non-object row, or a non-string text: the row is read as empty / the text as absent
  carriedMessages: ([messages], port) => (Array.isArray(messages) ? port.carriedMessages(messages.map(asMessage)) : []),
  selectVerbatim: ([messages, budget], port) => (Array.isArray(messages) ? port.selectVerbatim(messages.map(asMessage), budget) : []),
  // a bad row is skipped but keeps its number; a bad tool use is skipped; non-array toolUses are none
  renderHistory: ([messages, meta], port) => port.renderHistory(messages.map(asMessage), meta),
  // a non-string first message: as if there were none
  handoffInstructions: (_args, port) => port.handoffInstructions(null),
  // a non-string own instruction text: as if there were none
  joinInstructions: ([, extra]) => extra,
}

// ---------------------------------------------------------------------------------------------
// Decoding (the encoding is described in scripts/golden.mjs)

function dec(v) {
  if (Array.isArray(v)) return v.map(dec)
  if (v === null || typeof v !== 'object') return v
  const keys = Object.keys(v)
  if (keys.length === 1) {
    if (keys[0] === '$undef' && v.$undef === true) return undefined
    if (keys[0] === '$num') {
      const n = { NaN, Infinity, '-Infinity': -Infinity, '-0': -0 }[v.$num]
      if (n === undefined) throw new Error(`bad $num ${v.$num}`)
      return n
    }
    if (keys[0] === '$obj') return Object.fromEntries(v.$obj.map(([k, x]) => [k, dec(x)]))
  }
  if (keys.some((k) => k.startsWith('$'))) throw new Error(`unknown encoding ${JSON.stringify(keys)}`)
  // fromEntries defines own properties, so a "__proto__" key stays a key.
  return Object.fromEntries(keys.map((k) => [k, dec(v[k])]))
}

function loadVectors() {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.jsonl.gz')).sort()
  const byFn = new Map()
  for (const f of files) {
    const lines = gunzipSync(readFileSync(FIXTURES + f)).toString('utf8').split('\n').filter(Boolean)
    for (const [i, line] of lines.entries()) {
      const raw = JSON.parse(line)
      const v = { fn: raw.fn, tag: raw.tag, where: `${f}:${i + 1}`, args: raw.args === null ? null : dec(raw.args) }
      if (raw.out && typeof raw.out === 'object' && !Array.isArray(raw.out) && 'throws' in raw.out) v.throws = raw.out.throws
      else v.out = dec(raw.out)
      if ('adj' in raw) v.adj = dec(raw.adj)
      if (!byFn.has(v.fn)) byFn.set(v.fn, [])
      byFn.get(v.fn).push(v)
    }
  }
  return byFn
}

// ---------------------------------------------------------------------------------------------
// The implementation under test

async function loadImpl() {
  const glue = process.env.GOLDEN_IMPL ? resolve(process.env.GOLDEN_IMPL) : PKG_GLUE
  if (!existsSync(glue)) throw new Error(`${glue} does not exist: run scripts/build-dev first (the reference's functions are built into target/dev-pkg)`)
  const mod = await import(pathToFileURL(glue).href)
  if (typeof mod.initSync === 'function') {
    const wasm = glue.replace(/\.js$/, '_bg.wasm')
    mod.initSync({ module: readFileSync(wasm) })
  }
  return mod
}
const implPromise = loadImpl()
implPromise.catch(() => {}) // reported by each test

// ---------------------------------------------------------------------------------------------
// Grapheme boundaries and the adjusted cut, computed here from the inputs

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'grapheme' })

// Grapheme boundaries at or around code unit i. (`containing` is used rather than iterating all
// segments: V8's segment iterator takes seconds on a 50 KB string.)
function floorBoundary(text, i) {
  if (i <= 0) return 0
  if (i >= text.length) return text.length
  return SEGMENTER.segment(text).containing(i).index
}
function ceilBoundary(text, i) {
  if (i <= 0) return 0
  if (i >= text.length) return text.length
  const s = SEGMENTER.segment(text).containing(i)
  return s.index === i ? i : s.index + s.segment.length
}
// String.prototype.slice's index resolution.
function sliceIndex(rel, len) {
  const n = Number.isNaN(rel) ? 0 : Math.trunc(rel)
  return n < 0 ? Math.max(len + n, 0) : Math.min(n, len)
}

class VectorError extends Error {}

/**
 * Where cutMiddle(text, max) cuts, found in the reference's output `ref` (which starts at `at`):
 * null when it does not cut. The head is floor(max * 0.7) units, the tail the rest of `max`.
 */
function locateCut(text, max, ref, at = 0, whole = false) {
  const len = text.length
  if (len <= max) return null
  const headArg = Math.floor(max * 0.7)
  const h = sliceIndex(headArg, len)
  const t = sliceIndex(len - (max - headArg), len)
  const opening = text.slice(0, h) + `\n[... ${len - max} characters cut; `
  const start = ref.indexOf(opening, at)
  if (start < 0) return null
  const closing = ' ...]\n' + text.slice(t)
  // The whole output is one cut when `whole`; elsewhere the note is fixed and cannot hold the closing.
  const end = whole ? ref.length - closing.length : ref.indexOf(closing, start + opening.length)
  if (end < start + opening.length || !ref.startsWith(closing, end)) return null
  const note = ref.slice(start + opening.length, end)
  return { h, t, start, end: end + closing.length, note }
}

/** The cut moved to grapheme boundaries, or null when the reference's cut already is on them. */
function adjustCut(text, cut) {
  const hA = floorBoundary(text, cut.h)
  const tA = ceilBoundary(text, cut.t)
  if (hA === cut.h && tA === cut.t) return null
  return text.slice(0, hA) + `\n[... ${tA - hA} characters cut; ${cut.note} ...]\n` + text.slice(tA)
}

/**
 * The expected port output recomputed from the reference output and the inputs, with each cut the
 * inputs let us find moved to grapheme boundaries; `adjusted` says whether any moved. Undefined for
 * functions whose cuts cannot be located (selectVerbatim).
 */
const RECOMPUTE = {
  cutMiddle([text, max], ref) {
    const cut = locateCut(text, max, ref, 0, true)
    if (text.length > max && (!cut || cut.start !== 0 || cut.end !== ref.length)) throw new VectorError('the reference output is not head + marker + tail')
    const fixed = cut && adjustCut(text, cut)
    return fixed === null || fixed === undefined ? { adjusted: false, expected: ref } : { adjusted: true, expected: fixed }
  },
  handoffInstructions([first], ref) {
    if (typeof first !== 'string' || !first) return { adjusted: false, expected: ref }
    const norm = first.replace(/\s+/g, ' ')
    const h = Math.min(80, norm.length)
    const hA = floorBoundary(norm, h)
    if (hA === h) return { adjusted: false, expected: ref }
    const needle = `"${norm.slice(0, h)}" onward`
    const at = ref.indexOf(needle)
    if (at < 0 || ref.indexOf(needle, at + 1) >= 0) throw new VectorError('cannot find the quoted head in the reference output')
    return { adjusted: true, expected: ref.slice(0, at) + `"${norm.slice(0, hA)}" onward` + ref.slice(at + needle.length) }
  },
  renderHistory([messages], ref) {
    let expected = ''
    let from = 0
    let adjusted = false
    for (const m of messages) {
      const uses = asObject(m) && Array.isArray(m.toolUses) ? m.toolUses : []
      for (const u of uses) {
        if (!asObject(u)) continue
        const pieces = [[JSON.stringify(u.input ?? {}), 2000]]
        if (typeof u.text === 'string') pieces.push([u.text, 12000])
        for (const [s, max] of pieces) {
          if (s.length <= max) continue
          const cut = locateCut(s, max, ref, from)
          if (!cut) continue // the row was not rendered
          const fixed = adjustCut(s, cut)
          expected += ref.slice(from, cut.start) + (fixed ?? ref.slice(cut.start, cut.end))
          from = cut.end
          if (fixed !== null) adjusted = true
        }
      }
    }
    return { adjusted, expected: expected + ref.slice(from) }
  },
}

/**
 * selectVerbatim's cuts cannot be recomputed here (each moves the budget for the rows after it), so
 * its `adj` is taken as recorded; but every cut entry of the port's output whose source text can be
 * found in the input rows must cut that text on grapheme boundaries and count what it cut. Returns
 * how many cuts were found and checked.
 */
function checkSelectVerbatimCuts([messages], got) {
  const sources = (Array.isArray(messages) ? messages : []).map((m) => (asObject(m) && typeof m.text === 'string' ? m.text : '')).filter(Boolean)
  let checked = 0
  for (const e of Array.isArray(got) ? got : []) {
    const text = asObject(e) && typeof e.text === 'string' ? e.text : ''
    for (const m of text.matchAll(/\n\[\.\.\. (\d+) characters cut; [^\n]* \.\.\.\]\n/g)) {
      const head = text.slice(0, m.index)
      const tail = text.slice(m.index + m[0].length)
      const cutLength = Number(m[1])
      const whole = head.length + cutLength + tail.length
      const source = sources
        .flatMap((s) => {
          const found = []
          for (let p = s.indexOf(head); p >= 0 && found.length < 4; p = s.indexOf(head, p + 1)) found.push(s.slice(p, p + whole))
          return found
        })
        .find((o) => o.length === whole && o.endsWith(tail))
      if (source === undefined) continue
      const end = head.length
      const start = head.length + cutLength
      if (floorBoundary(source, end) !== end || ceilBoundary(source, start) !== start) {
        throw new VectorError(`selectVerbatim cut ${end}..${start} of a ${whole}-unit message is not on grapheme boundaries`)
      }
      checked++
    }
  }
  return checked
}

// ---------------------------------------------------------------------------------------------
// Comparison

/** The expected value as the port must give it: `handle: undefined` means no handle at all. */
function normalize(fn, value) {
  if (REFERENCE_MODE || fn !== 'selectVerbatim' || !Array.isArray(value)) return value
  return value.map((e) => {
    if (!asObject(e) || !('handle' in e) || e.handle !== undefined) return e
    const { handle: _, ...rest } = e
    return rest
  })
}

function wellFormed(v) {
  if (typeof v === 'string') return v.isWellFormed()
  if (Array.isArray(v)) return v.every(wellFormed)
  if (asObject(v)) return Object.values(v).every(wellFormed)
  return true
}

const show = (v) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : v === undefined ? 'undefined' : JSON.stringify(v, (k, x) => (x === undefined ? '<undefined>' : x))
  return s !== undefined && s.length > 160 ? s.slice(0, 160) + '…' : String(s)
}

/** Where two values first differ, briefly. */
function firstDifference(expected, got, path = '$') {
  if (isDeepStrictEqual(expected, got)) return null
  if (typeof expected === 'string' && typeof got === 'string') {
    let i = 0
    while (i < expected.length && expected[i] === got[i]) i++
    const from = Math.max(0, i - 30)
    return `${path}: strings differ at ${i} (lengths ${expected.length} / ${got.length}); expected …${show(expected.slice(from, i + 50))}, got …${show(got.slice(from, i + 50))}`
  }
  if (Array.isArray(expected) && Array.isArray(got)) {
    for (let i = 0; i < Math.min(expected.length, got.length); i++) {
      const d = firstDifference(expected[i], got[i], `${path}[${i}]`)
      if (d) return d
    }
    return `${path}: array lengths ${expected.length} / ${got.length}`
  }
  if (asObject(expected) && asObject(got)) {
    const ek = Object.keys(expected).sort(), gk = Object.keys(got).sort()
    if (!isDeepStrictEqual(ek, gk)) return `${path}: keys ${show(ek)} / ${show(gk)}`
    for (const k of ek) {
      const d = firstDifference(expected[k], got[k], `${path}.${k}`)
      if (d) return d
    }
    return `${path}: prototypes differ`
  }
  return `${path}: expected ${show(expected)}, got ${show(got)}`
}

const counts = { vectors: 0, exact: 0, adjusted: 0, instead: 0, failed: 0, selectVerbatimCutsChecked: 0 }

/** Checks one vector; returns its kind ('exact' | 'adjusted' | 'instead') or throws VectorError. */
function check(v, impl) {
  if (v.args === null) {
    const d = firstDifference(v.out, impl[v.fn])
    if (d) throw new VectorError(d)
    return 'exact'
  }
  if (typeof impl[v.fn] !== 'function') throw new VectorError(`the implementation has no function ${v.fn}`)
  let got, threw
  try {
    got = impl[v.fn](...v.args)
  } catch (e) {
    threw = e
  }

  if ('throws' in v) {
    if (REFERENCE_MODE) {
      if (!threw) throw new VectorError(`expected it to throw ${v.throws}, got ${show(got)}`)
      if (String(threw) !== v.throws) throw new VectorError(`expected ${v.throws}, threw ${threw}`)
      return 'exact'
    }
    if (threw) throw new VectorError(`threw ${threw} where the reference throws ${v.throws}; the port must not throw`)
    const rule = PORT_INSTEAD_OF_THROW[v.fn]
    if (!rule) throw new VectorError(`the reference throws ${v.throws}, and PORT_INSTEAD_OF_THROW has no rule for ${v.fn}`)
    const d = firstDifference(normalize(v.fn, rule(v.args, impl)), got)
    if (d) throw new VectorError(`PORT_INSTEAD_OF_THROW: ${d}`)
    return 'instead'
  }

  if (threw) throw new VectorError(`threw ${threw}`)
  let expected = v.out
  let kind = 'exact'
  if (!REFERENCE_MODE) {
    const recompute = RECOMPUTE[v.fn]
    if (recompute) {
      const r = recompute(v.args, v.out)
      if (r.adjusted !== ('adj' in v)) {
        throw new VectorError(`Intl.Segmenter here ${r.adjusted ? 'moves' : 'keeps'} a cut the vectors ${'adj' in v ? 'move' : 'keep'}: a different ICU? Regenerate with scripts/golden.mjs`)
      }
      if (r.adjusted) {
        const d = firstDifference(v.adj, r.expected)
        if (d) throw new VectorError(`the recorded adj and the one recomputed here differ: ${d}`)
      }
    }
    if ('adj' in v) {
      expected = v.adj
      kind = 'adjusted'
    }
    if (!wellFormed(got)) throw new VectorError('the output holds a lone surrogate')
    if (v.fn === 'selectVerbatim' && 'adj' in v) counts.selectVerbatimCutsChecked += checkSelectVerbatimCuts(v.args, got)
  }
  const d = firstDifference(normalize(v.fn, expected), got)
  if (d) throw new VectorError(d)
  return kind
}

const vectors = loadVectors()

test('golden vectors cover every export', async () => {
  const impl = await implPromise
  const expectedNames = [...vectors.keys()].sort()
  const missing = expectedNames.filter((n) => !(n in impl))
  assert.deepEqual(missing, [], `the implementation lacks ${missing.join(', ')}`)
})

for (const [fn, list] of vectors) {
  if (ONLY && !ONLY.has(fn)) continue
  test(`golden ${fn} (${list.length} vectors)`, async () => {
    const impl = await implPromise
    const failures = []
    for (const v of list) {
      counts.vectors++
      try {
        counts[check(v, impl)]++
      } catch (e) {
        counts.failed++
        if (!(e instanceof VectorError)) throw e
        failures.push(`${v.where} [${v.tag}]: ${e.message}`)
      }
    }
    if (failures.length) {
      const shown = failures.slice(0, 12).join('\n  ')
      assert.fail(`${failures.length} of ${list.length} ${fn} vectors failed:\n  ${shown}${failures.length > 12 ? `\n  … and ${failures.length - 12} more` : ''}`)
    }
  })
}

// Last, so the counts are complete (tests in a file run in order).
test('golden summary', (t) => {
  const mode = REFERENCE_MODE ? ' (expecting the reference itself)' : ''
  t.diagnostic(
    `golden: ${counts.vectors} vectors, ${counts.exact} exact, ${counts.adjusted} grapheme-adjusted, ${counts.instead} port-instead-of-throw, ${counts.failed} failed${mode}` +
      (counts.selectVerbatimCutsChecked ? ` (${counts.selectVerbatimCutsChecked} adjusted selectVerbatim cuts checked against their source text)` : ''),
  )
  assert.ok(counts.vectors > 0, 'no vectors were checked')
})
