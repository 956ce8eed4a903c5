#!/usr/bin/env node
// Golden vectors for the Rust port of compact-plus's lib.js.
//
// The reference lib.js lives only in the seed (../shared/seeds/003_*.txt, beside the repo). It is
// extracted here at run time, written to a temporary directory and imported; no seed code is kept in
// the repo. Seeded cases (fixed PRNG, so a rerun writes the same bytes) are run through it and the
// inputs and outputs are stored in tests/fixtures/golden/<fn>.jsonl.gz, which tests/golden.test.mjs
// replays against target/dev-pkg/compact_plus.js (scripts/build-dev).
//
// Beside each reference output `out`, a vector may carry `adj`: the output of the same reference code
// with its cuts moved to grapheme boundaries (cutMiddle's head end down, its tail start up, the count
// of cut code units made true; handoffInstructions' 80-unit head down). That is the one way the port
// may differ, because a Rust string cannot hold half a surrogate pair and a cut through a cluster is
// a broken character to the reader. `adj` is present only where it differs from `out`.
//
// Encoding of values in the JSON lines (decoded by tests/golden.test.mjs):
//   undefined          {"$undef":true}       (an argument, an array element or a property value)
//   NaN, ±Infinity, -0 {"$num":"NaN"}, {"$num":"Infinity"}, {"$num":"-Infinity"}, {"$num":"-0"}
//   an object with a key starting with "$"
//                      {"$obj":[[key, value], ...]} in the object's own key order
//   anything else      itself. `args` is always the exact argument list (its length is the arity
//                      used); a reference exception is `out: {"throws": "<Name>: <message>"}`.
//
// Usage: node scripts/golden.mjs [--emit DIR]
//   --emit DIR  also write the extracted reference (DIR/reference.mjs) and the grapheme-adjusted model
//               (DIR/adjusted.mjs) there, to check the test itself (GOLDEN_IMPL=...).

import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { join, dirname, resolve } from 'node:path'
import { tmpdir } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SEEDS = resolve(ROOT, '../shared/seeds')
const OUT_DIR = join(ROOT, 'tests/fixtures/golden')
const SEED = 0x00c0ffee

const FUNCTIONS = [
  'cutMiddle',
  'personText',
  'carriedMessages',
  'selectVerbatim',
  'renderVerbatim',
  'pointerText',
  'handoffInstructions',
  'joinInstructions',
  'renderHistory',
  'stripInstructionText',
  'sameText',
  'stamp',
]
const CONSTANTS = ['CHARS_PER_TOKEN', 'VERBATIM_OPEN', 'VERBATIM_CLOSE']
// The functions whose output can hold a cut; only these get an `adj` when a cut splits a cluster.
const CUTTING = new Set(['cutMiddle', 'selectVerbatim', 'renderHistory', 'handoffInstructions'])

// ---------------------------------------------------------------------------------------------
// Extraction

function seedFile() {
  const names = readdirSync(SEEDS).filter((n) => /^003_.*\.txt$/.test(n))
  if (names.length !== 1) throw new Error(`expected one 003_*.txt in ${SEEDS}, found ${names.length}`)
  return join(SEEDS, names[0])
}

/** lib.js out of the seed: the last run of lines numbered 1, 2, 3, ... to the end, numbers removed. */
export function extractLib(seedText) {
  const lines = seedText.replace(/\r\n/g, '\n').split('\n')
  let start = -1
  for (let i = 0; i + 1 < lines.length; i++) {
    if (/^1(?!\d)/.test(lines[i]) && /^2(?!\d)/.test(lines[i + 1])) start = i
  }
  if (start < 0) throw new Error('no numbered lib.js found in the seed')
  const out = []
  for (let i = start; i < lines.length; i++) {
    const n = String(i - start + 1)
    if (!lines[i].startsWith(n)) {
      if (lines.slice(i).every((l) => l.trim() === '')) break
      throw new Error(`seed line ${i + 1}: expected the number ${n}, got ${JSON.stringify(lines[i].slice(0, 20))}`)
    }
    out.push(lines[i].slice(n.length))
  }
  const src = out.join('\n') + '\n'
  if (!src.includes('export function cutMiddle(')) throw new Error('the extracted module has no cutMiddle: wrong part of the seed?')
  return src
}

// The model the port may follow instead of the reference: the reference itself with cutMiddle and the
// handoff head cut moved to grapheme boundaries. Self-contained so it can be emitted for test checks.
const ADJUST_HELPERS = String.raw`
// ---- golden.mjs: grapheme-boundary cuts (the one allowed difference of the port) ----
const __graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })
function __floorBoundary(text, i) {
  if (i <= 0) return 0
  if (i >= text.length) return text.length
  return __graphemes.segment(text).containing(i).index
}
function __ceilBoundary(text, i) {
  if (i <= 0) return 0
  if (i >= text.length) return text.length
  const s = __graphemes.segment(text).containing(i)
  return s.index === i ? i : s.index + s.segment.length
}
// String.prototype.slice's index resolution.
function __sliceIndex(rel, len) {
  const n = Number.isNaN(rel) ? 0 : Math.trunc(rel)
  return n < 0 ? Math.max(len + n, 0) : Math.min(n, len)
}
export function cutMiddle(text, max, ...rest) {
  const ref = __refCutMiddle(text, max, ...rest)
  if (text.length <= max) return ref
  const len = text.length
  const headArg = Math.floor(max * 0.7)
  const h = __sliceIndex(headArg, len)
  const t = __sliceIndex(len - (max - headArg), len)
  const head = text.slice(0, h)
  const tail = text.slice(t)
  if (!ref.startsWith(head) || !ref.endsWith(tail) || ref.length < head.length + tail.length)
    throw new Error('golden model: the reference cut is not at the expected indices')
  const mid = ref.slice(head.length, ref.length - tail.length)
  const m = /^\n\[\.\.\. (\S+) characters cut; ([\s\S]*) \.\.\.\]\n$/.exec(mid)
  if (!m || m[1] !== String(len - max)) throw new Error('golden model: unexpected cut marker ' + JSON.stringify(mid))
  const hA = __floorBoundary(text, h)
  const tA = __ceilBoundary(text, t)
  if (hA === h && tA === t) return ref
  return text.slice(0, hA) + '\n[... ' + (tA - hA) + ' characters cut; ' + m[2] + ' ...]\n' + text.slice(tA)
}
function __headAt(text, n) {
  return text.slice(0, __floorBoundary(text, Math.min(n, text.length)))
}
`

function replaceOnce(src, from, to) {
  const at = src.indexOf(from)
  if (at < 0 || src.indexOf(from, at + 1) >= 0) throw new Error(`expected exactly one ${JSON.stringify(from)} in lib.js`)
  return src.slice(0, at) + to + src.slice(at + from.length)
}

function adjustedSource(src) {
  let s = replaceOnce(src, 'export function cutMiddle(', 'function __refCutMiddle(')
  s = replaceOnce(s, "firstVerbatim.replace(/\\s+/g, ' ').slice(0, 80)", "__headAt(firstVerbatim.replace(/\\s+/g, ' '), 80)")
  return s + ADJUST_HELPERS
}

// ---------------------------------------------------------------------------------------------
// Encoding

