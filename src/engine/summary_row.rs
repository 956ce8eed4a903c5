//! The summary row the engine writes after its summarizer answered, and
//! whether one it installed holds a summary.
//!
//! The engine installs a summarizer reply it asked for twice even when it has
//! no `<summary>` block (e2e-kit failures/README.md section 1,
//! `r-manual-nosummary`): the session then goes on with whatever the reply
//! said. Its row is its head paragraph, an optional `<system-reminder>`
//! block, the reply as the engine rewrites it, then its transcript paragraph.
//! The rewrite (2.1.328, measured in tests/HOST.md "The summary row the engine
//! writes"; checked on the real CLI by tests/e2e/engine-texts.test.mjs): the first `<analysis>…</analysis>` taken out, the first
//! `<summary>…</summary>` replaced by `Summary:` and a line break and what it
//! held, text before and after it kept, blank runs cut to one blank line.
//! A `<summary>` never closed stays as it came (the engine accepts a reply
//! with `<summary>` at a line's start).

use super::reminder::{REMINDER_CLOSE, REMINDER_OPEN};

/// The start of the engine's summary row (2.1.328).
pub const HEAD: &str = "This session is being continued from a previous conversation";
/// What follows the summary in the engine's row.
pub const TAIL: &str = "\n\nIf you need specific details from before compaction";
/// What a `<summary>` block becomes in the row.
pub const SUMMARY_MARK: &str = "Summary:\n";

/// Why a summary row the engine installed is no summary, when the hook can
/// tell for certain; `None` for one that is (a preamble before the summary
/// included), or for a row that is not the engine's.
pub fn no_summary(row: &str) -> Option<&'static str> {
    let rest = row.strip_prefix(HEAD)?;
    // The head paragraph ends at the first blank line.
    let (_, rest) = rest.split_once("\n\n")?;
    let rest = match rest.strip_prefix(REMINDER_OPEN) {
        Some(r) => r.split_once(REMINDER_CLOSE)?.1,
        None => rest,
    };
    let body = rest.split_once(TAIL).map_or(rest, |(b, _)| b);
    let block = body.contains(SUMMARY_MARK) || body.lines().any(|l| l.trim_start().starts_with("<summary>"));
    if body.replacen(SUMMARY_MARK, "", 1).trim().is_empty() {
        Some("the engine's summary row held no summary")
    } else if !block {
        Some("the summarizer's reply held no <summary> block; the engine installed it as the summary")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's rows as 2.1.328 wrote them for these replies (tests/HOST.md).
    fn engine_row(body: &str) -> String {
        format!("This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n<system-reminder>\n<tools-used-before-summary></tools-used-before-summary>\n</system-reminder>\n{body}\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /tmp/x.jsonl\nContinue the conversation from where it left off without asking the user any further questions.")
    }

    #[test]
    fn a_summary_is_kept_whatever_comes_before_or_after_it() {
        // `<analysis>` first, then `<summary>`: the usual reply.
        assert_eq!(no_summary(&engine_row("Summary:\n1. Primary Request and Intent: ANALYSIS-KEPT")), None);
        // A preamble before `<summary>`.
        assert_eq!(no_summary(&engine_row("Here is the summary of our conversation so far.\n\nSummary:\n1. PREAMBLE-KEPT")), None);
        // A preamble, an analysis between, more words.
        assert_eq!(no_summary(&engine_row("Sure.\n\nHere it is:\nSummary:\nPA-KEPT")), None);
        // Text after the block.
        assert_eq!(no_summary(&engine_row("Summary:\n1. TRAILER-KEPT\n\nLet me know if you need more.")), None);
        // A `<summary>` never closed (cut short), which the engine accepts.
        assert_eq!(no_summary(&engine_row("<summary>\n1. Primary Request and Intent: UNCLOSED cut short")), None);
    }

    #[test]
    fn a_row_with_no_summary_is_known() {
        assert!(no_summary(&engine_row("I cannot summarize this conversation.")).is_some_and(|w| w.contains("no <summary>")));
        assert!(no_summary(&engine_row("1. Primary Request and Intent: NO-TAGS the person asked for KIWI.")).is_some());
        assert!(no_summary(&engine_row("   ")).is_some_and(|w| w.contains("held no summary")));
        assert!(no_summary(&engine_row("Summary:\n")).is_some_and(|w| w.contains("held no summary")), "an empty block");
        // Without the system-reminder block, and without the tail.
        assert_eq!(no_summary("This session is being continued from a previous conversation.\n\nSummary:\nok"), None);
        assert!(no_summary("This session is being continued from a previous conversation.\n\nno tags here").is_some());
    }

    #[test]
    fn a_row_that_is_not_the_engines_is_left_alone() {
        assert_eq!(no_summary("[compact-plus wrote this summary]"), None);
        assert_eq!(no_summary(""), None);
        assert_eq!(no_summary("This session is being continued from a previous conversation."), None);
        assert_eq!(no_summary("This session is being continued from a previous conversation.\n\n<system-reminder> unclosed"), None);
    }
}
