//! What the engine's rejection of a compaction says, read from its text: a
//! refusal (the engine declined; its own result stands), a failure by cause
//! (the context is left uncompacted: compact-plus answers in its place), or a
//! text the engine was not measured to write (its own result stands: the safe
//! thing where the hook cannot tell).
//!
//! The texts are Claude Code 2.1.328's (tests/HOST.md, "Why a compaction did
//! not happen"; each checked on the real CLI by tests/e2e/engine-texts.test.mjs): `/compact`'s core throws `Not enough messages to compact.`
//! for too few message groups and `API Error: Request was aborted.` when
//! aborted, and for a failure `Compaction failed · conversation could not be
//! reduced below the context limit`, `Compaction failed · attached media
//! exceeds size limits` or `Error during compaction: <detail>`; an automatic
//! compaction's `next` rejects `reactive compaction did not settle ok`
//! whatever went wrong (the engine keeps the reason to itself).

use serde::{Deserialize, Serialize};

/// What `next`'s rejection says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The engine declined to compact; the conversation stays as it is, and
    /// the engine says why (`/compact` right after `/clear`). Nothing failed.
    Refused(Refusal),
    /// The engine's compaction failed and left the conversation uncompacted.
    Failed(Cause),
    /// A text the engine was not measured to write.
    Unknown,
}

/// Why the engine declined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// `Not enough messages to compact.`: too few message groups to summarize.
    TooFewMessages,
    /// `No messages to compact`: nothing at all (the command refuses before
    /// the hooks run; listed for completeness).
    NoMessages,
    /// `API Error: Request was aborted.`, `Compaction canceled.`: the person
    /// stopped it.
    Aborted,
}

/// Why the engine's compaction failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "f64", from = "f64")]
pub enum Cause {
    /// The summarizer request is over what the model takes, after the engine
    /// cut rounds from it (`could not be reduced below the context limit`).
    PromptTooLong,
    /// `attached media exceeds size limits`.
    MediaTooLarge,
    /// 529 after the engine's retries (`Repeated 529 Overloaded`).
    Overloaded,
    /// A 5xx after the engine's retries.
    ServerError,
    /// The summarizer's stream broke off (`Compaction interrupted`).
    Interrupted,
    /// The summarizer answered nothing (`summarization produced empty response`).
    EmptySummary,
    /// The summarizer's answer had no content block.
    NoAssistantMessage,
    /// The summarizer's answer had no `<summary>` block, and the engine
    /// refused it (`Failed to generate conversation summary`).
    NoSummaryBlock,
    /// An automatic compaction failed; the engine does not say why.
    AutomaticFailed,
    /// `Error during compaction:` with a detail not listed above.
    CompactionError,
}

/// Carried (`hooks::state::Carried`) as its place in [`Cause::ALL`], a number:
/// the state lives as long as the process, and names would cost the core's
/// `.wasm` 3 KB of serde code.
impl From<Cause> for f64 {
    fn from(c: Cause) -> f64 {
        Cause::ALL.iter().position(|&x| x == c).unwrap_or(0) as f64
    }
}

/// Any number out of range is a failure of no known cause.
impl From<f64> for Cause {
    fn from(n: f64) -> Cause {
        // `as` saturates: NaN and negatives are 0, past the end is no cause.
        Cause::ALL.get(n as usize).copied().filter(|_| n >= 0.0 && n.fract() == 0.0).unwrap_or(Cause::CompactionError)
    }
}

impl Cause {
    const ALL: [Cause; 10] = [
        Cause::PromptTooLong,
        Cause::MediaTooLarge,
        Cause::Overloaded,
        Cause::ServerError,
        Cause::Interrupted,
        Cause::EmptySummary,
        Cause::NoAssistantMessage,
        Cause::NoSummaryBlock,
        Cause::AutomaticFailed,
        Cause::CompactionError,
    ];

    /// As a person would name it (the rescue's header and `log.jsonl`'s `cause`).
    pub fn name(self) -> &'static str {
        match self {
            Cause::PromptTooLong => "prompt too long",
            Cause::MediaTooLarge => "attached media too large",
            Cause::Overloaded => "API overloaded",
            Cause::ServerError => "API server error",
            Cause::Interrupted => "connection interrupted",
            Cause::EmptySummary => "empty summary",
            Cause::NoAssistantMessage => "no assistant message",
            Cause::NoSummaryBlock => "no summary",
            Cause::AutomaticFailed => "automatic compaction failed",
            Cause::CompactionError => "compaction failed",
        }
    }
}

pub const TOO_FEW: &str = "Not enough messages to compact";
pub const NO_MESSAGES: &str = "No messages to compact";
pub const ABORTED: &str = "Request was aborted";
pub const CANCELED: &str = "Compaction canceled";
pub const PTL: &str = "could not be reduced below the context limit";
pub const MEDIA: &str = "attached media exceeds size limits";
pub const ERROR_DURING: &str = "Error during compaction:";
pub const AUTOMATIC: &str = "reactive compaction did not settle ok";
pub const PRECOMPUTED: &str = "precomputed compact: the summary did not settle ok";

