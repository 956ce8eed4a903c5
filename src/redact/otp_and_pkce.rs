//! Secrets a call or a key names by what they are for, read by the format their standard
//! gives them rather than by a credential's word: a one-time password's seed handed to its
//! generator (`TOTP.generate("JBSWY3DPEHPK3PXP")`, `pyotp.TOTP("…")`, `HOTP(…)`), and an OAuth
//! PKCE code verifier (`PkceCodeVerifier::new("dBjf…")`, `code_verifier=…`). Neither name holds
//! `secret`, `token` or `password`, so the generic rule never reads them; the formats are strict
//! enough to stand alone. A seed is RFC 4648's base32 in capitals, the alphabet Google
//! Authenticator's Key Uri Format names for it, 16 characters or more (80 bits, the length of
//! that format's examples; RFC 4226 §4 asks 128). A verifier is RFC 7636 §4.1's: 43 to 128 of
//! the unreserved characters, high-entropy (read as gitleaks reads a token: 3.5 bits a
//! character).

use super::entropy::bits_per_char;
use super::hit::Hit;
use super::shape::{is_word, string_prefix};

/// One-time password generators, as their libraries name them: pyotp's `TOTP` and `HOTP`
/// classes, totp-generator's `TOTP.generate`, and the seed's own type: otpauth's
/// `OTPAuth.Secret.fromBase32(…)` (its README: "Arbitrary key encoded in base32 or
/// `OTPAuth.Secret` instance"). (Lower-case `totp` begins too many words.)
pub(crate) const OTP_GENERATORS: &[&str] = &["TOTP", "HOTP", "Secret."];

/// The names RFC 7636 gives the verifier (`code_verifier`, §4.1 and §4.5) as code writes
/// them (oauth2's `PkceCodeVerifier`, `codeVerifier`), from their tail: `code` and `Code`
/// begin too many words of a transcript for the one pass to stop at each (a trigger there
/// cost 1 % more instructions); the reader looks back for them.
pub(crate) const CODE_VERIFIERS: &[&str] = &["Verifier", "_verifier"];

/// The seed a generator named at `pos` is handed as its first argument: `TOTP(`,
/// `TOTP.generate(`, `pyotp.HOTP(` then a quoted base32 literal.
pub(crate) fn otp_seed(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    // `.generate`, `::new`, `fromBase32`: a method of the generator, up to its `(`.
    let named = OTP_GENERATORS
        .iter()
        .find(|g| b.get(pos..pos + g.len()) == Some(g.as_bytes()))?;
    let mut i = pos + named.len();
    let method = b
        .get(i..)?
        .iter()
        .take(24)
        .take_while(|c| is_word(**c) || matches!(c, b'.' | b':'))
        .count();
    i += method;
    if b.get(i) != Some(&b'(') {
        return None;
    }
    let (start, end) = literal_after(b, i + 1)?;
    let seed = b.get(start..end)?;
    let body = seed.iter().take_while(|c| **c != b'=').count();
    let base32 = body >= 16
        && seed
            .iter()
            .take(body)
            .all(|c| c.is_ascii_uppercase() || (b'2'..=b'7').contains(c))
        && seed.iter().skip(body).all(|c| *c == b'=');
    base32.then_some(Hit::span(start, end, "secret-assignment"))
}

/// The verifier named at `pos`: `PkceCodeVerifier::new("…")`, `codeVerifier: '…'`,
/// `code_verifier=…` (a form's parameter), the value on the line or the next one.
pub(crate) fn code_verifier(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let tail = CODE_VERIFIERS
        .iter()
        .find(|n| b.get(pos..pos + n.len()) == Some(n.as_bytes()))?;
    let code = pos.checked_sub(4).and_then(|s| b.get(s..pos));
    if !matches!(code, Some(b"code" | b"Code")) {
        return None;
    }
    let mut i = pos + tail.len();
    for opener in [
        &b"::new("[..],
        b"::from(",
        b"(",
        b"\": ",
        b"\":",
        b"': ",
        b"':",
        b": ",
        b":",
        b" = ",
        b"=",
    ] {
        if b.get(i..i + opener.len()) == Some(opener) {
            i += opener.len();
            let (start, end) = match literal_after(b, i) {
                Some(span) => span,
                // A form's or a query's parameter: `code_verifier=dBjf…&…`.
                None if opener == b"=" => (
                    i,
                    i + b
                        .get(i..)?
                        .iter()
                        .take(129)
                        .take_while(|c| unreserved(**c))
                        .count(),
                ),
                None => return None,
            };
            let verifier = b.get(start..end)?;
            let random = (43..=128).contains(&verifier.len())
                && verifier.iter().all(|c| unreserved(*c))
                && !b.get(end).is_some_and(|c| unreserved(*c))
                && bits_per_char(verifier) >= 3.5;
            return random.then_some(Hit::span(start, end, "secret-assignment"));
        }
    }
    None
}

