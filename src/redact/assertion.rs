//! A credential a test asserts: `self.assertEqual(creds.password, "s3cur3P@ssw0rd")`,
//! `assertEquals(client.api_key, "…")`, `assert_equal(user.token, '…')`, `assert_eq!(c.secret,
//! "…")`. An SDK's tests compare what they parsed with the sample credential they fed in, so
//! the literal is that credential, whatever its shape; the first argument's last name says
//! which credential it is. Only that pair is read: a literal first, a name second, anything
//! not a plain name (`len(x.token)`), or a literal naming itself (`"secret"`,
//! `"session-token"`, `"the_key"`, `"[REDACTED]"`) is left alone.

use super::asserted_key::asserted_key;
use super::generic::is_digit_credential;
use super::hit::Hit;
use super::not_secret::{is_placeholder, names_itself};
use super::shape::{blanks, quoted};

/// The assertions read, each with its `(`: xUnit's (Python, Java, PHP, Ruby's minitest) and
/// Rust's macro, all `assert` and one of these tails. The scan's triggers are the tails: `as`
/// begins too many words for the one pass to stop at each.
pub(crate) const ASSERTIONS: &[&str] = &["Equal(", "Equals(", "_equal(", "_eq!(", "Same("];

/// Names of credentials, as the last segment of the asserted expression squeezed to lower
/// case letters (`api_key`, `apiKey` and `API-KEY` alike).
const CREDENTIAL_NAMES: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "accesstoken",
    "refreshtoken",
    "clientsecret",
    "authtoken",
    "apitoken",
    "apisecret",
    "secretaccesskey",
];

/// The asserted literal when the assertion at `pos` compares a credential with one.
pub(crate) fn asserted_credential(text: &str, pos: usize) -> Option<Hit> {
    if text.as_bytes().get(pos.checked_sub(6)?..pos) != Some(b"assert".as_slice()) {
        return None;
    }
    credential(text, pos).or_else(|| {
        let open = text.as_bytes().get(pos..)?.iter().take(8).position(|c| *c == b'(')?;
        asserted_key(text.as_bytes(), pos + open + 1)
    })
}

fn credential(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let open = ASSERTIONS
        .iter()
        .find(|a| b.get(pos..pos + a.len()) == Some(a.as_bytes()))?;
    let start = pos + open.len();
    // The first argument, up to its `,`: a name, attributes and subscripts only.
    let len = b
        .get(start..)?
        .iter()
        .take(160)
        .position(|c| *c == b',' || *c == b'\n' || *c == b'(' || *c == b')')?;
    if b.get(start + len) != Some(&b',') {
        return None;
    }
    let first = text.get(start..start + len)?.trim();
    let name = first
        .trim_end_matches([']', '"', '\''])
        .rsplit(['.', '[', '"', '\'', ':', '>'])
        .next()?;
    let plain = first
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"_.[]'\"-:>".contains(&c));
    let squeezed: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if !plain || !CREDENTIAL_NAMES.contains(&squeezed.as_str()) {
        return None;
    }
    // The second argument: a string literal that closes the call or meets a third.
    let (s, e) = quoted(b, blanks(b, start + len + 1), 512)?;
    if !matches!(b.get(e + 1), Some(b')' | b',')) {
        return None;
    }
    let v = text.get(s..e)?;
    let password = squeezed.contains("pass");
    let judged_out = v.chars().count() < 4
        || v.contains(char::is_whitespace)
        || is_placeholder(v)
        || names_itself(v)
        // `"the_key"`, `"session-token"`: a value naming what it stands for.
        || ["key", "token"].iter().any(|w| v.to_ascii_lowercase().contains(w))
        // A token or key has letters; a password may be digits.
        || (!password
            && !v.bytes().any(|c| c.is_ascii_alphabetic())
            && !is_digit_credential(v, Some(b'"')));
    if judged_out {
        return None;
    }
    let kind = if password {
        "password-assignment"
    } else if squeezed.contains("token") {
        "token-assignment"
    } else {
        "secret-assignment"
    };
    Some(Hit::span(s, e, kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asserted(t: &str) -> Option<String> {
        let at = t.find("assert")? + "assert".len();
        let h = asserted_credential(t, at)?;
        t.get(h.secret_start..h.secret_end).map(str::to_owned)
    }

    #[test]
    fn the_literal_asserted_of_a_credential_is_one() {
        for (text, want) in [
            (
                r#"self.assertEqual(creds.password, "s3cur3P@ssw0rd")"#,
                "s3cur3P@ssw0rd",
            ),
            (
                r#"self.assertEqual(c.connection.password, 'se/cure')"#,
                "se/cure",
            ),
            (
                r#"self.assertEqual(m.return_dct["token"], "abcdefhjigkfghh")"#,
                "abcdefhjigkfghh",
            ),
            (r#"assert_eq!(cfg.api_key, "k3yV4lue")"#, "k3yV4lue"),
        ] {
            assert_eq!(asserted(text).as_deref(), Some(want), "{text}");
        }
        for text in [
            r#"self.assertEqual(access_token.secret, "secret")"#,
            r#"self.assertEqual(key1.secret_key, "[REDACTED]")"#,
            r#"self.assertEqual(result["token"], "session-token")"#,
            r#"self.assertEqual(options.api_key, "the_key")"#,
            r#"self.assertEqual(template.password, 'some password')"#,
            r#"self.assertEqual(serviceTransfer.token, "12345")"#,
            r#"self.assertEqual(len(x.token), "abcd1234")"#,
            r#"self.assertEqual(user.name, "s3cur3P@ssw0rd")"#,
            r#"self.assertEqual(x.password, "unclosed"#,
            "assertEqual(",
        ] {
            assert_eq!(asserted(text), None, "{text}");
        }
    }
}
