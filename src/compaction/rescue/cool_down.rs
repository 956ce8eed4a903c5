//! After the engine's summarizer failed and compact-plus answered, how long
//! the automatic compactions that follow (the threshold's, another plugin's,
//! compact-plus's own turn-end `/compact`) leave that summarizer alone and
//! are answered by the rescue at once. A person's `/compact` always asks the
//! engine; a compaction whose summarizer answers ends the cool-down, and so
//! does the end of the conversation (`/clear`).

use serde::{Deserialize, Serialize};

use crate::engine::rejection::Cause;

const MINUTE_MS: f64 = 60_000.0;

/// How long after a failure of this cause the summarizer is left alone, in
/// milliseconds; 0 for none.
///
/// A retry is worth skipping only where it would fail again and cost the
/// person a wait; each rule follows from what the engine did before giving
/// up (measured on 2.1.328: e2e-kit failures/README.md section 1).
///
/// - A server error or a broken stream: the engine had already retried with
///   backoff (up to 11 requests over 185 s at its defaults), so the service
///   was down for minutes, and every automatic compaction that asks again
///   makes the person wait that long once more: 5 minutes.
/// - Overloaded (529): the engine gives up after 3 requests in about 2 s
///   (`Repeated 529`). An overload passes in seconds to minutes and a retry
///   costs seconds: 1 minute spares the turns right after it, no more.
/// - An automatic compaction's failure, which the engine does not explain:
///   it may be any of these, so 2 minutes, between the two.
/// - Prompt too long, media too large: a matter of the conversation, not of
///   time. The conversation that was too long is gone (the rescue replaced
///   it), and later compactions go down trimmed (`compaction::trim`): none.
/// - An empty reply, no content, no `<summary>` block: the service answered;
///   the next reply is a new draw and asking costs two quick requests: none.
pub fn cool_down_ms(cause: Cause) -> f64 {
    match cause {
        Cause::ServerError | Cause::Interrupted | Cause::CompactionError => 5.0 * MINUTE_MS,
        Cause::Overloaded => MINUTE_MS,
        Cause::AutomaticFailed => 2.0 * MINUTE_MS,
        Cause::PromptTooLong
        | Cause::MediaTooLarge
        | Cause::EmptySummary
        | Cause::NoAssistantMessage
        | Cause::NoSummaryBlock => 0.0,
    }
}

/// A summarizer failure being waited out: in which conversation, of what
/// cause, since when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "(String, Cause, f64)", from = "(String, Cause, f64)")]
pub struct CoolDown {
    /// The conversation's session id: another conversation's summarizer (after
    /// `/clear`, a resume of another session) owes nothing to this failure.
    pub conversation: String,
    pub cause: Cause,
    /// When (clock ms) compact-plus answered the failed compaction.
    pub since: f64,
}

/// Carried (`hooks::state::Carried`) as a tuple: a derived map costs the
/// core's `.wasm` 2 KB more, for state only the shim holds between rebuilds.
impl From<CoolDown> for (String, Cause, f64) {
    fn from(c: CoolDown) -> Self {
        (c.conversation, c.cause, c.since)
    }
}

impl From<(String, Cause, f64)> for CoolDown {
    fn from((conversation, cause, since): (String, Cause, f64)) -> Self {
        CoolDown { conversation, cause, since }
    }
}

impl CoolDown {
    /// The cool-down a failure of `cause` starts, if its cause has one.
    pub fn after(conversation: &str, cause: Cause, at: f64) -> Option<CoolDown> {
        (cool_down_ms(cause) > 0.0 && at.is_finite())
            .then(|| CoolDown { conversation: conversation.to_owned(), cause, since: at })
    }

    /// How long ago the failure was (ms), while its cool-down holds for this
    /// conversation at `now`; `None` once it is over or for another one.
    pub fn holds(&self, conversation: &str, now: f64) -> Option<f64> {
        let ago = now - self.since;
        (self.conversation == conversation && (0.0..cool_down_ms(self.cause)).contains(&ago)).then_some(ago)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/rescue.md's table of the cool-downs is this function, row for row.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_docs_table_of_cool_downs_is_this_one() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rescue.md")).unwrap();
        let head = "| the failure | the cool-down |\n| --- | --- |\n";
        let table = doc.split_once(head).expect("docs/rescue.md has the table of the cool-downs").1;
        let rows: Vec<&str> = table.lines().take_while(|l| l.starts_with('|')).map(|l| l.rsplit('|').nth(1).unwrap_or("").trim()).collect();
        let groups: [&[Cause]; 5] = [
            &[Cause::ServerError, Cause::Interrupted, Cause::CompactionError],
            &[Cause::Overloaded],
            &[Cause::AutomaticFailed],
            &[Cause::PromptTooLong, Cause::MediaTooLarge],
            &[Cause::EmptySummary, Cause::NoAssistantMessage, Cause::NoSummaryBlock],
        ];
        let said = |ms: f64| match ms / MINUTE_MS {
            0.0 => "none".to_owned(),
            1.0 => "1 minute".to_owned(),
            m => format!("{m} minutes"),
        };
        assert_eq!(rows.len(), groups.len(), "{rows:?}");
        for (row, causes) in rows.iter().zip(groups) {
            for cause in causes {
                assert_eq!(*row, said(cool_down_ms(*cause)), "{cause:?}");
            }
        }
    }

    #[test]
    fn a_transient_failure_cools_briefly_a_prompt_too_long_not_at_all() {
        let overloaded = CoolDown::after("a", Cause::Overloaded, 1_000.0).unwrap();
        assert_eq!(overloaded.holds("a", 1_000.0 + 30_000.0), Some(30_000.0));
        assert_eq!(overloaded.holds("a", 1_000.0 + 61_000.0), None, "a minute for an overload");
        let server = CoolDown::after("a", Cause::ServerError, 0.0).unwrap();
        assert!(server.holds("a", 4.0 * MINUTE_MS).is_some());
        assert!(server.holds("a", 5.0 * MINUTE_MS).is_none());
        let automatic = CoolDown::after("a", Cause::AutomaticFailed, 0.0).unwrap();
        assert!(automatic.holds("a", 119_000.0).is_some() && automatic.holds("a", 121_000.0).is_none());
        assert_eq!(CoolDown::after("a", Cause::PromptTooLong, 0.0), None);
        assert_eq!(CoolDown::after("a", Cause::NoSummaryBlock, 0.0), None);
        assert_eq!(CoolDown::after("a", Cause::Overloaded, f64::NAN), None, "no clock, no cool-down");
    }

    #[test]
    fn it_is_carried_and_read_back() {
        let c = CoolDown::after("3e771ee8", Cause::Overloaded, 1_700_000_000_000.0).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<CoolDown>(&json).unwrap(), c, "{json}");
    }

    #[test]
    fn it_belongs_to_its_conversation() {
        let c = CoolDown::after("a", Cause::ServerError, 0.0).unwrap();
        assert_eq!(c.holds("b", 1_000.0), None, "another conversation is not cooled");
        assert_eq!(c.holds("a", -1.0), None, "a clock gone back holds nothing");
        assert_eq!(c.holds("a", f64::NAN), None);
    }
}
