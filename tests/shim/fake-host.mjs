// A fake Claude Code host for the shim (js/compact-plus.js): the `$` it calls, the `on` it
// registers with, and the engine that raises its hooks, as the real CLI 2.1.328 was measured to
// behave. Each behaviour below names where it was measured:
//
//   [kit]    /work/shared/e2e-kit/tui/README.md ("Engine behaviours in the TUI that differ from
//            headless", "What makes it run offline")
//   [api]    /work/shared/notes/mods-api.md (sections C, D; VERIFIED rows)
//   [probe]  /work/shared/notes/host-probe.md (section 5: event shapes and results)
//   [d8]     tests/HOST.md (the probes of issue [8], terminal and headless)
//   [dts]    /tmp/bunfs/claude-code.d.ts-09a2d7e5.txt (the engine's declarations)
//   [i8]     issue [8] (`issues show 13`), item 6, for what a Windows host answers
//   [d16]    tests/HOST.md, "The person's commands and lines" (issue [16]'s probes, terminal and
//            headless: command.register, command.run, the command rows, ui.log, session.messages)
//
// The fake does not guess where the host was not measured; where it has to choose (an error's
// wording, say), the comment says so. It is shared by tests/shim/*.test.mjs and bench/memory.mjs.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { resolve, relative, isAbsolute } from 'node:path'

export const NOW = Date.UTC(2026, 10, 29, 10, 30, 0)
export const SESSION_ID = '3e771ee8-7a5c-472f-8c77-3dfd1e6415f3'
export const OTHER_SESSION = '9b2f6c1e-0d4a-4e8b-a1f3-5c7d9e0b2a46'
const DAY_MS = 86_400_000

/** The plugin's own folder, and js/, which `$.wasm.compile` paths are relative to [api B]. */
export const PLUGIN_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SHIM_DIR = resolve(PLUGIN_ROOT, 'js')

// The shim's wasm, compiled once per process with Node's WebAssembly: `$.wasm.compile` is
// `new WebAssembly.Module` done by the host [api B], so every fake hands the same module.
const modules = new Map()
function compileFile(path) {
  if (!modules.has(path)) modules.set(path, WebAssembly.compile(readFileSync(path)))
  return modules.get(path)
}

/** The core's module, as `$.wasm.compile('../pkg/compact_plus_bg.wasm')` answers it. */
export const coreModule = () => compileFile(resolve(PLUGIN_ROOT, 'pkg/compact_plus_bg.wasm'))

/**
 * The engine's threshold with CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000: effective window 80,000,
 * auto-compact threshold 67,000 tokens [kit "What makes it run offline"]. 63,000 is 94 % of it.
 */
export const WINDOW = 100_000
export const EFFECTIVE_WINDOW = 80_000
export const THRESHOLD = 67_000
export const NEAR = 63_000

/** The summary text the engine stores, as it begins [probe §2]. */
export const SUMMARY_HEAD = 'This session is being continued from a previous conversation that ran out of context.'

/** Headless `$.session.compact()` rejects with this [kit item 2]. */
export const HEADLESS_COMPACT_ERROR =
  '$.session.compact: not available in a headless (-p / SDK) session yet: compaction here runs inside a turn (a /compact prompt); catch it and carry on'

/** Block names the engine routes itself; any other name reaches the model in one copy [dts PromptContextResult, d8]. */
const ROUTED_BLOCKS = new Set(['claudeMd', 'currentDate'])

/** A macrotask: a `$` answer or `next` crosses the worker's MessagePort [api B, probe §3 "worker hop"]. */
export const hop = () => new Promise((r) => setImmediate(r))

function deepFreeze(v) {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const k of Object.keys(v)) deepFreeze(v[k])
  }
  return v
}

/** Values cross `$` and `next` by structured clone; a function is refused [api B "Plain data", VERIFIED]. */
function plain(v, what) {
  try {
    return structuredClone(v)
  } catch (err) {
    throw new Error(`${what} is not plain data: ${err.message}`)
  }
}

let uuidN = 0
export const uuid = () => {
  const n = (++uuidN).toString(16).padStart(12, '0')
  return `00000000-0000-4000-8000-${n}`
}

/** A gate a test holds shut and opens: `$` answers and `next`s wait on it. */
export function gate() {
  let open
  const p = new Promise((r) => (open = r))
  return { wait: () => p, open: (v) => open(v) }
}

/**
 * The fake host. `mode`: 'tui' (the interactive terminal) or 'headless' (`-p`, stream-json);
 * `os`: 'linux' or 'windows'; `compile`: 'file' (the real pkg/ wasm), 'never' (a compile that
 * never settles), or a function (path) => Promise<WebAssembly.Module>.
 */
