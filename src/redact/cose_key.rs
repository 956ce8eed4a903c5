//! A COSE key's secret parameters written in code: RFC 9053 names a symmetric key's bytes `k`
//! (label -1 of the Symmetric key type) and an EC2 or OKP key's private part `d` (label -4),
//! beside the public `x` and `y` (-2, -3). Libraries name them so: pycose's key parameter
//! classes (`SymKpK`, `EC2KpD`, `OKPKpD`, beside `EC2KpX`, `OKPKpX`, `KpKty`, `KpKeyOps`:
//! its `keyparam` module) as a key dictionary's keys (`SymKpK: unhexlify(b'…')`), and
//! cose-rust's `CoseKey` setters (`key.d(hex::decode("…"))`, `key.k(…)`: its keys module's
//! example; `x`, `y` are the public coordinates). The value is read in hex of a key's size —
//! a symmetric key's 16, 24 or 32 bytes (AES-128/192/256, HMAC-SHA-256), a private scalar's
//! 32, 48, 56, 57 or 66 — varied as key bytes are; a name or setter of any other parameter
//! (`x`, `y`, `kid`, `KpKty`, `RSAKpDP`) reads nothing.

use super::hit::Hit;
use super::key_material::varied_hex;
use super::shape::{blanks, decoded_literal, quoted, string_prefix};

/// pycose's names of `k` and `d` (after `Sym`, `EC2`, `OKP`) and cose-rust's setters of them
/// on a key named `…key`.
pub(crate) const COSE_KEY_TRIGGERS: &[&str] = &["KpK", "KpD", "key.d(", "key.k("];

/// The secret parameter's literal at the trigger `pos`.
pub(crate) fn cose_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut i = pos + 6;
    if b.get(pos) == Some(&b'K') {
        // `SymKpK:` as a dictionary's key, not `KpKty` nor `RSAKpDP` (another parameter's
        // name goes on).
        let owner = b.get(pos.checked_sub(3)?..pos)?;
        i = blanks(b, pos + 3);
        if !matches!(owner, b"Sym" | b"EC2" | b"OKP") || b.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
    }
    // Up to two calls the literal is handed through (`unhexlify(`, `hex::decode(`,
    // `bytes.fromhex(`), then the literal, after a Python prefix (`b'…'`).
    for _ in 0..2 {
        i = blanks(b, i);
        i = decoded_literal(b, i).unwrap_or(i);
    }
    let (open, close) = quoted(b, i + string_prefix(b, i), 140)?;
    let hex = b.get(open..close)?;
    // A symmetric key's 16, 24 or 32 bytes; a private scalar's 32, 48, 56, 57 or 66.
    let sized = matches!(hex.len(), 32 | 48 | 64 | 96 | 112 | 114 | 132);
    (sized && varied_hex(hex)).then_some(Hit::span(open, close, "private-key"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    const K32: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

    #[test]
    fn a_cose_keys_k_and_d_go() {
        for (text, gone) in [
            (format!("        OKPKpD: unhexlify(b'{K32}'),"), K32),
            (
                "        SymKpK: unhexlify(b'000102030405060708090a0b0c0d0e0f'),".to_string(),
                "000102030405",
            ),
            (format!("    EC2KpD: bytes.fromhex(\"{K32}\"),"), K32),
            (
                format!("//!     key.d(hex::decode(\"{K32}\").unwrap());"),
                K32,
            ),
            (
                format!("    cose_key.k(hex::decode(\"{K32}\").unwrap());"),
                K32,
            ),
        ] {
            assert!(!redact(&text).contains(gone), "{text}");
        }
    }

    #[test]
    fn public_parameters_names_and_other_sizes_stay() {
        for text in [
            format!("        OKPKpX: unhexlify(b'{K32}'),"),
            format!("        EC2KpY: unhexlify(b'{K32}'),"),
            format!("//!     key.x(hex::decode(\"{K32}\").unwrap());"),
            format!("//!     key.y(hex::decode(\"{K32}\").unwrap());"),
            "from pycose.keys.keyparam import KpKty, SymKpK, KpKeyOps, OKPKpCurve, OKPKpD, OKPKpX"
                .to_string(),
            "        KpKty: KtySymmetric,".to_string(),
            format!("        RSAKpDP: unhexlify(b'{K32}'),"),
            format!("        OKPKpD: unhexlify(b'{}'),", &K32[..40]),
            format!("        SymKpK: unhexlify(b'{}'),", "00".repeat(16)),
            "        SymKpK: os.urandom(16),".to_string(),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }

    #[test]
    fn a_long_run_of_triggers_is_read_once() {
        for unit in [
            "SymKpK: ",
            "key.d(",
            "OKPKpD: unhexlify(b'",
            "key.k(hex::decode(\"",
        ] {
            let text = unit.repeat(200_000 / unit.len());
            assert_eq!(redact_counted(&text).1, 0, "{unit}");
        }
    }
}
