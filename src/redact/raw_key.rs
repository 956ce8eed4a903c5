//! Raw private key material written in code: the bytes of a private scalar or seed in hex,
//! under a name that says so or handed to a key's type, as crypto libraries write them — the
//! generic rule reads neither `sk`, `priv` nor `seed`, and a private key's hex reads as
//! anything but a password.
//!
//! The names are the libraries' own: RustCrypto's and dalek's `SecretKey`, `SigningKey`,
//! `StaticSecret`, libsodium's and NaCl's `sk` and `seed` (`crypto_sign_seed_keypair`), the
//! `priv`/`private` of OpenSSL's and noble's `privateKey`, ethers'/alloy's `LocalWallet` and
//! `PrivateKeySigner`, libp2p's `Keypair::from_protobuf_encoding`. The lengths are the
//! documented private key sizes: 32 bytes (Ed25519's seed, RFC 8032 §5.1.5; X25519's scalar,
//! RFC 7748 §5; secp256k1's and P-256's scalars, SEC 1 §2.3.6), 48 (P-384), 56 (X448, RFC 7748
//! §5), 57 (Ed448, RFC 8032 §5.2.5), 64 (NaCl's `crypto_sign` secret key, seed and public key)
//! and 66 (P-521), and libp2p's protobuf `PrivateKey { Type = 1; Data = 2 }` (its peer-id
//! spec): `08 <type> 12 <length>` and the key. A name that says public (`pk`, `pub`), a
//! digest, a nonce, an id or an address keeps its value: SEC 1 §2.3.3's public points and
//! SHA-256's digests are as long.

use super::hit::Hit;
use super::shape::{blanks, decoded_literal, is_word, string_prefix};
use super::tokens::context_kind;

/// Where the reader starts: the name words `priv`, `seed` and `sk` (followed by what ends a
/// name: `sk` begins too many words), the key types, and Rust's byte array type (`KEY: [u8;
/// 32] =`), from which the name before it is read.
pub(crate) const RAW_KEY_TRIGGERS: &[&str] = &[
    "priv",
    "seed",
    "sk ",
    "sk=",
    "sk:",
    "sk\"",
    "[u8; ",
    "Wallet",
    "Keypair",
    "SigningKey",
    "SecretKey",
    "StaticSecret",
];

/// Words of a name that say private key material.
const PRIVATE_WORDS: &[&str] = &[
    "priv",
    "private",
    "privkey",
    "privatekey",
    "sk",
    "seed",
    "secret",
    "secretkey",
    "keypair",
];

/// Key types whose name alone says private (`SigningKey`, `k256::SecretKey`), from the end
/// of a name run together.
const KEY_TYPES: &[&str] = &[
    "signingkey",
    "localwallet",
    "privatekeysigner",
    "staticsecret",
];

/// Words of a name that say its value is public or no key: a public half, a digest, a nonce,
/// an id, an address, a signature, a test's expected output.
const NOT_PRIVATE_WORDS: &[&str] = &[
    "pub",
    "public",
    "pk",
    "pubkey",
    "publickey",
    "hash",
    "digest",
    "nonce",
    "iv",
    "salt",
    "id",
    "addr",
    "address",
    "sig",
    "signature",
    "tag",
    "mac",
    "commitment",
    "fingerprint",
    "checksum",
    "tx",
    "msg",
    "message",
    "expected",
    "shared",
];

/// Private key material at the trigger `pos`.
pub(crate) fn raw_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let name_end = pos
        + b.get(pos..)?
            .iter()
            .take(64)
            .take_while(|c| is_word(**c))
            .count();
    if b.get(pos) == Some(&b'[') {
        return typed_array(b, pos);
    }
    let start = pos
        - b.get(..pos)?
            .iter()
            .rev()
            .take(64)
            .take_while(|c| is_word(**c))
            .count();
    let name = b.get(start..name_end)?;
    if !says_private(name, false) {
        return None;
    }
    // `"…".parse::<LocalWallet>()`: the literal before the type.
    if let Some(hit) = parsed_before(b, start) {
        return Some(hit);
    }
    let Some((open, close)) = value_after(b, name_end) else {
        return parsed_variable(b, name_end);
    };
    if let Some((start, end)) = key_hex(b, open).filter(|(_, end)| *end == close) {
        return Some(Hit::span(start, end, "private-key"));
    }
    // `"seed": "sn…"`: a seed of a format the provider table's context rows read (XRP's).
    let name = std::str::from_utf8(name).ok()?;
    let kind = context_kind(name, b.get(open..close)?)?;
    Some(Hit::span(open, close, kind))
}