/// The verdict on a rejection's text. The engine's texts may come wrapped (a
/// hooks error that quotes them), so each is looked for anywhere in it.
pub fn verdict(rejection: &str) -> Verdict {
    let r = rejection;
    if r.contains(TOO_FEW) {
        Verdict::Refused(Refusal::TooFewMessages)
    } else if r.contains(NO_MESSAGES) {
        Verdict::Refused(Refusal::NoMessages)
    } else if r.contains(ABORTED) || r.contains(CANCELED) {
        Verdict::Refused(Refusal::Aborted)
    } else if r.contains(PTL) {
        Verdict::Failed(Cause::PromptTooLong)
    } else if r.contains(MEDIA) {
        Verdict::Failed(Cause::MediaTooLarge)
    } else if r.contains(AUTOMATIC) || r.contains(PRECOMPUTED) {
        Verdict::Failed(Cause::AutomaticFailed)
    } else if let Some(at) = r.find(ERROR_DURING) {
        Verdict::Failed(detail_cause(r.get(at + ERROR_DURING.len()..).unwrap_or("")))
    } else {
        Verdict::Unknown
    }
}

/// The cause in `Error during compaction: <detail>`: the API's error as the
/// engine words it, or the engine's own reason.
fn detail_cause(detail: &str) -> Cause {
    let d = detail.to_ascii_lowercase();
    if d.contains("too long") {
        // `prompt is too long`, `Conversation too long. Press esc twice …`
        Cause::PromptTooLong
    } else if d.contains("529") || d.contains("overloaded") {
        Cause::Overloaded
    } else if d.contains("empty response") {
        Cause::EmptySummary
    } else if d.contains("no assistant message") {
        Cause::NoAssistantMessage
    } else if d.contains("<summary>") {
        Cause::NoSummaryBlock
    } else if d.contains("interrupted") || d.contains("network") || d.contains("connection") {
        Cause::Interrupted
    } else if d.contains("api error: 5") || d.contains("internal server error") {
        Cause::ServerError
    } else {
        Cause::CompactionError
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_refusals_are_no_failures() {
        assert_eq!(verdict("Not enough messages to compact."), Verdict::Refused(Refusal::TooFewMessages));
        assert_eq!(verdict("HooksError: Not enough messages to compact."), Verdict::Refused(Refusal::TooFewMessages));
        assert_eq!(verdict("No messages to compact"), Verdict::Refused(Refusal::NoMessages));
        assert_eq!(verdict("API Error: Request was aborted."), Verdict::Refused(Refusal::Aborted));
        assert_eq!(verdict("Compaction canceled."), Verdict::Refused(Refusal::Aborted));
    }

    #[test]
    fn failures_by_the_engines_wording() {
        let f = |t: &str| match verdict(t) {
            Verdict::Failed(c) => c.name(),
            other => panic!("{t}: {other:?}"),
        };
        assert_eq!(f("Compaction failed · conversation could not be reduced below the context limit"), "prompt too long");
        assert_eq!(f("Compaction failed · attached media exceeds size limits"), "attached media too large");
        assert_eq!(f("Error during compaction: API Error: Repeated 529 Overloaded errors."), "API overloaded");
        assert_eq!(f("Error during compaction: API Error: 500 Internal server error. This is a server-side issue"), "API server error");
        assert_eq!(f("Error during compaction: summarization produced empty response"), "empty summary");
        assert_eq!(f("Error during compaction: no assistant message in summarization response"), "no assistant message");
        assert_eq!(
            f("Error during compaction: Failed to generate conversation summary - the model's reply has no <summary> block"),
            "no summary"
        );
        assert_eq!(
            f("Error during compaction: Compaction interrupted · This may be due to network issues — please try again."),
            "connection interrupted"
        );
        assert_eq!(
            f("Error during compaction: Conversation too long. Press esc twice to go up a few messages and try again."),
            "prompt too long"
        );
        assert_eq!(f("Error during compaction: something new"), "compaction failed");
        assert_eq!(f("reactive compaction did not settle ok"), "automatic compaction failed");
        assert_eq!(f("precomputed compact: the summary did not settle ok"), "automatic compaction failed");
    }

    #[test]
    fn a_text_the_engine_was_not_measured_to_write_is_unknown() {
        assert_eq!(verdict(""), Verdict::Unknown);
        assert_eq!(verdict("TypeError: cannot read properties of undefined"), Verdict::Unknown);
        assert_eq!(verdict("session.compact: the hook's messages were refused"), Verdict::Unknown);
        // The API's words alone: the engine always wraps them (`Error during compaction:`).
        assert_eq!(verdict("prompt is too long: 1050000 tokens > 1000000 maximum"), Verdict::Unknown);
    }

    #[test]
    fn a_cause_is_carried_as_a_number_and_read_back() {
        for c in Cause::ALL {
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Cause>(&json).unwrap(), c, "{json}");
        }
        assert_eq!(serde_json::to_string(&Cause::PromptTooLong).unwrap(), "0.0");
        for odd in ["-1", "99", "1.5", "1e300"] {
            assert_eq!(serde_json::from_str::<Cause>(odd).unwrap(), Cause::CompactionError, "{odd}");
        }
    }
}
