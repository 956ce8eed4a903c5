// Redaction in the real interactive terminal UI (issue [15]): a person types credentials of the
// shapes the provider table and the generic rule added (a Telegram bot token alone, a Grafana
// service-account token in a header, an XML password) beside look-alikes (`wget --ask-password
// URL`, `privateKey: Uint8Array;`), then `/compact`. In the terminal the verbatim block leaves
// by a `prompt.context` block (tests/HOST.md); neither it, the history file, the summary saved
// beside it nor log.jsonl may hold a credential, and the look-alikes come through unchanged.
import { test } from 'node:test'
import fs from 'node:fs'
import path from 'node:path'
import { openTui, requestTable, allText } from './driver.mjs'

/** `n` characters of `alphabet`, the same on every run (mulberry32 from `seed`). */
function fake(alphabet, n, seed) {
  let a = seed * 0x9e3779b9
  let out = ''
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    out += alphabet[((x ^ (x >>> 14)) >>> 0) % alphabet.length]
  }
  return out
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

test('terminal: credentials typed by the person are redacted in the history, the log and the blocks; look-alikes kept', { timeout: 240000 }, async (t) => {
  const secrets = {
    'telegram-bot-token': '64' + fake('0123456789', 8, 11) + ':AA' + fake(ALNUM + '_-', 33, 12),
    'grafana-token': 'glsa_' + fake(ALNUM, 32, 13) + '_' + fake('0123456789abcdef', 8, 14),
    'password-assignment': 'Fk' + fake(ALNUM, 14, 15),
  }
  const lookalikes = ['wget --user=admin --ask-password https://localhost/report.csv', 'privateKey: Uint8Array;']
  const P1 = `The bot token is ${secrets['telegram-bot-token']} and the header is Authorization: Bearer ${secrets['grafana-token']} OWL-3301`
  const P2 = `The maven server entry is <password>${secrets['password-assignment']}</password>; ignore ${lookalikes[0]} and ${lookalikes[1]} HERON-7702`
  const P3 = 'Thanks. What did I paste? PLUM-5503'

  const tui = await openTui(t, { label: 'redact' })
  await tui.launch()
  tui.fake.configure({ reply: 'REPLY-ONE noted' })
  await tui.say('01-turn', P1)
  tui.fake.configure({ reply: 'REPLY-TWO noted' })
  await tui.say('02-turn', P2)
  await tui.say('03-compact', '/compact', { until: /Compacted/ })
  tui.fake.configure({ reply: 'REPLY-THREE' })
  const s3 = await tui.say('04-after-compact', P3)
  await tui.exit()
  for (const line of requestTable(tui).split('\n')) t.diagnostic(line)

  const dir = tui.historyDir()
  const written = fs.existsSync(dir)
    ? fs.readdirSync(dir).map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }))
    : []
  const history = tui.historyFiles()
  tui.check('one history file', history.length === 1, written.map((f) => f.name).join(', ') || 'none')
  tui.check('log.jsonl written', written.some((f) => f.name === 'log.jsonl'))
  const next = tui.requestWith('PLUM-5503', s3.from)
  const block = next ? allText(next) : ''
  tui.check('the next request carries the verbatim block', block.includes('<user-messages-verbatim>'))
  // Left of the verbatim block, the next request holds the engine's own summary: only what
  // compact-plus handed over is checked, the block itself.
  const open = block.indexOf('<user-messages-verbatim>')
  const close = block.indexOf('</user-messages-verbatim>', open)
  const verbatim = open >= 0 && close > open ? block.slice(open, close) : ''
  tui.check('the verbatim block holds both prompts (redacted)', verbatim.includes('OWL-3301') && verbatim.includes('HERON-7702'))
  for (const [kind, value] of Object.entries(secrets)) {
    for (const f of written) tui.check(`${f.name} holds no ${kind}`, !f.text.includes(value))
    tui.check(`the verbatim block holds no ${kind}`, !verbatim.includes(value))
    tui.check(`the history names [REDACTED:${kind}]`, history[0]?.text.includes(`[REDACTED:${kind}]`))
  }
  for (const text of lookalikes) {
    tui.check(`the history keeps ${JSON.stringify(text)}`, history[0]?.text.includes(text))
    tui.check(`the verbatim block keeps ${JSON.stringify(text)}`, verbatim.includes(text))
  }
  tui.finish(t)
})
