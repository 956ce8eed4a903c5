//! Whether a passage matches a message, even loosely: cut, re-quoted, re-cased, or reworded
//! with the same words, but never with its sense turned (a "don't" added or dropped).

use crate::text;

/// A reworded passage matches when this share of its content words is in one stretch of the
/// message (as many sentences as the passage), each turned by a negation there exactly where
/// the passage turns it. On the real summaries the rewordings
/// kept 0.80 and more of their words; requests of other sessions kept 0.50 at most.
pub const LOOSE: f64 = 0.7;
/// A fragment of a cut passage counts when it is at least this long (bytes, folded), unless it is
/// the passage's only one.
const FRAGMENT_MIN: usize = 8;
/// The stretch of a message a passage is compared with: twice its words, at least this many.
const WINDOW_MIN: usize = 12;

/// Compared lower-cased (ASCII: the Unicode tables would cost the .wasm more than they find), quotes (straight and curly, single and double) as one, markdown's
/// `*`, `_` and backticks dropped, whitespace collapsed.
pub fn fold(s: &str) -> String {
    fold_with(s, Lines::Joined)
}

/// Whether a fold keeps the line ends (where sentences end, for the loose match).
#[derive(Clone, Copy, PartialEq)]
enum Lines {
    Joined,
    Kept,
}

fn fold_with(s: &str, lines: Lines) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space: Option<char> = None;
    for ch in s.chars() {
        match ch {
            '*' | '_' | '`' => {}
            c if c.is_whitespace() => {
                if !out.is_empty() {
                    let brk = lines == Lines::Kept && (c == '\n' || space == Some('\n'));
                    space = Some(if brk { '\n' } else { ' ' });
                }
            }
            c => {
                if let Some(sp) = space.take() {
                    out.push(sp);
                }
                match c {
                    '"' | '\u{2018}' | '\u{2019}' | '\u{201c}' | '\u{201d}' => out.push('\''),
                    c => out.push(c.to_ascii_lowercase()),
                }
            }
        }
    }
    out
}

/// Words that carry no content of a request.
const STOP: &str = "a an the and or but if then so to of in on at for with by from as is are was were be been being it its it's this that that's these those i i'm i've we we're you he she they me us my our your do does did have has had yes can could would should will shall may might must just also there here what which who when where why how all any some each about into over after before up out again more most other such very too let's let please now ok okay";

/// Words that turn the sense of what follows them.
const NEGATIONS: &str = "not no never don't doesn't didn't isn't aren't wasn't weren't won't wouldn't shouldn't couldn't can't cannot mustn't without nor none";

/// One word of a folded text: its stem (`None` for a word that carries no content), whether a
/// negation before it turns it ("don't **commit**", "did we not have **agent** logic"), and the
/// sentence it is in.
#[derive(Debug, Clone)]
pub struct Word {
    /// The stem's hash (FNV-1a): words are compared by it, and a 64-bit hash does not collide
    /// among the few hundred words of a passage.
    stem: Option<u64>,
    negated: bool,
    sentence: usize,
}

/// A text ready to be compared: folded, and its words.
#[derive(Debug, Clone)]
pub struct Text {
    pub folded: String,
    words: Vec<Word>,
    /// How many sentences end inside it (not counting its last).
    breaks: usize,
}

/// A negation turns the first content word within this many words after it.
const NEGATION_REACH: usize = 3;

impl Text {
    pub fn new(s: &str) -> Text {
        let folded = fold(s);
        let mut words = Vec::new();
        let (mut reach, mut sentence) = (0, 0);
        for (w, pause, end) in split_words(&fold_with(s, Lines::Kept)) {
            if text::one_of(NEGATIONS, w) {
                // "better no? We want": a negation that ends a clause turns nothing after it.
                reach = if pause { 0 } else { NEGATION_REACH };
            } else {
                let stem = (!text::one_of(STOP, w)).then(|| fnv(stem(w)));
                let negated = stem.is_some() && reach > 0;
                reach = if stem.is_some() || pause { 0 } else { reach.saturating_sub(1) };
                words.push(Word { stem, negated, sentence });
            }
            sentence += usize::from(end);
        }
        let breaks = words.last().map_or(0, |w| w.sentence);
        Text { folded, words, breaks }
    }
}

/// Words: runs of letters and digits, with inner `'`, `.`, `/`, `-` (`don't`, `a.rs`, `go-git`);
/// each with whether a pause (`,` `.` `;` `:` `?` `!`) follows it, and whether its sentence ends
/// there (`.` `?` `!`, or a line end).
fn split_words(s: &str) -> impl Iterator<Item = (&str, bool, bool)> {
    let mut rest = s;
    std::iter::from_fn(move || loop {
        let start = rest.find(char::is_alphanumeric)?;
        let from = rest.get(start..)?;
        let len = from.find(ends_word).unwrap_or(from.len());
        let raw = from.get(..len)?;
        let word = alphanumeric_core(raw);
        let trailing = raw.get(word.len()..).unwrap_or("");
        let after = from.get(len..).unwrap_or("");
        let gap: &str = after.get(..after.find(char::is_alphanumeric).unwrap_or(after.len())).unwrap_or("");
        let stop = |c: char| matches!(c, '.' | '?' | '!');
        let pause = trailing.chars().any(stop) || gap.trim_start_matches(' ').chars().next().is_some_and(|c| stop(c) || matches!(c, ',' | ';' | ':'));
        let end = trailing.chars().any(stop) || gap.chars().any(|c| stop(c) || c == '\n');
        rest = after;
        if !word.is_empty() {
            return Some((word, pause, end));
        }
    })
}

