//! A BIP-32 extended private key split over two lines of source: Rust's string continuation
//! (the Rust reference, "String literals": a `\` ending a line skips the line break and the
//! next line's leading whitespace, `"xprv…\` then `   …"`), or adjacent literals that C,
//! Python and Go's `+` join (`"xprv…"` then `"…"`). The provider table's row reads the key
//! on one line only; here the pieces are joined and must make the row's 111 characters of
//! Base58Check whose checksum holds (a made-up split key is left: its shape alone is two
//! short runs).

use super::checksum::{base58check_holds, BITCOIN};
use super::hit::Hit;
use super::shape::run_within;

/// BIP-32's and SLIP-0132's private versions, as the provider table's row.
#[rustfmt::skip]
pub(crate) const EXTENDED_KEY_PREFIXES: &[&str] = &[
    "xprv", "tprv", "yprv", "zprv", "uprv", "vprv", "Yprv", "Zprv", "Uprv", "Vprv",
];

/// An extended private key's length in Base58Check.
const KEY_CHARS: usize = 111;

/// The split key at `pos`, from its first character to its last.
pub(crate) fn continued_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut joined = Vec::with_capacity(KEY_CHARS);
    let mut at = pos;
    let mut end = pos;
    for _ in 0..4 {
        let run = run_within(b, at, KEY_CHARS + 1, |c| BITCOIN.contains(&c));
        joined.extend_from_slice(b.get(at..run)?);
        end = run;
        if joined.len() >= KEY_CHARS {
            break;
        }
        // `\` and a line break; or a literal's close, blanks, an optional `+`, a line break,
        // blanks and the next literal's opening quote.
        let next = match b.get(run) {
            Some(b'\\') => run + 1,
            Some(q @ (b'"' | b'\'')) => {
                let mut i = run_within(b, run + 1, 8, |c| c == b' ' || c == b'+');
                if b.get(i) != Some(&b'\n') {
                    return None;
                }
                i = run_within(b, i + 1, 64, |c| c == b' ' || c == b'\t' || c == b'+');
                (b.get(i) == Some(q)).then_some(i)?
            }
            _ => return None,
        };
        if b.get(next) != Some(&b'\n') && b.get(next).is_none_or(|c| !matches!(c, b'"' | b'\'')) {
            return None;
        }
        at = run_within(b, next + 1, 64, |c| c == b' ' || c == b'\t');
    }
    (joined.len() == KEY_CHARS && end > pos + joined.len() && base58check_holds(&joined, BITCOIN))
        .then_some(Hit::span(pos, end, "extended-private-key"))
}

/// Past a string continuation at `i` (`\`, a line break, the next line's leading blanks,
/// at most 64: the Rust reference's "String literals", C's and Python's the same in a
/// quoted string), or `i` itself when none stands there. medallion's README splits a JWT so,
/// after each `.` (`"eyJ….\` then `   eyJ….\` then `   TJVA…"`), read by `tokens`.
pub(crate) fn continued(b: &[u8], i: usize) -> usize {
    let next = match (b.get(i), b.get(i + 1), b.get(i + 2)) {
        (Some(b'\\'), Some(b'\n'), _) => i + 2,
        (Some(b'\\'), Some(b'\r'), Some(b'\n')) => i + 3,
        _ => return i,
    };
    run_within(b, next, 64, |c| c == b' ' || c == b'\t')
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    /// BIP-32's test vector 1, chain m (the BIP's own text), split as rustfmt and C write a
    /// long literal.
    #[test]
    fn an_extended_key_split_by_continuation_or_adjacent_literals() {
        for text in [
            "    ExtendedPrivKey::from_str(\n        \"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVv\\\n         vNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi\"\n    )",
            "key = (\"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVv\"\n       \"vNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi\")",
            "const k = \"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVv\" +\n  \"vNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi\";",
        ] {
            assert!(!redact(text).contains("vNKmPGJx"), "{text}");
            assert!(!redact(text).contains("xprv9s21"), "{text}");
        }
    }

    /// A split key whose checksum fails (one character changed), a key's first half alone,
    /// and a split public key stay.
    #[test]
    fn a_failed_checksum_or_a_half_stays() {
        for text in [
            "\"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVv\\\n vNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHj\"",
            "\"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVv\\\n\"",
            "\"xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29\\\n ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8\"",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        let _ = redact_counted(&"xprv1\\\n".repeat(30_000));
        let _ = redact_counted(&"xprv1\"\n\"".repeat(30_000));
    }

    /// A JWT split after its dots by continuations (medallion's layout, a made-up token), and
    /// what stays: a header split from nothing, a continuation that does not follow a dot.
    #[test]
    fn a_jwt_split_by_continuations() {
        let text = "    let raw = \"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.\\\n               eyJzdWIiOiJhbGljZSIsImFkbWluIjpmYWxzZX0.\\\n               Zq3f9Kx0Lm2Np4Rs6Tu8Vw1Xy3Za5Bc7De9Fg0Hi2Jk\";";
        let out = redact(text);
        assert!(!out.contains("Zq3f9Kx0"), "{out}");
        assert!(!out.contains("eyJzdWIi"), "{out}");
        assert!(out.contains("let raw = \"[REDACTED:jwt]\";"), "{out}");
        for text in [
            "\"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.\\\n\"",
            "\"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\\\n   eyJzdWIiOiJhbGljZSIsImFkbWluIjpmYWxzZX0\"",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        let _ = redact_counted(&"eyJhbGciOiJIUzI1.\\\n ".repeat(20_000));
    }
}
