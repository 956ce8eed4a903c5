#!/usr/bin/env node
// Builds the REFERENCE compact-plus mod (the JS implementation the project is measured against)
// as a plugin folder in a temp dir, at run time, from the seed text outside the repo. The seed's
// code is never copied into the repo: this file only knows how to cut it out.
//
// The seed (/work/shared/seeds/003_f633bb65b9bbd44c.txt, or $COMPACT_PLUS_SEED) holds index.js
// then lib.js, each line prefixed with its line number ("19import * as lib ..."), with a title
// line and blank separator lines around them. A file starts where the numbering restarts at 1.
//
// Usage as a library:  const dir = buildReferenceMod()          // fresh temp dir each call
// Usage from a shell:  node tests/e2e/reference-mod.mjs [dest]  // prints the folder
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..', '..');
export const SEED_PATH = process.env.COMPACT_PLUS_SEED
  ?? path.resolve(REPO_ROOT, '..', 'shared', 'seeds', '003_f633bb65b9bbd44c.txt');

/**
 * Splits the seed into its numbered files. A line continues the current file when it starts with
 * the next expected number (so a code line that itself starts with digits is still cut right);
 * a line starting with "1" otherwise opens a new file; anything else (title, separators) is dropped.
 */
export function splitSeed(text) {
  const files = [];
  let cur = null;
  let expected = 1;
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (cur && line.startsWith(String(expected))) {
      cur.push(line.slice(String(expected).length));
      expected++;
    } else if (line.startsWith('1')) {
      cur = [line.slice(1)];
      files.push(cur);
      expected = 2;
    }
  }
  return files.map((lines) => lines.join('\n').replace(/\n*$/, '\n'));
}

/** The two reference files, checked to be what this harness expects. */
export function referenceSources(seedPath = SEED_PATH) {
  const files = splitSeed(fs.readFileSync(seedPath, 'utf8'));
  if (files.length !== 2) throw new Error(`${seedPath}: expected 2 numbered files, found ${files.length}`);
  const [index, lib] = files;
  if (!/export function register\(on, options\)/.test(index) || !/from '\.\/lib\.js'/.test(index)) {
    throw new Error(`${seedPath}: the first numbered file is not the reference index.js`);
  }
  if (!/export function selectVerbatim/.test(lib) || !/export function stripInstructionText/.test(lib)) {
    throw new Error(`${seedPath}: the second numbered file is not the reference lib.js`);
  }
  return { index, lib };
}

/** Writes the reference plugin folder; returns its path. */
export function buildReferenceMod(dest = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-refmod-'))) {
  const { index, lib } = referenceSources();
  fs.mkdirSync(path.join(dest, '.claude-plugin'), { recursive: true });
  fs.mkdirSync(path.join(dest, 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(dest, '.claude-plugin', 'plugin.json'), JSON.stringify({
    name: 'compact-plus-reference',
    version: '0.0.0',
    description: 'compact-plus reference implementation (built from the seed for the e2e tests)',
  }, null, 2) + '\n');
  fs.writeFileSync(path.join(dest, 'hooks', 'hooks.json'), JSON.stringify({ modules: ['./index.js'] }) + '\n');
  fs.writeFileSync(path.join(dest, 'hooks', 'index.js'), index);
  fs.writeFileSync(path.join(dest, 'hooks', 'lib.js'), lib);
  return dest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dest = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  console.log(buildReferenceMod(dest));
}