function enc(v) {
  if (v === undefined) return { $undef: true }
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { $num: 'NaN' }
    if (v === Infinity) return { $num: 'Infinity' }
    if (v === -Infinity) return { $num: '-Infinity' }
    if (Object.is(v, -0)) return { $num: '-0' }
    return v
  }
  if (v === null || typeof v === 'boolean') return v
  if (typeof v === 'string') {
    if (!v.isWellFormed()) throw new Error('lone surrogate in a value to encode')
    return v
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!(i in v)) throw new Error('array hole')
    return v.map(enc)
  }
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    if (Object.getOwnPropertySymbols(v).length) throw new Error('symbol key')
    const keys = Object.keys(v)
    if (keys.some((k) => k.startsWith('$'))) return { $obj: keys.map((k) => [k, enc(v[k])]) }
    return Object.fromEntries(keys.map((k) => [k, enc(v[k])]))
  }
  throw new Error(`cannot encode a ${typeof v}`)
}

// Outputs may hold lone surrogates (the reference cuts through pairs); JSON.stringify escapes them
// as \udXXX, which JSON.parse reads back exactly.
function encOut(v) {
  if (typeof v === 'string') return v
  if (Array.isArray(v)) return v.map(encOut)
  if (v && typeof v === 'object') {
    const keys = Object.keys(v)
    if (keys.some((k) => k.startsWith('$'))) return { $obj: keys.map((k) => [k, encOut(v[k])]) }
    return Object.fromEntries(keys.map((k) => [k, encOut(v[k])]))
  }
  return enc(v)
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness (sfc32), one stream per function so cases for one do not shift another's.

function rng(seed) {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0
  const next = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 24; i++) next()
  const R = {
    float: next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    weighted(pairs) {
      const total = pairs.reduce((s, [w]) => s + w, 0)
      let x = next() * total
      for (const [w, v] of pairs) if ((x -= w) < 0) return v
      return pairs[pairs.length - 1][1]
    },
    hex: (n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(next() * 16)]).join(''),
    // Mostly small, sometimes large: sizes spread over orders of magnitude.
    size: (lo, hi) => Math.floor(Math.exp(Math.log(lo + 1) + next() * (Math.log(hi + 1) - Math.log(lo + 1)))) - 1,
  }
  return R
}

// ---------------------------------------------------------------------------------------------
// Text material. Tokens are whole strings, so no generated input ever holds a lone surrogate.

