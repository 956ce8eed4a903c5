//! Where a read may hold a hit: the lines holding one of the query's literals
//! (`Terms::needles`), found without looking at the others. Each literal is
//! looked for by its rarest byte, all of them in one pass eight bytes at a
//! time (a byte's ASCII case folded by setting bit 5, so one compare finds
//! both cases; what else that lets in is checked and passed over), then
//! checked whole where that byte is, ASCII case folded; the line around each
//! place found is what the search goes on to read.

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;
/// Bit 5 of every byte: set, `A`-`Z` read as `a`-`z`.
const FOLD: u64 = 0x2020_2020_2020_2020;

/// A literal to find, ASCII-lowercased, and the place in it of its rarest byte.
struct Literal {
    bytes: Vec<u8>,
    rare: usize,
}

/// The literals of one search.
pub struct Finder {
    needles: Vec<Literal>,
    /// The rarest bytes, folded, each in every byte of a word.
    targets: Vec<u64>,
}

/// How much of the first read the rarest bytes are counted on.
const SAMPLE_BYTES: usize = 64 << 10;

impl Finder {
    /// `sample` is text like what will be searched (the first read), whose
    /// byte counts say which byte of each literal is rarest.
    pub fn new(needles: &[String], sample: &[u8]) -> Finder {
        let mut counts = [0u32; 256];
        for b in sample.iter().take(SAMPLE_BYTES) {
            if let Some(c) = counts.get_mut(usize::from(b | 0x20)) {
                *c += 1;
            }
        }
        let needles: Vec<Literal> = needles
            .iter()
            .filter(|n| !n.is_empty())
            .map(|n| {
                let bytes = n.as_bytes().to_ascii_lowercase();
                let rare = (0..bytes.len())
                    .min_by_key(|&i| bytes.get(i).and_then(|b| counts.get(usize::from(b | 0x20))).copied().unwrap_or(0))
                    .unwrap_or(0);
                Literal { bytes, rare }
            })
            .collect();
        // The rare bytes, folded, each once and in byte order (a table, not a sort: a sort
        // of its own is 3 KB of the module).
        let mut rare = [false; 256];
        for b in needles.iter().filter_map(|n| n.bytes.get(n.rare)) {
            if let Some(seen) = rare.get_mut(usize::from(b | 0x20)) {
                *seen = true;
            }
        }
        let folded = (0..=u8::MAX).filter(|&b| rare.get(usize::from(b)) == Some(&true));
        Finder { needles, targets: folded.map(|b| u64::from(b) * LOW).collect() }
    }

    /// The lines of `hay` holding a literal, in order.
    pub fn lines<'f, 'h>(&'f self, hay: &'h [u8]) -> HitLines<'f, 'h> {
        HitLines { finder: self, hay, from: 0 }
    }

    /// The next place at or after `from` where a rarest byte is (folded).
    fn next_rare(&self, hay: &[u8], from: usize) -> Option<usize> {
        let rest = hay.get(from..)?;
        let mut words = rest.chunks_exact(8);
        for (k, w) in words.by_ref().enumerate() {
            let w = u64::from_le_bytes(w.try_into().unwrap_or_default()) | FOLD;
            // A zero byte of `w ^ target` is the target; the lowest flagged is one.
            let mut zero = 0;
            for t in &self.targets {
                let x = w ^ t;
                zero |= x.wrapping_sub(LOW) & !x & HIGH;
            }
            if zero != 0 {
                return Some(from + k * 8 + (zero.trailing_zeros() / 8) as usize);
            }
        }
        let tail = words.remainder();
        let at = tail.iter().position(|b| self.targets.iter().any(|t| u64::from(b | 0x20) == t & 0xff))?;
        Some(from + rest.len() - tail.len() + at)
    }

