//! JavaScript's view of text, on UTF-16 code units: the characters the lexer names, its
//! whitespace (`\s`, `trim()`), its `.`, and the searches and skips every rule is written with.

pub(crate) const TAB: u16 = 0x09;
pub(crate) const NL: u16 = 0x0A;
pub(crate) const CR: u16 = 0x0D;
pub(crate) const SP: u16 = 0x20;
pub(crate) const BANG: u16 = 0x21;
pub(crate) const DQ: u16 = 0x22;
pub(crate) const HASH: u16 = 0x23;
pub(crate) const SQ: u16 = 0x27;
pub(crate) const LPAREN: u16 = 0x28;
pub(crate) const RPAREN: u16 = 0x29;
pub(crate) const STAR: u16 = 0x2A;
pub(crate) const PLUS: u16 = 0x2B;
pub(crate) const DASH: u16 = 0x2D;
pub(crate) const DOT: u16 = 0x2E;
pub(crate) const SLASH: u16 = 0x2F;
pub(crate) const COLON: u16 = 0x3A;
pub(crate) const LT: u16 = 0x3C;
pub(crate) const EQ: u16 = 0x3D;
pub(crate) const GT: u16 = 0x3E;
pub(crate) const QMARK: u16 = 0x3F;
pub(crate) const AT: u16 = 0x40;
pub(crate) const LBRACKET: u16 = 0x5B;
pub(crate) const BACKSLASH: u16 = 0x5C;
pub(crate) const RBRACKET: u16 = 0x5D;
pub(crate) const UNDERSCORE: u16 = 0x5F;
pub(crate) const BACKTICK: u16 = 0x60;
pub(crate) const TILDE: u16 = 0x7E;
pub(crate) const LINE_SEP: u16 = 0x2028;
pub(crate) const PARA_SEP: u16 = 0x2029;
pub(crate) const BOM: u16 = 0xFEFF;

pub(crate) fn at(e: &[u16], i: usize) -> Option<u16> {
    e.get(i).copied()
}

/// JavaScript's `\s` and what `trim()` removes.
pub(crate) fn is_js_space(c: u16) -> bool {
    matches!(c, 0x09..=0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF)
}

pub(crate) fn is_js_space_char(c: char) -> bool {
    u16::try_from(u32::from(c)).is_ok_and(is_js_space)
}

/// What JavaScript's `.` does not match.
pub(crate) fn is_dot_excluded(c: u16) -> bool {
    c == NL || c == CR || c == LINE_SEP || c == PARA_SEP
}

pub(crate) fn is_digit(c: u16) -> bool {
    (0x30..=0x39).contains(&c)
}

pub(crate) fn is_ascii_alpha(c: u16) -> bool {
    (0x41..=0x5A).contains(&c) || (0x61..=0x7A).contains(&c)
}

pub(crate) fn is_word(c: u16) -> bool {
    is_ascii_alpha(c) || is_digit(c) || c == UNDERSCORE
}

pub(crate) fn is_ascii_punct(c: u16) -> bool {
    (0x21..=0x2F).contains(&c)
        || (0x3A..=0x40).contains(&c)
        || (0x5B..=0x60).contains(&c)
        || (0x7B..=0x7E).contains(&c)
}

pub(crate) fn ascii_lower(c: u16) -> u16 {
    if (0x41..=0x5A).contains(&c) {
        c + 0x20
    } else {
        c
    }
}

pub(crate) fn ascii_upper_eq(e: &[u16], lit: &str) -> bool {
    e.len() == lit.len()
        && e.iter().zip(lit.bytes()).all(|(&c, b)| {
            let up = if (0x61..=0x7A).contains(&c) {
                c - 0x20
            } else {
                c
            };
            up == u16::from(b)
        })
}

pub(crate) fn starts_at(e: &[u16], i: usize, lit: &str) -> bool {
    let n = lit.len();
    e.get(i..i + n)
        .is_some_and(|s| s.iter().zip(lit.bytes()).all(|(&c, b)| c == u16::from(b)))
}

