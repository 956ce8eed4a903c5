#!/usr/bin/env node
// Fake Anthropic Messages API for offline end-to-end runs of the real Claude Code CLI, adapted
// from /work/shared/e2e-kit/fake-api.mjs. Listens on 127.0.0.1 only. Node 20, no dependencies.
//
// As a library (what harness.mjs does):
//   const fake = await startFakeApi({ knobs: { inputTokens: 50 }, logPath });
//   fake.url, fake.port, fake.requests (every request, parsed), fake.configure({...}), await fake.close()
// From a shell (like the kit's):
//   node fake-api.mjs [--port 0] [--log requests.jsonl] [--port-file FILE]
//   env FAKE_INPUT_TOKENS, FAKE_INPUT_TOKENS_SEQ, FAKE_REPLY set the starting knobs;
//   POST /__fake/config {knobs} changes them at run time; GET /__fake/requests lists the requests.
//
// Knobs:
//   inputTokens            usage.input_tokens of normal answers: a number (default 50), or "estimate"
//                          (request JSON bytes / 4, like a real count).
//   inputTokensSeq         list of input_tokens consumed one per normal request before inputTokens.
//   compactionInputTokens  usage.input_tokens of summarizer answers (default 0).
//   cacheReadInputTokens   usage.cache_read_input_tokens of normal answers (default 0).
//   reply                  text of normal answers (default "Hello from the fake API.").
//   summary                <summary> body of summarizer answers.
//   compactText            the whole text of summarizer answers instead (a preamble before
//                          <summary>, no tags at all, ...), as a model may answer.
//   compactFail            what summarizer requests get instead of a summary, as the kit's
//                          failures/fake-api-fail.mjs answers them (measured against 2.1.328 there,
//                          failures/README.md section 1): 'ptl' (400 "prompt is too long: 1050000
//                          tokens > 1000000 maximum"), '500' (500 api_error), '529' (529
//                          overloaded_error), 'empty' (200, an empty text block), 'nocontent' (200, no
//                          content block), 'nosummary' (200, "I cannot summarize this conversation.":
//                          a reply without a <summary> block, the kit's text; the engine asks once
//                          more, then installs it as the summary). compactFailTimes: how many fail
//                          (default -1: all).
//   rescueFail / rescueReply  the same for compact-plus's own rescue requests ($.model.complete,
//                          kind 'rescue', known by the rescue's system prompt), and the text they get.
//   rescueFailPart         fail (500) only the rescue request for this part of a long conversation
//                          (its prompt says `This is part <k> of <n>`).
//   rescueDelayMs          how long a rescue request waits before it is answered (a slow model).
//   ptlAbove               a real-API-like limit, as the kit's fake-api-fail.mjs has it: any
//                          /v1/messages whose body is over ptlAbove*4 bytes gets HTTP 400 "prompt is
//                          too long: <bytes/4> tokens > <ptlAbove> maximum" (kit r-ptl-real: the engine
//                          then compacts, trigger auto). compactPtlAbove: the same, summarizer only.
//   toolUseQueue           list of {name, input}: the next normal turn-start request(s) answer with it.
//
// What it answers:
//   * a summarizer (compaction) request: `<analysis>…</analysis><summary>{summary}</summary>`;
//   * a turn whose prompt text holds `PROBE_TOOL:<shell command>`: a Bash tool_use running it (run
//     the CLI with --allowedTools Bash so it really runs);
//   * a turn whose prompt text holds `FAKE_TOOL_USE:{"name":"...","input":{...}}` (JSON to the end
//     of that line): a tool_use of that tool name and input, whatever the tool;
//     `FAKE_TOOL_USES:[{…},{…}]`: those tool_uses in one answer, as a model asks tools in parallel
//     (ids toolu_fake_<n>, toolu_fake_<n>b, …: with an id ending `_<k>` the CLI 2.1.328 paired both
//     results with the first id and dropped one, "ensureToolResultPairing: repaired");
//   * the follow-up request carrying the tool_result(s): the normal text reply;
//   * anything else on /v1/messages: the normal text reply.
// "Prompt text" is the person's text in the last non-system message when it is a user message
// without tool_result blocks: system-reminder blocks, and blocks that are a compaction summary (they
// may quote older prompts word for word) are left out, so a marker answers only the turn it is in.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const COMPACTION_MARKER = 'Your task is to create a detailed summary of the conversation so far';
export const DEFAULT_SUMMARY = '1. Primary Request and Intent: FAKE-SUMMARY of the conversation so far.';
const SUMMARY_ROW_START = 'This session is being continued from a previous conversation';

