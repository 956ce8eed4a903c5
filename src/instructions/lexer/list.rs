//! Lists (`fD`, `vS`): where a list and each of its items end, and each item's content,
//! which the lexer reads again as blocks when imports are looked for.

use super::blocks::{code_indent, hr_body};
use crate::instructions::utf16::{
    at, at_line_end, is_ascii_alpha, is_digit, is_dot_excluded, js_trim, line_end, skip_spaces,
    skip_tabs_spaces, skip_unit, skip_up_to_3_spaces, starts_at, DASH, DOT, GT, HASH, LT, NL, PLUS,
    RPAREN, SP, STAR, TAB, UNDERSCORE,
};

/// `H_`: what a list's first line must look like.
pub(crate) fn list_start(e: &[u16]) -> bool {
    let p = skip_up_to_3_spaces(e, 0);
    let Some(m) = list_marker_end(e, p) else {
        return false;
    };
    match at(e, m) {
        None | Some(NL) => true,
        Some(TAB) | Some(SP) => at(e, m + 1).is_some_and(|c| c != NL),
        Some(_) => false,
    }
}

/// `\d{1,9}[).]` or `[-+*]` at `p`; where it ends.
pub(crate) fn list_marker_end(e: &[u16], p: usize) -> Option<usize> {
    match at(e, p)? {
        DASH | PLUS | STAR => Some(p + 1),
        c if is_digit(c) => {
            let mut i = p;
            while at(e, i).is_some_and(is_digit) {
                i += 1;
            }
            (i - p <= 9 && matches!(at(e, i), Some(RPAREN) | Some(DOT))).then_some(i + 1)
        }
        _ => None,
    }
}

/// `CI`: an item's marker at `k` (after up to three spaces), followed by a tab, space,
/// newline or the end; where the marker ends.
fn item_marker(e: &[u16], k: usize) -> Option<usize> {
    let end = list_marker_end(e, skip_up_to_3_spaces(e, k))?;
    match at(e, end) {
        None | Some(TAB) | Some(NL) | Some(SP) => Some(end),
        Some(_) => None,
    }
}

pub(crate) struct ListScan {
    pub(crate) end: usize,
    pub(crate) contents: Vec<Vec<u16>>,
}

/// `fD`: the items of a list, up to where the next line is no item of it.
pub(crate) fn scan_list(e: &[u16]) -> Option<ListScan> {
    let mut bullet: Option<u16> = None;
    let mut k = 0;
    let mut contents = Vec::new();
    while k < e.len() {
        let marker = item_marker(e, k);
        let delimiter = marker.and_then(|d| at(e, d.wrapping_sub(1)));
        if bullet.is_none() {
            bullet = delimiter;
        }
        let Some(d) = marker else { break };
        if delimiter != bullet || hr_body(e, skip_up_to_3_spaces(e, k)).is_some() {
            break;
        }
        let item = scan_item(e, k, d);
        contents.push(item.content);
        if item.end <= k {
            break;
        }
        k = item.end;
    }
    if contents.is_empty() {
        return None;
    }
    Some(ListScan { end: k, contents })
}

struct ItemScan {
    end: usize,
    content: Vec<u16>,
}

