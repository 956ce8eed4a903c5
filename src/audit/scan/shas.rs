//! Commits: runs of 7–40 lowercase hex standing alone.

use crate::audit::{Kind, Mentions};
use super::bytes::{class, is_word_byte, HEX};

pub(crate) const SHA_MIN: usize = 7;
const SHA_MAX: usize = 40;

fn is_lower_hex(b: u8) -> bool {
    class(b) & HEX != 0
}

/// Past this, only a full commit (40) is one: git abbreviates to 7–12 digits, and 32 hex
/// digits are an MD5 or a UUID without its dashes.
const SHA_ABBREV_MAX: usize = 20;

pub(crate) fn looks_like_sha(s: &str) -> bool {
    (s.len() == SHA_MAX || (SHA_MIN..=SHA_ABBREV_MAX).contains(&s.len()))
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

/// Whether the run at `start` follows `index ` at the start of a line.
fn is_diff_index(b: &[u8], start: usize) -> bool {
    const INDEX: &[u8] = b"index ";
    let Some(at) = start.checked_sub(INDEX.len()) else { return false };
    b.get(at..start) == Some(INDEX) && (at == 0 || b.get(at - 1) == Some(&b'\n'))
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
        // `index 3f2a1b4..8c9d0e1 100644` in a diff: two blobs, no commit.
        if is_diff_index(b, start) {
            if b.get(end..end + 2) == Some(b"..".as_slice()) {
                i = end + 2;
                while hex(i) {
                    i += 1;
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn shas(text: &str) -> Vec<String> {
        let mut m = Mentions::default();
        scan_shas(&mut m, text);
        let mut all: Vec<String> = m.ranked().into_iter().map(|x| x.text).collect();
        all.sort();
        all
    }

    /// A diff's `index` line names two blobs, not commits; a range in a command names commits.
    #[test]
    fn blob_ids_are_not_commits() {
        let diff = "diff --git a/src/lib.rs b/src/lib.rs\nindex 48f53c95..bcd63072 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs\n";
        assert_eq!(shas(diff), Vec::<String>::new());
        assert_eq!(shas("git log --oneline 48f53c95..bcd63072"), vec!["48f53c95", "bcd63072"]);
        assert_eq!(shas("reindex 1a2b3c4d5e"), vec!["1a2b3c4d5e"]);
    }

    /// Git abbreviates to a dozen digits or cites all 40; 32 hex digits are an MD5.
    #[test]
    fn lengths_a_commit_has() {
        let full = "8c029afd834cc328647ace3b48773331453a3dca";
        assert_eq!(shas(&format!("commit {full}")), vec![full]);
        assert_eq!(shas("checkpoint 48f554e407de50ea53be22030173682f"), Vec::<String>::new());
        assert_eq!(shas("HEAD is now at 9dc6d66969f6 Fix"), vec!["9dc6d66969f6"]);
    }
}
