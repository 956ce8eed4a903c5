//! What a compaction saves beside its summary, whoever writes the summary (the
//! engine's summarizer in `session_compact`, compact-plus's own in `rescue`):
//! the history, the person's words, and what the block after the summary
//! checks the summary against. Both import it; neither imports the other.

use super::host::{debug, error_text};
use super::protocol::{Call, Host, Notice};
use super::state::Session;
use crate::audit;
use crate::compaction::verbatim;
use crate::steer::{
    self,
    receipt::{Receipt, Redactions, Rescue, Written},
};
use std::cell::RefCell;

/// Before `next`, the history folder and the person's words (the handoff
/// instructions name both); while `next` runs, the history written and the
/// identifiers the audit will look for in the summary.
pub(super) struct Saved {
    pub(super) dir: Option<String>,
    /// The first history part that was written.
    pub(super) file: Option<String>,
    pub(super) parts: usize,
    pub(super) verbatim: Vec<verbatim::Entry>,
    /// The person's messages the verbatim block chose from (the receipt's
    /// "left out by the budget" is the rest).
    pub(super) considered: usize,
    /// The conversation's identifiers, collected while the summarizer works.
    pub(super) mentions: Option<audit::Mentions>,
    /// What the conversation did (failures, commits, todos, files), read with the history.
    pub(super) record: Option<crate::record::Record>,
    /// The history's size in bytes, all parts.
    pub(super) bytes: usize,
    /// What redaction replaced on the way to disk and into the blocks.
    pub(super) redacted: RefCell<Redactions>,
}

impl Saved {
    /// The person's pins for the block with their words: those `context` (the
    /// messages kept, the words) does not hold word for word already, and how
    /// many it does hold.
    pub(super) async fn pins(&self, host: &Host, context: &[&str]) -> (Vec<String>, usize) {
        let Some(dir) = &self.dir else { return (Vec::new(), 0) };
        steer::pins::shown(&super::pins::load(host, dir).await, context)
    }

    /// The receipt's lines for the person (none with the option off): `chosen`
    /// of the person's messages kept, `listed` items the summary dropped,
    /// `pins` kept, and who compacted where the engine's compaction failed.
    pub(super) fn receipt(&self, session: &Session, chosen: usize, listed: usize, pins: usize, rescue: Option<Rescue>) -> Notice {
        if !session.options.receipt {
            return Vec::new();
        }
        let saved = match &self.file {
            Some(path) => Written::File { path: path.clone(), bytes: self.bytes, parts: self.parts },
            None => Written::Nowhere,
        };
        let redacted = self.redacted.take();
        let words_left_out = self.considered.saturating_sub(chosen);
        Receipt { saved, words_kept: chosen, words_left_out, listed, redacted, pins, rescue }.lines(self.dir.as_deref())
    }
}

/// The summary row's text, redacted, as `<history file>.summary.md`: a later
/// session's project recall finds what this compaction concluded. A failed
/// write costs only that.
pub(super) async fn save_summary(host: &Host, session: &Session, file: &str, summary: &str) {
    let path = format!("{}.summary.md", file.strip_suffix(".md").unwrap_or(file));
    let text = session.clean(summary);
    if text.trim().is_empty() {
        return;
    }
    if let Err(err) = host.call(Call::Write { path, text }).await {
        debug(host, &format!("compact-plus: the summary was not saved: {}", error_text(&err))).await;
    }
}
