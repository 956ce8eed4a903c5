//! A private key's DER written as base64 or base64url with no PEM armour: a JSON field, an
//! environment variable or a test fixture holds the bytes PEM would wrap
//! (`"private": "MIGHAgEAMBMGByqGSM49…"`). The structure says private key wherever it stands,
//! so it is read alone. DER opens with the outer SEQUENCE (`30`, its length in one, two or
//! three bytes), which base64 always writes `M` and `C`-`I`; the next fields are fixed per
//! structure:
//!
//! * PKCS#8's PrivateKeyInfo (RFC 5208 §5) and OneAsymmetricKey (RFC 5958 §2): version 0 or 1
//!   (`02 01 00`, `02 01 01`), then the AlgorithmIdentifier, a SEQUENCE opening on its OID
//!   (`30 len 06`);
//! * SEC 1's ECPrivateKey (RFC 5915 §3): version 1, then the private key's OCTET STRING of a
//!   curve's scalar size (28, 32, 40, 48, 65 or 66 bytes);
//! * PKCS#1's RSAPrivateKey (RFC 8017 §A.1.2; OpenSSL's DSA key alike): version 0, then the
//!   modulus, an INTEGER of 128 bytes or more (`02 81`, `02 82`).
//!
//! A certificate, a public key (SubjectPublicKeyInfo), a CSR or a CMS message opens its outer
//! SEQUENCE on another SEQUENCE or an OID, never on a version then these: they stay.

use super::hit::Hit;
use super::shape::run_within;

/// The outer SEQUENCE's first two characters, lengths 0x20 to 0x8f (`MC`..`MI`): the shortest
/// key read, Ed25519's PKCS#8, is 48 bytes.
pub(crate) const DER_KEY_TRIGGERS: &[&str] = &["MC", "MD", "ME", "MF", "MG", "MH", "MI"];

/// The shortest run read: Ed25519's PKCS#8 in base64, 64 characters.
const MIN_CHARS: usize = 60;

/// The longest run read: an RSA-8192 key's PKCS#8, some 6,400 characters.
const MAX_CHARS: usize = 8192;

/// The key's base64 at `pos`, padding included, lines of a wrapped text joined.
pub(crate) fn der_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut head = [0u8; 12];
    decode_head(b, pos, &mut head)?;
    let header = match head.get(1)? {
        0..=0x7f => 2,
        0x81 => 3,
        0x82 => 4,
        _ => return None,
    };
    let private = match head.get(header..header + 6)? {
        [2, 1, 0 | 1, 0x30, _, 6] => true,
        [2, 1, 1, 4, n, _] => matches!(n, 28 | 32 | 40 | 48 | 65 | 66),
        [2, 1, 0, 2, 0x81 | 0x82, _] => true,
        _ => false,
    };
    if !private {
        return None;
    }
    let end = wrapped_run(b, pos);
    (end - pos >= MIN_CHARS).then_some(Hit::span(pos, end, "private-key"))
}

/// Where the base64 (or base64url) text at `pos` ends, its padding included: a wrapped
/// text's full lines (PEM's 64, MIME's 76) go on past one line break, to `MAX_CHARS` in all.
pub(crate) fn wrapped_run(b: &[u8], pos: usize) -> usize {
    let mut end = pos;
    loop {
        let line = run_within(b, end, MAX_CHARS, |c| sextet(c).is_some());
        let width = line - end;
        end = run_within(b, line, 2, |c| c == b'=');
        let next = line + usize::from(b.get(line) == Some(&b'\r'));
        let wrapped = matches!(width, 64 | 76) && end == line && b.get(next) == Some(&b'\n');
        if !wrapped || end - pos > MAX_CHARS || b.get(next + 1).and_then(|c| sextet(*c)).is_none() {
            return end;
        }
        end = next + 1;
    }
}

/// The first `out.len()` bytes (a multiple of 3) of the base64 or base64url text at `pos`,
/// decoded into `out`; `None` where the text is shorter.
pub(crate) fn decode_head(b: &[u8], pos: usize, out: &mut [u8]) -> Option<()> {
    for (i, chunk) in b.get(pos..pos + out.len() / 3 * 4)?.chunks(4).enumerate() {
        let mut group = 0u32;
        for c in chunk {
            group = group << 6 | u32::from(sextet(*c)?);
        }
        for (j, byte) in group.to_be_bytes().iter().skip(1).enumerate() {
            *out.get_mut(i * 3 + j)? = *byte;
        }
    }
    Some(())
}

/// A base64 or base64url character's value.
pub(crate) fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    /// RFC 8410 §10.3's Ed25519 private key, RFC 5915's and RFC 5958's structures as
    /// OpenSSL writes them, in base64url and base64.
    #[test]
    fn a_private_keys_der_without_its_armour() {
        for (text, gone) in [
            ("\"private\": \"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg-jTz69Lsq4oa49_5PMMkcqYFwkEGc5L-zGDwUwfY5eahRANCAATxB5t9kViOHW_BQpNCDOhvX_b8_7iXkYrlOuGOXZMmY5AV5shoM8M2TMpT2izb4OdBLqEJjZVO7EjFH9JmHLZ9\"", "-jTz69"),
            ("ED25519=MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC", "NTuctv5"),
            ("k = 'MHcCAQEEIAQp2JSMdH7HHQk8+rRjs9YJX4m7JKvDq8fW7F0nPPXioAoGCCqGSM49AwEHoUQDQgAE'", "AQp2JSM"),
            ("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\nMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\nNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ\n", "NMoSfm76"),
            ("MIIEpAIBAAKCAQEA7VJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6d", "7VJTUt9"),
        ] {
            assert!(!redact(text).contains(gone), "{text}");
        }
    }

    /// A certificate (RFC 5280), a public key (SubjectPublicKeyInfo, RFC 5480), a CSR, a CMS
    /// message, prose in capitals and a key's first characters alone stay.
    #[test]
    fn certificates_public_keys_and_words_stay() {
        for text in [
            "\"cert\": \"MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJRTESMBAGA1UE\"",
            "\"public\": \"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8xOUetsCa8EfOlDEBAfREhJqspDoyEh6Szz2in47Tv\"",
            "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=",
            "csr=MIICvDCCAaQCAQAwdzELMAkGA1UEBhMCVVMxDTALBgNVBAgMBFV0YWgxDzANBgNVBAcMBkxpbmRv",
            "MIAGCSqGSIb3DQEHAqCAMIACAQExDzANBglghkgBZQMEAgEFADCABgkqhkiG9w0BBwGggCSABIIHBg==",
            "MIME types, MIT licence, MERGE INTO, MEMORY_LIMIT=MIGRATIONS_DIR",
            "MC4CAQAwBQYDK2VwBCIEI",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    /// 200 KB of the triggers, or of a key's head repeated, read in bounded steps.
    #[test]
    fn a_long_run_of_triggers_is_read_once() {
        for unit in ["MI", "MC4CAQAwBQYDK2VwBCIEI\n", "MHcCAQEEIAQp2JSM"] {
            let text = unit.repeat(200_000 / unit.len());
            let _ = redact_counted(&text);
        }
    }
}
