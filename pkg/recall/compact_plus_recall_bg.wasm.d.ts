/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const cancel: (a: number) => void;
export const resume: (a: number, b: number, c: number, d: number, e: number) => [number, number];
export const start: (a: number, b: number) => [number, number];
export const __wbindgen_externrefs: WebAssembly.Table;
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_start: () => void;
