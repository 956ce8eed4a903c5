//! The leaf block rules: blank lines, indented and fenced code, ATX headings, thematic
//! breaks, and paragraphs with what interrupts them.

use super::html::html_interrupt_at;
use crate::instructions::utf16::{
    at, at_line_end, find_unit, is_dot_excluded, is_js_space, line_end, skip_spaces,
    skip_tabs_spaces, skip_unit, skip_up_to_3_spaces, starts_at, BACKTICK, DASH, DOT, GT, HASH, NL,
    PLUS, RPAREN, SP, STAR, TAB, TILDE, UNDERSCORE,
};

/// `yl`: blank lines.
pub(crate) fn space_len(e: &[u16]) -> usize {
    if e.iter().all(|&c| is_blankish(c)) {
        return e.len();
    }
    let i = skip_tabs_spaces(e, 0);
    if at(e, i) != Some(NL) {
        return 0;
    }
    past_blank_lines(e, i + 1)
}

/// `B_`: an indent of a tab after up to three spaces, or four spaces; where it ends.
pub(crate) fn code_indent(e: &[u16], r: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, r);
    if at(e, i) == Some(TAB) {
        return Some(i + 1);
    }
    if (0..4).all(|k| at(e, r + k) == Some(SP)) {
        return Some(r + 4);
    }
    None
}

/// `Sl`: an indented code block, with the blank lines after it.
pub(crate) fn indented_code_len(e: &[u16]) -> Option<usize> {
    let mut end = None;
    let mut r = 0;
    loop {
        let Some(h) = code_indent(e, r).filter(|&h| !at_line_end(e, h)) else {
            return end;
        };
        let g = line_end(e, h);
        let next = if g < e.len() {
            blank_run_end(e, g + 1)
        } else {
            g
        };
        end = Some(next);
        r = next;
    }
}

/// `WP`: `[\t\n ]*$|[\t\n ]*\n|` at `p`.
fn blank_run_end(e: &[u16], p: usize) -> usize {
    let tail = e.get(p..).unwrap_or(&[]);
    if tail.iter().all(|&c| is_blankish(c)) {
        return e.len();
    }
    past_blank_lines(e, p)
}

/// `[\t\n ]`: what blank lines are made of, for `yl` and `WP`.
fn is_blankish(c: u16) -> bool {
    c == TAB || c == NL || c == SP
}

/// Past the last newline of the run of tabs, spaces and newlines from `from`; `from` when the
/// run holds none.
fn past_blank_lines(e: &[u16], from: usize) -> usize {
    let mut end = from;
    let mut j = from;
    while let Some(c) = at(e, j).filter(|&c| is_blankish(c)) {
        if c == NL {
            end = j + 1;
        }
        j += 1;
    }
    end
}

/// `OP`: an opening fence; where its marker ends.
fn fence_open(e: &[u16]) -> Option<usize> {
    let p = skip_up_to_3_spaces(e, 0);
    let c = at(e, p)?;
    if c != BACKTICK && c != TILDE {
        return None;
    }
    let end = skip_unit(e, p, c);
    if end - p < 3 {
        return None;
    }
    if c == BACKTICK
        && e.get(end..line_end(e, end))
            .is_some_and(|l| l.contains(&BACKTICK))
    {
        return None;
    }
    Some(end)
}

/// `zu`: the start of the closing fence's line.
fn fence_close(e: &[u16], marker_end: usize) -> Option<usize> {
    let marker = e.get(skip_up_to_3_spaces(e, 0)..marker_end)?;
    let mut h = marker_end;
    loop {
        let (newline, start) = next_fence_candidate(e, h)?;
        let after = start + marker.len();
        if e.get(start..after) == Some(marker) {
            let i = skip_spaces(e, skip_fence_chars(e, after));
            if at_line_end(e, i) {
                return Some(newline + 1);
            }
        }
        h = start;
    }
}

/// `PP` (`/\n {0,3}(?=[`~])/g`) from `h`: the newline and where the fence character is.
fn next_fence_candidate(e: &[u16], h: usize) -> Option<(usize, usize)> {
    let mut q = h;
    loop {
        let newline = find_unit(e, q, NL)?;
        let start = skip_up_to_3_spaces(e, newline + 1);
        if matches!(at(e, start), Some(BACKTICK) | Some(TILDE)) {
            return Some((newline, start));
        }
        q = newline + 1;
    }
}

