//! A Tink keyset in cleartext JSON: each key's `keyData` holds its `typeUrl`, its `value` (the
//! key's serialized protobuf, base64) and its `keyMaterialType` (tink.proto's `KeyData`, in
//! field order, as Tink's JSON keyset writer and protobuf's JSON mapping write it). Where the
//! type says `SYMMETRIC` or `ASYMMETRIC_PRIVATE` the value is the key itself; an
//! `ASYMMETRIC_PUBLIC` or a `REMOTE` key (a KMS key's name) stays, and so does an
//! `encryptedKeyset`, which is no key without the key that wraps it.

use super::der_key::{sextet, wrapped_run};
use super::hit::Hit;
use super::shape::{find_within, lit, run, run_within};

/// `KeyData`'s first field, after its opening quote.
pub(crate) const TINK_KEY_DATA: &str = "typeUrl";

/// The shortest value read: an AES-128 key's protobuf, some 24 characters.
const MIN_CHARS: usize = 24;

/// A JSON member's punctuation between its name and its value (escaped or not).
fn punctuation(c: u8) -> bool {
    matches!(c, b'"' | b'\\' | b':' | b' ' | b'\t' | b'\n' | b'\r')
}

/// The `value` of the key whose `typeUrl` is at `pos`, if its material is secret.
pub(crate) fn tink_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let start = run_within(
        b,
        find_within(b, pos, 300, b"\"value")? + 6,
        12,
        punctuation,
    );
    // The value's first character is base64 (an empty or quoted-away value is none).
    b.get(start).and_then(|c| sextet(*c))?;
    let end = wrapped_run(b, start);
    let kind = run(
        b,
        find_within(b, end, 160, b"keyMaterialType")? + 15,
        punctuation,
    );
    let secret = lit(b, kind, b"SYMMETRIC").or_else(|| lit(b, kind, b"ASYMMETRIC_PRIVATE"))?;
    (end - start >= MIN_CHARS && b.get(secret).is_some_and(|c| punctuation(*c) || *c == b','))
        .then_some(Hit::span(start, end, "tink-key"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    #[test]
    fn a_symmetric_or_private_keys_value_goes() {
        for (text, gone) in [
            ("{\n  \"keyData\": {\n    \"typeUrl\": \"type.googleapis.com/google.crypto.tink.AesGcmKey\",\n    \"value\": \"GiCj9/vele2p5VC7AL8IOCZKnaBuaoNd5QwhfTqcpwsFDQ==\",\n    \"keyMaterialType\": \"SYMMETRIC\"\n  },", "GiCj9/vele2p5"),
            ("{\\\"keyData\\\":{\\\"typeUrl\\\":\\\"type.googleapis.com/google.crypto.tink.Ed25519PrivateKey\\\",\\\"value\\\":\\\"EkAaIGm3mJqZ0xJ9vQ2pL7cT4wR8nB5yH1kD6fG3sA0eU2oX\\\",\\\"keyMaterialType\\\":\\\"ASYMMETRIC_PRIVATE\\\"}", "EkAaIGm3mJq"),
        ] {
            let out = redact(text);
            assert!(out.contains("[REDACTED:tink-key]") && !out.contains(gone), "{out}");
        }
    }

    /// A public key, a KMS key's reference and an encrypted keyset stay.
    #[test]
    fn public_remote_and_encrypted_keysets_stay() {
        for text in [
            "\"keyData\": {\"typeUrl\": \"type.googleapis.com/google.crypto.tink.EcdsaPublicKey\", \"value\": \"EgYIAxACGAIaIQDZkS6xVIXDzE1YbKpY5b8CY9cZuqMsq1ArTp6zYmN1sQ==\", \"keyMaterialType\": \"ASYMMETRIC_PUBLIC\"}",
            "\"keyData\": {\"typeUrl\": \"type.googleapis.com/google.crypto.tink.KmsAeadKey\", \"value\": \"EjQKMmdjcC1rbXM6Ly9wcm9qZWN0cy9wL2xvY2F0aW9ucy9nbG9iYWw=\", \"keyMaterialType\": \"REMOTE\"}",
            "{\"encryptedKeyset\": \"AQICAHhSPb2ahuT5Q6cH3qRJj1NqN8mzU5lPmVjX+CbqGBDaKAG3x9mW\", \"keysetInfo\": {\"primaryKeyId\": 5}}",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    #[test]
    fn a_long_run_of_triggers_is_read_once() {
        let text =
            "\"typeUrl\": \"x\", \"value\": \"GiCj9/vele2p5VC7AL8IOCZKnaBuaoNd5QwhfTqcpw\", "
                .repeat(3000);
        let _ = redact_counted(&text);
    }
}
