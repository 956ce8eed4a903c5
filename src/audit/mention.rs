//! What the audit found: each identifier with its kind, how often the conversation named it
//! and when last, in a table that stays bounded however much a session prints.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::MAX_TRACKED;
use super::hash::FastHash;

/// An error line of 160 UTF-16 units is at most 480 bytes.
const MAX_NOTED_BYTES: usize = 640;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Path,
    Sha,
    Url,
    Error,
    Branch,
    Quoted,
}

impl Kind {
    const ALL: [Kind; 6] = [Kind::Path, Kind::Sha, Kind::Url, Kind::Error, Kind::Branch, Kind::Quoted];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Path => "path",
            Kind::Sha => "commit",
            Kind::Url => "url",
            Kind::Error => "error",
            Kind::Branch => "branch",
            Kind::Quoted => "quoted",
        }
    }

    fn slot(self) -> usize {
        match self {
            Kind::Path => 0,
            Kind::Sha => 1,
            Kind::Url => 2,
            Kind::Error => 3,
            Kind::Branch => 4,
            Kind::Quoted => 5,
        }
    }
}

/// Who put an identifier into the conversation. What the person or the assistant named is what
/// the work was about; a tool's input is what the work used; a tool's output is what the work
/// happened to print, where one build log names hundreds of files nobody asked about. Ordered:
/// the smaller ranks first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// The person's or the assistant's own text.
    #[default]
    Named,
    /// A tool's input: a path given to Read or Edit, a command run.
    Used,
    /// A tool's result.
    Seen,
}

/// One identifier and how the conversation used it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub kind: Kind,
    pub text: String,
    /// The most telling place it came from.
    pub source: Source,
    pub count: u32,
    /// Ordinal of the latest mention in conversation order: larger is more recent.
    pub last: u64,
    /// Index in the messages list of the latest mention.
    pub message: usize,
}

/// Named by the person or the assistant first, then used by a tool, then printed; within
/// each, most mentioned first, then most recent, then by kind and text so ties never depend on
/// hashing.
fn rank(a: &Mention, b: &Mention) -> Ordering {
    a.source
        .cmp(&b.source)
        .then(b.count.cmp(&a.count))
        .then(b.last.cmp(&a.last))
        .then(a.kind.cmp(&b.kind))
        .then_with(|| a.text.cmp(&b.text))
}

#[derive(Debug, Clone, Copy)]
struct Tally {
    source: Source,
    count: u32,
    last: u64,
    message: usize,
}

/// The identifiers of a conversation, each with its count and latest position.
#[derive(Debug, Default)]
pub struct Mentions {
    by_kind: [HashMap<String, Tally, FastHash>; 6],
    seq: u64,
    /// Index in the messages list of the text being scanned.
    pub(crate) message: usize,
    /// Who wrote the text being scanned.
    pub(crate) source: Source,
    gate: Gate,
}

/// What the text being scanned may add: only identifiers the history file holds by their exact
/// text, and from one tool result only a few of each kind.
#[derive(Debug, Default)]
struct Gate {
    /// The text as the history keeps it, when the scanned text is not that text (a tool input
    /// read as JSON but kept cut, a text read without its colour codes): an identifier is noted
    /// only if it appears there.
    within: Option<String>,
    /// At most this many distinct identifiers of each kind; `None` for no limit.
    per_kind: Option<usize>,
    /// The identifiers this text has noted so far, and how many of each kind.
    noted: Vec<(Kind, String)>,
    counts: [usize; 6],
}

impl Mentions {
    pub fn len(&self) -> usize {
        self.by_kind.iter().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, kind: Kind, text: &str) -> Option<Mention> {
        self.by_kind.get(kind.slot())?.get(text).map(|t| mention(kind, text, t))
    }

    /// Every identifier, best ranked first.
    pub fn ranked(&self) -> Vec<Mention> {
        let mut all: Vec<Mention> = Kind::ALL
            .iter()
            .flat_map(|&kind| {
                self.by_kind
                    .get(kind.slot())
                    .into_iter()
                    .flat_map(move |m| m.iter().map(move |(text, t)| mention(kind, text, t)))
            })
            .collect();
        // `rank` ends on (kind, text), which no two mentions share: no ties, so the unstable
        // sort gives the stable one's order, with one sort less in the .wasm.
        all.sort_unstable_by(rank);
        all
    }