/// `KEY: &[u8; 32] = &hex!("…")`: the name before the type, any key's but a public one's.
fn typed_array(b: &[u8], pos: usize) -> Option<Hit> {
    let mut i = pos;
    while i > 0 && matches!(b.get(i - 1), Some(b' ' | b'&' | b':')) {
        i -= 1;
    }
    let start = i - b
        .get(..i)?
        .iter()
        .rev()
        .take(64)
        .take_while(|c| is_word(**c))
        .count();
    let name = b.get(start..i)?;
    if name.is_empty() || !says_private(name, true) {
        return None;
    }
    let (open, close) = value_after(b, i)?;
    let (start, end) = key_hex(b, open).filter(|(_, end)| *end == close)?;
    Some(Hit::span(start, end, "private-key"))
}

/// Does the name say private key material (or, `key_too`, any key)? Split into words at `_`,
/// `-` and camel humps, lower-cased.
fn says_private(name: &[u8], key_too: bool) -> bool {
    let mut private = false;
    let mut word = Vec::new();
    let mut words = Vec::new();
    for (i, c) in name.iter().enumerate() {
        let hump =
            c.is_ascii_uppercase() && i > 0 && name.get(i - 1).is_some_and(u8::is_ascii_lowercase);
        if *c == b'_' || *c == b'-' || hump {
            words.push(std::mem::take(&mut word));
        }
        if *c != b'_' && *c != b'-' {
            word.push(c.to_ascii_lowercase());
        }
    }
    words.push(word);
    let squeezed = words.concat();
    private |= KEY_TYPES.iter().any(|t| squeezed.ends_with(t.as_bytes()));
    for w in &words {
        let w = w.as_slice();
        if NOT_PRIVATE_WORDS.iter().any(|n| n.as_bytes() == w) {
            return false;
        }
        private |= PRIVATE_WORDS.iter().any(|p| p.as_bytes() == w) || (key_too && w == b"key");
    }
    private
}

/// The literal after a name: `= "…"`, `: "…"`, `=> "…"`, `: T = "…"` (a typed constant), the
/// value on the next line, or handed through a call (`decode_hex("…")`,
/// `SigningKey::from_bytes(&hex!("…"))`, `::from_protobuf_encoding(&hex!(`).
/// The span inside the literal's quotes.
fn value_after(b: &[u8], name_end: usize) -> Option<(usize, usize)> {
    // A quoted member's name: `"seed": "…"`.
    let mut i = name_end + usize::from(matches!(b.get(name_end), Some(b'"' | b'\'')));
    i = blanks(b, i);
    match b.get(i) {
        Some(b'=') => i += 1 + usize::from(b.get(i + 1) == Some(&b'>')),
        Some(b':') if b.get(i + 1) == Some(&b'=') => i += 2,
        Some(b':') if b.get(i + 1) != Some(&b':') => {
            i += 1;
            // `: &str =`, `: [u8; 32] =`: a type up to its `=` on the line.
            let typed = b
                .get(i..)?
                .iter()
                .take(48)
                .take_while(|c| !matches!(c, b'\n' | b'"' | b'\'' | b'='))
                .count();
            if b.get(i + typed) == Some(&b'=') && b.get(i + typed + 1) != Some(&b'=') {
                i += typed + 1;
            }
        }
        Some(b':' | b'.' | b'(') => {}
        _ => return None,
    }
    // Up to three calls the literal is handed through.
    for _ in 0..4 {
        i = spaces(b, i)?;
        i += usize::from(b.get(i) == Some(&b'&'));
        if let Some(at) = decoded_literal(b, i) {
            i = at;
            continue;
        }
        let call = b
            .get(i..)?
            .iter()
            .take(64)
            .take_while(|c| is_word(**c) || matches!(c, b'.' | b':' | b'!'))
            .count();
        if call > 0 && b.get(i + call) == Some(&b'(') {
            i += call + 1;
        } else if call == 0 && b.get(i) == Some(&b'(') {
            i += 1;
        } else {
            break;
        }
    }
    let i = spaces(b, i)?;
    let i = i + string_prefix(b, i);
    let quote = *b.get(i).filter(|c| matches!(c, b'"' | b'\''))?;
    let len = b
        .get(i + 1..)?
        .iter()
        .take(256)
        .position(|c| *c == quote || *c == b'\n')?;
    (b.get(i + 1 + len) == Some(&quote)).then_some((i + 1, i + 1 + len))
}

