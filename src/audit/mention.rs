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

/// One identifier and how the conversation used it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub kind: Kind,
    pub text: String,
    pub count: u32,
    /// Ordinal of the latest mention in conversation order: larger is more recent.
    pub last: u64,
    /// Index in the messages list of the latest mention.
    pub message: usize,
}

/// Most mentioned first, then most recent, then by kind and text so ties never
/// depend on hashing.
fn rank(a: &Mention, b: &Mention) -> Ordering {
    b.count
        .cmp(&a.count)
        .then(b.last.cmp(&a.last))
        .then(a.kind.cmp(&b.kind))
        .then_with(|| a.text.cmp(&b.text))
}

#[derive(Debug, Clone, Copy)]
struct Tally {
    count: u32,
    last: u64,
    message: usize,
}

/// The identifiers of a conversation, each with its count and latest position.
#[derive(Debug, Default)]
pub struct Mentions {
    by_kind: [HashMap<String, Tally, FastHash>; 6],
    seq: u64,
pub(crate) message: usize,
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
        all.sort_by(rank);
        all
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
        self.seq += 1;
        let tally = Tally { count: 1, last: self.seq, message: self.message };
        let Some(map) = self.by_kind.get_mut(kind.slot()) else { return };
        match map.get_mut(ident) {
            Some(t) => {
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
                map.insert(m.text, Tally { count: m.count, last: m.last, message: m.message });
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
    Mention { kind, text: text.to_owned(), count: t.count, last: t.last, message: t.message }
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
