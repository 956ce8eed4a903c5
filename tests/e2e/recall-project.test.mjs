// Project recall on the real CLI: earlier sessions of this project placed in
// the throwaway HOME (two Claude Code transcripts of its folder, one of another
// project, one Codex rollout started in it); the model calls recall with scope
// `project` and gets what those sessions said, nothing of the other project,
// with the credential one of them holds redacted; the sessions view lists them.
//
// The rows have the shapes the real CLIs write (../shared/real-transcripts/:
// Claude Code 2.1.328 transcripts under ~/.claude/projects/<cwd with every
// non-alphanumeric as ->/<session>.jsonl; Codex rollouts under
// ~/.codex/sessions/YYYY/MM/DD/rollout-<stamp>-<uuid>.jsonl, session_meta first;
// OpenCode's prompt history as its TUI writes it, `{input, mode, parts}` a line,
// a mentioned file a `file` part whose url is file://<OpenCode's cwd>/<path>:
// OpenCode's cli/cmd/tui/component/prompt/history.tsx and autocomplete.tsx).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { runSession, textOf, projectSlug } from './harness.mjs'

const MOD = process.env.E2E_MOD ?? 'repo'
const TOOL = 'compact_plus_recall'
const OURS_A = 'aaaaaaaa-1111-4111-8111-000000000001'
const OURS_B = 'bbbbbbbb-2222-4222-8222-000000000002'
const OTHER = 'cccccccc-3333-4333-8333-000000000003'
const CODEX = '019a0000-0000-7000-8000-0000000000dd'
// A GitHub token of the fake kind the redactor's tests use: it must never reach the model.
const TOKEN = 'ghp_' + 'FAKE0123456789abcdefFAKE0123456789ab'

function toolResults(req) {
  return (req.body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b?.type === 'tool_result')
}

function claudeRows(session, cwd, day, lines) {
  const rows = [{ type: 'summary', summary: `work of ${day}`, leafUuid: `${session}-leaf` }]
  lines.forEach(([role, text], i) => {
    const ts = `2026-11-${day}T10:0${i}:00.000Z`
    const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd, sessionId: session, version: '2.1.328', uuid: `${session}-${i}`, timestamp: ts }
    rows.push(role === 'user'
      ? { ...base, type: 'user', message: { role: 'user', content: text } }
      : { ...base, type: 'assistant', message: { role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }] } })
  })
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n'
}

