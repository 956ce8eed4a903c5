//! A search of this project's earlier sessions, one read at a time.
//!
//! A line is tested for the query's literals before anything else (`find`); a
//! line that can hit is read as its tool's row, its text redacted, and tested
//! again on the redacted text, so a query never finds a credential and nothing
//! unredacted is kept. Only the best messages are kept, each with its excerpt.
//! The person's and the assistant's own words rank above the recall tool's
//! earlier calls and answers: an earlier answer is never the top hit for what
//! it quoted.

use std::cmp::Reverse;

use compact_plus::recall_tool::{Query, MAX_LIMIT};
use compact_plus::redact::redact;

use super::reader::{each_line, skipped_line, Reader, Skipped};
use crate::find::{newlines, Finder};
use crate::formats::{read_line, Detail, Line, Utterance, Speaker};
use crate::lines::{Joined, Whole, MAX_LINE_BYTES};
use crate::rank::Best;
use crate::terms::{TextHits, Terms};
use crate::text::{clip, date_of, date_of_ms, iso_of_ms, plural, Budget};
use crate::walk::{Recorder, SessionFile};

/// What one message keeps of its text, redacted, for the search.
pub const MESSAGE_CHARS: usize = 32 * 1024;
/// Lines shown each side of the best hit line.
const CONTEXT_LINES: usize = 2;

/// A message kept for the answer.
struct Excerpt {
    tool: &'static str,
    session: String,
    when: String,
    n: usize,
    speaker: Speaker,
    hits: usize,
    lines: usize,
    /// The lines shown, marked, cut.
    excerpt: String,
}

/// The conversation's own first, more terms, more hits, the newer session,
/// the later message.
type ExcerptRank = (bool, u32, usize, Reverse<usize>, usize);

pub struct ProjectSearch {
    terms: Terms,
    query: Query,
    cwd: String,
    /// The literals a raw JSON line holds where it can hit; `None`: every line can.
    needles: Option<Vec<String>>,
    finder: Option<Finder>,
    /// A line holding a literal is tested whole before it is read as a row:
    /// exact where every term is a literal JSON writes as it is.
    pretest: bool,
    best: Best<ExcerptRank, Excerpt>,
    hits: usize,
    messages: usize,
    every: usize,
    sessions_hit: Vec<usize>,
    skipped: Skipped,
    /// The session being read, its place in the reading order, and its lines.
    session: Option<String>,
    order: usize,
    searched: usize,
    lines: usize,
    summaries: usize,
    summary: String,
}

impl ProjectSearch {
    pub fn new(terms: Terms, query: Query, cwd: &str) -> ProjectSearch {
        let needles = terms.needles(true);
        let pretest = terms.literals.is_some() && needles.is_some() && terms.needles(false) == needles;
        let limit = query.limit.clamp(1, MAX_LIMIT);
        ProjectSearch {
            terms,
            query,
            cwd: cwd.to_owned(),
            needles,
            finder: None,
            pretest,
            best: Best::new(limit),
            hits: 0,
            messages: 0,
            every: 0,
            sessions_hit: Vec::new(),
            skipped: Skipped::default(),
            session: None,
            order: 0,
            searched: 0,
            lines: 0,
            summaries: 0,
            summary: String::new(),
        }
    }

    /// Whether a line holds one of the literals (a line the reads joined).
    fn may_hit(&self, line: &str) -> bool {
        match &self.needles {
            Some(needles) => Finder::new(needles, line.as_bytes()).lines(line.as_bytes()).next().is_some(),
            None => self.terms.line_hits(line),
        }
    }

    /// One line of a session's record that can hit, numbered `n`.
    fn row(&mut self, file: &SessionFile, n: usize, line: &str) {
        if self.pretest && !self.terms.line_hits(line) {
            return;
        }
        match read_line(file.format, line, Detail::Full, &self.cwd) {
            Line::Utterance(said) => self.message(file, n, said),
            Line::Compaction { ts, summary: Some(text) } => {
                self.message(file, n, Utterance { speaker: Speaker::Summary, ts: ts.into(), text: text.into(), from_recall: false })
            }
            Line::Other => self.skipped.other += 1,
            Line::Malformed => self.skipped.malformed += 1,
            Line::Compaction { .. } | Line::Title(_) | Line::Start { .. } | Line::Elsewhere => {}
        }
    }

    fn message(&mut self, file: &SessionFile, n: usize, said: Utterance) {
        if self.query.role.is_some_and(|r| !said.speaker.is(r)) || said.text.trim().is_empty() {
            return;
        }
        let text = crate::text::cut_chars(&redact(&said.text), MESSAGE_CHARS);
        let Some(tally) = self.terms.scan_text(&text) else { return };
        self.hits += tally.hits;
        self.messages += 1;
        if tally.terms & self.terms.all() == self.terms.all() {
            self.every += 1;
        }
        if !self.sessions_hit.contains(&self.order) {
            self.sessions_hit.push(self.order);
        }
        let rank = (!said.from_recall, tally.terms.count_ones(), tally.hits, Reverse(self.order), n);
        if !self.best.would_keep(&rank) {
            return;
        }
        let when = if said.ts.is_empty() { date_of_ms(file.mtime_ms) } else { date_of(&said.ts) };
        let hit = Excerpt {
            tool: file.format.tool(),
            session: file.session.clone(),
            when,
            n,
            speaker: said.speaker,
            hits: tally.hits,
            lines: tally.lines,
            excerpt: excerpt(&text, tally, &self.terms),
        };
        self.best.offer(rank, hit);
    }

