/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const __constants: () => any;
export const cancel: (a: number) => void;
export const init: (a: number, b: number, c: number, d: number, e: number) => void;
export const memoryBytes: () => number;
export const resume: (a: number, b: number, c: number) => [number, number];
export const resumePacked: (a: number, b: number, c: number, d: number, e: number) => [number, number];
export const start: (a: number, b: number, c: number, d: number) => [number, number];
export const takeText: (a: number) => [number, number];
export const __wbindgen_exn_store: (a: number) => void;
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_start: () => void;
