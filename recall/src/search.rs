//! The recall tool's search: what earlier compactions of this session moved out
//! of the context, found again without a shell.
//!
//! The history files are the markdown `history` writes: a header, then per
//! message a `## [n] role` line and its text, then per tool call a
//! `### tool <Name>` section (input, result). A message too large for one part
//! goes on in the next part under `## [n] role (continued)`, so the parts of
//! one compaction are read as one stream and such a message stays one message.
//!
//! Matching is per line, like `rg`: a hit never spans a line break, and `^`/`$`
//! are the line's ends. Plain words are literals; a message is ranked by how
//! many of the query's words it holds, then by its hit count, so a message with
//! every word comes first without hiding the ones that hold only some (an AND
//! that finds nothing would tell the model less than a ranked OR).
//!
//! The regex crate is built without its literal and DFA engines (size over
//! speed in the shipped wasm), which leaves a matcher that reads ~25 MB/s. So
//! plain words are first looked for as literals in an ASCII-lowercased copy of
//! the text: a line holding none of them is skipped, and where every word is
//! a literal that case cannot change (ASCII, or chars with no case) the hits
//! are counted there too, exactly as the regex would count them. The two chars
//! outside ASCII that fold to ASCII letters (the Kelvin sign and the long s)
//! send their lines to the regex. A regex query reads every line.
//!
//! The answer is bounded (`MAX_ANSWER` UTF-16 code units, the unit the engine
//! counts a tool's text in) so one call cannot flood the context, while the
//! count it reports is the true total.

use regex::{Regex, RegexBuilder};
use std::collections::HashMap;

/// The most the answer may hold, in UTF-16 code units; every char is one or
/// two, so it is also at most that many chars.
pub const MAX_ANSWER: usize = 8000;
/// Messages shown when the input names no `limit`.
pub const DEFAULT_LIMIT: usize = 8;
/// The most messages one answer shows, whatever `limit` asks for.
pub const MAX_LIMIT: usize = 50;

const LINE_CHARS: usize = 300;
/// How much of a long hit line is shown ahead of the hit.
const LEAD_CHARS: usize = 80;
const CONTEXT_LINES: usize = 2;
const MAX_TERMS: usize = 16;
/// The compiled-program ceiling: a pattern like `\w{1000}{1000}` is refused
/// with a message instead of eating the wasm memory.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
const NEST_LIMIT: u32 = 64;
/// Hit lines remembered per message to point at beyond the excerpt.
const OTHER_LINES: usize = 6;
const ERROR_CHARS: usize = 600;

/// One search, as the tool's input asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub text: String,
    pub regex: bool,
    /// `user`, `assistant` or `tool`; `None` searches everything.
    pub role: Option<String>,
    pub limit: usize,
}


/// Whether a file in the history folder is one to search: the markdown parts,
/// not the folder's log or anything hidden.
pub fn is_history_file(name: &str) -> bool {
    let name = base_name(name);
    name.ends_with(".md") && !name.starts_with('.') && !name.ends_with(".summary.md")
}

/// Searches the history files (`(path, text)`, any order) and answers the text
/// the model reads: the true totals, then the best excerpts within
/// `MAX_ANSWER`. A query that cannot run answers why, starting `recall:`.
pub fn search(files: &[(String, String)], q: &Query) -> String {
    let matcher = match Matcher::new(q) {
        Ok(m) => m,
        Err(e) => return e,
    };
    let mut sources: Vec<Source> = files
        .iter()
        .enumerate()
        .filter(|(_, (path, _))| is_history_file(path))
        .map(|(i, (path, _))| Source::new(i, path))
        .collect();
    if sources.is_empty() {
        return "recall: no history files to search yet: nothing of this session has been compacted away.".into();
    }
    sources.sort_by(|a, b| (&a.key, a.part, &a.name, a.input).cmp(&(&b.key, b.part, &b.name, b.input)));
    let mut compactions: Vec<String> = sources.iter().map(|s| s.key.clone()).collect();
    compactions.dedup();

    let mut scan = Scan::default();
    for (order, source) in sources.iter().enumerate() {
        // Oldest first: the rank is the compaction's place in time.
        let rank = compactions.binary_search(&source.key).unwrap_or(0);
        if scan.compaction != Some(rank) {
            scan.compaction = Some(rank);
            scan.stream = Stream::default();
        }
        let text = files.get(source.input).map_or("", |(_, t)| t.as_str());
        scan.file(order, rank, text, &matcher, q);
    }
    render(files, &sources, &compactions, scan, &matcher, q)
}

// ---- the matcher ----

pub(crate) struct Matcher {
    re: Regex,
    /// The query's terms as the header names them, in the query's order.
    pub(crate) terms: Vec<String>,
    /// Capture group `g` (1-based) is the term `group_term[g - 1]`.
    group_term: Vec<usize>,
    /// Per term, a literal every match of it holds in the ASCII-lowercased
    /// line; `None` when some term has none and every line must be read.
    keys: Option<Vec<String>>,
    /// Where every term is such a literal as a whole: `(term, lowercased)` in
    /// the pattern's order, to count hits without the regex.
    literals: Option<Vec<(usize, String)>>,
    words: bool,
}

