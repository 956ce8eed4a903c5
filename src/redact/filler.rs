//! Fillers written as patterns, where a credential stands: a mask of one letter repeated
//! (`<password>yyyyy</password>`, as `xxxxx` is one beside it) and an encoding's alphabet
//! kept as a constant (`_keyStr = 'ABC…xyz0123456789+/='`, RFC 4648 §4's base64 alphabet,
//! which decoders index). Neither is text anyone chose to keep secret: a letter repeated
//! holds no choice, and an alphabet is a specification's table, the same in every program.
//!
//! A leaf: imports nothing of its neighbours.

/// `yyyyy`, `ZZZZ`: one letter four times or more, nothing else. A test's regular password
/// (`abcdefgh`, `aabbccdd`) has two letters at least.
pub(crate) fn one_letter_repeated(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() >= 4
        && b.first().is_some_and(|c| c.is_ascii_alphabetic() && b.iter().all(|d| d == c))
}

/// An encoding's alphabet: 48 characters or more, each once, in runs of consecutive
/// characters (`A`…`Z`, `a`…`z`, `0`…`9`) broken at most once in eight. Base64's (RFC 4648
/// §4, and §5's URL-safe one), base58's and base62's are; base32's 32 are too short to tell
/// from a test's counted key. A counted key repeats its characters
/// (`0123456789012345…`); random text almost never steps by one.
pub(crate) fn is_alphabet(v: &str) -> bool {
    let b = v.as_bytes();
    if b.len() < 48 || b.len() > 96 || !b.iter().all(|c| c.is_ascii_graphic()) {
        return false;
    }
    let mut seen = [false; 128];
    for c in b {
        let Some(s) = seen.get_mut(usize::from(*c)) else {
            return false;
        };
        if *s {
            return false;
        }
        *s = true;
    }
    let breaks = b.windows(2).filter(|p| !matches!(p, [a, n] if *n == a.wrapping_add(1))).count();
    breaks * 8 <= b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_letter_repeated_is_a_mask() {
        for v in ["yyyyy", "ZZZZ", "aaaaaaaaaaaa"] {
            assert!(one_letter_repeated(v), "{v}");
        }
        for v in ["yyy", "aabbccdd", "abcdefgh", "1111", "yyyyy1", "****", ""] {
            assert!(!one_letter_repeated(v), "{v}");
        }
    }

    #[test]
    fn an_encodings_alphabet_is_one() {
        for v in [
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
            "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        ] {
            assert!(is_alphabet(v), "{v}");
        }
        for v in [
            "0123456789012345678901234567890123456789",
            "0123456789abcdef0123456789abcdef0123456789abcdef",
            "abcdefghijklmnopqrst",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
            "123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZ-ZYXWVUT",
            "q8Fz2kLmN0pRq8Fz2kLmN0pRq8Fz2kLmN0pRq8Fz2kLmN0pRq8Fz2kLmN0pR",
            "Xk9mQ2vLp7RtYw3Zn8BcDfGhJs4KeUa6HiToP1rNqV5bMxWyE0jCdSgAzFuIlO",
        ] {
            assert!(!is_alphabet(v), "{v}");
        }
    }
}
