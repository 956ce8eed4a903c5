//! The password an encrypted keystore is opened with, a literal handed to the call that
//! decrypts it: Ethereum's keystore files (Web3 Secret Storage) as their libraries document
//! the call, the keystore first and the password second — eth-keystore's `decrypt_key(path,
//! password)`, go-ethereum's `keystore.DecryptKey(keyjson, auth)`, web3.py's
//! `Account.decrypt(keyfile_json, password)` and eth-keyfile's `decode_keyfile_json(…,
//! password)`, ethers' `Wallet.fromEncryptedJson(json, password)` (`…Sync`) and
//! `decryptKeystoreJson(json, password)` (`…Sync`), ethereumjs-wallet's `Wallet.fromV3(input,
//! password)`. Only a literal second argument is read; a name (`password`), a placeholder or a
//! literal naming itself stays.

use super::hit::Hit;
use super::not_secret::{is_placeholder, names_itself};
use super::shape::{blanks, run_within};

/// The calls, each with its `(`; ethers' and ethereumjs-wallet's from the tail after their
/// `from` (`fr` begins too many words for the one pass to stop at each).
#[rustfmt::skip]
pub(crate) const KEYSTORE_DECRYPTS: &[&str] = &[
    "decrypt_key(", "DecryptKey(", "Account.decrypt(", "decode_keyfile_json(",
    "EncryptedJson(", "EncryptedJsonSync(", "decryptKeystoreJson(",
    "decryptKeystoreJsonSync(", "V3(",
];

/// The calls read from their tail, with the head they must follow.
const AFTER_FROM: &[&str] = &["EncryptedJson(", "EncryptedJsonSync(", "V3("];

/// The first argument's longest reach: a path, a name, a call of a few.
const FIRST_ARGUMENT: usize = 200;

/// The password literal of the call at `pos`.
pub(crate) fn keystore_password(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let call = KEYSTORE_DECRYPTS
        .iter()
        .find(|c| b.get(pos..pos + c.len()) == Some(c.as_bytes()))?;
    if AFTER_FROM.contains(call) && b.get(pos.checked_sub(4)?..pos) != Some(b"from") {
        return None;
    }
    // The first argument up to its `,`, over nested brackets and quoted text.
    let (mut depth, mut quote, mut i) = (0u8, None, pos + call.len());
    loop {
        let c = *b.get(i)?;
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'' | b'`') => quote = Some(c),
            (None, b'(' | b'[' | b'{') => depth = depth.checked_add(1)?,
            (None, b')' | b']' | b'}') => depth = depth.checked_sub(1)?,
            (None, b',') if depth == 0 => break,
            _ => {}
        }
        i += 1;
        if i > pos + FIRST_ARGUMENT {
            return None;
        }
    }
    let mut open = blanks(b, i + 1);
    open = blanks(b, open + usize::from(b.get(open) == Some(&b'\n')));
    let q = *b.get(open).filter(|c| matches!(c, b'"' | b'\''))?;
    let close = if q == b'"' {
        run_within(b, open + 1, 256, |c| !matches!(c, b'"' | b'\n' | b'\\'))
    } else {
        run_within(b, open + 1, 256, |c| !matches!(c, b'\'' | b'\n' | b'\\'))
    };
    let after = blanks(b, close + 1);
    let password = text.get(open + 1..close)?;
    let whole = b.get(close) == Some(&q) && matches!(b.get(after), Some(b')' | b','));
    (whole && !password.is_empty() && !is_placeholder(password) && !names_itself(password))
        .then_some(Hit::span(open + 1, close, "password-assignment"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    #[test]
    fn a_literal_password_handed_to_a_keystores_decryption() {
        for (text, gone) in [
            ("assert_eq!(decrypt_key(&keypath, \"grOQ8QDnGHvpYJf\").unwrap(), secret);", "grOQ8QDnGHvpYJf"),
            ("key, err := keystore.DecryptKey(keyjson, \"Kq8mV2zL-fake\")", "Kq8mV2zL"),
            ("pk = Account.decrypt(json.load(f), 'Tz5kQ9wLm')", "Tz5kQ9wLm"),
            ("const w = await Wallet.fromEncryptedJson(JSON.stringify(ks, null, 2),\n  \"Vn4kz8Qp\");", "Vn4kz8Qp"),
            ("w = Wallet.fromV3(v3, 'Pq7Lm2xZ8', true)", "Pq7Lm2xZ8"),
        ] {
            assert!(!redact(text).contains(gone), "{text}");
        }
    }

    #[test]
    fn a_name_a_placeholder_or_another_call_stays() {
        for text in [
            "decrypt_key(&keypath, password).unwrap()",
            "Account.decrypt(keyfile, \"<your password>\")",
            "Account.decrypt(keyfile, \"password\")",
            "decrypt(&keypath, \"grOQ8QDnGHvpYJf\")",
            "decrypt_key(\"a, b\"",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        let _ = redact_counted(&"decrypt_key((((".repeat(20_000));
        let _ = redact_counted(&"fromV3(\"".repeat(20_000));
    }
}
