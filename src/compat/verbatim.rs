//! The reference's verbatim block: every message under the same plain
//! separator, none marked as the current request. compact-plus still reads such
//! blocks (an earlier summary's) and writes its own, marked
//! ([`crate::compaction::verbatim`]); the choice within the budget is shared.

use crate::compaction::verbatim::{newest_block, select_from, words_of, REFERENCE_CAPS, VERBATIM_SEP};
use crate::engine::rows::ENGINE_ROWS;
use crate::message::Messages;
use crate::text;

// The reference's, which the product uses as they are.
pub use crate::compaction::verbatim::{Entry, CHARS_PER_TOKEN, CUT_NOTE, VERBATIM_CLOSE, VERBATIM_OPEN};

/// The person's own words in a user row, or `""` for the machine rows the
/// reference knows (the product knows more: `compaction::verbatim::person_text`).
pub fn person_text(text: &str) -> String {
    words_of(text, &[&ENGINE_ROWS])
}

const INTRO: &str = "The user's own messages, word for word, oldest first. compact-plus keeps them across compactions; where the summary above paraphrases one, the wording here is what the user said.";

/// Messages carried in the newest earlier summary's verbatim block, oldest first.
pub fn carried_messages(messages: &Messages) -> Vec<String> {
    let Some(body) = newest_block(messages) else { return Vec::new() };
    body.split(VERBATIM_SEP).skip(1).map(text::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

/// The person's messages to keep word for word, oldest first: those carried from
/// earlier summaries, then this window's, chosen newest first within the budget.
pub fn select(messages: &Messages, budget_tokens: f64) -> Vec<Entry> {
    select_from(carried_messages(messages), messages, budget_tokens, person_text, REFERENCE_CAPS)
}

/// The block appended to the summary row.
pub fn render(entries: &[Entry]) -> String {
    let body: Vec<String> = entries.iter().map(|e| format!("{VERBATIM_SEP}{}", e.text)).collect();
    format!("{VERBATIM_OPEN}\n{INTRO}\n{}\n{VERBATIM_CLOSE}", body.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;

    fn msgs(json: &str) -> Messages {
        parse_messages(json)
    }

    #[test]
    fn carried_messages_come_from_the_newest_block() {
        let block = render(&[
            Entry { text: "first".into(), handle: None },
            Entry { text: "second\r\n".into(), handle: None },
        ]);
        let json = serde_json::to_string(&serde_json::json!([
            {"role": "user", "text": "<user-messages-verbatim>\n--- user message ---\nold</user-messages-verbatim>"},
            {"role": "user", "text": format!("summary\n{block}")},
            {"role": "assistant", "text": block},
        ]))
        .unwrap();
        assert_eq!(carried_messages(&msgs(&json)), vec!["first", "second"]);
    }

    #[test]
    fn unterminated_block_is_skipped_for_an_older_one() {
        let json = r#"[{"role":"user","text":"<user-messages-verbatim>\n--- user message ---\nkept</user-messages-verbatim>"},
                       {"role":"user","text":"<user-messages-verbatim>\n--- user message ---\nbroken"}]"#;
        assert_eq!(carried_messages(&msgs(json)), vec!["kept"]);
    }

    #[test]
    fn budget_rules() {
        let json = r#"[{"role":"user","text":"one","handle":"a"},{"role":"assistant","text":"x"},
                       {"role":"user","text":"two","handle":"b"}]"#;
        let m = msgs(json);
        for bad in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            assert!(select(&m, bad).is_empty(), "{bad}");
        }
        let all = select(&m, f64::INFINITY);
        assert_eq!(all.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(), ["one", "two"]);
        assert_eq!(all[0].handle.as_ref().unwrap().get(), "\"a\"");
        // 50 tokens = 200 chars: room must be over 200 to take anything.
        assert!(select(&m, 50.0).is_empty());
        assert_eq!(select(&m, 51.0).len(), 1);
    }

    #[test]
    fn a_message_at_the_cap_is_kept_whole() {
        let at_cap = "x".repeat(8000);
        let over = "y".repeat(8001);
        let json = serde_json::to_string(&serde_json::json!([
            {"role": "user", "text": at_cap}, {"role": "user", "text": over}
        ]))
        .unwrap();
        let chosen = select(&msgs(&json), 100_000.0);
        assert_eq!(chosen[0].text, at_cap);
        assert_eq!(text::len16(&chosen[1].text), 8000 + "\n[... 1 characters cut; the full text is in the history file ...]\n".len());
    }

    #[test]
    fn render_shape() {
        let r = render(&[Entry { text: "a".into(), handle: None }, Entry { text: "b".into(), handle: None }]);
        assert_eq!(
            r,
            format!("{VERBATIM_OPEN}\n{INTRO}\n\n--- user message ---\na\n\n--- user message ---\nb\n{VERBATIM_CLOSE}")
        );
        assert_eq!(render(&[]), format!("{VERBATIM_OPEN}\n{INTRO}\n\n{VERBATIM_CLOSE}"));
    }
}
