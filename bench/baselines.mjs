// Straightforward JS equivalents of the core's redaction and coverage audit, the yardsticks the
// issue measures those passes against ("<= 0.5x a straightforward JS equivalent"). Written the way
// a JS mod would do it: one global regex per rule, `replace` and `matchAll`, a Map, `includes`.
// They approximate the Rust rules (src/redact/, src/audit/) in kind and count, not byte for
// byte: they set the cost of doing the same job in JS, they are not a second implementation.

/** [kind, regex, replacement] in priority order, as gitleaks names them. */
const REDACT_RULES = [
  ['private-key', /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/g],
  ['aws-access-key-id', /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g],
  ['aws-secret-key', /(aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})/gi, true],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g],
  ['gitlab-token', /\bglpat-[A-Za-z0-9_-]{20,}\b/g],
  ['slack-token', /\bxox[baprs]-[A-Za-z0-9-]{10,}\b/g],
  ['slack-webhook', /https:\/\/hooks\.slack\.com\/(?:services|workflows)\/[A-Za-z0-9+/]{43,}/g],
  ['stripe-key', /\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,99}\b/g],
  ['anthropic-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['npm-token', /\bnpm_[A-Za-z0-9]{36}\b/g],
  ['pypi-token', /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g],
  ['authorization', /(authorization["']?\s*:\s*(?:bearer |basic |token )?)([A-Za-z0-9._~+/=-]{8,})/gi, true],
  ['url-credentials', /([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)([^\s@/]+)(?=@)/gi, true],
  ['password-assignment', /((?:password|passwd|pwd)["']?\s*[:=]\s*["']?)([^\s"',;]{3,})/gi, true],
  ['secret-assignment', /((?:secret|client_secret)["']?\s*[:=]\s*["']?)([^\s"',;]{6,})/gi, true],
  ['token-assignment', /((?:token|api_?key|access_?key)["']?\s*[:=]\s*["']?)([A-Za-z0-9._~+/-]{6,})/gi, true],
]

/** Every credential in `text` replaced, one regex pass per rule. */
export function redactJs(text) {
  let out = text
  for (const [kind, re, keep] of REDACT_RULES) {
    out = out.replace(re, keep ? (m, ...g) => `${g[0]}[REDACTED:${kind}]` : `[REDACTED:${kind}]`)
  }
  return out
}

const MACHINE = ['<system-reminder>', '<task-notification>', '<command-', '<local-command', '[Request interrupted', 'Caveat:', 'This session is being continued']
const BODY_RESULT_TOOLS = new Set(['Read', 'Grep', 'Glob', 'NotebookRead', 'WebFetch', 'WebSearch'])
const SCANS = [
  ['path', /(?:~|\.{1,2})?(?:\/[\w.@+-]+){2,}|\b[\w.-]+\/[\w./-]*\.[A-Za-z0-9]{1,8}\b/g],
  ['url', /\bhttps?:\/\/[^\s<>"'`)\]]+/g],
  ['commit', /\b[0-9a-f]{7,40}\b/g],
  ['code', /`([^`\n]{3,80})`/g],
]
const ERROR_LINE = /^.*\b(?:error(?:\[E\d+\])?|Error|ERROR|panicked|Traceback|FAIL(?:ED)?|Exception)\b.*$/gm

/**
 * What the conversation named that the kept text dropped: identifiers from the person, the
 * assistant and the tools, counted, filtered by `includes` against the kept text, most mentioned
 * and most recent first.
 */
export function auditJs(messages, kept) {
  const found = new Map()
  const add = (kind, id, at) => {
    const f = found.get(id)
    if (f) {
      f.count++
      f.at = at
    } else found.set(id, { kind, id, count: 1, at })
  }
  const scan = (text, at, errors) => {
    if (!text) return
    if (text.includes('<system-reminder>')) text = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    for (const [kind, re] of SCANS) for (const m of text.matchAll(re)) add(kind, m[1] ?? m[0], at)
    if (errors) for (const m of text.matchAll(ERROR_LINE)) add('error', m[0].trim().slice(0, 200), at)
  }
  messages.forEach((m, at) => {
    if (!m) return
    const text = typeof m.text === 'string' ? m.text.trim() : ''
    if (m.role === 'user' && !MACHINE.some((p) => text.startsWith(p))) scan(text, at, true)
    else if (m.role === 'assistant') scan(text, at, true)
    for (const u of m.toolUses ?? []) {
      if (u.input) scan(JSON.stringify(u.input), at, false)
      if (typeof u.text === 'string') scan(u.text, at, !BODY_RESULT_TOOLS.has(u.tool))
    }
  })
  const keptText = kept.join('\n')
  return [...found.values()]
    .filter((f) => !keptText.includes(f.id))
    .sort((a, b) => b.count - a.count || b.at - a.at)
    .slice(0, 40)
}
