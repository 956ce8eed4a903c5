//! URLs, as identifiers: `http(s)://` with no query, fragment or user info.

use crate::audit::{Kind, Mentions};
use super::MAX_IDENT_BYTES;

/// Records every `http(s)://` URL in a word; returns the part before the first,
/// which may still hold a path.
pub(crate) fn scan_urls<'a>(found: &mut Mentions, word: &'a str) -> &'a str {
    let mut before = word;
    let mut first = true;
    let mut from = 0;
    while let Some(rest) = word.get(from..) {
        let Some(start) = find_scheme(rest) else { break };
        let at = from + start;
        if first {
            before = word.get(..at).unwrap_or("");
            first = false;
        }
        let tail = word.get(at..).unwrap_or("");
        let end = tail.find(['"', '\'', '`', '<', '>', '|', '\\', '{', '}', '^', ']']).unwrap_or(tail.len());
        let raw = tail.get(..end).unwrap_or("");
        if let Some(url) = normalize_url(raw) {
            found.note(Kind::Url, url);
        }
        from = at + end.max(1);
    }
    before
}

pub(crate) fn find_scheme(s: &str) -> Option<usize> {
    s.match_indices("http").map(|(i, _)| i).find(|&i| {
        let r = s.get(i + 4..).unwrap_or("");
        r.starts_with("://") || r.starts_with("s://")
    })
}

/// A URL as an identifier: no query or fragment (they carry tokens and session
/// noise), no trailing punctuation or unmatched `)`, no `:line:col` of a stack
/// frame. One with user info is not listed: it carries a credential, and the
/// URL without it is not text the history holds.
fn normalize_url(raw: &str) -> Option<&str> {
    let cut = raw.find(['?', '#']).unwrap_or(raw.len());
    let mut url = raw.get(..cut).unwrap_or(raw);
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ':', ';', '!', '*', '/']);
        let trimmed = if trimmed.ends_with(')') && trimmed.matches('(').count() < trimmed.matches(')').count() {
            trimmed.get(..trimmed.len() - 1).unwrap_or(trimmed)
        } else {
            trimmed
        };
        if trimmed.len() == url.len() {
            break;
        }
        url = trimmed;
    }
    let (_, rest) = url.split_once("://")?;
    let host_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(host_end);
    if authority.contains('@') || !authority.bytes().any(|b| b.is_ascii_alphanumeric()) || url.len() > MAX_IDENT_BYTES {
        return None;
    }
    let url = url.get(..url.len() - line_col_len(path)).unwrap_or(url);
    (!stop_listed(authority, path)).then_some(url)
}

/// How many bytes of `:12:5` or `:12` end a URL's path: a stack frame's line and column.
fn line_col_len(path: &str) -> usize {
    let mut end = path.len();
    for _ in 0..2 {
        let Some(head) = path.get(..end) else { break };
        let digits = head.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits == 0 || !head.get(..head.len() - digits).is_some_and(|h| h.ends_with(':')) {
            break;
        }
        end -= digits + 1;
    }
    path.len() - end
}

/// What a package manager or a markup file prints, not what anyone visits: registry
/// tarballs and wheels (one `npm install` log or lockfile names hundreds), and XML
/// namespaces.
fn stop_listed(host: &str, path: &str) -> bool {
    const HOSTS: [&str; 5] =
        ["files.pythonhosted.org", "registry.yarnpkg.com", "static.crates.io", "proxy.golang.org", "www.w3.org"];
    HOSTS.contains(&host)
        || (path.contains("/-/") && path.ends_with(".tgz"))
        || path.ends_with(".whl")
        || (host == "crates.io" && path.ends_with("/download"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::scan::{scan_text, Scan};

    #[test]
    fn urls() {
        let mut m = Mentions::default();
        scan_text(
            &mut m,
            "See [docs](https://docs.rs/regex/latest/regex/). Token at https://user:pw@api.example.com/v1/x?token=SECRET#frag, \
             and (https://en.wikipedia.org/wiki/Rust_(programming_language)) or http://127.0.0.1:8123/health.",
            Scan { errors: false, quotes: false, prose: false },
        );
        let urls: Vec<String> = m.ranked().into_iter().filter(|x| x.kind == Kind::Url).map(|x| x.text).collect();
        let mut urls = urls;
        urls.sort();
        assert_eq!(
            urls,
            vec![
                "http://127.0.0.1:8123/health",
                "https://docs.rs/regex/latest/regex",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ]
        );
        // The URL with user info is not listed: without it, it is not text the history holds.
        assert!(!m.ranked().iter().any(|x| x.text.contains("SECRET") || x.text.contains("pw") || x.text.contains("api.example")));
    }

    /// What one `npm install`, lockfile or browser console prints: package tarballs and
    /// wheels are not listed, a stack frame is its script, and an XML namespace is no page.
    #[test]
    fn registry_tarballs_stack_frames_and_namespaces() {
        let mut m = Mentions::default();
        scan_text(
            &mut m,
            "\"resolved\": \"https://registry.npmjs.org/react/-/react-18.2.0.tgz\",\n\
             Downloading https://files.pythonhosted.org/packages/ab/cd/torch-2.3.0-cp311-none-macosx_11_0_arm64.whl (61.0 MB)\n\
             https://static.crates.io/crates/serde/serde-1.0.200.crate\n\
             at handleClick (http://localhost:3000/chunk-36jrqfj4.js:30815:13)\n\
             at http://localhost:3000/chunk-36jrqfj4.js:31518:20\n\
             <svg xmlns=\"http://www.w3.org/2000/svg\">\n\
             see https://registry.npmjs.org/react and https://github.com/facebook/react/issues/24502\n",
            Scan { errors: false, quotes: false, prose: false },
        );
        let mut urls: Vec<(String, u32)> = m.ranked().into_iter().filter(|x| x.kind == Kind::Url).map(|x| (x.text, x.count)).collect();
        urls.sort();
        assert_eq!(
            urls,
            vec![
                ("http://localhost:3000/chunk-36jrqfj4.js".to_owned(), 2),
                ("https://github.com/facebook/react/issues/24502".to_owned(), 1),
                ("https://registry.npmjs.org/react".to_owned(), 1),
            ]
        );
    }
}
