//! Whether the kept text (the summary and the verbatim block) holds an identifier, in any of the
//! forms that count, by an index of its 4-byte windows.

use crate::text;
use super::mention::{Kind, Mention};
use super::scan::{is_word_byte, SHA_MIN};

/// One way an identifier can appear in kept text. `bounded` ends must not run on
/// into a longer word (`main` is not in `maintain`).
#[derive(Debug)]
pub(crate) struct Needle {
pub(crate) text: Vec<u8>,
    left: bool,
    right: bool,
}

/// Kept text and needles are compared lower-cased and without quote marks, so
/// `KeyError: dsn` covers `KeyError: 'dsn'` and `` `src/lib.rs` `` covers `src/lib.rs`.
fn fold(bytes: impl Iterator<Item = u8>) -> impl Iterator<Item = u8> {
    bytes.filter(|b| !matches!(b, b'`' | b'"' | b'\'')).map(|b| b.to_ascii_lowercase())
}

impl Needle {
    /// `s` as it may appear in kept text; `left`/`right`: its ends must not run on into a word.
    pub(crate) fn new(s: &str, left: bool, right: bool) -> Needle {
        let text: Vec<u8> = fold(s.bytes()).collect();
        // A boundary only matters where the needle's own edge is a word character.
        let left = left && text.first().is_some_and(|&b| is_word_byte(b));
        let right = right && text.last().is_some_and(|&b| is_word_byte(b));
        Needle { text, left, right }
    }
}

/// The forms of an identifier that count as the summary having it.
pub(crate) fn needles(m: &Mention) -> Vec<Needle> {
    let t = m.text.as_str();
    match m.kind {
        Kind::Path => {
            let mut out = vec![Needle::new(t, true, true)];
            // `/work/app/src/lib.rs` is covered by a summary that says `src/lib.rs`.
            let parts: Vec<&str> = t.split('/').filter(|p| !p.is_empty()).collect();
            if parts.len() >= 3 {
                let tail = parts.get(parts.len() - 2..).map(|p| p.join("/")).unwrap_or_default();
                out.push(Needle::new(&tail, true, true));
            }
            out
        }
        // A summary may cite a commit by its short form or in full.
        Kind::Sha => vec![Needle::new(t.get(..SHA_MIN).unwrap_or(t), true, false)],
        Kind::Url => vec![Needle::new(t.split_once("://").map_or(t, |(_, rest)| rest), true, true)],
        Kind::Error => {
            let mut out = vec![Needle::new(t, false, false)];
            if let Some(code) = error_code(t) {
                out.push(Needle::new(code, true, true));
            }
            // The message after the marker, as a summary would quote it.
            if let Some((_, msg)) = t.split_once(": ") {
                let msg = text::trim(msg);
                if msg.len() >= 16 {
                    out.push(Needle::new(text::head(msg, 60), false, false));
                }
            }
            out
        }
        Kind::Branch | Kind::Quoted => vec![Needle::new(t, true, true)],
    }
}

