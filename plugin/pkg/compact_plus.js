/* @ts-self-types="./compact_plus.d.ts" */

/**
 * The constants, for the build to write out as `export const` lines (wasm
 * exports only functions): the reference's, the recall tool's spec, and the
 * slash commands the shim registers at load.
 * @returns {any}
 */
export function __constants() {
    let ret;
    __wbg_call_guard();
    ret = wasm.__constants();
    return ret;
}

export function __wbg_reset_state () {
    __wbg_instance_id++;
    cachedUint8ArrayMemory0 = null;
    if (typeof numBytesDecoded !== 'undefined') numBytesDecoded = 0;
    if (typeof WASM_VECTOR_LEN !== 'undefined') WASM_VECTOR_LEN = 0;
    __wbg_reinit_scheduled = false;
    wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());
    wasm = wasmInstance.exports;
    wasm.__wbindgen_start();
}

/**
 * @param {number} id
 */
export function cancel(id) {
    __wbg_call_guard();
    wasm.cancel(id);
}

/**
 * Starts the module over with these options (`register(on, options)`), the
 * state a lost instance carried (`carry` of its last step; `""` for none) and
 * the first id the new instance may give a hook.
 * @param {string} options_json
 * @param {string} carried_json
 * @param {number} first_id
 */
export function init(options_json, carried_json, first_id) {
    const val3 = +first_id;
    let ptr0, len0, ptr1, len1;
    try {
        ptr0 = passStringToWasm0(options_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len0 = WASM_VECTOR_LEN;
        ptr1 = passStringToWasm0(carried_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len1 = WASM_VECTOR_LEN;
    } catch (e) {
        if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
        if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
        throw e;
    }
    __wbg_call_guard();
    wasm.init(ptr0, len0, ptr1, len1, val3);
}

/**
 * The instance's linear memory in bytes: it only grows, so the core tells the
 * shim to rebuild the instance (its state carried) once a large compaction has
 * made it large (`handBack`); the shim logs the figure after.
 * @returns {number}
 */
export function memoryBytes() {
    let ret;
    __wbg_call_guard();
    ret = wasm.memoryBytes();
    return ret;
}

/**
 * Resumes hook `id` with the answers to its calls (JSON list of `{ok}`/`{err}`).
 * @param {number} id
 * @param {string} answers_json
 * @returns {string}
 */
export function resume(id, answers_json) {
    let deferred3_0;
    let deferred3_1;
    try {
        const val2 = +id;
        const ptr0 = passStringToWasm0(answers_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        const len0 = WASM_VECTOR_LEN;
        let ret;
        __wbg_call_guard();
        ret = wasm.resume(val2, ptr0, len0);
        deferred3_0 = ret[0];
        deferred3_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        __wbg_call_guard();
        wasm.__wbindgen_free(deferred3_0, deferred3_1, 1);
    }
}

/**
 * `resume` for the answers to a `pack` call: the texts come as UTF-8 `texts`,
 * their byte lengths in the answer (see `Call::Pack`).
 * @param {number} id
 * @param {string} answers_json
 * @param {Uint8Array | number[]} texts
 * @returns {string}
 */
export function resumePacked(id, answers_json, texts) {
    let deferred4_0;
    let deferred4_1;
    try {
        const val3 = +id;
        let ptr0, len0, ptr1, len1;
        try {
            ptr0 = passStringToWasm0(answers_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passArray8ToWasm0(texts, wasm.__wbindgen_malloc);
            len1 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
            if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
            throw e;
        }
        let ret;
        __wbg_call_guard();
        ret = wasm.resumePacked(val3, ptr0, len0, ptr1, len1);
        deferred4_0 = ret[0];
        deferred4_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        __wbg_call_guard();
        wasm.__wbindgen_free(deferred4_0, deferred4_1, 1);
    }
}

/**
 * Starts `hook` on its event (JSON); answers `{id, calls}`, `{done}` or `{lost}`.
 * @param {string} hook
 * @param {string} event_json
 * @returns {string}
 */
export function start(hook, event_json) {
    let deferred3_0;
    let deferred3_1;
    try {
        let ptr0, len0, ptr1, len1;
        try {
            ptr0 = passStringToWasm0(hook, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passStringToWasm0(event_json, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len1 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
            if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
            throw e;
        }
        let ret;
        __wbg_call_guard();
        ret = wasm.start(ptr0, len0, ptr1, len1);
        deferred3_0 = ret[0];
        deferred3_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        __wbg_call_guard();
        wasm.__wbindgen_free(deferred3_0, deferred3_1, 1);
    }
}

/**
 * The text of a `write` call that names it by `textRef` (see `start`).
 * @param {number} text_ref
 * @returns {string}
 */
export function takeText(text_ref) {
    let deferred1_0;
    let deferred1_1;
    try {
        let ret;
        __wbg_call_guard();
        ret = wasm.takeText(text_ref);
        deferred1_0 = ret[0];
        deferred1_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        __wbg_call_guard();
        wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
}
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },
        __wbg_parse_c3f72b5a24f83c01: function() { return handleError(function (arg0, arg1) {
            const ret = JSON.parse(getStringFromWasm0(arg0, arg1));
            return ret;
        }, arguments); },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },
    };
    return {
        __proto__: null,
        "./compact_plus_bg.js": import0,
    };
}

function __wbg_call_guard() {
    if (__wbg_reinit_scheduled) {
        __wbg_reset_state();
        return;
    }
}


let __wbg_instance_id = 0;

function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    wasm.__wbindgen_externrefs.set(idx, obj);
    return idx;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {
        const idx = addToExternrefTable0(e);
        wasm.__wbindgen_exn_store(idx);
    }
}

function passArray8ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 1, 1) >>> 0;
    getUint8ArrayMemory0().set(arg, ptr / 1);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

let __wbg_reinit_scheduled = false;

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += bytes.length;
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
        cachedTextDecoder.decode();
        numBytesDecoded = bytes.length;
    }
    return cachedTextDecoder.decode(bytes);
}