const WORDS = (
  'the a to and fix test build run cargo npm src lib main file path error warning config deploy merge ' +
  'branch commit push pull review TODO function return const let value index.js lib.rs Cargo.toml ' +
  'README.md 42 3.14 0x1f /usr/local/bin C:\\Users\\dev "quoted" \'single\' `tick` {braces} [brackets] ' +
  '(parens) <tag> </tag> & | ; : , . ! ? # $ $& $1 % ^ * = + - _ ~ @ ... --- -->  <!-- user message'
).split(' ')
const CJK = ['漢字', '日本語', '中文', '测试', '한국어', '안녕하세요', 'こんにちは', 'カタカナ', '東京', '北京', '語', '字', '。', '、', '「引用」']
const ACCENTS = ['é', 'è', 'ü', 'ñ', 'ç', 'ø', 'å', 'ß', 'œ', 'Ω', 'Ж', 'щ', 'عربى', 'שלום', 'e\u0301', 'a\u0308\u0323', 'n\u0303', 'o\u0302\u0301', 'A\u030a', 'ά', 'café', 'naïve']
// JS whitespace (trim, \s) and near misses: U+0085, U+180E and U+200B are not JS whitespace.
const WS = [' ', '  ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\u0085', '\u180e', '\u200b', '\u1680', '\u2003', '\u202f', '\u205f', '\v', '\f', '\n\n']
const JS_WS = [' ', '\t', '\n', '\r\n', '\r', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\u1680', '\u2003', '\u202f', '\u205f', '\v', '\f']
const NOT_JS_WS = ['\u0085', '\u180e', '\u200b', '\u200d', '\u00ad']
const EMOJI = ['😀', '🎉', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '❤️', '1️⃣', '🇯🇵', '🇺🇸', '🇩🇪', '🇦', '🧑🏿‍🚀', '👩‍❤️‍💋‍👨', '🤷‍♀️', '🫶', '😶‍🌫️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '𝒜', '𝓑', '𠀀', '𠜎', '𐌰', '🦀', '✅', '⚠️', '☕', '👁️‍🗨️', '🇪🇺🇫🇷']
const COMPLEX = ['क्षि', 'नमस्ते', 'กำ', 'ᄀ\u1161\u11a8', '\u1100\u1161', 'ब्रह्म', '\u0915\u094d\u200d\u0937', 'x\u20dd', '\u00e9\u0332']
const CONTROL = ['\u0000', '\u0001', '\u001b[31m', '\u007f', '"', '\\', '\u001f', '\b', '</script>']

function zalgo(R) {
  let s = R.pick(['a', 'Z', 'ж', '字', '😀'])
  const n = R.int(1, 40)
  for (let i = 0; i < n; i++) s += String.fromCharCode(0x300 + R.int(0, 0x6f))
  return s
}

const FLAVORS = {
  ascii: [[10, 'word'], [3, 'space'], [1, 'nl']],
  bmp: [[8, 'word'], [3, 'space'], [1, 'nl'], [3, 'cjk'], [3, 'accent'], [1, 'ws']],
  astral: [[8, 'word'], [3, 'space'], [1, 'nl'], [3, 'emoji'], [1, 'complex'], [1, 'zalgo']],
  mixed: [[8, 'word'], [3, 'space'], [1, 'nl'], [1, 'crlf'], [2, 'cjk'], [2, 'accent'], [2, 'emoji'], [1, 'complex'], [1, 'ws'], [0.3, 'zalgo'], [0.3, 'control']],
  crlf: [[10, 'word'], [3, 'space'], [2, 'crlf'], [0.5, 'cr'], [0.5, 'emoji']],
  dense: [[2, 'word'], [6, 'emoji'], [3, 'complex'], [2, 'zalgo'], [2, 'crlf'], [1, 'accent']],
  ws: [[4, 'word'], [6, 'ws'], [1, 'nl']],
}

function token(R, kind) {
  switch (kind) {
    case 'word': return R.pick(WORDS)
    case 'space': return ' '
    case 'nl': return '\n'
    case 'crlf': return '\r\n'
    case 'cr': return '\r'
    case 'cjk': return R.pick(CJK)
    case 'accent': return R.pick(ACCENTS)
    case 'emoji': return R.pick(EMOJI)
    case 'complex': return R.pick(COMPLEX)
    case 'zalgo': return zalgo(R)
    case 'ws': return R.pick(WS)
    case 'control': return R.pick(CONTROL)
  }
  throw new Error(kind)
}

function pickFlavor(R) {
  return R.weighted([[3, 'ascii'], [2, 'bmp'], [2, 'astral'], [4, 'mixed'], [1, 'crlf'], [1, 'dense'], [0.5, 'ws']])
}

// Phrases drawn once per flavour: texts are mostly phrases, so they compress like prose does and the
// committed vectors stay small, with single tokens between them for variety.
const PHRASES = {}
function phrases(flavor) {
  if (!PHRASES[flavor]) {
    const R = rng(0x5eed + Object.keys(FLAVORS).indexOf(flavor))
    PHRASES[flavor] = Array.from({ length: 48 }, () => tokens(R, R.int(8, 120), flavor))
  }
  return PHRASES[flavor]
}

function tokens(R, len, flavor) {
  const table = FLAVORS[flavor]
  const parts = []
  let n = 0
  while (n < len) {
    const t = token(R, R.weighted(table))
    parts.push(t)
    n += t.length
    if (t !== ' ' && R.chance(0.55)) {
      parts.push(' ')
      n++
    }
  }
  return parts.join('')
}

/** About `len` code units of text (it may run a phrase over). */
function text(R, len, flavor = pickFlavor(R)) {
  const pool = phrases(flavor)
  const parts = []
  let n = 0
  while (n < len) {
    const t = R.chance(0.8) ? R.pick(pool) : tokens(R, 1, flavor)
    parts.push(t)
    n += t.length
  }
  return parts.join('')
}

/** Exactly `len` code units, starting and ending with a letter (so trimming keeps it whole). */
function exactText(R, len, flavor) {
  if (len < 2) return 'x'.repeat(len)
  let body = text(R, Math.max(0, len - 40), flavor)
  // Drop whole tokens (by code point and surrogate pair) until it fits, then pad with ASCII.
  const cps = Array.from(body)
  while (cps.join('').length > len - 2) cps.pop()
  body = cps.join('')
  return 'A' + body + 'y'.repeat(len - 2 - body.length) + 'Z'
}

// ---------------------------------------------------------------------------------------------
// Domain material

const SUMMARY_START = 'This session is being continued from a previous conversation'
const MACHINE_PREFIXES = [
  '<system-reminder>', '<task-notification>', '<command-', '<local-command', '<side-sessions-event>',
  '<ci-monitor-event>', '<user-prompt-submit-hook>', '[Request interrupted', 'Caveat:', SUMMARY_START,
]
const NEAR_PREFIXES = ['<command', '<Command-', '<local-comand', 'caveat:', 'Caveat :', '[request interrupted', 'This session is being continued', '<system-reminder', '<SYSTEM-REMINDER>', ' Caveat:x', '<task-notifications>']

function makeLib(ref) {
  const sample = ref.renderVerbatim([{ text: 'Q' }])
  const inner = sample.slice(ref.VERBATIM_OPEN.length + 1, sample.length - ref.VERBATIM_CLOSE.length - 1)
  const nl = inner.indexOf('\n')
  const SEP = inner.slice(nl + 1, -1)
  if (!SEP.includes('user message')) throw new Error('could not find the verbatim separator')
  return { SEP, OPEN: ref.VERBATIM_OPEN, CLOSE: ref.VERBATIM_CLOSE }
}

function reminder(R) {
  const body = text(R, R.size(0, 400), R.pick(['ascii', 'mixed', 'crlf']))
  return R.weighted([
    [8, `<system-reminder>${body}</system-reminder>`],
    [2, `<system-reminder>\n${body}\n</system-reminder>\n`],
    [1, `<system-reminder>${body}`], // unterminated
    [1, `<system-reminder>a<system-reminder>${body}</system-reminder>b</system-reminder>`], // nested
    [1, `<system-reminder></system-reminder>`],
    [1, `</system-reminder>${body}`],
    [1, `<SYSTEM-REMINDER>${body}</SYSTEM-REMINDER>`],
  ])
}

function pad(R) {
  return R.chance(0.5) ? '' : Array.from({ length: R.int(1, 3) }, () => R.pick(WS)).join('')
}

/** A user row's text as the engine writes it: the person's words, reminders, machine rows. */
function userText(R, size = R.size(0, 2000)) {
  const kind = R.weighted([[10, 'person'], [3, 'machine'], [2, 'near'], [3, 'reminded'], [1, 'only-reminder'], [1, 'blank']])
  const words = () => text(R, size)
  switch (kind) {
    case 'person': return pad(R) + words() + pad(R)
    case 'machine': return pad(R) + R.pick(MACHINE_PREFIXES) + (R.chance(0.5) ? words() : '')
    case 'near': return pad(R) + R.pick(NEAR_PREFIXES) + words()
    case 'reminded': {
      const parts = [words()]
      for (let i = R.int(1, 3); i > 0; i--) parts.splice(R.int(0, parts.length), 0, reminder(R))
      return parts.join(R.pick(['', '\n', ' ', '\r\n']))
    }
    case 'only-reminder': return pad(R) + reminder(R) + pad(R) + (R.chance(0.3) ? reminder(R) : '')
    case 'blank': return R.pick(['', ...WS, WS.join(''), NOT_JS_WS.join('')])
  }
}

function handle(R, obj) {
  const h = R.weighted([[6, 'str'], [4, 'absent'], [1, 'undef'], [0.3, 'empty']])
  if (h === 'str') obj.handle = `${R.hex(8)}-${R.hex(4)}`
  else if (h === 'undef') obj.handle = undefined
  else if (h === 'empty') obj.handle = ''
  return obj
}

/** The summary row of an earlier compaction: summary text, a verbatim block, a pointer. */
function summaryRow(R, L, ref, opts = {}) {
  const pieces = opts.pieces ?? Array.from({ length: R.int(0, opts.small ? 2 : 6) }, () => verbatimPiece(R, opts.small))
  let block = ref.renderVerbatim(pieces.map((t) => ({ text: t })))
  const variant = opts.variant ?? R.weighted([[10, 'plain'], [1, 'unterminated'], [1, 'nested'], [1, 'two'], [1, 'crlf'], [1, 'close-first'], [1, 'empty-pieces']])
  if (variant === 'unterminated') block = block.slice(0, block.length - L.CLOSE.length)
  if (variant === 'nested') {
    const innerBlock = ref.renderVerbatim([{ text: verbatimPiece(R) }])
    block = block.replace(L.SEP, () => L.SEP + innerBlock + L.SEP)
  }
  if (variant === 'two') block = ref.renderVerbatim([{ text: verbatimPiece(R) }]) + '\n\n' + block
  if (variant === 'crlf') block = block.replace(/\n/g, '\r\n')
  if (variant === 'close-first') block = L.CLOSE + '\n' + block.slice(0, block.length - L.CLOSE.length)
  if (variant === 'empty-pieces') block = block.replace(L.CLOSE, () => L.SEP + '   ' + L.SEP + '\n' + L.SEP + L.CLOSE)
  const parts = [
    SUMMARY_START + ' that ran out of context. The summary below covers the earlier portion.\n\n' + text(R, R.size(0, opts.small ? 100 : 600), 'mixed'),
    block,
  ]
  if (R.chance(0.6)) parts.push(ref.pointerText(`/home/u/.claude/compact-history/${R.hex(8)}/x.md`, `/home/u/.claude/compact-history/${R.hex(8)}`))
  return { variant, text: parts.join('\n\n') }
}

function verbatimPiece(R, small = false) {
  return R.weighted([
    [10, () => text(R, R.size(1, small ? 100 : 600))],
    [small ? 0 : 0.6, () => text(R, R.size(3000, 12000))],
    [1, () => pad(R) + text(R, 20) + pad(R)],
    [0.5, () => '--- user message --- inline ' + text(R, 30)],
    [0.5, () => R.pick(['', '   ', '\n'])],
  ])()
}

function toolMessageRows(R, size = 500) {
  const id = 'toolu_' + R.hex(12)
  return {
    role: 'user',
    text: R.chance(0.8) ? '' : R.pick([' ', '\n', 'ok']),
    toolUses: [],
    toolResults: [{ tool_use_id: id, text: text(R, R.size(0, size)), isError: R.chance(0.1) }],
  }
}

// A row of the window for selectVerbatim and carriedMessages, which read only role and text: the
// assistant and tool rows stay small. `tiny` is for windows of hundreds of rows.
function windowMessage(R, L, ref, scale = 'normal') {
  const tiny = scale === 'tiny'
  const kind = R.weighted([[8, 'user'], [6, 'assistant'], [3, 'tool-result'], [tiny ? 0.1 : 0.7, 'summary'], [0.6, 'odd']])
  switch (kind) {
    case 'user': return handle(R, { role: 'user', text: userText(R, R.size(0, tiny ? 150 : 1200)), toolUses: [] })
    case 'assistant': return handle(R, { role: 'assistant', text: text(R, R.size(0, tiny ? 60 : 200)), toolUses: R.chance(0.4) ? [toolUse(R, 'tiny')] : [] })
    case 'tool-result': return handle(R, toolMessageRows(R, tiny ? 60 : 300))
    case 'summary': return handle(R, { role: 'user', text: summaryRow(R, L, ref, { small: tiny }).text, toolUses: [] })
    case 'odd':
      return R.pick([
        () => ({ text: text(R, 50) }), // role missing
        () => ({ role: 'user' }), // text missing
        () => ({ role: 'user', text: undefined, toolUses: undefined }),
        () => ({ role: 'user', text: null }),
        () => ({ role: 'User', text: text(R, 40) }),
        () => ({ role: 'system', text: text(R, 40) }),
        () => ({}),
        () => handle(R, { role: 'user', text: text(R, 60), extra: { nested: [1, 2] } }),
      ])()
  }
}

// ---- JSON-ish tool inputs: key order matters (integer-like keys go first in JS) ----

const SPECIAL_NUMBERS = [0, -0, 1, -1, 0.1, 0.30000000000000004, 1e21, 1e-7, 1.5e-7, 123e-20, 5e-324, 1.7976931348623157e308, 2 ** 53, 2 ** 53 + 2, -(2 ** 31), 4294967295, 1e300, 100, 1e20, 123456789.123, NaN, Infinity, -Infinity]
const KEYS = ['command', 'file_path', 'description', 'pattern', 'content', 'old_string', 'new_string', 'timeout', 'url', 'b', 'a', 'z', 'é', '日本', '🦀', '', ' ', 'with "quote"', 'new\nline', '$schema', '$ref', '__proto__', 'constructor', '10', '2', '1', '0', '01', '-1', '1.5', '4294967294', '4294967295', '9007199254740993']

function jsonValue(R, depth, big = false) {
  const kinds = [[4, 'string'], [2, 'number'], [1, 'bool'], [0.5, 'null'], [0.4, 'undef']]
  if (depth > 0) kinds.push([2, 'object'], [1.5, 'array'])
  switch (R.weighted(kinds)) {
    case 'string': return big && R.chance(0.5) ? text(R, R.size(500, 6000)) : R.weighted([[5, () => text(R, R.size(0, 80))], [1, () => R.pick(CONTROL) + text(R, 5)], [1, () => R.pick(EMOJI)]])()
    case 'number': return R.chance(0.5) ? R.pick(SPECIAL_NUMBERS) : R.chance(0.5) ? R.int(-1000, 100000) : (R.float() - 0.5) * 10 ** R.int(-10, 25)
    case 'bool': return R.chance(0.5)
    case 'null': return null
    case 'undef': return undefined
    case 'array': return Array.from({ length: R.size(0, 8) }, () => jsonValue(R, depth - 1, big))
    case 'object': return jsonObject(R, depth - 1, big)
  }
}

function jsonObject(R, depth, big) {
  const entries = []
  for (let n = R.size(0, 8); n > 0; n--) entries.push([R.chance(0.7) ? R.pick(KEYS) : text(R, R.int(1, 8), 'bmp'), jsonValue(R, depth, big)])
  return Object.fromEntries(entries) // own data properties, even for "__proto__"
}

function nested(depth) {
  let v = { leaf: 'end' }
  for (let i = 0; i < depth; i++) v = i % 2 ? { [`k${i}`]: v, 2: i } : [v, i]
  return v
}

function toolInput(R, size) {
  return R.weighted([
    [6, () => jsonObject(R, R.int(0, 4), size === 'big')],
    [2, () => ({ command: text(R, size === 'big' ? R.size(1500, 9000) : R.size(0, 300), 'ascii'), description: text(R, 40), timeout: 120000 })],
    [2, () => ({ file_path: '/src/' + text(R, 20, 'bmp'), content: text(R, size === 'big' ? R.size(1900, 30000) : R.size(0, 500)) })],
    [0.3, () => undefined],
    [0.2, () => null],
    [0.2, () => text(R, 40)],
    // A whole input of NaN or ±Infinity cannot cross the JSON boundary the host
    // uses (it arrives as null): the host never sends one, so neither do we.
    [0.2, () => { const n = R.pick(SPECIAL_NUMBERS); return Number.isFinite(n) ? n : 0 }],
    [0.2, () => [1, 'two', { 3: 'three', b: 1, a: 2 }]],
    [0.1, () => nested(R.int(10, 200))],
  ])()
}

function toolUse(R, size = 'small') {
  const u = { tool_use_id: 'toolu_' + R.hex(12), tool: R.pick(['Bash', 'Read', 'Edit', 'Grep', 'Write', 'Task', 'WebFetch', 'mcp__github__create_issue', 'Skill', '工具']) }
  u.input = size === 'tiny' ? { command: text(R, R.size(0, 60), 'ascii') } : toolInput(R, size)
  const resultLen = size === 'tiny' ? R.size(0, 100) : R.weighted([
    [8, () => R.size(0, 600)],
    [1, () => R.size(600, 5000)],
    [0.2, () => R.pick([11999, 12000, 12001, 12002])],
    [0.12, () => R.size(13000, 40000)],
  ])()
  const r = R.weighted([[8, 'text'], [1, 'none'], [0.3, 'null'], [0.2, 'number']])
  if (r === 'text') u.text = R.chance(0.1) ? exactText(R, resultLen, pickFlavor(R)) : text(R, resultLen)
  if (r === 'null') u.text = null
  if (r === 'number') u.text = 42
  const e = R.weighted([[8, 'none'], [2, 'true'], [0.3, 'false'], [0.2, 'one'], [0.2, 'str']])
  if (e === 'true') u.isError = true
  if (e === 'false') u.isError = false
  if (e === 'one') u.isError = 1
  if (e === 'str') u.isError = 'yes'
  if (R.chance(0.1)) u.durationMs = R.int(1, 100000)
  if (R.chance(0.05)) delete u.tool
  return u
}

// ---------------------------------------------------------------------------------------------
// Cases per function. Each returns [{ tag, args }].

function casesCutMiddle(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const notes = () => R.weighted([[6, []], [1, [undefined]], [2, ['see the transcript']], [1, [text(R, R.size(0, 60))]], [0.3, ['']], [0.3, ['$& $1 $$']]])
  for (let i = 0; i < 900; i++) {
    const flavor = pickFlavor(R)
    const t = text(R, R.size(0, 4000), flavor)
    const len = t.length
    const max = R.weighted([
      [6, () => R.int(0, len + 10)],
      [2, () => R.pick([len, len - 1, len + 1, len - 2])],
      [2, () => R.int(0, 40)],
      [1, () => R.int(0, len) + R.pick([0.5, 0.3, 0.7, 0.999, 0.0001])],
      [0.5, () => R.pick([2000, 8000, 12000])],
    ])()
    add(`random/${flavor}`, t, max, ...notes())
  }
  // Cuts forced into clusters: a dense text, with both cut points swept over a stretch.
  for (let i = 0; i < 350; i++) {
    const t = text(R, R.size(20, 3000), 'dense')
    add('dense-sweep', t, R.int(1, Math.max(1, t.length - 1)), ...notes())
  }
  // CRLF pairs and single long clusters at the cut.
  for (let i = 0; i < 60; i++) {
    const t = 'ab\r\ncd\r\n'.repeat(R.int(2, 40))
    add('crlf-sweep', t, R.int(1, t.length - 1))
  }
  for (let i = 0; i < 40; i++) {
    const z = zalgo(R)
    const t = text(R, 30, 'ascii') + z + text(R, 30, 'ascii') + z + text(R, 10, 'ascii')
    add('zalgo-sweep', t, R.int(1, t.length - 1))
  }
  // Odd limits.
  const oddMax = [0, -0, -1, -5, -1000, NaN, Infinity, -Infinity, 0.5, 1, 2, 3, 1e308, Number.MIN_VALUE, -0.5, 2.5, 10.25]
  for (const max of oddMax) {
    for (const flavor of ['ascii', 'astral']) add(`odd-max/${flavor}`, text(R, R.int(0, 60), flavor), max)
    add('odd-max/empty', '', max)
  }
  // Large texts: tens of KB, and a few of about 200 KB.
  for (let i = 0; i < 25; i++) {
    const t = text(R, R.int(20000, 60000))
    add('large', t, R.pick([2000, 8000, 12000, R.int(100, t.length), t.length, t.length - 1]), ...notes())
  }
  for (let i = 0; i < 4; i++) add('huge', text(R, R.int(190000, 210000)), R.pick([2000, 8000, 12000]))
  return out
}

function casesPersonText(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  for (let i = 0; i < 650; i++) add('user-row', userText(R))
  for (const p of [...MACHINE_PREFIXES, ...NEAR_PREFIXES]) {
    add('prefix', p)
    add('prefix', p + text(R, 40))
    add('prefix/padded', R.pick(JS_WS) + p + text(R, 10))
    add('prefix/not-js-ws', R.pick(NOT_JS_WS) + p + text(R, 10))
    add('prefix/after-reminder', reminder(R) + pad(R) + p + ' ' + text(R, 10))
  }
  for (const w of [...WS, ...NOT_JS_WS]) {
    add('ws', w)
    add('ws/around', w + 'x' + w)
  }
  add('nullish', undefined)
  add('nullish', null)
  add('nullish')
  add('empty', '')
  for (let i = 0; i < 6; i++) add('large', userText(R, R.int(20000, 60000)))
  add('huge', pad(R) + text(R, 200000) + reminder(R) + pad(R))
  // The reference throws on these (`.replace` of a non-string); see PORT_INSTEAD_OF_THROW.
  for (const v of [5, true, {}, ['<system-reminder>'], 12.5]) add('throws/non-string', v)
  return out
}

function casesCarried(R, L, ref) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const variants = ['plain', 'unterminated', 'nested', 'two', 'crlf', 'close-first', 'empty-pieces']
  for (let i = 0; i < 420; i++) {
    const n = R.weighted([[6, () => R.int(0, 12)], [1, () => R.int(13, 300)]])()
    const msgs = []
    const shape = R.weighted([[4, 'summary-first'], [2, 'summary-anywhere'], [1, 'several'], [1, 'assistant-block'], [1, 'none']])
    for (let k = 0; k < n; k++) msgs.push(windowMessage(R, L, ref, n > 12 ? 'tiny' : 'normal'))
    if (shape === 'summary-first' || shape === 'summary-anywhere') {
      const row = summaryRow(R, L, ref, { variant: R.pick(variants) })
      msgs.splice(shape === 'summary-first' ? 0 : R.int(0, msgs.length), 0, handle(R, { role: 'user', text: row.text, toolUses: [] }))
    }
    if (shape === 'several') {
      for (let k = R.int(2, 3); k > 0; k--) msgs.splice(R.int(0, msgs.length), 0, { role: 'user', text: summaryRow(R, L, ref).text, toolUses: [] })
    }
    if (shape === 'assistant-block') msgs.push({ role: 'assistant', text: summaryRow(R, L, ref).text, toolUses: [] })
    add(`messages/${shape}`, msgs)
  }
  for (const v of variants) {
    for (let k = 0; k < 4; k++) add(`variant/${v}`, [{ role: 'user', text: summaryRow(R, L, ref, { variant: v }).text }])
  }
  // Pieces at the per-message cap and beside it, carried again.
  for (const len of [7999, 8000, 8001]) {
    add('piece-at-cap', [{ role: 'user', text: summaryRow(R, L, ref, { variant: 'plain', pieces: [exactText(R, len, 'mixed'), 'short'] }).text }])
  }
  add('empty', [])
  add('odd/array-text', [{ role: 'user', text: ['a', 'b'] }])
  add('odd/text-undefined-last', [{ role: 'user', text: summaryRow(R, L, ref).text }, { role: 'user', text: undefined }, { role: 'user' }])
  // The reference throws on these.
  add('throws/null-message', [{ role: 'user', text: summaryRow(R, L, ref).text }, null])
  add('throws/null-message-first', [null, { role: 'user', text: 'hi' }])
  add('odd/number-message', [{ role: 'user', text: 'x' }, 7])
  add('throws/number-text', [{ role: 'user', text: summaryRow(R, L, ref).text }, { role: 'user', text: 5 }])
  add('throws/object-text', [{ role: 'user', text: {} }])
  add('throws/null-messages', null)
  add('throws/undefined-messages', undefined)
  return out
}

const BUDGETS = [0, -0, -1, -100, NaN, Infinity, -Infinity, 0.5, 1, 49.75, 50, 50.25, 50.5, 51, 55.5, 100, 123.45, 500, 1000, 2000, 2000.75, 8000, 20000, 1e6, 1e308, Number.MAX_VALUE, Number.MIN_VALUE, null, undefined]

function casesSelect(R, L, ref) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const budget = () => R.weighted([
    [3, () => R.pick(BUDGETS)],
    [5, () => R.int(1, 3000)],
    [1, () => R.int(3000, 20000)],
    [2, () => R.int(1, 3000) + R.pick([0.25, 0.5, 0.1, 0.333])],
  ])()
  for (let i = 0; i < 900; i++) {
    const n = R.weighted([[8, () => R.int(0, 15)], [2, () => R.int(16, 60)], [0.7, () => R.int(61, 300)]])()
    const msgs = []
    if (R.chance(0.3)) msgs.push(handle(R, { role: 'user', text: summaryRow(R, L, ref).text, toolUses: [] }))
    for (let k = 0; k < n; k++) msgs.push(windowMessage(R, L, ref, n > 15 ? 'tiny' : 'normal'))
    add(n > 60 ? 'window/many' : 'window', msgs, budget())
  }
  // Messages at the per-message cap and beside it, with budgets around the room they need.
  for (const len of [7998, 7999, 8000, 8001, 8002]) {
    for (const flavor of ['ascii', 'astral', 'dense']) {
      const t = exactText(R, len, flavor)
      for (const b of [1e6, 2000, (len - 1) / 4, len / 4, (len + 1) / 4, 2005.5]) {
        add(`at-cap/${flavor}`, [handle(R, { role: 'user', text: t, toolUses: [] })], b)
      }
      add(`at-cap/carried/${flavor}`, [{ role: 'user', text: summaryRow(R, L, ref, { variant: 'plain', pieces: [t, 'older'] }).text }, handle(R, { role: 'user', text: 'newest', toolUses: [] })], 1e6)
    }
  }
  // The room left for the next message lands on 200 and beside it (the loop needs more than 200).
  for (let i = 0; i < 40; i++) {
    const first = exactText(R, R.int(50, 3000), R.pick(['ascii', 'mixed']))
    const room = R.pick([199, 199.75, 200, 200.25, 201, 202, 222, 223])
    const msgs = [
      handle(R, { role: 'user', text: text(R, R.size(100, 3000)), toolUses: [] }),
      handle(R, { role: 'assistant', text: 'ok', toolUses: [] }),
      handle(R, { role: 'user', text: first, toolUses: [] }),
    ]
    add('room-edge', msgs, (first.length + L.SEP.length + room) / 4)
  }
  for (const b of BUDGETS) add('budget', [handle(R, { role: 'user', text: text(R, 3000), toolUses: [] }), { role: 'user', text: text(R, 50) }], b)
  // Large and huge person messages.
  for (let i = 0; i < 12; i++) add('large', [handle(R, { role: 'user', text: text(R, R.int(20000, 60000)), toolUses: [] }), { role: 'user', text: text(R, 100) }], R.pick([8000, 2000, 1e6, 15000.5]))
  add('huge', [{ role: 'user', text: text(R, 200000) + reminder(R) }], 8000)
  add('huge', [{ role: 'user', text: summaryRow(R, L, ref, { pieces: [text(R, 150000), 'b'] }).text }, { role: 'user', text: 'c' }], 1e308)
  // The reference throws on these (null rows, non-string text); with no budget it never looks.
  add('throws/null-message', [{ role: 'user', text: 'hello there' }, null], 1000)
  add('throws/null-message', [null, { role: 'user', text: 'hello there' }], 1000)
  add('no-budget/null-message', [null, 5], 0)
  add('throws/number-text', [{ role: 'user', text: 5 }, { role: 'user', text: 'hi' }], 1000)
  add('throws/object-text', [{ role: 'user', text: { a: 1 } }], 100)
  add('throws/null-messages', null, 1000)
  add('throws/undefined-messages', undefined, 1000)
  return out
}