export class FakeHost {
  constructor({ mode = 'tui', os = 'linux', env, compile = 'file', messages, onCall } = {}) {
    this.mode = mode
    this.os = os
    this.now = NOW
    this.timers = [] // { at, fn, cancelled }
    this.env =
      env ?? (os === 'windows' ? { OS: 'Windows_NT', USERPROFILE: 'C:\\Users\\u' } : { HOME: '/home/u' })
    this.sessionId = SESSION_ID
    this.cwd = '/work/app'
    this.files = new Map() // key → { path, text, mtimeMs }
    this.calls = [] // every `$` call: { op, args }
    this.debug = [] // `$.ui.log(text, { to: 'debug' })` lines
    this.faults = [] // { op, when(args), answer: { value } | { reject } | { hold: gate } }
    this.hooks = [] // what `register(on, options)` registered
    this.nexts = [] // every `next` call a hook made: { event, down }
    this.outcomes = [] // every dispatch through our hook: what `fire` answered
    this.requests = [] // what reached the model: summarizer requests and normal requests
    this.conversation = messages ? [...messages] : defaultMessages()
    this.rows = [] // the transcript rows stored since the last compaction
    this.contextSections = null // the unrouted prompt.context blocks the conversation holds
    this.contextTokens = undefined // usage `context.tokens`: absent until a response [api D]
    this.inFlight = 0 // engine dispatches under way
    this.pendingOps = 0 // `$` calls not yet answered (held ones excepted)
    this.queue = [] // commands `$.command.run` queued, run once the session is idle [dts, kit item 2]
    this.queuePaused = false
    this.running = null
    this.compactions = 0
    this.summarizer = { hold: null, reject: null, keep: 0 }
    // `$.model.complete`'s answers, in turn; past them an API error, as a completion the API
    // refused resolves: it never rejects for what the provider did [dts ModelCompleteResult].
    this.completions = []
    this.compile = compile
    this.onCall = onCall
    this.commands = [] // `$.command.register` specs, by name [d16]
    this.sinceAnswer = [] // command rows stored since the model's last answer: they follow a summary [d16]
    this.transcript = [] // `$.ui.log` lines to the transcript: { text, hooksInFlight } [d16]
    this.on = this.#on.bind(this)
    this.$ = this.#dollar()
  }

  // ---- the registrar: `register(on, options)` calls it [api C.6, dts On] ----

