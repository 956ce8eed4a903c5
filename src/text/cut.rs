//! Cutting text where the reference slices it, at UTF-16 indexes, moved to the nearest grapheme
//! boundary so that a cut never splits a surrogate pair or a grapheme cluster.

use unicode_segmentation::GraphemeCursor;

use super::js_string::{len16, slice_index};
use super::number::number_to_string;

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
        number_to_string(len as f64 - max)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
