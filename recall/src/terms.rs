//! A query compiled: its terms, the regex that finds them, and the literals
//! that let a line be skipped without the regex.
//!
//! Matching is per line, like `rg`: a hit never spans a line break, and `^`/`$`
//! are the line's ends. Plain words are literals; a message is ranked by how
//! many of the query's words it holds, then by its hit count, so a message with
//! every word comes first without hiding the ones that hold only some (an AND
//! that finds nothing would tell the model less than a ranked OR).
//!
//! The regex crate is built without its literal and DFA engines (size over
//! speed in the shipped wasm), which leaves a matcher that reads ~25 MB/s. So
//! plain words are first looked for as literals in the ASCII-lowercased text
//! (`find`): a line holding none of them is skipped, and where every word is a
//! literal that case cannot change (ASCII, or chars with no case) the hits are
//! counted there too, exactly as the regex would count them. The two chars
//! outside ASCII that fold to ASCII letters (the Kelvin sign and the long s)
//! send their lines to the regex. A regex query reads every line.

use regex::{Regex, RegexBuilder};
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

use crate::order;
use crate::text::{cut_chars, quote};
use compact_plus::recall_tool::Query;

const MAX_TERMS: usize = 16;
/// The compiled-program ceiling: a pattern like `\w{1000}{1000}` is refused
/// with a message instead of eating the wasm memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
const NEST_LIMIT: u32 = 64;
const ERROR_CHARS: usize = 600;

/// The chars outside ASCII that a case-insensitive match folds to ASCII
/// letters: the Kelvin sign (k) and the long s (s). A line holding one goes to
/// the regex.
pub const ODD_CHARS: [&str; 2] = ["\u{212A}", "\u{17F}"];

/// The hits in one text: how many, which terms (a bit per term), on how many
/// lines, and the line (0-based) holding the most terms, the first such.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextHits {
    pub hits: usize,
    pub terms: u32,
    pub lines: usize,
    pub best: usize,
}

pub struct Terms {
    re: Regex,
    /// The query's terms as the header names them, in the query's order.
    pub terms: Vec<String>,
    /// Capture group `g` (1-based) is the term `group_term[g - 1]`.
    group_term: Vec<usize>,
    /// Per term, a literal every match of it holds in the ASCII-lowercased
    /// line; `None` when some term has none and every line must be read.
    pub(crate) keys: Option<Vec<String>>,
    /// The same, holding nothing JSON writes escaped (`"`, `\`, control
    /// chars), so a raw JSON line holds it as the text does.
    json_keys: Option<Vec<String>>,
    /// Where every term is such a literal as a whole: `(term, lowercased)` in
    /// the pattern's order, to count hits without the regex.
    pub(crate) literals: Option<Vec<(usize, String)>>,
    words: bool,
}

impl Terms {
    pub fn new(q: &Query) -> Result<Terms, String> {
        if q.regex {
            let re = build(&q.text).map_err(|e| regex_error(&e))?;
            if re.is_match("") {
                return Err(
                    "recall: the regex matches empty text, so it would match everywhere; give it something to find"
                        .into(),
                );
            }
            return Ok(Terms {
                re,
                terms: vec![q.text.clone()],
                group_term: vec![0],
                keys: None,
                json_keys: None,
                literals: None,
                words: false,
            });
        }
        let terms = split_terms(&q.text);
        if terms.is_empty() {
            return Err("recall: query holds no words to find".into());
        }
        if terms.len() > MAX_TERMS {
            return Err(format!("recall: at most {MAX_TERMS} words or phrases in one query"));
        }
        // Longer terms first: where one term holds another, the match credits
        // the longer one.
        let order = order::stable(terms.len(), &|a, b| {
            let (la, lb) = (terms.get(a).map_or(0, |t| t.len()), terms.get(b).map_or(0, |t| t.len()));
            lb.cmp(&la).then(a.cmp(&b))
        });
        let pattern = order
            .iter()
            .filter_map(|&i| terms.get(i))
            .map(|t| {
                let pieces: Vec<String> = t.split(' ').map(regex::escape).collect();
                format!("({})", pieces.join(r"[ \t]+"))
            })
            .collect::<Vec<_>>()
            .join("|");
        let re = build(&pattern).map_err(|e| regex_error(&e))?;
        let keys: Option<Vec<String>> = terms.iter().map(|t| literal_key(t, |_| true)).collect();
        let json_keys: Option<Vec<String>> =
            terms.iter().map(|t| literal_key(t, |c| c != '"' && c != '\\' && !c.is_control())).collect();
        let literals: Option<Vec<(usize, String)>> = order
            .iter()
            .map(|&i| {
                let t = terms.get(i)?;
                t.chars().all(|c| c != ' ' && is_stable(c)).then(|| (i, t.to_ascii_lowercase()))
            })
            .collect();
        Ok(Terms { re, terms, group_term: order, keys, json_keys, literals, words: true })
    }

