//! The one block after the summary that says what the summary lost: the flags of the summary
//! check, the work record's items the summary does not already say, then the identifiers it
//! dropped; together within [`BLOCK_CHARS`], each thing named once.

use crate::attribution::{self, Flag};
use crate::record::{self, command, Change, Item, Record};
use crate::text;
use super::coverage::{needles, Haystack, Needle};
use super::mention::{Kind, Mention, Mentions, Source};
use super::render::{dropped_within, render};

/// The whole block, in UTF-16 units: 1,500 tokens at about 4 a token.
pub const BLOCK_CHARS: usize = 6000;
/// The identifiers' share of it at most (300 tokens): after the record, a path the summary left
/// out matters less than a failure or a commit, and every token here is one more in each request.
pub const IDENTIFIER_CHARS: usize = 1200;

/// The work record's heading in the block.
pub const RECORD_INTRO: &str = "compact-plus: work before this compaction the summary above leaves out (the whole work record ends the history file):";

/// What the line counting the record's items with no room says of them.
const MORE: &str = " in the work record at the end of the history file";

/// What the summary lost, found before the block is written.
pub struct Lost<'a> {
    pub record: Option<&'a Record>,
    pub mentions: Option<&'a Mentions>,
    pub flags: &'a [Flag],
    /// Redaction, for the texts the flags quote before they are cut.
    pub clean: &'a dyn Fn(&str) -> String,
}

