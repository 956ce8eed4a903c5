//! Where a read may hold a hit: the lines holding one of the query's literals
//! (`Terms::needles`), found without looking at the others. Each literal is
//! looked for by its rarest byte (in either case, by `memchr`), then checked
//! where that byte is, ASCII case folded; the line around each place found is
//! what the search goes on to read.

/// A literal to find, ASCII-lowercased, and the place in it of its rarest byte.
struct Needle {
    bytes: Vec<u8>,
    rare: usize,
}

/// The literals of one search.
pub struct Finder {
    needles: Vec<Needle>,
}

/// How much of the first read the rarest bytes are counted on.
const SAMPLE_BYTES: usize = 64 << 10;

impl Finder {
    /// `sample` is text like what will be searched (the first read), whose
    /// byte counts say which byte of each literal is rarest.
    pub fn new(needles: &[String], sample: &[u8]) -> Finder {
        let mut counts = [0u32; 256];
        for b in sample.iter().take(SAMPLE_BYTES) {
            if let Some(c) = counts.get_mut(usize::from(b.to_ascii_lowercase())) {
                *c += 1;
            }
        }
        let needles = needles
            .iter()
            .filter(|n| !n.is_empty())
            .map(|n| {
                let bytes = n.as_bytes().to_ascii_lowercase();
                let rare = (0..bytes.len())
                    .min_by_key(|&i| bytes.get(i).and_then(|b| counts.get(usize::from(*b))).copied().unwrap_or(0))
                    .unwrap_or(0);
                Needle { bytes, rare }
            })
            .collect();
        Finder { needles }
    }

    /// The lines of `hay` holding a literal, in order.
    pub fn lines<'f, 'h>(&'f self, hay: &'h [u8]) -> HitLines<'f, 'h> {
        HitLines { finder: self, hay, from: 0, next: vec![None; self.needles.len()] }
    }
}

/// The lines holding a literal, as `(start, end)` byte offsets, the newline
/// left out.
pub struct HitLines<'f, 'h> {
    finder: &'f Finder,
    hay: &'h [u8],
    /// Where the next line starts.
    from: usize,
    /// Per needle, where it next occurs at or after `from` (`Some(None)`: nowhere).
    next: Vec<Option<Option<usize>>>,
}

impl Iterator for HitLines<'_, '_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        let mut first: Option<usize> = None;
        for (needle, next) in self.finder.needles.iter().zip(self.next.iter_mut()) {
            let at = match next {
                Some(Some(at)) if *at >= self.from => Some(*at),
                Some(None) => None,
                _ => {
                    let found = find(self.hay, needle, self.from);
                    *next = Some(found);
                    found
                }
            };
            if let Some(at) = at {
                first = Some(first.map_or(at, |f| f.min(at)));
            }
        }
        let at = first?;
        let start = memchr::memrchr(b'\n', self.hay.get(..at)?).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', self.hay.get(at..)?).map_or(self.hay.len(), |i| at + i);
        self.from = end + 1;
        Some((start, end))
    }
}

/// Where `needle` next occurs in `hay` at or after `from`, ASCII case folded.
fn find(hay: &[u8], needle: &Needle, from: usize) -> Option<usize> {
    let rare = *needle.bytes.get(needle.rare)?;
    let mut at = from + needle.rare;
    loop {
        let rest = hay.get(at..)?;
        let found = if rare.is_ascii_lowercase() {
            memchr::memchr2(rare, rare.to_ascii_uppercase(), rest)
        } else {
            memchr::memchr(rare, rest)
        }?;
        let start = at + found - needle.rare;
        if hay.get(start..start + needle.bytes.len()).is_some_and(|s| s.eq_ignore_ascii_case(&needle.bytes)) {
            return Some(start);
        }
        at += found + 1;
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
        let x = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]) ^ NL;
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
