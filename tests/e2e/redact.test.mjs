// Redaction on the real Claude Code CLI, headless (-p, stream-json), with the fake Messages API
// (issue [15]): a person pastes credentials of the shapes the provider table and the generic rule
// added (a Telegram bot token alone, a Grafana service-account token in a header, an XML
// password, a YAML password on the line after its key, `docker login -p`), a Read tool result
// holds a `.env` with a Twilio auth token and an AWS secret key, then `/compact`. Nothing the mod
// writes (the history file, the summary saved beside it, log.jsonl) or hands back (the summary
// row's verbatim block) may hold one of them; the look-alikes beside them (`wget
// --ask-password URL`, `privateKey: Uint8Array;`, Slack's placeholder webhook) come through
// untouched. The values are made here at run time, of each provider's documented shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runSession, textOf, summaryRows } from './harness.mjs';

const MOD = process.env.E2E_MOD ?? 'repo';

/** `n` characters of `alphabet`, the same on every run (mulberry32 from `seed`). */
function fake(alphabet, n, seed) {
  let a = seed * 0x9e3779b9;
  let out = '';
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    out += alphabet[((x ^ (x >>> 14)) >>> 0) % alphabet.length];
  }
  return out;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = ALNUM + '_-';
const HEX = '0123456789abcdef';

const secrets = {
  'telegram-bot-token': '71' + fake('0123456789', 8, 1) + ':AA' + fake(B64URL, 33, 2),
  'grafana-token': 'glsa_' + fake(ALNUM, 32, 3) + '_' + fake(HEX, 8, 4),
  xmlPassword: 'Fk' + fake(ALNUM, 14, 5),
  yamlPassword: 'Fk' + fake(ALNUM, 14, 6),
  dockerPassword: 'Fk' + fake(ALNUM, 14, 7),
  'twilio-auth-token': fake(HEX, 32, 8),
  'aws-secret-key': fake(ALNUM + '+/', 40, 9),
};
const lookalikes = [
  'wget --user=admin --ask-password https://localhost/report.csv',
  'privateKey: Uint8Array;',
  'SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
];

test('credentials of the new shapes are redacted in everything the mod writes; look-alikes are kept', { timeout: 150000 }, async (t) => {
  const prompt1 = [
    'turn one: my bot token is ' + secrets['telegram-bot-token'],
    'curl -H "Authorization: Bearer ' + secrets['grafana-token'] + '" https://grafana.example.net/api/health',
    '<server><id>releases</id><password>' + secrets.xmlPassword + '</password></server>',
    ...lookalikes,
  ].join('\n');
  const prompt2 = [
    'turn two: the config and the login, then read the env file FAKE_TOOL_USE:{"name":"Read","input":{"file_path":"@PROJ@/.env"}}',
    'database:',
    '  password:',
    '    ' + secrets.yamlPassword,
    '$ docker login -u ci -p ' + secrets.dockerPassword + ' registry.example.net',
  ].join('\n');
  const env = `TWILIO_ACCOUNT_SID=AC${fake(HEX, 32, 10)}\nTWILIO_AUTH_TOKEN=${secrets['twilio-auth-token']}\nAWS_SECRET_ACCESS_KEY=${secrets['aws-secret-key']}\n`;
  const run = await runSession({
    mod: MOD,
    label: `${MOD}-redact`,
    turnTimeoutMs: 30000,
    sessionTimeoutMs: 110000,
    args: ['--allowedTools', 'Read'],
    files: { '.env': env },
    turns: [
      { prompt: prompt1, fake: { reply: 'REPLY-ONE noted' } },
      { prompt: (ctx) => prompt2.replace('@PROJ@', ctx.projectDir), fake: { reply: 'REPLY-TWO read it' } },
      '/compact',
      { prompt: 'turn four: what was in the env file?', fake: { reply: 'REPLY-FOUR' } },
    ],
  });
  let failed = true;
  t.after(() => (failed || process.env.E2E_KEEP ? t.diagnostic(`kept ${run.workDir}`) : run.cleanup()));
  assert.ok(!run.timedOut && run.ok, `session did not complete: ${run.timedOut ?? ''} ${run.stderr.slice(-1500)}`);
  assert.equal(run.compactionRequests.length, 1, 'one summarizer request');

  // The Read tool really returned the .env (so the history holds a tool result with it).
  const toolResults = run.normalRequests.flatMap((r) => (r.body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])))
    .filter((b) => b.type === 'tool_result').map((b) => textOf(b.content));
  assert.ok(toolResults.some((x) => x.includes('TWILIO_AUTH_TOKEN')), 'the Read tool result did not reach the API');

  const dir = path.join(run.historyRoot, run.sessionId);
  const written = run.history.filter((f) => f.path.startsWith(dir + path.sep)).map((f) => ({ rel: f.rel, text: fs.readFileSync(f.path, 'utf8') }));
  const history = written.filter((f) => f.rel.endsWith('.md') && !f.rel.endsWith('.summary.md'));
  assert.equal(history.length, 1, `history files: ${written.map((f) => f.rel)}`);
  const rows = summaryRows(run).map((r) => ({ rel: 'summary row', text: textOf(r.message.content) }));
  assert.equal(rows.length, 1, 'one summary row');
  assert.ok(written.some((f) => f.rel.endsWith('log.jsonl')), 'no log.jsonl');

  for (const where of [...written, ...rows]) {
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!where.text.includes(value), `${where.rel} holds the ${name} ${value}`);
    }
  }
  t.diagnostic(`none of the ${Object.keys(secrets).length} credentials in ${[...written.map((f) => f.rel), 'the summary row']}`);

  const hist = history[0].text;
  for (const kind of ['telegram-bot-token', 'grafana-token', 'password-assignment', 'twilio-auth-token', 'aws-secret-key']) {
    assert.ok(hist.includes(`[REDACTED:${kind}]`), `the history lacks [REDACTED:${kind}]`);
  }
  for (const text of lookalikes) {
    assert.ok(hist.includes(text), `the history changed the look-alike ${JSON.stringify(text)}`);
    assert.ok(rows[0].text.includes(text), `the summary row's verbatim block changed the look-alike ${JSON.stringify(text)}`);
  }
  assert.ok(rows[0].text.includes('[REDACTED:telegram-bot-token]'), 'the verbatim block does not carry the redacted prompt');
  t.diagnostic('the history names each kind; the look-alikes are in the history and the verbatim block unchanged');
  failed = false;
});