/// The block, or `None` when the summary lost nothing. `kept`: the texts the next model has
/// anyway (the summary row, the messages the engine keeps, the verbatim block).
pub fn block(lost: &Lost, kept: &[&str]) -> Option<String> {
    let hay = Haystack::new(kept);
    let mut parts: Vec<String> = Vec::new();
    let mut room = BLOCK_CHARS;
    if let Some(flags) = attribution::render(lost.flags, lost.clean) {
        room = room.saturating_sub(text::len16(&flags) + 2);
        parts.push(flags);
    }
    let mut record_text = String::new();
    if let Some(record) = lost.record {
        let unsaid: Vec<&Item> = record.items.iter().filter(|i| !said(i, &hay)).collect();
        if let Some(text) = record::render(RECORD_INTRO, &unsaid, room, MORE) {
            room = room.saturating_sub(text::len16(&text) + 2);
            record_text = text;
            parts.push(record_text.clone());
        }
    }
    if let Some(mentions) = lost.mentions {
        // What the record names is not listed again.
        let mut with_record: Vec<&str> = kept.to_vec();
        with_record.push(&record_text);
        if let Some(audit) = render(&dropped_within(mentions, &with_record, room.min(IDENTIFIER_CHARS))) {
            parts.push(audit);
        }
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// Whether the kept text already says an item: a failure by its command and its error line, a
/// commit by its short sha or its subject, a branch by its name, a todo by its text, a file by
/// its path (or its last two parts), a deletion with the word for it.
fn said(item: &Item, hay: &Haystack) -> bool {
    let has = |s: &str, bounded: bool| {
        let s = text::trim(s);
        !s.is_empty() && hay.contains(&Needle::new(s, bounded, bounded))
    };
    match item {
        Item::Failed { command: c, error, .. } => has(&command::core(c), false) && has(text::head(error, 60), false),
        Item::Commit { sha, subject, .. } => {
            has(text::head(sha, 7), true) || (text::len16(subject) >= 12 && has(subject, false))
        }
        Item::Branch { name } => has(name, true),
        Item::Todo { text: t, .. } => has(t, false),
        Item::File { path, change } => {
            let m = Mention { kind: Kind::Path, text: path.clone(), source: Source::Used, count: 1, last: 0, message: 0 };
            let named = needles(&m).iter().any(|n| hay.contains(n));
            named && (*change != Change::Deleted || ["delet", "remov"].iter().any(|w| hay.contains(&Needle::new(w, false, false))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{collect, INTRO, MAX_LISTED_CHARS};
    use crate::message::{parse_messages, Messages};
    use crate::record;
    use serde_json::{json, Value};

    fn same(t: &str) -> String {
        t.to_owned()
    }

    fn bash(command: &str, out: &str, error: bool) -> Value {
        json!({"role": "assistant", "text": "", "toolUses": [{"tool": "Bash", "input": {"command": command}, "text": out, "isError": error}]})
    }

    fn work() -> Messages {
        let mut rows = vec![
            json!({"role": "user", "text": "fix the build in src/app.rs and commit on feature/x"}),
            bash("git checkout -b feature/x", "Switched to a new branch 'feature/x'", false),
            json!({"role": "assistant", "toolUses": [{"tool": "Edit", "input": {"file_path": "/w/src/app.rs"}, "text": "ok"}]}),
            bash("git commit -am 'Fix the build'", "[feature/x 1a2b3c4d] Fix the build\n 1 file changed", false),
            bash("cargo test", "Exit code 101\nerror[E0308]: mismatched types in src/app.rs", true),
        ];
        // Paths mentioned twelve times: the audit's best ranked, yet below the commit.
        for i in 0..12 {
            rows.push(json!({"role": "assistant", "text": format!("see docs/notes{}.md and docs/often.md", i % 3)}));
        }
        parse_messages(&Value::Array(rows).to_string())
    }

    #[test]
    fn what_the_summary_lacks_once_record_first() {
        let m = work();
        let r = record::read(&m, &same);
        let mentions = collect(&m);
        let summary = "Edited src/app.rs on a new branch.";
        let b = block(&Lost { record: Some(&r), mentions: Some(&mentions), flags: &[], clean: &same }, &[summary]).unwrap_or_default();
        let at_record = b.find(RECORD_INTRO).unwrap_or(usize::MAX);
        let at_audit = b.find(INTRO).unwrap_or(usize::MAX);
        assert!(at_record < at_audit && at_audit < usize::MAX, "{b}");
        assert!(b.contains("- last run failed ([4]): `cargo test` → error[E0308]: mismatched types in src/app.rs"), "{b}");
        assert!(b.contains("- commit 1a2b3c4d on feature/x (a branch made here): Fix the build"), "{b}");
        assert!(!b.contains("file edited"), "the summary names src/app.rs: {b}");
        // The commit beats the path named twelve times, and nothing is named twice.
        assert!(b.find("1a2b3c4d") < b.find("docs/often.md"), "{b}");
        for needle in ["1a2b3c4d", "feature/x", "cargo test"] {
            assert_eq!(b.matches(needle).count(), 1, "{needle} in {b}");
        }
    }

    #[test]
    fn what_the_summary_says_is_left_out() {
        let m = work();
        let r = record::read(&m, &same);
        let summary = "On feature/x, committed 1a2b3c4 (Fix the build). `cargo test` still fails: error[E0308]: mismatched types in src/app.rs.";
        assert_eq!(block(&Lost { record: Some(&r), mentions: None, flags: &[], clean: &same }, &[summary]), None);
        // The command alone, without how it failed, is not enough.
        let b = block(&Lost { record: Some(&r), mentions: None, flags: &[], clean: &same }, &["On feature/x, committed 1a2b3c4. Ran cargo test."]);
        assert!(b.is_some_and(|b| b.contains("`cargo test` →") && !b.contains("commit 1a2b3c4d")));
    }

    #[test]
    fn within_the_budget_and_the_rest_named() {
        let rows: Vec<Value> = (0..200).map(|i| bash(&format!("make target{i} {}", "x".repeat(120)), &format!("Exit code 2\nerror: target {i} {}", "y".repeat(120)), true)).collect();
        let m = parse_messages(&Value::Array(rows).to_string());
        let r = record::read(&m, &same);
        let mentions = collect(&m);
        let flags: Vec<Flag> = (0..20).map(|i| Flag { passage: format!("invented request {i} {}", "z".repeat(200)), nearest: Some((i, "w".repeat(300))) }).collect();
        let b = block(&Lost { record: Some(&r), mentions: Some(&mentions), flags: &flags, clean: &same }, &["summary"]).unwrap_or_default();
        assert!(text::len16(&b) <= BLOCK_CHARS, "{}", text::len16(&b));
        assert!(b.contains(attribution::HEAD) && b.contains(RECORD_INTRO));
        assert!(b.contains("more in the work record at the end of the history file"), "{b}");
        // The identifiers keep to their share.
        let a = block(&Lost { record: None, mentions: Some(&mentions), flags: &[], clean: &same }, &["summary"]).unwrap_or_default();
        assert!(text::len16(&a) <= IDENTIFIER_CHARS && text::len16(&a) <= MAX_LISTED_CHARS, "{}", text::len16(&a));
    }

    #[test]
    fn nothing_lost_no_block() {
        assert_eq!(block(&Lost { record: None, mentions: None, flags: &[], clean: &same }, &["x"]), None);
        let empty = record::Record::default();
        assert_eq!(block(&Lost { record: Some(&empty), mentions: Some(&Mentions::default()), flags: &[], clean: &same }, &[]), None);
    }
}