    pub fn answer(self) -> String {
        let role = self.query.role.map_or(String::new(), |r| format!(", role {}", r.as_str()));
        let skipped = skipped_line(&self.skipped);
        if self.messages == 0 {
            return format!(
                "recall: no hits for {}{role} in {} earlier session{} of this project.{skipped} Try other or fewer words, or call without a query to list the sessions.",
                self.terms.describe(),
                self.searched,
                plural(self.searched),
            );
        }
        let every = if self.terms.terms.len() > 1 {
            format!(" {} of them hold every term; more terms rank first, then more hits, then newer", self.every)
        } else {
            " More hits rank first, then newer".to_owned()
        };
        let mut out = Budget::default();
        let in_sessions = self.sessions_hit.len();
        out.push(&format!(
            "recall: {} hit{} in {} message{} of {} earlier session{} (of {} searched) for {}{role}.{every} (a hit in the recall tool's own earlier calls last).{skipped}\nRead a message in full: recall with scope \"project\", its session and message (the number shown: its line in the session's record; offset to go on).\n",
            self.hits,
            plural(self.hits),
            self.messages,
            plural(self.messages),
            in_sessions,
            plural(in_sessions),
            self.searched,
            self.terms.describe(),
        ));
        let mut shown = 0;
        for hit in self.best.into_items() {
            let head = format!(
                "\n── {} · session {} · {} · message {} ({}) · {} hit{}\n",
                hit.tool,
                hit.session,
                hit.when,
                hit.n,
                hit.speaker.as_str(),
                hit.hits,
                plural(hit.hits)
            );
            let lines = if hit.lines > 1 { format!("  ({} lines of this message hit)\n", hit.lines) } else { String::new() };
            let text = format!("{head}{}{lines}", hit.excerpt);
            if !out.fits(&text, 200) {
                break;
            }
            out.push(&text);
            shown += 1;
        }
        let rest = self.messages - shown;
        if rest > 0 {
            out.push(&format!(
                "\n{rest} more message{} with hits not shown; narrow the query (more words, a role, a session) or raise limit.",
                plural(rest)
            ));
        }
        out.finish()
    }
}

impl Reader for ProjectSearch {
    fn start(&mut self, file: &SessionFile) -> bool {
        if self.session.as_deref() != Some(file.session.as_str()) {
            self.session = Some(file.session.clone());
            self.order += 1;
            self.searched += 1;
            self.lines = 0;
            self.summaries = 0;
        }
        true
    }

    fn lines(&mut self, file: &SessionFile, whole: Whole) {
        if file.format == Recorder::Summary {
            each_line(&whole, |line| {
                if let Some(l) = line {
                    self.summary.push_str(l);
                    self.summary.push('\n');
                }
            });
            return;
        }
        match whole.joined {
            Some(Joined::Line(ref l)) => {
                self.lines += 1;
                let n = self.lines;
                if self.may_hit(l) {
                    self.row(file, n, l);
                }
            }
            Some(Joined::Huge) => {
                self.lines += 1;
                self.skipped.huge += 1;
            }
            None => {}
        }
        let body = whole.body.as_bytes();
        let base = self.lines;
        // The body's lines: every newline, and a last line the file ends without one.
        let last = usize::from(!body.is_empty() && !body.ends_with(b"\n"));
        let Some(needles) = &self.needles else {
            for (i, line) in whole.body.split_terminator('\n').enumerate() {
                if line.len() > MAX_LINE_BYTES {
                    self.skipped.huge += 1;
                } else if self.terms.line_hits(line) {
                    self.row(file, base + i + 1, line);
                }
            }
            self.lines = base + newlines(body) + last;
            return;
        };
        let finder = self.finder.get_or_insert_with(|| Finder::new(needles, body));
        let found: Vec<(usize, usize)> = finder.lines(body).collect();
        // Line numbers: the newlines before each line found, each counted once.
        let (mut at, mut before) = (0, 0);
        for (start, end) in found {
            before += newlines(body.get(at..start).unwrap_or(&[]));
            at = start;
            let Some(line) = whole.body.get(start..end) else { continue };
            if line.len() > MAX_LINE_BYTES {
                self.skipped.huge += 1;
                continue;
            }
            self.row(file, base + before + 1, line);
        }
        self.lines = base + before + newlines(body.get(at..).unwrap_or(&[])) + last;
    }

    fn end(&mut self, file: &SessionFile, unread: bool) {
        if unread {
            self.skipped.unreadable_files += 1;
        }
        if file.format == Recorder::Summary {
            let text = std::mem::take(&mut self.summary);
            self.summaries += 1;
            let n = self.lines + self.summaries;
            let said = Utterance { speaker: Speaker::Summary, ts: iso_of_ms(file.mtime_ms).into(), text: text.into(), from_recall: false };
            self.message(file, n, said);
        }
    }
}

/// The hit lines of a message and `CONTEXT_LINES` around the best, marked.
fn excerpt(text: &str, tally: TextHits, terms: &Terms) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let from = tally.best.saturating_sub(CONTEXT_LINES);
    let to = (tally.best + CONTEXT_LINES + 1).min(lines.len());
    let mut out = String::new();
    for line in lines.get(from..to).unwrap_or(&[]) {
        let hit = terms.first_hit(line);
        if line.trim().is_empty() && hit.is_none() {
            continue;
        }
        let mark = if hit.is_some() { '>' } else { ' ' };
        out.push_str(&format!("{mark} {}\n", clip(line, hit)));
    }
    out
}