/// `s` from its first letter or digit to its last.
fn alphanumeric_core(s: &str) -> &str {
    let start = s.find(char::is_alphanumeric).unwrap_or(s.len());
    let end = s.char_indices().rev().find(|(_, c)| c.is_alphanumeric()).map_or(start, |(i, c)| i + c.len_utf8());
    s.get(start..end.max(start)).unwrap_or("")
}

/// A word goes on through letters, digits and an inner `'`, `.`, `/` or `-`.
fn ends_word(c: char) -> bool {
    !(c.is_alphanumeric() || matches!(c, '\'' | '.' | '/' | '-'))
}

/// `tests` → `test`, `reused` → `reus`, `running` → `runn`: the same stem for a word's forms.
fn stem(w: &str) -> &str {
    let w = w.strip_suffix("'s").unwrap_or(w);
    for suffix in ["ing", "ed", "es", "s"] {
        if let Some(s) = w.strip_suffix(suffix) {
            if s.chars().count() >= 3 {
                return s;
            }
        }
    }
    w
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// How well a passage matches one message.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    /// The passage's fragments are all in the message, in order.
    pub exact: bool,
    /// The best share of its content words in one stretch of the message.
    pub words: f64,
    /// A stretch holds at least [`LOOSE`] of them and as many negations as the passage.
    pub loose: bool,
}

impl Score {
    pub fn matches(&self) -> bool {
        self.exact || self.loose
    }

    /// For the nearest message: an exact match first, then the most words.
    pub fn weight(&self) -> f64 {
        if self.exact {
            2.0
        } else {
            self.words
        }
    }
}

/// The pieces of a passage the summary may have cut between: at `[…]` insertions and ellipses.
pub fn fragments(folded: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = folded;
    loop {
        let bracket = rest.find('[');
        let dots = rest.find("...");
        let ellipsis = rest.find('\u{2026}');
        let next = [bracket, dots, ellipsis].into_iter().flatten().min();
        let Some(at) = next else {
            pieces.push(rest);
            break;
        };
        pieces.push(rest.get(..at).unwrap_or(""));
        let after = rest.get(at..).unwrap_or("");
        rest = if Some(at) == bracket {
            after.find(']').and_then(|e| after.get(e + 1..)).unwrap_or("")
        } else if Some(at) == dots {
            after.get(3..).unwrap_or("")
        } else {
            after.get('\u{2026}'.len_utf8()..).unwrap_or("")
        };
    }
    let pieces: Vec<&str> = pieces
        .into_iter()
        .map(alphanumeric_core)
        .filter(|p| p.chars().any(char::is_alphanumeric))
        .collect();
    if pieces.len() <= 1 {
        return pieces;
    }
    pieces.into_iter().filter(|p| p.len() >= FRAGMENT_MIN).collect()
}

/// The passage against one message.
pub fn score(passage: &Text, fragments: &[&str], message: &Text) -> Score {
    let mut at = 0;
    let exact = !fragments.is_empty()
        && fragments.iter().all(|f| match message.folded.get(at..).and_then(|m| m.find(f)) {
            Some(p) => {
                at += p + f.len();
                true
            }
            None => false,
        });
    let (words, loose) = if exact { (1.0, true) } else { loosely(passage, message) };
    Score { exact, words, loose }
}

