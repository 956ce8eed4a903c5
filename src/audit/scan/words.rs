//! The words of a text, cue to cue: a word with a `/` may hold URLs and paths, and `git`
//! commands and the word "branch" name the branches after them.

use crate::audit::{Kind, Mentions};
use super::branches::{after_origin, distinctive_branch, is_branch_name, is_branch_word, is_trunk, Git};
use super::bytes::{class, find_bytes, COLON, CUE, PIECE_BREAK, SLASH, WS};
use super::paths::{listed_path, Place};
use super::urls::scan_urls;

/// The words of every line (runs of non-ASCII-whitespace), in order; a line
/// break ends any `git` command or "branch" phrase.
///
/// Outside a `git` command or "branch" phrase a word without a `/` changes
/// nothing unless it is `git` or a "branch" word, so the scan jumps from cue
/// byte to cue byte and reads only the words around them.
pub(crate) fn scan_words(found: &mut Mentions, s: &str, prose: bool) {
    let b = s.as_bytes();
    let mut git = Git::Idle;
    let mut after_branch_word = false;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if git == Git::Idle && !after_branch_word {
            if class(c) & CUE == 0 {
                i = skip_to_cue(b, i + 1);
                continue;
            }
            let cue = match c {
                b'/' => true,
                b'g' => b.get(i + 1..i + 3) == Some(b"it".as_slice()),
                _ => b.get(i + 1..i + 6) == Some(b"ranch".as_slice()),
            };
            if !cue {
                i += 1;
                continue;
            }
            // Back to the start of the word: never past the last word read,
            // which ended at whitespace.
            while i > 0 && b.get(i - 1).is_some_and(|&p| class(p) & WS == 0) {
                i -= 1;
            }
        } else if class(c) & WS != 0 {
            if c == b'\n' {
                git = Git::Idle;
                after_branch_word = false;
            }
            i += 1;
            continue;
        }
        let start = i;
        let mut seen = 0;
        while let Some(&c) = b.get(i) {
            let k = class(c);
            if k & WS != 0 {
                break;
            }
            seen |= k;
            i += 1;
        }
        // Cut at ASCII bytes: always char boundaries.
        if let Some(word) = s.get(start..i) {
            scan_word(found, word, seen, prose, &mut git, &mut after_branch_word);
        }
    }
}

/// The first byte at or after `i` that may start a cue. Eight bytes at a time
/// while they hold no `/`, no `gi` and no `br`/`Br` (a `g`, `b` or `B` in the
/// last byte counts: its pair may run into the next eight).
fn skip_to_cue(b: &[u8], mut i: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const TOP: u64 = 0x80 << 56;
    /// The high bit of every zero byte, exactly (no borrow between bytes).
    fn zeros(x: u64) -> u64 {
        !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        let slash = zeros(v ^ (LO * u64::from(b'/')));
        let g = zeros(v ^ (LO * u64::from(b'g')));
        let i_next = (zeros(v ^ (LO * u64::from(b'i'))) >> 8) | TOP;
        let b_ = zeros((v | (LO * 0x20)) ^ (LO * u64::from(b'b')));
        let r_next = (zeros(v ^ (LO * u64::from(b'r'))) >> 8) | TOP;
        if slash | (g & i_next) | (b_ & r_next) != 0 {
            break;
        }
        i += 8;
    }
    while b.get(i).is_some_and(|&c| class(c) & CUE == 0) {
        i += 1;
    }
    i
}

/// One word; `seen` is the union of its bytes' classes.
fn scan_word(found: &mut Mentions, word: &str, seen: u8, prose: bool, git: &mut Git, after_branch_word: &mut bool) {
    let has_slash = seen & SLASH != 0;
    if has_slash {
        let url = seen & COLON != 0 && find_bytes(word.as_bytes(), b"://").is_some();
        let rest = if url { scan_urls(found, word) } else { word };
        // The pieces between break bytes (all ASCII, so every cut is a char
        // boundary); only one with a `/` can name a path.
        let b = rest.as_bytes();
        let mut start = 0;
        let mut slash = false;
        for (i, &c) in b.iter().enumerate() {
            let k = class(c);
            if k & PIECE_BREAK == 0 {
                slash |= k & SLASH != 0;
                continue;
            }
            // `/^new file mode/m.test(line)` is a call, `src/a.ts(3,5)` a place in a file.
            let call = c == b'(' && !b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if slash && !call {
                note_path(found, rest.get(start..i));
            }
            start = i + 1;
            slash = false;
        }
        if slash {
            note_path(found, rest.get(start..));
        }
    }

    let clean = trim_word(word);
    if !has_slash && !*after_branch_word && *git == Git::Idle {
        // The common case, a word of prose: only `git` and "branch" change anything.
        if clean == "git" {
            *git = Git::Started { skip_next: false };
        }
        *after_branch_word = is_branch_word(clean);
        return;
    }
    let mut branch: Option<&str> = git.feed(clean).filter(|n| !prose || distinctive_branch(n) || is_trunk(n));
    if has_slash {
        if let Some(name) = after_origin(clean) {
            branch = Some(name);
        }
    }
    if branch.is_none() && *after_branch_word && distinctive_branch(clean) {
        branch = Some(clean);
    }
    if let Some(name) = branch.filter(|n| is_branch_name(n)) {
        found.note(Kind::Branch, name);
    }
    *after_branch_word = is_branch_word(clean);
}

fn note_path(found: &mut Mentions, piece: Option<&str>) {
    if let Some(path) = piece.and_then(|p| listed_path(p, Place::Prose)) {
        found.note(Kind::Path, path);
    }
}

/// A word without the quotes and brackets prose puts around it.
fn trim_word(word: &str) -> &str {
    // ASCII only, so a byte cut is always a char boundary.
    let b = word.as_bytes();
    let start = b.iter().position(|c| !matches!(c, b'(' | b'[' | b'"' | b'\'' | b'`' | b'*')).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !matches!(c, b'.' | b',' | b':' | b';' | b')' | b']' | b'"' | b'\'' | b'`' | b'*' | b'!' | b'?'))
        .map_or(start, |e| (e + 1).max(start));
    word.get(start..end).unwrap_or("")
}