    /// What a line must hold to hit, as [`crate::find::Finder`] looks for it:
    /// a term's literal (as plain text holds it, or as a raw JSON line does),
    /// or a char that folds to an ASCII letter. `None`: every line can hit.
    pub fn needles(&self, json: bool) -> Option<Vec<String>> {
        let keys = if json { self.json_keys.as_ref() } else { self.keys.as_ref() }?;
        // The Kelvin sign and the long s can only be a `k` or an `s` of a term.
        let odd = self.terms.iter().any(|t| t.contains(['k', 'K', 's', 'S']));
        let odd = ODD_CHARS.iter().filter(|_| odd).map(|c| (*c).to_owned());
        Some(keys.iter().cloned().chain(odd).collect())
    }

    /// The hits on one line: how many, and which terms (bit per term).
    /// `lowered` is the line ASCII-lowercased, and `odd` says it holds a char
    /// outside ASCII that folds to an ASCII letter.
    pub(crate) fn hits(&self, line: &str, lowered: Option<&str>, odd: bool) -> (usize, u32) {
        if let (Some(literals), Some(lowered), false) = (&self.literals, lowered, odd) {
            return count_literals(literals, lowered);
        }
        let mut count = 0;
        let mut mask = 0u32;
        if self.words {
            for caps in self.re.captures_iter(line) {
                let group = (1..caps.len()).find(|&g| caps.get(g).is_some());
                let term = group.and_then(|g| self.group_term.get(g - 1)).copied().unwrap_or(0);
                count += 1;
                mask |= 1u32 << (term.min(31));
            }
        } else {
            for m in self.re.find_iter(line) {
                if !m.as_str().is_empty() {
                    count += 1;
                    mask = 1;
                }
            }
        }
        (count, mask)
    }

    /// Whether one line, as it is, holds a hit.
    pub fn line_hits(&self, line: &str) -> bool {
        let lowered = self.literals.as_ref().map(|_| line.to_ascii_lowercase());
        let odd = ODD_CHARS.iter().any(|c| line.contains(c));
        self.hits(line, lowered.as_deref(), odd).0 > 0
    }

    /// The hits in one message's text, line by line as in a history file.
    pub fn scan_text(&self, text: &str) -> Option<TextHits> {
        let lowered = self.keys.as_ref().map(|_| text.to_ascii_lowercase());
        if let (Some(keys), Some(low)) = (&self.keys, &lowered) {
            let odd = ODD_CHARS.iter().any(|c| low.contains(c));
            if !odd && !keys.iter().any(|k| low.contains(k.as_str())) {
                return None;
            }
        }
        let mut tally = TextHits { hits: 0, terms: 0, lines: 0, best: 0 };
        let mut best_terms = 0;
        let mut start = 0;
        for (i, line) in text.split('\n').enumerate() {
            let low = lowered.as_deref().and_then(|l| l.get(start..start + line.len()));
            start += line.len() + 1;
            let odd = low.is_some() && ODD_CHARS.iter().any(|c| line.contains(c));
            let (count, mask) = self.hits(line, low, odd);
            if count == 0 {
                continue;
            }
            tally.hits += count;
            tally.terms |= mask;
            tally.lines += 1;
            if tally.lines == 1 || mask.count_ones() > best_terms {
                tally.best = i;
                best_terms = mask.count_ones();
            }
        }
        (tally.hits > 0).then_some(tally)
    }