impl Matcher {
    pub(crate) fn new(q: &Query) -> Result<Matcher, String> {
        if q.regex {
            let re = build(&q.text).map_err(|e| regex_error(&e))?;
            if re.is_match("") {
                return Err(
                    "recall: the regex matches empty text, so it would match everywhere; give it something to find"
                        .into(),
                );
            }
            return Ok(Matcher {
                re,
                terms: vec![q.text.clone()],
                group_term: vec![0],
                keys: None,
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
        let mut order: Vec<usize> = (0..terms.len()).collect();
        order.sort_by(|&a, &b| {
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
        let keys: Option<Vec<String>> = terms.iter().map(|t| literal_key(t)).collect();
        let literals: Option<Vec<(usize, String)>> = order
            .iter()
            .map(|&i| {
                let t = terms.get(i)?;
                t.chars().all(|c| c != ' ' && is_stable(c)).then(|| (i, t.to_ascii_lowercase()))
            })
            .collect();
        Ok(Matcher { re, terms, group_term: order, keys, literals, words: true })
    }

    /// The hits on one line: how many, and which terms (bit per term).
    /// `lowered` is the line ASCII-lowercased, and `odd` says it holds a char
    /// outside ASCII that folds to an ASCII letter.
    fn hits(&self, line: &str, lowered: Option<&str>, odd: bool) -> (usize, u32) {
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

    /// The hits in one message's text, line by line as in a history file:
    /// `(hits, terms, hit lines, the line holding the most terms)`, or `None`.
    pub(crate) fn scan_text(&self, text: &str) -> Option<(usize, u32, usize, usize)> {
        let lowered = self.keys.as_ref().map(|_| text.to_ascii_lowercase());
        if let (Some(keys), Some(low)) = (&self.keys, &lowered) {
            let odd = ODD_CHARS.iter().any(|c| low.contains(c));
            if !odd && !keys.iter().any(|k| low.contains(k.as_str())) {
                return None;
            }
        }
        let (mut hits, mut terms, mut lines, mut best, mut best_terms) = (0, 0u32, 0, 0, 0);
        let mut start = 0;
        for (i, line) in text.split('\n').enumerate() {
            let low = lowered.as_deref().and_then(|l| l.get(start..start + line.len()));
            start += line.len() + 1;
            let odd = low.is_some() && ODD_CHARS.iter().any(|c| line.contains(c));
            let (count, mask) = self.hits(line, low, odd);
            if count == 0 {
                continue;
            }
            hits += count;
            terms |= mask;
            lines += 1;
            if lines == 1 || mask.count_ones() > best_terms {
                best = i;
                best_terms = mask.count_ones();
            }
        }
        (hits > 0).then_some((hits, terms, lines, best))
    }

    /// Where the first hit on a line starts (a byte offset), if any.
    pub(crate) fn first_hit(&self, line: &str) -> Option<usize> {
        self.re.find_iter(line).find(|m| !m.as_str().is_empty()).map(|m| m.start())
    }

    pub(crate) fn describe(&self) -> String {
        if !self.words {
            return format!("the regex {}", quote(self.terms.first().map_or("", String::as_str)));
        }
        let listed: Vec<String> = self.terms.iter().map(|t| quote(t)).collect();
        format!("{} (any case)", listed.join(", "))
    }
}

fn build(pattern: &str) -> Result<Regex, regex::Error> {
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

/// The chars outside ASCII that a case-insensitive match folds to ASCII
/// letters: the Kelvin sign (k) and the long s (s). A line holding one goes to
/// the regex.
const ODD_CHARS: [&str; 2] = ["\u{212A}", "\u{17F}"];

/// A char that a case-insensitive match can only meet as itself once the
/// haystack's ASCII letters are lowercased (on a line with no `ODD_CHARS`):
/// ASCII, or a char with no case at all.
fn is_stable(c: char) -> bool {
    if c.is_ascii() {
        return true;
    }
    let mut lower = c.to_lowercase();
    let mut upper = c.to_uppercase();
    lower.next() == Some(c) && lower.next().is_none() && upper.next() == Some(c) && upper.next().is_none()
}

/// The longest run of stable chars in a term, lowercased: every match of the
/// term holds it in the ASCII-lowercased haystack. `None` when the term has
/// no stable char, so no line can be skipped for it.
fn literal_key(term: &str) -> Option<String> {
    let mut best = "";
    for piece in term.split(' ') {
        let mut start = None;
        for (i, c) in piece.char_indices().chain(std::iter::once((piece.len(), ' '))) {
            let stable = i < piece.len() && is_stable(c);
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

/// The next place a needle occurs, found lazily as the lines go by, so each
/// needle reads the text once.
struct Cursor<'a> {
    needle: &'a str,
    at: Option<usize>,
}

impl<'a> Cursor<'a> {
    fn new(needle: &'a str, hay: &str) -> Cursor<'a> {
        Cursor { needle, at: hay.find(needle) }
    }

    /// Whether the needle lies wholly in `hay[start..end]`; lines are asked
    /// about in order.
    fn within(&mut self, hay: &str, start: usize, end: usize) -> bool {
        if self.at.is_some_and(|p| p < start) {
            self.at = hay.get(start..).and_then(|s| s.find(self.needle)).map(|o| o + start);
        }
        self.at.is_some_and(|p| p + self.needle.len() <= end)
    }
}

// ---- reading the files ----

/// One input file, named the way `history::part_file` names parts:
/// `<stamp>-<trigger>.md`, then `<stamp>-<trigger>.part<k>.md`.
struct Source {
    input: usize,
    name: String,
    /// The compaction the file belongs to: its name without part and `.md`.
    /// Stamps sort by time, so keys do too.
    key: String,
    part: usize,
}

impl Source {
    fn new(input: usize, path: &str) -> Source {
        let name = base_name(path).to_owned();
        let stem = name.strip_suffix(".md").unwrap_or(&name);
        let (key, part) = match stem.rsplit_once(".part") {
            Some((k, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                (k.to_owned(), n.parse::<usize>().unwrap_or(usize::MAX))
            }
            _ => (stem.to_owned(), 1),
        };
        Source { input, name, key, part }
    }
}

fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The directory of a path, with its separator; empty for a bare name.
fn dir_of(path: &str) -> &str {
    match path.rfind(['/', '\\']) {
        Some(i) => path.get(..=i).unwrap_or(""),
        None => "",
    }
}

/// `## [n] role` or `## [n] role (continued)`.
fn message_heading(line: &str) -> Option<(usize, &str, bool)> {
    let rest = line.strip_prefix("## [")?;
    let close = rest.find("] ")?;
    let digits = rest.get(..close)?;
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = digits.parse().ok()?;
    let role = rest.get(close + 2..)?;
    let (role, continued) = match role.strip_suffix(" (continued)") {
        Some(r) => (r, true),
        None => (role, false),
    };
    if role.is_empty() || role.len() > 32 || role.chars().any(char::is_whitespace) {
        return None;
    }
    Some((n, role, continued))
}

/// `### tool <Name>` (maybe ` (error)`): the label shown for its lines.
fn tool_heading(line: &str) -> Option<&str> {
    let name = line.strip_prefix("### tool ")?.trim();
    (!name.is_empty()).then_some(name)
}

/// Where the reading stands inside one compaction's parts.
#[derive(Default)]
struct Stream {
    message: Option<usize>,
    tool: Option<String>,
}

/// Where a hit line is: the file (its place in the sorted sources), the byte
/// offset of the line in it and its 1-based number.
#[derive(Clone)]
struct Spot {
    file: usize,
    start: usize,
    line: usize,
    terms: u32,
    tool: Option<String>,
}

struct Message {
    compaction: usize,
    n: usize,
    role: String,
    hits: usize,
    terms: u32,
    hit_lines: usize,
    best: Option<Spot>,
    /// Further hit lines, `(file, line)`, the first few.
    others: Vec<(usize, usize)>,
}

#[derive(Default)]
struct Scan {
    stream: Stream,
    /// The compaction whose parts are being read.
    compaction: Option<usize>,
    messages: Vec<Message>,
    index: HashMap<(usize, usize), usize>,
    hits: usize,
}

impl Scan {
    fn file(&mut self, file: usize, compaction: usize, text: &str, m: &Matcher, q: &Query) {
        let lowered = m.keys.as_ref().map(|_| text.to_ascii_lowercase());
        let low = lowered.as_deref().unwrap_or("");
        let mut keys: Vec<Cursor> = m.keys.iter().flatten().map(|k| Cursor::new(k, low)).collect();
        let mut odd: Vec<Cursor> =
            if lowered.is_some() { ODD_CHARS.iter().map(|c| Cursor::new(c, low)).collect() } else { Vec::new() };
        let mut header = true;
        let mut start = 0;
        for (i, raw) in text.split('\n').enumerate() {
            let line_start = start;
            start += raw.len() + 1;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if let Some((n, role, continued)) = message_heading(line) {
                header = false;
                let slot = *self.index.entry((compaction, n)).or_insert_with(|| {
                    self.messages.push(Message {
                        compaction,
                        n,
                        role: role.to_owned(),
                        hits: 0,
                        terms: 0,
                        hit_lines: 0,
                        best: None,
                        others: Vec::new(),
                    });
                    self.messages.len() - 1
                });
                if !(continued && self.stream.message == Some(slot)) {
                    self.stream.tool = None;
                }
                self.stream.message = Some(slot);
                continue;
            }
            if header || line.is_empty() {
                continue;
            }
            let Some(slot) = self.stream.message else { continue };
            if let Some(tool) = tool_heading(line) {
                self.stream.tool = Some(tool.to_owned());
            }
            if let Some(role) = &q.role {
                let here = match &self.stream.tool {
                    Some(_) => "tool",
                    None => self.messages.get(slot).map_or("", |msg| msg.role.as_str()),
                };
                if here != role {
                    continue;
                }
            }
            let end = line_start + line.len();
            let mut is_odd = false;
            if lowered.is_some() {
                is_odd = odd.iter_mut().fold(false, |any, c| c.within(low, line_start, end) | any);
                let keyed = keys.iter_mut().fold(false, |any, c| c.within(low, line_start, end) | any);
                if !is_odd && !keyed {
                    continue;
                }
            }
            let (count, terms) = m.hits(line, low.get(line_start..end), is_odd);
            if count == 0 {
                continue;
            }
            self.hits += count;
            let Some(msg) = self.messages.get_mut(slot) else { continue };
            msg.hits += count;
            msg.terms |= terms;
            msg.hit_lines += 1;
            // The line holding the most terms leads the excerpt; the first such
            // line on a tie.
            let spot = || Spot { file, start: line_start, line: i + 1, terms, tool: self.stream.tool.clone() };
            match &msg.best {
                Some(best) if best.terms.count_ones() >= terms.count_ones() => {
                    if msg.others.len() < OTHER_LINES {
                        msg.others.push((file, i + 1));
                    }
                }
                Some(best) => {
                    if msg.others.len() < OTHER_LINES {
                        msg.others.push((best.file, best.line));
                    }
                    msg.best = Some(spot());
                }
                None => msg.best = Some(spot()),
            }
        }
    }
}

// ---- the answer ----

fn render(
    files: &[(String, String)],
    sources: &[Source],
    compactions: &[String],
    scan: Scan,
    m: &Matcher,
    q: &Query,
) -> String {
    let role = q.role.as_ref().map_or(String::new(), |r| format!(", role {r}"));
    let mut found: Vec<&Message> = scan.messages.iter().filter(|msg| msg.hits > 0).collect();
    if found.is_empty() {
        return format!(
            "recall: no hits for {}{role} in {} file{} of {} compaction{}. Try other or fewer words, a regex (regex: true), or no role.",
            m.describe(),
            sources.len(),
            plural(sources.len()),
            compactions.len(),
            plural(compactions.len()),
        );
    }
    found.sort_by(|a, b| {
        b.terms
            .count_ones()
            .cmp(&a.terms.count_ones())
            .then(b.hits.cmp(&a.hits))
            .then(b.compaction.cmp(&a.compaction))
            .then(b.n.cmp(&a.n))
    });
    let in_compactions = {
        let mut c: Vec<usize> = found.iter().map(|msg| msg.compaction).collect();
        c.sort_unstable();
        c.dedup();
        c.len()
    };
    let mut out = Budget::default();
    out.push(&format!(
        "recall: {} hit{} in {} message{} of {} compaction{} for {}{role}.",
        scan.hits,
        plural(scan.hits),
        found.len(),
        plural(found.len()),
        in_compactions,
        plural(in_compactions),
        m.describe(),
    ));
    if m.terms.len() > 1 {
        let all = (1u32 << m.terms.len().min(31)) - 1;
        let every = found.iter().filter(|msg| msg.terms & all == all).count();
        out.push(&format!(" {every} of them hold every term; more terms rank first, then more hits, then newer."));
    } else {
        out.push(" More hits rank first, then newer.");
    }
    let paths: Vec<&str> = sources.iter().filter_map(|s| files.get(s.input)).map(|(p, _)| p.as_str()).collect();
    let common = paths.first().map(|p| dir_of(p)).filter(|d| paths.iter().all(|p| dir_of(p) == *d));
    match common {
        Some(dir) if !dir.is_empty() => {
            out.push(&format!("\nThe files are in {dir} (Read one at the line shown, or rg -n there, for more).\n"))
        }
        _ => out.push("\nRead a file at the line shown (or rg -n it) for more.\n"),
    }

    let limit = q.limit.clamp(1, MAX_LIMIT);
    let mut shown = 0;
    let mut capped = false;
    for msg in found.iter().take(limit) {
        let Some(text) = excerpt(files, sources, compactions, msg, m, common.is_some_and(|d| !d.is_empty())) else {
            continue;
        };
        if !out.fits(&text, FOOTER_ROOM) {
            capped = true;
            break;
        }
        out.push(&text);
        shown += 1;
    }
    let rest = found.len() - shown;
    if rest > 0 {
        let why =
            if capped { format!("the answer stops at {MAX_ANSWER} characters") } else { format!("limit {limit}") };
        out.push(&format!(
            "\n{rest} more message{} with hits not shown ({why}); narrow the query (more words, a role, a regex) or raise limit.",
            plural(rest)
        ));
    }
    out.finish()
}

/// Room kept for the closing line after the excerpts.
const FOOTER_ROOM: usize = 200;

fn excerpt(
    files: &[(String, String)],
    sources: &[Source],
    compactions: &[String],
    msg: &Message,
    m: &Matcher,
    short_names: bool,
) -> Option<String> {
    let best = msg.best.as_ref()?;
    let source = sources.get(best.file)?;
    let (path, text) = files.get(source.input)?;
    let file_label = if short_names { source.name.as_str() } else { path.as_str() };
    let mut out = String::new();
    let tool = best.tool.as_ref().map_or(String::new(), |t| format!(" · tool {t}"));
    let compaction = compactions.get(msg.compaction).map_or("", String::as_str);
    out.push_str(&format!(
        "\n── {file_label}:{} · compaction {} · [{}] {}{tool} · {} hit{}\n",
        best.line,
        stamp_label(compaction),
        msg.n,
        msg.role,
        msg.hits,
        plural(msg.hits),
    ));
    let lines = window(text, best.start);
    let first_line = best.line.saturating_sub(lines.iter().position(|(is_best, _)| *is_best).unwrap_or(0));
    for (k, (_, line)) in lines.iter().enumerate() {
        let hit = m.first_hit(line);
        let mark = if hit.is_some() { '>' } else { ' ' };
        out.push_str(&format!("{mark}{:>6} | {}\n", first_line + k, clip(line, hit)));
    }
    let others: Vec<String> = msg
        .others
        .iter()
        .filter(|(f, l)| !(*f == best.file && l.abs_diff(best.line) <= CONTEXT_LINES))
        .map(|(f, l)| match sources.get(*f) {
            Some(s) if *f != best.file => format!("{}:{l}", s.name),
            _ => l.to_string(),
        })
        .collect();
    let unlisted = msg.hit_lines.saturating_sub(1 + msg.others.len());
    if !others.is_empty() || unlisted > 0 {
        let more = if unlisted > 0 { format!(" (+{unlisted} more)") } else { String::new() };
        let list = match others.len() {
            0 => String::new(),
            1 => format!(" at line {}", others.join("")),
            _ => format!(" at lines {}", others.join(", ")),
        };
        out.push_str(&format!("  more hits in this message{list}{more}\n"));
    }
    Some(out)
}

/// The hit line and up to `CONTEXT_LINES` each side, kept inside its message:
/// a message heading ends the window. `(is_hit_line, text)` in file order.
fn window(text: &str, start: usize) -> Vec<(bool, &str)> {
    let line_at = |s: usize| -> &str {
        let rest = text.get(s..).unwrap_or("");
        let line = rest.split('\n').next().unwrap_or("");
        line.strip_suffix('\r').unwrap_or(line)
    };
    let mut before = Vec::new();
    let mut s = start;
    while before.len() < CONTEXT_LINES && s > 0 {
        let prev_end = s - 1; // the '\n' ending the previous line
        let prev_start = text.get(..prev_end).and_then(|t| t.rfind('\n')).map_or(0, |i| i + 1);
        let line = line_at(prev_start);
        if message_heading(line).is_some() {
            break;
        }
        before.push(line);
        s = prev_start;
    }
    before.reverse();
    let mut lines: Vec<(bool, &str)> = before.into_iter().map(|l| (false, l)).collect();
    lines.push((true, line_at(start)));
    let mut s = start;
    let mut after = 0;
    while after < CONTEXT_LINES {
        let Some(nl) = text.get(s..).and_then(|t| t.find('\n')) else { break };
        s += nl + 1;
        if s >= text.len() {
            break;
        }
        let line = line_at(s);
        if message_heading(line).is_some() {
            break;
        }
        lines.push((false, line));
        after += 1;
    }
    // Blank lines at either end say nothing.
    while lines.last().is_some_and(|(hit, l)| !hit && l.trim().is_empty()) {
        lines.pop();
    }
    let lead = lines.iter().take_while(|(hit, l)| !hit && l.trim().is_empty()).count();
    lines.drain(..lead);
    lines
}

/// A line cut to `LINE_CHARS` chars, around the hit when it has one.
pub(crate) fn clip(line: &str, hit: Option<usize>) -> String {
    let count = line.chars().count();
    if count <= LINE_CHARS {
        return line.to_owned();
    }
    let hit_char = hit.map_or(0, |b| line.get(..b).map_or(0, |s| s.chars().count()));
    let from = hit_char.saturating_sub(LEAD_CHARS).min(count.saturating_sub(LINE_CHARS));
    let body: String = line.chars().skip(from).take(LINE_CHARS).collect();
    let head = if from > 0 { "…" } else { "" };
    let tail = if from + LINE_CHARS < count { "…" } else { "" };
    format!("{head}{body}{tail}")
}

/// `2026-11-29T232701Z-manual` as `2026-11-29 23:27:01Z (manual)`; a key of
/// another shape as it is.
fn stamp_label(key: &str) -> String {
    let Some((stamp, trigger)) = key.split_once("Z-") else { return key.to_owned() };
    let pretty = match stamp.split_once('T') {
        Some((date, time)) if time.len() == 6 && time.bytes().all(|b| b.is_ascii_digit()) => format!(
            "{date} {}:{}:{}Z",
            time.get(0..2).unwrap_or(""),
            time.get(2..4).unwrap_or(""),
            time.get(4..6).unwrap_or("")
        ),
        _ => format!("{stamp}Z"),
    };
    format!("{pretty} ({trigger})")
}

pub(crate) fn quote(s: &str) -> String {
    format!("\"{}\"", cut_chars(s, 200))
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub(crate) fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or("")),
        None => s.to_owned(),
    }
}

/// The answer, counted in UTF-16 code units as it grows.
#[derive(Default)]
pub(crate) struct Budget {
    text: String,
    units: usize,
}

impl Budget {
    pub(crate) fn push(&mut self, s: &str) {
        self.units += s.encode_utf16().count();
        self.text.push_str(s);
    }

    pub(crate) fn units(&self) -> usize {
        self.units
    }

    pub(crate) fn fits(&self, s: &str, room: usize) -> bool {
        self.units + s.encode_utf16().count() + room <= MAX_ANSWER
    }

    /// The text, cut at a char boundary should it have passed the bound.
    pub(crate) fn finish(self) -> String {
        if self.units <= MAX_ANSWER {
            return self.text;
        }
        let mut units = 0;
        let mut end = 0;
        for (i, c) in self.text.char_indices() {
            if units + c.len_utf16() > MAX_ANSWER {
                break;
            }
            units += c.len_utf16();
            end = i + c.len_utf8();
        }
        self.text.get(..end).unwrap_or("").to_owned()
    }
}

#[cfg(test)]
mod perl_class_tests {
    use super::*;

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

#[cfg(test)]
mod tests {
    use super::*;

    // ---- histories as `history::render` writes them ----

    struct Tool {
        name: &'static str,
        error: bool,
        input: String,
        result: Option<String>,
    }

    struct Msg {
        n: usize,
        role: &'static str,
        text: String,
        tools: Vec<Tool>,
    }

    fn user(n: usize, text: &str) -> Msg {
        Msg { n, role: "user", text: text.into(), tools: vec![] }
    }

    fn assistant(n: usize, text: &str, tools: Vec<Tool>) -> Msg {
        Msg { n, role: "assistant", text: text.into(), tools }
    }

    fn bash(command: &str, result: &str) -> Tool {
        Tool {
            name: "Bash",
            error: false,
            input: format!("{{\"command\":\"{command}\"}}"),
            result: Some(result.into()),
        }
    }

    fn header(title: &str, count: usize, trigger: &str) -> Vec<String> {
        vec![
            title.into(),
            String::new(),
            format!("Session s-1, compacted 2026-11-29T23:27:01.000Z ({trigger}), {count} messages. Written by the compact-plus mod."),
            "Each message starts with a \"## [n] role\" line; tool calls follow as \"### tool <name>\" with their input and result (long results cut; the .jsonl transcript has everything).".into(),
            String::new(),
        ]
    }

    fn message_lines(m: &Msg, out: &mut Vec<String>) {
        out.push(format!("## [{}] {}", m.n, m.role));
        out.push(String::new());
        if !m.text.is_empty() {
            out.push(m.text.clone());
            out.push(String::new());
        }
        for t in &m.tools {
            let error = if t.error { " (error)" } else { "" };
            out.push(format!("### tool {}{error}", t.name));
            out.push(format!("input: {}", t.input));
            if let Some(r) = &t.result {
                out.push("result:".into());
                out.push(r.clone());
            }
            out.push(String::new());
        }
    }

    fn render_history(msgs: &[Msg], trigger: &str) -> String {
        let mut out = header("# Conversation before compaction", msgs.len(), trigger);
        for m in msgs {
            message_lines(m, &mut out);
        }
        out.join("\n")
    }

    fn file(name: &str, text: String) -> (String, String) {
        (format!("/home/u/.claude/compact-history/s-1/{name}"), text)
    }

    fn q(text: &str) -> Query {
        Query { text: text.into(), regex: false, role: None, limit: DEFAULT_LIMIT }
    }

    fn units(s: &str) -> usize {
        s.encode_utf16().count()
    }

    /// The number in the answer's first line before `word`.
    fn count_before(answer: &str, word: &str) -> usize {
        let first = answer.lines().next().unwrap_or("");
        let words: Vec<&str> = first.split_whitespace().collect();
        let at = words.iter().position(|w| w.trim_end_matches(',').starts_with(word)).expect("word in first line");
        words[at - 1].parse().expect("a count")
    }

    /// The `[n] role` of each excerpt, in order.
    fn excerpt_heads(answer: &str) -> Vec<String> {
        answer
            .lines()
            .filter(|l| l.starts_with("── "))
            .map(|l| {
                let parts: Vec<&str> = l.split(" · ").collect();
                format!("{} {}", parts[0].trim_start_matches("── "), parts[2])
            })
            .collect()
    }

    // ---- input ----


    #[test]
    fn terms_split_on_space_and_keep_quoted_phrases() {
        assert_eq!(split_terms(r#"port "connection  refused" Port 8431"#), vec!["port", "connection refused", "8431"]);
        assert_eq!(split_terms(r#"open "quote runs to the end"#), vec!["open", "quote runs to the end"]);
        assert!(split_terms(r#" "" "#).is_empty());
        let many = (0..=MAX_TERMS).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        assert!(search(&[file("a-manual.md", String::new())], &q(&many)).contains("at most"));
    }

    // ---- bad queries answer, never fail ----

    #[test]
    fn a_bad_regex_answers_an_error_text() {
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&[user(0, "hello")], "manual"))];
        let rq = |t: &str| Query { regex: true, ..q(t) };
        let unclosed = search(&files, &rq("(unclosed"));
        assert!(unclosed.starts_with("recall: the regex does not parse"), "{unclosed}");
        assert!(unclosed.contains("unclosed group"), "{unclosed}");
        let huge = search(&files, &rq(r"\w{500}{500}"));
        assert!(huge.starts_with("recall: the regex is too large"), "{huge}");
        let deep = search(&files, &rq(&format!("{}a{}", "(".repeat(200), ")".repeat(200))));
        assert!(deep.starts_with("recall: "), "{deep}");
        let empty = search(&files, &rq("x*"));
        assert!(empty.starts_with("recall: the regex matches empty text"), "{empty}");
        // A property this build has no tables for is a parse error, not a panic
        // (in a workspace test build another crate may switch the tables on).
        let greek = search(&files, &rq(r"\p{Greek}"));
        assert!(greek.starts_with("recall: the regex does not parse") || greek.starts_with("recall: no hits"), "{greek}");
        // An empty-width pattern that does not match "" finds nothing, quietly.
        assert!(search(&files, &rq(r"\b")).starts_with("recall: no hits"));
    }

    #[test]
    fn no_files_and_no_hits_say_so() {
        assert!(search(&[], &q("x")).starts_with("recall: no history files"));
        let log = ("/h/s/log.jsonl".to_string(), "{\"x\":\"zebra\"}".to_string());
        assert!(search(std::slice::from_ref(&log), &q("zebra")).starts_with("recall: no history files"));
        let files = [log, file("2026-11-29T232701Z-manual.md", render_history(&[user(0, "hello")], "manual"))];
        let none = search(&files, &q("zebra"));
        assert!(none.starts_with("recall: no hits for \"zebra\""), "{none}");
        assert!(none.contains("in 1 file of 1 compaction"), "{none}");
    }

    // ---- reading the format ----

    #[test]
    fn headers_and_headings_are_not_searched() {
        let text = render_history(&[user(0, "about the mod"), assistant(1, "ok", vec![])], "manual");
        let files = [file("2026-11-29T232701Z-manual.md", text)];
        // "compaction", "Session", "messages" and the roles only appear in the
        // header and the headings.
        for word in ["compaction", "session", "messages", "user", "assistant", "role"] {
            assert!(search(&files, &q(word)).starts_with("recall: no hits"), "{word}");
        }
        let a = search(&files, &q("mod"));
        assert_eq!(count_before(&a, "hit"), 1, "{a}");
    }

    #[test]
    fn roles_filter_messages_and_tool_sections() {
        let msgs = [
            user(0, "the zebra is in the user text"),
            assistant(1, "the assistant says zebra", vec![bash("grep zebra", "zebra.txt:1: zebra")]),
            user(2, "zebra again"),
        ];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let role = |r: &str| Query { role: Some(r.into()), ..q("zebra") };
        let all = search(&files, &q("zebra"));
        assert_eq!(count_before(&all, "hit"), 6, "{all}");
        let u = search(&files, &role("user"));
        assert_eq!(count_before(&u, "hit"), 2, "{u}");
        assert_eq!(excerpt_heads(&u).len(), 2);
        assert!(excerpt_heads(&u).iter().all(|h| h.contains("user")), "{u}");
        let a = search(&files, &role("assistant"));
        assert_eq!(count_before(&a, "hit"), 1, "{a}");
        let t = search(&files, &role("tool"));
        assert_eq!(count_before(&t, "hit"), 3, "{t}");
        assert!(t.contains("[1] assistant · tool Bash · 3 hits"), "{t}");
        // The tool's name is found on its heading line.
        let named = search(&files, &Query { role: Some("tool".into()), ..q("bash") });
        assert_eq!(count_before(&named, "hit"), 1, "{named}");
    }

    #[test]
    fn a_message_continued_in_the_next_part_is_one_message() {
        let mut one = header("# Conversation before compaction, part 1 of 2", 8, "auto");
        one.extend(
            ["## [6] user", "", "run it", "", "## [7] assistant", "", "Running.", "", "### tool Bash (error)"]
                .map(String::from),
        );
        one.extend(
            ["input: {\"command\":\"make\"}", "result:", "cc -c a.c", "a.c:1: warning: ostrich"].map(String::from),
        );
        let mut two = header("# Conversation before compaction, part 2 of 2", 8, "auto");
        two.extend(
            ["## [7] assistant (continued)", "", "a.c:9: error: ostrich undeclared", "make: *** [a.o] Error 1", ""]
                .map(String::from),
        );
        two.extend(["## [8] user", "", "ostrich? really", ""].map(String::from));
        let files = [
            file("2026-11-29T232701Z-auto.part2.md", two.join("\n")),
            file("2026-11-29T232701Z-auto.md", one.join("\n")),
        ];
        let t = search(&files, &Query { role: Some("tool".into()), ..q("ostrich") });
        // The continued lines stay inside the tool section they were cut from.
        assert_eq!(count_before(&t, "hit"), 2, "{t}");
        assert_eq!(count_before(&t, "message"), 1, "{t}");
        assert!(t.contains("[7] assistant · tool Bash (error) · 2 hits"), "{t}");
        assert!(t.contains("more hits in this message at line 2026-11-29T232701Z-auto.part2.md:8"), "{t}");
        let all = search(&files, &q("ostrich"));
        assert_eq!(count_before(&all, "hit"), 3, "{all}");
        assert_eq!(count_before(&all, "message"), 2, "{all}");
        assert_eq!(count_before(&all, "compaction"), 1, "{all}");
    }

    #[test]
    fn excerpts_show_context_inside_the_message_with_line_numbers() {
        let msgs = [
            user(0, "before"),
            assistant(1, "one\ntwo\nthree\nthe heron line\nfour\nfive\nsix", vec![]),
            user(2, "after"),
        ];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let a = search(&files, &q("heron"));
        // Header 5 lines, `## [0] user`, blank, before, blank, `## [1] assistant`, blank, one (12).
        assert!(
            a.contains(
                "── 2026-11-29T232701Z-manual.md:15 · compaction 2026-11-29 23:27:01Z (manual) · [1] assistant · 1 hit"
            ),
            "{a}"
        );
        assert!(
            a.contains("     13 | two\n     14 | three\n>    15 | the heron line\n     16 | four\n     17 | five\n"),
            "{a}"
        );
        assert!(a.contains("The files are in /home/u/.claude/compact-history/s-1/"), "{a}");
        // The window stops at a message heading.
        let b = search(&files, &q("before"));
        assert!(b.contains(">     8 | before\n"), "{b}");
        assert!(!b.contains("## ["), "{b}");
    }

    #[test]
    fn long_lines_are_cut_around_the_hit() {
        let long = format!("{}needle{}", "α".repeat(4000), "ω".repeat(4000));
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&[user(0, &long)], "manual"))];
        let a = search(&files, &q("NEEDLE"));
        let line = a.lines().find(|l| l.starts_with('>')).unwrap();
        assert!(line.contains("needle"), "{line}");
        let shown = line.split(" | ").nth(1).unwrap();
        assert_eq!(shown.chars().count(), LINE_CHARS + 2, "{shown}");
        assert!(shown.starts_with('…') && shown.ends_with('…'));
    }

    #[test]
    fn paths_in_different_folders_are_shown_whole() {
        let text = render_history(&[user(0, "zebra")], "manual");
        let files = [
            ("/a/2026-11-29T232701Z-manual.md".to_string(), text.clone()),
            ("/b/2026-11-30T232701Z-manual.md".to_string(), text),
        ];
        let a = search(&files, &q("zebra"));
        assert!(a.contains("── /b/2026-11-30T232701Z-manual.md:8 "), "{a}");
        assert!(a.contains("── /a/2026-11-29T232701Z-manual.md:8 "), "{a}");
    }

    // ---- ranking ----

    #[test]
    fn more_hits_rank_first_then_newer_compactions_then_later_messages() {
        let old =
            render_history(&[user(0, "kiwi"), user(1, "kiwi kiwi kiwi"), user(2, "kiwi"), user(3, "kiwi")], "manual");
        let new = render_history(&[user(0, "kiwi"), user(1, "kiwi kiwi")], "auto");
        let files = [file("2026-11-29T232701Z-manual.md", old), file("2026-11-30T080000Z-auto.md", new)];
        let heads = excerpt_heads(&search(&files, &q("kiwi")));
        assert_eq!(
            heads,
            [
                "2026-11-29T232701Z-manual.md:12 [1] user",
                "2026-11-30T080000Z-auto.md:12 [1] user",
                "2026-11-30T080000Z-auto.md:8 [0] user",
                "2026-11-29T232701Z-manual.md:20 [3] user",
                "2026-11-29T232701Z-manual.md:16 [2] user",
                "2026-11-29T232701Z-manual.md:8 [0] user",
            ]
        );
    }

    #[test]
    fn messages_with_more_of_the_words_rank_first() {
        let msgs = [user(0, "tern tern tern tern tern"), user(1, "the tern and the gannet"), user(2, "gannet gannet")];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let a = search(&files, &q("gannet TERN"));
        assert!(a.contains("1 of them hold every term"), "{a}");
        let heads = excerpt_heads(&a);
        assert!(
            heads[0].ends_with("[1] user") && heads[1].ends_with("[0] user") && heads[2].ends_with("[2] user"),
            "{a}"
        );
        // A phrase is one term.
        let p = search(&files, &q("\"the   TERN and\""));
        assert_eq!(count_before(&p, "hit"), 1, "{p}");
    }

    #[test]
    fn limit_caps_the_excerpts_not_the_count() {
        let msgs: Vec<Msg> = (0..30).map(|n| user(n, "plover")).collect();
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        let a = search(&files, &Query { limit: 3, ..q("plover") });
        assert_eq!(count_before(&a, "hit"), 30);
        assert_eq!(excerpt_heads(&a).len(), 3);
        assert!(a.contains("27 more messages with hits not shown (limit 3)"), "{a}");
    }

    // ---- Unicode ----

    #[test]
    fn non_ascii_text_is_found_in_any_case() {
        let msgs = [
            user(0, "日本語のテキストを検索する 🚀 rocket"),
            user(1, "Der ÄRGER mit Umlauten; ΣΊΣΥΦΟΣ"),
            user(2, "\u{212A}elvin and ſtop signs"),
            user(3, "emoji only 🦀🦀"),
        ];
        let files = [file("2026-11-29T232701Z-manual.md", render_history(&msgs, "manual"))];
        for (query, n) in
            [("テキスト", 0), ("ärger", 1), ("σίσυφος", 1), ("kelvin", 2), ("STOP", 2), ("🦀", 3), ("🚀 ROCKET", 0)]
        {
            let a = search(&files, &q(query));
            let heads = excerpt_heads(&a);
            assert_eq!(
                heads.first().map(String::as_str),
                Some(format!("2026-11-29T232701Z-manual.md:{} [{n}] user", 8 + 4 * n).as_str()),
                "{query}: {a}"
            );
        }
        assert_eq!(count_before(&search(&files, &q("🦀")), "hit"), 2);
    }

    /// The pre-scan may skip a line only where the regex finds nothing on it:
    /// a char it treats as matching only itself must have no case partner.
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
    fn the_pre_scan_changes_no_answer() {
        let text = big_history(0, 150, "manual");
        let mut extra = render_history(
            &[
                user(0, "\u{212A}ILN ſpan ＦＵＬＬ width Straße STRASSE İstanbul ǅungla ΣΊΣΥΦΟΣ ς"),
                user(1, "kiln span full straße istanbul džungla σίσυφοσ"),
            ],
            "auto",
        );
        extra.push_str("\n## [2] user\n\nline with no newline at the end: kiln");
        let files = [file("2026-11-29T232701Z-manual.md", text), file("2026-11-30T000000Z-auto.md", extra)];
        let run = |m: &Matcher, query: &Query| {
            let mut sources: Vec<Source> = files.iter().enumerate().map(|(i, (p, _))| Source::new(i, p)).collect();
            sources.sort_by(|a, b| (&a.key, a.part).cmp(&(&b.key, b.part)));
            let compactions: Vec<String> = sources.iter().map(|s| s.key.clone()).collect();
            let mut scan = Scan::default();
            for (order, s) in sources.iter().enumerate() {
                scan.stream = Stream::default();
                scan.file(order, order, &files[s.input].1, m, query);
            }
            render(&files, &sources, &compactions, scan, m, query)
        };
        let queries = [
            "kiln",
            "span",
            "full",
            "ＦＵＬＬ",
            "straße",
            "istanbul",
            "ǅungla",
            "σίσυφοσ",
            "ς",
            "osprey",
            "cargo test",
            "日本語",
            "\"error: the\" 42",
            "ks",
            "k s",
            "test tests",
            "e",
        ];
        for query in queries.map(q).iter().chain([Query { role: Some("tool".into()), ..q("failed") }].iter()) {
            let fast = Matcher::new(query).unwrap();
            // Cased letters outside ASCII give no key: those terms read every line.
            let keyless = ["ＦＵＬＬ", "σίσυφοσ", "ς"].contains(&query.text.as_str());
            assert_eq!(fast.keys.is_none(), keyless, "{}", query.text);
            let literal = fast.literals.is_some();
            let answer = search(&files, query);
            assert_eq!(answer, run(&fast, query), "{}", query.text);
            let prescan_only = Matcher { literals: None, ..Matcher::new(query).unwrap() };
            assert_eq!(answer, run(&prescan_only, query), "{}: literal count", query.text);
            let plain = Matcher { literals: None, keys: None, ..Matcher::new(query).unwrap() };
            assert_eq!(answer, run(&plain, query), "{}: pre-scan", query.text);
            assert_eq!(literal, !keyless && !query.text.contains(['"', 'ß', 'İ', 'ǅ']), "{}", query.text);
        }
    }

    // ---- long sessions ----

    /// A compaction's history of `count` messages: user asks, assistant answers
    /// with tool calls (Bash, Read, Edit) whose results run several lines, CJK
    /// and emoji in the text, one "osprey" in every Bash result.
    fn big_history(seed: u64, count: usize, trigger: &str) -> String {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut next = move |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let words = [
            "build",
            "the",
            "parser",
            "error:",
            "fix",
            "日本語",
            "テスト",
            "🚀",
            "cargo",
            "test",
            "Straße",
            "ünïcödé",
            "42",
            "src/main.rs",
            "ok",
            "failed",
        ];
        let mut sentence = |len: usize| -> String {
            (0..len).map(|_| words[next(words.len() as u64) as usize]).collect::<Vec<_>>().join(" ")
        };
        let mut msgs = Vec::new();
        for n in 0..count {
            if n % 2 == 0 {
                msgs.push(user(n, &sentence(12)));
            } else {
                let tools = vec![
                    bash(
                        &format!("cargo test -p crate{n}"),
                        &format!("running {n} tests\n{}\nosprey nest found\n{}", sentence(20), sentence(8)),
                    ),
                    Tool {
                        name: "Read",
                        error: false,
                        input: format!("{{\"file_path\":\"/src/f{n}.rs\"}}"),
                        result: Some(format!("{}\n{}", sentence(30), sentence(30))),
                    },
                    Tool {
                        name: "Edit",
                        error: n % 10 == 1,
                        input: format!("{{\"old\":\"{}\"}}", sentence(5)),
                        result: None,
                    },
                ];
                msgs.push(assistant(n, &format!("{}\n{}", sentence(15), sentence(10)), tools));
            }
        }
        render_history(&msgs, trigger)
    }

    fn big_session() -> Vec<(String, String)> {
        vec![
            file("2026-11-29T080000Z-auto.md", big_history(1, 1000, "auto")),
            file("2026-11-29T120000Z-manual.md", big_history(2, 1000, "manual")),
            file("2026-11-29T160000Z-auto.md", big_history(3, 800, "auto")),
            file("2026-11-29T160000Z-auto.part2.md", {
                let mut t = header("# Conversation before compaction, part 2 of 2", 2500, "auto").join("\n");
                t.push_str("\n## [801] assistant\n\nmore\n\n### tool Bash\ninput: {}\nresult:\nosprey again\n");
                t
            }),
            file("2026-11-30T090000Z-turn-end.md", big_history(4, 1200, "turn-end")),
        ]
    }

    #[test]
    fn thousands_of_hits_stay_within_the_bound_and_count_true() {
        let files = big_session();
        // One "osprey" per Bash result: every odd message, plus the part's one.
        let expected = 500 + 500 + 400 + 1 + 600;
        let a = search(&files, &q("osprey"));
        assert!(units(&a) <= MAX_ANSWER, "{} units", units(&a));
        assert_eq!(count_before(&a, "hit"), expected, "{}", a.lines().next().unwrap());
        assert_eq!(count_before(&a, "message"), expected);
        assert_eq!(count_before(&a, "compaction"), 4);
        // All tie on one hit: the newest compaction's last message leads.
        let lead = excerpt_heads(&a).first().cloned().unwrap_or_default();
        assert!(lead.starts_with("2026-11-30T090000Z-turn-end.md:") && lead.ends_with(" [1199] assistant"), "{a}");
        assert!(a.contains(&format!("{} more messages with hits not shown", expected - DEFAULT_LIMIT)), "{a}");

        // Common words in every line, the widest limit, CJK and emoji in
        // every excerpt: still within the bound, cut at a whole excerpt.
        let wide = search(&files, &Query { limit: MAX_LIMIT, ..q("the 日本語 🚀 テスト") });
        assert!(units(&wide) <= MAX_ANSWER, "{} units", units(&wide));
        assert!(units(&wide) > MAX_ANSWER - 2000, "{} units", units(&wide));
        assert!(wide.contains(&format!("the answer stops at {MAX_ANSWER} characters")), "{wide}");
        assert!(count_before(&wide, "hit") > 20_000, "{}", wide.lines().next().unwrap());
        let r = search(&files, &Query { regex: true, limit: MAX_LIMIT, ..q(r"running \d+ tests") });
        assert!(units(&r) <= MAX_ANSWER);
        assert_eq!(count_before(&r, "hit"), 500 + 500 + 400 + 600);
    }

    #[test]
    fn the_answer_is_the_same_whatever_order_the_files_come_in() {
        let files = vec![
            file("2026-11-29T080000Z-auto.md", big_history(5, 300, "auto")),
            file("2026-11-29T080000Z-auto.part2.md", big_history(6, 100, "auto")),
            file("2026-11-29T120000Z-manual.md", big_history(7, 300, "manual")),
        ];
        let mut reversed = files.clone();
        reversed.reverse();
        for query in [q("osprey"), q("cargo 42"), Query { role: Some("tool".into()), ..q("failed") }] {
            let a = search(&files, &query);
            assert_eq!(a, search(&reversed, &query));
            assert_eq!(a, search(&files, &query));
        }
    }

}
