//! The person's quoted terms: what they put in quotes on one line, outside code.

use crate::audit::{Kind, Mentions};
use crate::text;
use super::bytes::window;
use super::paths::as_path;
use super::shas::looks_like_sha;
use super::urls::find_scheme;

const QUOTE_MIN_CHARS: usize = 2;
const QUOTE_MAX_CHARS: usize = 80;

/// The person's quoted terms: `"…"`, `“…”`, `` `…` ``, `'…'`, `‘…’` on one line.
/// Fenced code blocks are skipped: their words are scanned, not quoted.
pub(crate) fn scan_quotes(found: &mut Mentions, s: &str) {
    let mut i = 0;
    while let Some(rest) = s.get(i..) {
        let Some(off) = find_open_quote(rest.as_bytes()) else { break };
        let at = i + off;
        let tail = s.get(at..).unwrap_or("");
        let Some(open) = tail.chars().next() else { break };
        let after_open = at + open.len_utf8();
        if tail.starts_with("```") {
            // Skip to after the closing fence, or to the end.
            i = s.get(at + 3..).and_then(|t| t.find("```")).map_or(s.len(), |p| at + 3 + p + 3);
            continue;
        }
        if tail.starts_with("``") {
            i = at + 2;
            continue;
        }
        // A term is short: the closing quote is looked for nearby only.
        let line = window(s, after_open, 4 * QUOTE_MAX_CHARS + 8).split('\n').next().unwrap_or("");
        let close = match open {
            '"' => line.find('"').map(|p| (p, 1)),
            '`' => line.find('`').map(|p| (p, 1)),
            '\u{201c}' => line.find('\u{201d}').map(|p| (p, 3)),
            '\'' | '\u{2018}' => {
                let prev = s.get(..at).and_then(|h| h.chars().next_back());
                if prev.is_some_and(char::is_alphanumeric) {
                    None // an apostrophe: don't, it's
                } else {
                    single_close(line, open)
                }
            }
            _ => None,
        };
        match close {
            Some((p, width)) => {
                if let Some(term) = line.get(..p) {
                    if is_quoted_term(term) {
                        found.note(Kind::Quoted, term);
                    }
                }
                i = after_open + p + width;
            }
            None => i = after_open,
        }
    }
}

/// `find(['"', '`', '\'', '“', '‘'])`, on bytes: the curly quotes are `E2 80 9C`
/// and `E2 80 98`, and a lead byte never sits inside another character.
fn find_open_quote(b: &[u8]) -> Option<usize> {
    b.iter().enumerate().position(|(i, &c)| {
        matches!(c, b'"' | b'`' | b'\'') || (c == 0xE2 && matches!(b.get(i + 1..i + 3), Some([0x80, 0x9C | 0x98])))
    })
}

/// The closing single quote: one not followed by a letter or digit.
fn single_close(line: &str, open: char) -> Option<(usize, usize)> {
    let close = if open == '\'' { '\'' } else { '\u{2019}' };
    let mut from = 0;
    while let Some(p) = line.get(from..).and_then(|r| r.find(close)) {
        let at = from + p;
        let after = at + close.len_utf8();
        let next = line.get(after..).and_then(|r| r.chars().next());
        if !next.is_some_and(char::is_alphanumeric) {
            return Some((at, close.len_utf8()));
        }
        from = after;
    }
    None
}

fn is_quoted_term(term: &str) -> bool {
    let chars = term.chars().count();
    if !(QUOTE_MIN_CHARS..=QUOTE_MAX_CHARS).contains(&chars) || text::trim(term) != term {
        return false;
    }
    if !term.chars().any(char::is_alphanumeric) || term.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return false;
    }
    // A quoted path, URL or commit is already listed under its own kind.
    let single = !term.contains(char::is_whitespace);
    !(single && (as_path(term).is_some() || looks_like_sha(term) || find_scheme(term) == Some(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_apostrophes() {
        let mut m = Mentions::default();
        scan_quotes(
            &mut m,
            "don't rename 'session store' it's \u{201c}the ledger\u{201d} and `fast path`; \"a\" \"x\" ' spaced ' \"42\"\n```\nlet s = \"in code\";\n```\n`src/lib.rs`",
        );
        let mut q: Vec<String> = m.ranked().into_iter().map(|x| x.text).collect();
        q.sort();
        assert_eq!(q, vec!["fast path", "session store", "the ledger"]);
    }
}