pub(crate) fn find_unit(e: &[u16], from: usize, c: u16) -> Option<usize> {
    e.get(from..)?
        .iter()
        .position(|&x| x == c)
        .map(|p| p + from)
}

pub(crate) fn rfind_unit(e: &[u16], upto: usize, c: u16) -> Option<usize> {
    let end = upto.checked_add(1)?.min(e.len());
    e.get(..end)?.iter().rposition(|&x| x == c)
}

pub(crate) fn find_seq(e: &[u16], from: usize, lit: &str) -> Option<usize> {
    let needle: Vec<u16> = lit.encode_utf16().collect();
    let hay = e.get(from..)?;
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    hay.windows(needle.len())
        .position(|w| w == needle.as_slice())
        .map(|p| p + from)
}

/// `hl`: past the first `lit` from `from`, or the text's end.
pub(crate) fn after_seq(e: &[u16], lit: &str, from: usize) -> usize {
    find_seq(e, from, lit).map_or(e.len(), |p| p + lit.len())
}

pub(crate) fn line_end(e: &[u16], o: usize) -> usize {
    find_unit(e, o, NL).unwrap_or(e.len())
}

/// `tr`: the next `\n`, `\r`, U+2028 or U+2029 from `o`, or the length.
pub(crate) fn next_line_terminator(e: &[u16], o: usize) -> usize {
    e.get(o..)
        .and_then(|t| t.iter().position(|&c| is_dot_excluded(c)))
        .map_or(e.len(), |p| p + o)
}

pub(crate) fn skip_unit(e: &[u16], o: usize, c: u16) -> usize {
    let mut i = o;
    while at(e, i) == Some(c) {
        i += 1;
    }
    i.max(o)
}

pub(crate) fn skip_newlines(e: &[u16], o: usize) -> usize {
    skip_unit(e, o, NL)
}

pub(crate) fn skip_spaces(e: &[u16], o: usize) -> usize {
    skip_unit(e, o, SP)
}

pub(crate) fn skip_up_to_3_spaces(e: &[u16], o: usize) -> usize {
    let mut i = o;
    while i < o + 3 && at(e, i) == Some(SP) {
        i += 1;
    }
    i
}

pub(crate) fn skip_tabs_spaces(e: &[u16], o: usize) -> usize {
    let mut i = o;
    while matches!(at(e, i), Some(TAB) | Some(SP)) {
        i += 1;
    }
    i
}

pub(crate) fn skip_js_space(e: &[u16], o: usize) -> usize {
    let mut i = o;
    while at(e, i).is_some_and(is_js_space) {
        i += 1;
    }
    i
}

pub(crate) fn next_js_space(e: &[u16], o: usize) -> usize {
    e.get(o..)
        .and_then(|t| t.iter().position(|&c| is_js_space(c)))
        .map_or(e.len(), |p| p + o)
}

pub(crate) fn at_line_end(e: &[u16], o: usize) -> bool {
    o >= e.len() || at(e, o) == Some(NL)
}

pub(crate) fn trim_trailing(e: &[u16], c: u16) -> &[u16] {
    let n = e.iter().rposition(|&x| x != c).map_or(0, |p| p + 1);
    e.get(..n).unwrap_or(&[])
}

pub(crate) fn js_trim_start(e: &[u16]) -> &[u16] {
    let n = e.iter().position(|&c| !is_js_space(c)).unwrap_or(e.len());
    e.get(n..).unwrap_or(&[])
}

pub(crate) fn js_trim_end(e: &[u16]) -> &[u16] {
    let n = e
        .iter()
        .rposition(|&c| !is_js_space(c))
        .map_or(0, |p| p + 1);
    e.get(..n).unwrap_or(&[])
}

pub(crate) fn js_trim(e: &[u16]) -> &[u16] {
    js_trim_end(js_trim_start(e))
}
