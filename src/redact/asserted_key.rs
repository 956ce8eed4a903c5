//! A private key's hex a test asserts: `assert_eq!(sk.display_secret().to_string(), "…")`,
//! `assert_eq!(to_hex(&sk[..], &mut buf).unwrap(), "…")`, `assert_eq!(format!("{:x}", seed),
//! "…")`. A key library's tests print the key they built and compare it with its hex; the
//! first argument's words say which key (`raw_key`'s words: `sk`, `secret`, `seed`, none of a
//! public half's), the second is hex of a private key's length (`raw_key::key_hex`).

use super::hit::Hit;
use super::raw_key::{key_hex, says_private, Key};
use super::shape::run_within;

/// The asserted literal, when the assertion whose arguments start at `start` compares an
/// expression of a private key with a key's hex.
pub(crate) fn asserted_key(b: &[u8], start: usize) -> Option<Hit> {
    // The first argument up to its `,` (nested calls' commas are inside their parentheses),
    // read as one name whose words its other bytes separate.
    let (mut depth, mut i) = (0u8, start);
    loop {
        match *b.get(i).filter(|_| i - start < 200)? {
            b'(' | b'[' => depth = depth.checked_add(1)?,
            b')' | b']' => depth = depth.checked_sub(1)?,
            b',' if depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    if !says_private(b.get(start..i)?, Key::Not) {
        return None;
    }
    let open = run_within(b, i + 1, 64, |c| c.is_ascii_whitespace());
    let quote = *b.get(open).filter(|c| matches!(c, b'"' | b'\''))?;
    let close = run_within(b, open + 1, 140, |c| c.is_ascii_hexdigit());
    (b.get(close) == Some(&quote)).then_some(())?;
    key_hex(b, open + 1, close)
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    const K: &str = "a3da5346582b9273dd4a2bb83bbdfad9c398863cff589b1c4646accc16fde327";

    #[test]
    fn the_hex_a_test_asserts_of_a_private_key() {
        for text in [
            format!("assert_eq!(\n    sk.display_secret().to_string(),\n    \"{K}\"\n);"),
            format!("assert_eq!(to_hex(&sk[..], &mut buf).unwrap(), \"{K}\");"),
            format!("assert_eq!(format!(\"{{:x}}\", seed), \"{K}{K}\");"),
        ] {
            assert!(!redact(&text).contains(&K[..16]), "{text}");
        }
        for text in [
            format!("assert_eq!(sk.public_key(&secp).to_string(), \"{K}\");"),
            format!("assert_eq!(format!(\"{{:x}}\", hash), \"{K}\");"),
            format!("assert_eq!(sk.len(), \"{}\");", &K[..40]),
            format!("debug_eq!(sk.display_secret(), \"{K}\");"),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }
}
