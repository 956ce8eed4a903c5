// Issue [13] items 1, 2, 9 and 12, with the real shim and the shipped wasm against the fake host:
//
// - the person's words are carried across any number of compactions, on every channel: the
//   terminal's blocks are a prompt.context block, kept as a context attachment that is not among
//   the next compaction's messages [d8], so the core keeps what it carried in its session state
//   (which a rebuilt instance gets back) and on disk;
// - only a request that no later message of the person's follows is marked current: blocks that
//   come with a new prompt, or on the row of a compaction between turns, mark none [d8];
// - `/clear` (session.end, reason `clear`, a new session id, no session.start [dts
//   SessionEndInput]) starts the next conversation clean;
// - a team lead's or a peer session's row is not the person's.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { probe } from './wasm-probe.mjs'
import { register } from '../../js/compact-plus.js'
import { withShim, uuid, OTHER_SESSION, VERBATIM_OPEN, count } from './fake-host.mjs'

const PLAN = 'The migration plan: users first, then orders, never drop a column before its backfill. PLAN-1'
const CLOSE = '</user-messages-verbatim>'

const user = (text) => ({ role: 'user', text, toolUses: [], handle: uuid() })
const assistant = (text) => ({ role: 'assistant', text, toolUses: [], handle: uuid() })

/** The words of the one verbatim block in `text`, oldest first, and how many are marked current. */
function block(text) {
  assert.equal(count(text, VERBATIM_OPEN), 1, `one verbatim block: ${text}`)
  const body = text.slice(text.indexOf(VERBATIM_OPEN), text.indexOf(CLOSE))
  const pieces = body.split('\n--- user message ').slice(1)
  return {
    words: pieces.map((p) => p.slice(p.indexOf(' ---\n') + 5).trim()),
    current: pieces.filter((p) => p.startsWith('(current request')).length,
  }
}

test('terminal: three /compacts with prompts between, the first request is still carried after the third, no answered one marked current', async () => {
  const host = withShim(register, { mode: 'tui', messages: [user(PLAN), assistant('Noted.')] })
  await host.compact({ trigger: 'manual' })
  await host.prompt('P2: start with the users table')
  assert.deepEqual(block(host.modelSees()), { words: [PLAN], current: 0 }, 'the first block comes with P2')
  await host.compact({ trigger: 'manual', instructions: 'keep the migration plan' })
  await host.prompt('P3: now the orders')
  await host.compact({ trigger: 'manual' })
  await host.prompt('P4: what is left?')
  // The blocks came with P4 as a context attachment (the conversation holds none of them).
  assert.ok(!host.conversation.some((m) => m.text.includes(VERBATIM_OPEN)))
  assert.deepEqual(block(host.modelSees()), { words: [PLAN, 'P2: start with the users table', 'P3: now the orders'], current: 0 })
})

test('a rebuilt instance carries the words on: a trap between two terminal /compacts', async () => {
  const host = withShim(register, { mode: 'tui', messages: [user(PLAN), assistant('Noted.')] })
  await host.compact({ trigger: 'manual' })
  await host.prompt('P2: start with the users table')
  // The next turn.complete traps for real: the instance is rebuilt with the state last carried.
  const instances = probe.instances.length
  probe.trapWhen = (fn, info) => fn === 'start' && info.hook === 'turn.complete'
  await host.prompt('P3: and then the orders')
  assert.equal(probe.traps.length, 1, 'the core trapped')
  assert.equal(probe.instances.length, instances + 1, 'rebuilt once')
  assert.deepEqual(JSON.parse(probe.inits.at(-1).carried).verbatim, [PLAN], 'the words were not in the carried state')
  // .verbatim.json is gone: what the rebuilt instance carries comes from its state.
  host.files.delete(`${host.historyDir()}/.verbatim.json`)
  await host.compact({ trigger: 'manual' })
  await host.prompt('P4')
  assert.deepEqual(block(host.modelSees()).words, [PLAN, 'P2: start with the users table', 'P3: and then the orders'])
})

test('/clear starts the next conversation clean: none of the old words, blocks or marks reach it', async () => {
  const host = withShim(register, { mode: 'tui', messages: [user(PLAN), assistant('Noted.')] })
  await host.compact({ trigger: 'manual' })
  await host.prompt('P2: start with the users table')
  await host.compact({ trigger: 'manual' }) // its blocks wait for the next prompt, which never comes
  const ended = await host.fire('session.end', { reason: 'clear', sessionId: host.sessionId, resume: { id: host.sessionId } }, () => ({ sessionId: host.sessionId }))
  assert.equal(ended.hookError, undefined)
  const carried = probe.steps.filter((s) => s.json?.carry).at(-1).json.carry
  assert.equal(carried.verbatim, null, 'the old words are still carried')
  assert.equal(carried.pending, null, 'the old blocks still wait')
  // The engine goes on under a new session id with a fresh conversation [dts SessionEndInput].
  host.sessionId = OTHER_SESSION
  host.conversation = [user('A new topic: write a haiku about tide pools. HAIKU-1'), assistant('Here it is.')]
  host.rows = []
  host.contextSections = null
  await host.prompt('Another one, about rain.')
  assert.equal(count(host.modelSees(), VERBATIM_OPEN), 0, 'the old conversation\'s blocks reached the new one')
  await host.compact({ trigger: 'manual' })
  await host.prompt('And one about snow.')
  assert.deepEqual(block(host.modelSees()), { words: ['A new topic: write a haiku about tide pools. HAIKU-1', 'Another one, about rain.'], current: 0 })
  assert.ok(!host.modelSees().includes('PLAN-1'))
})

test('headless /compact: the summary row carries the words with nothing marked current (the next prompt follows it)', async () => {
  const host = withShim(register, { mode: 'headless', messages: [user(PLAN), assistant('Noted.'), user('P2: go on'), assistant('Done.')] })
  await host.compact({ trigger: 'manual' })
  assert.deepEqual(block(host.modelSees()), { words: [PLAN, 'P2: go on'], current: 0 })
  await host.prompt('P3: next')
  await host.compact({ trigger: 'manual' })
  assert.deepEqual(block(host.modelSees()), { words: [PLAN, 'P2: go on', 'P3: next'], current: 0 }, 'carried once, from the row or the state')
})

test('a team lead\'s and a peer session\'s rows are not the person\'s: an automatic compaction mid-turn marks the person\'s own request current', async () => {
  // As the engine wraps them (Claude Code 2.1.328): a team lead's message to this agent, and a
  // peer session's delivered into the running turn.
  const lead = '<teammate-message teammate_id="team-lead" color="blue" summary="deploy">\nDeploy to production now.\n</teammate-message>'
  const peer = 'Another Claude session sent a message while you were working:\n<cross-session-message from="s2">push the branch</cross-session-message>'
  const host = withShim(register, {
    mode: 'headless',
    messages: [user(PLAN), assistant('On it.'), user(lead), assistant('Noted the lead.'), user(peer), assistant('Working.'), user(''), assistant('Still working.')],
  })
  await host.compact({ trigger: 'auto' }) // the engine keeps the last two messages [probe §5]
  const { words, current } = block(host.modelSees())
  assert.deepEqual(words, [PLAN])
  assert.equal(current, 1)
  assert.ok(!host.modelSees().includes('Deploy to production'))
})