    /// Where the first hit on a line starts (a byte offset), if any.
    pub fn first_hit(&self, line: &str) -> Option<usize> {
        self.re.find_iter(line).find(|m| !m.as_str().is_empty()).map(|m| m.start())
    }

    /// Every term held: the mask [`TextHits::terms`] has then.
    pub fn all(&self) -> u32 {
        (1u32 << self.terms.len().min(31)) - 1
    }

    /// The same terms, every hit counted by the regex.
    #[cfg(test)]
    pub(crate) fn without_literals(self) -> Terms {
        Terms { literals: None, ..self }
    }

    /// The same terms, every line read.
    #[cfg(test)]
    pub(crate) fn without_keys(self) -> Terms {
        Terms { keys: None, json_keys: None, ..self }
    }

    pub fn describe(&self) -> String {
        if !self.words {
            return format!("the regex {}", quote(self.terms.first().map_or("", String::as_str)));
        }
        let listed: Vec<String> = self.terms.iter().map(|t| quote(t)).collect();
        format!("{} (any case)", listed.join(", "))
    }
}

pub(crate) fn build(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(&ascii_perl_classes(pattern))
        .case_insensitive(true)
        .size_limit(REGEX_SIZE_LIMIT)
        .nest_limit(NEST_LIMIT)
        .build()
}

/// `\w`, `\d`, `\s` (and their negations) as ASCII classes, `\b`/`\B` as ASCII
/// word boundaries. The module leaves out the regex crate's Unicode Perl-class
/// tables (over 100 KB of wasm, past the size budget), so these are ASCII here,
/// as in many grep tools. A class set in `[...]` nests, which the crate allows.
fn ascii_perl_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('s') => out.push_str("[\\t\\n\\x0B\\x0C\\r ]"),
            Some('S') => out.push_str("[^\\t\\n\\x0B\\x0C\\r ]"),
            Some('b') => out.push_str("(?-u:\\b)"),
            Some('B') => out.push_str("(?-u:\\B)"),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn regex_error(e: &regex::Error) -> String {
    match e {
        regex::Error::CompiledTooBig(limit) => format!(
            "recall: the regex is too large to run (its compiled form passes {limit} bytes); simplify it: fewer or smaller repetitions, or [a-z0-9_] where \\w is not needed"
        ),
        regex::Error::Syntax(s) => cut_chars(&format!("recall: the regex does not parse:\n{s}"), ERROR_CHARS),
        other => cut_chars(&format!("recall: the regex cannot run: {other}"), ERROR_CHARS),
    }
}

/// Words split on whitespace; a `"quoted phrase"` is one term (its words joined
/// by one space, matched across any run of spaces or tabs). Duplicates, by
/// their lowercase form, are dropped.
fn split_terms(text: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut push = |t: String| {
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if !t.is_empty() && !terms.iter().any(|have| have.to_lowercase() == t.to_lowercase()) {
            terms.push(t);
        }
    };
    let mut rest = text;
    while let Some(open) = rest.find('"') {
        let (before, after) = rest.split_at(open);
        for w in before.split_whitespace() {
            push(w.to_owned());
        }
        let after = after.get(1..).unwrap_or("");
        match after.find('"') {
            Some(close) => {
                push(after.get(..close).unwrap_or("").to_owned());
                rest = after.get(close + 1..).unwrap_or("");
            }
            None => {
                push(after.to_owned());
                rest = "";
            }
        }
    }
    for w in rest.split_whitespace() {
        push(w.to_owned());
    }
    terms
}