fn skip_fence_chars(e: &[u16], mut i: usize) -> usize {
    while matches!(at(e, i), Some(BACKTICK) | Some(TILDE)) {
        i += 1;
    }
    i
}

/// `wl`: a fenced code block, to the end of its closing line (or of the text).
pub(crate) fn fences_len(e: &[u16]) -> Option<usize> {
    let open = fence_open(e)?;
    Some(match fence_close(e, open) {
        Some(close) => line_end(e, close),
        None => e.len(),
    })
}

/// `#{1,6}(?!\S)` at `p`: where the hashes end.
fn atx_hashes(e: &[u16], p: usize) -> Option<usize> {
    let q = skip_unit(e, p, HASH);
    let n = q - p;
    if n == 0 || n > 6 {
        return None;
    }
    match at(e, q) {
        Some(c) if !is_js_space(c) => None,
        _ => Some(q),
    }
}

/// `L_`: an ATX heading line and the newlines after it.
pub(crate) fn heading_len(e: &[u16]) -> Option<usize> {
    let q = atx_hashes(e, skip_up_to_3_spaces(e, 0))?;
    let mut i = q;
    while let Some(c) = at(e, i).filter(|&c| c != NL) {
        if is_dot_excluded(c) {
            return None;
        }
        i += 1;
    }
    Some(skip_unit(e, i, NL))
}

/// `I_`: a thematic break from `p` to the end of the line; where the line ends.
pub(crate) fn hr_body(e: &[u16], p: usize) -> Option<usize> {
    let c = at(e, p).filter(|&c| c == DASH || c == UNDERSCORE || c == STAR)?;
    let mut count = 0;
    let mut i = p;
    while let Some(d) = at(e, i).filter(|&d| d != NL) {
        if d == c {
            count += 1;
        } else if d != TAB && d != SP {
            return None;
        }
        i += 1;
    }
    (count >= 3).then_some(i)
}

/// `ju`: a thematic break and the newlines after it.
pub(crate) fn hr_len(e: &[u16]) -> Option<usize> {
    let end = hr_body(e, skip_up_to_3_spaces(e, 0))?;
    Some(skip_unit(e, end, NL))
}

/// `$_`: a paragraph's end from `o` (the newline ending its last line): lines go on until one
/// that can interrupt a paragraph.
pub(crate) fn paragraph_end(e: &[u16], o: usize) -> usize {
    let mut h = line_end(e, o);
    if h == o {
        return h;
    }
    while h + 1 < e.len() {
        let g = line_end(e, h + 1);
        if interrupts_paragraph(e, h + 1) {
            break;
        }
        h = g;
    }
    h
}

/// `F_`: whether the line at `p` interrupts a paragraph (or a blockquote's lazy line).
fn interrupts_paragraph(e: &[u16], p: usize) -> bool {
    let i = skip_up_to_3_spaces(e, p);
    match at(e, i) {
        Some(GT) => return true,
        Some(DASH) | Some(PLUS) | Some(STAR) if at(e, i + 1) == Some(SP) => return true,
        Some(0x31)
            if matches!(at(e, i + 1), Some(RPAREN) | Some(DOT)) && at(e, i + 2) == Some(SP) =>
        {
            return true
        }
        Some(HASH) if atx_hashes(e, i).is_some() => return true,
        _ => {}
    }
    if starts_at(e, i, "```") {
        let run_end = skip_unit(e, i, BACKTICK);
        let end = line_end(e, run_end);
        let no_backtick = e.get(run_end..end).is_some_and(|l| !l.contains(&BACKTICK));
        if no_backtick && end < e.len() {
            return true;
        }
    }
    if starts_at(e, i, "~~~") && line_end(e, i + 3) < e.len() {
        return true;
    }
    if hr_body(e, i).is_some() {
        return true;
    }
    if at(e, skip_unit(e, p, SP)) == Some(NL) {
        return true;
    }
    html_interrupt_at(e, p)
}
