//! The person's own messages, kept word for word across compactions.
//!
//! A summary paraphrases; what the person asked for should survive exactly. The
//! newest messages win the budget, and messages carried in an earlier summary's
//! verbatim block come first, so nothing the person said is lost to a second
//! compaction.

use serde::Serialize;
use serde_json::value::RawValue;

use crate::message::{Message, Messages};
use crate::text;

pub const CHARS_PER_TOKEN: f64 = 4.0;
pub const VERBATIM_OPEN: &str = "<user-messages-verbatim>";
pub const VERBATIM_CLOSE: &str = "</user-messages-verbatim>";
/// The separator of the reference's block, which earlier blocks may still use.
pub const VERBATIM_SEP: &str = "\n--- user message ---\n";
pub const SUMMARY_START: &str = "This session is being continued from a previous conversation";
const PER_MESSAGE_CHARS: f64 = 8000.0;
pub const CUT_NOTE: &str = "the full text is in the history file";

/// User-role rows the engine, the app or compact-plus writes, not the person.
const MACHINE_PREFIXES: [&str; 11] = [
    "<system-reminder>",
    "<task-notification>",
    "<command-",
    "<local-command",
    "<side-sessions-event>",
    "<ci-monitor-event>",
    "<user-prompt-submit-hook>",
    "[Request interrupted",
    "Caveat:",
    SUMMARY_START,
    // The rescue's own summary row (`compaction::rescue::row::header`).
    super::rescue::row::HEADER_START,
];

/// One kept message. `handle` is the engine's, when the message has one, so a
/// message the engine keeps verbatim anyway can be left out later.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handle: Option<Box<RawValue>>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
            && self.handle.as_ref().map(|h| h.get()) == other.handle.as_ref().map(|h| h.get())
    }
}

/// The person's own words in a user row, or `""` when the row is machine text.
pub fn person_text(text: &str) -> String {
    let cleaned = text::remove_spans(text, "<system-reminder>", "</system-reminder>");
    let cleaned = text::trim(&cleaned);
    if cleaned.is_empty() || MACHINE_PREFIXES.iter().any(|p| cleaned.starts_with(p)) {
        return String::new();
    }
    cleaned.to_owned()
}

/// The body of the newest earlier summary's verbatim block, if any: the last
/// user row holding an opening tag with a closing one after it.
pub(crate) fn newest_block(messages: &Messages) -> Option<&str> {
    messages.iter().rev().flatten().find_map(|m| {
        let text = if m.is_user() { m.text() } else { "" };
        let start = text.rfind(VERBATIM_OPEN)?;
        let end = text.get(start..)?.find(VERBATIM_CLOSE)?;
        text.get(start + VERBATIM_OPEN.len()..start + end)
    })
}

/// The person's messages to keep word for word, oldest first: those carried in
/// the newest earlier block (plain or marked), then this window's, chosen newest
/// first within the budget.
pub fn select(messages: &Messages, budget_tokens: f64) -> Vec<Entry> {
    select_from(carried(messages), messages, budget_tokens)
}

/// The messages to keep word for word within the budget: `carried` (from an
/// earlier block) first, then this window's person rows, chosen newest first.
/// The product and the reference differ only in how they read an earlier block
/// (`carried`); the choice within the budget is this one.
pub(crate) fn select_from(carried: Vec<String>, messages: &Messages, budget_tokens: f64) -> Vec<Entry> {
    // NaN too: a budget that is no number keeps nothing.
    if budget_tokens.is_nan() || budget_tokens <= 0.0 {
        return Vec::new();
    }
    let mut entries: Vec<Entry> = carried.into_iter().map(|text| Entry { text, handle: None }).collect();
    for m in messages.iter().flatten() {
        if !m.is_user() {
            continue;
        }
        let text = person_text(m.text());
        if !text.is_empty() {
            entries.push(Entry { text, handle: m.handle.clone() });
        }
    }
    let sep = text::len16(VERBATIM_SEP) as f64;
    let mut room = budget_tokens * CHARS_PER_TOKEN;
    let mut chosen = Vec::new();
    for entry in entries.into_iter().rev() {
        if room.is_nan() || room <= 200.0 {
            break;
        }
        let capped = text::cut_middle(&entry.text, PER_MESSAGE_CHARS.min(room), CUT_NOTE);
        room -= text::len16(&capped) as f64 + sep;
        chosen.push(Entry { text: capped, handle: entry.handle });
    }
    chosen.reverse();
    chosen
}

/// The separator of a message in a marked block: the newest is the current
/// request, the others earlier ones. The mark lives in the separator, not the
/// text, so carrying a block into the next one drops old marks by itself.
const SEP_EARLIER: &str = "\n--- user message (earlier) ---\n";
const SEP_CURRENT: &str = "\n--- user message (current request) ---\n";
const INTRO: &str = "The user's own messages, word for word, oldest first. compact-plus keeps them across compactions; where the summary above paraphrases one, the wording here is what the user said. The one marked (current request) is what the user asked for last; the earlier ones are done unless the summary says otherwise.";
const INTRO_ALL_EARLIER: &str = "The user's own messages, word for word, oldest first. compact-plus keeps them across compactions; where the summary above paraphrases one, the wording here is what the user said. All of them are earlier requests, done unless the summary says otherwise: the current request is the user's message after this summary.";

