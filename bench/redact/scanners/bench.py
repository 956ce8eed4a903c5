"""compact-plus's redactor beside two secret scanners, on the repo's own corpora.

Reads every corpus in tests/fixtures/secrets/ as tests/redact_corpus.rs does, runs each case
text through compact-plus (the redactor in src/redact and the reference one before [15], by
the `redact-cases` binary that run.sh builds), gitleaks' default rules (gitleaks.py) and
detect-secrets with its default plugins and filters, and prints one table.

Scoring, as `held_out_figures` scores the redactor:
* a secret case is caught when none of its `# secret:` substrings remains in the output. A
  scanner has no output, so its output is the case text with every finding's secret value
  replaced, wherever it occurs: what a redactor built on that scanner would give. A finding
  that covers part of a secret breaks it, and counts, as a partial redaction by compact-plus
  counts. The stricter reading (each substring lies whole inside one finding's value) is
  printed below the table for the scanners.
* a look-alike case is changed when the scanner reports any finding in it (for the
  redactor: its output differs, or it counted a replacement).

    python bench.py REDACT_CASES_BINARY
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from detect_secrets.core.scan import scan_file
from detect_secrets.settings import default_settings

from gitleaks import Gitleaks

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures" / "secrets"

# Rows in the order of docs/redaction.md's table; any other held-out-*.txt found is added
# after them. `frozen` marks the sets nobody tuned against (docs/redaction.md, "Measured" and
# "Where the goal stands"); the others were promoted to development after their clean figure
# was taken, and the co-developed corpus is what the rules were written from.
KNOWN = [
    ("co-developed", ["positives.txt", "negatives.txt"], "developed"),
    ("held-out", ["held-out.txt"], "frozen"),
    ("packages", ["held-out-packages.txt"], "frozen"),
    ("samples", ["held-out-samples.txt"], "frozen"),
    ("fresh", ["held-out-fresh.txt"], "frozen"),
    ("unseen", ["held-out-unseen.txt"], "tuned"),
    ("sealed", ["held-out-sealed.txt"], "tuned"),
    ("blind", ["held-out-blind.txt"], "tuned"),
    ("apart", ["held-out-apart.txt"], "tuned"),
    ("aside", ["held-out-aside.txt"], "tuned"),
    ("beyond", ["held-out-beyond.txt"], "tuned"),
    ("afar", ["held-out-afar.txt"], "tuned"),
    ("anew", ["held-out-anew.txt"], "tuned"),
    ("yonder", ["held-out-yonder.txt"], "tuned"),
    ("distant", ["held-out-distant.txt"], "tuned"),
    ("outland", ["held-out-outland.txt"], "frozen"),
    ("remote", ["held-out-remote.txt"], "frozen"),
]


def corpora():
    known = {f for _, files, _ in KNOWN for f in files}
    extra = sorted(p.name for p in FIXTURES.glob("held-out-*.txt") if p.name not in known)
    return KNOWN + [(name[len("held-out-"):-len(".txt")], [name], "new") for name in extra]


def parse(text, header_names):
    """tests/redact_corpus.rs's `parse`: cases between `=====` lines, the leading
    `# name: value` lines of the names given as headers, the rest the text."""
    chunks = []
    for line in text.split("\n"):
        if line == "=====":
            chunks.append([])
        elif chunks:
            chunks[-1].append(line)
    cases = []
    for lines in chunks:
        if lines and lines[-1] == "":
            lines.pop()
        headers = []
        for line in lines:
            name = next((n for n in header_names if line.startswith(f"# {n}: ")), None)
            if name is None:
                break
            headers.append((name, line[len(f"# {name}: "):].replace("\\n", "\n")))
        cases.append(
            {
                "secrets": [v for n, v in headers if n == "secret"],
                "text": "\n".join(lines[len(headers):]),
            }
        )
    return cases


def load(files):
    cases = []
    for name in files:
        if name == "positives.txt":
            names = ["source", "kind", "secret", "keep"]
        elif name == "negatives.txt":
            names = ["source", "lookalike"]
        else:
            names = ["source", "secret", "lookalike"]
        cases += parse((FIXTURES / name).read_text(), names)
    return cases


def redactor(binary, which, texts):
    """(output, count) per text from `redact-cases which`."""
    assert not any("\0" in t for t in texts)
    run = subprocess.run(
        [binary, which], input="\0".join(texts).encode(), capture_output=True, check=True
    )
    answers = run.stdout.decode().split("\0")[:-1]
    assert len(answers) == len(texts), (len(answers), len(texts))
    out = []
    for answer in answers:
        count, _, output = answer.partition("\n")
        out.append((output, int(count)))
    return out


def detect_secrets_values(texts):
    """detect-secrets' findings per text, as (type, secret value, line number): each text is
    written to a file of its own and scanned by `scan_file`, as `detect-secrets scan` scans
    a file, with every plugin and the default filters (`default_settings`). The file is
    `case.txt`: the plugins that read a file's type (the keyword detector) then take it as
    plain text."""
    values = []
    with tempfile.TemporaryDirectory() as tmp, default_settings():
        path = os.path.join(tmp, "case.txt")
        for text in texts:
            Path(path).write_text(text)
            values.append(
                [(s.type, s.secret_value, s.line_number) for s in scan_file(path) if s.secret_value]
            )
    return values


def key_blocks(text, found):
    """detect-secrets' private-key plugin reports the header it matched (`BEGIN RSA PRIVATE
    KEY`) as its value, not the key; a redactor built on it would take the block the header
    opens. So its value becomes the lines from the flagged line through the first line after
    it holding `-----END` (or the text's end). Every other finding keeps its value."""
    lines = text.split("\n")
    values = []
    for kind, value, line_number in found:
        if kind == "Private Key":
            first = line_number - 1
            last = next(
                (i for i in range(first, len(lines)) if "-----END" in lines[i]), len(lines) - 1
            )
            value = "\n".join(lines[first : last + 1])
        values.append(value)
    return values


def masked(text, values):
    # Longest first, so that a value inside another does not cut it before it is replaced.
    for value in sorted(set(values), key=len, reverse=True):
        text = text.replace(value, "\0")
    return text


def verdicts(cases, results):
    """Per case (is a secret case, caught or changed, caught whole, flagged). results[i]: for
    a redactor (output, count); for a scanner a list of secret values. A scanner's secret case
    is flagged when it has any finding at all, caught or not: an upper bound."""
    out = []
    for case, result in zip(cases, results):
        if isinstance(result, tuple):
            output, count = result
            flagged, whole = output != case["text"] or count != 0, False
        else:
            output, flagged = masked(case["text"], result), bool(result)
            whole = all(any(s in v for v in result) for s in case["secrets"])
        if case["secrets"]:
            out.append((True, all(s not in output for s in case["secrets"]), whole, flagged))
        else:
            out.append((False, flagged, False, flagged))
    return out


def figures(vs):
    """(caught, secrets, changed, look-alikes, caught whole, secret cases flagged)."""
    secret = [v for v in vs if v[0]]
    lookalike = [v for v in vs if not v[0]]
    return (
        sum(v[1] for v in secret), len(secret),
        sum(v[1] for v in lookalike), len(lookalike),
        sum(v[2] for v in secret), sum(v[3] for v in secret),
    )


def pct(n, d):
    return f"{n}/{d} ({100 * n / d:.1f} %)" if d else "-"


def main():
    binary = sys.argv[1]
    gitleaks = Gitleaks()
    columns = ["compact-plus", "reference", "gitleaks rules", "detect-secrets"]
    extra = "detect-secrets, values as reported"
    rows, totals = [], {c: [0] * 6 for c in columns + [extra]}
    held = {c: [] for c in columns + [extra]}  # every held-out case's verdict, in order
    frozen_cases = {c: [] for c in columns + [extra]}
    for name, files, status in corpora():
        cases = load(files)
        texts = [c["text"] for c in cases]
        found = detect_secrets_values(texts)
        results = {
            "compact-plus": redactor(binary, "new", texts),
            "reference": redactor(binary, "old", texts),
            "gitleaks rules": [[f[1] for f in gitleaks.detect(t)] for t in texts],
            "detect-secrets": [key_blocks(t, f) for t, f in zip(texts, found)],
            extra: [[v for _, v, _ in f] for f in found],
        }
        per_case = {c: verdicts(cases, results[c]) for c in columns + [extra]}
        row = {c: figures(v) for c, v in per_case.items()}
        rows.append((name, status, row))
        if status != "developed":
            for c in columns + [extra]:
                totals[c] = [a + b for a, b in zip(totals[c], row[c])]
                held[c] += per_case[c]
                if status == "frozen":
                    frozen_cases[c] += per_case[c]

    head = "| corpus | status | " + " | ".join(
        f"{c}: secrets caught | {c}: look-alikes changed" for c in columns
    ) + " |"
    print(head)
    print("|---|---|" + "---:|---:|" * len(columns))
    for name, status, row in rows + [("all held-out sets", "", totals)]:
        cells = []
        for c in columns:
            caught, secrets, changed, lookalikes = row[c][:4]
            cells += [pct(caught, secrets), pct(changed, lookalikes)]
        print(f"| {name} | {status} | " + " | ".join(cells) + " |")
    frozen = [r for r in rows if r[1] == "frozen"]
    line = []
    for c in columns:
        f = [sum(r[2][c][k] for r in frozen) for k in range(6)]
        line.append(f"{c} {pct(f[0], f[1])}, {pct(f[2], f[3])}")
    print("\nfrozen sets only (" + ", ".join(r[0] for r in frozen) + "): " + "; ".join(line))
    print("\nscanners, all held-out sets: secret cases caught with each secret substring whole "
          "inside one finding's value; secret cases with any finding at all (an upper bound):")
    for c in columns[2:] + [extra]:
        t = totals[c]
        print(f"  {c}: whole {pct(t[4], t[1])}; any finding {pct(t[5], t[1])}")
    t = totals[extra]
    print(f"  {extra}, as the table counts: {pct(t[0], t[1])} caught, {pct(t[2], t[3])} changed")
    # Where a scanner does better than compact-plus, in counts only (which cases is not
    # printed, so that nobody tunes a rule to them).
    for title, sets in [("all held-out sets", held), ("frozen sets", frozen_cases)]:
        print(f"\nagainst compact-plus, {title}:")
        ours = sets["compact-plus"]
        n = sum(o[0] for o in ours)
        for c in columns[2:]:
            pairs = list(zip(ours, sets[c]))
            more = sum(o[0] and t[1] and not o[1] for o, t in pairs)
            both = sum(o[0] and (t[1] or o[1]) for o, t in pairs)
            spared = sum(not o[0] and o[1] and not t[1] for o, t in pairs)
            print(f"  {c}: catches {more} secrets compact-plus misses (either of the two: "
                  f"{pct(both, n)}); leaves alone {spared} look-alikes compact-plus changes")


if __name__ == "__main__":
    main()
