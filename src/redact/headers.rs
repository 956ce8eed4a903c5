//! `Authorization:` and `Bearer` headers: only the credential goes, the header's name and its
//! scheme word stay (a provider token inside keeps its own kind).

use super::hit::Hit;
use super::not_secret::{
    declaration, is_expression, is_name, is_placeholder, looks_like_code, names_a_password,
};
use super::shape::{at_least, blanks, lit, lit_ci, one, quote_opt, run};
use super::tokens::prefer_token;

/// An `Authorization` header's credential:
/// `(?i-u:authorization)(?:\\*["'])?[ \t]*[:=][ \t]*(?:\\*["'])?[ \t]*`
/// `(?:(?P<scheme>(?i-u:bearer|basic|token|bot|apikey|sso-key|key))[ \t]+)?`
/// `(?P<s>[A-Za-z0-9_.~+/:-]+=*)`. Without a scheme word, a value that reads as code
/// (`authorization = self.headers.get(...)`) is no header.
pub(crate) fn authorization(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = blanks(b, quote_opt(b, lit_ci(b, pos, b"authorization")?));
    // `Security::Authorization::TRUSTEE_W`: a path in code, not a header;
    // `pub const E_AUTHORIZATION: NTSTATUS = …`: a declaration.
    if b.get(i..i + 2) == Some(b"::") || declaration(text, pos) {
        return None;
    }
    let i = one(b, i, |c| c == b':' || c == b'=')?;
    let i = blanks(b, quote_opt(b, blanks(b, i)));
    let value = |at: usize| {
        let end = run(b, at, |c| {
            c.is_ascii_alphanumeric() || b"_.~+/:-".contains(&c)
        });
        (end > at).then(|| run(b, end, |c| c == b'='))
    };
    // No two scheme words share a prefix, so at most one can be here.
    #[rustfmt::skip]
    const SCHEMES: &[&[u8]] =
        &[b"bearer", b"basic", b"token", b"bot", b"apikey", b"sso-key", b"key"];
    let after_scheme = SCHEMES
        .iter()
        .find_map(|w| lit_ci(b, i, w))
        .map(|j| (j, blanks(b, j)))
        .filter(|(j, k)| k > j)
        .and_then(|(_, k)| Some((k, value(k)?)));
    // Without a value after it, the scheme word is the value (and too short to be kept),
    // as a backtracking engine would have it.
    let (s, e, scheme) = match after_scheme {
        Some((s, e)) => (s, e, true),
        None => (i, value(i)?, false),
    };
    let v = text.get(s..e)?;
    // `Bearer fails.validation`, `…:authorization:referer.`: words, not a credential.
    let words = v.trim_end_matches('.');
    if v.len() < 8
        || is_scheme_word(v)
        || is_placeholder(v)
        || (is_name(words) && (words.len() < v.len() || v.bytes().any(|c| b".-_".contains(&c))))
        // `Bearer authorization="https://…"`: a challenge's authority; `Bearer faketoken`.
        || v.contains("://")
        || names_a_password(v)
    {
        return None;
    }
    let next = b.get(e).copied();
    let bare = v.trim_end_matches(['+', '-']);
    if !scheme && (looks_like_code(bare, next) || is_expression(v) || is_name(v)) {
        return None;
    }
    Some(prefer_token(text, s, e, e, "authorization"))
}

/// `Bearer[ \t]+(?P<s>[A-Za-z0-9_.~+/-]{20,}=*)`, with letters and digits.
pub(crate) fn bearer(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"Bearer")?;
    let s = blanks(b, i);
    if s == i {
        return None;
    }
    let e = at_least(
        b,
        s,
        |c| c.is_ascii_alphanumeric() || b"_.~+/-".contains(&c),
        20,
    )?;
    let e = run(b, e, |c| c == b'=');
    let v = text.get(s..e)?;
    if is_placeholder(v)
        || !(v.bytes().any(|c| c.is_ascii_digit()) && v.bytes().any(|c| c.is_ascii_alphabetic()))
    {
        return None;
    }
    Some(prefer_token(text, s, e, e, "authorization"))
}

fn is_scheme_word(v: &str) -> bool {
    // AWS's Signature Version 4 names its algorithm where a scheme stands.
    [
        "bearer",
        "basic",
        "token",
        "bot",
        "apikey",
        "key",
        "digest",
        "aws4-hmac-sha256",
    ]
    .iter()
    .any(|w| v.eq_ignore_ascii_case(w))
}
