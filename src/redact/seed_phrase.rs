//! A wallet's recovery phrase: BIP-39's mnemonic, 12, 15, 18, 21 or 24 words (128 to 256
//! bits of entropy and a checksum, 11 bits a word), and Algorand's 25 (its developer docs'
//! "Mnemonics": BIP-39's words over a 256-bit key and a checksum word), under a name or call
//! that says mnemonic (`.mnemonic("…")`, `mnemonic: "…"`, `Mnemonic::parse("…")`,
//! `seed_phrase = "…"`, `backup_phrase = "…"`, the literal on the line after `phrase =`). The
//! English list's 2,048 words would cost the `.wasm` some 10 KB; its shape reads instead:
//! every word 3 to 8 lower-case letters, one blank between, nothing else in the literal.

use super::hit::Hit;
use super::shape::{blanks, is_word, run_within, string_prefix, NAME_REACH};

/// The phrase after the name at `pos`: `("…")`, `= "…"`, `: "…"`, `::parse("…")`, or
/// unquoted to the line's end after `:` or `=`.
pub(crate) fn seed_phrase(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    // The name (`seed phrase` holds a blank), a quoted member's closing quote.
    let mut i = run_within(b, pos, NAME_REACH, |c| is_word(c) || c == b' ');
    while i > pos && b.get(i - 1) == Some(&b' ') {
        i -= 1;
    }
    i += usize::from(matches!(b.get(i), Some(b'"' | b'\'')));
    // `::parse(`, `::from_phrase(`, `.phrase(`: a method of the mnemonic's type.
    if matches!(b.get(i), Some(b'.')) || b.get(i..i + 2) == Some(b"::") {
        i = run_within(b, i, NAME_REACH, |c| is_word(c) || matches!(c, b'.' | b':'));
    }
    i = blanks(b, i);
    let bare = match b.get(i) {
        Some(b'(') => false,
        Some(b'=' | b':') => true,
        _ => return None,
    };
    i = blanks(
        b,
        i + 1 + usize::from(matches!(b.get(i + 1), Some(b'>' | b'='))),
    );
    // `let phrase =` and the literal on the next line, as rustfmt breaks a long one.
    if b.get(i) == Some(&b'\n') {
        i = blanks(b, i + 1);
        b.get(i).filter(|c| matches!(c, b'"' | b'\'' | b'`'))?;
    }
    i += string_prefix(b, i);
    let quote = b
        .get(i)
        .copied()
        .filter(|c| matches!(c, b'"' | b'\'' | b'`'));
    if quote.is_none() && !bare {
        return None;
    }
    let start = i + usize::from(quote.is_some());
    // Words of 3 to 8 letters, one blank between.
    let (mut words, mut letters, mut end) = (0, 0, start);
    loop {
        match b.get(end) {
            Some(c) if c.is_ascii_lowercase() => letters += 1,
            Some(b' ') if (3..=8).contains(&letters) && words < 25 => {
                (words, letters) = (words + 1, 0)
            }
            _ => break,
        }
        end += 1;
    }
    let closed = match quote {
        Some(q) => b.get(end) == Some(&q),
        None => matches!(b.get(end), None | Some(b'\n' | b'\r')),
    };
    (closed && (3..=8).contains(&letters) && matches!(words + 1, 12 | 15 | 18 | 21 | 24 | 25))
        .then_some(Hit::span(start, end, "secret-assignment"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    const PHRASE: &str =
        "abstract vacuum mammal awkward pudding scene penalty purchase dinner depart evoke puzzle";

    #[test]
    fn a_mnemonic_under_its_name_or_call() {
        for text in [
            format!("///     .mnemonic(\"{PHRASE}\")"),
            format!("mnemonic: \"{PHRASE}\""),
            format!("MNEMONIC={PHRASE}"),
            format!("let m = Mnemonic::parse(\"{PHRASE}\")?;"),
            format!(
                "const seedPhrase = '{PHRASE} {}';",
                "abstract vacuum mammal"
            ),
            format!("\"mnemonic\": \"{PHRASE}\","),
        ] {
            assert!(!redact(&text).contains("vacuum"), "{text}");
        }
    }

    #[test]
    fn prose_and_other_counts_stay() {
        for text in [
            "mnemonic: \"mov\"".to_string(),
            format!("mnemonic: \"{}\"", &PHRASE[..PHRASE.len() - 7]),
            format!(
                "mnemonic(\"{} extra\")",
                PHRASE.replace("vacuum", "vacuum,")
            ),
            format!("mnemonic = \"{}\"", PHRASE.replace("abstract", "ab")),
            format!("The mnemonic is {PHRASE}"),
            format!("mnemonic: \"{}\"", PHRASE.replace("abstract", "Abstract")),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }

    /// The seventh round's second half: Algorand's 25 words under `backup_phrase`, and the
    /// literal on the line after `phrase =` (rustfmt's break of a long one).
    #[test]
    fn algorands_25_words_and_a_phrase_on_the_next_line() {
        let algorand = format!("{PHRASE} {PHRASE} zero");
        for text in [
            format!("    let backup_phrase = \"{algorand}\";"),
            format!("    let phrase =\n        \"{PHRASE}\";"),
        ] {
            assert!(!redact(&text).contains("vacuum"), "{text}");
        }
        for text in [
            format!("    let backup_phrase = \"{algorand} more\";"),
            format!("    let phrase =\n        words_of(\"{PHRASE}\");"),
            format!("    let phrase =\n\n        \"{PHRASE}\";"),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }
}

