/* tslint:disable */
/* eslint-disable */

/**
 * The constants, for the build to write out as `export const` lines (wasm
 * exports only functions): the reference's, the recall tool's spec, and the
 * slash commands the shim registers at load.
 */
export function __constants(): any;

export function __wbg_reset_state(): void;

export function cancel(id: number): void;

/**
 * Starts the module over with these options (`register(on, options)`), the
 * state a lost instance carried (`carry` of its last step; `""` for none) and
 * the first id the new instance may give a hook.
 */
export function init(options_json: string, carried_json: string, first_id: number): void;

/**
 * The instance's linear memory in bytes: it only grows, so the core tells the
 * shim to rebuild the instance (its state carried) once a large compaction has
 * made it large (`handBack`); the shim logs the figure after.
 */
export function memoryBytes(): number;

/**
 * Resumes hook `id` with the answers to its calls (JSON list of `{ok}`/`{err}`).
 */
export function resume(id: number, answers_json: string): string;

/**
 * `resume` for the answers to a `pack` call: the texts come as UTF-8 `texts`,
 * their byte lengths in the answer (see `Call::Pack`).
 */
export function resumePacked(id: number, answers_json: string, texts: Uint8Array | number[]): string;

/**
 * Starts `hook` on its event (JSON); answers `{id, calls}`, `{done}` or `{lost}`.
 */
export function start(hook: string, event_json: string): string;

/**
 * The text of a `write` call that names it by `textRef` (see `start`).
 */
export function takeText(text_ref: number): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __constants: () => any;
    readonly cancel: (a: number) => void;
    readonly init: (a: number, b: number, c: number, d: number, e: number) => void;
    readonly memoryBytes: () => number;
    readonly resume: (a: number, b: number, c: number) => [number, number];
    readonly resumePacked: (a: number, b: number, c: number, d: number, e: number) => [number, number];
    readonly start: (a: number, b: number, c: number, d: number) => [number, number];
    readonly takeText: (a: number) => [number, number];
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

export const CHARS_PER_TOKEN: number;
export const COMMANDS: object;
export const NEXT_FIRST: object;
export const RECALL_TOOL: object;
export const VERBATIM_CLOSE: string;
export const VERBATIM_OPEN: string;
