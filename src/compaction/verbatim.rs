//! The person's own messages, kept word for word across compactions.
//!
//! A summary paraphrases; what the person asked for should survive exactly. The
//! newest messages win the budget, and the messages the last compaction carried
//! come first (oldest first), so nothing the person said is lost to the second,
//! third or tenth compaction while the budget holds it.
//!
//! What the last compaction carried comes from the session state where the hooks
//! know it (its block may not be among the next compaction's messages at all: the
//! terminal delivers it as a context attachment), else from the newest block in
//! the messages ([`select`]). Which message is marked as the current request is
//! the caller's to say ([`Mark`]): only the hooks know whether a later message of
//! the person's follows the block in the request the model gets.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::engine::rows;
use crate::message::{Message, Messages};
use crate::text;

pub const CHARS_PER_TOKEN: f64 = 4.0;
pub const VERBATIM_OPEN: &str = "<user-messages-verbatim>";
pub const VERBATIM_CLOSE: &str = "</user-messages-verbatim>";
/// The separator of the reference's block, which earlier blocks may still use.
pub const VERBATIM_SEP: &str = "\n--- user message ---\n";
/// How much of one message the block keeps (UTF-16 units; the middle of a
/// longer one is cut, the history file holds it whole).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Caps {
    /// The newest message: the request the next model most needs word for word.
    pub newest: f64,
    /// Each earlier one: already answered, the summary tells its outcome, and
    /// the long ones are mostly pastes (a log, an accepted plan's text) that a
    /// search of the history finds whole. On the real compactions of
    /// `bench/continuation.mjs` these took most of the block's tokens.
    pub earlier: f64,
}

/// The reference's: every message up to 8,000 units.
#[cfg(feature = "compat")]
pub(crate) const REFERENCE_CAPS: Caps = Caps { newest: 8000.0, earlier: 8000.0 };
/// compact-plus's: the newest up to 8,000, each earlier one up to 2,000.
pub(crate) const CAPS: Caps = Caps { newest: 8000.0, earlier: 2000.0 };
pub const CUT_NOTE: &str = "the full text is in the history file";

/// compact-plus's own rows that a user row may hold and that are not the
/// person's: its rescue's summary row (`compaction::rescue::row::header`).
const OWN_ROWS: &[&str] = &[super::rescue::row::HEADER_START];

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

/// The person's own words in a user row, or `""` when the row is machine text
/// (the engine's, an agent's, a relay's).
pub fn person_text(text: &str) -> String {
    words_of(text, &[&rows::ENGINE_ROWS, rows::NOT_THE_PERSON, OWN_ROWS])
}

