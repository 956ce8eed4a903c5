//! JS's view of a string: its whitespace set (what `trim()` and `\s` take), its `.length` in
//! UTF-16 code units, how `slice` resolves an index, and the two regex `replace`s the reference
//! makes (`/\s+/g` and a non-greedy span).

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
    // One unit per UTF-8 sequence, two for a 4-byte one: a byte loop, no decoding.
    s.bytes().map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum()
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
    fn spans_are_removed_non_greedy() {
        assert_eq!(remove_spans("a<r>x</r>b<r>y</r>c", "<r>", "</r>"), "abc");
        assert_eq!(remove_spans("a<r>x</r>b<r>y", "<r>", "</r>"), "ab<r>y");
        assert_eq!(remove_spans("<r><r>x</r></r>", "<r>", "</r>"), "</r>");
    }
}
