//! Passwords kept in a reversible encoding, by the encoding's own prefix (issue [15], eighth
//! round): what a tool can turn back into the password is the password.
//!
//! * Jetty's `OBF:` (its Password tool, `org.eclipse.jetty.util.security.Password`: four
//!   base-36 digits a character pair, `U` and four for a wide one; "they are not secure, but
//!   prevent casual observation"). Its `MD5:`, `CRYPT:` and `MD:` checksums are hashes and
//!   have no trigger here.
//! * Juniper Junos's `$9$` (its keyless substitution cipher, `request system decrypt
//!   password` reverses it): letters, digits, `.`, `/` and `-`. Cisco's type 9 also begins
//!   `$9$` but is a scrypt hash, `$9$<salt>$<hash>`: a second `$` keeps it.
//! * IBM WebSphere's and Liberty's `{xor}` (`securityUtility encode`'s default): base64 of
//!   the password's bytes XORed with `_`. Liberty's `{hash}` and `{aes}` have no trigger.
//!
//! The prefix stays; its encoded password goes.

use super::hit::Hit;

pub(crate) const OBFUSCATED_PREFIXES: &[&str] = &["OBF:", "$9$", "{xor}"];

/// The encoded password after the prefix at `pos`.
pub(crate) fn obfuscated(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let (s, alphabet, least): (usize, fn(&u8) -> bool, usize) = match b.get(pos)? {
        b'O' => (
            pos + 4,
            |c| c.is_ascii_digit() || c.is_ascii_lowercase() || *c == b'U',
            8,
        ),
        b'$' => (
            pos + 3,
            |c| c.is_ascii_alphanumeric() || b"./-".contains(c),
            8,
        ),
        _ => (
            pos + 5,
            |c| c.is_ascii_alphanumeric() || b"+/=".contains(c),
            4,
        ),
    };
    let len = b
        .get(s..)?
        .iter()
        .take(512)
        .take_while(|c| alphabet(c))
        .count();
    let e = s + len;
    // Ended by the value's end, not by more of a word or by a hash's `$`.
    let ended = !b
        .get(e)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'$' || *c == b'_');
    (len >= least && ended).then_some(Hit::span(s, e, "password-assignment"))
}

#[cfg(test)]
mod tests {
    use crate::redact::redact;

    #[test]
    fn reversible_encodings_go_and_hashes_stay() {
        for (text, gone) in [
            ("admin: OBF:1yta1t331v8w1v9q1t331ytc, admin", "1yta1t331v8w"),
            (
                "authentication-key \"$9$LE4xNbY2aJGiwYgoJHkqfQF/CuBEcy\";",
                "LE4xNbY2aJ",
            ),
            ("password=\"{xor}Lz4sLCgwLTs=\"", "Lz4sLCgwLTs="),
        ] {
            let out = redact(text);
            assert!(
                !out.contains(gone) && out.contains("[REDACTED:"),
                "{text} -> {out}"
            );
        }
        for text in [
            "admin: MD5:164c88b302622e17050af52c89945d44,user",
            "Passwords that begin with OBF: are de obfuscated",
            "secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM",
            "echo $9$1",
            "password=\"{hash}ATAAAAAIYWs1ZmRzNmQAAAAg\"",
        ] {
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn a_repeated_prefix_is_read_through() {
        let text = "OBF:1yta $9$ab {xor}".repeat(10_000);
        let _ = redact(&text);
    }
}
