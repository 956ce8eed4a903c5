// The README and docs/ held to the code where they name it, so that neither can contradict it:
// the README stays a three-minute read, its options table is plugin.json's options with their
// defaults, the recall tool has the name the core lists, every page it links is there, and each row
// of a docs/ table that names its test names one that exists. (The tables a run measures are held
// by their own tests: tests/docs-tables.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECALL_TOOL } from '../../pkg/compact_plus.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const readme = read('README.md');
const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

test('the README is a short page: at most 200 lines', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
});

test('the README\'s options are plugin.json\'s, with their defaults', () => {
  const config = JSON.parse(read('.claude-plugin/plugin.json')).userConfig;
  const rows = readme.split('\n').filter((l) => /^\| `[A-Za-z]+` \|/.test(l));
  const table = Object.fromEntries(rows.map((l) => l.split('|').map((c) => c.trim())).map(([, name, def]) => [name.replace(/`/g, ''), def.replace(/`/g, '')]));
  assert.deepEqual(Object.keys(table).sort(), Object.keys(config).sort());
  for (const [name, { default: def }] of Object.entries(config)) assert.equal(table[name], String(def), name);
});

test('the recall tool is named as the core lists it, and no other way', () => {
  for (const file of ['README.md', ...docs, '.claude-plugin/plugin.json']) {
    const text = read(file);
    assert.ok(!text.includes('mcp__compact-plus__recall') || /earlier|before|was an MCP|recorded/.test(text), `${file} names the tool by its old MCP name`);
  }
  assert.ok(readme.includes(`\`${RECALL_TOOL.name}\``), `README.md does not name ${RECALL_TOOL.name}`);
});

test('every page the README and docs/ link is there', () => {
  for (const file of ['README.md', ...docs]) {
    for (const [, target] of read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const resolved = path.join(ROOT, path.dirname(file), target);
      assert.ok(fs.existsSync(resolved), `${file} links ${target}, which is not there`);
    }
  }
});

test('each row of a docs/ table that names its test names one that exists', () => {
  let cited = 0;
  for (const file of docs) {
    for (const line of read(file).split('\n')) {
      const m = line.match(/\| `(tests\/[^`]+)`: `([^`]+)` \|$/);
      if (!m) continue;
      cited++;
      const [, where, title] = m;
      const text = read(where).replace(/\\'/g, "'");
      const found = where.endsWith('.md') ? text.includes(`## ${title}`) : where.endsWith('.rs') ? text.includes(`fn ${title}(`) : text.includes(`test('${title}`) || text.includes(`test(\`${title}`);
      assert.ok(found, `${file}: ${where} has no test "${title}"`);
    }
  }
  assert.ok(cited >= 13, `only ${cited} rows name their test`);
});

test('every path docs/architecture.md\'s table of the code names is there', () => {
  const rows = read('docs/architecture.md').split('\n').filter((l) => /^\| `[^`]+`/.test(l));
  assert.ok(rows.length >= 15, `${rows.length} rows`);
  for (const row of rows) {
    for (const [, p] of row.split('|')[1].matchAll(/`([^`]+)`/g)) assert.ok(fs.existsSync(path.join(ROOT, p)), `docs/architecture.md names ${p}, which is not there`);
  }
});
