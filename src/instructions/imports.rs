//! The `@` imports the engine reads out of an instruction file (its `GZr`). Each import is an
//! entry of its own in `instructionFiles`, which a swapped-in copy could not add or drop.

use super::depth::too_deep;
use super::frontmatter::strip_frontmatter;
use super::lexer::{comment_residue, lex, tag_name_end, BlockKind, Token};
use super::utf16::{
    at, find_seq, find_unit, is_ascii_punct, is_js_space, js_trim, skip_unit, skip_up_to_3_spaces,
    starts_at, trim_trailing, AT, BACKSLASH, BACKTICK, BANG, COLON, GT, HASH, LBRACKET, LPAREN, LT,
    NL, RBRACKET, RPAREN, SLASH, SP, STAR, TAB, UNDERSCORE,
};

/// Whether the engine would look for `@` imports in this text and find at least one path
/// (an import is loaded only if the file exists; this says whether the text names one).
pub fn has_imports(raw: &str) -> bool {
    !import_paths(raw).is_empty()
}

/// The `@` import paths the engine reads out of a file's text, as written (a `#fragment` cut
/// off, `\ ` unescaped), in order, each once.
///
/// The engine's rule (`GZr`): after the frontmatter, and only when the text has an `@`, the
/// lexer's tokens are walked; code blocks and code spans are skipped, and so is an HTML block
/// other than a comment (a comment's leftover text is searched); text is searched with
/// `(?:^|\s)@((?:[^\s\\]|\\ )+)`, and a match is a path when it starts with `./`, `~/`, `/`
/// (not `/` alone), or with a letter, digit, `.`, `_` or `-`. `^` is the start of an inline
/// text token, so an `@` right after emphasis, a code span or a tag also counts. Inline
/// tokens are approximated here (emphasis and link brackets end a text run); block structure
/// is the engine's.
pub fn import_paths(raw: &str) -> Vec<String> {
    if too_deep(raw) {
        return Vec::new();
    }
    let text: Vec<u16> = raw.encode_utf16().collect();
    let body = strip_frontmatter(&text);
    if find_unit(body, 0, AT).is_none() {
        return Vec::new();
    }
    let mut found: Vec<String> = Vec::new();
    collect_imports(&lex(body, true), &mut found);
    let mut unique: Vec<String> = Vec::new();
    for path in found {
        if !unique.contains(&path) {
            unique.push(path);
        }
    }
    unique
}

fn collect_imports(tokens: &[Token], out: &mut Vec<String>) {
    for token in tokens {
        match token.kind {
            BlockKind::Code => continue,
            BlockKind::Html => {
                if let Some(residue) = comment_residue(token) {
                    if !js_trim(&residue).is_empty() {
                        scan_mentions(&residue, out);
                    }
                }
                continue;
            }
            BlockKind::Text => {
                scan_mentions(&token.raw, out);
                scan_inline(&token.raw, out);
            }
            BlockKind::Paragraph => scan_inline(&token.raw, out),
            BlockKind::Heading => scan_inline(&heading_text(&token.raw), out),
            _ => {}
        }
        collect_imports(&token.children, out);
        for item in &token.items {
            collect_imports(item, out);
        }
    }
}

fn heading_text(raw: &[u16]) -> Vec<u16> {
    let r = trim_trailing(raw, NL);
    let p = skip_up_to_3_spaces(r, 0);
    if at(r, p) == Some(HASH) {
        let after = skip_unit(r, p, HASH);
        let mut text = js_trim(r.get(after..).unwrap_or(&[])).to_vec();
        let trailing = text.iter().rev().take_while(|&&c| c == HASH).count();
        if trailing > 0 {
            let cut = text.len() - trailing;
            if cut == 0 || at(&text, cut - 1) == Some(SP) {
                text.truncate(cut);
            }
        }
        return js_trim(&text).to_vec();
    }
    match r.iter().rposition(|&c| c == NL) {
        Some(i) => r.get(..i).unwrap_or(&[]).to_vec(),
        None => Vec::new(),
    }
}

