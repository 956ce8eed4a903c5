//! A file's text as whole lines, from its reads as they arrive one at a time:
//! a line a read's end cuts is joined with its rest from the next read, and a
//! line an unread gap cuts (a long file is read at its start and its newest
//! end) is dropped. Nothing is kept but the one line left open.

use crate::walk::Span;

/// A line longer than this is skipped (counted): a pasted image or a dump,
/// whose parsing would cost the time every other file needs.
pub const MAX_LINE_BYTES: usize = 2 << 20;

/// A line closed across two reads.
#[derive(Debug, PartialEq)]
pub enum Joined {
    Line(String),
    /// Over [`MAX_LINE_BYTES`]: skipped, counted.
    Huge,
}

/// One read's whole lines.
#[derive(Debug, PartialEq)]
pub struct Whole<'t> {
    /// The line the last read left open, closed by this one.
    pub joined: Option<Joined>,
    /// This read's own whole lines, each ending in `\n` but the file's last.
    pub body: &'t str,
}

/// The line the reads so far leave open.
enum Open {
    /// None: the next read starts a line.
    Nothing,
    Carry(String),
    /// Being skipped to its end: cut by a gap, or too long.
    Dropping { huge: bool },
}

/// The reads of one file, joined.
pub struct Joiner {
    size: u64,
    /// Where the last read ended.
    end: Option<u64>,
    open: Open,
}

impl Joiner {
    pub fn new(size: u64) -> Joiner {
        Joiner { size, end: None, open: Open::Nothing }
    }

    /// The whole lines of the read of `span`, whose text is `text`.
    pub fn take<'t>(&mut self, span: Span, text: &'t str) -> Whole<'t> {
        let goes_on = self.end == Some(span.offset);
        if !goes_on {
            // A line left open by the last read ends unread; one this read
            // starts inside began unread.
            self.open = if span.offset > 0 { Open::Dropping { huge: false } } else { Open::Nothing };
        }
        self.end = Some(span.offset + span.length);
        let ends_file = span.offset + span.length >= self.size;
        let (head, rest) = match text.find('\n') {
            Some(i) => (text.get(..i).unwrap_or(""), Some(text.get(i + 1..).unwrap_or(""))),
            None => (text, None),
        };
        let mut joined = None;
        let body = match rest {
            // The open line goes on past this read.
            None if !ends_file => {
                self.extend(head);
                ""
            }
            None | Some(_) => {
                joined = self.close(head);
                let rest = rest.unwrap_or("");
                if ends_file {
                    rest
                } else {
                    let cut = rest.rfind('\n').map_or(0, |i| i + 1);
                    self.extend(rest.get(cut..).unwrap_or(""));
                    rest.get(..cut).unwrap_or("")
                }
            }
        };
        Whole { joined, body }
    }

    /// The open line grows by `more`.
    fn extend(&mut self, more: &str) {
        self.open = match std::mem::replace(&mut self.open, Open::Nothing) {
            Open::Nothing if more.len() > MAX_LINE_BYTES => Open::Dropping { huge: true },
            Open::Nothing if more.is_empty() => Open::Nothing,
            Open::Nothing => Open::Carry(more.to_owned()),
            Open::Carry(c) if c.len() + more.len() > MAX_LINE_BYTES => Open::Dropping { huge: true },
            Open::Carry(mut c) => {
                c.push_str(more);
                Open::Carry(c)
            }
            dropping => dropping,
        };
    }

    /// The open line ends with `last`: what it was, if it is one to read.
    fn close(&mut self, last: &str) -> Option<Joined> {
        match std::mem::replace(&mut self.open, Open::Nothing) {
            Open::Nothing if last.is_empty() => None,
            Open::Nothing if last.len() > MAX_LINE_BYTES => Some(Joined::Huge),
            Open::Nothing => Some(Joined::Line(last.to_owned())),
            Open::Carry(c) if c.len() + last.len() > MAX_LINE_BYTES => Some(Joined::Huge),
            Open::Carry(mut c) => {
                c.push_str(last);
                Some(Joined::Line(c))
            }
            Open::Dropping { huge: true } => Some(Joined::Huge),
            Open::Dropping { huge: false } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line the joiner gives for `text` read in `spans`.
    fn read(text: &str, spans: &[(u64, u64)]) -> Vec<String> {
        let mut j = Joiner::new(text.len() as u64);
        let mut out = Vec::new();
        for &(offset, length) in spans {
            let piece = &text[offset as usize..(offset + length).min(text.len() as u64) as usize];
            let w = j.take(Span { offset, length }, piece);
            match w.joined {
                Some(Joined::Line(l)) => out.push(l),
                Some(Joined::Huge) => out.push("<huge>".into()),
                None => {}
            }
            out.extend(w.body.split_terminator('\n').map(str::to_owned));
        }
        out
    }

    #[test]
    fn reads_that_go_on_join_their_cut_lines() {
        let text = "one\ntwo\nthree\nfour";
        let whole = ["one", "two", "three", "four"];
        assert_eq!(read(text, &[(0, 18)]), whole);
        for cut in 1..18 {
            assert_eq!(read(text, &[(0, cut), (cut, 18 - cut)]), whole, "cut at {cut}");
            for cut2 in cut + 1..18 {
                assert_eq!(read(text, &[(0, cut), (cut, cut2 - cut), (cut2, 18 - cut2)]), whole, "cut at {cut}, {cut2}");
            }
        }
        assert_eq!(read("a\nb\n", &[(0, 4)]), ["a", "b"]);
    }

    #[test]
    fn a_gap_drops_the_lines_it_cuts() {
        let text = "one\ntwo\nthree\nfour\nfive";
        // The start (to "thr"), then the end (from "our").
        assert_eq!(read(text, &[(0, 11), (15, 8)]), ["one", "two", "five"]);
        // The end alone.
        assert_eq!(read(text, &[(10, 13)]), ["four", "five"]);
        // A read inside one line, going on from nothing.
        assert_eq!(read(text, &[(9, 2)]), Vec::<String>::new());
    }

    #[test]
    fn a_line_too_long_is_counted_not_kept() {
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        let text = format!("a\n{long}\nb\n");
        let n = text.len() as u64;
        assert_eq!(read(&text, &[(0, n)]).len(), 3, "the body keeps it: its reader counts it");
        let half = (n / 2, n - n / 2);
        assert_eq!(read(&text, &[(0, half.0), half]), ["a", "<huge>", "b"]);
        // Across three reads, none holding a newline in the middle one.
        let third = n / 3;
        assert_eq!(read(&text, &[(0, third), (third, third), (2 * third, n - 2 * third)]), ["a", "<huge>", "b"]);
    }
}
