//! A row of BIP-39's test vectors: Trezor's reference `vectors.json` (python-mnemonic), which
//! wallets' test suites copy, writes each vector as four literals in a row — the entropy in
//! hex, its mnemonic, the 64-byte seed PBKDF2 derives from it (with the passphrase `TREZOR`)
//! in hex, and the BIP-32 root key of that seed (`xprv…`). The extended key is the provider
//! table's; the mnemonic and the seed before it are the same wallet's secret, named by no key
//! (the entropy is all zeros or a counted pattern in most rows: it stays). Read back from the
//! root key: the seed's 128 hex digits and, before them, 12 to 24 lower-case words one blank
//! apart, each literal quoted and the three apart by a comma and blanks or a line break. The
//! three go as one span.

use super::hit::Hit;
use super::shape::run_within;

/// The root key BIP-32 writes for the main network's vectors.
pub(crate) const EXTENDED_PRIVATE: &[&str] = &["xprv"];

/// How far back a separator between two literals may reach (a line break and its indent).
const GAP: usize = 40;

/// The row whose root key starts at `pos`: from the mnemonic's first word to the key's end.
pub(crate) fn bip39_vector(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let quote = *b.get(pos.checked_sub(1)?)?;
    let key_end = run_within(b, pos, 112, |c| c.is_ascii_alphanumeric());
    // The seed: 128 hex digits in quotes before the key's opening quote; the mnemonic before
    // it, lower-case words back to its opening quote.
    let seed_close = literal_before(b, pos - 1, quote)?;
    let seed_open = seed_close.checked_sub(128)?;
    let phrase_close = literal_before(b, seed_open.checked_sub(1)?, quote)?;
    let (mut open, mut blanks) = (phrase_close, 0);
    while open > 0 && phrase_close - open < 24 * 9 {
        match b.get(open - 1)? {
            b' ' => blanks += 1,
            c if c.is_ascii_lowercase() => {}
            _ => break,
        }
        open -= 1;
    }
    let row = key_end - pos == 111
        && matches!(quote, b'"' | b'\'')
        && b.get(key_end) == Some(&quote)
        && b.get(open.checked_sub(1)?) == Some(&quote)
        && b.get(seed_open - 1) == Some(&quote)
        && b.get(seed_open..seed_close)?
            .iter()
            .all(u8::is_ascii_hexdigit)
        && matches!(blanks, 11 | 14 | 17 | 20 | 23);
    row.then_some(Hit::span(open, key_end, "secret-assignment"))
}

/// Where the literal before the opening quote at `at` closes: past a comma and blanks or a
/// line break, back to its closing `quote`.
fn literal_before(b: &[u8], at: usize, quote: u8) -> Option<usize> {
    let mut i = at;
    let mut comma = false;
    while i > 0 && at - i < GAP {
        match b.get(i - 1)? {
            b' ' | b'\t' | b'\n' | b'\r' => {}
            b',' if !comma => comma = true,
            c if *c == quote && comma => return Some(i - 1),
            _ => return None,
        }
        i -= 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    const XPRV: &str = "xprv9s21ZrQH143K3h3fDYiay8mocZ3afhfULfb5GX8kCBdno77K4HiA15Tg23wpbeF1pLfs1c5SPmYHrEpTuuRhxMwvKDwqdKiGJS9XFKzUsAF";
    const SEED: &str = "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04";
    const PHRASE: &str =
        "legal winner thank year wave sausage worth useful legal winner thank yellow";

    #[test]
    fn a_vector_rows_mnemonic_seed_and_root_key_go() {
        let rows = [
            format!("    [\"7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f\", \"{PHRASE}\", \"{SEED}\", \"{XPRV}\"],"),
            format!("                \"{}\",\n                \"{PHRASE}\",\n                \"{SEED}\",\n                \"{XPRV}\"\n", "00".repeat(16)),
        ];
        for row in rows {
            let out = redact(&row);
            assert!(
                !out.contains("winner")
                    && !out.contains(&SEED[..16])
                    && !out.contains(&XPRV[4..20]),
                "{out}"
            );
            assert!(out.contains("7f7f7f7f") || out.contains("0000"), "{out}");
        }
    }

    #[test]
    fn a_row_out_of_shape_keeps_its_words() {
        for text in [
            // Eleven words, a seed too short, a key alone after prose.
            format!(
                "[\"{}\", \"{SEED}\", \"{XPRV}\"]",
                &PHRASE[..PHRASE.len() - 7]
            ),
            format!("[\"{PHRASE}\", \"{}\", \"{XPRV}\"]", &SEED[..64]),
            format!("[\"{PHRASE}\" \"{SEED}\", \"{XPRV}\"]"),
        ] {
            let out = redact(&text);
            assert!(out.contains("winner"), "{out}");
            assert_eq!(redact_counted(&text).1, 1, "{text}");
        }
        let long = format!("\"{PHRASE}\", \"{SEED}\", \"xprv").repeat(1_000);
        assert_eq!(redact_counted(&long).1, 0);
    }
}