function casesRenderVerbatim(R, L, ref) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  for (let i = 0; i < 250; i++) {
    const entries = Array.from({ length: R.size(0, 30) }, () => handle(R, { text: verbatimPiece(R) }))
    add('entries', entries)
  }
  for (let i = 0; i < 30; i++) {
    const msgs = Array.from({ length: R.int(1, 20) }, () => windowMessage(R, L, ref))
    const entries = ref.selectVerbatim(msgs, R.int(100, 4000))
    add('from-select', entries.map((e) => (e.handle === undefined ? { text: e.text } : e)))
  }
  add('empty', [])
  add('one-empty', [{ text: '' }])
  add('separators', [{ text: L.SEP }, { text: L.OPEN + L.CLOSE }])
  add('large', [{ text: text(R, 40000) }, { text: text(R, 8000) }])
  return out
}

function path(R) {
  return R.weighted([
    [4, () => `/home/${R.pick(['dev', 'jürgen', '用户', 'a b'])}/.claude/compact-history/${R.hex(8)}-${R.hex(4)}`],
    [2, () => `C:/Users/${R.pick(['dev', 'Zoë', 'O\'Brien'])}/.claude/compact-history/${R.hex(8)}`],
    [1, () => text(R, R.size(0, 200))],
    [0.5, () => R.pick(['', '"', '$HOME', '`rm -rf`', '\\\\server\\share', '${dir}'])],
  ])()
}

