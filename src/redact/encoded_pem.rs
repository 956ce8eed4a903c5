//! A PEM private key block written once more in base64: Kubernetes holds a Secret's `data:`
//! values so (`tls.key:`, the Kubernetes documentation's "Secrets": each value base64 of the
//! file), and a kubeconfig its `client-key-data:` (the client key's PEM file, base64). The
//! armour's `-----BEGIN` (RFC 7468 §2) opens the value, and base64 (RFC 4648 §4) writes it
//! `LS0tLS1CRUdJTi` wherever a value starts; the label decoded says what the block holds.
//! A private key's (`PRIVATE KEY`, `RSA PRIVATE KEY`, `OPENSSH PRIVATE KEY`, `PGP PRIVATE KEY
//! BLOCK`) is a secret; a certificate's (`client-certificate-data:`,
//! `certificate-authority-data:`, `tls.crt:`) and a public key's stay, and so does an
//! encrypted key (`ENCRYPTED PRIVATE KEY`, or OpenSSL's `Proc-Type: 4,ENCRYPTED` header):
//! no key without its password. A stub of the armour alone (`-----BEGIN … KEY-----` and
//! `-----END …`, some 90 characters) or an elided one (`LS0t…`) holds no key.

use super::der_key::{decode_head, wrapped_run};
use super::hit::Hit;
use super::shape::find_within;

/// `-----BEGIN` in base64, from a value's first byte.
pub(crate) const ENCODED_PEM: &str = "LS0tLS1CRUdJTi";

/// The shortest text read: the armour's two lines and some 60 bytes of a key.
const MIN_CHARS: usize = 200;

/// The encoded block at `pos`, whole.
pub(crate) fn encoded_pem(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    // `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED`: 54 bytes.
    let mut head = [0u8; 72];
    decode_head(b, pos, &mut head)?;
    if head.get(10) != Some(&b' ') {
        return None;
    }
    let label = head.get(11..find_within(&head, 11, 72, b"-----")?)?;
    let private = label.ends_with(b"PRIVATE KEY") || label.ends_with(b"PRIVATE KEY BLOCK");
    if !private || find_within(&head, 0, 72, b"ENCRYPTED").is_some() {
        return None;
    }
    let end = wrapped_run(b, pos);
    let elided = b
        .get(end..)
        .is_some_and(|t| t.starts_with(b"..") || t.starts_with("…".as_bytes()));
    (end - pos >= MIN_CHARS && !elided).then_some(Hit::span(pos, end, "private-key"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    /// A PEM block of `label` and a body, base64 as `base64 -w0` writes it.
    fn encoded(label: &str) -> String {
        let pem = format!(
            "-----BEGIN {label}-----\nMIIEowIBAAKCAQEAx3b8XKBAh1c2kPZ0y9TsZ5dW0LQhVQ3xR7mG2eU8fJp9sNkC\nr4T1vYw6HqE2aLz0bF7nJm3XcK5uD8oPiS1gWjQ9tRyB4eV6hN2kM0lA7dZ3fxUc\n-----END {label}-----\n"
        );
        let table = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in pem.as_bytes().chunks(3) {
            let n =
                chunk.iter().fold(0u32, |n, c| n << 8 | u32::from(*c)) << (8 * (3 - chunk.len()));
            for k in 0..4 {
                let c = if k <= chunk.len() {
                    table[(n >> (18 - 6 * k)) as usize & 63]
                } else {
                    b'='
                };
                out.push(char::from(c));
            }
        }
        out
    }

    #[test]
    fn a_private_keys_pem_in_base64_goes() {
        for label in [
            "RSA PRIVATE KEY",
            "PRIVATE KEY",
            "EC PRIVATE KEY",
            "OPENSSH PRIVATE KEY",
        ] {
            let key = encoded(label);
            for text in [
                format!("    client-key-data: {key}"),
                format!("{{\"client-key-data\":\"{key}\"}}"),
                format!("  tls.key: {key}\n"),
                format!("\"tls.key\": \"{key}\""),
            ] {
                let out = redact(&text);
                // `tls.key:` is the generic rule's already (a value under `key` reading random).
                assert!(
                    out.contains("[REDACTED:") && !out.contains(&key[20..60]),
                    "{text}"
                );
            }
        }
    }

    /// A certificate, a public key, an encrypted key, a stub and an elided value stay.
    #[test]
    fn certificates_public_and_encrypted_keys_stay() {
        for label in ["CERTIFICATE", "PUBLIC KEY", "ENCRYPTED PRIVATE KEY"] {
            let text = format!("    client-certificate-data: {}", encoded(label));
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
        let key = encoded("RSA PRIVATE KEY");
        for text in [
            format!("client-key-data: {}...", &key[..240]),
            "client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQotLS0tLUVORCBSU0EgUFJJVkFURSBLRVktLS0tLQo=".to_string(),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }

    #[test]
    fn a_long_run_of_triggers_is_read_once() {
        let text = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo ".repeat(200_000 / 44);
        let _ = redact_counted(&text);
    }
}
