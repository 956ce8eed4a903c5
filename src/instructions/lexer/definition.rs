//! Link reference definitions (`lS`): the lexer takes `[x]: /url` lines out of the
//! token stream, so once a file has a comment they are gone from the engine's copy.

use crate::instructions::utf16::{
    at, at_line_end, find_unit, is_dot_excluded, next_js_space, next_line_terminator, rfind_unit,
    skip_js_space, skip_tabs_spaces, skip_unit, skip_up_to_3_spaces, BACKSLASH, COLON, DQ, GT,
    LBRACKET, LPAREN, LT, NL, RBRACKET, RPAREN, SP, SQ,
};

/// `lS`: a link reference definition, with the newlines after it.
pub(crate) fn def_len(e: &[u16]) -> Option<usize> {
    let o = skip_up_to_3_spaces(e, 0);
    if at(e, o) != Some(LBRACKET) {
        return None;
    }
    let r = def_label_end(e, o + 1)?;
    if r <= o + 1 || at(e, r + 1) != Some(COLON) {
        return None;
    }
    let g = def_gap(e, r + 2);
    if at(e, g) != Some(LT) {
        let k = next_js_space(e, g);
        if k == g {
            return None;
        }
        return def_rest(e, k);
    }
    let limit = next_line_terminator(e, g);
    let mut k = find_unit(e, g, GT);
    while let Some(pos) = k.filter(|&p| p < limit) {
        if let Some(len) = def_rest(e, pos + 1) {
            return Some(len);
        }
        k = find_unit(e, pos + 1, GT);
    }
    None
}

/// `Tl`: the label's closing bracket.
fn def_label_end(e: &[u16], o: usize) -> Option<usize> {
    let mut r = o;
    loop {
        match at(e, r) {
            Some(BACKSLASH) if at(e, r + 1).is_some_and(|c| !is_dot_excluded(c)) => r += 2,
            Some(c) if c != LBRACKET && c != BACKSLASH && c != RBRACKET => {
                while at(e, r).is_some_and(|c| c != LBRACKET && c != BACKSLASH && c != RBRACKET) {
                    r += 1;
                }
            }
            _ => break,
        }
    }
    (at(e, r) == Some(RBRACKET) && skip_js_space(e, o) < r).then_some(r)
}

/// `dS`: spaces, and at most one newline followed by spaces or tabs.
fn def_gap(e: &[u16], o: usize) -> usize {
    let r = skip_unit(e, o, SP);
    if at(e, r) == Some(NL) {
        skip_tabs_spaces(e, r + 1)
    } else {
        r
    }
}

/// `aS`: an optional title, then the end of the line; the definition's length.
fn def_rest(e: &[u16], h: usize) -> Option<usize> {
    let g = def_gap(e, h);
    let mut title_end = None;
    if g > h {
        match at(e, g) {
            Some(DQ) => title_end = def_double_quoted(e, g),
            Some(SQ) => {
                title_end = find_unit(e, g + 1, SQ).filter(|&y| {
                    let inner = e.get(g..y).unwrap_or(&[]);
                    !inner.windows(2).any(|w| w == [NL, NL])
                });
            }
            Some(LPAREN) => {
                let mut y = g + 1;
                while at(e, y).is_some_and(|c| c != LPAREN && c != RPAREN) {
                    y += 1;
                }
                title_end = (at(e, y) == Some(RPAREN)).then_some(y);
            }
            _ => {}
        }
    }
    if let Some(len) = title_end.and_then(|y| def_line_end(e, y + 1)) {
        return Some(len);
    }
    def_line_end(e, h)
}

/// `Ju(e, g, '"', Qu)`.
fn def_double_quoted(e: &[u16], o: usize) -> Option<usize> {
    let mut g = find_unit(e, o + 1, DQ);
    let mut y: Option<usize> = None;
    while let Some(pos) = g {
        y = Some(pos);
        if pos == o + 1 || at(e, pos - 1) != Some(BACKSLASH) {
            break;
        }
        g = find_unit(e, pos + 1, DQ);
    }
    while let Some(pos) = y.filter(|&p| p > o) {
        if def_line_end(e, pos + 1).is_some() {
            return Some(pos);
        }
        y = rfind_unit(e, pos - 1, DQ);
    }
    None
}

/// `Qu`: spaces then the end of the line; past the newlines there.
fn def_line_end(e: &[u16], o: usize) -> Option<usize> {
    let r = skip_unit(e, o, SP);
    at_line_end(e, r).then(|| skip_unit(e, r, NL))
}