/// The chars outside ASCII that the regex's case folding leaves alone but
/// that have a case in Rust's own tables (ligatures and other chars whose
/// other case is several chars, the dotted and dotless i, chars newer than the
/// regex's tables): they count as having a case, and their terms go to the
/// regex.
const CASED_UNFOLDED: [(u32, u32); 29] = [
    (0x130, 0x131), (0x149, 0x149), (0x1F0, 0x1F0), (0x587, 0x587), (0x1E96, 0x1E9A),
    (0x1F50, 0x1F50), (0x1F52, 0x1F52), (0x1F54, 0x1F54), (0x1F56, 0x1F56), (0x1FB2, 0x1FB2),
    (0x1FB4, 0x1FB4), (0x1FB6, 0x1FB7), (0x1FC2, 0x1FC2), (0x1FC4, 0x1FC4), (0x1FC6, 0x1FC7),
    (0x1FD2, 0x1FD2), (0x1FD6, 0x1FD7), (0x1FE2, 0x1FE2), (0x1FE4, 0x1FE4), (0x1FE6, 0x1FE7),
    (0x1FF2, 0x1FF2), (0x1FF4, 0x1FF4), (0x1FF6, 0x1FF7), (0xA7CE, 0xA7CF), (0xA7D2, 0xA7D5),
    (0xFB00, 0xFB04), (0xFB13, 0xFB17), (0x16EA0, 0x16EB8), (0x16EBB, 0x16ED3),
];

/// A char that a case-insensitive match can only meet as itself once the
/// haystack's ASCII letters are lowercased (on a line with no `ODD_CHARS`):
/// ASCII, or a char with no case at all. Asked of the regex's own case
/// folding, which the module carries anyway: Rust's `to_uppercase` would
/// bring core's 13 KB table of it for the same answer (a test compares every
/// char with `to_lowercase` and `to_uppercase`).
fn is_stable(c: char) -> bool {
    if c.is_ascii() {
        return true;
    }
    let code = u32::from(c);
    if CASED_UNFOLDED.iter().any(|&(from, to)| from <= code && code <= to) {
        return false;
    }
    let alone = ClassUnicodeRange::new(c, c);
    let mut class = ClassUnicode::new([alone]);
    class.try_case_fold_simple().is_ok() && class.ranges() == [alone]
}