export function defaultKnobs() {
  return {
    inputTokens: 50,
    inputTokensSeq: [],
    compactionInputTokens: 0,
    cacheReadInputTokens: 0,
    reply: 'Hello from the fake API.',
    summary: DEFAULT_SUMMARY,
    toolUseQueue: [],
    compactFail: null,
    compactFailTimes: -1,
    rescueFail: null,
    ptlAbove: null,
    compactPtlAbove: null,
    rescueReply: '## Decisions\n- fake rescue summary: KIWI-1001 and LIME-2002 are the fruits to keep\n## Open Questions\n- No open questions.',
  };
}

/** compact-plus's rescue ($.model.complete): its system prompt says so (src/compaction/rescue.rs SYSTEM). */
export const RESCUE_MARKER = 'The engine\'s own summarizer failed; you are the rescue.';
export function isRescueRequest(body) {
  return JSON.stringify(body?.system ?? '').includes(RESCUE_MARKER);
}

export function textOfContent(content) {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (b && b.type === 'text' ? b.text : '')).join('\n');
}

/** The messages of a request without the mid-conversation `system` role ones v2.1.328 sends. */
export function conversation(body) {
  return (body?.messages ?? []).filter((m) => m && m.role !== 'system');
}

export function isCompactionRequest(body) {
  const msgs = conversation(body);
  const last = msgs[msgs.length - 1];
  const t = last ? textOfContent(last.content) : '';
  return t.includes(COMPACTION_MARKER) || (/<analysis>/.test(t) && /<summary>/.test(t));
}

/** The person's text of the turn this request starts, or null when it answers a tool_result. */
export function promptText(body) {
  const msgs = conversation(body);
  const last = msgs[msgs.length - 1];
  if (!last || last.role !== 'user') return null;
  const blocks = Array.isArray(last.content) ? last.content : [{ type: 'text', text: String(last.content ?? '') }];
  if (blocks.some((b) => b?.type === 'tool_result')) return null;
  return blocks
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .filter((t) => !t.trimStart().startsWith('<system-reminder>') && !t.includes(SUMMARY_ROW_START)
      && !t.includes('<user-messages-verbatim>') && !t.startsWith('compact-plus saved the conversation'))
    .join('\n');
}

/** The tool_uses this request should be answered with, or null. */
export function toolUsesFor(body, knobs) {
  const text = promptText(body);
  const many = text !== null && /FAKE_TOOL_USES:(\[[^\n]*\])/.exec(text);
  if (many) return JSON.parse(many[1]).map((spec) => ({ name: String(spec.name), input: spec.input ?? {} }));
  const one = toolUseFor(body, knobs);
  return one ? [one] : null;
}

/** The tool_use this request should be answered with, or null. */
export function toolUseFor(body, knobs) {
  const text = promptText(body);
  if (text === null) return null;
  const fakeTool = /FAKE_TOOL_USE:(\{[^\n]*\})/.exec(text);
  if (fakeTool) {
    const spec = JSON.parse(fakeTool[1]);
    return { name: String(spec.name), input: spec.input ?? {} };
  }
  const probe = /PROBE_TOOL:([^\n]+)/.exec(text);
  if (probe) return { name: 'Bash', input: { command: probe[1].trim(), description: 'probe tool call' } };
  if (knobs.toolUseQueue?.length) return knobs.toolUseQueue.shift();
  return null;
}

function usage(knobs, outTokens, inputTokens, kind) {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: kind === 'normal' ? knobs.cacheReadInputTokens ?? 0 : 0,
    output_tokens: outTokens,
  };
}

/**
 * Starts the fake on 127.0.0.1. `requests` gets one entry per HTTP request:
 * { n, t, method, path, headers (no auth), body (parsed), kind ('normal'|'compaction'|'other'),
 *   inputTokens, toolUse, reply }.
 */
