//! The rescue's own summary row, and what stays after it.
//!
//! The row: one line that says compact-plus wrote it and why the engine's
//! compaction failed ([`header`], which [`HEADER_START`] recognises: machine
//! text, never the person's words), the body (tier 1's summary or tier 2's
//! digest), the person's messages word for word, the pointer to the history
//! with the audit's identifiers. The newest messages stay after the row
//! within [`KEEP_TOKENS`], from a clean user message ([`keep_from`]).

use crate::message::{Message, Messages};
use crate::text;

/// The newest messages kept whole after the summary row, in tokens (about 4
/// characters a token, tool inputs and outputs counted).
pub const KEEP_TOKENS: usize = 8_000;
const CHARS_PER_TOKEN: usize = 4;

/// How every rescue row starts: what tells it from a person's message.
pub const HEADER_START: &str = "[compact-plus wrote this summary (";

/// Which tier wrote the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// The rescue model's summary.
    Model,
    /// The digest, made with no model.
    Digest,
}

impl Tier {
    /// As `log.jsonl` numbers it.
    pub fn number(self) -> u8 {
        match self {
            Tier::Model => 1,
            Tier::Digest => 2,
        }
    }
}

/// The summary row's first line: who wrote it, how, and why the engine's
/// compaction did not (`cause`, then the engine's own words or ours).
pub fn header(tier: Tier, cause: &str, why: &str) -> String {
    let how = match tier {
        Tier::Model => "summarized by the rescue model",
        Tier::Digest => "a digest made without a model",
    };
    let why = text::head(&first_line(why), 200).to_owned();
    format!(
        "{HEADER_START}{how}): the engine's own compaction failed ({cause}: {why}). The full conversation is in the history file below.]"
    )
}

fn first_line(s: &str) -> String {
    text::trim(s.lines().find(|l| !text::trim(l).is_empty()).unwrap_or("")).to_owned()
}

/// A message's size as the engine keeps it, in tokens: its text, and each tool
/// call's input and output.
pub fn tokens(m: &Message) -> usize {
    let uses: usize = m
        .tool_uses
        .0
        .iter()
        .map(|u| u.input.as_ref().map_or(0, |i| i.get().len()) + u.text.as_ref().map_or(0, String::len))
        .sum();
    (m.text().len() + uses).div_ceil(CHARS_PER_TOKEN)
}

/// Where the messages kept after the summary start: the oldest user message
/// with no tool results (so no tool result is kept without its call) from
/// which every message to the end has a handle and fits `budget` tokens.
/// `None` keeps none.
pub fn keep_from(messages: &Messages, budget: usize) -> Option<usize> {
    let mut total = 0usize;
    let mut best = None;
    for (i, m) in messages.iter().enumerate().rev() {
        let Some(m) = m else { break };
        if m.handle_key().is_none() {
            break;
        }
        total = total.saturating_add(tokens(m));
        if total > budget {
            break;
        }
        if m.is_user() && m.tool_results == 0 {
            best = Some(i);
        }
    }
    best
}

/// What the summary row is made of besides its body.
pub struct Row<'a> {
    pub header: String,
    pub body: String,
    /// The verbatim block, rendered (`verbatim::render`), if any.
    pub verbatim: Option<String>,
    /// The pointer to the history, with the audit after it, if the history was written.
    pub pointer: Option<String>,
    pub clean: &'a dyn Fn(&str) -> String,
}

