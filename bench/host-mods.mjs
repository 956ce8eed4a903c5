// The probe mods the host-cost benchmarks load beside compact-plus, built at run time into a temp
// folder: what the engine charges for hosting a hooks module at all, for each event hooked, for the
// JavaScript a module imports and for compiling a .wasm, with none of compact-plus's own work.
// bench/host-cost.mjs (headless), bench/first-prompt.mjs (the terminal) and bench/compact-wait.mjs
// (a /compact on real sessions) share them; tests/HOST.md "Start-up" has what they measured.
//
//   const dir = buildProbe('empty', into)     // a plugin folder (.claude-plugin/plugin.json, mod.json, js/)
//   PROBES                                    // the names, each with what it is
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

// compact-plus's registrations (js/compact-plus.js `register`), each passing its event on.
const EVENTS = {
  'session.compact': `on('session.compact', pass).catch(($, e, next) => next(e))`,
  'session.append': `on('session.append', { door: 'compaction' }, pass).catch(($, e, next) => next(e))`,
  'prompt.context': `on('prompt.context', pass).catch(($, e, next) => next(e))`,
  'turn.complete': `on('turn.complete', pass).catch(($, e, next) => next(e))`,
  'session.end': `on('session.end', pass).catch(($, e, next) => next(e))`,
  'tool.list': `on('tool.list', pass).catch(($, e, next) => next(e))`,
  'tool.call': `on('tool.call', { tool: 'compact_plus_recall' }, pass).catch(() => ({ result: 'recall: off' }))`,
  'command.run': `on('command.run', pass).catch(($, e, next) => next(e))`,
  'session.append:command': `on('session.append', { door: 'command' }, pass).catch(($, e, next) => next(e))`,
}
const ALL = Object.keys(EVENTS)

// A module: `pre` above the hooks (imports), `body` inside register, the events it hooks. `never`
// keeps an import referenced without calling it (the host refuses `on` used as a value).
const module = (events, { pre = '', top = '', body = '', list = 'pass' } = {}) =>
  `${pre}let never = false\nlet compiled = null\nfunction pass($, e, next) {\n  return next(e)\n}\n${top}export function register(on) {\n${body}${events
    .map((e) => '  ' + (e === 'tool.list' ? EVENTS[e].replace('pass)', `${list})`) : EVENTS[e]))
    .join('\n')}\n}\n`

const coreImport = `import { start as coreStart } from '../pkg/compact_plus.js'\n`
const recallImport = `import { start as recallStart } from '../pkg/recall/compact_plus_recall.js'\n`
// The core's .wasm compiled at the first tool.list, as the shim does (js/compact-plus.js startCompile).
const compileTop = `function list($, e, next) {\n  compiled ??= $.wasm.compile('../pkg/compact_plus_bg.wasm').catch(() => null)\n  return next(e)\n}\n`

// Plain code without a `$` call: ~25 KB of small functions, to tell code from comments.
function plainCode() {
  let code = ''
  for (let i = 0; code.length < 25000; i++) {
    code += `function f${i}(a, b) {\n  let x = a + b * ${i}\n  if (x > ${i}) return [x, a.slice(${i % 7}), b?.length ?? 0]\n  for (let k = 0; k < a.length; k++) x += a.charCodeAt(k)\n  return { x, y: String(b) }\n}\n`
  }
  return code
}
const comments = () => ('// ' + 'lorem ipsum dolor sit amet consectetur '.repeat(2) + '\n').repeat(310)

/** name → [what it is, files (relative path → text or a repo file to copy as { from })] */
export const PROBES = {
  empty: ['a hooks module that hooks nothing', () => ({ 'js/m.js': 'export function register(on) {}\n' })],
  ...Object.fromEntries(ALL.map((e) => [`only:${e}`, [`${e} alone, passed on`, () => ({ 'js/m.js': module([e]) })]])),
  'pass-through': ["compact-plus's nine registrations, each passing its event on", () => ({ 'js/m.js': module(ALL) })],
  '+core-glue': ['pass-through, importing the core\'s wasm-bindgen glue (nothing called)', () => ({ 'js/m.js': module(ALL, { pre: coreImport, body: '  if (never) coreStart()\n' }), ...glue() })],
  '+recall-glue': ['pass-through, importing the recall module\'s glue (nothing called)', () => ({ 'js/m.js': module(ALL, { pre: recallImport, body: '  if (never) recallStart()\n' }), ...glue() })],
  '+both-glue': ['pass-through, importing both glue files (nothing called)', () => ({ 'js/m.js': module(ALL, { pre: coreImport + recallImport, body: '  if (never) { coreStart(); recallStart() }\n' }), ...glue() })],
  '+compile': ["pass-through, compiling the core's .wasm at the first tool.list", () => ({ 'js/m.js': module(ALL, { top: compileTop, list: 'list' }), ...wasm() })],
  '+both-glue+compile': ['both glue files imported and the .wasm compiled: all of compact-plus but the shim', () => ({ 'js/m.js': module(ALL, { pre: coreImport + recallImport, top: compileTop, list: 'list', body: '  if (never) { coreStart(); recallStart() }\n' }), ...glue(), ...wasm() })],
  '+comments-25k': ['pass-through with 25 KB of comments', () => ({ 'js/m.js': comments() + module(ALL) })],
  '+code-25k': ['pass-through with 25 KB of plain code (small functions, no $ call)', () => ({ 'js/m.js': module(ALL, { top: plainCode() }) })],
}

const glue = () => ({ 'pkg/compact_plus.js': { from: 'pkg/compact_plus.js' }, 'pkg/recall/compact_plus_recall.js': { from: 'pkg/recall/compact_plus_recall.js' } })
const wasm = () => ({ 'pkg/compact_plus_bg.wasm': { from: 'pkg/compact_plus_bg.wasm' } })

/** Writes probe `name` as a plugin folder under `into`, from the `pkg/` of `tree` (default this repo). */
export function buildProbe(name, into, tree = REPO) {
  const [what, files] = PROBES[name] ?? []
  if (!files) throw new Error(`no probe ${name} (${Object.keys(PROBES).join(', ')})`)
  const dir = path.join(into, name.replace(/[^a-z0-9.+-]/gi, '_'))
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(path.join(dir, '.claude-plugin'), { recursive: true })
  const plugin = `probe-${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}`
  fs.writeFileSync(path.join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: plugin, version: '0.0.1', description: `bench/host-mods.mjs: ${what}`, hooks: './mod.json' }, null, 2))
  fs.writeFileSync(path.join(dir, 'mod.json'), JSON.stringify({ modules: ['./js/m.js'] }))
  for (const [rel, text] of Object.entries(files())) {
    const to = path.join(dir, rel)
    fs.mkdirSync(path.dirname(to), { recursive: true })
    if (typeof text === 'string') fs.writeFileSync(to, text)
    else fs.copyFileSync(path.join(tree, text.from), to)
  }
  return dir
}
