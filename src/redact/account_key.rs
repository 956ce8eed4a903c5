//! A private key handed to an account's constructor: viem's Tempo accounts are built from the
//! key itself (`Account.fromSecp256k1('0x…')`, `Account.fromP256`, `Account.fromHeadlessWebAuthn`:
//! viem.sh's "Accounts" pages, each documented as taking a private key), and so are
//! eth-account's and web3.py's (`Account.from_key(private_key)`, `w3.eth.account.from_key`).
//! The literal is read as such a key is written: `0x` and 32 bytes in hex, varied as key
//! bytes are. An address (20 bytes) is shorter; a constructor named for what is public
//! (`fromPublicKey`, `fromAddress`) reads nothing, nor `Account.from({ … })` (viem's own,
//! given an object).

use super::hit::Hit;
use super::key_material::varied_hex;
use super::shape::{is_word, quoted, run_within, NAME_REACH};

/// The constructors' common head, in any case (web3.py's `w3.eth.account.from_key`).
pub(crate) const ACCOUNT_FROM: &str = "Account.from";

/// The key literal of the constructor call at the trigger `pos`.
pub(crate) fn account_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let start = pos + ACCOUNT_FROM.len();
    let end = run_within(b, start, NAME_REACH, is_word);
    let method = b.get(start..end)?;
    let method = method.strip_prefix(b"_").unwrap_or(method);
    let public = |w: &[u8]| {
        method
            .get(..w.len())
            .is_some_and(|m| m.eq_ignore_ascii_case(w))
    };
    if method.is_empty() || public(b"pub") || public(b"addr") || b.get(end) != Some(&b'(') {
        return None;
    }
    // The literal, on the call's line or the next, after a doc comment's `*` or `//`.
    let i = run_within(b, end + 1, 24, |c| b" \t\r\n*/".contains(&c));
    let (open, close) = quoted(b, i, 80)?;
    let hex = b.get(open..close)?.strip_prefix(b"0x")?;
    (hex.len() == 64 && varied_hex(hex)).then_some(Hit::span(open, close, "private-key"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    const K: &str = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    #[test]
    fn a_key_handed_to_an_accounts_constructor_goes() {
        for text in [
            format!(" * const owner = Account.fromSecp256k1(\n *   '{K}',\n * )"),
            format!("const account = Account.fromP256('{K}')"),
            format!("acct = w3.eth.account.from_key(\"{K}\")"),
            format!("    account = Account.from_key(\n        \"{K}\"\n    )"),
        ] {
            assert!(!redact(&text).contains(&K[2..20]), "{text}");
        }
    }

    #[test]
    fn addresses_public_keys_and_objects_stay() {
        for text in [
            format!("Account.fromPublicKey('{K}')"),
            "Account.fromSecp256k1('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')".to_string(),
            format!("Account.from({{ address: '{K}' }})"),
            "const account = Account.fromP256('0x...')".to_string(),
            format!(
                "Account.fromSecp256k1('{}')",
                "0x".to_string() + &"ab".repeat(32)
            ),
            "Account.fromSecp256k1(privateKey)".to_string(),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
        let long = "Account.fromX(\n * ".repeat(12_000);
        assert_eq!(redact_counted(&long).1, 0);
    }
}
