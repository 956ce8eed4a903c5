/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const recall: (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number, j: number) => [number, number];
export const recallProject: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
export const walkResume: (a: number, b: number) => [number, number];
export const walkStart: (a: number, b: number, c: number, d: number) => [number, number];
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_table_alloc: () => number;
export const __externref_drop_slice: (a: number, b: number) => void;
export const __wbindgen_start: () => void;
