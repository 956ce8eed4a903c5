// Host shapes the shim passes through to the core: a Windows host (realPath answered with `\`,
// names without case [i8]), a WSL home; and the fake host itself, pinned to what was measured on
// the real CLI, so that it cannot drift into the project's own assumptions (the guide: "a fake
// that answers in an order or shape the host does not is a defect").
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { FakeHost, withShim, gate, OTHER_SESSION, SESSION_ID, HEADLESS_COMPACT_ERROR, hop } from './fake-host.mjs'

const YOUNG_SESSION = 'aaaaaaaa-0000-4000-8000-000000000001'
const DAY_MS = 86_400_000

test('Windows: pruning compares the backslashed realPath answers and removes only an old session\'s folder, its path in the environment, never on a command line', async () => {
  const host = withShim(register, { os: 'windows' })
  host.addOldSession(OTHER_SESSION, 40)
  host.addOldSession(YOUNG_SESSION, 2)
  await host.compact({ trigger: 'manual' })
  await host.settle()
  const resolved = host.callsOf('fs.stat').filter((c) => c.args[1]?.resolve)
  assert.ok(resolved.length >= 2, 'no resolved stat asked')
  const runs = host.callsOf('process.run')
  assert.equal(runs.length, 1, JSON.stringify(runs))
  assert.equal(runs[0].args[0][0], 'powershell.exe')
  assert.ok(runs[0].args[0].every((a) => !a.includes(OTHER_SESSION)), JSON.stringify(runs[0].args[0]))
  assert.deepEqual(runs[0].args[1].env, { COMPACT_PLUS_PRUNE_PATH: `C:\\Users\\u\\.claude\\compact-history\\${OTHER_SESSION}` })
  assert.equal(host.filesUnder(host.historyDir(OTHER_SESSION)).length, 0, 'the old folder is still there')
  assert.equal(host.filesUnder(host.historyDir(YOUNG_SESSION)).length, 2, 'a folder inside the keep period went')
  assert.equal(host.historyFiles().length, 1, 'this session\'s history went')
  assert.ok(host.historyFiles()[0].startsWith(`C:/Users/u/.claude/compact-history/${SESSION_ID}/`), host.historyFiles()[0])
})

test('Windows: a home spelled in another case than the disk\'s still prunes (names compare without case)', async () => {
  const host = withShim(register, { os: 'windows', env: { OS: 'Windows_NT', USERPROFILE: 'c:\\users\\U' } })
  const old = `C:\\Users\\u\\.claude\\compact-history\\${OTHER_SESSION}`
  host.addFile(`${old}\\log.jsonl`, '{"event":"compact"}\n', host.now - 40 * DAY_MS)
  await host.compact({ trigger: 'manual' })
  await host.settle()
  const runs = host.callsOf('process.run').map((c) => c.args[1]?.env?.COMPACT_PLUS_PRUNE_PATH)
  assert.equal(runs.length, 1, JSON.stringify(runs))
  assert.equal(runs[0].toLowerCase(), old.toLowerCase())
  assert.equal(host.filesUnder(old).length, 0)
})

test('WSL: HOME comes first when OS is not Windows_NT, though USERPROFILE is shared into Linux', async () => {
  const host = withShim(register, { env: { HOME: '/home/u', USERPROFILE: '/mnt/c/Users/u', WSLENV: 'USERPROFILE/p' } })
  await host.compact({ trigger: 'manual' })
  const written = host.callsOf('fs.write').map((c) => c.args[0])
  assert.ok(written.length > 0)
  assert.ok(written.every((p) => p.startsWith(`/home/u/.claude/compact-history/${SESSION_ID}/`)), written.join('\n'))
})

// ---- the fake host, as measured ----

/** A probe mod (not the shim): records what reaches it, as the kit's probe mod does. */
function probeMod(host) {
  const seen = []
  host.on('session.compact', async ($, e, next) => {
    seen.push(['session.compact', e.trigger, e.instructions])
    const r = await next(e)
    seen.push(['session.compact done'])
    return r
  })
  host.on('session.append', { door: 'compaction' }, async ($, e, next) => {
    seen.push(['session.append', e.message.type])
    return next(e)
  })
  return seen
}