/// The person's words in a user row, where a row starting with any of
/// `machine` is none of theirs.
pub(crate) fn words_of(text: &str, machine: &[&[&str]]) -> String {
    let cleaned = text::remove_spans(text, rows::REMINDER_OPEN, rows::REMINDER_CLOSE);
    let cleaned = text::trim(&cleaned);
    if cleaned.is_empty() || machine.iter().flat_map(|m| m.iter()).any(|p| cleaned.starts_with(p)) {
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

/// The person's messages to keep word for word, oldest first: those the last
/// compaction carried, then this window's, chosen newest first within the
/// budget. `previous` is what the last compaction carried where the session
/// knows it; `None` reads it from the newest earlier block in the messages.
pub fn select(previous: Option<Vec<String>>, messages: &Messages, budget_tokens: f64) -> Vec<Entry> {
    let previous = previous.unwrap_or_else(|| carried(messages));
    select_from(previous, messages, budget_tokens, person_text, CAPS)
}

/// How many messages [`select`] chooses from: the carried words and this
/// window's person rows. What it did not choose, the budget left out (the
/// receipt says how many). Words an older block holds among the messages
/// (no carried words known) count as rows of their own: one each.
pub fn considered(previous: Option<&[String]>, messages: &Messages) -> usize {
    let rows = messages.iter().flatten().filter(|m| m.is_user() && !person_text(m.text()).is_empty()).count();
    previous.map_or(0, <[String]>::len) + rows
}

/// The messages to keep word for word within the budget: `carried` (from an
/// earlier block) first, then this window's person rows (`person` tells them),
/// chosen newest first. The product and the reference differ only in what they
/// carry and what they take for the person's; the choice within the budget is this one.
pub(crate) fn select_from(
    carried: Vec<String>,
    messages: &Messages,
    budget_tokens: f64,
    person: fn(&str) -> String,
    caps: Caps,
) -> Vec<Entry> {
    // NaN too: a budget that is no number keeps nothing.
    if budget_tokens.is_nan() || budget_tokens <= 0.0 {
        return Vec::new();
    }
    let mut entries: Vec<Entry> = carried.into_iter().map(|text| Entry { text, handle: None }).collect();
    for m in messages.iter().flatten() {
        if !m.is_user() {
            continue;
        }
        let text = person(m.text());
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
        let cap = if chosen.is_empty() { caps.newest } else { caps.earlier };
        let capped = text::cut_middle(&entry.text, cap.min(room), CUT_NOTE);
        room -= text::len16(&capped) as f64 + sep;
        chosen.push(Entry { text: capped, handle: entry.handle });
    }
    chosen.reverse();
    chosen
}

/// The separator of a message in a marked block: the request being worked on
/// when the context was compacted, or an earlier one. The mark lives in the
/// separator, not the text, so carrying a block into the next one drops old
/// marks by itself. It says when it held: the summary row stays in every later
/// request, where the person's later messages are newer.
const SEP_EARLIER: &str = "\n--- user message (earlier) ---\n";
const SEP_CURRENT: &str = "\n--- user message (current request when compacted) ---\n";
/// The current mark of blocks made before the mark said when it held: still read.
const SEP_CURRENT_BEFORE: &str = "\n--- user message (current request) ---\n";
const INTRO: &str = "The user's own messages, word for word, oldest first. compact-plus keeps them across compactions; where the summary above paraphrases one, the wording here is what the user said.";
const INTRO_CURRENT: &str = "The one marked (current request when compacted) was being worked on when the context was compacted: it is still the current request unless a message of the user's follows this summary. The earlier ones were answered unless the summary says otherwise.";
const INTRO_NONE_CURRENT: &str = "All of them are earlier requests, answered unless the summary says otherwise: the user's current request, if there is one, is their newest message, which is not in this list.";

/// Which kept message the block marks as the current request: only the
/// person's newest request that no later message of theirs follows in the
/// request the model gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mark {
    /// The newest entry is the request still being worked on: the block reaches
    /// the model inside the turn that asked it, with nothing of the person's
    /// after it (a compaction in the middle of a turn, its row delivered there).
    NewestCurrent,
    /// None: a message of the person's follows the block (the engine kept the
    /// current request after the summary, or the block arrives with a new
    /// prompt), or none is being worked on.
    #[default]
    NoneCurrent,
}

/// As a bool in the session state the shim keeps (`true`: the newest is
/// current): the derived reading of an enum costs the core 2 KB.
impl Serialize for Mark {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(*self == Mark::NewestCurrent)
    }
}

impl<'de> Deserialize<'de> for Mark {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Mark, D::Error> {
        Ok(if bool::deserialize(d)? { Mark::NewestCurrent } else { Mark::NoneCurrent })
    }
}

/// The verbatim block, its messages marked as `mark` says.
pub fn render(entries: &[Entry], mark: Mark) -> String {
    let last = entries.len().saturating_sub(1);
    let body: Vec<String> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let sep = if i == last && mark == Mark::NewestCurrent { SEP_CURRENT } else { SEP_EARLIER };
            format!("{sep}{}", e.text)
        })
        .collect();
    let intro = match mark {
        Mark::NewestCurrent => INTRO_CURRENT,
        Mark::NoneCurrent => INTRO_NONE_CURRENT,
    };
    format!("{VERBATIM_OPEN}\n{INTRO} {intro}\n{}\n{VERBATIM_CLOSE}", body.join("\n"))
}

