//! An ACME challenge's token (RFC 8555 §8: "token", a random base64url value the server
//! issues in a challenge object beside its "type", "url" and "status"; the client serves it,
//! with its account key's thumbprint, at `/.well-known/acme-challenge/<token>` (§8.3) or
//! publishes its digest in DNS (§8.4): public by design, sent and served in the clear). An
//! ACME client's tests and docs quote whole challenge objects (acme-lib's, the distant set).
//! Told by the object it stands in: a `"token"` member whose object names a challenge type
//! (`http-01`, `dns-01`; RFC 8737's `tls-alpn-01`). A leaf.

/// How far the object is read either side of the token (a challenge object is a few lines).
const REACH: usize = 400;

/// Is the value of the `"token"` member at `key_start` (its value ending at `after`) a
/// challenge's token: does its object (from the nearest `{` before it to the nearest `}`
/// after, at most `REACH` bytes either side; a challenge object is flat) hold a quoted
/// challenge type, a name ending `-01` (`"http-01"`, `"dns-01"`, RFC 8737's
/// `"tls-alpn-01"`, the registry's later ones)? `name` is the key's whole name, lower case.
pub(crate) fn is_challenge_token(text: &str, key_start: usize, after: usize, name: &str) -> bool {
    if name.trim_start() != "token" {
        return false;
    }
    let b = text.as_bytes();
    let before = b
        .get(key_start.saturating_sub(REACH)..key_start)
        .unwrap_or(&[]);
    let Some(open) = before.iter().rposition(|c| *c == b'{') else {
        return false;
    };
    let rest = b
        .get(after..b.len().min(after.saturating_add(REACH)))
        .unwrap_or(&[]);
    let close = rest.iter().position(|c| *c == b'}').unwrap_or(rest.len());
    let typed = |part: &[u8]| {
        part.windows(5)
            .any(|w| matches!(w, [l, b'-', b'0', b'1', b'"'] if l.is_ascii_lowercase()))
    };
    !before.get(open..).is_some_and(|t| t.contains(&b'}'))
        && (typed(before.get(open..).unwrap_or(&[])) || typed(rest.get(..close).unwrap_or(&[])))
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;

    /// RFC 8555 §8.3's challenge object as a client's test quotes it (a made-up token), its
    /// type after the token too; and what stays a secret: a token in an object of no
    /// challenge type, a challenge type in another object.
    #[test]
    fn a_challenge_objects_token_is_public() {
        for text in [
            "{\n  \"type\": \"http-01\",\n  \"url\": \"https://example.com/acme/chall/prV_B7yEyA4\",\n  \"status\": \"pending\",\n  \"token\": \"LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0\"\n}",
            "{\"token\":\"LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0\",\"type\":\"tls-alpn-01\"}",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        for text in [
            "{\n  \"type\": \"bearer\",\n  \"token\": \"LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0\"\n}",
            "{\"type\": \"dns-01\"}, {\"token\": \"LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0\"}",
            "\"token\": \"LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0\"",
        ] {
            assert_eq!(redact_counted(text).1, 1, "{text}");
        }
        let _ = redact_counted(&"{\"token\": \"LoqXcYV8q5ONbJQxbm\", ".repeat(6_000));
    }
}