/// The block appended to the summary row, with the newest message marked as
/// the current request, unless the engine kept the current request itself
/// after the summary (`current_kept`): then every entry is an earlier one.
pub fn render(entries: &[Entry], current_kept: bool) -> String {
    let last = entries.len().saturating_sub(1);
    let body: Vec<String> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let sep = if i == last && !current_kept { SEP_CURRENT } else { SEP_EARLIER };
            format!("{sep}{}", e.text)
        })
        .collect();
    let intro = if current_kept { INTRO_ALL_EARLIER } else { INTRO };
    format!("{VERBATIM_OPEN}\n{intro}\n{}\n{VERBATIM_CLOSE}", body.join("\n"))
}

/// Messages carried in the newest earlier block, plain or marked, oldest first,
/// without their marks.
pub fn carried(messages: &Messages) -> Vec<String> {
    let Some(body) = newest_block(messages) else { return Vec::new() };
    split_block(body).into_iter().map(text::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

/// The pieces after each separator, whichever of the three it is.
fn split_block(body: &str) -> Vec<&str> {
    let seps = [VERBATIM_SEP, SEP_EARLIER, SEP_CURRENT];
    let mut pieces = Vec::new();
    let mut rest = body;
    let mut started = false;
    loop {
        let next = seps.iter().filter_map(|s| rest.find(s).map(|at| (at, s.len()))).min();
        match next {
            Some((at, len)) => {
                if started {
                    pieces.push(rest.get(..at).unwrap_or(""));
                }
                started = true;
                rest = rest.get(at + len..).unwrap_or("");
            }
            None => {
                if started {
                    pieces.push(rest);
                }
                return pieces;
            }
        }
    }
}

/// Drops the entries whose message the engine kept after the summary anyway.
pub fn not_kept(entries: Vec<Entry>, kept: &[&Message]) -> Vec<Entry> {
    let kept: Vec<&str> = kept.iter().filter_map(|m| m.handle_key()).collect();
    entries
        .into_iter()
        .filter(|e| match crate::message::handle_key(e.handle.as_deref()) {
            Some(h) => !kept.contains(&h),
            None => true,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;

    fn msgs(json: &str) -> Messages {
        parse_messages(json)
    }

    #[test]
    fn person_text_drops_machine_rows() {
        assert_eq!(person_text("  fix the bug \n"), "fix the bug");
        assert_eq!(person_text("<system-reminder>x</system-reminder>"), "");
        assert_eq!(person_text("<system-reminder>x</system-reminder>\n do it"), "do it");
        assert_eq!(person_text("<command-name>/compact</command-name>"), "");
        assert_eq!(person_text("Caveat: the messages below"), "");
        assert_eq!(person_text(&format!("{SUMMARY_START} that ran out")), "");
        assert_eq!(person_text(""), "");
        // An unterminated reminder is the person's text as far as the reference knows.
        assert_eq!(person_text("<system-reminder> open"), "");
        assert_eq!(person_text("a <system-reminder> open"), "a <system-reminder> open");
    }

    #[test]
    fn marks_move_to_the_newest_and_never_pile_up() {
        // Three compactions: each block is carried into the next.
        let mut history = String::new();
        for round in 0..4 {
            let mut rows = vec![serde_json::json!({"role": "user", "text": history})];
            rows.push(serde_json::json!({"role": "user", "text": format!("request {round}")}));
            let m = msgs(&serde_json::Value::Array(rows).to_string());
            let chosen = select(&m, 8000.0);
            let texts: Vec<&str> = chosen.iter().map(|e| e.text.as_str()).collect();
            let want: Vec<String> = (0..=round).map(|r| format!("request {r}")).collect();
            assert_eq!(texts, want, "round {round}");
            history = format!("{SUMMARY_START} {round}\n{}", render(&chosen, false));
            assert_eq!(history.matches("(current request)").count(), 2, "{history}"); // intro + one mark
            assert!(history.contains(&format!("(current request) ---\nrequest {round}\n</user-")));
            assert_eq!(history.matches("--- user message (earlier) ---").count(), round);
        }
    }

    #[test]
    fn current_kept_by_the_engine_marks_all_earlier() {
        let e = [Entry { text: "a".into(), handle: None }, Entry { text: "b".into(), handle: None }];
        let r = render(&e, true);
        assert!(!r.contains("--- user message (current request) ---"));
        assert_eq!(r.matches("--- user message (earlier) ---").count(), 2);
        assert!(r.contains("the current request is the user's message after this summary"));
    }

    #[test]
    fn plain_blocks_still_carry() {
        let block = crate::compat::verbatim::render(&[Entry { text: "old".into(), handle: None }]);
        let m = msgs(&serde_json::json!([{"role": "user", "text": block}]).to_string());
        assert_eq!(carried(&m), vec!["old"]);
    }
}