/// The best stretch of the message: its share of the passage's content words, and whether one
/// stretch holds [`LOOSE`] of them with each turned just where the passage turns it. A stretch
/// spans at most as many sentences as the passage: the same words across two of the person's
/// sentences are another request. One pass over the message, counting only the passage's own
/// words.
fn loosely(passage: &Text, message: &Text) -> (f64, bool) {
    // The passage's content words, sorted: a word's place in it is its number.
    let mut all: Vec<u64> = passage.words.iter().filter_map(|w| w.stem).collect();
    all.sort_unstable();
    let mut index: Vec<u64> = Vec::new();
    for s in all {
        if index.last() != Some(&s) {
            index.push(s);
        }
    }
    let number = |s: u64| index.binary_search(&s).ok();
    // Fewer than two content words say too little to be matched but word for word.
    if index.len() < 2 {
        return (0.0, false);
    }
    let mut turned = vec![false; index.len()];
    for w in passage.words.iter().filter(|w| w.negated) {
        if let Some(t) = w.stem.and_then(number).and_then(|k| turned.get_mut(k)) {
            *t = true;
        }
    }
    let slot = |w: &Word| w.stem.and_then(number).map(|k| (k, w.negated));
    let width = (passage.words.len() * 2).max(WINDOW_MIN);
    // Per word: how often the stretch has it, and how often turned.
    let mut seen = vec![0usize; index.len()];
    let mut turned_in = vec![0usize; index.len()];
    let (mut covered, mut best, mut loose, mut left) = (0usize, 0usize, false, 0usize);
    for (i, w) in message.words.iter().enumerate() {
        if let Some((k, neg)) = slot(w) {
            if let (Some(c), Some(t)) = (seen.get_mut(k), turned_in.get_mut(k)) {
                *c += 1;
                *t += usize::from(neg);
                covered += usize::from(*c == 1);
            }
        }
        while left <= i
            && (i - left + 1 > width
                || message.words.get(left).is_some_and(|l| w.sentence - l.sentence > passage.breaks))
        {
            if let Some((k, neg)) = message.words.get(left).and_then(slot) {
                if let (Some(c), Some(t)) = (seen.get_mut(k), turned_in.get_mut(k)) {
                    *c -= 1;
                    *t -= usize::from(neg);
                    covered -= usize::from(*c == 0);
                }
            }
            left += 1;
        }
        best = best.max(covered);
        if !loose && covered as f64 >= LOOSE * index.len() as f64 {
            loose = (0..index.len()).all(|k| seen.get(k) == Some(&0) || (turned_in.get(k) > Some(&0)) == turned.get(k).is_some_and(|t| *t));
        }
    }
    (best as f64 / index.len() as f64, loose)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(p: &str, m: &str) -> Score {
        let pt = Text::new(p);
        let f = fragments(&pt.folded);
        score(&pt, &f, &Text::new(m))
    }

    #[test]
    fn cuts_quotes_and_case_still_match() {
        assert!(matches("Implement the following plan: [detailed wingman plan]", "Implement the following plan:\n\n# Entire Wingman\n...").exact);
        assert!(matches("The 'Tree view' makes everything bugged.", "The \"Tree view\" makes everything bugged. [App] Not an active job").exact);
        assert!(matches("it also always seems to be this same hash, I think? > git status fatal", "it also always seems to be this same hash, I think?\n> git status\nfatal: unable").exact);
        assert!(matches("...sufficiently advanced technology...", "...sufficiently advanced technology...").exact);
        assert!(matches("I mean, we see it on the stop hook", "I mean, we _see_ it on the stop hook; it doesn't").exact);
        assert!(matches("run it", "run it").exact);
        assert!(!matches("run it", "ok").matches());
    }

    #[test]
    fn rewordings_match_and_turned_senses_do_not() {
        let m = "I mean, we _see_ it on the stop hook; it doesn't mean the stop hook caused it";
        let s = matches("the stop hook discovering it doesn't mean it caused it", m);
        assert!(!s.exact && s.loose, "{s:?}");
        // A "don't" added, or taken away, turns the sense.
        assert!(!matches("Don't commit and empty the REVIEW.md file.", "Commit and empty the REVIEW.md file.").matches());
        assert!(!matches("did we have agent specific transcript logic before?", "did we not have agent specific transcript logic before?").matches());
        assert!(!matches("learning Q: should the blobs have been reused", "learning Q: shouldn't the blobs have been reused in the new branch?").matches());
        // A negation at the stretch's edge still turns the word after it.
        assert!(!matches("sorry, I did specify earlier but this error is from worktree 2 - so let's not jump to explanations yet", "sorry, I didn't specify earlier but this error is from worktree 2 - so let's not jump to explanations yet").matches());
        // "no?" ends its clause: the "don't" after it is what turns "want".
        assert!(!matches("the interface is better no? We do want if-else call site selection logic", "the interface is better no? We don't want if-else call site selection logic").matches());
        assert!(matches("the interface is better no? We really don't want if-else call site selection", "the interface is better no? We don't want if-else call site selection logic").loose);
        // The same words across two of the person's sentences are another request.
        assert!(!matches("did we have agent specific transcript logic before?", "we just need to wire in the existing logic in each agent?\n\nalso what does the transcript position have to do with it").matches());
        // Words of another request are not enough.
        assert!(!matches("this is why I wanted to log the file", "Run the tests and fix the lint in the parser").matches());
        let s = matches("can we also add which index this is to the debug log?", "our git status has broken, why?");
        assert!(s.words < LOOSE && !s.matches());
    }

    #[test]
    fn fragments_of_a_cut_passage() {
        assert_eq!(fragments(&fold("Implement the plan: [detailed plan] and more text here")), vec!["implement the plan", "and more text here"]);
        assert_eq!(fragments(&fold("...why do we need it?")), vec!["why do we need it"]);
        assert_eq!(fragments(&fold("a … b")), Vec::<&str>::new());
        assert_eq!(fragments(&fold("[unclosed bracket")), Vec::<&str>::new());
        assert_eq!(fold("  A \u{201c}B\u{201d}\n`c`  **d** "), "a 'b' c d");
        assert_eq!(fold_with("a \n b  c\n", Lines::Kept), "a\nb c");
    }
}
