//! HTML blocks (`O_`) and the one rewrite the engine makes: an HTML comment block is
//! replaced by what is left of it without its comments.

use super::{BlockKind, Token};
use crate::instructions::utf16::{
    after_seq, ascii_lower, ascii_upper_eq, at, at_line_end, find_seq, find_unit, is_ascii_alpha,
    is_js_space, is_word, js_trim_start, line_end, skip_js_space, skip_newlines, skip_spaces,
    skip_tabs_spaces, skip_up_to_3_spaces, starts_at, BACKTICK, BANG, COLON, DASH, DOT, DQ, EQ, GT,
    LT, NL, QMARK, SLASH, SP, SQ, TAB, UNDERSCORE,
};

const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "meta",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];
const RAW_TAGS: &[&str] = &["script", "pre", "style", "textarea"];

/// `M_` at `p` exactly (case-sensitive, no indent).
pub(crate) fn html_interrupt_at(e: &[u16], p: usize) -> bool {
    if at(e, p) != Some(LT) {
        return false;
    }
    let q = p + 1;
    if starts_at(e, q, "!--") || RAW_TAGS.iter().any(|t| starts_at(e, q, t)) {
        return true;
    }
    let name_start = if at(e, q) == Some(SLASH) { q + 1 } else { q };
    BLOCK_TAGS.iter().any(|tag| {
        let after = name_start + tag.len();
        starts_at(e, name_start, tag)
            && (matches!(at(e, after), Some(NL) | Some(SP) | Some(GT))
                || (at(e, after) == Some(SLASH) && at(e, after + 1) == Some(GT)))
    })
}

/// `O_`: an HTML block.
pub(crate) fn html_len(e: &[u16]) -> Option<usize> {
    let o = skip_up_to_3_spaces(e, 0);
    if at(e, o) != Some(LT) {
        return None;
    }
    let r = o + 1;
    match at(e, r) {
        Some(QMARK) => return Some(skip_newlines(e, after_seq(e, "?>", r + 1))),
        Some(BANG) => {
            if starts_at(e, r + 1, "--") {
                return Some(skip_newlines(e, line_end(e, after_seq(e, "-->", r + 1))));
            }
            if tag_name_end(e, r + 1) > r + 1 {
                return Some(skip_newlines(e, after_seq(e, ">", r)));
            }
            let cdata = e.get(r + 1..(r + 8).min(e.len())).unwrap_or(&[]);
            return ascii_upper_eq(cdata, "[CDATA[")
                .then(|| skip_newlines(e, after_seq(e, "]]>", r + 8)));
        }
        _ => {}
    }
    let closing = at(e, r) == Some(SLASH);
    let y = if closing { r + 1 } else { r };
    let k = tag_name_end(e, y);
    let name: String = e
        .get(y..k)
        .unwrap_or(&[])
        .iter()
        .map(|&c| ascii_lower(c) as u8 as char)
        .collect();
    let after_name = at(e, k);
    if RAW_TAGS.iter().any(|t| name.starts_with(t)) {
        let opens = !closing
            && RAW_TAGS.contains(&name.as_str())
            && (after_name == Some(GT) || after_name.is_some_and(is_js_space));
        return opens.then(|| raw_tag_end(e, &name, k));
    }
    if BLOCK_TAGS.contains(&name.as_str()) && block_tag_follow(e, k) {
        return Some(html_blank_end(e, k + 1));
    }
    if name.is_empty() {
        return None;
    }
    let d = if closing {
        closing_tag_end(e, k)
    } else {
        open_tag_end(e, skip_attributes(e, k))
    };
    let d = d?;
    at_line_end(e, skip_tabs_spaces(e, d)).then(|| html_blank_end(e, d))
}

/// `AP`: `[\n >]|\/>`.
fn block_tag_follow(e: &[u16], k: usize) -> bool {
    matches!(at(e, k), Some(NL) | Some(SP) | Some(GT))
        || (at(e, k) == Some(SLASH) && at(e, k + 1) == Some(GT))
}

/// `TP`: `[A-Z][-\w]*` (case-insensitive) from `o`; `o` when none.
pub(crate) fn tag_name_end(e: &[u16], o: usize) -> usize {
    if !at(e, o).is_some_and(is_ascii_alpha) {
        return o;
    }
    let mut i = o + 1;
    while at(e, i).is_some_and(|c| c == DASH || is_word(c)) {
        i += 1;
    }
    i
}