  #on(event, ...rest) {
    const fn = rest[rest.length - 1]
    const matcher = rest.length > 1 ? rest[0] : null
    const reg = { event, matcher, fn, catch: null }
    this.hooks.push(reg)
    // One `.catch(handler)` per registration [api C.6].
    return {
      catch: (handler) => {
        if (reg.catch) throw new Error('a second .catch on one registration')
        reg.catch = handler
      },
    }
  }

  /** The registration that hears `event` with `e`, matchers checked as the engine does. */
  registration(event, e) {
    return this.hooks.find((h) => h.event === event && (!h.matcher || Object.entries(h.matcher).every(([k, v]) => e?.[k] === v)))
  }

  // ---- the fake clock: `$.clock.now` and `$.clock.after` [api D: after → Timer {cancel}] ----

  /**
   * The engine's `tool.list` raise: at load, before the first request, once the hooks modules
   * are loaded, and again when the tools or settings change (d.ts `ToolInfo`; tests/HOST.md).
   * `next` resolves `{ value: ToolInfo[] }` (measured: the probe's hook read 25 tools headless, 28
   * in the terminal); the hooks' answer is the session's tool pool. Returns the dispatch.
   */
  tools(engineTools = ENGINE_TOOLS) {
    return this.fire('tool.list', {}, () => ({ value: engineTools.map((t) => ({ ...t })) }))
  }

  /** Moves the clock on by `ms`, firing each timer due, in order, then lets the shim settle. */
  async advance(ms) {
    const until = this.now + ms
    for (;;) {
      const due = this.timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0]
      if (!due) break
      this.now = due.at
      due.cancelled = true
      due.fn()
      await this.settle()
    }
    this.now = until
    await this.settle()
  }

  /** Timers set and not cancelled nor fired. */
  liveTimers() {
    return this.timers.filter((t) => !t.cancelled)
  }

  /**
   * Waits until nothing moves: no `$` answer, `next` or queued command on its way (what a test
   * holds excepted). A job the shim left running moves through its `$` calls, so it counts too.
   */
  async settle() {
    for (let quiet = 0, rounds = 0; quiet < 4; rounds++) {
      if (rounds > 100000) throw new Error('the fake host never settled')
      await hop()
      // A timer already due (`$.clock.after(0, …)`) fires on the host's next turn, with no time
      // passing [dts clock.after]; later ones wait for `advance`.
      const due = this.timers.find((t) => !t.cancelled && t.at <= this.now)
      if (due) {
        due.cancelled = true
        due.fn()
        quiet = 0
      } else if (this.pendingOps === 0) quiet++
      else quiet = 0
    }
  }

  /** A worker hop the settling counts. */
  async hop() {
    this.pendingOps++
    try {
      await hop()
    } finally {
      this.pendingOps--
    }
  }

  // ---- faults a test injects into `$` calls ----

  /** The next `$` call of `op` (matching `when`) answers `answer` instead: `{value}`, `{reject}` or `{hold}`. */
  fault(op, answer, when = () => true, times = 1) {
    this.faults.push({ op, answer, when, times })
  }

  /** Holds every matching call of `op` until the returned gate opens. */
  hold(op, when = () => true) {
    const g = gate()
    this.fault(op, { hold: g }, when, Infinity)
    return g
  }

  callsOf(op) {
    return this.calls.filter((c) => c.op === op)
  }

  debugLines(pattern) {
    return this.debug.filter((l) => (pattern ? (typeof pattern === 'string' ? l.includes(pattern) : pattern.test(l)) : true))
  }

  // ---- the file system, in memory ----

  #key(path) {
    const p = String(path)
    if (this.os === 'windows') return p.replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase()
    return p.replace(/\/+$/, '') || '/'
  }

  /**
   * How the host spells a resolved path: as the file system has it (on Windows, names compare
   * without case, and the disk's own spelling comes back), with `\` on Windows [i8].
   */
  #real(path) {
    let p = String(path).replace(/[\\/]+$/, '')
    if (this.os === 'windows') {
      const k = this.#key(p)
      for (const [key, f] of this.files) {
        if (key === k || key.startsWith(k + '/')) {
          p = f.path.replace(/\\/g, '/').slice(0, k.length)
          break
        }
      }
      return p.replace(/\//g, '\\')
    }
    return p
  }

  addFile(path, text, mtimeMs = this.now) {
    this.files.set(this.#key(path), { path, text, mtimeMs })
  }

  file(path) {
    return this.files.get(this.#key(path))?.text
  }

  /** Files under `dir` (any depth), as their stored paths. */
  filesUnder(dir) {
    const k = this.#key(dir) + '/'
    return [...this.files.entries()].filter(([key]) => key.startsWith(k)).map(([, f]) => f.path)
  }

  #isDir(path) {
    const k = this.#key(path) + '/'
    for (const key of this.files.keys()) if (key.startsWith(k)) return true
    return false
  }

  #fsRead(path, options) {
    const f = this.files.get(this.#key(path))
    // The host's wording of a missing file was not measured; it rejects [api D].
    if (!f) throw new Error(`ENOENT: no such file or directory, open '${path}'`)
    // With `offset` or `length`, that byte range alone, `length` up to 4 MiB; a
    // text range that cuts a character gives U+FFFD at that edge [dts fs.read].
    if (options && (options.offset !== undefined || options.length !== undefined)) {
      const offset = options.offset ?? 0
      const length = options.length ?? 4 * 1024 * 1024
      if (length > 4 * 1024 * 1024) throw new Error('length is over 4 MiB')
      return Buffer.from(f.text, 'utf8').subarray(offset, offset + length).toString('utf8')
    }
    // `$.fs.read` rejects over 4 MiB [api B limits].
    if (Buffer.byteLength(f.text, 'utf8') > 4 * 1024 * 1024) throw new Error(`${path} is over the 4 MiB read limit`)
    return f.text
  }

  #fsWrite(path, text) {
    if (typeof text !== 'string') throw new Error('$.fs.write takes text')
    const bytes = Buffer.byteLength(text, 'utf8')
    // "<n> bytes is over the 4194304-byte limit" [api B limits, bin X8t=4194304].
    if (bytes > 4194304) throw new Error(`${bytes} bytes is over the 4194304-byte limit`)
    this.addFile(path, text)
    return undefined
  }

  #fsList(path) {
    // FsEntry rows [api D, dts]; the wording of a missing folder's rejection was not measured.
    if (!this.#isDir(path)) throw new Error(`ENOENT: no such file or directory, scandir '${path}'`)
    const k = this.#key(path) + '/'
    const seen = new Map()
    for (const [key, f] of this.files) {
      if (!key.startsWith(k)) continue
      const rest = f.path.replace(/\\/g, '/').slice(k.length)
      const name = rest.split('/')[0]
      const isFile = !rest.includes('/')
      if (!seen.has(name)) seen.set(name, { name, kind: isFile ? 'file' : 'dir', size: isFile ? Buffer.byteLength(f.text) : 0, mtimeMs: isFile ? f.mtimeMs : 0, isLink: false })
    }
    return [...seen.values()] // mtimeMs 0 for non-files [api D]
  }

  #fsStat(path, opts) {
    const f = this.files.get(this.#key(path))
    const dir = !f && this.#isDir(path)
    if (!f && !dir) throw new Error(`ENOENT: no such file or directory, stat '${path}'`)
    const stat = f
      ? { kind: 'file', size: Buffer.byteLength(f.text), mtimeMs: f.mtimeMs, isLink: false }
      : { kind: 'dir', size: 0, mtimeMs: this.now, isLink: false }
    // `realPath` only when asked with `{ resolve: true }` [dts FsStat]; `\` on Windows [i8].
    if (opts?.resolve) stat.realPath = this.#real(path)
    return stat
  }

  // `rm -rf -- <path>`; on Windows PowerShell running .NET's `Directory.Delete` of the path in
  // `COMPACT_PLUS_PRUNE_PATH` (src/prune.rs; the variable is set over the host's environment,
  // d.ts `ProcessRunInit.env`). Not measured on a Windows host: none is at hand here.
  #run(argv, init) {
    const rm = argv[0] === 'rm' && argv[1] === '-rf' && argv[2] === '--' ? argv[3] : null
    const deletes = argv[0] === 'powershell.exe' && String(argv.at(-1)).startsWith('[System.IO.Directory]::Delete($env:COMPACT_PLUS_PRUNE_PATH, $true)')
    const ps = deletes ? init?.env?.COMPACT_PLUS_PRUNE_PATH ?? null : null
    const target = (this.os === 'windows' ? ps : rm) ?? null
    if (target) for (const p of this.filesUnder(target)) this.files.delete(this.#key(p))
    return { exitCode: target ? 0 : 1, stdout: '', stderr: target ? '' : `${argv[0]}: not found`, isStdoutTruncated: false, isStderrTruncated: false }
  }

  // ---- `$` ----

  /** One `$` call: recorded, answered after a worker hop (or as a fault says), plain data only. */
  async #op(op, args, answer) {
    this.calls.push({ op, args })
    this.onCall?.(op, args)
    const fault = this.faults.find((f) => f.op === op && f.times > 0 && f.when(...args))
    if (fault) fault.times--
    if (fault?.answer.hold) {
      await fault.answer.hold.wait()
    } else {
      await this.hop()
    }
    if (fault?.answer.reject) throw fault.answer.reject
    if (fault && 'value' in fault.answer) return fault.answer.value
    return plain(answer(), `$.${op} returned a value that`)
  }

  #dollar() {
    const host = this
    const op = (name, answer) => (...args) => host.#op(name, args, () => answer(...args))
    return {
      env: { get: op('env.get', (name) => host.env[name]) },
      session: {
        id: op('session.id', () => host.sessionId),
        // The directory the session runs in, absolute [dts session.cwd].
        cwd: op('session.cwd', () => host.cwd),
        usage: op('session.usage', (args) => host.usage(args)),
        // The newest `last` rows, `{ role, text, toolUses }`; `[]` before a new session's first
        // prompt, the rows of a resumed one [dts session.messages, d16].
        messages: op('session.messages', (args) => host.conversation.slice(-(args?.last ?? 4096)).map((m) => ({ role: m.role, text: m.text ?? '', toolUses: [] }))),
        // Never to be called by compact-plus (tests/HOST.md: always `$.command.run`). Terminal: the
        // engine compacts with the calling plugin's own session.compact hook skipped (re-entry);
        // headless: rejects [kit item 2].
        compact: (args) => {
          host.calls.push({ op: 'session.compact', args: [args] })
          if (host.mode === 'headless') return host.hop().then(() => Promise.reject(new Error(HEADLESS_COMPACT_ERROR)))
          // Resolves the SessionCompactResult: `{ messages, tokensBefore, … }` or `{ skip }` [dts].
          return host.hop().then(() => host.compact({ trigger: 'plugin', instructions: args?.instructions, skipOurs: true })).then((o) => plain(o.value, 'the result'))
        },
      },
      clock: {
        now: op('clock.now', () => host.now),
        // Synchronous, answers a Timer {cancel} [dts Timer, api D]; fires on the fake clock.
        after: (ms, fn) => {
          host.calls.push({ op: 'clock.after', args: [ms] })
          const t = { at: host.now + Number(ms), fn, cancelled: false }
          host.timers.push(t)
          return { cancel: () => (t.cancelled = true) }
        },
      },
      fs: {
        exists: op('fs.exists', (p) => host.files.has(host.#key(p)) || host.#isDir(p)),
        read: op('fs.read', (p, o) => host.#fsRead(p, o)),
        write: op('fs.write', (p, text) => host.#fsWrite(p, text)),
        list: op('fs.list', (p) => host.#fsList(p)),
        stat: op('fs.stat', (p, o) => host.#fsStat(p, o)),
      },
      process: { run: op('process.run', (argv, init) => host.#run(argv, init)) },
      model: {
        complete: op('model.complete', () => host.completions.shift() ?? { isAnswered: false, reason: 'api-error', status: 500, error: 'server_error', usage: {} }),
      },
      ui: {
        // Synchronous, returns nothing [dts `log: (text, options?) => void`].
        log: (text, opts) => {
          host.calls.push({ op: 'ui.log', args: [text, opts] })
          if (opts?.to === 'debug') host.debug.push(String(text))
          else host.transcript.push({ text: String(text), hooksInFlight: host.inFlight })
        },
      },
      command: {
        // Listed for the session from the next keystroke; again replaces [dts command.register, d16].
        register: op('command.register', (spec) => {
          host.commands = [...host.commands.filter((c) => c.name !== spec?.name), spec]
          return { command: spec?.name }
        }),
        // Queued and run once the session is idle; a `/compact` reaches our own session.compact
        // as trigger `manual` with `instructions` = args; the promise resolves `{}` only after
        // that compaction finished [d8, kit item 2].
        run: (input) => {
          host.calls.push({ op: 'command.run', args: [input] })
          const fault = host.faults.find((f) => f.op === 'command.run' && f.times > 0 && f.when(input))
          if (fault?.answer.reject) {
            fault.times--
            return host.hop().then(() => Promise.reject(fault.answer.reject))
          }
          return new Promise((resolve, reject) => {
            host.queue.push({ input, resolve, reject })
            host.#kick()
          })
        },
      },
      // Answers `{ tool }`, the full name `mcp__<plugin>__<name>` [dts `tool.register`]. compact-plus
      // no longer calls it (its tool joins through `tool.list`), so a call here is a finding.
      tool: { register: op('tool.register', (spec) => ({ tool: `mcp__compact-plus__${spec?.name}` })) },
      wasm: {
        compile: (path) => {
          host.calls.push({ op: 'wasm.compile', args: [path] })
          if (host.compile === 'never') return new Promise(() => {})
          if (typeof host.compile === 'function') return host.compile(path)
          // A literal path relative to the calling file, inside the plugin's folder [api B, VERIFIED].
          const file = resolve(SHIM_DIR, path)
          const rel = relative(PLUGIN_ROOT, file)
          if (rel.startsWith('..') || isAbsolute(rel) || !file.endsWith('.wasm')) return Promise.reject(new Error(`${path} is not a .wasm file of the plugin's own`))
          host.pendingOps++
          return host.hop().then(() => compileFile(file)).finally(() => host.pendingOps--)
        },
      },
    }
  }

  /** `$.session.usage(args)` [api D, dts SessionUsage]: `context.tokens` absent until a response. */
  usage(args) {
    const tokens = this.contextTokens
    const context = { window: EFFECTIVE_WINDOW }
    if (tokens !== undefined) Object.assign(context, { tokens, percent: Math.round((tokens / EFFECTIVE_WINDOW) * 100) })
    if (args?.breakdown) {
      context.breakdown = {
        isAutoCompactEnabled: true,
        autoCompactThreshold: THRESHOLD,
        totalTokens: tokens ?? 0,
        maxTokens: EFFECTIVE_WINDOW,
        rawMaxTokens: WINDOW,
        autocompactSource: 'env',
        percentage: Math.round(((tokens ?? 0) / EFFECTIVE_WINDOW) * 100),
        categories: [],
        memoryFiles: [],
      }
    }
    return { startedAt: NOW - 60_000, context, rateLimits: [] }
  }

  // ---- the engine: dispatches, as a hook sees them ----

  /**
   * Raises `event` with `e` through our hook, `below` standing for everything beneath (the engine's
   * own result for a `next(down)`). As the engine does [api C, C.6, dts Next]: `e` frozen, `next`
   * carrying `event` and `origin`, its argument cloned (an undefined field is left out, so the
   * event's own value stands [api B VERIFIED]); a hook that throws, rejects or returns nothing has
   * failed, and its `.catch` handler answers in its place with a replay-safe `next` (`called`,
   * `error`). Returns what happened: `value` (the dispatch's result), `hookError` (what the hook
   * itself threw), `nexts` (how often it called next), `below` (what its `next` resolved to),
   * `caught` (its `.catch` handler answered), `failed` (the dispatch failed: what passed up).
   */
  async fire(event, e, below = (down) => down, { origin = { plugin: 'engine', tier: 'core' }, skipOurs = false } = {}) {
    const reg = skipOurs ? null : this.registration(event, e)
    this.inFlight++
    try {
      if (!reg) return { value: await below(e), nexts: 0, hookless: true }
      const frozen = deepFreeze(plain(e, 'the event'))
      const out = { event, e: frozen, origin, nexts: 0 }
      this.outcomes.push(out)
      let settled = null
      const next = (down) => {
        out.nexts++
        this.nexts.push({ event, down })
        if (down === undefined) return Promise.reject(new Error(`next() called with no argument (${event})`))
        let merged
        try {
          const d = plain(down, 'next() argument')
          merged = { ...d }
          for (const [k, v] of Object.entries(d)) if (v === undefined && k in frozen) merged[k] = frozen[k]
        } catch (err) {
          return Promise.reject(err)
        }
        settled = this.hop()
          .then(() => below(deepFreeze(merged)))
          .then((v) => {
            out.below = v // what `next` gave the hook
            return v
          })
        return settled
      }
      Object.defineProperties(next, {
        event: { value: event, enumerable: true },
        origin: { value: Object.freeze({ ...origin }), enumerable: true },
        signal: { value: new AbortController().signal, enumerable: true },
      })
      // The engine cuts a hook at its budget (10 s of its own time, the clock stopped while `$`
      // and `next` calls are in flight [api C.6]); here a hook that never settles fails the test.
      let timer
      const hung = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the ${event} hook never settled`)), 20000)
      })
      try {
        const value = await Promise.race([reg.fn(this.$, frozen, next), hung])
        if (value === undefined) throw new Error(`${event}: the hook returned nothing`)
        out.value = value
      } catch (err) {
        if (err?.message === `the ${event} hook never settled`) throw err
        out.hookError = err
        const called = out.nexts > 0
        const replay = (d) => (called ? settled : next(d))
        Object.defineProperties(replay, {
          event: { value: event },
          called: { value: called },
          error: { value: { kind: 'throw', message: String(err?.message ?? err), budget: 10000 } },
        })
        out.caught = true
        // A `.catch` that rethrows (its replayed `next` rejected) fails the dispatch itself.
        try {
          if (reg.catch) out.value = await reg.catch(this.$, frozen, replay)
          else if (called) out.value = await settled
          else out.value = await below(frozen)
        } catch (failed) {
          out.failed = failed
        }
      } finally {
        clearTimeout(timer)
      }
      return out
    } finally {
      this.inFlight--
      this.#kick()
    }
  }

  /**
   * The engine's summarizer: records the request, answers `{ messages, tokensBefore, tokensAfter,
   * usage }`: the summary alone for a manual compaction, the summary and the last two messages for
   * an automatic one [probe §5].
   */
  async summarize(down) {
    this.requests.push({ kind: 'summarizer', instructions: down.instructions, messages: down.messages.length, down: down.messages })
    if (this.summarizer.hold) await this.summarizer.hold.wait()
    if (this.summarizer.reject) throw this.summarizer.reject
    const keep = down.trigger === 'auto' ? 2 : this.summarizer.keep
    const kept = keep ? down.messages.slice(-keep) : []
    return {
      messages: [{ role: 'user', text: `${SUMMARY_HEAD} The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: FAKE-SUMMARY.`, toolUses: [], handle: uuid() }, ...kept],
      tokensBefore: 60_000,
      tokensAfter: 2_552,
      usage: { input_tokens: 0, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    }
  }

  /**
   * One compaction as the engine runs it: session.compact through our hook; for an `auto` one, the
   * context computed again mid-turn with no plugin block sent from it; then the two rows it stores
   * (compact_boundary, the summary), dispatched at door `compaction` headless and for an `auto`
   * compaction, never for a terminal `/compact` (queued or typed) [kit item 1]. The next request
   * carries the context blocks again [probe §5, d8].
   */
  async compact({ trigger = 'manual', instructions, skipOurs = false } = {}) {
    const e = { trigger, ...(instructions !== undefined ? { instructions } : {}), messages: this.conversation }
    const out = await this.fire('session.compact', e, (down) => this.summarize(down), { skipOurs })
    if (out.value?.skip) return { ...out, skipped: out.value.skip } // "Not compacted · <reason>" [probe §5]
    if (!Array.isArray(out.value?.messages)) return { ...out, notCompacted: true }
    this.compactions++
    this.conversation = [...out.value.messages]
    // The command rows typed since the last answer come after the summary: headless among the kept
    // messages, in the terminal sent after them, outside session.compact's messages [d16].
    this.rows = [...this.sinceAnswer]
    this.contextSections = null
    this.contextTokens = undefined
    const summary = out.value.messages[0]
    // After an automatic compaction the engine computes the context again in the middle of the
    // turn, before it appends the rows, and sends no plugin block from it (measured headless on
    // 2.1.328: tests/HOST.md, and src/hooks/state.rs `Carried::row_only`).
    if (trigger === 'auto') await this.fire('prompt.context', this.engineContext(), (down) => ({ blocks: down.blocks, instructionFiles: down.instructionFiles, originMarkedPaths: [] }))
    const boundaryRow = { type: 'system', name: 'compact_boundary', content: [{ type: 'text', text: 'Conversation compacted' }] }
    const summaryRow = { type: 'user', role: 'user', content: [{ type: 'text', text: summary.text }] }
    const appends = this.mode === 'headless' || trigger === 'auto'
    // A hook's own compaction (not what `next` gave): the engine writes the boundary, and the
    // hook's summary as a plain row through door `note`, not `compaction` [e2e-kit failures/README.md §2].
    const hookAnswered = out.value !== out.below
    for (const row of hookAnswered ? [boundaryRow] : [boundaryRow, summaryRow]) {
      const id = row === summaryRow ? summary.handle : uuid()
      if (appends) {
        const a = await this.fire('session.append', { message: row, door: 'compaction', origin: { kind: 'engine' }, uuid: id }, (down) => ({ message: down.message, uuid: id }))
        this.rows.push(a.value?.message ?? row)
      } else {
        this.rows.push(row)
      }
    }
    if (hookAnswered) this.rows.push(summaryRow)
    return out
  }

  /** The blocks the engine adds before a request: CLAUDE.md and the date [probe §5]. */
  engineContext() {
    const files = this.instructionFiles ?? []
    return {
      blocks: [
        ...(files.length ? [{ name: 'claudeMd', text: `Codebase and user instructions are shown below.\n\n${files.map((f) => `Contents of ${f.path}:\n\n${f.content}`).join('\n\n')}` }] : []),
        { name: 'currentDate', text: "Today's date is 2026-11-29." },
      ],
      instructionFiles: files,
    }
  }

  /**
   * prompt.context for the next request; an unrouted block is kept in one copy, made when the
   * conversation holds none (the first request, the first after a compaction) [dts, d8].
   */
  async promptContext() {
    const e = this.engineContext()
    const out = await this.fire('prompt.context', e, (down) => ({ blocks: down.blocks, instructionFiles: down.instructionFiles, originMarkedPaths: [] }))
    const unrouted = (out.value?.blocks ?? []).filter((b) => !ROUTED_BLOCKS.has(b.name))
    if (this.contextSections === null) this.contextSections = unrouted
    return out
  }

  /**
   * A person's turn: prompt.context for the request (first one, or the first after a compaction,
   * as headless recorded it [probe §5]), the model's answer, then turn.complete with reason
   * `answer` [probe §5]. `tokens`: what usage reports after the answer.
   */
  async prompt(text, { tokens = 5_000 } = {}) {
    this.conversation.push({ role: 'user', text, toolUses: [], handle: uuid() })
    if (this.contextSections === null) await this.promptContext()
    this.requests.push({ kind: 'normal', sees: this.modelSees() })
    const answer = 'Hello from the fake API.'
    this.conversation.push({ role: 'assistant', text: answer, toolUses: [], handle: uuid() })
    this.sinceAnswer = []
    this.contextTokens = tokens
    return this.turnComplete(answer)
  }

  turnComplete(answer = 'Hello from the fake API.') {
    const e = { answer, durationMs: 425, isAborted: false, turnId: uuid(), reason: 'answer', usage: { input_tokens: 50, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, model: 'claude-opus-5-5' } }
    return this.fire('turn.complete', e, () => ({ text: answer }))
  }

  /** What the model receives of the compacted context: stored rows, then the unrouted context blocks. */
  modelSees() {
    const rows = this.rows.flatMap((r) => (Array.isArray(r.content) ? r.content.map((c) => c.text ?? '') : []))
    const sections = (this.contextSections ?? []).map((b) => `# ${b.name}\n${b.text}`)
    return [...rows, ...sections].join('\n\n')
  }

  /** The engine raises `tool.list` at load, before any other of our hooks [d16, startup's HOST.md rows]. */
  async loadTools() {
    const out = await this.fire('tool.list', {}, () => ({ value: [] }))
    await this.settle()
    return out
  }

  /**
   * The person types `/<name> <args>`. A name nobody registered goes to the model as a prompt
   * [d16: a request with "no command with that name"]; a registered one raises `command.run`
   * (a hook's own answer runs nothing beneath: no model turn), then the engine stores its rows at
   * door `command`: the caveat (isMeta), the command's line, its output (a `local_command` notice).
   * The line goes in later requests as a hook left it; a display-only output never does [d16].
   */
  async slash(name, args = '') {
    if (!this.commands.some((c) => c.name === name)) {
      this.requests.push({ kind: 'normal', unknownCommand: name })
      return { unknown: true }
    }
    const e = { command: name, args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 200 } }
    const out = await this.fire('command.run', e, () => ({ text: `${name}: no hook answered`, ref: 1 }))
    const line = `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>`
    const rows = [
      { type: 'user', role: 'user', isMeta: true, content: [{ type: 'text', text: '<local-command-caveat>The command below was run directly in Claude Code, not sent to you as a request.</local-command-caveat>' }] },
      { type: 'user', role: 'user', content: [{ type: 'text', text: line }] },
      { type: 'system', name: 'local_command', content: [{ type: 'text', text: `<local-command-stdout>${out.value?.text ?? ''}</local-command-stdout>` }] },
    ]
    for (const row of rows) {
      const id = uuid()
      const a = await this.fire('session.append', { message: row, door: 'command', origin: { kind: 'engine' }, uuid: id }, (down) => ({ message: down.message, uuid: id }))
      const stored = a.value?.message ?? row
      const sent = stored.type === 'user' ? stored : out.value?.isTextDisplayOnly ? null : { ...stored, type: 'user', role: 'user' }
      if (sent) {
        this.rows.push(sent)
        this.sinceAnswer.push(sent)
      }
      // Headless the line is a user row of the conversation; the terminal keeps it as a
      // `local_command` notice, which session.compact's messages leave out [d16].
      if (this.mode === 'headless' && stored.type === 'user' && !stored.isMeta) this.conversation.push({ role: 'user', text: stored.content.map((c) => c.text).join(''), toolUses: [], handle: id })
    }
    return out
  }

  /**
   * The person types `/compact [args]`: the engine raises `command.run` and runs the compaction
   * beneath its `next`, so `command.run` settles after `session.compact` (measured on 2.1.328:
   * the debug log's `command.run settled` after `session.compact settled`, tests/HOST.md "Lines
   * for the person"). A line logged before `command.run` settled is drawn above the `/compact`.
   */
  async personCompact(args = '') {
    const e = { command: 'compact', args, origin: { kind: 'composer' }, presentation: { isFullscreen: false, columns: 200 } }
    return this.fire('command.run', e, () => this.compact({ trigger: 'manual', instructions: args || undefined }).then(() => ({ text: 'Compacted ' })))
  }

  // ---- the command queue ----

  #kick() {
    if (this.running || this.queuePaused || this.inFlight > 0 || this.queue.length === 0) return
    const { input, resolve, reject } = this.queue.shift()
    this.running = (async () => {
      await this.hop()
      try {
        if (input?.command !== 'compact') throw new Error(`unknown command: ${input?.command}`)
        await this.compact({ trigger: 'manual', instructions: input.args })
        resolve({})
      } catch (err) {
        reject(err)
      } finally {
        this.running = null
        this.#kick()
      }
    })()
  }

  /** Holds queued commands (the session is busy), or lets them run. */
  pauseQueue(paused = true) {
    this.queuePaused = paused
    this.#kick()
  }

  // ---- history, as compact-plus writes it ----

  historyDir(id = this.sessionId) {
    const home = this.os === 'windows' ? this.env.USERPROFILE.replace(/\\/g, '/') : this.env.HOME
    return `${home}/.claude/compact-history/${id}`
  }

  /** The history parts, not the summaries saved beside them. */
  historyFiles() {
    return this.filesUnder(this.historyDir()).filter((p) => p.endsWith('.md') && !p.endsWith('.summary.md')).sort()
  }

  logLines() {
    const text = this.file(`${this.historyDir()}/log.jsonl`) ?? ''
    return text.split('\n').filter(Boolean).map((l) => JSON.parse(l))
  }

  /** An old session's folder, last compacted `days` ago. */
  addOldSession(id, days) {
    const dir = this.historyDir(id)
    const at = this.now - days * DAY_MS
    this.addFile(`${dir}/log.jsonl`, '{"event":"compact"}\n', at)
    this.addFile(`${dir}/2026-01-01T00-00-00-manual.md`, '# old\n', at)
  }
}

/** A few of the engine's own tools as `tool.list` lists them (names as a 2.1.328 request had them). */
export const ENGINE_TOOLS = [
  { name: 'Bash', description: 'Executes a given bash command.', mcp: false },
  { name: 'Read', description: 'Reads a file from the local filesystem.', mcp: false },
  { name: 'ToolSearch', description: 'Fetches full schema definitions for deferred tools.', mcp: false },
]

/** A small conversation in the measured shape [probe §5]: a prompt, a Bash tool call and its result, an answer. */
export function defaultMessages() {
  return [
    { role: 'user', text: 'Please fix the flaky test in src/parser.rs, remember KIWI-3003', toolUses: [], handle: uuid() },
    {
      role: 'assistant',
      text: '',
      toolUses: [{ tool_use_id: 'toolu_fake_1', tool: 'Bash', input: { command: 'cargo test parser', description: 'run the parser tests' }, result: { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false }, text: 'test parser::nested ... FAILED (PROBE-OUTPUT-123)' }],
      handle: uuid(),
    },
    { role: 'user', text: '', toolUses: [], toolResults: [{ tool_use_id: 'toolu_fake_1', text: 'test parser::nested ... FAILED (PROBE-OUTPUT-123)', isError: false, result: { stdout: '', stderr: '', interrupted: false, isImage: false, noOutputExpected: false } }], handle: uuid() },
    { role: 'assistant', text: 'The nested-list case fails; fixing the recursion in src/parser.rs.', toolUses: [], handle: uuid() },
    { role: 'user', text: 'Good, and keep the error messages as they are.', toolUses: [], handle: uuid() },
    { role: 'assistant', text: 'Done: the recursion is fixed and the messages are unchanged.', toolUses: [], handle: uuid() },
  ]
}

/** A fake host with `register` (the real shim's) called on it, as the engine loads the module. */
export function withShim(register, opts = {}, options = {}) {
  const host = new FakeHost(opts)
  register(host.on, options)
  return host
}

/** Texts compact-plus puts in its blocks, to count them in what the model sees. */
export const VERBATIM_OPEN = '<user-messages-verbatim>'
export const POINTER_HEAD = 'compact-plus saved the conversation from before this compaction'
export const MARKER_HEAD = 'compact-plus: compacting between turns'
export const HANDOFF_HEAD = 'From the compact-plus mod:'

export const count = (text, needle) => (text ? text.split(needle).length - 1 : 0)
