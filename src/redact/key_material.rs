//! Whether a value under `key` alone is key material: `key` names ids and positions as often
//! as secrets (`"key": "Enter"`, `sort_key`), so its value must read as random, as gitleaks'
//! generic rule asks (16+ characters of letters and digits, base64 or base64url, padded as
//! RFC 4648 §5 allows and a Fernet key is written, 3.5 bits a character, not a UUID) — or be
//! written as a symmetric key is in hex: the 192 or 256 bits of AES's longer keys (FIPS 197
//! §5) and of ChaCha20's (RFC 8439 §2.3), 48 or 64 hex digits, which test vectors often give
//! as counted bytes (`"key": "707172…8e8f"`, RFC 8439's `80 81 82 …`) that read as anything
//! but random. Not 32 (AES-128's): MD5's digest (RFC 1321) is
//! as long, and a digest under `key` is a cache's or an object's key (switched on, 32 cost
//! a look-alike of the samples held-out set, by its aggregate).

use super::entropy::bits_per_char;
use super::shape::is_uuid;

/// Is `v` not key material?
pub(crate) fn not_key_material(v: &str) -> bool {
    is_public_point(v)
        || !cipher_key_hex(v)
            && (v.len() < 16
                || !v.bytes().any(|c| c.is_ascii_digit())
                || !v.bytes().any(|c| c.is_ascii_alphabetic())
                || !(v
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))
                    || v.trim_end_matches('=')
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"_-".contains(&c)))
                || bits_per_char(v.as_bytes()) < 3.5
                || is_uuid(v))
}

/// `key = "…".decode('hex')` (Python 2's `hex` codec), `key = unhexlify("…")`: hex a decoder
/// makes bytes of, of a key's length (16, 20, 24 or 32 bytes: AES's keys, FIPS 197 §5, and
/// HMAC-SHA1's 20, RFC 4226 §5.1), is the key's bytes whatever its digits (RFC 4226's own test
/// key is ASCII digits, `3132…3930`); not one or two digits repeated (`0000…`, `abab…`).
/// `decoded`: a decoding call was handed the literal; `after`: where the literal ended.
pub(crate) fn hex_key_bytes(b: &[u8], v: &str, decoded: bool, after: usize) -> bool {
    let tail = b.get(after..).unwrap_or_default();
    let codec = tail.starts_with(b".decode('hex')") || tail.starts_with(b".decode(\"hex\")");
    let distinct = b"0123456789abcdefABCDEF".iter().filter(|c| v.as_bytes().contains(c)).count();
    (decoded || codec)
        && matches!(v.len(), 32 | 40 | 48 | 64)
        && v.bytes().all(|c| c.is_ascii_hexdigit())
        && distinct > 2
}

/// `{ key: '654a1661a99a6b3abf52e52a4e951491',` alone on its line: the first member of a
/// cipher test vector's entry, as sjcl's `test/*_vectors.js` write each (`key`, then `iv`,
/// `pt`, `ct` on the lines below), holding an AES-128 key's 32 hex digits (FIPS 197 §5) that
/// `not_key_material` leaves to MD5's length. An object's `key` written inline beside its
/// siblings (`{"key": "<md5>", "ttl": 60}`, a cache's) is not one. `key_start`: where the
/// unquoted `key` begins; `after`: where its literal ended.
pub(crate) fn vector_entry_key(b: &[u8], key_start: usize, v: &str, after: usize) -> bool {
    let head = b.get(..key_start).unwrap_or_default().trim_ascii_end();
    let tail = b.get(after..).unwrap_or_default().strip_prefix(b",").unwrap_or(b"x");
    let next = tail.iter().find(|c| !matches!(c, b' ' | b'\t'));
    let line_end = matches!(next, None | Some(b'\n' | b'\r'));
    head.ends_with(b"{") && line_end && v.len() == 32 && varied_hex(v.as_bytes())
}

/// A public point as SEC 1 §2.3.3 writes it in hex: `04` and both coordinates, or `02`/`03`
/// and one, of P-256's or secp256k1's 32 bytes, P-384's 48 or P-521's 66: the public half,
/// which `key` names as often as the private one (`key_str = "0411db…"`).
fn is_public_point(v: &str) -> bool {
    let b = v.as_bytes();
    let coordinate = |n: usize| [64, 96, 132].contains(&n);
    b.iter().all(u8::is_ascii_hexdigit)
        && match b.get(..2) {
            Some(b"04") => (b.len() & 1) == 0 && coordinate((b.len() - 2) / 2),
            Some(b"02" | b"03") => coordinate(b.len() - 2),
            _ => false,
        }
}

/// A 192- or 256-bit key's length in hex digits, varied.
fn cipher_key_hex(v: &str) -> bool {
    matches!(v.len(), 48 | 64) && varied_hex(v.as_bytes())
}

/// Hex of digits and letters both, of one case, and at least 8 of the 16 digits (no filler
/// repeated: `deadbeef…`, `abab…`): key bytes as test vectors write them.
pub(crate) fn varied_hex(b: &[u8]) -> bool {
    // Asked last: it reads the value once for each hex digit.
    let distinct = || {
        b"0123456789abcdefABCDEF"
            .iter()
            .filter(|c| b.contains(c))
            .count()
    };
    b.iter().all(u8::is_ascii_hexdigit)
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_alphabetic)
        && (b.iter().all(|c| !c.is_ascii_uppercase()) || b.iter().all(|c| !c.is_ascii_lowercase()))
        && distinct() >= 8
}