/// `vS`: one list item from `o` (its marker ends at `r`).
fn scan_item(e: &[u16], o: usize, r: usize) -> ItemScan {
    let mut h = line_end(e, r);
    let g = skip_unit(e, r, TAB);
    let mut first: Vec<u16> = std::iter::repeat_n(SP, 3 * (g - r)).collect();
    first.extend_from_slice(e.get(g..h).unwrap_or(&[]));
    let mut blank_seen = js_trim(&first).is_empty();
    let mut width = r as isize - o as isize;
    let mut content: Vec<u16> = Vec::new();
    if blank_seen {
        width += 1;
    } else {
        let spaces = skip_spaces(e, r) - r;
        let take = if spaces > 4 { 1 } else { spaces };
        content.extend_from_slice(first.get(take..).unwrap_or(&[]));
        width += take as isize;
    }
    if blank_seen {
        if let Some(end) = blank_line_end(e, (h + 1).min(e.len())) {
            return ItemScan { end, content };
        }
    }
    let mut previous = first;
    let lazy_limit = (width - 1).min(3);
    loop {
        let start = h + 1;
        if start >= e.len() {
            break;
        }
        let end = line_end(e, start);
        let line = e.get(start..end).unwrap_or(&[]);
        let indent = first_non_space(line) as isize;
        if indent <= lazy_limit && breaks_item(line, indent as usize) {
            break;
        }
        let expanded: Vec<u16> = line
            .iter()
            .flat_map(|&c| if c == TAB { vec![SP; 4] } else { vec![c] })
            .collect();
        let is_blank = js_trim(line).is_empty();
        let shifted: Vec<u16> = slice_from(&expanded, width).to_vec();
        if is_blank || first_non_space(&expanded) as isize >= width {
            content.push(NL);
            content.extend_from_slice(&shifted);
        } else if blank_seen || !lazy_line_allowed(&previous, lazy_limit) {
            break;
        } else {
            content.push(NL);
            content.extend_from_slice(line);
        }
        blank_seen = blank_seen || is_blank;
        previous = shifted;
        h = end;
    }
    ItemScan {
        end: (h + 1).min(e.len()),
        content,
    }
}

fn slice_from(e: &[u16], from: isize) -> &[u16] {
    if from <= 0 {
        return e;
    }
    e.get(from as usize..).unwrap_or(&[])
}

/// `MI`: a blank line at `p`; past its newline.
fn blank_line_end(e: &[u16], p: usize) -> Option<usize> {
    let i = skip_tabs_spaces(e, p);
    if !at_line_end(e, i) {
        return None;
    }
    Some(if at(e, i) == Some(NL) { i + 1 } else { i })
}

/// `ef`: the first character that is not a space (or the length).
fn first_non_space(e: &[u16]) -> usize {
    e.iter().position(|&c| c != SP).unwrap_or(e.len())
}

/// `AI` at `q` on a line: what ends a list item when not indented enough.
fn breaks_item(line: &[u16], q: usize) -> bool {
    if block_start_in_item(line, q) || starts_at(line, q, "<!--") {
        return true;
    }
    if at(line, q) == Some(LT) && at(line, q + 1).is_some_and(is_ascii_alpha) {
        let mut i = q + 2;
        while let Some(c) = at(line, i) {
            if is_dot_excluded(c) {
                break;
            }
            if c == GT {
                return true;
            }
            i += 1;
        }
    }
    if let Some(end) = list_marker_end(line, q) {
        return matches!(at(line, end), None | Some(TAB) | Some(SP));
    }
    false
}

/// `ES`/`TI` at `q`: `#`, a fence, or a thematic break of spaces to the line's end.
fn block_start_in_item(line: &[u16], q: usize) -> bool {
    if at(line, q) == Some(HASH) || starts_at(line, q, "```") || starts_at(line, q, "~~~") {
        return true;
    }
    let Some(c) = at(line, q).filter(|&c| c == DASH || c == UNDERSCORE || c == STAR) else {
        return false;
    };
    let rest = line.get(q..).unwrap_or(&[]);
    rest.iter().all(|&d| d == c || d == SP) && rest.iter().filter(|&&d| d == c).count() >= 3
}

/// `NI`: whether a line may continue the item lazily after `previous`.
fn lazy_line_allowed(previous: &[u16], limit: isize) -> bool {
    let r = first_non_space(previous);
    let indented_code = code_indent(previous, 0).is_some_and(|i| {
        previous
            .get(i..)
            .is_some_and(|t| t.iter().any(|&c| c != TAB && c != SP))
    });
    !indented_code && (r as isize > limit || !block_start_in_item(previous, r))
}
