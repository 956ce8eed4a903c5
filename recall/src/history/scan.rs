//! One history part at a time into the tallies of its messages: each line a
//! hit can be on is found by its literals, counted, and the message it is in
//! kept among the best while its excerpt can still be cut from the part.

use compact_plus::recall_tool::{self, Query, Role};

use crate::order;
use crate::rank::Best;
use crate::terms::{Terms, ODD_CHARS};

/// Hit lines remembered per message to point at beyond the excerpt.
const OTHER_LINES: usize = 6;
/// Lines shown each side of the hit line.
pub(super) const CONTEXT_LINES: usize = 2;

/// One history part, named the way `history::part_file` names parts:
/// `<stamp>-<trigger>.md`, then `<stamp>-<trigger>.part<k>.md`.
pub(super) struct Part {
    pub path: String,
    pub name: String,
    /// The compaction the part belongs to: its name without part and `.md`.
    /// Stamps sort by time, so keys do too.
    pub key: String,
    pub part: usize,
}

impl Part {
    fn new(path: &str) -> Part {
        let name = base_name(path).to_owned();
        let stem = name.strip_suffix(".md").unwrap_or(&name);
        let (key, part) = match stem.rsplit_once(".part") {
            Some((k, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                (k.to_owned(), n.parse::<usize>().unwrap_or(usize::MAX))
            }
            _ => (stem.to_owned(), 1),
        };
        Part { path: path.to_owned(), name, key, part }
    }
}

pub(super) fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `## [n] role` or `## [n] role (continued)`.
pub(super) fn message_heading(line: &str) -> Option<(usize, &str, bool)> {
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

/// Where the best hit line of a message is, and the lines around it.
pub(super) struct Spot {
    /// The part (its place in the reading order) and the line's 1-based number.
    pub file: usize,
    pub line: usize,
    pub terms: u32,
    /// The line is the conversation's own, not inside the recall tool's call.
    pub own: bool,
    pub tool: Option<String>,
    /// The window: `(is the hit line, text)`, in file order.
    pub window: Vec<(bool, String)>,
    /// The number of the window's first line.
    pub first_line: usize,
}

/// A message's hits so far.
pub(super) struct Found {
    pub compaction: usize,
    pub n: usize,
    pub role: String,
    pub hits: usize,
    pub terms: u32,
    pub hit_lines: usize,
    /// Some hit is the conversation's own (not in a recall tool call).
    pub own: bool,
    pub best: Option<Spot>,
    /// Further hit lines, `(part, line)`, the first few.
    pub others: Vec<(usize, usize)>,
}

/// How found messages rank: the conversation's own first, then more of the
/// terms, more hits, the newer compaction, the later message.
type FoundRank = (bool, u32, usize, usize, usize);

/// The search of one session's history parts, fed one part at a time.
pub struct HistoryScan {
    pub(super) terms: Terms,
    pub(super) query: Query,
    /// The parts in reading order.
    pub(super) parts: Vec<Part>,
    /// The compactions' keys, oldest first.
    pub(super) compactions: Vec<String>,
    /// The message being read: its compaction, slot and tool section.
    current: Option<Found>,
    tool: Option<String>,
    pub(super) best: Best<FoundRank, Found>,
    pub(super) hits: usize,
    pub(super) messages: usize,
    /// Messages holding every term.
    pub(super) every: usize,
    /// The compactions with a hit.
    pub(super) hit_compactions: Vec<usize>,
    pub(super) unread: usize,
}

impl HistoryScan {
    pub fn new(terms: Terms, query: Query, paths: &[String]) -> HistoryScan {
        let parts: Vec<Part> =
            paths.iter().filter(|p| recall_tool::is_history_file(base_name(p))).map(|p| Part::new(p)).collect();
        let parts = order::sorted_by(parts, |a, b| (&a.key, a.part, &a.name).cmp(&(&b.key, b.part, &b.name)));
        let mut compactions: Vec<String> = parts.iter().map(|s| s.key.clone()).collect();
        compactions.dedup();
        let limit = query.limit.clamp(1, recall_tool::MAX_LIMIT);
        HistoryScan {
            terms,
            query,
            parts,
            compactions,
            current: None,
            tool: None,
            best: Best::new(limit),
            hits: 0,
            messages: 0,
            every: 0,
            hit_compactions: Vec::new(),
            unread: 0,
        }
    }

    /// The parts to read, in order: `(k, path)`.
    pub fn reading_order(&self) -> Vec<(usize, String)> {
        self.parts.iter().enumerate().map(|(k, p)| (k, p.path.clone())).collect()
    }

    /// Part `k` could not be read.
    pub fn unread(&mut self, k: usize) {
        self.unread += 1;
        self.compaction_starts(k);
    }

    /// A part of another compaction than the last ends the message being read.
    fn compaction_starts(&mut self, k: usize) -> usize {
        let key = self.parts.get(k).map_or("", |p| p.key.as_str());
        let compaction = self.compactions.binary_search_by(|c| c.as_str().cmp(key)).unwrap_or(0);
        if self.current.as_ref().is_some_and(|m| m.compaction != compaction) {
            self.finish_message();
            self.tool = None;
        }
        compaction
    }

    fn finish_message(&mut self) {
        let Some(m) = self.current.take() else { return };
        if m.hits == 0 {
            return;
        }
        self.messages += 1;
        if m.terms & self.terms.all() == self.terms.all() {
            self.every += 1;
        }
        if !self.hit_compactions.contains(&m.compaction) {
            self.hit_compactions.push(m.compaction);
        }
        let rank = (m.own, m.terms.count_ones(), m.hits, m.compaction, m.n);
        self.best.offer(rank, m);
    }

    /// Reads part `k`, whose text is `text`.
    pub fn part(&mut self, k: usize, text: &str) {
        let compaction = self.compaction_starts(k);
        let lowered = self.terms.keys.as_ref().map(|_| text.to_ascii_lowercase());
        let low = lowered.as_deref().unwrap_or("");
        let keys: Vec<String> = self.terms.keys.iter().flatten().cloned().collect();
        let mut keys: Vec<Cursor> = keys.iter().map(|k| Cursor::new(k, low)).collect();
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
                let same = self.current.as_ref().is_some_and(|m| m.n == n && m.compaction == compaction);
                if !(continued && same) {
                    self.finish_message();
                    self.tool = None;
                    self.current = Some(Found {
                        compaction,
                        n,
                        role: role.to_owned(),
                        hits: 0,
                        terms: 0,
                        hit_lines: 0,
                        own: false,
                        best: None,
                        others: Vec::new(),
                    });
                }
                continue;
            }
            if header || line.is_empty() || self.current.is_none() {
                continue;
            }
            if let Some(tool) = tool_heading(line) {
                self.tool = Some(tool.to_owned());
            }
            if let Some(role) = self.query.role {
                let here = match &self.tool {
                    Some(_) => Role::Tool.as_str(),
                    None => self.current.as_ref().map_or("", |m| m.role.as_str()),
                };
                if here != role.as_str() {
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
            let (count, terms) = self.terms.hits(line, low.get(line_start..end), is_odd);
            if count == 0 {
                continue;
            }
            self.hits += count;
            let own = !self.tool.as_deref().is_some_and(is_recall_call);
            let tool = self.tool.clone();
            let Some(msg) = self.current.as_mut() else { continue };
            msg.hits += count;
            msg.terms |= terms;
            msg.hit_lines += 1;
            msg.own |= own;
            // The line holding the most terms leads the excerpt (the
            // conversation's own before the recall tool's); the first such
            // line on a tie.
            let better = msg.best.as_ref().is_none_or(|b| (own, terms.count_ones()) > (b.own, b.terms.count_ones()));
            if !better {
                if msg.others.len() < OTHER_LINES {
                    msg.others.push((k, i + 1));
                }
                continue;
            }
            if let Some(b) = &msg.best {
                if msg.others.len() < OTHER_LINES {
                    msg.others.push((b.file, b.line));
                }
            }
            let (window, first_line) = window(text, line_start, i + 1);
            msg.best = Some(Spot { file: k, line: i + 1, terms, own, tool, window, first_line });
        }
    }

    /// Every part read: the last message counted.
    pub fn finish(mut self) -> HistoryScan {
        self.finish_message();
        self
    }
}

/// A `### tool` heading of the recall tool itself (maybe `(error)`).
fn is_recall_call(tool: &str) -> bool {
    recall_tool::is_recall(tool)
}

/// The hit line (starting at byte `start`, numbered `line`) and up to
/// `CONTEXT_LINES` each side, kept inside its message: a message heading ends
/// the window. `(is the hit line, text)` in file order, and the number of the
/// first.
fn window(text: &str, start: usize, line: usize) -> (Vec<(bool, String)>, usize) {
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
        let l = line_at(prev_start);
        if message_heading(l).is_some() {
            break;
        }
        before.push(l);
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
        let l = line_at(s);
        if message_heading(l).is_some() {
            break;
        }
        lines.push((false, l));
        after += 1;
    }
    let first = line.saturating_sub(lines.iter().position(|(hit, _)| *hit).unwrap_or(0));
    // Blank lines at either end say nothing.
    while lines.last().is_some_and(|(hit, l)| !hit && l.trim().is_empty()) {
        lines.pop();
    }
    let lead = lines.iter().take_while(|(hit, l)| !hit && l.trim().is_empty()).count();
    lines.drain(..lead);
    (lines.into_iter().map(|(hit, l)| (hit, l.to_owned())).collect(), first + lead)
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
