/* tslint:disable */
/* eslint-disable */

export function __wbg_reset_state(): void;

/**
 * Forgets call `id` (its shim gave up on it).
 */
export function cancel(id: number): void;

/**
 * Resumes call `id` with the answers (JSON) to its last calls, and the texts
 * the shim handed beside them (UTF-8, one after the other: a file's text
 * crosses as bytes the shim encoded, neither escaped into JSON nor copied a
 * char at a time).
 */
export function resume(id: number, answers: string, texts: Uint8Array | number[]): string;

/**
 * Starts a call on the core's handoff (JSON): its first step,
 * `{"id","calls"}`, or `{"done": answer}`.
 */
export function start(recall: string): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly cancel: (a: number) => void;
    readonly resume: (a: number, b: number, c: number, d: number, e: number) => [number, number];
    readonly start: (a: number, b: number) => [number, number];
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

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