/// Inline text runs of a paragraph or heading, roughly as the engine's inline lexer cuts
/// them: code spans and HTML tags are left out, escapes, emphasis marks and link brackets end
/// a run, and an autolink's text is a run of its own.
fn scan_inline(text: &[u16], out: &mut Vec<String>) {
    let mut runs: Vec<Vec<u16>> = Vec::new();
    let mut current: Vec<u16> = Vec::new();
    let mut i = 0;
    while let Some(c) = at(text, i) {
        match c {
            BACKSLASH if at(text, i + 1).is_some_and(is_ascii_punct) => {
                runs.push(std::mem::take(&mut current));
                i += 2;
            }
            BACKTICK => {
                let run = skip_unit(text, i, BACKTICK) - i;
                match code_span_end(text, i + run, run) {
                    Some(end) => {
                        runs.push(std::mem::take(&mut current));
                        i = end;
                    }
                    None => {
                        current.extend(std::iter::repeat_n(BACKTICK, run));
                        i += run;
                    }
                }
            }
            LT => {
                if let Some(end) = inline_tag_end(text, i) {
                    runs.push(std::mem::take(&mut current));
                    i = end;
                } else if let Some(end) = autolink_end(text, i) {
                    runs.push(std::mem::take(&mut current));
                    runs.push(text.get(i + 1..end - 1).unwrap_or(&[]).to_vec());
                    i = end;
                } else {
                    current.push(c);
                    i += 1;
                }
            }
            BANG if at(text, i + 1) == Some(LBRACKET) => match link_end(text, i + 1) {
                // An image's alt text is no text token of the engine's.
                Some(end) => {
                    runs.push(std::mem::take(&mut current));
                    i = end;
                }
                None => {
                    current.push(c);
                    i += 1;
                }
            },
            LBRACKET if find_unit(text, i + 1, RBRACKET).is_some() => {
                runs.push(std::mem::take(&mut current));
                i += 1;
            }
            RBRACKET => {
                runs.push(std::mem::take(&mut current));
                i = match at(text, i + 1) {
                    Some(LPAREN) => find_unit(text, i + 2, RPAREN).map_or(i + 1, |p| p + 1),
                    _ => i + 1,
                };
            }
            STAR | UNDERSCORE if delimiter_runs(text, c) >= 2 => {
                runs.push(std::mem::take(&mut current));
                i = skip_unit(text, i, c);
            }
            _ => {
                current.push(c);
                i += 1;
            }
        }
    }
    runs.push(current);
    for run in runs.iter().filter(|r| !r.is_empty()) {
        scan_mentions(run, out);
    }
}

/// Where `[...](...)` from the `[` at `open` ends, if it is one.
fn link_end(text: &[u16], open: usize) -> Option<usize> {
    let close = find_unit(text, open + 1, RBRACKET)?;
    if at(text, close + 1) != Some(LPAREN) {
        return None;
    }
    find_unit(text, close + 2, RPAREN).map(|p| p + 1)
}

/// How many runs of `c` the text has: one run alone cannot be emphasis.
fn delimiter_runs(text: &[u16], c: u16) -> usize {
    let mut runs = 0;
    let mut previous = None;
    for &x in text {
        if x == c && previous != Some(c) {
            runs += 1;
        }
        previous = Some(x);
    }
    runs
}

fn code_span_end(text: &[u16], from: usize, run: usize) -> Option<usize> {
    let mut i = from;
    while let Some(open) = find_unit(text, i, BACKTICK) {
        let close = skip_unit(text, open, BACKTICK);
        if close - open == run {
            return Some(close);
        }
        i = close;
    }
    None
}

fn inline_tag_end(text: &[u16], i: usize) -> Option<usize> {
    if starts_at(text, i + 1, "!--") {
        return find_seq(text, i + 2, "-->").map(|p| p + 3);
    }
    let name = if at(text, i + 1) == Some(SLASH) {
        i + 2
    } else {
        i + 1
    };
    let end = tag_name_end(text, name);
    if end == name {
        return None;
    }
    match at(text, end)? {
        GT => Some(end + 1),
        SLASH | SP | TAB | NL => {
            let close = find_unit(text, end, GT)?;
            let inner = text.get(end..close).unwrap_or(&[]);
            (!inner.contains(&LT)).then_some(close + 1)
        }
        _ => None,
    }
}

