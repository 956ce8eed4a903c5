// Plugin copies of the repo's mod with one fault each, for tests/e2e/faults.test.mjs.
//
// A copy holds the repo's .claude-plugin/, mod.json, js/ and pkg/, then:
//   wasm: 'missing' | 'corrupt'   deletes pkg/compact_plus_bg.wasm, or overwrites it with bytes that are no wasm;
//   trapPkg: dir                  takes the .wasm and its glue from a test-only build (`--features trap`, see
//                                 buildTrapPkg): an event carrying COMPACT_PLUS_FORCE_TRAP panics inside `start`;
//   fault: { reject, answer, event }
//                                 the shim is the repo's js/ with a marked fault layer added in two places
//                                 of js/compact-plus.js and one of js/event.js, nothing else changed
//                                 (injectFaultLayer):
//     reject  list of call ops (`read`, `write`, `usage`, `compact`, `command`, ... or '*') whose `$` call
//             rejects instead of being made;
//     answer  { op: value }: the `$` call is not made and answers this value instead (odd usage shapes);
//     event   { hook: rewrite name }: the event JSON the core's `start` sees is rewritten (see EVENT_REWRITES);
//             the engine's own `next` still gets the event the engine sent, so the engine is untouched.
// Every time the layer acts it says so in the debug log: "compact-plus FAULT LAYER: ...".
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './reference-mod.mjs';

export const FAULT_LOG_PREFIX = 'compact-plus FAULT LAYER:';
export const TRAP_MARKER = 'COMPACT_PLUS_FORCE_TRAP';

// Rewrites of the session.compact event as the core sees it. Each is source text of a function
// (ev) => ev over the parsed event, placed in the copy's shim.
export const EVENT_REWRITES = {
  // An object that looks like a list (numeric keys and a length) but is none.
  'messages-not-array': `(ev) => ({ ...ev, messages: { 0: ev.messages?.[0] ?? null, length: 1, note: 'not an array' } })`,
  // A null before, between and after every message.
  'null-entries': `(ev) => ({ ...ev, messages: [null, ...(ev.messages ?? []).flatMap((m) => [m, null])] })`,
  // Every message's text is a number.
  'text-numbers': `(ev) => ({ ...ev, messages: (ev.messages ?? []).map((m, i) => ({ ...m, text: 4200 + i })) })`,
  // One person's message of 10 MB (10,485,760 characters) ahead of the conversation.
  'message-10mb': `(ev) => ({ ...ev, messages: [{ role: 'user', text: 'BIG-MESSAGE-START ' + 'x'.repeat(10 * 1024 * 1024 - 34) + ' BIG-MESSAGE-END', toolUses: [], handle: 'fault-big' }, ...(ev.messages ?? [])] })`,
  // 4,096 messages: 4,094 made-up turns (user and assistant by turns), then the engine's last two.
  'messages-4096': `(ev) => { const own = (ev.messages ?? []).slice(-2); const made = Array.from({ length: 4096 - own.length }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', text: (i % 2 ? 'answer ' : 'MANY-') + i, toolUses: [], handle: 'fault-' + i })); return { ...ev, messages: [...made, ...own] } }`,
};

