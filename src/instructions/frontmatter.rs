//! Step 1 of the engine's copy: the frontmatter off (the engine's `qc`), as the module
//! docs of [`crate::instructions`] give its pattern.

use super::utf16::{find_seq, skip_js_space, starts_at, BOM, NL};

pub(crate) fn strip_frontmatter(text: &[u16]) -> &[u16] {
    let unmarked = match text.split_first() {
        Some((&BOM, rest)) => rest,
        _ => text,
    };
    body_after_frontmatter(unmarked).unwrap_or(text)
}

fn body_after_frontmatter(e: &[u16]) -> Option<&[u16]> {
    if !starts_at(e, 0, "---") {
        return None;
    }
    let run_end = skip_js_space(e, 3);
    let last_newline = e.get(3..run_end)?.iter().rposition(|&c| c == NL)?;
    let close = find_seq(e, 3 + last_newline + 1, "---")?;
    e.get(skip_js_space(e, close + 3)..)
}
