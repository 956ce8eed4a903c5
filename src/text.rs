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
    // One unit per UTF-8 sequence, two for a 4-byte one: a byte loop, no decoding.
    s.bytes().map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum()
}

/// The byte offset of UTF-16 index `units`, rounded down to a char boundary when
/// it falls between the halves of a surrogate pair. Past the end: the end.
fn byte_at(s: &str, units: usize) -> usize {
    let mut seen = 0;
    for (i, b) in s.bytes().enumerate() {
        if b & 0xC0 == 0x80 {
            continue;
        }
        let next = seen + if b >= 0xF0 { 2 } else { 1 };
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

/// `tail(s, len16(s) - units)`, found from the end: the walk covers the tail alone.
fn last_units(s: &str, units: usize) -> &str {
    let mut after = 0;
    let mut at = s.len();
    for (i, b) in s.bytes().enumerate().rev() {
        if b & 0xC0 == 0x80 {
            continue;
        }
        after += if b >= 0xF0 { 2 } else { 1 };
        if after > units {
            break;
        }
        at = i;
    }
    let byte = grapheme_ceil(s, at);
    s.get(byte..).unwrap_or("")
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
    let mut out = String::new();
    cut_middle_into(&mut out, s, max, note);
    out
}

/// `cut_middle`, appended to `out` (no intermediate string).
pub fn cut_middle_into(out: &mut String, s: &str, max: f64, note: &str) {
    // No more bytes than the limit: no more UTF-16 units either, so no need to count.
    if (s.len() as f64) <= max {
        out.push_str(s);
        return;
    }
    let len = len16(s);
    if (len as f64) <= max {
        out.push_str(s);
        return;
    }
    let head_units = (max * 0.7).floor();
    let tail_units = max - head_units;
    let head_end = slice_index(head_units, len);
    let tail_start = slice_index(len as f64 - tail_units, len);
    let kept_head = head(s, head_end);
    let kept_tail = last_units(s, len - tail_start);
    let moved = len16(kept_head) != head_end || len16(kept_tail) != len - tail_start;
    // The reference reports `length - max`; where a grapheme moved a cut, the
    // count says what really went.
    let cut = if moved {
        len.saturating_sub(len16(kept_head) + len16(kept_tail)).to_string()
    } else {
        js_number(len as f64 - max)
    };
    out.reserve(kept_head.len() + kept_tail.len() + note.len() + 40);
    out.push_str(kept_head);
    out.push_str("\n[... ");
    out.push_str(&cut);
    out.push_str(" characters cut; ");
    out.push_str(note);
    out.push_str(" ...]\n");
    out.push_str(kept_tail);
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

/// JSON text with every escaped lone surrogate (`\\ud800` alone, which JS's
/// `JSON.stringify` writes for a string cut inside a pair) made `\\ufffd`, so one
/// broken character costs that character, not the whole parse.
pub fn well_formed_json(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.contains("\\u") {
        return std::borrow::Cow::Borrowed(json);
    }
    let bytes = json.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let escape_at = |at: usize| bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u');
    let mut fixed: Option<Vec<u8>> = None;
    let (mut i, mut in_string) = (0, false);
    while let Some(&c) = bytes.get(i) {
        if !in_string {
            in_string = c == b'"';
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_string = false;
                i += 1;
            }
            b'\\' if escape_at(i) => {
                let unit = hex(i + 2);
                let paired = matches!(unit, Some(0xD800..=0xDBFF))
                    && escape_at(i + 6)
                    && matches!(hex(i + 8), Some(0xDC00..=0xDFFF));
                if paired {
                    i += 12;
                } else if matches!(unit, Some(0xD800..=0xDFFF)) {
                    let out = fixed.get_or_insert_with(|| bytes.to_vec());
                    if let Some(slot) = out.get_mut(i + 2..i + 6) {
                        slot.copy_from_slice(b"fffd");
                    }
                    i += 6;
                } else {
                    i += 6;
                }
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    match fixed.map(String::from_utf8) {
        Some(Ok(s)) => std::borrow::Cow::Owned(s),
        _ => std::borrow::Cow::Borrowed(json),
    }
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
    fn last_units_is_tail_from_the_end() {
        for s in ["", "abc", "a😀b", "😀😀", "e\u{301}x", "ab👨‍👩‍👧cd", "日本語😀x"] {
            for k in 0..=len16(s) + 1 {
                assert_eq!(last_units(s, k), tail(s, len16(s).saturating_sub(k)), "{s:?} {k}");
            }
        }
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
    fn lone_surrogate_escapes_become_replacement_characters() {
        let pair = r#"["a\ud83d\ude00b"]"#;
        assert_eq!(well_formed_json(pair), pair);
        assert_eq!(well_formed_json(r#"["x \ud800", "\udc00y"]"#), r#"["x \ufffd", "\ufffdy"]"#);
        assert_eq!(well_formed_json(r#"["\ud83d\u0041"]"#), r#"["\ufffd\u0041"]"#);
        // An escaped backslash followed by "ud800" is text, not an escape.
        assert_eq!(well_formed_json(r#"["\\ud800"]"#), r#"["\\ud800"]"#);
        assert_eq!(well_formed_json(r#"{"\ud800":1}"#), r#"{"\ufffd":1}"#);
        assert_eq!(well_formed_json(r#"["cut \ud8"]"#), r#"["cut \ud8"]"#);
        let v: Vec<String> = serde_json::from_str(&well_formed_json(r#"["x \ud800 y"]"#)).unwrap();
        assert_eq!(v, ["x \u{fffd} y"]);
    }

    #[test]
    fn spans_are_removed_non_greedy() {
        assert_eq!(remove_spans("a<r>x</r>b<r>y</r>c", "<r>", "</r>"), "abc");
        assert_eq!(remove_spans("a<r>x</r>b<r>y", "<r>", "</r>"), "ab<r>y");
        assert_eq!(remove_spans("<r><r>x</r></r>", "<r>", "</r>"), "</r>");
    }
}