/// `let signer: PrivateKeySigner = key_hex.parse()?` after `let key_hex = "…";`: the literal
/// a variable parsed as the key's type was given, within the 512 bytes before.
fn parsed_variable(b: &[u8], type_end: usize) -> Option<Hit> {
    let i = blanks(b, type_end);
    let i = blanks(b, i + usize::from(b.get(i) == Some(&b'=')));
    let len = b
        .get(i..)?
        .iter()
        .take(48)
        .take_while(|c| is_word(**c))
        .count();
    let var = b.get(i..i + len)?;
    if len == 0 || b.get(i + len..i + len + 7) != Some(b".parse(") {
        return None;
    }
    let from = type_end.saturating_sub(512);
    let before = b.get(from..type_end)?;
    let at = (0..before.len().saturating_sub(len)).rev().find(|&j| {
        before.get(j..j + len) == Some(var)
            && !before.get(j.wrapping_sub(1)).is_some_and(|c| is_word(*c))
            && before.get(j + len..j + len + 3) == Some(b" = ")
    })?;
    let open = from + at + len + 4;
    let quote = *b.get(open - 1).filter(|c| matches!(c, b'"' | b'\''))?;
    let (start, end) = key_hex(b, open)?;
    (b.get(end) == Some(&quote)).then_some(Hit::span(start, end, "private-key"))
}

/// Blanks and at most one line break.
fn spaces(b: &[u8], at: usize) -> Option<usize> {
    let i = blanks(b, at);
    let i = i + usize::from(b.get(i) == Some(&b'\n'));
    Some(blanks(b, i))
}

/// `"…"\n    .parse::<LocalWallet>()`: the literal a key type parses, before `.parse::<`.
fn parsed_before(b: &[u8], type_start: usize) -> Option<Hit> {
    let head = b.get(..type_start)?;
    let head = head.strip_suffix(b".parse::<")?;
    let close = head.len()
        - head
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
    let quote = *head
        .get(close.checked_sub(1)?)
        .filter(|c| matches!(c, b'"' | b'\''))?;
    let body = head
        .get(..close - 1)?
        .iter()
        .rev()
        .take(140)
        .take_while(|c| c.is_ascii_hexdigit() || **c == b'x')
        .count();
    let open = close.checked_sub(body + 2)?;
    if b.get(open) != Some(&quote) {
        return None;
    }
    let (start, end) = key_hex(b, open + 1)?;
    (end == close - 1).then_some(Hit::span(start, end, "private-key"))
}

