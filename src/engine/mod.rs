//! The engine's own wording: every text of Claude Code that compact-plus
//! recognises or depends on, in one place, each as [`VERSION`] writes it and
//! with the measurement it comes from (tests/HOST.md). `plugin.json` accepts
//! any later engine; when one words a text otherwise, this is the one place to
//! change, and tests/e2e/engine-texts.test.mjs (a real run of the pinned CLI)
//! fails on the text that moved.
//!
//! - [`summary_row`]: the row the engine writes after its summarizer, and
//!   whether one it installed holds a summary.
//! - [`rejection`]: what `next`'s rejection of a compaction says (a refusal, a
//!   failure by cause, or words not measured).
//! - [`rows`]: user rows that are not the person's words: reminders (their
//!   tags in `reminder`, which the summary row holds too), the terminal's local
//!   commands and key hints, relayed envelopes.
//! - [`channels`]: the context block's routing and the queued `/compact`.
//!
//! What compact-plus does where a text is not found as expected: the engine's
//! own result, untouched (a row that does not open as the engine's is not
//! checked for a summary; a rejection in unknown words passes up as it came),
//! and one line in the debug log per process and text ([`Unexpected`]). A row
//! the engine writes in words these lists do not know is taken for the
//! person's, as the reference takes every row.
//!
//! Not here: the engine's reading of instruction files, which compact-plus
//! ports as code rather than matches as text (`crate::instructions`, also
//! keyed to this version). A leaf: it imports nothing of the crate.

pub mod channels;
pub mod rejection;
mod reminder;
pub mod rows;
pub mod summary_row;

/// The Claude Code version every text here was measured on (`scripts/setup`
/// pins it).
pub const VERSION: &str = "2.1.328";

/// A text of the engine's that compact-plus did not find at run time as
/// [`VERSION`] writes it. Each is told once per process in the debug log (the
/// hooks keep which, `Carried::unexpected_told`), and the engine's result
/// stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unexpected {
    /// The summary row of a compaction did not open with [`summary_row::HEAD`].
    SummaryRow,
    /// `next`'s rejection of a compaction is in words [`rejection`] does not know.
    Rejection,
}

impl Unexpected {
    /// Its bit in the set of those told.
    pub const fn bit(self) -> u8 {
        match self {
            Unexpected::SummaryRow => 1,
            Unexpected::Rejection => 2,
        }
    }

    /// The debug line, with the start of what was found (`seen`).
    pub fn line(self, seen: &str) -> String {
        let what = match self {
            Unexpected::SummaryRow => format!("the engine's summary row does not open as Claude Code {VERSION}'s (\"{}\"); it is left as it came, unchecked", summary_row::HEAD),
            Unexpected::Rejection => format!("the engine's compaction ended in words Claude Code {VERSION} was not measured to use; its result stands"),
        };
        format!("compact-plus: {what} (said once per process; src/engine/ holds the texts): {seen:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text here, with where tests/e2e/engine-texts.test.mjs looks for it
    /// in a real run of the pinned CLI: `summary-row` (the row `next` resolves
    /// to), `command-rows` (a later compaction's user rows after two headless
    /// `/compact`s), a scenario whose `next` rejects with it (`clear-compact`,
    /// `summarizer-500`, `summarizer-ptl`), `request` (the model request after a
    /// context block), `queued-compact` (the compaction a queued `/compact`
    /// starts), `bundle` (the CLI's own code, where a run cannot reach it: a
    /// tag as its quoted name), or `reference` (the reference's, which this
    /// engine no longer writes; kept for the reference's golden vectors).
    fn texts() -> Vec<(String, String, &'static str)> {
        let mut t: Vec<(String, String, &str)> = Vec::new();
        let mut add = |name: &str, text: &str, seen: &'static str| t.push((name.to_owned(), text.to_owned(), seen));
        add("summary_row::HEAD", summary_row::HEAD, "summary-row");
        add("summary_row::SUMMARY_MARK", summary_row::SUMMARY_MARK, "summary-row");
        add("summary_row::TAIL", summary_row::TAIL, "summary-row");
        add("rows::REMINDER_OPEN", rows::REMINDER_OPEN, "summary-row");
        add("rows::REMINDER_CLOSE", rows::REMINDER_CLOSE, "summary-row");
        add("rejection::TOO_FEW", rejection::TOO_FEW, "clear-compact");
        add("rejection::ERROR_DURING", rejection::ERROR_DURING, "summarizer-500");
        add("rejection::PTL", rejection::PTL, "summarizer-ptl");
        for (name, text) in [
            ("rejection::NO_MESSAGES", rejection::NO_MESSAGES),
            ("rejection::ABORTED", rejection::ABORTED),
            ("rejection::CANCELED", rejection::CANCELED),
            ("rejection::MEDIA", rejection::MEDIA),
            ("rejection::AUTOMATIC", rejection::AUTOMATIC),
            ("rejection::PRECOMPUTED", rejection::PRECOMPUTED),
        ] {
            add(name, text, "bundle");
        }
        for (name, tag) in [("rows::COMMAND_NAME", rows::COMMAND_NAME), ("rows::COMMAND_ARGS", rows::COMMAND_ARGS), ("rows::COMMAND_STDOUT", rows::COMMAND_STDOUT)] {
            add(name, &rows::tags(tag).0, "command-rows");
        }
        add("rows::COMMAND_STDERR", &rows::tags(rows::COMMAND_STDERR).0, "bundle");
        add("rows::COMMAND_CAVEAT", rows::COMMAND_CAVEAT, "bundle");
        add("rows::NO_CONTENT", rows::NO_CONTENT, "bundle");
        for m in rows::KEY_MODIFIERS {
            add("rows::KEY_MODIFIERS", m, "bundle");
        }
        for p in rows::NOT_THE_PERSON {
            add("rows::NOT_THE_PERSON", p, "bundle");
        }
        for p in rows::ENGINE_ROWS {
            let seen = if ["<side-sessions-event>", "<ci-monitor-event>"].contains(&p) { "reference" } else { "bundle" };
            add("rows::ENGINE_ROWS", p, seen);
        }
        add("channels::block_opening", &channels::block_opening("engine-texts-probe"), "request");
        for b in channels::ROUTED_BLOCKS {
            add("channels::ROUTED_BLOCKS", b, "bundle");
        }
        add("channels::COMPACT_COMMAND", channels::COMPACT_COMMAND, "queued-compact");
        t
    }

    /// tests/fixtures/engine-texts.json is this module's texts, for the real-CLI
    /// test to read; `ENGINE_TEXTS_WRITE=1 cargo test -p compact-plus --lib engine`
    /// writes it again after a change here.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_texts_the_real_cli_test_reads_are_this_modules() {
        let entries: Vec<serde_json::Value> =
            texts().into_iter().map(|(name, text, seen)| serde_json::json!({"name": name, "text": text, "seen": seen})).collect();
        let want = format!("{:#}\n", serde_json::json!({"version": VERSION, "texts": entries}));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/engine-texts.json");
        if std::env::var_os("ENGINE_TEXTS_WRITE").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(have == want, "{path} differs from src/engine/: run ENGINE_TEXTS_WRITE=1 cargo test -p compact-plus --lib engine");
    }

    #[test]
    fn each_unexpected_text_has_a_bit_of_its_own_and_a_line_that_names_it() {
        assert_ne!(Unexpected::SummaryRow.bit(), Unexpected::Rejection.bit());
        let line = Unexpected::SummaryRow.line("A summary:");
        assert!(line.starts_with("compact-plus: the engine's summary row") && line.contains(VERSION) && line.ends_with("\"A summary:\""), "{line}");
    }
}
