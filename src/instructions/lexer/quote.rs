//! Blockquotes (`U_`, `cD`, `MS`): a quote's extent, and its lines without their `>`, in the
//! chunks the engine lexes them in.

use super::blocks::paragraph_end;
use super::setext::setext_rule_end;
use super::Token;
use crate::instructions::utf16::{
    at, js_trim_start, line_end, next_line_terminator, skip_up_to_3_spaces, GT, NL, SP, TAB,
};

/// `U_`: a blockquote's extent: quoted lines and the lazy lines after them.
pub(crate) fn quote_extent(e: &[u16]) -> Option<usize> {
    let mut end = None;
    let mut r = 0;
    while r < e.len() {
        let Some(h) = quote_marker(e, r) else { break };
        let next = (paragraph_end(e, h) + 1).min(e.len());
        end = Some(next);
        if next <= r {
            break;
        }
        r = next;
    }
    end
}

/// `DP`: ` {0,3}> ?`; where it ends.
fn quote_marker(e: &[u16], r: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, r);
    if at(e, i) != Some(GT) {
        return None;
    }
    Some(if at(e, i + 1) == Some(SP) {
        i + 2
    } else {
        i + 1
    })
}

/// `cD`: the next chunk of a quote's lines (without their `>`), adding its source to the
/// quote's raw text; and the lines after it.
pub(crate) fn quote_chunk(quote: &mut Token, o: &[u16]) -> (Vec<u16>, Option<Vec<u16>>) {
    let mut h: isize = -1;
    let mut text: Vec<u16> = Vec::new();
    let mut quoted_before = false;
    while h < o.len() as isize {
        let start = (h + 1) as usize;
        let end = line_end(o, start);
        let line = o.get(start..end).unwrap_or(&[]);
        let quoted = at(line, skip_up_to_3_spaces(line, 0)) == Some(GT);
        if quoted_before && !quoted {
            break;
        }
        quoted_before = quoted;
        if h == -1 {
            text = strip_quote_marks(line);
        } else if setext_rule_end(line, 0).is_none() {
            text.push(NL);
            text.extend(strip_quote_marks(line));
        } else {
            text.extend_from_slice(&[NL, SP, SP, SP, SP]);
            text.extend_from_slice(js_trim_start(line));
        }
        h += line.len() as isize + 1;
    }
    let cut = (h.max(0) as usize).min(o.len());
    let source = o.get(..cut).unwrap_or(&[]);
    if quote.raw.is_empty() {
        quote.raw = source.to_vec();
    } else {
        quote.raw.push(NL);
        quote.raw.extend_from_slice(source);
    }
    let rest = if cut < o.len() {
        o.get(cut + 1..).map(|r| r.to_vec())
    } else {
        None
    };
    (text, rest)
}

/// `MS`: `> ` off each piece of a line (pieces split by any line terminator).
fn strip_quote_marks(e: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(e.len());
    let mut r = 0;
    while r < e.len() {
        let h = quote_mark_tab(e, r).unwrap_or(r);
        let next = (next_line_terminator(e, h) + 1).min(e.len());
        out.extend_from_slice(e.get(h..next).unwrap_or(&[]));
        if next <= r {
            break;
        }
        r = next;
    }
    out
}

/// `qI`: ` {0,3}>[\t ]?`.
fn quote_mark_tab(e: &[u16], r: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, r);
    if at(e, i) != Some(GT) {
        return None;
    }
    Some(if matches!(at(e, i + 1), Some(TAB) | Some(SP)) {
        i + 2
    } else {
        i + 1
    })
}