function place(home, projectDir) {
  const projects = path.join(home, '.claude', 'projects')
  const ours = path.join(projects, projectSlug(projectDir))
  const other = path.join(projects, projectSlug(projectDir + '-elsewhere'))
  fs.mkdirSync(ours, { recursive: true })
  fs.mkdirSync(other, { recursive: true })
  const write = (file, text, daysAgo) => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text, { mode: 0o600 })
    const t = new Date(Date.now() - daysAgo * 86400e3)
    fs.utimesSync(file, t, t)
  }
  write(path.join(ours, `${OURS_A}.jsonl`), claudeRows(OURS_A, projectDir, '20', [
    ['user', 'the parser drops heron-5521 tokens, find out why'],
    ['assistant', 'The lexer splits heron-5521 on the dash; we decided to keep the lexer and fix the splitter.'],
  ]), 9)
  write(path.join(ours, `${OURS_B}.jsonl`), claudeRows(OURS_B, projectDir, '25', [
    ['user', `deploy with my token ${TOKEN} and tell me about heron-5521`],
    ['assistant', 'Deployed; heron-5521 is fixed in release 3.2.'],
  ]), 5)
  write(path.join(other, `${OTHER}.jsonl`), claudeRows(OTHER, projectDir + '-elsewhere', '26', [
    ['user', 'heron-5521 in the other project: ibis-9090 is its secret word'],
  ]), 4)
  const codexDay = path.join(home, '.codex', 'sessions', '2026', '11', '27')
  write(path.join(codexDay, `rollout-2026-11-27T09-00-00-${CODEX}.jsonl`), [
    { timestamp: '2026-11-27T09:00:00.000Z', type: 'session_meta', payload: { id: CODEX, cwd: projectDir, cli_version: '0.77.0' } },
    { timestamp: '2026-11-27T09:00:02.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'codex: which command fixed heron-5521?' } },
    { timestamp: '2026-11-27T09:00:06.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'make clean-build fixed heron-5521' }] } },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n', 3)
  const prompt = (input, url) => ({ input, mode: 'normal', parts: url ? [{ type: 'file', mime: 'text/plain', filename: 'src/parser.rs', url, source: { type: 'file', path: 'src/parser.rs', text: { start: 0, end: 14, value: '@src/parser.rs' } } }] : [] })
  write(path.join(home, '.local', 'state', 'opencode', 'prompt-history.jsonl'), [
    prompt('opencode: why does @src/parser.rs drop heron-5521?', `file://${projectDir}/src/parser.rs`),
    prompt('heron-5521 in a prompt naming no folder', null),
    prompt('heron-5521 in @src/parser.rs of another project', `file://${projectDir}-elsewhere/src/parser.rs`),
  ].map((r) => JSON.stringify(r)).join('\n') + '\n', 2)
}

test('recall scope project: earlier sessions of this project, found, redacted, listed', { skip: MOD === 'reference' && 'the reference has no recall tool', timeout: 120000 }, async (t) => {
  const run = await runSession({
    mod: MOD,
    label: 'recall-project',
    turns: [
      { prompt: `FAKE_TOOL_USE:{"name":"${TOOL}","input":{"query":"heron-5521","scope":"project"}}`, before: (ctx) => place(ctx.home, ctx.projectDir) },
      `FAKE_TOOL_USE:{"name":"${TOOL}","input":{"scope":"project"}}`,
      // Session A's rows: its title (line 1), the person (2), the assistant (3).
      `FAKE_TOOL_USE:{"name":"${TOOL}","input":{"scope":"project","session":"${OURS_A.slice(0, 8)}","message":3}}`,
    ],
  })
  let passed = false
  t.after(() => (passed && !process.env.E2E_KEEP ? run.cleanup() : t.diagnostic(`kept ${run.workDir}`)))
  assert.ok(run.ok, `the session did not complete: ${run.stderr.slice(-1500)}`)

  const seen = new Set()
  const results = run.requests.flatMap(toolResults).map((b) => textOf(b.content) ?? String(b.content ?? ''))
    .filter((r) => !seen.has(r) && seen.add(r))
  assert.ok(results.length >= 3, `expected three recall answers: ${JSON.stringify(results.map((r) => r.slice(0, 200)))}`)
  const [found, view, message] = results
  t.diagnostic(`search answered ${found.length} chars: ${found.split('\n').slice(0, 4).join(' | ')}`)
  for (const want of ['release 3.2', 'fix the splitter', 'make clean-build']) {
    assert.ok(found.includes(want), `the search lacks "${want}": ${found.slice(0, 1500)}`)
  }
  assert.ok(found.includes(OURS_A.slice(0, 8)) && found.includes(OURS_B.slice(0, 8)), `the excerpts do not name their sessions: ${found.slice(0, 1500)}`)
  assert.ok(!found.includes('ibis-9090') && !found.includes(OTHER.slice(0, 8)), `the other project leaked: ${found}`)
  // OpenCode: the prompt naming a file of this folder, not the others.
  assert.ok(found.includes('why does @src/parser.rs drop heron-5521'), `the OpenCode prompt of this folder is missing: ${found.slice(0, 1500)}`)
  assert.ok(!found.includes('naming no folder') && !found.includes('of another project'), `OpenCode prompts of no or another folder leaked: ${found}`)

  t.diagnostic(`sessions view: ${view.split('\n').slice(0, 6).join(' | ')}`)
  for (const id of [OURS_A, OURS_B, CODEX]) assert.ok(view.includes(id.slice(0, 8)), `the view lacks ${id}: ${view}`)
  assert.ok(!view.includes(OTHER.slice(0, 8)) && !view.includes('ibis-9090'), `the view lists the other project: ${view}`)
  // Newest first: the Codex rollout (3 days ago), then B (5), then A (9).
  assert.ok(view.indexOf(CODEX.slice(0, 8)) < view.indexOf(OURS_B.slice(0, 8)) && view.indexOf(OURS_B.slice(0, 8)) < view.indexOf(OURS_A.slice(0, 8)), `not newest first: ${view}`)
  assert.match(view, /codex/i)
  assert.match(view, /opencode \(prompts naming a file in this folder\) · .* 1 message, 1 request/)

  // The message read in full, by the number a search shows.
  t.diagnostic(`message: ${message.split('\n').slice(0, 3).join(' | ')}`)
  assert.ok(message.includes('── message 3 (assistant)') && message.includes('fix the splitter'), `not message 3 of session A: ${message}`)

  // Nothing the model was sent carries the pasted token.
  const sent = JSON.stringify(run.requests.map((r) => r.body))
  assert.ok(!sent.includes(TOKEN), 'the token reached the model')
  assert.ok(results.join('\n').includes('[REDACTED'), `no redaction mark in the answers: ${found.slice(0, 800)}`)
  passed = true
})

// Subagents call the recall tool at once: two Agent tool_uses in one answer start two subagents,
// each whose first request the fake answers with its own recall call; the engine runs them side by
// side, and their two tool.call dispatches overlap in compact-plus's one worker (measured: each
// "settled in" ~0.45 s, the second started before the first ended). Before issue [13] item 10 the
// recall module had one slot for a walk, so one answered "the search lost its place" (or "no
// earlier sessions of this project were found").
test('two subagents recalling at once each get their own answer', { skip: MOD === 'reference' && 'the reference has no recall tool', timeout: 180000 }, async (t) => {
  const agent = (input) => ({ name: 'Agent', input: { description: 'look it up', subagent_type: 'general-purpose', prompt: `FAKE_TOOL_USE:${JSON.stringify({ name: TOOL, input })}` } })
  const both = JSON.stringify([agent({ query: 'heron-5521', scope: 'project' }), agent({ scope: 'project' })])
  const run = await runSession({ mod: MOD, label: 'recall-project-agents', turns: [{ prompt: `FAKE_TOOL_USES:${both}`, before: (ctx) => place(ctx.home, ctx.projectDir) }] })
  let passed = false
  t.after(() => (passed && !process.env.E2E_KEEP ? run.cleanup() : t.diagnostic(`kept ${run.workDir}`)))
  assert.ok(run.ok, `the session did not complete: ${run.stderr.slice(-1500)}`)
  // The subagents' follow-ups carry the recall answers.
  const answers = [...new Set(run.requests.flatMap(toolResults).map((b) => textOf(b.content) ?? String(b.content ?? '')).filter((r) => r.startsWith('recall:')))]
  t.diagnostic(answers.map((a) => a.split('\n')[0].slice(0, 120)).join(' || '))
  const settled = fs.readFileSync(path.join(run.workDir, 'debug.log'), 'utf8').split('\n').filter((l) => /compact-plus@inline tool\.call settled/.test(l))
  t.diagnostic(`tool.call dispatches: ${settled.map((l) => l.slice(0, 24) + l.slice(l.indexOf('settled'))).join('; ')}`)
  assert.equal(answers.length, 2, JSON.stringify(answers.map((a) => a.slice(0, 200))))
  const found = answers.find((a) => /^recall: \d+ hits? in/.test(a))
  const view = answers.find((a) => /^recall: \d+ earlier sessions of this project, newest first/.test(a))
  assert.ok(found?.includes('release 3.2'), `the search was not answered: ${JSON.stringify(answers)}`)
  assert.ok(view?.includes(OURS_A.slice(0, 8)), `the sessions view was not answered: ${JSON.stringify(answers)}`)
  passed = true
})
