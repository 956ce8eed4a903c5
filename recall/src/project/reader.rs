//! What a call does with the lines it reads, one read at a time, and the
//! lines it skips.

use crate::lines::{Joined, Whole, MAX_LINE_BYTES};
use crate::text::plural;
use crate::walk::SessionFile;

/// What a call wants done with the lines it reads.
pub trait Reader {
    /// `file` is about to be read; `false` skips it (a message read in full
    /// reads one session).
    fn start(&mut self, file: &SessionFile) -> bool;
    /// One read of `file`: the whole lines it holds.
    fn lines(&mut self, file: &SessionFile, whole: Whole);
    /// `file` is read as far as it could be; `unread` when a read failed.
    fn end(&mut self, file: &SessionFile, unread: bool);
    /// It has all it needs: no more reads.
    fn full(&self) -> bool {
        false
    }
}

/// Lines skipped, by why.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Skipped {
    pub malformed: usize,
    pub huge: usize,
    /// Rows of kinds not read: progress, sidechain, reasoning, snapshots, meta, events.
    pub other: usize,
    pub unreadable_files: usize,
}

/// Each line of a read, in order: the joined one, then the body's.
pub fn each_line<'w>(whole: &'w Whole, mut f: impl FnMut(Option<&'w str>)) {
    match &whole.joined {
        Some(Joined::Line(l)) => f(Some(l)),
        Some(Joined::Huge) => f(None),
        None => {}
    }
    for line in whole.body.split_terminator('\n') {
        f((line.len() <= MAX_LINE_BYTES).then_some(line));
    }
}

/// ` Skipped: …` for the answer's first line, or nothing.
pub fn skipped_line(skipped: &Skipped) -> String {
    let mut parts = Vec::new();
    if skipped.malformed > 0 {
        parts.push(format!("{} malformed line{}", skipped.malformed, plural(skipped.malformed)));
    }
    if skipped.huge > 0 {
        parts.push(format!("{} line{} over {} MiB", skipped.huge, plural(skipped.huge), MAX_LINE_BYTES >> 20));
    }
    if skipped.other > 0 {
        parts.push(format!(
            "{} row{} of other kinds (subagents, reasoning, snapshots, events)",
            skipped.other,
            plural(skipped.other)
        ));
    }
    if skipped.unreadable_files > 0 {
        parts.push(format!(
            "{} file{} that could not be read in time",
            skipped.unreadable_files,
            plural(skipped.unreadable_files)
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" Skipped: {}.", parts.join(", "))
    }
}