const cachedTextEncoder = new TextEncoder();


let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;
    wasmModule = module;
    cachedUint8ArrayMemory0 = null;
    wasm.__wbindgen_start();
    return wasm;
}


function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for `initSync()`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}


export { initSync };

// The reference lib.js constants, as the Rust core defines them.
export const CHARS_PER_TOKEN = 4;
export const COMMANDS = [{"argumentHint":"[text]","description":"compact-plus: keep a text word for word after every compaction (alone: list the pins)","name":"pin"},{"argumentHint":"<n>","description":"compact-plus: remove a pin (its number from /pin)","name":"unpin"},{"argumentHint":"<words>","description":"compact-plus: search this session's history and this project's earlier sessions, for you alone","name":"recall"}];
export const NEXT_FIRST = ["prompt.context","turn.complete"];
export const RECALL_TOOL = {"description":"Search this session's history: the full text of everything earlier compactions summarized away (messages, tool calls and their results). Use it when the summary lacks an exact detail: a command, an error message, a path, a number, what the user said word for word. With scope \"project\" it searches this project's earlier sessions instead (Claude Code transcripts of this folder, Codex sessions started here, OpenCode prompts that name a file here, summaries compact-plus saved), newest first: call it with no query to list them (tool, date, first and last request, compactions), then search, and read one message in full with session and message. Give words (case-insensitive; a \"quoted phrase\" is one term; messages holding more of the words rank first) or, with regex: true, a regex matched line by line (case-insensitive unless it starts with (?-i)). Narrow with role (user, assistant or tool). Answers the total count and the best excerpts, each with its file and line so you can Read more around it.","inputSchema":{"properties":{"limit":{"description":"How many messages to show excerpts of (default 8)","maximum":50,"minimum":1,"type":"integer"},"message":{"description":"scope project, with session: show this message in full instead of searching","minimum":1,"type":"integer"},"offset":{"description":"with message: the character to start at, to read on","minimum":0,"type":"integer"},"query":{"description":"Words to find (all cases), a \"quoted phrase\", or with regex: true a regex","type":"string"},"regex":{"description":"Read query as a regex (Rust syntax, matched per line). Default false","type":"boolean"},"role":{"description":"Only the user's messages, the assistant's own text, or tool calls and results","enum":["user","assistant","tool"],"type":"string"},"scope":{"description":"session (default): what this session's compactions moved out; project: this project's earlier sessions","enum":["session","project"],"type":"string"},"session":{"description":"scope project: only the earlier session whose id starts with this","type":"string"}},"type":"object"},"mcp":false,"name":"compact_plus_recall"};
export const VERBATIM_CLOSE = "</user-messages-verbatim>";
export const VERBATIM_OPEN = "<user-messages-verbatim>";
