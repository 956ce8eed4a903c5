//! Strings the way JavaScript sees them.
//!
//! The reference measures and cuts text with `.length` and `.slice`, which count
//! UTF-16 code units, and trims with JS's whitespace set. Rust strings are UTF-8,
//! so every length, budget and cut point goes through here. The one deliberate
//! difference: a cut never splits a surrogate pair or a grapheme cluster.

use unicode_segmentation::GraphemeCursor;

/// JS `WhiteSpace` and `LineTerminator`: what `\s` and `trim()` remove. Not Rust's
/// `char::is_whitespace`, which takes U+0085 and leaves U+FEFF.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | ' '
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
            | '\u{feff}'
    )
}

/// JS line terminators: where a multiline `^` may match.
pub fn is_js_line_end(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

pub fn trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_space)
}

/// `s.replace(/\s+/g, ' ')`.
pub fn collapse_space(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if is_js_space(c) {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    out
}

/// `s.length`.
pub fn len16(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    s.chars().map(char::len_utf16).sum()
}

/// The byte offset of UTF-16 index `units`, rounded down to a char boundary when
/// it falls between the halves of a surrogate pair. Past the end: the end.
fn byte_at(s: &str, units: usize) -> usize {
    if s.is_ascii() {
        return units.min(s.len());
    }
    let mut seen = 0;
    for (i, c) in s.char_indices() {
        let next = seen + c.len_utf16();
        if next > units {
            return i;
        }
        seen = next;
    }
    s.len()
}

/// The nearest grapheme boundary at or before `byte` (a char boundary).
fn grapheme_floor(s: &str, byte: usize) -> usize {
    if byte == 0 || byte >= s.len() {
        return byte.min(s.len());
    }
    let mut cursor = GraphemeCursor::new(byte, s.len(), true);
    match cursor.is_boundary(s, 0) {
        Ok(true) => byte,
        _ => match cursor.prev_boundary(s, 0) {
            Ok(Some(b)) => b,
            _ => byte,
        },
    }
}

/// The nearest grapheme boundary at or after `byte` (a char boundary).
fn grapheme_ceil(s: &str, byte: usize) -> usize {
    if byte == 0 || byte >= s.len() {
        return byte.min(s.len());
    }
    let mut cursor = GraphemeCursor::new(byte, s.len(), true);
    match cursor.is_boundary(s, 0) {
        Ok(true) => byte,
        _ => match cursor.next_boundary(s, 0) {
            Ok(Some(b)) => b,
            _ => s.len(),
        },
    }
}

/// JS `relative index` resolution for `slice`: `ToIntegerOrInfinity`, negative
/// counts from the end, clamped to `0..=len`.
pub fn slice_index(x: f64, len: usize) -> usize {
    let len_f = len as f64;
    let i = if x.is_nan() { 0.0 } else { x.trunc() };
    let resolved = if i < 0.0 { (len_f + i).max(0.0) } else { i.min(len_f) };
    // `resolved` is an integer in 0..=len here.
    resolved as usize
}

/// `s.slice(0, end)`, ending at a grapheme boundary at or before that point.
pub fn head(s: &str, end_units: usize) -> &str {
    let byte = grapheme_floor(s, byte_at(s, end_units));
    s.get(..byte).unwrap_or(s)
}

/// `s.slice(start)`, starting at a grapheme boundary at or after that point, so a
/// cut never makes the text longer than the reference's.
pub fn tail(s: &str, start_units: usize) -> &str {
    let at = byte_at(s, start_units);
    // `byte_at` rounds a split pair down; a tail must round up instead.
    let at = if len16(s.get(..at).unwrap_or("")) < start_units {
        s.get(at..).and_then(|r| r.chars().next()).map_or(at, |c| at + c.len_utf8())
    } else {
        at
    };
    let byte = grapheme_ceil(s, at);
    s.get(byte..).unwrap_or("")
}

/// `String(n)` for a JS number: shortest round-trip digits, JS's exponent rules.
pub fn js_number(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if n == 0.0 {
        return "0".into();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let sci = format!("{:e}", n.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let point = exp + 1; // JS's `n`: where the decimal point goes
    let sign = if n < 0.0 { "-" } else { "" };
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let e = if e >= 0 { format!("+{e}") } else { e.to_string() };
        let (a, b) = digits.split_at(1);
        if b.is_empty() {
            format!("{a}e{e}")
        } else {
            format!("{a}.{b}e{e}")
        }
    };
    format!("{sign}{body}")
}

/// Where a long text is cut: the head keeps 70% of `max`, the tail the rest, and
/// a note in between says how much went. `max` is a JS number, NaN and all.
pub fn cut_middle(s: &str, max: f64, note: &str) -> String {
    let len = len16(s);
    if (len as f64) <= max {
        return s.to_owned();
    }
    let head_units = (max * 0.7).floor();
    let tail_units = max - head_units;
    let head_end = slice_index(head_units, len);
    let tail_start = slice_index(len as f64 - tail_units, len);
    let kept_head = head(s, head_end);
    let kept_tail = tail(s, tail_start);
    let moved = len16(kept_head) != head_end || len16(kept_tail) != len - tail_start;
    // The reference reports `length - max`; where a grapheme moved a cut, the
    // count says what really went.
    let cut = if moved {
        len.saturating_sub(len16(kept_head) + len16(kept_tail)).to_string()
    } else {
        js_number(len as f64 - max)
    };
    format!("{kept_head}\n[... {cut} characters cut; {note} ...]\n{kept_tail}")
}

/// Removes every `open … close` span (non-greedy, as `/open[\s\S]*?close/g`). An
/// unterminated `open` stays.
pub fn remove_spans(s: &str, open: &str, close: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(start) = rest.find(open) {
        let after = start + open.len();
        let Some(end) = rest.get(after..).and_then(|r| r.find(close)) else {
            break;
        };
        out.push_str(rest.get(..start).unwrap_or(""));
        rest = rest.get(after + end + close.len()..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_whitespace_set() {
        for c in ['\u{a0}', '\u{feff}', '\u{2028}', '\u{2029}', '\u{3000}', '\u{b}', '\u{c}'] {
            assert!(is_js_space(c), "{c:?}");
        }
        assert!(!is_js_space('\u{85}'));
        assert!(!is_js_space('\u{180e}'));
        assert!(!is_js_space('\u{200b}'));
        assert_eq!(trim("\u{feff}\u{a0} x \u{3000}\n"), "x");
        assert_eq!(trim_end(" x \u{2029}"), " x");
        assert_eq!(collapse_space("a \n\t b\u{a0}\u{a0}c "), "a b c ");
    }

    #[test]
    fn lengths_count_utf16_units() {
        assert_eq!(len16(""), 0);
        assert_eq!(len16("abc"), 3);
        assert_eq!(len16("é"), 1);
        assert_eq!(len16("😀"), 2);
        assert_eq!(len16("a😀b"), 4);
    }

    #[test]
    fn head_never_splits_a_pair_or_cluster() {
        assert_eq!(head("a😀b", 1), "a");
        assert_eq!(head("a😀b", 2), "a"); // inside the pair
        assert_eq!(head("a😀b", 3), "a😀");
        // e + combining acute: one grapheme of two units
        assert_eq!(head("xe\u{301}y", 2), "x");
        // family emoji: ZWJ sequence
        let fam = "a👨\u{200d}👩\u{200d}👧b";
        assert_eq!(head(fam, 4), "a");
        assert_eq!(head(fam, 100), fam);
    }

    #[test]
    fn tail_never_splits_and_never_grows() {
        assert_eq!(tail("a😀b", 0), "a😀b");
        assert_eq!(tail("a😀b", 1), "😀b");
        assert_eq!(tail("a😀b", 2), "b"); // inside the pair: forward
        assert_eq!(tail("a😀b", 3), "b");
        assert_eq!(tail("xe\u{301}y", 2), "y");
        assert_eq!(tail("abc", 9), "");
    }

    #[test]
    fn slice_index_matches_js() {
        assert_eq!(slice_index(f64::NAN, 10), 0);
        assert_eq!(slice_index(-3.0, 10), 7);
        assert_eq!(slice_index(-30.0, 10), 0);
        assert_eq!(slice_index(3.9, 10), 3);
        assert_eq!(slice_index(-3.9, 10), 7);
        assert_eq!(slice_index(f64::INFINITY, 10), 10);
        assert_eq!(slice_index(f64::NEG_INFINITY, 10), 0);
    }

    #[test]
    fn numbers_print_as_js_does() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-42.0, "-42"),
            (9.5, "9.5"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (8.64e15, "8640000000000000"),
        ];
        for (n, want) in cases {
            assert_eq!(js_number(n), want, "{n}");
        }
    }

    #[test]
    fn spans_are_removed_non_greedy() {
        assert_eq!(remove_spans("a<r>x</r>b<r>y</r>c", "<r>", "</r>"), "abc");
        assert_eq!(remove_spans("a<r>x</r>b<r>y", "<r>", "</r>"), "ab<r>y");
        assert_eq!(remove_spans("<r><r>x</r></r>", "<r>", "</r>"), "</r>");
    }
}