function casesPointer(R) {
  const out = []
  for (let i = 0; i < 200; i++) {
    const dir = path(R)
    const file = R.chance(0.7) ? `${dir}/${R.pick(['20240229T120000Z', '+275760-09-13T000000Z'])}-${R.pick(['manual', 'auto'])}.md` : path(R)
    out.push({ tag: 'paths', args: [file, dir] })
  }
  return out
}

function casesHandoff(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  add('absent')
  add('absent', undefined)
  add('absent', null)
  add('absent', '')
  for (const w of [...WS, ...NOT_JS_WS]) add('whitespace', w)
  for (let i = 0; i < 250; i++) add('text', pad(R) + text(R, R.size(0, 400)) + pad(R))
  // Clusters across the 80th code unit once whitespace runs are collapsed.
  for (let i = 0; i < 120; i++) {
    const lead = exactText(R, R.int(60, 80), 'ascii').replace(/\s+/g, ' ')
    const run = Array.from({ length: R.int(1, 4) }, () => R.weighted([[3, () => R.pick(EMOJI)], [1, () => R.pick(COMPLEX)], [1, () => zalgo(R)], [1, () => '\r\n']])()).join('')
    add('cluster-at-80', lead + run + text(R, 40))
  }
  for (let i = 0; i < 10; i++) add('large', text(R, R.int(20000, 60000)))
  // The reference throws on these (`.replace` of a non-string truthy value).
  for (const v of [5, true, {}, ['a']]) add('throws/non-string', v)
  return out
}

