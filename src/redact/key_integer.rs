//! A private key's integer written in decimal, as Python's tests write RSA, DSA and
//! Diffie-Hellman keys for `cryptography`'s number types: `"d": int("4203…" "8408…")`,
//! `"privateValue": int(…)` (twisted's keydata). RFC 8017 §3.2 names the RSA private key's
//! integers (`d`, and the primes and CRT values), RFC 2631 §2.1.1 a Diffie-Hellman private
//! value; every one is hundreds of bits, so 40 digits at least (2^128 has 39). The names are
//! `raw_key`'s (its private words, and `jwk`'s `"d"`: not `p` and `q`, which a DSA key's
//! public parameters share); this reads the number.

use super::hit::Hit;
use super::shape::run_within;

/// The shortest private integer read: more than 128 bits.
const MIN_DIGITS: usize = 40;

/// The literal `open..close` if it is such an integer's digits, with the literals Python
/// joins to it (adjacent literals, each on its line): the digits' span, quotes between.
pub(crate) fn key_integer(b: &[u8], open: usize, close: usize) -> Option<Hit> {
    let digits = b.get(open..close)?;
    if digits.len() < MIN_DIGITS || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut end = close;
    // An RSA-4096 key's `d` is some 1,240 digits: 32 lines of them at most.
    for _ in 0..32 {
        let next = run_within(b, end + 1, 64, |c| c.is_ascii_whitespace());
        let last = run_within(b, next + 1, 128, |c| c.is_ascii_digit());
        if last == next + 1 || b.get(next) != b.get(close) || b.get(last) != b.get(close) {
            break;
        }
        end = last;
    }
    Some(Hit::span(open, end, "private-key"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    /// twisted's keydata writes `d` over adjacent literals; all of them go, quotes kept.
    #[test]
    fn a_private_integer_over_adjacent_literals_goes_whole() {
        let (a, b) = (
            "4203357242869996956805024384858198198000024172",
            "8408283516367542062349826827520762053970472184",
        );
        let text =
            format!("    \"d\": int(\n        \"{a}\"\n        \"{b}\"\n    ),\n    \"p\": 7,");
        assert_eq!(
            redact(&text),
            "    \"d\": int(\n        \"[REDACTED:private-key]\"\n    ),\n    \"p\": 7,"
        );
        // 39 digits are 2^128 and less: a count, an id.
        let short = format!("    \"d\": int(\"{}\"),", &a[..39]);
        assert_eq!(redact_counted(&short).1, 0);
    }
}