/// `E0382` in `error[E0382]`, `TS2322` in `error TS2322:`: a code names the error.
fn error_code(line: &str) -> Option<&str> {
    if let Some(at) = line.find("error[") {
        let rest = line.get(at + 6..)?;
        let code = rest.get(..rest.find(']')?)?;
        return (code.len() >= 3 && code.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(code);
    }
    let at = line.find("error TS")?;
    let rest = line.get(at + 6..)?;
    let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    rest.get(..end).filter(|c| c.len() > 2)
}

/// The kept text, folded, with every 4-byte window indexed: a needle is
/// looked up by its rarest window and verified only where that window occurs,
/// so a thousand identifiers against a 200 KB summary cost milliseconds, not a
/// thousand full scans.
pub(crate) struct Haystack {
    pub(crate) text: Vec<u8>,
    /// `(window << 32) | position`, sorted.
    grams: Vec<u64>,
}

const GRAM: usize = 4;
const GRAM_SAMPLES: usize = 16;

impl Haystack {
    pub(crate) fn new(kept: &[&str]) -> Haystack {
        let mut text = Vec::with_capacity(kept.iter().map(|k| k.len() + 1).sum());
        for k in kept {
            text.extend(fold(k.bytes()));
            text.push(b'\n');
        }
        // Positions are u32: a kept text beyond 4 GB is not searched past that point.
        let mut grams: Vec<u64> = text
            .windows(GRAM)
            .enumerate()
            .take(u32::MAX as usize)
            .map(|(i, w)| (u64::from(gram(w)) << 32) | i as u64)
            .collect();
        grams.sort_unstable();
        Haystack { text, grams }
    }

    fn positions(&self, g: u32) -> &[u64] {
        let key = u64::from(g);
        let lo = self.grams.partition_point(|&x| (x >> 32) < key);
        let hi = self.grams.partition_point(|&x| (x >> 32) <= key);
        self.grams.get(lo..hi).unwrap_or(&[])
    }

    fn matches_at(&self, start: usize, n: &Needle) -> bool {
        let end = start + n.text.len();
        if self.text.get(start..end) != Some(n.text.as_slice()) {
            return false;
        }
        let left_ok = !n.left || !start.checked_sub(1).and_then(|p| self.text.get(p)).is_some_and(|&b| is_word_byte(b));
        let right_ok = !n.right || !self.text.get(end).is_some_and(|&b| is_word_byte(b));
        left_ok && right_ok
    }

    pub(crate) fn contains(&self, n: &Needle) -> bool {
        let len = n.text.len();
        if len == 0 {
            return false;
        }
        if len < GRAM {
            return (0..self.text.len()).any(|i| self.text.get(i) == n.text.first() && self.matches_at(i, n));
        }
        let last = len - GRAM;
        let step = (last / (GRAM_SAMPLES - 1)).max(1);
        let mut best: Option<(&[u64], usize)> = None;
        for off in (0..=last).step_by(step).chain(std::iter::once(last)) {
            let Some(w) = n.text.get(off..off + GRAM) else { continue };
            let found = self.positions(gram(w));
            if found.is_empty() {
                return false;
            }
            if best.is_none_or(|(b, _)| found.len() < b.len()) {
                best = Some((found, off));
            }
        }
        let Some((candidates, off)) = best else { return false };
        candidates
            .iter()
            .filter_map(|&x| ((x & 0xffff_ffff) as usize).checked_sub(off))
            .any(|start| self.matches_at(start, n))
    }
}

fn gram(w: &[u8]) -> u32 {
    let mut g = [0u8; GRAM];
    for (d, s) in g.iter_mut().zip(w) {
        *d = *s;
    }
    u32::from_le_bytes(g)
}

/// The plain scan the index is checked against.
#[cfg(test)]
pub(crate) fn naive_contains(hay: &[u8], n: &Needle) -> bool {
    let len = n.text.len();
    len > 0
        && (0..hay.len()).any(|i| {
            hay.get(i..i + len) == Some(n.text.as_slice())
                && (!n.left || !i.checked_sub(1).and_then(|p| hay.get(p)).is_some_and(|&b| is_word_byte(b)))
                && (!n.right || !hay.get(i + len).is_some_and(|&b| is_word_byte(b)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_agrees_with_a_plain_scan() {
        let kept = "Fixed src/main.rs and SRC/Lib.rs; commit a1b2c3d4e5. aaaaaaab main maintain x\nbranch feat-1 ünïcode/päth.rs end";
        let hay = Haystack::new(&[kept, "second text"]);
        let words = [
            "src/main.rs", "src/lib.rs", "a1b2c3d", "a1b2c3d4e5f", "aaaab", "aaaaaaab", "main", "maintain", "ain", "feat-1",
            "feat", "ünïcode/päth.rs", "päth", "end", "t\nsecond", "second text", "text\n", "zzzz", "x", "xx", "ab",
            "a1b2c3d4e5. aaaaaaab main maintain x\nbranch feat-1 ünïcode",
        ];
        for w in words {
            for (l, r) in [(false, false), (true, false), (false, true), (true, true)] {
                let n = Needle::new(w, l, r);
                assert_eq!(hay.contains(&n), naive_contains(&hay.text, &n), "{w:?} {l} {r}");
            }
        }
    }
}
