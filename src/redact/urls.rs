//! Credentials in URLs and connection strings: the `user:password` of
//! `scheme://user:password@host` (any scheme: `postgres`, `mongodb+srv`, `jdbc:mysql`, `amqp`,
//! `redis://:pw@`; the scheme and host stay), Go's MySQL DSN `user:password@tcp(host)/db`, and
//! Oracle's `user/password@host` after `jdbc:oracle:thin:` or `sqlplus`, and a Slack webhook's
//! secret path.

use super::hit::Hit;
use super::naming::names_its_credential;
use super::stand_in::says_it_is_wrong;
use super::slot::{qualified_pair, url_slots};
use super::not_secret::{is_name, is_placeholder};
use super::shape::{at_least, blanks, chars_until, is_b64url, lit, lit_ci, one_of};
use super::tokens::{is_filler, token_at};

/// `user:password` after a URL's `://`: `://(?P<s>[^\s/?#@:"'<>\\\[\]]*`
/// `:[^\s/?#"'<>\\]+)@[A-Za-z0-9\[]`. The password may hold `@` and `:`; it ends at the last
/// `@` of its run that a host follows, so `u:p@ss@host` loses all of `p@ss`. The scan
/// resumes at the `@`: the host's first character was only looked at.
pub(crate) fn url_credentials(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let s = lit(b, pos, b"://")?;
    let user_end = chars_until(text, s, |c| {
        c.is_whitespace() || "/?#@:\"'<>\\[]".contains(c)
    });
    let pass_start = lit(b, user_end, b":")?;
    let pass_end = chars_until(text, pass_start, |c| {
        c.is_whitespace() || "/?#\"'<>\\".contains(c)
    });
    // The password takes one character at least; `@` is ASCII, so no byte of a multibyte
    // character is mistaken for it.
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
    let user = text.get(s..user_end)?;
    let pass = text.get(pass_start..at)?;
    let hit = judged(text, s, at, user, pass)?;
    // `https://x:ghp_…@github.com`: a provider token as the password names the kind.
    Some(match token_at(text, pass_start) {
        Some(token) if token.secret_end == at => Hit {
            kind: token.kind,
            ..hit
        },
        _ => hit,
    })
}

/// `user:password@tcp(host:3306)/db` (and `@unix(`): Go's MySQL driver's DSN, which has no
/// scheme; `pos` is at the `@`.
pub(crate) fn go_dsn(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    if !(b
        .get(pos..)
        .is_some_and(|t| t.starts_with(b"@tcp(") || t.starts_with(b"@unix(")))
    {
        return None;
    }
    let head = text.get(..pos)?;
    let start = head
        .rfind(|c: char| c.is_whitespace() || "\"'`=(".contains(c))
        .map_or(0, |i| i + 1);
    let pair = text.get(start..pos)?;
    let (user, pass) = pair.split_once(':')?;
    if user.contains('/') {
        return None;
    }
    judged(text, start, pos, user, pass)
}

/// `scott/tiger@host` after `jdbc:oracle:thin:` or `sqlplus` (and its flags); `pos` is at
/// the trigger.
pub(crate) fn oracle_login(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut i = match lit(b, pos, b"jdbc:oracle:thin:") {
        Some(i) => i,
        None => {
            let mut i = lit(b, pos, b"sqlplus")?;
            loop {
                let j = blanks(b, i);
                if j == i {
                    return None;
                }
                match b.get(j) {
                    Some(b'-') => i = chars_until(text, j, char::is_whitespace),
                    _ => break j,
                }
            }
        }
    };
    let user_start = i;
    while b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        i += 1;
    }
    let user = text.get(user_start..i)?;
    let from = lit(b, i, b"/")?;
    let end = chars_until(text, from, |c| c.is_whitespace() || "@\"'/".contains(c));
    if b.get(end) != Some(&b'@') || user.is_empty() {
        return None;
    }
    let pass = text.get(from..end)?;
    judged(text, from, end, user, pass)
}

/// The `user:pass` pair at `s..e` unless the password is a placeholder, equals a placeholder
/// user (`user:user`), or the `@` starts a digest (`image@sha256:…`).
fn judged(text: &str, s: usize, e: usize, user: &str, pass: &str) -> Option<Hit> {
    let after = text.get(e + 1..).unwrap_or("");
    // An earlier pass already took it: a second changes nothing.
    // `http://a:b@host`, `http://u:p@host`: a letter or two stands for a password in
    // documentation and URL parsers' tests.
    if pass.chars().count() < 3
        || text.get(s..e).is_some_and(|t| t.contains("[REDACTED:"))
        || is_placeholder(pass)
        || encoded_placeholder(pass)
        // `public_key:secret_key` (Sentry's documented DSN shape): both name what they are.
        || (names_its_credential(user) && names_its_credential(pass))
        // `username:encrypted-password`, `username1:password1`: a template's slots.
        || url_slots(user, pass)
        // `sql_user:sql_pass`: the two slots named alike.
        || qualified_pair(user, pass)
        // `http://wrong:info@…`, `not-treq:not-treq`: a test's credentials it names wrong.
        || says_it_is_wrong(user)
        || says_it_is_wrong(pass)
        || (!user.is_empty() && is_placeholder(user) && pass.eq_ignore_ascii_case(user))
        // `cvs://:pserver:anoncvs@host`: a CVS root's access method, not a password.
        || (user.is_empty() && pass.split_once(':').is_some_and(|(m, _)| is_name(m)))
        || after.starts_with("sha256:")
        || after.starts_with("sha512:")
    {
        return None;
    }
    Some(Hit::span(s, e, "url-credentials"))
}

/// `mysql://user:pass%20word@host` (a URL parser's test): a placeholder written with
/// percent-encoded octets (RFC 3986 §2.1), read decoded and with the blanks, `-` and `_`
/// between its words left out (`pass word` is the word `password`).
fn encoded_placeholder(pass: &str) -> bool {
    if !pass.contains('%') {
        return false;
    }
    let b = pass.as_bytes();
    let mut plain = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        let octet = hex.and_then(|h| u8::from_str_radix(h, 16).ok());
        match octet {
            Some(octet) if c == b'%' => {
                plain.push(octet);
                i += 3;
            }
            _ => {
                plain.push(c);
                i += 1;
            }
        }
    }
    plain.retain(|c| !b" -_".contains(c));
    std::str::from_utf8(&plain).is_ok_and(is_placeholder)
}

/// The secret path of a Slack webhook: `(?i-u:hooks\.slack\.com)/`
/// `(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/_-]{20,})` (the host in any case, the
/// path as Slack writes it), unless it is the documentation's filler
/// (`T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX`).
pub(crate) fn slack_webhook(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = lit(b, lit_ci(b, pos, b"hooks.slack.com")?, b"/")?;
    let s = one_of(b, i, &[b"services/", b"workflows/", b"triggers/"])?;
    let e = at_least(b, s, |c| is_b64url(c) || c == b'+' || c == b'/', 20)?;
    (!is_filler(b.get(s..e)?)).then_some(Hit::span(s, e, "slack-webhook"))
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;

    #[test]
    fn a_placeholder_percent_encoded_is_one() {
        for text in [
            "mysql://user:pass%20word@host/database",
            "ftp://u:my%2Dpassword@host",
            "ftp://u:%70assword@host",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        for text in [
            "mysql://user:p%40ss%20w0rd@host/database",
            "mysql://user:Tr0ub%264dor@host",
            "ftp://u:pass%2@host",
        ] {
            assert_eq!(redact_counted(text).1, 1, "{text}");
        }
    }
}
