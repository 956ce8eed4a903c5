//! What each byte can be part of, one table lookup per byte in the scanners' loops, and the
//! byte searches they share (no searcher to set up per text).

/// ASCII whitespace, as `split_ascii_whitespace` splits on.
pub(crate) const WS: u8 = 1;
/// Lower-case hex: what a commit is made of.
pub(crate) const HEX: u8 = 2;
/// `[A-Za-z0-9_]`.
const WORD: u8 = 4;
pub(crate) const SLASH: u8 = 8;
/// A byte a word that matters to [`scan_words`] must hold: `/`, or the start of
/// `git` or `branch`.
pub(crate) const CUE: u8 = 16;
/// ASCII a path may hold: `[A-Za-z0-9._\-/~@+]` (see [`is_path_char`]).
pub(crate) const PATH: u8 = 32;
/// Where a word breaks into pieces: `"'`<>|{}()[],;=*`.
pub(crate) const PIECE_BREAK: u8 = 64;
pub(crate) const COLON: u8 = 128;

/// What each byte can be part of: one lookup per byte in the scanners' loops.
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut k = 0;
        if b.is_ascii_whitespace() {
            k |= WS;
        }
        if b.is_ascii_digit() || (b >= b'a' && b <= b'f') {
            k |= HEX;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            k |= WORD;
        }
        if b == b'/' {
            k |= SLASH;
        }
        if matches!(b, b'/' | b'g' | b'b' | b'B') {
            k |= CUE;
        }
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/' | b'~' | b'@' | b'+') {
            k |= PATH;
        }
        if matches!(b, b'"' | b'\'' | b'`' | b'<' | b'>' | b'|' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b',' | b';' | b'=' | b'*') {
            k |= PIECE_BREAK;
        }
        if b == b':' {
            k |= COLON;
        }
        table[i] = k;
        i += 1;
    }
    table
};

pub(crate) fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

pub(crate) fn is_word_byte(b: u8) -> bool {
    class(b) & WORD != 0
}

/// Where a word breaks into pieces that may each be a path.
#[cfg(test)]
fn is_piece_break(c: char) -> bool {
    matches!(c, '"' | '\'' | '`' | '<' | '>' | '|' | '{' | '}' | '(' | ')' | '[' | ']' | ',' | ';' | '=' | '*')
}

/// The leftmost `needle` in `hay`, as `str::find` gives it, without a searcher to set up.
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut from = 0;
    while let Some(p) = hay.get(from..)?.iter().position(|&c| c == first) {
        let at = from + p;
        if hay.get(at + 1..).is_some_and(|t| t.starts_with(rest)) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// `s[from..]`, at most `max` bytes of it, ending on a char boundary.
pub(crate) fn window(s: &str, from: usize, max: usize) -> &str {
    let rest = s.get(from..).unwrap_or("");
    if rest.len() <= max {
        return rest;
    }
    let mut end = max;
    while end > 0 && !rest.is_char_boundary(end) {
        end -= 1;
    }
    rest.get(..end).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::scan::paths::is_path_char;

    #[test]
    fn byte_classes_agree() {
        for b in 0..=255u8 {
            let k = class(b);
            assert_eq!(k & WS != 0, b.is_ascii_whitespace(), "{b}");
            assert_eq!(k & HEX != 0, b.is_ascii_digit() || (b'a'..=b'f').contains(&b), "{b}");
            assert_eq!(k & WORD != 0, b.is_ascii_alphanumeric() || b == b'_', "{b}");
            assert_eq!(k & SLASH != 0, b == b'/', "{b}");
            assert_eq!(k & PATH != 0, b.is_ascii() && is_path_char(char::from(b)), "{b}");
            assert_eq!(k & PIECE_BREAK != 0, b.is_ascii() && is_piece_break(char::from(b)), "{b}");
        }
    }
}
