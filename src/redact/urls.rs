//! Credentials in URLs: the `user:password` of `scheme://user:password@host` (the scheme
//! and host stay), and a Slack webhook's secret path.

use super::shape::{at_least, chars_until, is_b64url, lit, lit_ci, one_of};

/// `user:password` after a URL's `://`: `://(?P<s>[^\s/?#@:"'<>\\\[\]]*`
/// `:[^\s/?#"'<>\\]+)@[A-Za-z0-9\[]`. The password may hold `@` and `:`;
/// it ends at the last `@` of its run that a host follows, so
/// `u:p@ss@host` loses all of `p@ss`.
pub(crate) fn url_credentials(text: &str, pos: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let s = lit(b, pos, b"://")?;
    let user_end = chars_until(text, s, |c| {
        c.is_whitespace() || "/?#@:\"'<>\\[]".contains(c)
    });
    let pass_start = lit(b, user_end, b":")?;
    let pass_end = chars_until(text, pass_start, |c| {
        c.is_whitespace() || "/?#\"'<>\\".contains(c)
    });
    // The password takes one character at least; `@` is ASCII, so no byte
    // of a multibyte character is mistaken for it.
    let from = pass_start + 1;
    let at = b
        .get(from..pass_end)?
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, c)| {
            let host = b.get(from + k + 1);
            (*c == b'@' && host.is_some_and(|h| h.is_ascii_alphanumeric() || *h == b'['))
                .then_some(from + k)
        })?;
    Some((s, at))
}

/// The secret path of a Slack webhook: `(?i-u:hooks\.slack\.com)/`
/// `(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/_-]{20,})`.
pub(crate) fn slack_webhook(b: &[u8], pos: usize) -> Option<(usize, usize)> {
    let i = lit(b, lit_ci(b, pos, b"hooks.slack.com")?, b"/")?;
    let s = one_of(b, i, &[b"services/", b"workflows/", b"triggers/"])?;
    let e = at_least(b, s, |c| is_b64url(c) || c == b'+' || c == b'/', 20)?;
    Some((s, e))
}