/// Hex of a documented private key length at `at` (after an optional `0x`), up to a non-hex
/// byte: the span of the digits. Digits and letters of one case, and at least 8 of the 16
/// (no filler: `0000…`, `abab…`).
fn key_hex(b: &[u8], at: usize) -> Option<(usize, usize)> {
    let start = at
        + if b.get(at..at + 2) == Some(b"0x") {
            2
        } else {
            0
        };
    let digits = b
        .get(start..)?
        .iter()
        .take(200)
        .take_while(|c| c.is_ascii_hexdigit())
        .count();
    let hex = b.get(start..start + digits)?;
    let protobuf = hex.len() > 8
        && hex.get(..2) == Some(b"08")
        && hex.get(4..6) == Some(b"12")
        && std::str::from_utf8(hex.get(6..8)?)
            .ok()
            .and_then(|l| usize::from_str_radix(l, 16).ok())
            .is_some_and(|l| hex.len() == 8 + 2 * l);
    let sized = matches!(hex.len(), 64 | 96 | 112 | 114 | 128 | 132) || protobuf;
    let distinct = b"0123456789abcdefABCDEF"
        .iter()
        .filter(|c| hex.contains(c))
        .count();
    (sized
        && hex.iter().any(u8::is_ascii_digit)
        && hex.iter().any(u8::is_ascii_alphabetic)
        && (hex.iter().all(|c| !c.is_ascii_uppercase())
            || hex.iter().all(|c| !c.is_ascii_lowercase()))
        && distinct >= 8)
        .then_some((start, start + digits))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    const K32: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

    #[test]
    fn a_private_keys_hex_under_its_name_or_type() {
        let x448 = "9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b";
        let proto = format!("08011240{K32}{K32}");
        for text in [
            format!("    sign_private: \"{K32}\","),
            format!("static const char *alice_priv = \"{x448}\";"),
            format!("    const privateKeyHex = \"{K32}\";"),
            format!("            seed: \"{K32}\","),
            format!("const ALICE_SECRET_KEY: [u8; 32] =\n    hex!(\"{K32}\");"),
            format!("const KEY: &[u8; 32] = &hex!(\"{K32}\");"),
            format!("        let sk = decode_hex(\"{K32}\");"),
            format!("    const OPENSSL_SK: &str = \"{K32}\";"),
            format!("let wallet = \"{K32}\"\n    .parse::<LocalWallet>()?;"),
            format!("let mut signer: PrivateKeySigner =\n    \"{K32}\".parse().unwrap();"),
            format!(
                "let k = Keypair::from_protobuf_encoding(&hex_literal::hex!(\n    \"{proto}\"\n));"
            ),
            format!("sk = SigningKey::from_bytes(&hex!(\"{K32}\"));"),
            format!("{{\"priv\": \"0x{K32}\"}}"),
            format!(
                "let key_hex = \"{K32}\";\n\nlet s: PrivateKeySigner = key_hex.parse().unwrap();"
            ),
        ] {
            assert!(!redact(&text).contains(&K32[..16]), "{text}");
        }
    }

    /// The XRP Ledger's genesis account's seed (xrpl.org, "Start a new genesis ledger":
    /// `snoPBrXtMeMyMHUVTgbuqAfg1SUTb`), under `seed`; one character changed fails its checksum.
    #[test]
    fn a_seed_of_a_checksummed_format_under_seed() {
        let text = "  \"seed\": \"snoPBrXtMeMyMHUVTgbuqAfg1SUTb\",";
        assert_eq!(redact(text), "  \"seed\": \"[REDACTED:xrp-seed]\",");
        let changed = "  \"seed\": \"snoPBrXtMeMyMHUVTgbuqAfg1SUTc\",";
        assert_eq!(redact_counted(changed).1, 0, "{changed}");
    }

    #[test]
    fn public_keys_digests_and_other_lengths_stay() {
        let sec1 = "0411db93e1dcdb8a016b49840f8c53bc1eb68a382e97b1482ecad7b148a6909a5cb2e0eaddfb84ccf9744464f82e160bfa9b8b64f9d4c03f999b8643f656b412a3";
        for text in [
            format!("    const OPENSSL_PK: &str = \"{K32}\";"),
            format!("let sk_hash = \"{K32}\";"),
            format!("seed_digest: \"{K32}\""),
            format!("const NONCE: &[u8; 32] = &hex!(\"{K32}\");"),
            format!("const PUBLIC_KEY: [u8; 32] = hex!(\"{K32}\");"),
            format!("let key_str = \"{sec1}\";"),
            format!("priv_key_id = \"{}\"", &K32[..40]),
            format!("seed: \"{}\"", "ab".repeat(32)),
            format!("task = \"{K32}\""),
            format!("let wallet = \"{K32}\".parse::<Address>()?;"),
            format!("let wallet = \"{K32}\";"),
            "privateKey: Uint8Array;".to_string(),
            format!("private: {K32}x"),
            "sk:".to_string(),
            format!("let key_hex = \"{K32}\";\nlet a: Address = key_hex.parse().unwrap();"),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }
}