function casesJoin(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const extra = () => R.weighted([[3, () => text(R, R.size(0, 800))], [1, () => ''], [1, () => 'Extra instructions from the compact-plus mod:\n- keep it']])()
  for (const own of [undefined, null, '', ...WS, ...NOT_JS_WS, WS.join(''), JS_WS.join('')]) add('own-blank', own, extra())
  for (let i = 0; i < 330; i++) add('own', pad(R) + text(R, R.size(0, 1000)) + pad(R), extra())
  for (let i = 0; i < 10; i++) add('large', text(R, R.int(20000, 60000)), text(R, 3000))
  // The reference throws on these (`.trim` of a non-string truthy value).
  for (const v of [5, true, {}, ['a']]) add('throws/non-string', v, 'extra')
  return out
}

function meta(R) {
  return R.weighted([
    [10, () => ({ sessionId: `${R.hex(8)}-${R.hex(4)}-${R.hex(4)}-${R.hex(4)}-${R.hex(12)}`, at: new Date(R.int(0, 4102444800000)).toISOString(), trigger: R.pick(['manual', 'auto', 'plugin', 'precompute']) })],
    [1, () => ({ sessionId: text(R, 20), at: '+275760-09-13T00:00:00.000Z', trigger: '' })],
    [0.5, () => ({})],
  ])()
}

function historyMessage(R, L, ref, scale = 'normal') {
  const heavy = scale === 'heavy'
  if (scale === 'tiny') return windowMessage(R, L, ref, 'tiny')
  const kind = R.weighted([[5, 'user'], [6, 'assistant'], [3, 'tool-result'], [0.5, 'summary'], [0.8, 'odd']])
  const m = {}
  switch (kind) {
    case 'user': Object.assign(m, { role: 'user', text: userText(R, R.size(0, heavy ? 3000 : 400)), toolUses: [] }); break
    case 'assistant': Object.assign(m, { role: 'assistant', text: R.chance(0.6) ? text(R, R.size(0, heavy ? 3000 : 300)) : '', toolUses: Array.from({ length: R.weighted([[4, 0], [4, 1], [1, R.int(2, 5)]]) }, () => toolUse(R, heavy && R.chance(0.3) ? 'big' : 'small')) }); break
    case 'tool-result': Object.assign(m, toolMessageRows(R)); break
    case 'summary': Object.assign(m, { role: 'user', text: summaryRow(R, L, ref).text, toolUses: [] }); break
    case 'odd':
      Object.assign(m, R.pick([
        () => ({ text: text(R, 40) }), // role missing
        () => ({ role: 'assistant', toolUses: [toolUse(R)] }), // text missing
        () => ({ role: 'user', text: undefined, toolUses: undefined }),
        () => ({ role: 'assistant', text: null, toolUses: null }),
        () => ({ role: 'user', text: '', toolUses: [toolUse(R)], toolResults: [{ tool_use_id: 'x', text: 'r', isError: false }] }),
        () => ({ role: 'user', text: '  ', toolUses: [], toolResults: [] }),
        () => ({ role: 'user', text: '', toolResults: null }),
        () => ({}),
        () => ({ role: 'assistant', text: 'x', toolUses: [{}] }),
        () => ({ role: 'assistant', text: '', toolUses: [{ tool: 'Bash', input: { command: 'ls' }, text: '' }] }),
      ])())
  }
  return handle(R, m)
}