/// The summary row: header, body, verbatim block, pointer; redacted.
pub fn row(r: &Row) -> String {
    let mut parts = vec![r.header.clone(), r.body.clone()];
    parts.extend(r.verbatim.clone());
    parts.extend(r.pointer.clone());
    (r.clean)(&parts.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::super::digest::{digest, render_digest, DIGEST_MAX_CHARS};
    use super::*;
    use crate::compaction::verbatim;
    use crate::message::parse_messages;
    use serde_json::json;

    fn msgs(v: serde_json::Value) -> Messages {
        parse_messages(&v.to_string())
    }

    #[test]
    fn the_rows_header_is_machine_text_never_the_persons_words() {
        let r = row(&Row {
            header: header(Tier::Digest, "API server error", "Error during compaction: API Error: 500"),
            body: "## What the conversation did (compact-plus digest)".into(),
            verbatim: None,
            pointer: None,
            clean: &|t| t.to_owned(),
        });
        assert_eq!(verbatim::person_text(&r), "", "{r}");
        // A later compaction's verbatim block quotes the person, not the rescue's row.
        let m = msgs(json!([
            {"role": "user", "text": "fix the parser", "handle": "a"},
            {"role": "user", "text": r, "handle": "b"},
            {"role": "user", "text": "and now the lexer", "handle": "c"},
        ]));
        let texts: Vec<String> = verbatim::select(None, &m, 8000.0).into_iter().map(|e| e.text).collect();
        assert_eq!(texts, vec!["fix the parser", "and now the lexer"]);
    }

    #[test]
    fn kept_messages_start_at_a_clean_user_message_within_budget() {
        let m = msgs(json!([
            {"role": "user", "text": "one", "handle": "a"},
            {"role": "assistant", "text": "x", "handle": "b", "toolUses": [{"tool": "Bash", "input": {}, "text": "y"}]},
            {"role": "user", "text": "", "toolResults": [{}], "handle": "c"},
            {"role": "assistant", "text": "done", "handle": "d"},
        ]));
        assert_eq!(keep_from(&m, 1000), Some(0));
        // Over budget from the first: the tool result row is never the first kept.
        assert_eq!(keep_from(&m, 2), None);
        let big = msgs(json!([{"role": "user", "text": "q", "handle": "a"}, {"role": "assistant", "text": "a".repeat(100_000), "handle": "b"}]));
        assert_eq!(keep_from(&big, KEEP_TOKENS), None);
        let no_handle = msgs(json!([{"role": "user", "text": "q"}, {"role": "assistant", "text": "a", "handle": "b"}]));
        assert_eq!(keep_from(&no_handle, KEEP_TOKENS), None);
    }

    /// Tier 2 on a session: the digest within its size, the kept messages
    /// within their budget, every kept one with a handle, no tool result first.
    fn within_budget(m: &Messages) -> String {
        let body = render_digest(&digest(m));
        assert!(text::len16(&body) <= DIGEST_MAX_CHARS + 100, "digest {} units", text::len16(&body));
        if let Some(k) = keep_from(m, KEEP_TOKENS) {
            let kept = m.get(k..).unwrap_or(&[]);
            let total: usize = kept.iter().flatten().map(tokens).sum();
            assert!(total <= KEEP_TOKENS);
            let first = kept.first().and_then(Option::as_ref).expect("a kept message");
            assert!(first.is_user() && first.tool_results == 0);
            assert!(kept.iter().flatten().all(|m| m.handle_key().is_some()));
        }
        let r = row(&Row { header: header(Tier::Digest, "prompt too long", "x"), body, verbatim: None, pointer: None, clean: &|t| t.to_owned() });
        assert!(r.starts_with(HEADER_START));
        r
    }

    #[test]
    fn odd_sessions_stay_within_budget() {
        // No person message at all.
        let r = within_budget(&msgs(json!([{"role": "assistant", "text": "hello", "handle": "a"}])));
        assert!(r.contains("hello"));
        // Nothing at all, and entries that are no message.
        within_budget(&msgs(json!([])));
        within_budget(&msgs(json!([null, 3, "x", {"role": "user"}])));
        // Only tool calls.
        let uses: Vec<_> = (0..500)
            .map(|i| json!({"tool": "Bash", "input": {"command": format!("step {i}")}, "text": format!("Exit code 1\nerror: step {i} failed"), "isError": true}))
            .collect();
        let r = within_budget(&msgs(json!([{"role": "assistant", "text": "", "handle": "a", "toolUses": uses}])));
        assert!(r.contains("`step 499` → Exit code 1") && !r.contains("`step 469` →"), "the newest 30");
        // One 10 MB message, then a short exchange: that exchange is kept, not the giant.
        let big = "y".repeat(10 * 1024 * 1024);
        let m = msgs(json!([
            {"role": "user", "text": "start", "handle": "a"},
            {"role": "assistant", "text": big, "handle": "b"},
            {"role": "user", "text": "go on", "handle": "c"},
            {"role": "assistant", "text": "ok", "handle": "d"},
        ]));
        within_budget(&m);
        assert_eq!(keep_from(&m, KEEP_TOKENS), Some(2));
        // 4,096 messages.
        let many: Vec<_> = (0..4096)
            .map(|i| {
                if i % 2 == 0 {
                    json!({"role": "user", "text": format!("question {i}"), "handle": format!("h{i}")})
                } else {
                    json!({"role": "assistant", "text": format!("answer {i}"), "handle": format!("h{i}"),
                        "toolUses": [{"tool": "Edit", "input": {"file_path": format!("src/f{}.rs", i % 97)}, "text": "ok"}]})
                }
            })
            .collect();
        let m = msgs(json!(many));
        let r = within_budget(&m);
        assert!(r.contains("answer 4095"));
        assert!(keep_from(&m, KEEP_TOKENS).is_some_and(|k| k > 2000));
    }
}
