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
            found.note(Kind::Url, &url);
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
/// noise), no user info, no trailing punctuation or unmatched `)`.
fn normalize_url(raw: &str) -> Option<String> {
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
    let (scheme, rest) = url.split_once("://")?;
    let host_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(host_end);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if !host.bytes().any(|b| b.is_ascii_alphanumeric()) || url.len() > MAX_IDENT_BYTES {
        return None;
    }
    Some(format!("{scheme}://{host}{path}"))
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
            Scan { errors: false, quotes: false },
        );
        let urls: Vec<String> = m.ranked().into_iter().filter(|x| x.kind == Kind::Url).map(|x| x.text).collect();
        let mut urls = urls;
        urls.sort();
        assert_eq!(
            urls,
            vec![
                "http://127.0.0.1:8123/health",
                "https://api.example.com/v1/x",
                "https://docs.rs/regex/latest/regex",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ]
        );
        assert!(!m.ranked().iter().any(|x| x.text.contains("SECRET") || x.text.contains("pw")));
    }
}