function casesRenderHistory(R, L, ref) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  for (let i = 0; i < 520; i++) {
    const n = R.weighted([[8, () => R.int(0, 12)], [1.5, () => R.int(13, 40)], [0.3, () => R.int(100, 300)]])()
    const scale = n > 40 ? 'tiny' : n <= 12 && R.chance(0.2) ? 'heavy' : 'normal'
    const msgs = Array.from({ length: n }, () => historyMessage(R, L, ref, scale))
    add(n > 40 ? 'history/many' : `history/${scale}`, msgs, meta(R))
  }
  // Tool results and inputs at their caps and beside them, with clusters at the cut.
  for (const len of [11999, 12000, 12001]) {
    for (const flavor of ['ascii', 'dense', 'crlf']) {
      add(`result-at-cap/${flavor}`, [{ role: 'assistant', text: 'run', toolUses: [{ tool_use_id: 't', tool: 'Bash', input: { command: 'make' }, text: exactText(R, len, flavor) }] }], meta(R))
    }
  }
  for (let i = 0; i < 30; i++) {
    const input = { command: text(R, R.int(1900, 2100), R.pick(['dense', 'astral', 'mixed'])), 1: 'one', a: [1, 2, { 0: 'zero', z: null }] }
    add('input-near-cap', [{ role: 'assistant', text: '', toolUses: [{ tool_use_id: 't', tool: 'Bash', input }] }], meta(R))
  }
  for (let i = 0; i < 6; i++) add('large', [historyMessage(R, L, ref, 'heavy'), { role: 'assistant', text: 'x', toolUses: [{ tool: 'Read', input: { file_path: '/a' }, text: text(R, R.int(20000, 60000)) }] }], meta(R))
  add('huge', [{ role: 'user', text: 'go' }, { role: 'assistant', text: '', toolUses: [{ tool: 'Read', input: { file_path: '/big' }, text: text(R, 200000) }, { tool: 'Write', input: { file_path: '/big', content: text(R, 150000) } }] }], meta(R))
  add('empty', [], meta(R))
  // The reference throws on these; the port skips the bad row but keeps the numbering.
  add('throws/null-message', [{ role: 'user', text: 'a' }, null, { role: 'assistant', text: 'b' }], meta(R))
  add('odd/number-message', [3, { role: 'user', text: 'a' }], meta(R))
  add('throws/null-tool-use', [{ role: 'assistant', text: 'a', toolUses: [null, { tool: 'Bash', input: {} }] }], meta(R))
  add('throws/number-text', [{ role: 'user', text: 5 }, { role: 'assistant', text: 'b' }], meta(R))
  add('throws/object-tool-uses', [{ role: 'assistant', text: 'a', toolUses: { 0: { tool: 'x' } } }], meta(R))
  return out
}

function casesStrip(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const comment = () => R.weighted([
    [5, () => `<!-- ${text(R, R.size(0, 200), R.pick(['ascii', 'mixed', 'crlf']))} -->`],
    [1, () => '<!---->'],
    [1, () => '<!-->'],
    [1, () => `<!-- a <!-- b --> c -->`],
    [1, () => `<!--\n${text(R, 50)}\n`], // unterminated
    [1, () => '-->'],
    [0.5, () => '<!-- \r\n -->'],
  ])()
  const body = () => {
    const parts = [text(R, R.size(0, 1500), R.pick(['ascii', 'mixed', 'crlf', 'bmp']))]
    for (let k = R.weighted([[3, 0], [3, 1], [1, R.int(2, 6)]]); k > 0; k--) parts.splice(R.int(0, parts.length), 0, comment())
    return parts.join(R.pick(['', '\n', '\r\n', ' ']))
  }
  const yaml = () => `name: ${text(R, 10, 'ascii')}\ndescription: ${text(R, 30, 'bmp')}\npaths:\n  - "src/**"`
  const front = () => R.weighted([
    [4, () => ''],
    [4, () => `---\n${yaml()}\n---\n`],
    [2, () => `---\r\n${yaml().replace(/\n/g, '\r\n')}\r\n---\r\n`],
    [1, () => `---\n${yaml()}\n`], // unclosed
    [1, () => '---\n---\n'],
    [1, () => '---\n\n---\n'],
    [1, () => `---\n${yaml()}\n----\n`],
    [1, () => `---\n${yaml()}\n---trailing\n`],
    [1, () => `--- \n${yaml()}\n---\n`],
    [1, () => `\ufeff---\n${yaml()}\n---\n`],
    [1, () => `\n---\n${yaml()}\n---\n`],
    [0.5, () => `---\r${yaml()}\r---\r`],
  ])()
  for (let i = 0; i < 520; i++) add('file', front() + body())
  for (const raw of ['', '---', '---\n', '---\n---', '---\nkey: v\n---', '---\nkey: v\n---\n', '---\nkey\n---\nbody\n---\nmore', '<!--', '<!-- -->', '\r\n', '\r\r\n\n', '---\r\n---\r\n', '---\n\n---', 'a\r\nb\rc\n']) add('edge', raw)
  for (let i = 0; i < 8; i++) add('large', front() + text(R, R.int(20000, 60000)) + comment())
  add('huge', `---\n${yaml()}\n---\n` + text(R, 200000, 'crlf') + '<!-- end -->')
  return out
}

function casesSame(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const lines = () => text(R, R.size(0, 1500), R.pick(['ascii', 'mixed', 'bmp'])).replace(/\r\n?/g, '\n')
  const sameish = (s) => {
    let t = s
    if (R.chance(0.5)) t = t.replace(/\n/g, '\r\n')
    if (R.chance(0.5)) t = t.split('\n').map((l) => l + (R.chance(0.4) ? R.pick(JS_WS.filter((w) => !w.includes('\n'))) : '')).join('\n')
    if (R.chance(0.4)) t = R.pick(['\n', '\n\n', ' \n', '\ufeff']) + t + R.pick(['\n', '\n\n  \n', '\u3000'])
    return t
  }
  const different = (s) => R.weighted([
    [2, () => s + R.pick(NOT_JS_WS)],
    [1, () => s.replace(/\n/, '\n ')],
    [1, () => ' ' + s.replace(/^\s+/, '') + '\nx'],
    [1, () => s.replace(/\n/, '\r')],
    [1, () => s.replace(/\n/g, '\r\r\n')],
    [1, () => s + '.'],
  ])()
  for (let i = 0; i < 230; i++) {
    const a = lines()
    add('same', a, sameish(a))
  }
  for (let i = 0; i < 180; i++) {
    const a = lines()
    add('different', a, different(sameish(a)))
  }
  for (let i = 0; i < 80; i++) add('unrelated', lines(), lines())
  for (const w of [...WS, ...NOT_JS_WS]) add('ws', w, '')
  add('empty', '', '')
  add('lone-cr', 'a\r', 'a')
  add('lone-cr-middle', 'a\rb', 'a\nb')
  for (let i = 0; i < 6; i++) {
    const a = text(R, R.int(20000, 60000), 'crlf')
    add('large', a, R.chance(0.5) ? sameish(a.replace(/\r\n?/g, '\n')) : a + 'x')
  }
  const huge = text(R, 200000, 'mixed').replace(/\r\n?/g, '\n')
  add('huge', huge, huge.replace(/\n/g, ' \r\n'))
  return out
}