fn autolink_end(text: &[u16], i: usize) -> Option<usize> {
    let close = find_unit(text, i + 1, GT)?;
    let inner = text.get(i + 1..close)?;
    let ok = !inner.is_empty()
        && !inner.iter().any(|&c| c == LT || is_js_space(c))
        && (inner.contains(&COLON) || inner.contains(&AT));
    ok.then_some(close + 1)
}

/// `(?:^|\s)@((?:[^\s\\]|\\ )+)` over one text run, with the engine's test of a path.
fn scan_mentions(run: &[u16], out: &mut Vec<String>) {
    let mut i = 0;
    while i < run.len() {
        let Some(p) = find_unit(run, i, AT) else {
            break;
        };
        let starts = (p == 0 && i == 0) || (p > i && at(run, p - 1).is_some_and(is_js_space));
        if !starts {
            i = p + 1;
            continue;
        }
        let mut j = p + 1;
        loop {
            match at(run, j) {
                Some(BACKSLASH) if at(run, j + 1) == Some(SP) => j += 2,
                Some(c) if c != BACKSLASH && !is_js_space(c) => j += 1,
                _ => break,
            }
        }
        if j == p + 1 {
            i = p + 1;
            continue;
        }
        let mut path = run.get(p + 1..j).unwrap_or(&[]).to_vec();
        if let Some(hash) = path.iter().position(|&c| c == HASH) {
            path.truncate(hash);
        }
        let path = String::from_utf16_lossy(&path).replace("\\ ", " ");
        if is_import_path(&path) {
            out.push(path);
        }
        i = j;
    }
}

fn is_import_path(h: &str) -> bool {
    if h.is_empty() || is_special_path(h) {
        return false;
    }
    let first = h.chars().next().unwrap_or(' ');
    h.starts_with("./")
        || h.starts_with("~/")
        || (h.starts_with('/') && h != "/")
        || (!h.starts_with('@')
            && !"#%^&*()".contains(first)
            && (first.is_ascii_alphanumeric() || matches!(first, '.' | '_' | '-')))
}

/// Most of the engine's `O1` (paths it never reads as an import: UNC and device paths,
/// `/net` automounts, macOS `/.vol`-style paths); its check for a network mount is left out.
fn is_special_path(h: &str) -> bool {
    let b = h.as_bytes();
    let slash = |c: Option<&u8>| matches!(c, Some(b'/') | Some(b'\\'));
    if slash(b.first()) && slash(b.get(1)) {
        let wsl = h.get(2..).is_some_and(|r| {
            let lower = r.to_ascii_lowercase();
            lower.starts_with("wsl$") || lower.starts_with("wsl.localhost")
        });
        return !wsl || h.len() < 4;
    }
    if !h.starts_with('/') {
        return false;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in h.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let first = parts.first().map(|p| p.to_ascii_lowercase());
    if first.as_deref() == Some("net") && parts.len() <= 2 {
        return true;
    }
    matches!(
        first.as_deref(),
        Some(".vol" | ".file" | ".nofollow" | ".resolve")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_are_found_outside_code() {
        assert_eq!(
            import_paths("# P\n\nSee @./other.md for more.\n"),
            ["./other.md"]
        );
        assert_eq!(import_paths("@./other.md\n\n# P\n"), ["./other.md"]);
        assert!(has_imports("- item @docs/a.md\n"));
        assert!(has_imports("> quoted @~/notes.md\n"));
        assert!(has_imports("**@bold.md** and <!-- c --> @after.md\n"));
        assert_eq!(import_paths("@a\\ b.md#part and @a\\ b.md\n"), ["a b.md"]);
        assert!(!has_imports(
            "# P\n\n`@./other.md` and\n\n```\n@./other.md\n```\n"
        ));
        assert!(!has_imports("    @indented.md\n"));
        assert!(!has_imports("mail me@example.com\n"));
        assert!(!has_imports("<div>\n@inside.md\n</div>\n"));
        assert!(!has_imports("\\@escaped.md and @@x and @#f and @/\n"));
        assert!(!has_imports("---\nowner: @someone\n---\nbody\n"));
        assert!(!has_imports("<!-- @hidden.md -->\n"));
        assert!(!has_imports("see @//server/share.md\n"));
    }
}
