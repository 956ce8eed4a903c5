//! JSON Web Keys' secret members: a private key's parameters and a symmetric key's value.
//!
//! A JWK (RFC 7517) writes each part of a key as a member of one or two letters whose name
//! no credential word holds: RFC 7518 §6.2.2 gives an elliptic-curve private key's `"d"`,
//! §6.3.2 an RSA private key's `"d"`, `"p"`, `"q"`, `"dp"`, `"dq"` and `"qi"` (base64url,
//! unpadded), and §6.4.1 a symmetric (`"kty": "oct"`) key's `"k"`. The public members (`"n"`,
//! `"e"`, `"x"`, `"y"`) stay. pyjwkest and the OpenID libraries built on it (oic, pyoidc)
//! write a symmetric key's value as `"key"` beside `"kty": "oct"` (`SYMKey(key=…)`).
//!
//! The letters also name other things (`"d"` of an SVG path, `"q"` of a query), so a private
//! member's value must read as key material: a base64url run of 20 characters or more, mixing
//! cases and digits, as random as a token (3.5 bits a character); a value split over the lines
//! of a Python triple-quoted string is taken whole. A symmetric key's value is taken as it is
//! when its object says `"kty": "oct"` on the same line (a key may be any bytes: `"a1b2c3d4"`).

use super::entropy::bits_per_char;
use super::hit::Hit;
use super::raw_key::raw_key_or_phrase;
use super::not_secret::is_placeholder;
use super::shape::{blanks, is_b64url, quoted, string_prefix};

/// The members as JSON and Python write them, from their name to the `:` after its closing
/// quote, and `kty` (a symmetric key's `"kty": "oct"`), each after its opening quote
/// (`Boundary::Quote`).
/// Not from the opening quote: a quote is every tenth byte of a transcript's JSON, and a
/// trigger there made the scan stop at each.
pub(crate) const JWK_MEMBERS: &[&str] = &[
    "d\":", "p\":", "q\":", "dp\":", "dq\":", "qi\":", "k\":", "d':", "p':", "q':", "dp':", "dq':",
    "qi':", "k':", "kty\"", "kty'",
];

/// The shortest private member read without its object's `kty`: a P-256 key's `d` is 43
/// characters, a test RSA key's primes some 40; a query or a path's letters rarely run so
/// long without a blank.
const MIN_MATERIAL: usize = 20;

/// The secret value of the JWK member whose name starts at `pos`, or of the symmetric key
/// whose `"kty": "oct"` has its `kty` there.
pub(crate) fn jwk_member(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let quote = *b.get(pos.checked_sub(1)?)?;
    // The member's name is a whole quoted name: `"d"`, not the end of `"id"`.
    let name_len = b.get(pos..)?.iter().take(4).position(|c| *c == quote)?;
    if !matches!(quote, b'"' | b'\'')
        || pos
            .checked_sub(2)
            .and_then(|i| b.get(i))
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        return None;
    }
    let name = b.get(pos..pos + name_len)?;
    if name == b"kty" {
        return symmetric_key(text, pos);
    }
    let i = blanks(b, pos + name_len + 2);
    // `"d": int("…")`: RSA's private exponent in decimal, `raw_key`'s (`key_integer`); not `p`
    // and `q`, which a DSA key's public parameters share.
    if name == b"d" && b.get(i) == Some(&b'i') {
        return raw_key_or_phrase(text, pos);
    }
    // Python's `u'…'` (pyjwkest's tests): a prefix of the literal, not of the key.
    let i = i + string_prefix(b, i);
    let open = *b.get(i)?;
    if !matches!(open, b'"' | b'\'') {
        return None;
    }
    let triple = b
        .get(i..i + 3)
        .is_some_and(|t| t.iter().all(|c| *c == open));
    let start = i + if triple { 3 } else { 1 };
    let end = material_end(b, start, triple)?;
    let first_run = b
        .get(start..)?
        .iter()
        .take_while(|c| is_b64url(**c))
        .count();
    let material = b.get(start..start + first_run)?;
    let mixed = material.iter().any(u8::is_ascii_uppercase)
        && material.iter().any(u8::is_ascii_lowercase)
        && material.iter().any(u8::is_ascii_digit);
    if first_run < MIN_MATERIAL || !mixed || bits_per_char(material) < 3.5 {
        return None;
    }
    let kind = if name == b"k" {
        "secret-assignment"
    } else {
        "private-key"
    };
    Some(Hit::span(start, end, kind))
}

/// After `"kty": "oct"` (its `kty` at `pos`), the value of the object's `"k"` or `"key"`
/// later on the line, whatever it reads as: a symmetric key may be any bytes.
fn symmetric_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let value = b
        .get(pos + 4..)?
        .iter()
        .position(|c| !matches!(c, b'"' | b'\'' | b':' | b' ' | b'\t'))?;
    let pos = pos + 4 + value;
    if b.get(pos..pos + 4)
        .is_none_or(|t| !matches!(t, b"oct\"" | b"oct'"))
    {
        return None;
    }
    let line = b.get(pos..)?;
    let line = line.get(
        ..line
            .iter()
            .take(512)
            .position(|c| *c == b'\n')
            .unwrap_or(line.len().min(512)),
    )?;
    let member = line.windows(5).position(|w| {
        matches!(w, [q, b'k', r, b':', _] | [q, b'k', b'e', b'y', r] if q == r && matches!(q, b'"' | b'\''))
    })?;
    let name_end = pos
        + member
        + if line.get(member + 2) == Some(&b'e') {
            5
        } else {
            3
        };
    let i = blanks(b, name_end);
    let i = if b.get(i) == Some(&b':') {
        blanks(b, i + 1)
    } else {
        return None;
    };
    let (s, e) = quoted(b, i, 512)?;
    let value = text.get(s..e)?;
    (!value.is_empty() && !is_placeholder(value)).then_some(Hit::span(s, e, "secret-assignment"))
}