function casesStamp(R) {
  const out = []
  const add = (tag, ...args) => out.push({ tag, args })
  const MAX = 8.64e15
  const edges = [
    0, -0, 1, -1, 0.5, -0.5, 0.9999, -0.9999, 999.9999, -999.5, 1.5, MAX, -MAX, MAX - 1, -MAX + 1, MAX - 0.5,
    253402300799999, 253402300800000, 253402300799999.9, -62167219200000, -62167219200001, -62135596800000,
    -62198755200000, 946684800000, 951782400000, 1709208000000, 4102444800000, 1e12, 1e15, -1e15,
    Number.MAX_SAFE_INTEGER, Number.MIN_VALUE, -Number.MIN_VALUE, 86399999, 86400000, -86400001,
  ]
  for (const ms of edges) add(Math.abs(ms) > MAX ? 'throws/range' : 'edge', ms)
  add('null', null)
  for (let i = 0; i < 320; i++) add('random/int', Math.round((R.float() * 2 - 1) * MAX))
  for (let i = 0; i < 150; i++) add('random/fraction', (R.float() * 2 - 1) * 10 ** R.int(0, 15))
  for (let i = 0; i < 150; i++) add('random/near-now', R.int(0, 4102444800000) + R.pick([0, 0.25, 0.999]))
  for (let i = 0; i < 80; i++) add('random/year-10000+', R.int(253402300800000, MAX))
  // The reference throws RangeError("Invalid time value") on these.
  for (const ms of [NaN, Infinity, -Infinity, MAX + 1, -MAX - 1, 1e300, -1e300, Number.MAX_VALUE, undefined]) add('throws/invalid', ms)
  add('throws/no-argument')
  return out
}

// ---------------------------------------------------------------------------------------------

function run(lib, fn, args) {
  try {
    return { out: lib[fn](...args) }
  } catch (e) {
    return { throws: String(e) }
  }
}

function checkInputs(v) {
  if (typeof v === 'string' && !v.isWellFormed()) throw new Error('generated a lone surrogate')
  if (Array.isArray(v)) v.forEach(checkInputs)
  else if (v && typeof v === 'object') Object.values(v).forEach(checkInputs)
}

async function main() {
  const argv = process.argv.slice(2)
  const emitAt = argv[0] === '--emit' ? resolve(argv[1] ?? '') : null
  if (argv.length && (!emitAt || !argv[1])) throw new Error('usage: node scripts/golden.mjs [--emit DIR]')

  const src = extractLib(readFileSync(seedFile(), 'utf8'))
  const dir = emitAt ?? mkdtempSync(join(tmpdir(), 'compact-plus-golden-'))
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'reference.mjs'), src)
  writeFileSync(join(dir, 'adjusted.mjs'), adjustedSource(src))
  let ref, adj
  try {
    ref = await import(pathToFileURL(join(dir, 'reference.mjs')).href)
    adj = await import(pathToFileURL(join(dir, 'adjusted.mjs')).href)
  } finally {
    if (!emitAt) rmSync(dir, { recursive: true, force: true })
  }
  for (const name of [...FUNCTIONS, ...CONSTANTS]) if (!(name in ref)) throw new Error(`lib.js has no export ${name}`)

  const L = makeLib(ref)
  const builders = {
    cutMiddle: (R) => casesCutMiddle(R),
    personText: (R) => casesPersonText(R),
    carriedMessages: (R) => casesCarried(R, L, ref),
    selectVerbatim: (R) => casesSelect(R, L, ref),
    renderVerbatim: (R) => casesRenderVerbatim(R, L, ref),
    pointerText: (R) => casesPointer(R),
    handoffInstructions: (R) => casesHandoff(R),
    joinInstructions: (R) => casesJoin(R),
    renderHistory: (R) => casesRenderHistory(R, L, ref),
    stripInstructionText: (R) => casesStrip(R),
    sameText: (R) => casesSame(R),
    stamp: (R) => casesStamp(R),
  }

  mkdirSync(OUT_DIR, { recursive: true })
  for (const f of readdirSync(OUT_DIR)) if (f.endsWith('.jsonl.gz')) rmSync(join(OUT_DIR, f))

  const write = (name, lines) => {
    const file = join(OUT_DIR, `${name}.jsonl.gz`)
    writeFileSync(file, gzipSync(lines.join('\n') + '\n', { level: 9 }))
    return statSync(file).size
  }

  const rows = []
  let total = 0, totalBytes = 0
  const constLines = CONSTANTS.map((name) => JSON.stringify({ fn: name, tag: 'constant', args: null, out: enc(ref[name]) }))
  totalBytes += write('constants', constLines)
  total += constLines.length
  rows.push(['constants', constLines.length, 0, 0])

  FUNCTIONS.forEach((fn, index) => {
    const R = rng(SEED + index * 7919)
    const cases = builders[fn](R)
    const lines = []
    let adjusted = 0, throws = 0
    for (const { tag, args } of cases) {
      checkInputs(args)
      const r = run(ref, fn, args)
      const v = { fn, tag, args: enc(args) }
      if ('throws' in r) {
        if (!tag.startsWith('throws/')) throw new Error(`${fn} ${tag}: the reference threw unexpectedly: ${r.throws}`)
        v.out = { throws: r.throws }
        throws++
      } else {
        if (tag.startsWith('throws/')) throw new Error(`${fn} ${tag}: the reference did not throw`)
        v.out = encOut(r.out)
        if (CUTTING.has(fn)) {
          const a = run(adj, fn, args)
          if ('throws' in a) throw new Error(`${fn} ${tag}: the adjusted model threw: ${a.throws}`)
          const adjEnc = encOut(a.out)
          if (JSON.stringify(adjEnc) !== JSON.stringify(v.out)) {
            v.adj = adjEnc
            adjusted++
          }
        }
      }
      lines.push(JSON.stringify(v))
    }
    const bytes = write(fn, lines)
    totalBytes += bytes
    total += lines.length
    rows.push([fn, lines.length, adjusted, throws, bytes])
  })

  const w = Math.max(...rows.map((r) => r[0].length))
  console.log(`${'function'.padEnd(w)}  vectors  adjusted  throws  gzip bytes`)
  for (const [name, n, a, t, b] of rows) console.log(`${name.padEnd(w)}  ${String(n).padStart(7)}  ${String(a).padStart(8)}  ${String(t).padStart(6)}  ${String(b ?? '').padStart(10)}`)
  console.log(`total ${total} vectors, ${(totalBytes / 1e6).toFixed(2)} MB gzipped in ${OUT_DIR}`)
  if (emitAt) console.log(`emitted ${join(emitAt, 'reference.mjs')} and ${join(emitAt, 'adjusted.mjs')}`)
}

await main()
