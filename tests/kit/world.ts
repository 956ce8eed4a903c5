// The engine beneath compact-plus in a `claude plugin test`: a home folder and
// a session id, an in-memory file system, a mocked clock, and a record of every
// `$` call the mod makes. A test registers it before its first `$` call.

import { mock } from 'claude-code/testing'
import type { FsEntry, FsStat, On } from 'claude-code'

export const HOME = '/home/tester'
export const SESSION = 'sess-1'
export const DIR = `${HOME}/.claude/compact-history/${SESSION}`
export const LOG = `${DIR}/log.jsonl`
/** 2025-11-29T12:00:00Z, so file names and log lines are known. */
export const T0 = Date.UTC(2025, 10, 29, 12, 0, 0)

export type Call = { op: string; path?: string; text?: string }

export function world(on: On, files: Record<string, string> = {}) {
  const calls: Call[] = []
  const debug: string[] = []
  const clock = mock.clock(on, { now: T0 })
  mock.env(on, { HOME })
  const missing = (path: string) => new Error(`ENOENT: no such file or directory, '${path}'`)
  const isDir = (path: string) => Object.keys(files).some((f) => f.startsWith(`${path}/`))
  on('session.id', () => ({ value: SESSION }))
  on('fs.exists', (_$, e) => {
    calls.push({ op: 'exists', path: e.path })
    return { value: e.path in files || isDir(e.path) }
  })
  on('fs.read', (_$, e) => {
    calls.push({ op: 'read', path: e.path })
    const text = files[e.path]
    if (text === undefined) throw missing(e.path)
    return { value: text }
  })
  on('fs.write', (_$, e) => {
    calls.push({ op: 'write', path: e.path, text: e.text })
    files[e.path] = e.text
    return { value: undefined }
  })
  on('fs.list', (_$, e) => {
    calls.push({ op: 'list', path: e.path })
    if (!isDir(e.path)) throw missing(e.path)
    const names = new Set<string>()
    for (const f of Object.keys(files)) {
      const name = f.startsWith(`${e.path}/`) ? f.slice(e.path.length + 1).split('/')[0] : undefined
      if (name) names.add(name)
    }
    const value = [...names].sort().map((name): FsEntry => {
      const path = `${e.path}/${name}`
      const text = files[path]
      return { name, kind: text === undefined ? 'dir' : 'file', size: text?.length ?? 0, mtimeMs: text === undefined ? 0 : T0, isLink: false }
    })
    return { value }
  })
  on('fs.stat', (_$, e) => {
    calls.push({ op: 'stat', path: e.path })
    const text = files[e.path]
    const file: FsStat = { kind: 'file', size: text?.length ?? 0, mtimeMs: T0, isLink: false }
    const dir: FsStat = { kind: 'dir', size: 0, mtimeMs: 0, isLink: false, realPath: e.path }
    if (text !== undefined) return { value: file }
    if (isDir(e.path)) return { value: dir }
    throw missing(e.path)
  })
  on('ui.log', (_$, e) => {
    debug.push(e.text)
    return { value: undefined }
  })
  const ops = (op: string) => calls.filter((c) => c.op === op)
  /** A file's text; a file the mod never wrote fails the test here. */
  const text = (path: string): string => {
    const t = files[path]
    if (t === undefined) throw new Error(`nothing was written to ${path}`)
    return t
  }
  return { clock, files, calls, ops, text, debug }
}