    /// Whether a literal whose rarest byte is the one at `at` starts at or after `from`.
    fn holds(&self, hay: &[u8], at: usize, from: usize) -> bool {
        self.needles.iter().any(|n| {
            let Some(start) = at.checked_sub(n.rare).filter(|s| *s >= from) else { return false };
            hay.get(start..start + n.bytes.len()).is_some_and(|s| s.eq_ignore_ascii_case(&n.bytes))
        })
    }
}

/// The lines holding a literal, as `(start, end)` byte offsets, the newline
/// left out.
pub struct HitLines<'f, 'h> {
    finder: &'f Finder,
    hay: &'h [u8],
    /// Where the next line starts.
    from: usize,
}

impl Iterator for HitLines<'_, '_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let mut at = self.from;
        loop {
            let rare = self.finder.next_rare(self.hay, at)?;
            if self.finder.holds(self.hay, rare, self.from) {
                let start = memchr::memrchr(b'\n', self.hay.get(..rare)?).map_or(0, |i| i + 1);
                let end = memchr::memchr(b'\n', self.hay.get(rare..)?).map_or(self.hay.len(), |i| rare + i);
                self.from = end + 1;
                return Some((start, end));
            }
            at = rare + 1;
        }
    }
}

/// How many `\n` a text holds: eight bytes at a time, a newline byte found
/// as a zero byte of the word XOR `\n`s (exact: no carry crosses a byte).
pub fn newlines(text: &[u8]) -> usize {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const NL: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    let words = text.chunks_exact(8);
    let tail = words.remainder().iter().filter(|b| **b == b'\n').count();
    let mut count = 0;
    for w in words {
        let x = u64::from_le_bytes(w.try_into().unwrap_or_default()) ^ NL;
        count += (!(((x & LOW7) + LOW7) | x | LOW7)).count_ones() as usize;
    }
    count + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(needles: &[&str], hay: &str) -> Vec<String> {
        let needles: Vec<String> = needles.iter().map(|n| n.to_string()).collect();
        let f = Finder::new(&needles, hay.as_bytes());
        f.lines(hay.as_bytes()).map(|(s, e)| hay[s..e].to_owned()).collect()
    }

    #[test]
    fn finds_each_line_holding_a_literal_once_in_any_case() {
        let hay = "no\nthe Heron-5 flew\nheron-5 HERON-5 twice\nnone\nlexer and heron-5\nlast LEXER";
        assert_eq!(lines(&["heron-5", "lexer"], hay), ["the Heron-5 flew", "heron-5 HERON-5 twice", "lexer and heron-5", "last LEXER"]);
        assert_eq!(lines(&["zebra"], hay), Vec::<String>::new());
        assert_eq!(lines(&["日本"], "a\n日本語\nb"), ["日本語"]);
        // A literal cut by the end of the text is not found.
        assert_eq!(lines(&["heron"], "her"), Vec::<String>::new());
        assert_eq!(newlines(b"a\nb\n"), 2);
        for text in ["", "\n", "\n\n\n\n\n\n\n\n\n", "abc\ndefgh\u{8a}\x0b\n\x7f\n", "\u{10a0a}\n"] {
            assert_eq!(newlines(text.as_bytes()), text.matches('\n').count(), "{text:?}");
        }
    }

    /// Any text, any literal: the lines found are exactly the lines holding it.
    #[test]
    fn the_lines_found_are_the_lines_holding_it() {
        let mut state = 7u64;
        let mut next = move |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let alphabet = ["a", "b", "A", "B", "\n", "é", "ab", "-", " "];
        for _ in 0..300 {
            let hay: String = (0..next(200)).map(|_| alphabet[next(alphabet.len() as u64) as usize]).collect();
            let needle: String = (0..1 + next(3)).map(|_| ["a", "b", "-", "é"][next(4) as usize]).collect();
            let want: Vec<String> = hay.split('\n').filter(|l| l.to_ascii_lowercase().contains(&needle)).map(str::to_owned).collect();
            assert_eq!(lines(&[&needle], &hay), want, "{needle:?} in {hay:?}");
        }
    }
}