const IMPORT_RE = /import \{[^}]*\} from '\.\.\/pkg\/compact_plus\.js'\n/;
// Where the core first sees an event: the hook run's `json()` in js/event.js.
const EVENT_RE = /\n    json\(\) \{\n/;
const PERFORM_RE = /\nfunction perform\(\$, call, signal\) \{\n/;

/**
 * The repo's shim texts (js/compact-plus.js, js/event.js) with the fault layer for `fault` added
 * (throws if the shim's shape changed).
 */
export function injectFaultLayer(shim, eventJs, fault) {
  if (!IMPORT_RE.test(shim)) throw new Error('fault layer: the shim no longer imports ../pkg/compact_plus.js');
  if (!EVENT_RE.test(eventJs)) throw new Error('fault layer: js/event.js has no `    json() {` (where the core first sees an event)');
  if (!PERFORM_RE.test(shim)) throw new Error('fault layer: the shim has no `function perform($, call, signal) {`');
  const rewrites = Object.entries(fault.event ?? {}).map(([hook, name]) => {
    if (!EVENT_REWRITES[name]) throw new Error(`fault layer: no event rewrite ${name}`);
    return `  ${JSON.stringify(hook)}: [${JSON.stringify(name)}, ${EVENT_REWRITES[name]}],`;
  });
  const layer = `
// ==== FAULT LAYER (test-only, written by tests/e2e/fault-mods.mjs; never shipped) ====
const __FAULT = ${JSON.stringify({ reject: fault.reject ?? [], answer: fault.answer ?? {} })}
const __FAULT_EVENTS = {
${rewrites.join('\n')}
}
const __faultNotes = []
// The core's first sight of an event, rewritten (js/event.js \`json()\` calls it); the engine's
// next keeps the real one.
globalThis.__compactPlusFaultEvent = (hook, e) => {
  const rewrite = __FAULT_EVENTS[hook]
  if (rewrite) {
    e = rewrite[1](e)
    __faultNotes.push(\`event \${hook} rewritten (\${rewrite[0]}, \${JSON.stringify(e).length} chars)\`)
  }
  return e
}
// One \`$\` call: { value } in its place, or null to make it.
function __faultCall(call) {
  if (__FAULT.reject.includes(call.op) || __FAULT.reject.includes('*')) {
    return { note: \`\${call.op} rejected\`, value: Promise.reject(new Error(\`fault layer: \${call.op} rejected\`)) }
  }
  if (Object.hasOwn(__FAULT.answer, call.op)) {
    return { note: \`\${call.op} answered \${JSON.stringify(__FAULT.answer[call.op])}\`, value: Promise.resolve(__FAULT.answer[call.op]) }
  }
  return null
}
// ==== end of the FAULT LAYER ====
`;
  // The layer after the import; the hook run's json() sees the event as the layer rewrote it.
  const eventOut = eventJs.replace(EVENT_RE, '\n    json() {\n      // FAULT LAYER: the event as the core sees it.\n      const e = globalThis.__compactPlusFaultEvent(hook, run.e)\n');
  let out = shim.replace(IMPORT_RE, (m) => `${m}${layer}`);
  out = out.replace(PERFORM_RE, () => `\nfunction perform($, call, signal) {
  // FAULT LAYER: report what it did, then maybe stand in for the call.
  for (const note of __faultNotes.splice(0)) $.ui.log(\`${FAULT_LOG_PREFIX} \${note}\`, { to: 'debug' })
  const __fault = __faultCall(call)
  if (__fault) {
    $.ui.log(\`${FAULT_LOG_PREFIX} \${__fault.note}\`, { to: 'debug' })
    return __fault.value
  }
`);
  return [out, eventOut];
}

function copyDir(from, to) {
  fs.cpSync(from, to, { recursive: true, dereference: true });
}

/**
 * A plugin copy of the repo's mod in `dir` (created), with the given fault. Returns `dir`.
 * opts: { fault, wasm: 'missing' | 'corrupt', trapPkg }
 */
export function makeFaultMod(dir, opts = {}) {
  fs.mkdirSync(dir, { recursive: true });
  for (const part of ['.claude-plugin', 'js', 'pkg']) copyDir(path.join(REPO_ROOT, part), path.join(dir, part));
  fs.copyFileSync(path.join(REPO_ROOT, 'mod.json'), path.join(dir, 'mod.json'));
  fs.rmSync(path.join(dir, '.claude-plugin', 'types'), { recursive: true, force: true });
  const wasm = path.join(dir, 'pkg', 'compact_plus_bg.wasm');
  if (opts.wasm === 'missing') fs.rmSync(wasm);
  if (opts.wasm === 'corrupt') {
    // The wasm magic and version, then garbage: it fails to compile, not to be found.
    fs.writeFileSync(wasm, Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.from('this is no wasm section '.repeat(64))]));
  }
  if (opts.trapPkg) {
    fs.copyFileSync(path.join(opts.trapPkg, 'compact_plus_bg.wasm'), wasm);
    fs.copyFileSync(path.join(opts.trapPkg, 'compact_plus.js'), path.join(dir, 'pkg', 'compact_plus.js'));
  }
  if (opts.fault) {
    const shimPath = path.join(dir, 'js', 'compact-plus.js');
    const eventPath = path.join(dir, 'js', 'event.js');
    const [shim, eventJs] = injectFaultLayer(fs.readFileSync(shimPath, 'utf8'), fs.readFileSync(eventPath, 'utf8'), opts.fault);
    fs.writeFileSync(shimPath, shim);
    fs.writeFileSync(eventPath, eventJs);
  }
  return dir;
}

const cargoBin = () => path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin');

/** True when cargo and wasm-bindgen are on PATH (or in ~/.cargo/bin). */
export function haveWasmToolchain() {
  const env = { ...process.env, PATH: `${cargoBin()}${path.delimiter}${process.env.PATH}` };
  try {
    execFileSync('cargo', ['--version'], { env, stdio: 'ignore' });
    execFileSync('wasm-bindgen', ['--version'], { env, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the test-only trap wasm (`--features trap`) from the repo's sources with the shipped
 * profile and wasm-bindgen flags (as scripts/build does), into `outDir`; returns outDir.
 * The target dir (default <repo>/target/trap, or $E2E_TRAP_TARGET) is kept, so a rebuild with
 * unchanged sources takes a second. $E2E_TRAP_PKG names an already built pkg folder instead.
 */
export function buildTrapPkg(outDir) {
  if (process.env.E2E_TRAP_PKG) return process.env.E2E_TRAP_PKG;
  const env = { ...process.env, PATH: `${cargoBin()}${path.delimiter}${process.env.PATH}` };
  const targetDir = process.env.E2E_TRAP_TARGET ?? path.join(REPO_ROOT, 'target', 'trap');
  execFileSync('cargo', ['build', '--locked', '--quiet', '--profile', 'wasm-release', '--lib', '--target', 'wasm32-unknown-unknown',
    '--features', 'trap', '--target-dir', targetDir], { cwd: REPO_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  fs.mkdirSync(outDir, { recursive: true });
  execFileSync('wasm-bindgen', ['--target', 'web', '--out-name', 'compact_plus', '--omit-default-module-path',
    '--remove-name-section', '--remove-producers-section', '--experimental-reset-state-function', '--out-dir', outDir,
    path.join(targetDir, 'wasm32-unknown-unknown', 'wasm-release', 'compact_plus.wasm')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  // The constant exports scripts/pkg-finish.mjs appends, as the repo's glue has them.
  const repoGlue = fs.readFileSync(path.join(REPO_ROOT, 'pkg', 'compact_plus.js'), 'utf8');
  const at = repoGlue.indexOf('\n// The reference lib.js constants');
  if (at >= 0) fs.appendFileSync(path.join(outDir, 'compact_plus.js'), repoGlue.slice(at));
  return outDir;
}