/// Messages carried in the newest earlier block, plain or marked, oldest first,
/// without their marks.
fn carried(messages: &Messages) -> Vec<String> {
    let Some(body) = newest_block(messages) else { return Vec::new() };
    split_block(body).into_iter().map(text::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

/// The pieces after each separator, whichever of the three it is.
fn split_block(body: &str) -> Vec<&str> {
    let seps = [VERBATIM_SEP, SEP_EARLIER, SEP_CURRENT, SEP_CURRENT_BEFORE];
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

/// The mark of a compaction's verbatim block on its summary row (or a rescue's
/// own row). Only an automatic compaction runs inside a turn, its row reaching
/// the model in that turn: the newest message of the person's is then the
/// request being worked on, unless the engine kept it after the summary, where
/// the model reads it anyway. Every other compaction runs between turns (a
/// `/compact`, ours queued at a turn's end): a new prompt follows the row, and
/// every request in the block was answered (tests/HOST.md, "Which request is current").
pub fn row_mark(trigger: Option<&str>, kept: &[&Message]) -> Mark {
    let current_kept = kept.iter().any(|m| m.is_user() && !person_text(m.text()).is_empty());
    if trigger == Some("auto") && !current_kept {
        Mark::NewestCurrent
    } else {
        Mark::NoneCurrent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::summary_row::HEAD as SUMMARY_HEAD;
    use crate::message::parse_messages;

    fn msgs(json: &str) -> Messages {
        parse_messages(json)
    }

    #[test]
    fn the_newest_message_keeps_more_than_the_earlier_ones() {
        let long = |c: char| c.to_string().repeat(5000);
        let rows = serde_json::json!([
            {"role": "user", "text": long('a')},
            {"role": "user", "text": long('b')},
        ]);
        let chosen = select(None, &msgs(&rows.to_string()), 8000.0);
        assert_eq!(chosen.len(), 2);
        // The earlier one: 2,000 units kept around a cut in the middle, and the note naming the history file.
        assert!(text::len16(&chosen[0].text) <= 2000 + 80, "{}", text::len16(&chosen[0].text));
        assert!(chosen[0].text.starts_with("aaaa") && chosen[0].text.ends_with("aaaa") && chosen[0].text.contains(CUT_NOTE));
        // The newest: whole, under its 8,000.
        assert_eq!(chosen[1].text, long('b'));
        // The reference keeps both whole (its 8,000 each).
        let reference = crate::compat::verbatim::select(&msgs(&rows.to_string()), 8000.0);
        assert_eq!(reference[0].text, long('a'));
    }

    #[test]
    fn person_text_drops_machine_rows() {
        assert_eq!(person_text("  fix the bug \n"), "fix the bug");
        assert_eq!(person_text("<system-reminder>x</system-reminder>"), "");
        assert_eq!(person_text("<system-reminder>x</system-reminder>\n do it"), "do it");
        assert_eq!(person_text("<command-name>/compact</command-name>"), "");
        assert_eq!(person_text("Caveat: the messages below"), "");
        assert_eq!(person_text(&format!("{SUMMARY_HEAD} that ran out")), "");
        assert_eq!(person_text(""), "");
        // An unterminated reminder is the person's text as far as the reference knows.
        assert_eq!(person_text("<system-reminder> open"), "");
        assert_eq!(person_text("a <system-reminder> open"), "a <system-reminder> open");
    }

    #[test]
    fn team_agent_and_relayed_rows_are_not_the_persons() {
        // As the engine writes them (Claude Code 2.1.328, its bundle): a team lead's message to a
        // teammate, a peer session's delivered into a running turn, another agent's, a task
        // notification, a channel relay, the terminal's `!` shell rows, a skill's body.
        for row in [
            "<teammate-message teammate_id=\"team-lead\" color=\"blue\" summary=\"next step\">\nRun the migration now.\n</teammate-message>",
            "Another Claude session sent a message while you were working:\n<teammate-message teammate_id=\"lead\">\ngo\n</teammate-message>",
            "A peer session sent a message while you were working:\n<cross-session-message from=\"x\">hi</cross-session-message>",
            "<cross-session-message from=\"s1\">push it</cross-session-message>",
            "<agent-message from=\"reviewer\">looks fine</agent-message>",
            "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>",
            "[SYSTEM NOTIFICATION - NOT USER INPUT] Background command finished",
            "<channel source=\"slack\">deploy to prod</channel>",
            "<tick>",
            "<bash-input>git push --force</bash-input>",
            "<bash-stdout>Everything up-to-date</bash-stdout>",
            "Base directory for this skill: /home/u/.claude/skills/x\n\n# Skill",
            "<system-reminder>r</system-reminder>\n<teammate-message teammate_id=\"lead\">x</teammate-message>",
        ] {
            assert_eq!(person_text(row), "", "{row}");
        }
        // Words of the person's that only mention a tag, or quote one later on, stay theirs.
        assert_eq!(person_text("why did the <teammate-message> say so?"), "why did the <teammate-message> say so?");
        assert_eq!(person_text("Tick the box"), "Tick the box");
        // The reference's own reading (compat) keeps to its ten prefixes.
        assert_eq!(crate::compat::verbatim::person_text("<teammate-message teammate_id=\"l\">x</teammate-message>"), "<teammate-message teammate_id=\"l\">x</teammate-message>");
    }

    #[test]
    fn a_team_leads_row_is_never_the_current_request() {
        let m = msgs(&serde_json::json!([
            {"role": "user", "text": "Please migrate the users table", "handle": "a"},
            {"role": "assistant", "text": "Done."},
            {"role": "user", "text": "<teammate-message teammate_id=\"team-lead\">\nAlso drop the old table.\n</teammate-message>", "handle": "b"},
        ]).to_string());
        let chosen = select(None, &m, 8000.0);
        assert_eq!(chosen.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(), ["Please migrate the users table"]);
        let block = render(&chosen, Mark::NewestCurrent);
        assert!(block.contains("(current request when compacted) ---\nPlease migrate the users table\n"), "{block}");
        assert!(!block.contains("drop the old table"));
    }

    #[test]
    fn marks_move_to_the_newest_and_never_pile_up() {
        // Three compactions: each block is carried into the next.
        let mut history = String::new();
        for round in 0..4 {
            let mut rows = vec![serde_json::json!({"role": "user", "text": history})];
            rows.push(serde_json::json!({"role": "user", "text": format!("request {round}")}));
            let m = msgs(&serde_json::Value::Array(rows).to_string());
            let chosen = select(None, &m, 8000.0);
            let texts: Vec<&str> = chosen.iter().map(|e| e.text.as_str()).collect();
            let want: Vec<String> = (0..=round).map(|r| format!("request {r}")).collect();
            assert_eq!(texts, want, "round {round}");
            history = format!("{SUMMARY_HEAD} {round}\n{}", render(&chosen, Mark::NewestCurrent));
            assert_eq!(history.matches("(current request when compacted)").count(), 2, "{history}"); // intro + one mark
            assert!(history.contains(&format!("(current request when compacted) ---\nrequest {round}\n</user-")));
            assert_eq!(history.matches("--- user message (earlier) ---").count(), round);
        }
    }

    #[test]
    fn words_the_session_carried_come_first_whatever_the_messages_hold() {
        // The terminal: the last block is an attachment, not among the messages.
        let m = msgs(r#"[{"role":"user","text":"This session is being continued from a previous conversation. S."},
                        {"role":"user","text":"third","handle":"c"}]"#);
        let chosen = select(Some(vec!["first".into(), "second".into()]), &m, 8000.0);
        assert_eq!(chosen.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(), ["first", "second", "third"]);
        // Where the session knows them, a block in the messages is not read again (no second copy).
        let block = render(&chosen, Mark::NoneCurrent);
        let m = msgs(&serde_json::json!([{"role": "user", "text": format!("{SUMMARY_HEAD}.\n{block}")}, {"role": "user", "text": "fourth"}]).to_string());
        let texts: Vec<String> = select(Some(vec!["first".into(), "second".into(), "third".into()]), &m, 8000.0).into_iter().map(|e| e.text).collect();
        assert_eq!(texts, ["first", "second", "third", "fourth"]);
        // The oldest go first when the budget is short: 100 tokens = 400 characters, room for two.
        let long = |c: char| c.to_string().repeat(90);
        let texts: Vec<String> = select(Some(vec![long('a'), long('b')]), &msgs(&serde_json::json!([{"role": "user", "text": long('c')}]).to_string()), 100.0)
            .into_iter()
            .map(|e| e.text)
            .collect();
        assert_eq!(texts, [long('b'), long('c')]);
    }

    #[test]
    fn none_current_marks_every_entry_earlier() {
        let e = [Entry { text: "a".into(), handle: None }, Entry { text: "b".into(), handle: None }];
        let r = render(&e, Mark::NoneCurrent);
        assert!(!r.contains("(current request"), "{r}");
        assert_eq!(r.matches("--- user message (earlier) ---").count(), 2);
        assert!(r.contains("answered unless the summary says otherwise"), "{r}");
        let r = render(&e, Mark::NewestCurrent);
        assert!(r.ends_with("--- user message (earlier) ---\na\n\n--- user message (current request when compacted) ---\nb\n</user-messages-verbatim>"), "{r}");
        // A block marked before the mark said when it held is still read.
        let before = format!("{VERBATIM_OPEN}\nx\n{SEP_EARLIER}a\n{SEP_CURRENT_BEFORE}b\n{VERBATIM_CLOSE}");
        let m = msgs(&serde_json::json!([{"role": "user", "text": before}]).to_string());
        assert_eq!(carried(&m), vec!["a", "b"]);
    }

    #[test]
    fn plain_blocks_still_carry() {
        let block = crate::compat::verbatim::render(&[Entry { text: "old".into(), handle: None }]);
        let m = msgs(&serde_json::json!([{"role": "user", "text": block}]).to_string());
        assert_eq!(carried(&m), vec!["old"]);
    }
}
