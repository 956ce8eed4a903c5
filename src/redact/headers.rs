//! `Authorization:` and `Bearer` headers: only the credential goes, the header's name and
//! its scheme word stay.

use super::shape::{at_least, blanks, lit, lit_ci, one, quote_opt, run};

/// An `Authorization` header's credential, and whether a scheme word came
/// before it: `(?i-u:authorization)(?:\\*["'])?[ \t]*[:=][ \t]*(?:\\*["'])?[ \t]*`
/// `(?:(?P<scheme>(?i-u:bearer|basic|token|bot|apikey|sso-key|key))[ \t]+)?`
/// `(?P<s>[A-Za-z0-9_.~+/:-]+=*)`.
pub(crate) fn authorization_header(b: &[u8], pos: usize) -> Option<(usize, usize, bool)> {
    let i = blanks(b, quote_opt(b, lit_ci(b, pos, b"authorization")?));
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
    match after_scheme {
        Some((s, e)) => Some((s, e, true)),
        // Without a value after it, the scheme word is the value (and too
        // short to be kept), as a backtracking engine would have it.
        None => Some((i, value(i)?, false)),
    }
}

/// `Bearer[ \t]+(?P<s>[A-Za-z0-9_.~+/-]{20,}=*)`.
pub(crate) fn bearer_header(b: &[u8], pos: usize) -> Option<(usize, usize)> {
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
    Some((s, run(b, e, |c| c == b'=')))
}

pub(crate) fn is_scheme_word(v: &str) -> bool {
    ["bearer", "basic", "token", "bot", "apikey", "key", "digest"]
        .iter()
        .any(|w| v.eq_ignore_ascii_case(w))
}
