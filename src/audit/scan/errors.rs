//! Error lines: where a tool printed a marker (`error:`, `panicked at`, `FAILED`, a Python
//! traceback's exception line, …), the line as an excerpt; lines every failure prints are not
//! listed.

use crate::audit::{Kind, Mentions};
use crate::text;
use super::bytes::{is_word_byte, window};

const ERROR_LINE_CHARS: usize = 160;
/// How far into a line a marker may sit for the excerpt to start at the line's start.
const ERROR_LEAD: usize = 120;
// The marker's place in the excerpt is kept in 8 bits beside its start (`scan_errors`).
const _: () = assert!(ERROR_LEAD < 256);

/// Lines looked at after a `Traceback` header for the exception line.
const TRACEBACK_LOOKAHEAD: usize = 400;

#[derive(Debug, Clone, Copy)]
enum Anchor {
    /// Anywhere on the line.
    Any,
    /// `error:` where tools print it (line start, `file:1:2: error:`, `[x] error:`),
    /// not a field named `error` in code.
    Lower,
    /// Not `Error::` (a Rust path).
    NotPath,
    /// A whole upper-case word.
    Word,
    /// `error TS2322`.
    TsCode,
    /// At the start of the line.
    LineStart,
    /// The exception line after the header.
    Traceback,
}

const MARKERS: [(&str, Anchor); 18] = [
    ("error[", Anchor::Any),
    ("error:", Anchor::Lower),
    ("Error:", Anchor::NotPath),
    ("ERROR", Anchor::Word),
    ("error TS", Anchor::TsCode),
    ("Exception:", Anchor::NotPath),
    ("Exception in thread", Anchor::Any),
    ("panicked at", Anchor::Any),
    ("FAILED", Anchor::Word),
    ("FAIL ", Anchor::LineStart),
    ("--- FAIL:", Anchor::Any),
    ("fatal:", Anchor::LineStart),
    ("npm ERR!", Anchor::Any),
    ("npm error ", Anchor::LineStart),
    ("No such file or directory", Anchor::Any),
    ("command not found", Anchor::Any),
    ("Segmentation fault", Anchor::Any),
    ("Traceback (most recent call last)", Anchor::Traceback),
];

/// Lines every failure of a kind prints: they name nothing.
const GENERIC_ERRORS: [&str; 10] = [
    "error: aborting due to",
    "error: could not compile",
    "error: test failed, to rerun pass",
    "For more information about this error",
    "Traceback (most recent call last)",
    "During handling of the above exception",
    "The above exception was the direct cause",
    "test result: FAILED",
    "npm ERR! A complete log of this run",
    "npm error A complete log of this run",
];

fn accepts(s: &str, line_start: usize, at: usize, marker: &[u8], rule: Anchor) -> bool {
    let b = s.as_bytes();
    let prev = at.checked_sub(1).and_then(|p| b.get(p)).copied();
    let next = b.get(at + marker.len()).copied();
    let before = s.get(line_start..at).unwrap_or("");
    if is_code_frame(before) {
        return false;
    }
    match rule {
        Anchor::Any | Anchor::Traceback => true,
        Anchor::Lower => {
            next != Some(b':')
                && (text::trim(before).is_empty()
                    || before.ends_with(": ")
                    || before.ends_with("] ")
                    || before.ends_with(':')
                    || before.as_bytes().last().is_some_and(u8::is_ascii_control))
        }
        Anchor::NotPath => next != Some(b':'),
        Anchor::Word => !prev.is_some_and(is_word_byte) && !next.is_some_and(is_word_byte),
        Anchor::TsCode => next.is_some_and(|c| c.is_ascii_digit()),
        Anchor::LineStart => text::trim(before).is_empty(),
    }
}