/// Where the base64url value that starts at `start` ends: at its closing quote (not taken);
/// in a triple-quoted string, across line breaks and indentation, up to the closing quotes;
/// and across literals only white space apart, which Python's lexical analysis ("String
/// literal concatenation") and C's joins into one (`"d": "ckLy…"` then `"-9Cs…"` on the
/// next line), up to the last one's closing quote.
fn material_end(b: &[u8], start: usize, triple: bool) -> Option<usize> {
    let run = |at: usize| {
        at + b
            .get(at..)
            .map_or(0, |t| t.iter().take_while(|c| is_b64url(**c)).count())
    };
    let mut end = run(start);
    if !triple {
        let close = *b.get(end).filter(|c| matches!(c, b'"' | b'\'' | b'\\'))?;
        for _ in 0..64 {
            let mut next = end + 1;
            while b.get(next).is_some_and(|c| c.is_ascii_whitespace()) {
                next += 1;
            }
            if close == b'\\' || next == end + 1 || b.get(next) != Some(&close) {
                break;
            }
            let more = run(next + 1);
            if more == next + 1 || b.get(more) != Some(&close) {
                break;
            }
            end = more;
        }
        return Some(end);
    }
    loop {
        let mut next = end;
        while b.get(next).is_some_and(|c| c.is_ascii_whitespace()) {
            next += 1;
        }
        let more = run(next);
        if next == end || more == next || more - next > 4096 {
            return Some(end);
        }
        end = more;
    }
}

#[cfg(test)]
mod tests {
    use super::super::redact;

    #[test]
    fn private_and_symmetric_members_go_public_ones_stay() {
        // RFC 7517, A.2 (an EC private key) and A.3 (a symmetric key).
        let ec = r#"{"kty":"EC", "crv":"P-256", "x":"MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4", "d":"870MB6gfuTJ4HtUnUvYMyJpr5eUZNP4Bk43bVdj3eAE"}"#;
        let out = redact(ec);
        assert!(!out.contains("870MB6gfuTJ4"), "{out}");
        assert!(
            out.contains("MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4"),
            "{out}"
        );
        let oct = r#"{"kty":"oct", "alg":"A128KW", "k":"GawgguFyGrWKav7AX4VKUg"}"#;
        assert!(!redact(oct).contains("GawgguFyGrWKav7AX4VKUg"));
        let pyjwkest = r#"{"kty": "oct", "key": "a1b2c3d4", "use": "sig"},"#;
        assert!(!redact(pyjwkest).contains("a1b2c3d4"));
        let triple = "    \"d\": \"\"\"CkZmjH13BmGKWwhH_atA-jsp1yNxu\n          byL7nr1Ivf4iOFcs_fZqgH0PyPVDZIJt31QcH\"\"\",";
        let out = redact(triple);
        assert!(
            !out.contains("CkZmjH13") && !out.contains("byL7nr1I"),
            "{out}"
        );
        assert!(out.ends_with("\"\"\","), "{out}");
        // pyjwkest's tests: Python's `u'…'`, and a value split into literals it joins.
        let prefixed = "    \"d\": u'AY5pb7A0UFiB3RELSD64fTLOSV_jazdF7fLYyuTw8lOfRhWg6Y6rUrPAx'\n}";
        assert_eq!(redact(prefixed), "    \"d\": u'[REDACTED:private-key]'\n}");
        let joined = "  \"d\": \"ckLyXxkbjC4szg8q8G0ERBZV\"\n       \"-9CszeOxpRtx1KM9BLl0Do3li_Km2\",\n  \"e\": \"AQAB\"";
        assert_eq!(
            redact(joined),
            "  \"d\": \"[REDACTED:private-key]\",\n  \"e\": \"AQAB\""
        );
    }

    #[test]
    fn the_letters_elsewhere_stay() {
        for s in [
            r#"<path d="M10 10 L20 20"/>"#,
            r#"{"d": "2024-01-01T00:00:00Z"}"#,
            r#"{"q": "redis connection refused"}"#,
            r#"{"p": "3f786850e387550fdab836ed7e6dc881de23001b"}"#,
            r#"{"key": "drickyoughurt", "use": "sig"}"#,
            r#"{"kty": "oct", "key": "", "use": "sig"}"#,
            r#"{"d": "abcdefghijklmnopqrstuvwxyz"}"#,
            "{\"d\": u'2024-01-01T00:00:00Z'}",
        ] {
            assert_eq!(redact(s), s);
        }
    }
}
