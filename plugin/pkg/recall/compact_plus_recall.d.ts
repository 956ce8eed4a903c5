/* tslint:disable */
/* eslint-disable */

export function __wbg_reset_state(): void;

/**
 * Searches the history files (`paths[i]` holds `texts[i]`) and answers the
 * text the model reads. `role` is `user`, `assistant`, `tool` or empty (all).
 * A pattern that cannot run answers why, starting `recall:`.
 */
export function recall(paths: string[], texts: string[], query: string, regex: boolean, role: string, limit: number): string;

/**
 * Recall across this project's earlier sessions. `request` is the core's
 * (the sources, their byte ranges, the query or the message to show);
 * `texts` holds every source's ranges in turn, and `missing[i]` is 1 where
 * the read of text `i` failed.
 */
export function recallProject(request: string, texts: string[], missing: Uint8Array | number[]): string;

/**
 * Resumes the walk with the answers (JSON, as the core takes them).
 */
export function walkResume(answers: string): string;

/**
 * Starts the walk of a project recall (`walk::project`): answers its first
 * step as the core's are (`{"calls":[…]}`), or `{"done":…}`: `{"answer"}`,
 * or the `sources` to read, their `deadlineMs` and the `request` for
 * `recallProject`.
 */
export function walkStart(input: string, history_dir: string): string;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly recall: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number];
    readonly recallProject: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
    readonly walkResume: (a: number, b: number) => [number, number];
    readonly walkStart: (a: number, b: number, c: number, d: number) => [number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_alloc: () => number;
    readonly __externref_drop_slice: (a: number, b: number) => void;
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
