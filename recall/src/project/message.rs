//! One message of an earlier session in full (from `offset` characters on),
//! and the ones after it while they fit; the reads stop once the answer is
//! full. Only the newest session whose id starts as asked is read.

use compact_plus::redact::redact;

use super::reader::{each_line, Reader};
use crate::formats::{read_line, Detail, Line, Speaker};
use crate::lines::Whole;
use crate::text::{date_of, iso_of_ms, quote, take_units, Budget, MAX_ANSWER};
use crate::walk::{Recorder, SessionFile};

pub struct ReadMore {
    prefix: String,
    from: usize,
    offset: usize,
    cwd: String,
    /// The session read, once its first file comes.
    session: Option<(String, &'static str)>,
    lines: usize,
    summaries: usize,
    summary: String,
    out: Budget,
    shown: usize,
    full: bool,
}

impl ReadMore {
    pub fn new(prefix: &str, from: usize, offset: usize, cwd: &str) -> ReadMore {
        ReadMore {
            prefix: prefix.to_owned(),
            from,
            offset,
            cwd: cwd.to_owned(),
            session: None,
            lines: 0,
            summaries: 0,
            summary: String::new(),
            out: Budget::default(),
            shown: 0,
            full: false,
        }
    }

    /// Message `n`, if it is at or past the one asked for and there is room.
    fn message(&mut self, n: usize, speaker: Speaker, ts: &str, text: &str) {
        if self.full || n < self.from || text.trim().is_empty() {
            return;
        }
        let first = self.shown == 0;
        let skip = if first { self.offset } else { 0 };
        let when = if ts.is_empty() { String::new() } else { format!(" · {}", date_of(ts)) };
        let from = if skip > 0 { format!(" · from character {skip}") } else { String::new() };
        let head = format!("\n── message {n} ({}){when}{from}\n", speaker.as_str());
        let clean = redact(text);
        let body: String = clean.chars().skip(skip).collect();
        let room = MAX_ANSWER.saturating_sub(self.out.units() + head.encode_utf16().count() + 200);
        self.shown += 1;
        if body.encode_utf16().count() <= room {
            self.out.push(&head);
            self.out.push(&body);
            self.out.push("\n");
            return;
        }
        self.full = true;
        if first || room > 1000 {
            let part = take_units(&body, room);
            let took = part.chars().count();
            self.out.push(&head);
            self.out.push(part);
            self.out.push(&format!("\n… (cut: go on with message {n}, offset {})", skip + took));
        } else {
            self.out.push(&format!("\n(go on with message {n})"));
        }
    }

    pub fn answer(self) -> String {
        let Some((id, tool)) = &self.session else {
            return format!(
                "recall: no earlier session of this project has an id starting {}; call without a query to list them.",
                quote(&self.prefix)
            );
        };
        if self.shown == 0 {
            return format!(
                "recall: session {id} has no message numbered {} or after: its messages are numbered by their line in its record, and {} lines were read (then its saved summaries).",
                self.from, self.lines
            );
        }
        let mut out = Budget::default();
        out.push(&format!("recall: {tool} · session {id} · from message {}\n", self.from));
        out.push(&self.out.finish());
        out.finish()
    }
}

impl Reader for ReadMore {
    fn start(&mut self, file: &SessionFile) -> bool {
        if self.session.is_none() && !self.prefix.is_empty() && file.session.starts_with(&self.prefix) && file.format != Recorder::Summary {
            self.session = Some((file.session.clone(), file.format.tool()));
        }
        self.session.as_ref().is_some_and(|(id, _)| *id == file.session)
    }

    fn lines(&mut self, file: &SessionFile, whole: Whole) {
        let (format, cwd) = (file.format, self.cwd.clone());
        each_line(&whole, |line| {
            if format == Recorder::Summary {
                if let Some(l) = line {
                    self.summary.push_str(l);
                    self.summary.push('\n');
                }
                return;
            }
            self.lines += 1;
            let n = self.lines;
            let Some(line) = line.filter(|_| n >= self.from && !self.full) else { return };
            match read_line(format, line, Detail::Full, &cwd) {
                Line::Utterance(s) => self.message(n, s.speaker, &s.ts, &s.text),
                Line::Compaction { ts, summary: Some(text) } => self.message(n, Speaker::Summary, &ts, &text),
                _ => {}
            }
        });
    }

    fn end(&mut self, file: &SessionFile, _unread: bool) {
        if file.format == Recorder::Summary {
            self.summaries += 1;
            let text = std::mem::take(&mut self.summary);
            let n = self.lines + self.summaries;
            self.message(n, Speaker::Summary, &iso_of_ms(file.mtime_ms), &text);
        }
    }

    fn full(&self) -> bool {
        self.full
    }
}
