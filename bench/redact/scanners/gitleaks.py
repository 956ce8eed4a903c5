"""gitleaks' default rules (gitleaks.toml beside this file), run in Python.

gitleaks is Go and its binary cannot be had here, so this runs its detection as its own
code does, read in gitleaks/gitleaks: detect/detect.go (`Detect`, `detectRule`,
`checkFindingAllowed`), detect/utils.go (`filter`, Shannon entropy) and config/allowlist.go.
One text is one fragment, with no file path and no commit, as `gitleaks dir` scans a file.
What is not reproduced is listed in README.md ("Fidelity").

    python gitleaks.py < text        prints each finding: rule id, TAB, secret
"""

import math
import sys
import tomllib
from pathlib import Path

import regex

CONFIG = Path(__file__).with_name("gitleaks.toml")
# detect.go: a finding whose line holds this is skipped (IgnoreGitleaksAllow is off by default).
ALLOW_SIGNATURE = "gitleaks:allow"


def go_regex(pattern):
    """Compiles a Go RE2 pattern with the `regex` module's nearest semantics.

    VERSION1: an inline flag such as `(?i)` in mid-pattern holds to the end of its group, as
    in Go (Python's `re` refuses it; `regex` in VERSION0 applies it to the whole pattern).
    ASCII: Go's `\\w`, `\\d`, `\\s` and `\\b` are ASCII. Go's `$` (without `(?m)`) and `\\z`
    match only at the very end of the text; Python's `$` also matches before a final
    newline, so both are rewritten to `\\Z` outside character classes."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            pair = pattern[i : i + 2]
            out.append("\\Z" if pair == "\\z" and not in_class else pair)
            i += 2
            continue
        if in_class:
            # A `]` first in a class (after `[` or `[^`) is a literal in Go, not its end.
            if c == "]" and not (out[-1] == "[" or (out[-1] == "^" and out[-2] == "[")):
                in_class = False
        elif c == "[":
            in_class = True
        elif c == "$":
            c = "\\Z"
        out.append(c)
        i += 1
    return regex.compile("".join(out), regex.VERSION1 | regex.ASCII)


def shannon_entropy(data):
    """utils.go's ShannonEntropy: counts by rune, divided by the length in bytes (Go's
    len(string)), so it equals the textbook figure for ASCII text."""
    if not data:
        return 0.0
    inv_length = 1.0 / len(data.encode())
    counts = {}
    for ch in data:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(n * inv_length * math.log2(n * inv_length) for n in counts.values())


class Allowlist:
    """config/allowlist.go. Commits and paths never match here (no commit, no path), which
    only matters to an AND allowlist that names them: it then never applies."""

    def __init__(self, table):
        self.condition_and = table.get("condition", "OR").upper() == "AND"
        self.commits = table.get("commits", [])
        self.paths = table.get("paths", [])
        self.target = table.get("regexTarget", "")
        self.regexes = [go_regex(r) for r in table.get("regexes", [])]
        self.stopwords = [w.lower() for w in table.get("stopwords", [])]

    def allows(self, secret, match, line):
        # checkFindingAllowed: regexes test the secret, or the match or the line as
        # regexTarget says; stopwords are substrings of the lowercased secret.
        target = {"match": match, "line": line}.get(self.target, secret)
        regex_ok = target != "" and any(r.search(target) for r in self.regexes)
        low = secret.lower()
        stop_ok = secret != "" and any(w in low for w in self.stopwords)
        if not self.condition_and:
            return regex_ok or stop_ok
        checks = [False] * (bool(self.commits) + bool(self.paths))
        if self.regexes:
            checks.append(regex_ok)
        if self.stopwords:
            checks.append(stop_ok)
        return all(checks)


def allowlists(table, single, many):
    # The config's `[allowlist]` (one table, the older form) and `[[allowlists]]` both count.
    found = [table[single]] if single in table else []
    return [Allowlist(a) for a in found + table.get(many, [])]


class Rule:
    def __init__(self, table):
        self.id = table["id"]
        self.regex = go_regex(table["regex"]) if "regex" in table else None
        self.path = table.get("path")
        self.secret_group = table.get("secretGroup", 0)
        self.entropy = table.get("entropy", 0.0)
        self.keywords = [k.lower() for k in table.get("keywords", [])]
        self.allowlists = allowlists(table, "allowlist", "allowlists")


class Gitleaks:
    def __init__(self, config=CONFIG):
        table = tomllib.loads(Path(config).read_text())
        self.allowlists = allowlists(table, "allowlist", "allowlists")
        # detectRule: a rule with a `path` is checked against the fragment's path first and
        # gives nothing when it does not match; with no path (one text, no file) none match,
        # so path-only rules and path-bound ones (a .php, .tf, .yaml, nuget.config) are out.
        self.rules = [r for r in map(Rule, table["rules"]) if r.regex and not r.path]

    def detect(self, raw):
        """Findings in one fragment: a list of (rule id, secret, line number)."""
        # Detect: the keyword prefilter is a case-insensitive substring test (gitleaks runs
        # an Aho-Corasick trie over the lowercased fragment); a rule with no keywords always
        # runs.
        low = raw.lower()
        findings = []
        for rule in self.rules:
            if rule.keywords and not any(k in low for k in rule.keywords):
                continue
            findings += self.detect_rule(raw, rule)
        return filter_generic(findings)

    def detect_rule(self, raw, rule):
        found = []
        newlines = [i for i, c in enumerate(raw) if c == "\n"]
        for m in rule.regex.finditer(raw):
            # detectRule: the match with newlines trimmed from both ends is the finding's
            # Match and first Secret; its end moves to the trimmed length (gitleaks #1352).
            match = m.group(0).strip("\n")
            start, end = m.start(), m.start() + len(match)
            line_no, first, last = location(newlines, raw, start, end)
            line = raw[first:last]
            if ALLOW_SIGNATURE in line:
                continue
            secret = match
            # The secret group: the rule's regex is run again on the match alone; with a
            # capture group, `secretGroup` if set, else the first non-empty group.
            groups = rule.regex.search(match)
            if groups is not None and rule.regex.groups >= 1:
                values = ["" if g is None else g for g in groups.groups()]
                if rule.secret_group > 0:
                    if len(values) < rule.secret_group:
                        continue
                    secret = values[rule.secret_group - 1]
                else:
                    secret = next((v for v in values if v), secret)
            # Entropy at or under the rule's threshold drops the finding.
            if rule.entropy and shannon_entropy(secret) <= rule.entropy:
                continue
            # The global allowlists first, then the rule's; `line` stands for currentLine.
            if any(a.allows(secret, match, line) for a in self.allowlists + rule.allowlists):
                continue
            found.append((rule.id, secret, line_no))
        return found


def location(newlines, raw, start, end):
    """location.go's `location`, literally: the match's line number (counted from 0) and the
    bounds of its Line. Each bound is a newline's index, so a Line after the first starts
    with its "\n"; a match on a last line with no newline after it gets a Line from the
    start of the text (startLineIndex keeps its default, 0)."""
    if not newlines:
        newlines = [len(raw)]
    prev, line_set, number, first, last = 0, False, 0, 0, 0
    for n, newline in enumerate(newlines):
        if prev <= start < newline:
            line_set, number, first, last = True, n, prev, newline
        if prev < end <= newline:
            last = newline
        prev = newline
    if not line_set:
        number = len(newlines)
        last = end
        while last < len(raw) and raw[last] not in "\n\r":
            last += 1
    # detectRule: "if matchIndex[1] > loc.endLineIndex { loc.endLineIndex = matchIndex[1] }"
    return number, first, max(last, end)


def filter_generic(findings):
    """utils.go's `filter`: a finding of a rule whose id holds "generic" is dropped when a
    finding of another, non-generic rule starts on the same line and its secret contains
    this one's."""
    return [
        f for f in findings
        if "generic" not in f[0].lower()
        or not any(
            g[2] == f[2] and g[0] != f[0] and f[1] in g[1] and "generic" not in g[0].lower()
            for g in findings
        )
    ]


if __name__ == "__main__":
    for rule_id, secret, _ in Gitleaks().detect(sys.stdin.read()):
        print(f"{rule_id}\t{secret}")