/// `MP`: to the end of the line holding `</name>` (any case), or of the text.
fn raw_tag_end(e: &[u16], name: &str, from: usize) -> usize {
    let closer: Vec<u16> = format!("</{name}>").encode_utf16().collect();
    let mut g = find_seq(e, from, "</");
    while let Some(pos) = g {
        let same = e
            .get(pos..pos + closer.len())
            .is_some_and(|s| s.iter().zip(&closer).all(|(&a, &b)| ascii_lower(a) == b));
        if same {
            return skip_newlines(e, line_end(e, pos));
        }
        g = find_seq(e, pos + 2, "</");
    }
    e.len()
}

/// `A_`: after the first blank line(s) from `o` (`/\n[\t\n ]*\n/g`), or the text's end.
fn html_blank_end(e: &[u16], o: usize) -> usize {
    let mut q = o;
    while let Some(newline) = find_unit(e, q, NL) {
        let mut j = newline + 1;
        let mut last = None;
        while let Some(c) = at(e, j).filter(|&c| c == TAB || c == NL || c == SP) {
            if c == NL {
                last = Some(j);
            }
            j += 1;
        }
        if let Some(l) = last {
            return l + 1;
        }
        q = newline + 1;
    }
    e.len()
}

/// `vP`: `\s*>`.
fn closing_tag_end(e: &[u16], k: usize) -> Option<usize> {
    let i = skip_js_space(e, k);
    (at(e, i) == Some(GT)).then_some(i + 1)
}

/// `RP`: ` *\/?>`.
fn open_tag_end(e: &[u16], k: usize) -> Option<usize> {
    let mut i = skip_spaces(e, k);
    if at(e, i) == Some(SLASH) {
        i += 1;
    }
    (at(e, i) == Some(GT)).then_some(i + 1)
}

/// `Gn(bP)`: attributes, each ` +name( *= *value)?`.
fn skip_attributes(e: &[u16], k: usize) -> usize {
    let mut p = k;
    while let Some(next) = attribute_end(e, p).filter(|&n| n > p) {
        p = next;
    }
    p
}

fn attribute_end(e: &[u16], p: usize) -> Option<usize> {
    let i = skip_spaces(e, p);
    if i == p {
        return None;
    }
    let c = at(e, i)?;
    if !(c == COLON || c == UNDERSCORE || is_ascii_alpha(c)) {
        return None;
    }
    let mut j = i + 1;
    while at(e, j).is_some_and(|c| c == DASH || c == DOT || c == COLON || is_word(c)) {
        j += 1;
    }
    let eq = skip_spaces(e, j);
    if at(e, eq) != Some(EQ) {
        return Some(j);
    }
    let v = skip_spaces(e, eq + 1);
    let value_end = match at(e, v) {
        Some(q @ (SQ | DQ)) => {
            let mut t = v + 1;
            while at(e, t).is_some_and(|c| c != q && c != NL) {
                t += 1;
            }
            (at(e, t) == Some(q)).then_some(t + 1)
        }
        _ => {
            let mut t = v;
            while at(e, t)
                .is_some_and(|c| !is_js_space(c) && !matches!(c, DQ | SQ | LT | EQ | GT | BACKTICK))
            {
                t += 1;
            }
            (t > v).then_some(t)
        }
    };
    Some(value_end.unwrap_or(j))
}

/// The html token's text without its comments, when the token is an HTML comment (`iht`).
pub(crate) fn comment_residue(token: &Token) -> Option<Vec<u16>> {
    if token.kind != BlockKind::Html {
        return None;
    }
    let trimmed = js_trim_start(&token.raw);
    if !starts_at(trimmed, 0, "<!--") || find_seq(trimmed, 0, "-->").is_none() {
        return None;
    }
    Some(remove_comments(&token.raw))
}

/// `raw.replace(/<!--[\s\S]*?-->/g, "")`.
fn remove_comments(e: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(e.len());
    let mut i = 0;
    loop {
        let rest_from = |i: usize| e.get(i..).unwrap_or(&[]);
        let Some(open) = find_seq(e, i, "<!--") else {
            out.extend_from_slice(rest_from(i));
            break;
        };
        let Some(close) = find_seq(e, open + 4, "-->") else {
            out.extend_from_slice(rest_from(i));
            break;
        };
        out.extend_from_slice(e.get(i..open).unwrap_or(&[]));
        i = close + 3;
    }
    out
}