/// `315 | ` and `> 12 |` before the marker: a test runner showing the source around a
/// failure (bun, vitest, jest). That line is code; the runner prints the error on its own.
fn is_code_frame(before: &str) -> bool {
    let b = before.as_bytes();
    let start = b.iter().position(|c| !matches!(c, b' ' | b'\t' | b'>')).unwrap_or(b.len());
    let digits = b.get(start..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
    let after = b.get(start + digits..).unwrap_or(&[]);
    digits > 0 && after.iter().find(|&&c| c != b' ') == Some(&b'|')
}

/// After a `Traceback` header, the first unindented line that is not another
/// header: Python's exception line, the one that says what went wrong.
fn exception_after(s: &str, header_end: usize) -> Option<usize> {
    let mut at = header_end + 1;
    for _ in 0..TRACEBACK_LOOKAHEAD {
        let rest = s.get(at..)?;
        let line = rest.split('\n').next().unwrap_or("");
        let starts_indented = line.starts_with([' ', '\t']);
        let blank = text::trim(line).is_empty();
        if !starts_indented && !blank && !GENERIC_ERRORS.iter().any(|g| line.starts_with(g)) {
            return Some(at);
        }
        at += line.len() + 1;
    }
    None
}

/// The byte pairs a marker can start with, as a bit set: one lookup per byte
/// rules out almost every position before any marker is compared.
const MARKER_PAIRS: [u64; 1024] = {
    let mut table = [0u64; 1024];
    let mut i = 0;
    while i < MARKERS.len() {
        let bytes = MARKERS[i].0.as_bytes();
        if bytes.len() >= 2 {
            let pair = (bytes[0] as usize) << 8 | bytes[1] as usize;
            table[pair / 64] |= 1 << (pair % 64);
        }
        i += 1;
    }
    table
};

fn starts_marker(first: u8, second: u8) -> bool {
    let pair = usize::from(first) << 8 | usize::from(second);
    MARKER_PAIRS.get(pair / 64).is_some_and(|bits| bits & (1 << (pair % 64)) != 0)
}

/// Every marker is at least this long.
const MARKER_MIN: usize = {
    let mut min = usize::MAX;
    let mut i = 0;
    while i < MARKERS.len() {
        if MARKERS[i].0.len() < min {
            min = MARKERS[i].0.len();
        }
        i += 1;
    }
    assert!(min >= 3);
    min
};

const BLOCK_SLOTS: usize = 1024;

fn block_slot(a: u8, b: u8) -> usize {
    (usize::from(a) * 37 + usize::from(b)) % BLOCK_SLOTS
}

/// Wu–Manber skip table over byte pairs. For the pair at the end of a
/// `MARKER_MIN`-byte window: how far the window can move before a marker's
/// first `MARKER_MIN` bytes could hold that pair; 0 when a marker may start at
/// the window. Pairs sharing a slot keep the smaller shift, so a collision only
/// costs a look, never a miss.
const MARKER_SHIFT: [u8; BLOCK_SLOTS] = {
    let mut table = [(MARKER_MIN - 1) as u8; BLOCK_SLOTS];
    let mut i = 0;
    while i < MARKERS.len() {
        let m = MARKERS[i].0.as_bytes();
        let mut k = 0;
        while k + 1 < MARKER_MIN {
            let slot = (m[k] as usize * 37 + m[k + 1] as usize) % BLOCK_SLOTS;
            let shift = (MARKER_MIN - 2 - k) as u8;
            if shift < table[slot] {
                table[slot] = shift;
            }
            k += 1;
        }
        i += 1;
    }
    table
};

/// One forward pass: most positions are skipped by the pair table, the line
/// start is found lazily (each byte looked at once at most), and a line with
/// an error is left at its first marker, so a megabyte of minified output on
/// one line costs one pass, not one per marker.
pub(crate) fn scan_errors(found: &mut Mentions, s: &str) {
    let b = s.as_bytes();
    // `start << 8 | marker - start`: where the excerpt starts and how far into it the marker
    // is (at most ERROR_LEAD), sorted as one number.
    let mut starts: Vec<u64> = Vec::new();
    let mut line_start = 0;
    // Line breaks in `..newlines_to` are accounted for in `line_start`.
    let mut newlines_to = 0;
    let mut at = 0;
    while at + MARKER_MIN <= b.len() {
        let (Some(&y), Some(&z)) = (b.get(at + MARKER_MIN - 2), b.get(at + MARKER_MIN - 1)) else { break };
        let shift = MARKER_SHIFT.get(block_slot(y, z)).copied().unwrap_or(0);
        if shift > 0 {
            at += usize::from(shift);
            continue;
        }
        let (Some(&c), Some(&d)) = (b.get(at), b.get(at + 1)) else { break };
        if !starts_marker(c, d) {
            at += 1;
            continue;
        }
        let rest = b.get(at..).unwrap_or(&[]);
        let hit = MARKERS.iter().find(|(marker, rule)| {
            let m = marker.as_bytes();
            if !(m.first() == Some(&c) && m.get(1) == Some(&d) && rest.starts_with(m)) {
                return false;
            }
            if let Some(p) = b.get(newlines_to..at).and_then(|r| r.iter().rposition(|&x| x == b'\n')) {
                line_start = newlines_to + p + 1;
            }
            newlines_to = at;
            accepts(s, line_start, at, m, *rule)
        });
        let Some(&(_, rule)) = hit else {
            at += 1;
            continue;
        };
        let line_end = s.get(at..).and_then(|t| t.find('\n')).map_or(s.len(), |p| at + p);
        match rule {
            Anchor::Traceback => {
                if let Some(exc) = exception_after(s, line_end) {
                    starts.push((exc as u64) << 8);
                }
            }
            // Deep in a long line, the excerpt starts at the marker.
            _ => {
                let start = if at - line_start <= ERROR_LEAD { line_start } else { at };
                starts.push((start as u64) << 8 | (at - start) as u64);
            }
        }
        at = line_end;
    }
    starts.sort_unstable();
    starts.dedup_by_key(|x| *x >> 8);
    for x in starts {
        let (start, marker) = ((x >> 8) as usize, (x & 0xff) as usize);
        let line = window(s, start, 4 * ERROR_LINE_CHARS).split('\n').next().unwrap_or("");
        if let Some(err) = error_text(line, marker) {
            found.note(Kind::Error, err);
        }
    }
}

/// The excerpt of an error line as the text has it, so a search for it finds it: the run
/// around the marker (at byte `marker` of the line) between control characters (a tab, a
/// carriage return), trimmed, at most [`ERROR_LINE_CHARS`].
fn error_text(line: &str, marker: usize) -> Option<&str> {
    // ASCII control bytes: every cut is a char boundary.
    let b = line.as_bytes();
    let from = b.get(..marker).and_then(|h| h.iter().rposition(u8::is_ascii_control)).map_or(0, |p| p + 1);
    let to = b.get(marker..).and_then(|r| r.iter().position(u8::is_ascii_control)).map_or(line.len(), |p| marker + p);
    let run = text::trim(line.get(from..to).unwrap_or(""));
    if run.len() < 6 || GENERIC_ERRORS.iter().any(|g| run.starts_with(g)) {
        return None;
    }
    Some(text::trim_end(text::head(run, ERROR_LINE_CHARS)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::scan::{scan_text, Scan};

    #[test]
    fn error_markers() {
        let cases = [
            ("src/a.ts(3,5): error TS2322: Type 'string' is not assignable", true),
            ("a.c:1:2: error: expected ';'", true),
            ("thread 'main' panicked at src/main.rs:4:5:", true),
            ("test tests::it_parses ... FAILED", true),
            ("fatal: not a git repository", true),
            ("bash: rg: command not found", true),
            ("npm error code ERESOLVE", true),
            ("Exception in thread \"main\" java.lang.NullPointerException", true),
            ("[ERROR] Failed to execute goal", true),
            ("    let error: Option<String> = None;", false),
            ("    return Err(Error::new(kind));", false),
            ("the error: it was mine", false),
            ("FAILEDX and XFAILED", false),
            ("error: could not compile `demo`", false),
            ("315 | \t\tsubmitJobError: new Error(\"Database connection failed\"),", false),
            ("> 12 |   throw new Error(\"boom\")", false),
        ];
        for (line, want) in cases {
            let mut m = Mentions::default();
            scan_errors(&mut m, line);
            assert_eq!(!m.is_empty(), want, "{line}");
        }
        let mut m = Mentions::default();
        let long = format!("\u{1b}[31merror: {}\u{1b}[0m", "x".repeat(400));
        scan_text(&mut m, &long, Scan { errors: true, quotes: false, prose: false });
        let e = m.ranked();
        assert_eq!(e.len(), 1);
        assert!(e.first().is_some_and(|x| x.text.starts_with("error: xx") && text::len16(&x.text) <= ERROR_LINE_CHARS));
        assert!(e.first().is_some_and(|x| long.contains(x.text.as_str())), "{e:?}");
        // A colour code through the marker: `error: xx` is not text the output holds.
        let mut m = Mentions::default();
        scan_text(&mut m, "\u{1b}[31merror\u{1b}[0m: expected `;`", Scan { errors: true, quotes: false, prose: false });
        assert!(m.is_empty(), "{:?}", m.ranked());
    }

    /// The excerpt is the line as the output has it: a search for it finds it. Tabs and
    /// carriage returns bound it; spaces stay as they are.
    #[test]
    fn error_lines_are_verbatim() {
        let cases = [
            ("\t--- FAIL: TestParse/with_tabs (0.00s)\n", "--- FAIL: TestParse/with_tabs (0.00s)"),
            ("    main_test.go:12:\terror: got 3,\twant 4\n", "error: got 3,"),
            ("Downloading 40%\rerror: connection reset by peer\r\n", "error: connection reset by peer"),
            ("src/a.ts(3,5):  error TS2322:  Type 'x'\n", "src/a.ts(3,5):  error TS2322:  Type 'x'"),
        ];
        for (out, want) in cases {
            let mut m = Mentions::default();
            scan_errors(&mut m, out);
            let got: Vec<String> = m.ranked().into_iter().map(|x| x.text).collect();
            assert_eq!(got, vec![want.to_owned()], "{out:?}");
            assert!(out.contains(want));
        }
    }
}
