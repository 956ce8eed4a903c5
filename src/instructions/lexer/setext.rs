//! Setext headings (`Vu`, `Rl`), and the engine's `AFn` override, which tries one only
//! on lines from which an underline below can be reached.

use super::blocks::code_indent;
use super::list::list_marker_end;
use crate::instructions::utf16::{
    at, at_line_end, is_digit, is_dot_excluded, is_js_space, rfind_unit, skip_spaces, skip_unit,
    skip_up_to_3_spaces, starts_at, CR, DASH, EQ, GT, HASH, LINE_SEP, LT, NL, PARA_SEP, PLUS, SP,
    STAR, TAB,
};

/// `Rl`/`LP`: a setext underline at `o` and the newlines after it; where that ends.
pub(crate) fn setext_rule_end(e: &[u16], o: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, o);
    let c = at(e, i).filter(|&c| c == DASH || c == EQ)?;
    let j = skip_spaces(e, skip_unit(e, i, c));
    at_line_end(e, j).then(|| skip_unit(e, j, NL))
}

/// `Vu`: where a setext heading's text lines end (its underline starts), or where looking
/// stopped.
pub(crate) fn setext_underline_at(e: &[u16]) -> Result<usize, usize> {
    let mut o = 0;
    while let Some(r) = setext_text_line(e, o) {
        o = r;
        if o > 1 && setext_rule_end(e, o).is_some() {
            return Ok(o);
        }
        if blank_line_at(e, o) {
            break;
        }
    }
    Err(o)
}

/// `$P`: a line that can be part of a setext heading's text; past its newline.
fn setext_text_line(e: &[u16], o: usize) -> Option<usize> {
    if matches!(at(e, o), Some(DASH) | Some(PLUS) | Some(STAR)) && at(e, o + 1) == Some(SP) {
        return None;
    }
    if at(e, o).is_some_and(is_digit) {
        if let Some(end) = list_marker_end(e, o) {
            if at(e, end) == Some(SP) {
                return None;
            }
        }
    }
    let p = skip_up_to_3_spaces(e, o);
    if matches!(at(e, p), Some(TAB) | Some(HASH) | Some(GT))
        || starts_at(e, p, "```")
        || starts_at(e, p, "~~~")
    {
        return None;
    }
    if at(e, p) == Some(LT) {
        let mut i = p + 1;
        while at(e, i).is_some_and(|c| c != NL && c != GT) {
            i += 1;
        }
        if i > p + 1 && at(e, i) == Some(GT) && at(e, i + 1) == Some(NL) {
            return None;
        }
    }
    if (0..4).all(|k| at(e, o + k) == Some(SP)) {
        return None;
    }
    let mut i = o;
    loop {
        match at(e, i)? {
            NL => return Some(i + 1),
            c if is_dot_excluded(c) => return None,
            _ => i += 1,
        }
    }
}

/// `NP`: `[^\S\n]*\n` at `o`.
fn blank_line_at(e: &[u16], o: usize) -> bool {
    let mut i = o;
    while at(e, i).is_some_and(|c| c != NL && is_js_space(c)) {
        i += 1;
    }
    at(e, i) == Some(NL)
}

/// The engine's `AFn.blockTokens`: the line starts (by remaining length) from which lines
/// that cannot stop a setext heading lead down to an underline.
pub(crate) fn setext_reach(text: &[u16]) -> Vec<bool> {
    let len = text.len();
    let mut reach = vec![false; len + 1];
    let any_underline = text
        .split(|&c| c == NL || c == CR || c == LINE_SEP || c == PARA_SEP)
        .any(is_underline_line);
    if !any_underline {
        return reach;
    }
    let mut h = len as isize;
    let mut below = false;
    while h >= 0 {
        let k = if h == 0 {
            0
        } else {
            rfind_unit(text, (h - 1) as usize, NL).map_or(0, |p| p + 1)
        };
        let line = text.get(k..h as usize).unwrap_or(&[]);
        if below {
            if let Some(slot) = reach.get_mut(len - k) {
                *slot = true;
            }
        }
        below = is_underline_line(line) || (below && !stops_setext(line));
        h = k as isize - 1;
    }
    reach
}

/// `OJr`: `^ {0,3}(?:=+|-+) *$`.
fn is_underline_line(line: &[u16]) -> bool {
    let i = skip_up_to_3_spaces(line, 0);
    let Some(c) = at(line, i).filter(|&c| c == DASH || c == EQ) else {
        return false;
    };
    skip_spaces(line, skip_unit(line, i, c)) == line.len()
}

/// `LJr`: a line that ends a setext heading's reach upward.
fn stops_setext(line: &[u16]) -> bool {
    if line.iter().all(|&c| is_js_space(c)) || line.contains(&LINE_SEP) || line.contains(&PARA_SEP)
    {
        return true;
    }
    if let Some(end) = list_marker_end(line, 0) {
        if at(line, end) == Some(SP) {
            return true;
        }
    }
    if code_indent(line, 0).is_some() {
        return true;
    }
    let p = skip_up_to_3_spaces(line, 0);
    if starts_at(line, p, "```")
        || starts_at(line, p, "~~~")
        || matches!(at(line, p), Some(GT) | Some(HASH))
    {
        return true;
    }
    if at(line, p) == Some(LT) && line.last() == Some(&GT) && line.len() > p + 2 {
        let inner = line.get(p + 1..line.len() - 1).unwrap_or(&[]);
        if !inner.iter().any(|&c| c == NL || c == GT) {
            return true;
        }
    }
    false
}
