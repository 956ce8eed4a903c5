/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const __constants: () => any;
export const cancel: (a: number) => void;
export const carriedMessages: (a: any) => any;
export const cutMiddle: (a: any, b: any, c: any) => [number, number];
export const handoffInstructions: (a: any) => [number, number];
export const init: (a: number, b: number) => void;
export const joinInstructions: (a: any, b: any) => [number, number];
export const personText: (a: any) => [number, number];
export const pointerText: (a: any, b: any) => [number, number];
export const renderHistory: (a: any, b: any) => [number, number];
export const renderVerbatim: (a: any) => [number, number];
export const resume: (a: number, b: number, c: number) => [number, number];
export const sameText: (a: any, b: any) => number;
export const selectVerbatim: (a: any, b: any) => any;
export const stamp: (a: any) => [number, number];
export const start: (a: number, b: number, c: number, d: number) => [number, number];
export const startPacked: (a: number, b: number, c: number, d: number, e: number, f: number) => [number, number];
export const stripInstructionText: (a: any) => [number, number];
export const takeText: (a: number) => [number, number];
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_exn_store: (a: number) => void;
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __wbindgen_start: () => void;
