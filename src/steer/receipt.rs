//! The receipt after a compaction: at most two lines for the person, never
//! for the model. Line one says what compact-plus did (for a rescue, that
//! Claude Code's own compaction failed and who wrote the summary instead);
//! line two, where there is one, what was redacted, so the person knows to
//! paste a key again if the model needs it.

use crate::text;

/// The credentials a compaction redacted: each kind with the distinct values
/// seen (hashed: the value itself is never kept), so a key pasted once and
/// echoed by three tools counts once.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Redactions(Vec<(&'static str, Vec<u64>)>);

impl Redactions {
    /// Counts what `redact` replaces in `text` (only a text that had any pays
    /// for the second pass that names them).
    pub fn count(&mut self, text: &str) {
        for r in crate::redact::redactions(text) {
            let value = text.get(r.start..r.end).unwrap_or("");
            let hash = value.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
            match self.0.iter_mut().find(|(k, _)| *k == r.kind) {
                Some((_, seen)) if seen.contains(&hash) => {}
                Some((_, seen)) => seen.push(hash),
                None => self.0.push((r.kind, vec![hash])),
            }
        }
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|(_, v)| v.len()).sum()
    }

    /// `2 openai-key, 1 github-token`: in the order first seen.
    fn by_kind(&self) -> String {
        let mut out = String::new();
        for (k, v) in &self.0 {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&format!("{} {k}", v.len()));
        }
        out
    }
}

/// Where the conversation went.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    /// The history's first part, its size in bytes (all parts) and how many parts.
    File { path: String, bytes: usize, parts: usize },
    /// No history was written: no home folder, or every write failed.
    Nowhere,
}

/// Who wrote the summary of a rescue.
#[derive(Debug, Clone, PartialEq)]
pub enum Author {
    /// The rescue model (`rescueModel`).
    Model(String),
    /// No model answered: compact-plus's digest, and why the model gave none.
    Digest { why: String },
}

/// A compaction compact-plus answered because Claude Code's own failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Rescue {
    /// The failure as `compaction::rescue::cause` names it (`prompt too long`, …).
    pub cause: String,
    pub author: Author,
}

/// What one compaction did, for the person.
#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    pub saved: Written,
    /// The person's messages the context holds word for word after it (in the
    /// block or kept by the engine), and those the budget left out.
    pub words_kept: usize,
    pub words_left_out: usize,
    /// The items the summary dropped that were listed for the model.
    pub listed: usize,
    pub redacted: Redactions,
    /// Pins the context holds word for word after it: in the block, or left out
    /// of it because a kept message or word holds them.
    pub pins: usize,
    pub rescue: Option<Rescue>,
}

pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many items the block after the summary lists for the model (its work
/// record's and its identifiers' `- ` lines).
pub fn listed(block: &str) -> usize {
    block.lines().filter(|l| l.starts_with("- ")).count()
}

/// A size as people read it: `812 B`, `4.2 KB`, `182 KB`, `3.1 MB`.
pub fn size(bytes: usize) -> String {
    let b = bytes as f64;
    let (v, unit) = if b < 1024.0 {
        return format!("{bytes} B");
    } else if b < 1024.0 * 1024.0 {
        (b / 1024.0, "KB")
    } else {
        (b / (1024.0 * 1024.0), "MB")
    };
    if v < 10.0 {
        format!("{}.{} {unit}", v as u64, ((v * 10.0) as u64) % 10)
    } else {
        format!("{} {unit}", v.round() as u64)
    }
}

/// `path` with the home folder as `~`: the history folder is
/// `<home>/.claude/compact-history/<session>`, so `dir` says where home is.
pub fn tilde(path: &str, dir: &str) -> String {
    let home = dir.rsplit_once('/').and_then(|(root, _)| root.strip_suffix("/.claude/compact-history"));
    match home.and_then(|h| path.strip_prefix(h)) {
        Some(rest) if !home.is_some_and(str::is_empty) && rest.starts_with('/') => format!("~{rest}"),
        _ => path.to_owned(),
    }
}

impl Receipt {
    /// The lines for the person: one, and a second when something was
    /// redacted. A rescue's first line says so before anything else.
    pub fn lines(&self, dir: Option<&str>) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(r) = &self.rescue {
            let mut head = String::from("Claude Code's own compaction failed (");
            head.push_str(&r.cause);
            head.push_str("); compact-plus compacted in its place: ");
            match &r.author {
                Author::Model(m) => {
                    head.push_str("the rescue model (");
                    head.push_str(m);
                    head.push_str(") wrote the summary");
                }
                Author::Digest { why } => {
                    head.push_str("no model answered (");
                    head.push_str(text::head(why, 80));
                    head.push_str("): the summary is compact-plus's digest");
                }
            }
            lines.push(head);
        }
        let mut body = match &self.saved {
            Written::File { path, bytes, parts } => {
                let shown = dir.map_or_else(|| path.clone(), |d| tilde(path, d));
                let parts = if *parts > 1 { format!(", {parts} parts") } else { String::new() };
                format!("history saved to {shown} ({}{parts})", size(*bytes))
            }
            Written::Nowhere => "no history saved (no home folder, or the write failed)".into(),
        };
        body.push_str(" · ");
        body.push_str(&self.words_kept.to_string());
        body.push_str(" of your messages kept word for word");
        if self.words_left_out > 0 {
            body.push_str(", ");
            body.push_str(&self.words_left_out.to_string());
            body.push_str(" older left out by the budget");
        }
        if self.listed > 0 {
            body.push_str(" · ");
            body.push_str(&plural(self.listed, "item", "items"));
            body.push_str(" the summary dropped listed for the model");
        }
        if self.pins > 0 {
            body.push_str(" · ");
            body.push_str(&plural(self.pins, "pin", "pins"));
            body.push_str(" kept");
        }
        let n = self.redacted.total();
        if n > 0 {
            let redacted = format!(
                "redacted {} ({}): the model sees [REDACTED:<kind>] in their place, so paste a key again if it needs one",
                plural(n, "credential", "credentials"),
                self.redacted.by_kind()
            );
            // Two lines at most: after a rescue's own line, the rest is one.
            if lines.is_empty() {
                lines.push(body);
                body = redacted;
            } else {
                body.push_str(" · ");
                body.push_str(&redacted);
            }
        }
        lines.push(body);
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receipt() -> Receipt {
        Receipt {
            saved: Written::File { path: "/home/u/.claude/compact-history/s-1/2026-12-01T140210Z-manual.md".into(), bytes: 186_000, parts: 1 },
            words_kept: 6,
            words_left_out: 3,
            listed: 12,
            redacted: Redactions::default(),
            pins: 2,
            rescue: None,
        }
    }

    #[test]
    fn one_line_says_where_the_history_is_and_what_was_kept() {
        let lines = receipt().lines(Some("/home/u/.claude/compact-history/s-1"));
        assert_eq!(
            lines,
            vec!["history saved to ~/.claude/compact-history/s-1/2026-12-01T140210Z-manual.md (182 KB) · 6 of your messages kept word for word, 3 older left out by the budget · 12 items the summary dropped listed for the model · 2 pins kept"]
        );
        let mut r = receipt();
        r.words_kept = 1;
        r.words_left_out = 0;
        r.listed = 0;
        r.pins = 0;
        assert_eq!(r.lines(None)[0], "history saved to /home/u/.claude/compact-history/s-1/2026-12-01T140210Z-manual.md (182 KB) · 1 of your messages kept word for word");
    }

    #[test]
    fn credentials_are_counted_by_kind_and_distinct_value_never_shown() {
        let mut t = Redactions::default();
        let key = "sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789ABCD";
        t.count(&format!("use {key} please"));
        t.count(&format!("echo {key}"));
        t.count("GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345 and password=hunter2x");
        let mut r = receipt();
        r.redacted = t;
        let lines = r.lines(None);
        assert_eq!(lines.len(), 2);
        assert!(lines[1].starts_with("redacted 3 credentials ("), "{}", lines[1]);
        assert!(lines[1].contains("1 openai-key") && lines[1].contains("github-token"), "{}", lines[1]);
        assert!(!lines.concat().contains(key) && !lines.concat().contains("hunter2x"));
    }

    #[test]
    fn a_rescue_says_the_engine_failed_and_who_wrote_the_summary_in_two_lines() {
        let mut r = receipt();
        r.rescue = Some(Rescue { cause: "prompt too long".into(), author: Author::Model("haiku".into()) });
        let mut t = Redactions::default();
        t.count("password=hunter2x");
        r.redacted = t;
        let lines = r.lines(None);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("Claude Code's own compaction failed (prompt too long); compact-plus compacted in its place: the rescue model (haiku) wrote the summary"));
        assert!(lines[1].starts_with("history saved to") && lines[1].contains("redacted 1 credential ("));
        r.rescue = Some(Rescue { cause: "overloaded".into(), author: Author::Digest { why: "out of time".into() } });
        assert!(r.lines(None)[0].contains("no model answered (out of time): the summary is compact-plus's digest"));
        r.saved = Written::Nowhere;
        assert!(r.lines(None)[1].starts_with("no history saved"));
    }

    #[test]
    fn sizes_and_home() {
        assert_eq!(size(812), "812 B");
        assert_eq!(size(4300), "4.1 KB");
        assert_eq!(size(3 * 1024 * 1024 + 200_000), "3.1 MB");
        assert_eq!(tilde("/h/.claude/compact-history/s/a.md", "/h/.claude/compact-history/s"), "~/.claude/compact-history/s/a.md");
        assert_eq!(tilde("/elsewhere/a.md", "/h/.claude/compact-history/s"), "/elsewhere/a.md");
        assert_eq!(tilde("/x", "nowhere"), "/x");
    }
}