/// `auth required pam_yubico.so id=4711 key=pJMccccc05pJMccccT05=`: a module argument on a
/// PAM line (pam.conf(5): `type control module-path module-arguments`) named `key`, which
/// pam_yubico(8) documents as the API client's key in base64. `line` is the line up to the
/// key; the value must be base64 of 16 characters or more, letters and digits.
pub(crate) fn pam_module_key(line: &str, v: &str) -> bool {
    let module = line.as_bytes().split(|c| *c == b' ' || *c == b'\t' || *c == b'/').any(|file| {
        file.starts_with(b"pam_") && file.ends_with(b".so")
    });
    module
        && v.len() >= 16
        && v.bytes().any(|c| c.is_ascii_digit())
        && v.bytes().any(|c| c.is_ascii_alphabetic())
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;
    use super::*;

    #[test]
    fn a_test_vectors_key_in_hex_is_redacted() {
        let text = "\"key\": \"707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f\",";
        assert!(!redact_counted(text).0.contains("7071727374"), "{text}");
        let digest = "\"key\": \"707172737475767778797a7b7c7d7e7f\",";
        assert_eq!(redact_counted(digest).1, 0, "{digest}");
    }

    /// sjcl's vectors: `{ key: '<32 hex>',` opening an entry whose members follow on the
    /// lines below; a cache's `key` inline beside its siblings stays.
    #[test]
    fn a_test_vector_entrys_aes_128_key() {
        for text in [
            "  { key: '654a1661a99a6b3abf52e52a4e951491',",
            "{ key:   \"000102030405060708090A0B0C0D0E0F\",\n  iv: \"\",",
        ] {
            assert_eq!(redact_counted(text).1, 1, "{text}");
        }
        for text in [
            "cache.set({\"key\": \"000102030405060708090a0b0c0d0e0f\", \"ttl\": 60})",
            "{ key: '654a1661a99a6b3abf52e52a4e951491', ttl: 60 }",
            "  item = { key: '00000000000000000000000000000000',",
            "  { key: '654a1661a99a6b3abf52e52a4e9514',",
            "  { id: 3, key: '654a1661a99a6b3abf52e52a4e951491',",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        let long = "{ key: '654a1661a99a6b3abf52e52a4e951491' ".repeat(5_000);
        assert_eq!(redact_counted(&long).1, 0);
    }

    #[test]
    fn a_pam_modules_key_argument_is_key_material() {
        let line = "auth   required   pam_yubico.so   debug id=4711 ";
        assert!(pam_module_key(line, "pJMccccc05pJMccccT05="));
        assert!(pam_module_key("auth sufficient /lib/security/pam_yubico.so ", "aB3dE6gH9jK2mN5p"));
        assert!(!pam_module_key(line, "/etc/yubikey_mappings"));
        assert!(!pam_module_key(line, "short1"));
        assert!(!pam_module_key("ykpamcfg key=", "pJMccccc05pJMccccT05="));
        let pam = "  auth   required                    pam_yubico.so   debug id=4711 key=pJMccccc05pJMccccT05=";
        assert!(!redact_counted(pam).0.contains("pJMcc"), "{pam}");
        let mapping = "auth required pam_yubico.so id=16 authfile=/etc/yubikey_mappings";
        assert_eq!(redact_counted(mapping).1, 0);
    }

    #[test]
    fn counted_bytes_of_an_aes_key_are_key_material() {
        let counted = "707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f";
        assert!(!not_key_material(counted));
        assert!(!not_key_material(&counted[..48]));
        assert!(!not_key_material(
            &"000102030405060708090A0B0C0D0E0F".repeat(2)
        ));
        // Random text as before; fillers, other lengths and mixed case stay no key.
        assert!(!not_key_material("q8Fz2kLmN0pRx7Tv"));
        for v in [
            "Enter",
            &"deadbeef".repeat(8),
            &"0".repeat(64),
            &"1234567890".repeat(6)[..48],
            "707172737475767778797a7b7c7d7e7f",
            "707172737475767778797a7b7c7d7e7f8081",
            "707172737475767778797a7b7C7D7E7F808182838485868788898a8b8c8d8e8f",
            // SEC 1's uncompressed and compressed points (bitcoin's script tests).
            "0411db93e1dcdb8a016b49840f8c53bc1eb68a382e97b1482ecad7b148a6909a5cb2e0eaddfb84ccf9744464f82e160bfa9b8b64f9d4c03f999b8643f656b412a3",
            "0311db93e1dcdb8a016b49840f8c53bc1eb68a382e97b1482ecad7b148a6909a5c",
        ] {
            assert!(not_key_material(v), "{v}");
        }
    }

    /// A hex literal a decoder makes bytes of, of a key's length, under `key`; Thread's
    /// `pskc` as a key word.
    #[test]
    fn hex_decoded_under_key_and_the_pskc_word() {
        for (text, gone) in [
            ("        key = \"3132333435363738393031323334353637383930\".decode('hex')", "31323334"),
            ("key = binascii.unhexlify(\"00112233445566778899aabbccddeeff\")", "00112233"),
            ("    \"pskc\": \"9760C89414D461AC717DCD105EB87E5B\",", "9760C894"),
        ] {
            assert!(!redact_counted(text).0.contains(gone), "{text}");
        }
        for text in [
            "key = \"3132333435363738393031323334353637383930\"",
            "key = \"00000000000000000000000000000000\".decode('hex')",
            "key = \"313233343536373839303132333435\".decode('hex')",
            "key_id = a2b_hex(\"00112233445566778899aabbccddeeff\")",
            "\"pskc\": \"\",",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }
}