export async function startFakeApi({ port = 0, knobs = {}, logPath = null, quiet = true } = {}) {
  const state = { ...defaultKnobs(), ...knobs };
  const requests = [];
  let counter = 0;
  // Ids unique to this fake: a CLI resumed against a new fake must not get an id the transcript
  // already holds (the engine merges assistant rows of one message id on --resume).
  const run = Math.random().toString(36).slice(2, 8);
  const log = (entry) => { if (logPath) fs.appendFileSync(logPath, JSON.stringify(entry) + '\n'); };

  function answerMessages(req, res, body, entry) {
    const model = body?.model ?? 'claude-fake';
    const kind = isRescueRequest(body) ? 'rescue' : isCompactionRequest(body) ? 'compaction' : 'normal';
    const failMode = kind === 'compaction' ? state.compactFail : kind === 'rescue' ? state.rescueFail : null;
    const bodyBytes = Buffer.byteLength(JSON.stringify(body ?? {}));
    const limit = kind === 'compaction' && state.compactPtlAbove ? state.compactPtlAbove : state.ptlAbove;
    if (limit && Math.ceil(bodyBytes / 4) > limit) {
      Object.assign(entry, { kind, injected: 'ptl-limit', bodyBytes });
      return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${Math.ceil(bodyBytes / 4)} tokens > ${limit} maximum` } });
    }
    const part = kind === 'rescue' && state.rescueFailPart != null && JSON.stringify(body?.messages ?? []).includes(`This is part ${state.rescueFailPart} of `);
    if (part) Object.assign(entry, { kind, injected: 'part' });
    if (part) return later(state, () => sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: 'Internal server error' } }));
    const failing = failMode && (kind === 'rescue' || state.compactFailTimes < 0 || failed < state.compactFailTimes);
    const noSummary = failing && failMode === 'nosummary';
    if (failing && !noSummary) {
      if (kind === 'compaction') failed++;
      Object.assign(entry, { kind, injected: failMode });
      if (failMode === 'ptl') return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 1050000 tokens > 1000000 maximum' } });
      if (failMode === '500') return sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: 'Internal server error' } });
      if (failMode === '529') return sendJson(res, 529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
      return sendEmpty(res, body, `msg_fake_${run}_${entry.n}`, body?.model ?? 'claude-fake', failMode === 'nocontent');
    }
    let inputTokens = kind === 'compaction' ? state.compactionInputTokens
      : (state.inputTokensSeq.length ? state.inputTokensSeq.shift() : state.inputTokens);
    if (inputTokens === 'estimate') inputTokens = Math.ceil(JSON.stringify(body ?? {}).length / 4);
    const tools = kind === 'normal' ? toolUsesFor(body, state) : null;
    const tool = tools?.[0] ?? null;
    if (noSummary) {
      if (kind === 'compaction') failed++;
      Object.assign(entry, { kind, injected: failMode });
    }
    const text = noSummary ? 'I cannot summarize this conversation.'
      : kind === 'compaction' && typeof state.compactText === 'string' ? state.compactText
      : kind === 'compaction'
      ? `<analysis>fake analysis</analysis>\n<summary>\n${state.summary}\n</summary>`
      : kind === 'rescue' ? state.rescueReply : state.reply;
    Object.assign(entry, { kind, inputTokens, toolUse: tool, toolUses: tools, reply: tool ? null : text });
    if (kind === 'rescue' && state.rescueDelayMs) {
      const { rescueDelayMs } = state;
      return later({ rescueDelayMs }, () => answer(res, body, entry.n, model, tools, text, usage(state, 10, inputTokens, kind)));
    }
    answer(res, body, entry.n, model, tools, text, usage(state, 10, inputTokens, kind));
  }

  /** After the rescue's delay, if any. */
  function later({ rescueDelayMs }, fn) {
    if (rescueDelayMs) setTimeout(fn, rescueDelayMs);
    else fn();
  }

  function answer(res, body, n, model, tools, text, u) {
    const id = `msg_fake_${run}_${n}`;
    const tool = tools?.[0] ?? null;
    // Ids unique per fake instance (a resumed CLI must not meet an id its transcript holds), and
    // no `_<digits>` at the end, a second tool of one answer told by a letter: an id ending
    // `_<k>` was paired with another and dropped (tests/HOST.md, the recall tool's section).
    const toolBlocks = (tools ?? []).map((t, k) => ({ type: 'tool_use', id: `toolu_fake_${run}n${n}${k ? String.fromCharCode(97 + k) : ''}`, name: t.name, input: t.input }));
    if (!body?.stream) {
      const s = JSON.stringify({
        id, type: 'message', role: 'assistant', model,
        content: tool ? toolBlocks : [{ type: 'text', text }],
        stop_reason: tool ? 'tool_use' : 'end_turn', stop_sequence: null, usage: u,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_fake_${n}` });
      return res.end(s);
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive',
      'request-id': `req_fake_${n}`,
    });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
        usage: { ...u, output_tokens: 1 } },
    });
    if (tool) {
      toolBlocks.forEach((block, index) => {
        ev('content_block_start', { index, content_block: { ...block, input: {} } });
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        ev('content_block_stop', { index });
      });
      ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 10 } });
    } else {
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      const mid = Math.ceil(text.length / 2); // two deltas, so streaming code sees more than one chunk
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: text.slice(0, mid) } });
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: text.slice(mid) } });
      ev('content_block_stop', { index: 0 });
      ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 10 } });
    }
    ev('message_stop', {});
    res.end();
  }

  let failed = 0;
  // A 200 answer with an empty text block, or no content block at all (the kit's sendOddSummary).
  function sendEmpty(res, body, id, model, noContent) {
    const u = { input_tokens: 0, output_tokens: 0 };
    if (!body?.stream) {
      return sendJson(res, 200, { id, type: 'message', role: 'assistant', model, content: noContent ? [] : [{ type: 'text', text: '' }], stop_reason: 'end_turn', stop_sequence: null, usage: u });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', { message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...u, output_tokens: 1 } } });
    if (!noContent) {
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      ev('content_block_stop', { index: 0 });
    }
    ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: noContent ? 0 : 1 } });
    ev('message_stop', {});
    res.end();
  }

  const sendJson = (res, status, obj) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = { _raw: raw.slice(0, 2000) }; }
      const headers = { ...req.headers };
      delete headers['x-api-key'];
      delete headers.authorization;
      const urlPath = (req.url ?? '').split('?')[0];
      const entry = { n: ++counter, t: new Date().toISOString(), method: req.method, path: req.url, headers, body, kind: 'other' };
      try {
        if (urlPath === '/__fake/config' && req.method === 'POST') {
          Object.assign(state, body ?? {});
          return sendJson(res, 200, state);
        }
        if (urlPath === '/__fake/requests') return sendJson(res, 200, requests);
        requests.push(entry);
        if (urlPath === '/v1/messages' && req.method === 'POST') return answerMessages(req, res, body, entry);
        if (urlPath === '/v1/messages/count_tokens' && req.method === 'POST') {
          return sendJson(res, 200, { input_tokens: state.inputTokens === 'estimate' ? Math.ceil(raw.length / 4) : state.inputTokens });
        }
        if (urlPath === '/api/hello') { res.writeHead(200); return res.end(); }
        if (urlPath.startsWith('/v1/models')) return sendJson(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
        entry.kind = 'unknown-path';
        return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake: no route ${req.method} ${urlPath}` } });
      } catch (err) {
        entry.error = String(err?.stack ?? err);
        return sendJson(res, 500, { type: 'error', error: { type: 'api_error', message: `fake: ${err}` } });
      } finally {
        if (urlPath !== '/__fake/config' && urlPath !== '/__fake/requests') log(entry);
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const actualPort = server.address().port;
  if (!quiet) console.log(`fake-api listening on http://127.0.0.1:${actualPort}${logPath ? ` log=${logPath}` : ''}`);
  return {
    port: actualPort,
    url: `http://127.0.0.1:${actualPort}`,
    requests,
    knobs: state,
    configure(k) { if (k) Object.assign(state, k); return state; },
    close() {
      server.closeAllConnections?.();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const argOf = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
  const knobs = {};
  if (process.env.FAKE_INPUT_TOKENS) knobs.inputTokens = process.env.FAKE_INPUT_TOKENS === 'estimate' ? 'estimate' : Number(process.env.FAKE_INPUT_TOKENS);
  if (process.env.FAKE_INPUT_TOKENS_SEQ) knobs.inputTokensSeq = JSON.parse(process.env.FAKE_INPUT_TOKENS_SEQ);
  if (process.env.FAKE_REPLY) knobs.reply = process.env.FAKE_REPLY;
  const fake = await startFakeApi({
    port: Number(argOf('--port', process.env.FAKE_PORT ?? '0')),
    logPath: argOf('--log', process.env.FAKE_LOG ?? null),
    knobs,
    quiet: false,
  });
  const portFile = argOf('--port-file', process.env.FAKE_PORT_FILE ?? '');
  if (portFile) fs.writeFileSync(portFile, String(fake.port));
}
