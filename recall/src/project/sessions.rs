//! The sessions view: this project's earlier sessions, newest first, each with
//! its tool, dates, first and last request, messages and compactions.
//!
//! It needs every row's kind, time and whether it holds text, and the person's
//! words: so every line is glanced at (`Detail::Requests`): read as its row,
//! the assistant's and the tools' texts left unread, the person's read whole.
//! A request is redacted before anything of it is kept.

use std::borrow::Cow;

use compact_plus::redact::redact;

use super::reader::{each_line, skipped_line, Reader, Skipped};
use crate::lines::Whole;
use crate::order;
use crate::formats::{is_request, read_line, Detail, Line, Speaker};
use crate::text::{cut_chars, date_of, date_of_ms, plural, quote, Budget, MAX_ANSWER};
use crate::walk::{Recorder, SessionFile};

const REQUEST_CHARS: usize = 160;

/// A request as the view shows it: redacted, on one line, cut.
fn one_line(text: &str) -> String {
    let clean = redact(text);
    cut_chars(&clean.split_whitespace().collect::<Vec<_>>().join(" "), REQUEST_CHARS)
}

/// What the view says of one session.
#[derive(Debug, Default)]
struct Outline {
    tool: &'static str,
    id: String,
    mtime_ms: f64,
    first_ts: String,
    last_ts: String,
    title: Option<String>,
    compactions: usize,
    messages: usize,
    /// The person's requests (not tool results, not the engine's own rows).
    requests: usize,
    first_request: Option<String>,
    last_request: Option<String>,
}

impl Outline {
    fn stamp(&mut self, ts: &str) {
        if ts.is_empty() {
            return;
        }
        if self.first_ts.is_empty() {
            self.first_ts = ts.to_owned();
        }
        self.last_ts = ts.to_owned();
    }
}

pub struct SessionsView {
    cwd: String,
    outlines: Vec<Outline>,
    skipped: Skipped,
}

impl SessionsView {
    pub fn new(cwd: &str) -> SessionsView {
        SessionsView { cwd: cwd.to_owned(), outlines: Vec::new(), skipped: Skipped::default() }
    }

    /// One line of a session's record; a request's text (raw, not kept past
    /// this read) is answered, the last of a read is redacted once it ends.
    fn row<'l>(&mut self, format: Recorder, line: Option<&'l str>) -> Option<Cow<'l, str>> {
        let Some(line) = line else {
            self.skipped.huge += 1;
            return None;
        };
        if line.trim().is_empty() {
            return None;
        }
        let row = read_line(format, line, Detail::Requests, &self.cwd);
        let o = self.outlines.last_mut()?;
        match row {
            Line::Utterance(said) if said.text.trim().is_empty() => {}
            Line::Utterance(said) => {
                o.stamp(&said.ts);
                o.messages += 1;
                if said.speaker == Speaker::User && is_request(&said.text) {
                    o.requests += 1;
                    if o.first_request.is_none() {
                        o.first_request = Some(one_line(&said.text));
                    }
                    return Some(said.text);
                }
            }
            Line::Compaction { ts, summary } => {
                o.compactions += 1;
                o.stamp(&ts);
                o.messages += usize::from(summary.is_some_and(|s| !s.trim().is_empty()));
            }
            Line::Title(t) => o.title = Some(redact(&t).into_owned()),
            Line::Start { ts } => o.stamp(&ts),
            Line::Other => self.skipped.other += 1,
            Line::Malformed => self.skipped.malformed += 1,
            Line::Elsewhere => {}
        }
        None
    }

    pub fn answer(mut self) -> String {
        // OpenCode's prompts list only when some named this folder.
        self.outlines.retain(|o| o.tool != Recorder::OpenCodePrompts.tool() || o.messages > 0);
        let outlines = order::sorted_by(self.outlines, |a, b| b.mtime_ms.total_cmp(&a.mtime_ms));
        if outlines.is_empty() {
            return "recall: no earlier sessions of this project were found (Claude Code transcripts of this folder, Codex rollouts started here, OpenCode prompts naming a file in it).".into();
        }
        let mut out = Budget::default();
        out.push(&format!(
            "recall: {} earlier session{} of this project, newest first.{}\nSearch them with a query and scope \"project\"; narrow to one with session: \"<id>\".\n",
            outlines.len(),
            plural(outlines.len()),
            skipped_line(&self.skipped)
        ));
        for (k, s) in outlines.iter().enumerate() {
            let when = if s.first_ts.is_empty() { date_of_ms(s.mtime_ms) } else { date_of(&s.first_ts) };
            let until = if s.last_ts.is_empty() || date_of(&s.last_ts) == when { String::new() } else { format!(" → {}", date_of(&s.last_ts)) };
            let title = s.title.as_ref().map_or(String::new(), |t| format!(" · {}", quote(&cut_chars(t, 80))));
            let whose = if s.tool == Recorder::OpenCodePrompts.tool() { " (prompts naming a file in this folder)" } else { "" };
            let mut entry = format!(
                "\n{}. {}{whose} · {when}{until} · session {} · {} message{}, {} request{} · {} compaction{}{title}\n",
                k + 1,
                s.tool,
                s.id,
                s.messages,
                plural(s.messages),
                s.requests,
                plural(s.requests),
                s.compactions,
                plural(s.compactions),
            );
            if let Some(f) = &s.first_request {
                entry.push_str(&format!("   first request: {}\n", quote(f)));
            }
            if let (Some(l), true) = (&s.last_request, s.requests > 1) {
                entry.push_str(&format!("   last request: {}\n", quote(l)));
            }
            if !out.fits(&entry, 120) {
                let left = outlines.len() - k;
                out.push(&format!("\n{left} more session{} not listed (the answer stops at {MAX_ANSWER} characters).", plural(left)));
                break;
            }
            out.push(&entry);
        }
        out.finish()
    }
}

impl Reader for SessionsView {
    fn lines(&mut self, file: &SessionFile, whole: Whole) {
        if file.format == Recorder::Summary {
            return;
        }
        let format = file.format;
        let mut last = None;
        each_line(&whole, |line| {
            if let Some(request) = self.row(format, line) {
                last = Some(request);
            }
        });
        if let (Some(request), Some(o)) = (last, self.outlines.last_mut()) {
            o.last_request = Some(one_line(&request));
        }
    }

    fn end(&mut self, file: &SessionFile, unread: bool) {
        if unread {
            self.skipped.unreadable_files += 1;
        }
        if file.format == Recorder::Summary {
            // A saved summary is a message of its session; its date is its
            // file's, not the session's.
            if let Some(o) = self.outlines.iter_mut().rev().find(|o| o.id == file.session) {
                o.messages += 1;
            }
        }
    }

    fn start(&mut self, file: &SessionFile) -> bool {
        if file.format != Recorder::Summary {
            self.outlines.push(Outline { tool: file.format.tool(), id: file.session.clone(), mtime_ms: file.mtime_ms, ..Outline::default() });
        }
        true
    }
}