    /// From here on, note only what appears in `kept` (see [`Gate::within`]). An earlier
    /// `within` stays: it is the outer text, and what is not in it is not in the history.
    pub(crate) fn only_within(&mut self, kept: &str) -> bool {
        if self.gate.within.is_some() {
            return false;
        }
        self.gate.within = Some(kept.to_owned());
        true
    }

    pub(crate) fn any_text(&mut self) {
        self.gate.within = None;
    }

    /// From here on, at most `per_kind` distinct identifiers of each kind, until [`Self::no_limit`].
    pub(crate) fn limit(&mut self, per_kind: usize) {
        self.gate.per_kind = Some(per_kind);
        self.gate.noted.clear();
        self.gate.counts = [0; 6];
    }

    pub(crate) fn no_limit(&mut self) {
        self.gate.per_kind = None;
        self.gate.noted.clear();
    }

    /// Whether the gate lets `ident` in.
    fn admits(&mut self, kind: Kind, ident: &str) -> bool {
        let gate = &mut self.gate;
        if let Some(cap) = gate.per_kind {
            if !gate.noted.iter().any(|(k, t)| *k == kind && t == ident) {
                let Some(n) = gate.counts.get_mut(kind.slot()) else { return false };
                if *n >= cap {
                    return false;
                }
                if gate.within.as_deref().is_some_and(|w| !w.contains(ident)) {
                    return false;
                }
                *n += 1;
                gate.noted.push((kind, ident.to_owned()));
            }
            return true;
        }
        gate.within.as_deref().is_none_or(|w| w.contains(ident))
    }

    pub(crate) fn note(&mut self, kind: Kind, ident: &str) {
        const VERBATIM_TAG: &str = "user-messages-verbatim>";
        if ident.is_empty() || ident.len() > MAX_NOTED_BYTES {
            return;
        }
        // A listed line must never open or close a verbatim block: the next
        // compaction looks for those tags in the summary row.
        if ident.len() >= VERBATIM_TAG.len() && holds_verbatim_tag(ident.as_bytes()) {
            return;
        }
        if !self.admits(kind, ident) {
            return;
        }
        self.seq += 1;
        let tally = Tally { source: self.source, count: 1, last: self.seq, message: self.message };
        let Some(map) = self.by_kind.get_mut(kind.slot()) else { return };
        match map.get_mut(ident) {
            Some(t) => {
                t.source = t.source.min(tally.source);
                t.count = t.count.saturating_add(1);
                t.last = tally.last;
                t.message = tally.message;
            }
            None => {
                map.insert(ident.to_owned(), tally);
                if self.len() > 2 * MAX_TRACKED {
                    self.prune(MAX_TRACKED);
                }
            }
        }
    }

    /// Keeps the `keep` best ranked identifiers.
    pub(crate) fn prune(&mut self, keep: usize) {
        let ranked = self.ranked();
        for map in &mut self.by_kind {
            map.clear();
        }
        for m in ranked.into_iter().take(keep) {
            if let Some(map) = self.by_kind.get_mut(m.kind.slot()) {
                map.insert(m.text, Tally { source: m.source, count: m.count, last: m.last, message: m.message });
            }
        }
    }
}

/// `contains("user-messages-verbatim>")`, found from its `>`: no searcher to set up per identifier.
fn holds_verbatim_tag(b: &[u8]) -> bool {
    const TAG: &[u8] = b"user-messages-verbatim>";
    b.iter().enumerate().any(|(i, &c)| c == b'>' && b.get(..=i).is_some_and(|h| h.ends_with(TAG)))
}

fn mention(kind: Kind, text: &str, t: &Tally) -> Mention {
    Mention { kind, text: text.to_owned(), source: t.source, count: t.count, last: t.last, message: t.message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracked_identifiers_are_bounded() {
        let mut m = Mentions::default();
        for _ in 0..5 {
            m.note(Kind::Path, "/keep/me.rs");
        }
        for i in 0..(2 * MAX_TRACKED + 5) {
            m.note(Kind::Sha, &format!("{i:x}abcdef0"));
        }
        assert!(m.len() <= 2 * MAX_TRACKED, "{}", m.len());
        assert_eq!(m.get(Kind::Path, "/keep/me.rs").map(|x| x.count), Some(5));
        // The newest survive a prune.
        assert!(m.get(Kind::Sha, &format!("{:x}abcdef0", 2 * MAX_TRACKED + 4)).is_some());
    }
}
