//! Commits: runs of 7–40 lowercase hex standing alone.

use crate::audit::{Kind, Mentions};
use super::bytes::{class, is_word_byte, HEX};

pub(crate) const SHA_MIN: usize = 7;
const SHA_MAX: usize = 40;

fn is_lower_hex(b: u8) -> bool {
    class(b) & HEX != 0
}

pub(crate) fn looks_like_sha(s: &str) -> bool {
    (SHA_MIN..=SHA_MAX).contains(&s.len())
        && s.bytes().all(is_lower_hex)
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().any(|b| b.is_ascii_alphabetic())
        && !is_exponent(s)
}

/// `1234e56` is a number.
fn is_exponent(s: &str) -> bool {
    match s.split_once('e') {
        Some((a, b)) => {
            !a.is_empty() && !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit()) && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Runs of 7–40 lowercase hex standing alone: not inside a longer word, a UUID,
/// a path component, a `0x` number or a hashed file name.
pub(crate) fn scan_shas(found: &mut Mentions, s: &str) {
    let b = s.as_bytes();
    let hex = |i: usize| b.get(i).is_some_and(|&c| is_lower_hex(c));
    // No run of hex that starts before `i` reaches `i`. A run of SHA_MIN or
    // more that starts in `i..i + SHA_MIN` covers `i + SHA_MIN - 1`, so one
    // byte there rules out SHA_MIN starts: prose is skipped seven bytes a step.
    let mut i = 0;
    while i + SHA_MIN <= b.len() {
        let probe = i + SHA_MIN - 1;
        if !hex(probe) {
            i = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > i && hex(start - 1) {
            start -= 1;
        }
        let mut end = probe + 1;
        while hex(end) {
            end += 1;
        }
        i = end;
        if !(SHA_MIN..=SHA_MAX).contains(&(end - start)) {
            continue;
        }
        let prev = start.checked_sub(1).and_then(|p| b.get(p)).copied();
        let prev2 = start.checked_sub(2).and_then(|p| b.get(p)).copied();
        let next = b.get(end).copied();
        let next2 = b.get(end + 1).copied();
        let prev_ok = match prev {
            None => true,
            Some(c) if is_word_byte(c) || c == b'-' || c == b'/' => false,
            Some(b'.') => !prev2.is_some_and(is_word_byte),
            Some(_) => true,
        };
        let next_ok = match next {
            None => true,
            Some(c) if is_word_byte(c) || c == b'-' => false,
            Some(b'.') => !next2.is_some_and(is_word_byte),
            Some(_) => true,
        };
        if prev_ok && next_ok {
            if let Some(run) = s.get(start..end) {
                if looks_like_sha(run) {
                    found.note(Kind::Sha, run);
                }
            }
        }
    }
}