/// RFC 3986's unreserved characters, which RFC 7636 §4.1 allows in a verifier.
fn unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

/// The inside of a quoted literal that opens at `at`, after blanks and at most one line
/// break (an argument on its own line), a Python prefix allowed; it closes on its line.
fn literal_after(b: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut i = at;
    let mut breaks = 0;
    while let Some(c) = b.get(i).filter(|c| c.is_ascii_whitespace()) {
        breaks += usize::from(*c == b'\n');
        i += 1;
    }
    if breaks > 1 {
        return None;
    }
    i += string_prefix(b, i);
    let quote = *b.get(i).filter(|c| matches!(c, b'"' | b'\'' | b'`'))?;
    let len = b
        .get(i + 1..)?
        .iter()
        .take(256)
        .position(|c| *c == quote || *c == b'\n')?;
    (b.get(i + 1 + len) == Some(&quote)).then_some((i + 1, i + 1 + len))
}

#[cfg(test)]
mod tests {
    use super::super::redact;

    #[test]
    fn an_otp_seed_handed_to_its_generator() {
        for (text, left) in [
            (
                "await TOTP.generate(\"JBSWY3DPEHPK3PXP\")",
                "await TOTP.generate(\"[REDACTED:secret-assignment]\")",
            ),
            (
                "totp = pyotp.TOTP('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')",
                "totp = pyotp.TOTP('[REDACTED:secret-assignment]')",
            ),
            (
                "hotp = HOTP(\n    \"MFRGGZDFMZTWQ2LK====\")",
                "hotp = HOTP(\n    \"[REDACTED:secret-assignment]\")",
            ),
            (
                "//   or: `OTPAuth.Secret.fromBase32(\"US3WHSG7X5KAPV27VANWKQHF3SH3HULL\")`",
                "//   or: `OTPAuth.Secret.fromBase32(\"[REDACTED:secret-assignment]\")`",
            ),
        ] {
            assert_eq!(redact(text), left);
        }
        for text in [
            "pyotp.TOTP('base32secret3232')",
            "TOTP.generate(secret)",
            "TOTP(\"ABCDEFGH\")",
            "TOTP(\"JBSWY3DPEHPK3PXP0189\")",
            "the TOTP (\"JBSWY3DPEHPK3PXP\") seed",
            "OTPAuth.Secret.fromBase32(str)",
            "Secret.fromHex(\"3132333435363738393031323334353637383930\")",
            "ClientSecret.from(\"JBSWY3DPEHPK3PXP\")",
            "kubectl get Secret. The SECRET(\"JBSWY3DPEHPK3PXP\")",
        ] {
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn a_pkce_code_verifier() {
        // RFC 7636, Appendix B.
        let v = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        for text in [
            format!(".set_pkce_verifier(PkceCodeVerifier::new(\n    \"{v}\".to_string(),\n))"),
            format!("{{\"code_verifier\": \"{v}\"}}"),
            format!("grant_type=authorization_code&code_verifier={v}&code=x"),
            format!("const codeVerifier = '{v}';"),
        ] {
            assert!(!redact(&text).contains(v), "{text}");
        }
        for text in [
            "PkceCodeVerifier::new(verifier)".to_string(),
            "\"code_verifier\": \"abc\"".to_string(),
            format!("code_verifier={}", "a".repeat(50)),
            "codeVerifier: string;".to_string(),
            "let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();".to_string(),
        ] {
            assert_eq!(redact(&text), text);
        }
    }
}