/// The longest run of stable chars (that `allowed` lets in) in a term,
/// lowercased: every match of the term holds it in the ASCII-lowercased
/// haystack. `None` when the term has no such char, so no line can be
/// skipped for it.
fn literal_key(term: &str, allowed: impl Fn(char) -> bool) -> Option<String> {
    let mut best = "";
    for piece in term.split(' ') {
        let mut start = None;
        for (i, c) in piece.char_indices().chain(std::iter::once((piece.len(), ' '))) {
            let stable = i < piece.len() && is_stable(c) && allowed(c);
            match (stable, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    let run = piece.get(s..i).unwrap_or("");
                    if run.len() > best.len() {
                        best = run;
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    (!best.is_empty()).then(|| best.to_ascii_lowercase())
}

/// Counts literal hits as the regex's leftmost-first search would: at each
/// step the match starting first, the earlier alternative on a tie, then on
/// from its end.
fn count_literals(literals: &[(usize, String)], lowered: &str) -> (usize, u32) {
    let mut next: Vec<Option<usize>> = literals.iter().map(|(_, l)| lowered.find(l.as_str())).collect();
    let mut pos = 0;
    let mut count = 0;
    let mut mask = 0u32;
    loop {
        let mut best: Option<(usize, usize)> = None; // (start, index)
        for (k, ((_, lit), at)) in literals.iter().zip(next.iter_mut()).enumerate() {
            if at.is_some_and(|p| p < pos) {
                *at = lowered.get(pos..).and_then(|s| s.find(lit.as_str())).map(|o| o + pos);
            }
            if let Some(p) = *at {
                if best.is_none_or(|(b, _)| p < b) {
                    best = Some((p, k));
                }
            }
        }
        let Some((start, k)) = best else { break };
        let Some((term, lit)) = literals.get(k) else { break };
        count += 1;
        mask |= 1u32 << (*term).min(31);
        pos = start + lit.len().max(1);
    }
    (count, mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_split_on_space_and_keep_quoted_phrases() {
        assert_eq!(split_terms(r#"port "connection  refused" Port 8431"#), vec!["port", "connection refused", "8431"]);
        assert_eq!(split_terms(r#"open "quote runs to the end"#), vec!["open", "quote runs to the end"]);
        assert!(split_terms(r#" "" "#).is_empty());
        let many = (0..=MAX_TERMS).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        let q = Query { text: many, regex: false, role: None, limit: 8 };
        assert!(Terms::new(&q).err().unwrap().contains("at most"));
    }


    /// `is_stable` as it was written before it asked the regex's folding:
    /// no case in Rust's own tables.
    #[test]
    fn stable_chars_are_the_chars_rust_gives_no_case() {
        let by_rust = |c: char| {
            let (mut lower, mut upper) = (c.to_lowercase(), c.to_uppercase());
            c.is_ascii()
                || (lower.next() == Some(c) && lower.next().is_none() && upper.next() == Some(c) && upper.next().is_none())
        };
        for c in (0u32..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_stable(c), by_rust(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn stable_chars_have_no_case_partners() {
        let all = || (0u32..=0x10FFFF).filter_map(char::from_u32);
        // Non-ASCII stable chars, as ranges.
        let mut ranges: Vec<(char, char)> = Vec::new();
        for c in all().filter(|c| !c.is_ascii() && is_stable(*c)) {
            match ranges.last_mut() {
                Some((_, end)) if (*end as u32) + 1 == c as u32 => *end = c,
                _ => ranges.push((c, c)),
            }
        }
        let class: String =
            ranges.iter().map(|(a, b)| format!("\\x{{{:X}}}-\\x{{{:X}}}", *a as u32, *b as u32)).collect();
        let re = RegexBuilder::new(&format!("[{class}]")).case_insensitive(true).size_limit(1 << 28).build().unwrap();
        let others: String = all().filter(|c| c.is_ascii() || !is_stable(*c)).collect();
        assert_eq!(re.find(&others).map(|m| m.as_str().to_owned()), None);
        // ASCII letters fold to ASCII letters that lowercase alike, and to the
        // odd chars alone outside ASCII.
        // (A stable char outside ASCII folding to one would have failed above,
        // so the chars with case are the ones to look through.)
        assert!((0u8..128).map(char::from).all(is_stable));
        let re = RegexBuilder::new(r"[\x00-\x7F]").case_insensitive(true).build().unwrap();
        let cased: String = all().filter(|c| !is_stable(*c)).collect();
        let found: Vec<&str> = re.find_iter(&cased).map(|m| m.as_str()).collect();
        assert_eq!(found, [ODD_CHARS[1], ODD_CHARS[0]]); // in code point order
        let every: String = (0u8..128).map(char::from).chain(cased.chars()).collect();
        for (c, class) in [('k', "Kk\u{212A}"), ('s', "Ss\u{17F}")] {
            let re = RegexBuilder::new(&c.to_string()).case_insensitive(true).build().unwrap();
            assert_eq!(re.find_iter(&every).map(|m| m.as_str()).collect::<String>(), class);
        }
    }

    #[test]
    fn perl_classes_work_without_their_unicode_tables() {
        let re = build(r"\bfoo\w+\s\d{2}\b").unwrap();
        assert!(re.is_match("x foo_bar 42 y"));
        assert!(!re.is_match("xfoo_bar 42"));
        let re = build(r"[\w-]+@[\w.]+").unwrap();
        assert!(re.is_match("mail ann-b@example.org"));
        let re = build(r"\S+\.rs\W").unwrap();
        assert!(re.is_match("see src/lib.rs:"));
        assert!(build(r"a\\b").unwrap().is_match(r"a\b"));
        assert_eq!(ascii_perl_classes(r"\p{Greek}"), r"\p{Greek}");
        // Case folding stays Unicode-aware.
        assert!(build("ÉTÉ").unwrap().is_match("été"));
    }
}