test('the fake host: $.command.run queues /compact, runs it through our own session.compact (manual, instructions = args), and resolves {} only after it ran [d8]', async () => {
  for (const mode of ['tui', 'headless']) {
    const host = new FakeHost({ mode })
    const seen = probeMod(host)
    const result = await host.$.command.run({ command: 'compact', args: 'focus on X' }).then((r) => {
      seen.push(['command.run resolved'])
      return r
    })
    assert.deepEqual(result, {})
    const doors = mode === 'headless' ? [['session.append', 'system'], ['session.append', 'user']] : [] // [kit item 1]
    assert.deepEqual(seen, [['session.compact', 'manual', 'focus on X'], ['session.compact done'], ...doors, ['command.run resolved']], mode)
  }
})

test('the fake host: $.command.run waits while the session is busy (a dispatch in flight), then runs', async () => {
  const host = new FakeHost({ mode: 'tui' })
  const seen = probeMod(host)
  const held = gate()
  const turn = host.fire('turn.complete', { reason: 'answer' }, () => held.wait().then(() => ({ text: '' })))
  await hop()
  let ran = false
  const queued = host.$.command.run({ command: 'compact', args: '' }).then(() => (ran = true))
  await host.settle()
  assert.equal(ran, false)
  assert.equal(seen.length, 0)
  held.open()
  await turn
  await queued
  assert.equal(ran, true)
})

test('the fake host: $.session.compact resolves in the terminal without our own hook (re-entry), rejects headless [kit item 2]', async () => {
  const tui = new FakeHost({ mode: 'tui' })
  const seen = probeMod(tui)
  const r = await tui.$.session.compact({ instructions: 'x' })
  assert.ok(Array.isArray(r.messages), JSON.stringify(r).slice(0, 200))
  assert.equal(tui.compactions, 1)
  assert.equal(seen.length, 0, 'our own session.compact ran on a plugin\'s $.session.compact')
  const headless = new FakeHost({ mode: 'headless' })
  await assert.rejects(headless.$.session.compact(), (err) => err.message === HEADLESS_COMPACT_ERROR)
})

test('the fake host: $ calls answer asynchronously, $.clock.after answers {cancel} and a cancelled timer never fires, realPath has \\ on Windows', async () => {
  const host = new FakeHost({ os: 'windows' })
  let answered = false
  const p = host.$.clock.now().then(() => (answered = true))
  await Promise.resolve()
  await Promise.resolve()
  assert.equal(answered, false, 'a $ answer came in the same turn of the event loop')
  await p
  let fired = 0
  const t = host.$.clock.after(100, () => fired++)
  assert.equal(typeof t.cancel, 'function')
  t.cancel()
  host.$.clock.after(100, () => fired++)
  await host.advance(200)
  assert.equal(fired, 1)
  host.addFile('C:/Users/u/a/b.txt', 'x')
  const stat = await host.$.fs.stat('C:/Users/u/a', { resolve: true })
  assert.equal(stat.realPath, 'C:\\Users\\u\\a')
  assert.equal((await host.$.fs.stat('C:/Users/u/a')).realPath, undefined, 'realPath without resolve')
})

test('the fake host: next gets the event frozen, a field left undefined keeps the event\'s own value, and a function is no plain data [api B]', async () => {
  const host = new FakeHost()
  let frozen
  host.on('session.compact', async ($, e, next) => {
    frozen = Object.isFrozen(e) && Object.isFrozen(e.messages)
    return next({ ...e, instructions: undefined })
  })
  const out = await host.fire('session.compact', { trigger: 'manual', instructions: 'keep', messages: [] }, (d) => ({ messages: [], got: d.instructions }))
  assert.equal(frozen, true)
  assert.equal(out.value.got, 'keep')
  const bad = new FakeHost()
  bad.on('turn.complete', ($, e, next) => next({ ...e, fn: () => 1 }))
  const o = await bad.fire('turn.complete', { reason: 'answer' }, () => ({ text: '' }))
  assert.match(String(o.hookError?.message), /not plain data/)
})
