// A table of docs/ held to the test that measures it. The table sits between the lines
// `<!-- measured: NAME -->` and `<!-- /measured -->` of its doc. A run of the test compares the rows
// it just measured with the doc's, each figure masked (a time or a count moves from run to run on a
// shared machine; the rows, the words and the outcomes may not), and fails on a difference;
// `DOCS_WRITE=1` writes the rows just measured instead, figures and all.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const mask = (line) => line.replace(/\d[\d,.]*/g, '#').replace(/\s+/g, ' ').trim();

/** The table `name` of `doc` (relative to the repo root) against `lines` (the table's markdown
 * lines, header included): the differences, none when they agree or when DOCS_WRITE wrote it. */
export function measuredTable(doc, name, lines) {
  const file = path.join(ROOT, doc);
  const text = fs.readFileSync(file, 'utf8');
  const open = `<!-- measured: ${name} -->\n`;
  const close = '<!-- /measured -->';
  const start = text.indexOf(open);
  const end = start < 0 ? -1 : text.indexOf(close, start);
  if (start < 0 || end < 0) return [`${doc} has no table "${name}" (${open.trim()} … ${close})`];
  if (process.env.DOCS_WRITE) {
    fs.writeFileSync(file, `${text.slice(0, start + open.length)}${lines.join('\n')}\n${text.slice(end)}`);
    return [];
  }
  const have = text.slice(start + open.length, end).split('\n').filter((l) => l.trim());
  const differences = [];
  for (let i = 0; i < Math.max(have.length, lines.length); i++) {
    if (mask(have[i] ?? '') !== mask(lines[i] ?? '')) differences.push(`row ${i}:\n  ${doc}: ${have[i] ?? '(none)'}\n  measured: ${lines[i] ?? '(none)'}`);
  }
  if (differences.length) differences.push(`(DOCS_WRITE=1 and the same test write the rows just measured into ${doc})`);
  return differences;
}
