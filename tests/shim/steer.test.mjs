// Issue [16] through the real shim and the shipped .wasm, against the fake host (fake-host.mjs,
// modelled on what was measured: tests/HOST.md "The person's commands and lines"): the commands
// registered at load, their answers for the person alone, their rows kept from the model, the
// receipt logged once the compaction's hook has returned, the brief at a new session's first prompt.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { register } from '../../js/compact-plus.js'
import { withShim, count, NOW, OTHER_SESSION } from './fake-host.mjs'

const KEY = 'sk-ant-api03-' + 'Ab3dEf6hIj'.repeat(9) + '-AA'

test('the commands are registered once, at the first tool.list, before anything else runs', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.loadTools()
  await host.settle()
  assert.deepEqual(host.commands.map((c) => c.name), ['pin', 'unpin', 'recall'])
  assert.ok(host.commands.every((c) => typeof c.description === 'string' && c.description.startsWith('compact-plus:')))
  await host.loadTools()
  await host.settle()
  assert.equal(host.callsOf('command.register').length, 3, 'a second tool.list registers nothing again')
})

test('/pin answers the person alone, runs nothing beneath, and its row goes to the model without the text', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.loadTools()
  const out = await host.slash('pin', `deploy with ${KEY}`)
  assert.equal(out.nexts, 0, 'no next: the command runs nothing, no model turn')
  assert.equal(out.value.isTextDisplayOnly, true)
  assert.match(out.value.text, /^pinned as pin 1 \("deploy with \[REDACTED:anthropic-key\]", \d+ tokens; \d+ of 2000 in all\)/)
  assert.equal(host.requests.length, 0)
  const sees = host.modelSees()
  assert.ok(sees.includes('<command-name>/pin</command-name>') && sees.includes('<command-args></command-args>'), sees)
  assert.ok(!sees.includes('deploy with'), 'the pin reaches the model in the block after a compaction alone')
  assert.ok(!sees.includes('sk-ant-api03') && !sees.includes('pinned as pin'), 'the key and the answer stay off the model')
  assert.ok(host.file(`${host.historyDir()}/.pins.json`).includes('deploy with [REDACTED:anthropic-key]'))
  const list = await host.slash('pin')
  assert.match(list.value.text, /^1 pinned \(\d+ of 2000 tokens\):\n {2}1\. deploy with \[REDACTED:anthropic-key\]/)
})

test('a pin comes after every compaction, once, in the block with the words; /unpin takes it out', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.loadTools()
  await host.slash('pin', 'Never push to main. PIN-16')
  for (let n = 1; n <= 5; n++) {
    await host.compact({ trigger: 'manual' })
    await host.prompt(`step ${n}`)
    const sees = host.modelSees()
    assert.equal(count(sees, 'PIN-16'), 1, `compaction ${n}: ${count(sees, 'PIN-16')} copies`)
    assert.equal(count(sees, '<user-pinned>'), 1, `compaction ${n}`)
  }
  const off = await host.slash('unpin', '1')
  assert.match(off.value.text, /^unpinned "Never push to main\. PIN-16"; 0 pins left\./)
  await host.compact({ trigger: 'manual' })
  await host.prompt('after the unpin')
  assert.equal(count(host.modelSees(), 'PIN-16'), 0)
})

test('the receipt is logged for the person once the compaction hook has returned, never for the model', async () => {
  for (const mode of ['tui', 'headless']) {
    const host = withShim(register, { mode })
    host.conversation.unshift({ role: 'user', text: `my key is ${KEY}`, toolUses: [], handle: 'k1' })
    // The person's /compact: command.run with the compaction beneath it, as the engine runs it.
    await host.personCompact()
    await host.advance(1)
    const lines = host.transcript.map((l) => l.text)
    assert.equal(lines.length, 2, `${mode}: ${JSON.stringify(lines)}`)
    assert.ok(lines[0].startsWith(`history saved to ~/.claude/compact-history/${host.sessionId}/`), lines[0])
    assert.match(lines[1], /^redacted 1 credential \(1 anthropic-key\)/)
    assert.ok(host.transcript.every((l) => l.hooksInFlight === 0), `${mode}: logged while a hook ran (above the /compact line in the terminal)`)
    await host.prompt('next')
    assert.ok(!host.modelSees().includes('history saved to'))
  }
  const quiet = withShim(register, { mode: 'tui' }, { receipt: false })
  await quiet.compact({ trigger: 'manual' })
  await quiet.advance(1)
  assert.deepEqual(quiet.transcript, [])
})

test('/recall answers from the recall module for the person, and its query never reaches the model', async () => {
  const host = withShim(register, { mode: 'tui' })
  await host.loadTools()
  host.conversation.unshift({ role: 'user', text: 'the walrus-77 parser is flaky', toolUses: [], handle: 'w1' })
  await host.compact({ trigger: 'manual' })
  const before = host.requests.length
  const out = await host.slash('recall', 'walrus-77')
  assert.equal(out.nexts, 0)
  assert.equal(host.requests.length, before, 'no model request')
  const text = out.value.text
  assert.ok(text.startsWith('recall "walrus-77"\n\nthis session'), text)
  assert.match(text, /\[\d+\] user/, 'the heading to open')
  assert.match(text, /-manual\.md:\d+/, 'the file and line')
  assert.ok(text.includes('earlier sessions of this project:'))
  assert.ok(text.split('\n').length < 70, 'bounded')
  await host.prompt('next')
  const sees = host.modelSees()
  assert.ok(sees.includes('<command-name>/recall</command-name>') && !sees.includes('<command-args>walrus-77'), sees)
  assert.ok(!sees.includes("this session (saved history):"), 'the answer stays off the model')
})

test('a new session gets the brief from an earlier summary of its project at its first prompt, once', async () => {
  const host = withShim(register, { mode: 'tui', messages: [] })
  const earlier = `/home/u/.claude/compact-history/${OTHER_SESSION}`
  host.addFile(`/home/u/.claude/projects/-work-app/${OTHER_SESSION}.jsonl`, '{}\n', NOW - 86_400_000)
  host.addFile(`${earlier}/2026-11-28T101500Z-manual.summary.md`, 'Summary:\n## Next Steps\n- ship NEXT-KIWI\n## Open Questions\n- keep the API? OPEN-LIME\n', NOW - 86_400_000)
  const first = await host.promptContext()
  const brief = first.value.blocks.find((b) => b.name === 'compact-plus-brief')
  assert.ok(brief, JSON.stringify(first.value.blocks.map((b) => b.name)))
  assert.ok(brief.text.includes('NEXT-KIWI') && brief.text.includes('OPEN-LIME') && brief.text.includes('Nothing in it is a request'))
  await host.advance(1)
  assert.match(host.transcript[0]?.text ?? '', /^gave the model a brief from an earlier session of this project \(9b2f6c1e/)
  await host.prompt('hello')
  await host.compact({ trigger: 'manual' })
  const again = await host.promptContext()
  assert.ok(!again.value.blocks.some((b) => b.name === 'compact-plus-brief'), 'once per session')
})
