//! compact-plus's own compaction, for when the engine's fails (its `next`
//! rejects: prompt too long, overloaded, a 5xx after its retries, an empty
//! reply, no assistant message). Without it the session stays as it was, and
//! at the blocking limit every later turn fails the same way (measured:
//! e2e-kit `failures/README.md` section 1).
//!
//! Two tiers share one summary row: tier 1's body is the rescue model's summary
//! ([`prompt`], [`chunks`], [`merge_prompt`]); tier 2's, when no model answers,
//! is a digest made here from the conversation with no model at all
//! ([`digest`]). Around either body: one line that says compact-plus wrote it
//! and why the engine's failed, the person's messages word for word, the audit's
//! identifiers, the pointer to the history and the recall tool. The newest
//! messages stay after the row by their handles, within [`KEEP_TOKENS`]
//! ([`keep_from`]).

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

use crate::message::{Message, Messages};
use crate::text;

/// The newest messages kept whole after the summary row, in tokens (about 4
/// characters a token, tool inputs and outputs counted).
pub const KEEP_TOKENS: usize = 8_000;
/// The digest's size at most, in characters (UTF-16 units).
pub const DIGEST_MAX_CHARS: usize = 16_000;
const CHARS_PER_TOKEN: usize = 4;
const LINE_MAX: usize = 300;
const MAX_FILES: usize = 60;
const MAX_COMMANDS: usize = 30;
const MAX_ERRORS: usize = 20;
const MAX_TODOS: usize = 30;
const LAST_ASSISTANT_MAX: usize = 2_000;
const CUT_NOTE: &str = "\n[… cut by compact-plus …]\n";

/// Why the engine's compaction failed, as a person would name it, from the
/// text of `next`'s rejection (the engine's wording, measured on 2.1.328:
/// e2e-kit `failures/README.md` section 1).
pub fn cause(rejection: &str) -> &'static str {
    let r = rejection.to_ascii_lowercase();
    if r.contains("too long") || r.contains("could not be reduced") {
        "prompt too long"
    } else if r.contains("529") || r.contains("overloaded") {
        "API overloaded"
    } else if r.contains("empty response") {
        "empty summary"
    } else if r.contains("no assistant message") {
        "no assistant message"
    } else if r.contains("api error: 5") || r.contains("internal server error") {
        "API server error"
    } else if r.contains("cool-down") {
        "summarizer failing (cool-down)"
    } else if r.contains("no <summary>") {
        "no summary"
    } else if r.contains("did not settle") {
        "automatic compaction failed"
    } else {
        "compaction failed"
    }
}

/// Why a summary row the engine installed is no summary, when the hook can
/// tell for certain; `None` for one that is, or for a row that is not the
/// engine's. The engine's row is its head paragraph, an optional
/// `<system-reminder>` block, the summary, then its transcript paragraph; a
/// reply with a `<summary>` block becomes `Summary:` and what it held, and one
/// without (asked for once more, then installed as it came) is there as it
/// came (measured on 2.1.328: e2e-kit failures/README.md section 1,
/// `r-manual-ok` against `r-manual-nosummary`, the rows' texts compared).
pub fn no_summary(row: &str) -> Option<&'static str> {
    let rest = row.strip_prefix(ENGINE_ROW_HEAD)?;
    // The head paragraph ends at the first blank line.
    let (_, rest) = rest.split_once("\n\n")?;
    let rest = match rest.strip_prefix("<system-reminder>") {
        Some(r) => r.split_once("</system-reminder>")?.1,
        None => rest,
    };
    let body = rest.split_once(ENGINE_ROW_TAIL).map_or(rest, |(b, _)| b);
    let body = body.trim();
    if body.is_empty() {
        Some("the engine's summary row held no summary")
    } else if !body.starts_with("Summary:") {
        Some("the summarizer's reply held no <summary> block; the engine installed it as the summary")
    } else {
        None
    }
}

/// The start of the engine's summary row (2.1.328).
const ENGINE_ROW_HEAD: &str = "This session is being continued from a previous conversation";
/// What follows the summary in the engine's row.
const ENGINE_ROW_TAIL: &str = "\n\nIf you need specific details from before compaction";

/// The summary row's first line.
pub fn header(tier: u8, cause: &str, rejection: &str) -> String {
    let how = if tier == 1 { "summarized by the rescue model" } else { "a digest made without a model" };
    let why = text::head(&first_line(rejection), 200).to_owned();
    format!(
        "[compact-plus wrote this summary ({how}): the engine's own compaction failed ({cause}: {why}). The full conversation is in the history file below.]"
    )
}

fn first_line(s: &str) -> String {
    text::trim(s.lines().find(|l| !text::trim(l).is_empty()).unwrap_or("")).to_owned()
}

fn line(s: &str) -> String {
    let one = s.split_whitespace().collect::<Vec<_>>().join(" ");
    text::cut_middle(&one, LINE_MAX as f64, "…")
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolInput {
    file_path: Option<String>,
    notebook_path: Option<String>,
    path: Option<String>,
    command: Option<String>,
    todos: Option<Vec<Todo>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Todo {
    content: Option<String>,
    status: Option<String>,
}

const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// What a deterministic reading of the conversation finds.
#[derive(Debug, Default, PartialEq)]
pub struct Digest {
    /// Each file edited, with the tools that edited it.
    pub files: BTreeMap<String, BTreeSet<String>>,
    /// Each command run (newest last) and how it ended.
    pub commands: Vec<(String, String)>,
    pub errors: Vec<String>,
    /// The open items of the last todo list.
    pub todos: Vec<String>,
    pub last_assistant: Option<String>,
}

/// How a tool call ended, from its outcome: the engine's "Exit code N" line
/// when the output has one, else ok or error.
fn status(text: &str, is_error: bool) -> String {
    let exit = text.lines().map(text::trim).find(|l| l.starts_with("Exit code "));
    match exit {
        Some(l) => line(l),
        None if is_error => "error".into(),
        None => "ok".into(),
    }
}

fn error_lines(out: &str, is_error: bool, into: &mut Vec<String>) {
    if is_error {
        if let Some(l) = out.lines().map(text::trim).find(|l| !l.is_empty() && !l.starts_with("Exit code ")) {
            into.push(line(l));
        }
    }
    for l in out.lines().map(text::trim) {
        let lower = l.get(..l.len().min(12)).unwrap_or("").to_ascii_lowercase();
        if lower.starts_with("error") || lower.starts_with("fatal:") || lower.starts_with("panicked") {
            into.push(line(l));
        }
    }
}

pub fn digest(messages: &Messages) -> Digest {
    let mut d = Digest::default();
    let mut errors = Vec::new();
    for m in messages.iter().flatten() {
        if !m.is_user() && !text::trim(m.text()).is_empty() {
            d.last_assistant = Some(m.text().to_owned());
        }
        for u in m.tool_uses.0.iter() {
            let tool = u.tool.to_js_string();
            let input: ToolInput = u.input.as_ref().and_then(|r| serde_json::from_str(r.get()).ok()).unwrap_or_default();
            let out = u.text.as_deref().unwrap_or("");
            let is_error = u.is_error.truthy();
            if EDIT_TOOLS.contains(&tool.as_str()) {
                if let Some(path) = input.file_path.or(input.notebook_path).or(input.path) {
                    d.files.entry(line(&path)).or_default().insert(line(&tool));
                }
            }
            if let Some(command) = input.command.filter(|_| tool == "Bash") {
                d.commands.push((line(&command), status(out, is_error)));
            }
            if let Some(todos) = input.todos.filter(|_| tool == "TodoWrite") {
                d.todos = todos
                    .into_iter()
                    .filter(|t| t.status.as_deref() != Some("completed"))
                    .filter_map(|t| t.content.map(|c| format!("{} ({})", line(&c), t.status.as_deref().unwrap_or("open"))))
                    .collect();
            }
            error_lines(out, is_error, &mut errors);
        }
    }
    let mut seen = BTreeSet::new();
    errors.retain(|e| seen.insert(e.clone()));
    d.errors = newest(errors, MAX_ERRORS);
    d.commands = newest(std::mem::take(&mut d.commands), MAX_COMMANDS);
    d.todos.truncate(MAX_TODOS);
    if d.files.len() > MAX_FILES {
        d.files = d.files.into_iter().take(MAX_FILES).collect();
    }
    d
}

fn newest<T>(mut items: Vec<T>, n: usize) -> Vec<T> {
    let cut = items.len().saturating_sub(n);
    items.drain(..cut);
    items
}

/// The digest as the summary row's body, within [`DIGEST_MAX_CHARS`].
pub fn render_digest(d: &Digest) -> String {
    let mut out = String::from("## What the conversation did (compact-plus digest)\n");
    let section = |out: &mut String, title: &str, lines: Vec<String>| {
        out.push_str(&format!("\n### {title}\n"));
        if lines.is_empty() {
            out.push_str("- none\n");
        }
        for l in lines {
            out.push_str(&format!("- {l}\n"));
        }
    };
    let files = d.files.iter().map(|(p, tools)| format!("{p} ({})", tools.iter().cloned().collect::<Vec<_>>().join(", "))).collect();
    section(&mut out, "Files edited (by tool)", files);
    let commands = d.commands.iter().map(|(c, s)| format!("`{c}` → {s}")).collect();
    section(&mut out, "Commands run (newest last) and how they ended", commands);
    section(&mut out, "Error lines", d.errors.clone());
    section(&mut out, "Open todo items", d.todos.clone());
    out.push_str("\n### The assistant's last message\n");
    match &d.last_assistant {
        Some(t) => out.push_str(&text::cut_middle(t, LAST_ASSISTANT_MAX as f64, CUT_NOTE)),
        None => out.push_str("(none)"),
    }
    text::cut_middle(&out, DIGEST_MAX_CHARS as f64, CUT_NOTE)
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

// ------------------------------------------------------------------ tier 1

/// The rescue model's window for one request, in characters of input: a
/// conversation over this goes in chunks (seed 004's streaming compression).
pub const CHUNK_CHARS: usize = 240_000;
/// Exchanges (a person's message and what followed it) per chunk, at most.
pub const CHUNK_EXCHANGES: usize = 25;
/// At most this many model calls for one rescue; past them, tier 2.
pub const MAX_CALLS: usize = 8;
/// Each call's own bound, and the whole rescue's.
pub const CALL_TIMEOUT_MS: u64 = 60_000;
pub const TOTAL_MS: f64 = 150_000.0;
pub const SUMMARY_MAX_TOKENS: u32 = 4_000;

pub const SYSTEM: &str = "You write the summary a coding assistant continues from after its context was compacted. The engine's own summarizer failed; you are the rescue. Answer with the summary alone.";

/// Seed 004's priorities, in the order they go when room runs out.
pub const PRIORITIES: &str = "Priorities (keep P1 and P2 always, P3 if there is room, drop P4 first): \
P1 technology choices, breaking changes, security decisions, configuration values (env vars, ports, URLs, flags), the person's current request; \
P2 bug root causes and fixes, architecture decisions, schema and API contract changes; \
P3 files modified, testing decisions, tooling setup; \
P4 progress updates, exploratory discussion. \
Open questions and blockers are always kept, each as `question → what it blocks`; if none, say `No open questions.`";

/// The sections every summary has (seed 004's five).
pub const SECTIONS: &str = "Write these markdown sections, bullet fragments, no preamble: ## Decisions (each with its rationale and rejected alternatives), ## Files Changed (sorted by path), ## Current State (one line), ## Next Steps (numbered, by dependency), ## Open Questions.";

/// The one request for a conversation that fits: its rendering and the handoff.
pub fn prompt(history: &str, handoff: &str) -> String {
    format!("{SECTIONS}\n{PRIORITIES}\n\n{handoff}\n\n<conversation>\n{history}\n</conversation>")
}

/// A chunk's own request: compress it alone, keep what the later chunks need.
pub fn chunk_prompt(k: usize, n: usize, chunk: &str) -> String {
    format!(
        "This is part {k} of {n} of a long conversation, compressed part by part. {SECTIONS}\n{PRIORITIES}\nStay under 60 lines.\n\n<conversation-part>\n{chunk}\n</conversation-part>"
    )
}

/// The merge of the parts' summaries: later decisions win over earlier ones,
/// duplicates go, open questions stay (seed 004's multi-session merge).
pub fn merge_prompt(parts: &[String], handoff: &str) -> String {
    let body: Vec<String> = parts.iter().enumerate().map(|(i, p)| format!("<part n=\"{}\">\n{p}\n</part>", i + 1)).collect();
    format!(
        "Merge these summaries of consecutive parts of one conversation, oldest first, into one. Where a later part changes a decision, keep the later one; drop duplicates; carry every open question not answered later. {SECTIONS}\n{PRIORITIES}\n\n{handoff}\n\n{}",
        body.join("\n")
    )
}

/// The history text cut into chunks for streaming compression: at message
/// headings (`## [i] role`, as `history::parts` writes them), a new chunk every
/// [`CHUNK_EXCHANGES`] person messages or [`CHUNK_CHARS`] characters, whichever
/// comes first; a single message over the size is cut in its middle.
pub fn chunks(history: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut exchanges = 0usize;
    for block in split_blocks(history) {
        let person = block.starts_with("## [") && block.lines().next().is_some_and(|l| l.ends_with("] user"));
        let starts_new = !cur.is_empty() && ((person && exchanges >= CHUNK_EXCHANGES) || cur.len() + block.len() > CHUNK_CHARS);
        if starts_new {
            out.push(std::mem::take(&mut cur));
            exchanges = 0;
        }
        if person {
            exchanges += 1;
        }
        if block.len() > CHUNK_CHARS {
            cur.push_str(&text::cut_middle(block, CHUNK_CHARS as f64, CUT_NOTE));
        } else {
            cur.push_str(block);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The text split before each `## [` heading at a line's start.
fn split_blocks(s: &str) -> Vec<&str> {
    let mut starts = vec![0];
    let mut at = 0;
    while let Some(i) = s.get(at..).and_then(|r| r.find("\n## [")) {
        starts.push(at + i + 1);
        at += i + 1;
    }
    starts.push(s.len());
    starts.windows(2).filter_map(|w| s.get(w[0]..w[1])).filter(|b| !b.is_empty()).collect()
}

/// A rescue model's reply that can stand as a summary: text with words in it.
pub fn usable(reply: &str) -> bool {
    text::trim(reply).chars().filter(|c| c.is_alphanumeric()).count() >= 20
}

#[cfg(test)]
mod tests {

    /// The engine's rows as 2.1.328 installed them (r-manual-ok, r-manual-nosummary).
    fn engine_row(body: &str) -> String {
        format!("This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n<system-reminder>\n<tools-used-before-summary></tools-used-before-summary>\n</system-reminder>\n{body}\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /tmp/x.jsonl\nContinue the conversation from where it left off without asking the user any further questions.")
    }

    #[test]
    fn a_row_with_no_summary_is_known_and_a_summary_is_left_alone() {
        assert_eq!(no_summary(&engine_row("Summary:\n1. Primary Request and Intent: FAKE-SUMMARY of the conversation so far.")), None);
        assert!(no_summary(&engine_row("I cannot summarize this conversation.")).is_some_and(|w| w.contains("no <summary>")));
        assert!(no_summary(&engine_row("   ")).is_some_and(|w| w.contains("held no summary")));
        // Without the system-reminder block, and without the tail.
        assert_eq!(no_summary("This session is being continued from a previous conversation.\n\nSummary:\nok"), None);
        assert!(no_summary("This session is being continued from a previous conversation.\n\nno tags here").is_some());
        // Not the engine's row, or not one the hook can read for certain: left alone.
        assert_eq!(no_summary("[compact-plus wrote this summary]"), None);
        assert_eq!(no_summary(""), None);
        assert_eq!(no_summary("This session is being continued from a previous conversation."), None);
        assert_eq!(no_summary("This session is being continued from a previous conversation.\n\n<system-reminder> unclosed"), None);
        assert_eq!(cause("the summarizer's reply held no <summary> block; the engine installed it as the summary"), "no summary");
    }
    use super::*;
    use crate::message::parse_messages;
    use serde_json::json;

    fn msgs(v: serde_json::Value) -> Messages {
        parse_messages(&v.to_string())
    }

    #[test]
    fn causes_from_the_engines_wording() {
        assert_eq!(cause("Compaction failed · conversation could not be reduced below the context limit"), "prompt too long");
        assert_eq!(cause("prompt is too long: 1050000 tokens > 1000000 maximum"), "prompt too long");
        assert_eq!(cause("Error during compaction: API Error: Repeated 529 Overloaded errors."), "API overloaded");
        assert_eq!(cause("Error during compaction: API Error: 500 Internal server error."), "API server error");
        assert_eq!(cause("Error during compaction: summarization produced empty response"), "empty summary");
        assert_eq!(cause("no assistant message in summarization response"), "no assistant message");
        assert_eq!(cause("reactive compaction did not settle ok"), "automatic compaction failed");
        assert_eq!(cause(""), "compaction failed");
    }

    #[test]
    fn the_digest_reads_edits_commands_errors_todos() {
        let m = msgs(json!([
            {"role": "user", "text": "fix it", "handle": "a"},
            {"role": "assistant", "text": "on it", "handle": "b", "toolUses": [
                {"tool": "Edit", "input": {"file_path": "src/a.rs"}, "text": "ok"},
                {"tool": "Write", "input": {"file_path": "src/a.rs"}, "text": "ok"},
                {"tool": "Bash", "input": {"command": "cargo test"}, "text": "Exit code 101\nerror[E0308]: mismatched types", "isError": true},
                {"tool": "Bash", "input": {"command": "ls"}, "text": "a b"},
                {"tool": "TodoWrite", "input": {"todos": [{"content": "add test", "status": "pending"}, {"content": "done one", "status": "completed"}]}},
            ]},
            {"role": "assistant", "text": "Tests still fail.", "handle": "c"},
        ]));
        let d = digest(&m);
        assert_eq!(d.files["src/a.rs"].iter().cloned().collect::<Vec<_>>(), vec!["Edit", "Write"]);
        assert_eq!(d.commands, vec![("cargo test".into(), "Exit code 101".into()), ("ls".into(), "ok".into())]);
        assert_eq!(d.errors, vec!["error[E0308]: mismatched types".to_owned()]);
        assert_eq!(d.todos, vec!["add test (pending)".to_owned()]);
        assert_eq!(d.last_assistant.as_deref(), Some("Tests still fail."));
        let r = render_digest(&d);
        assert!(r.contains("src/a.rs (Edit, Write)") && r.contains("`cargo test` → Exit code 101"), "{r}");
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

    #[test]
    fn chunks_follow_exchanges_and_size() {
        let mut h = String::from("# head\n");
        for i in 0..60 {
            h.push_str(&format!("## [{}] user\n\nq{i}\n## [{}] assistant\n\na{i}\n", 2 * i, 2 * i + 1));
        }
        let c = chunks(&h);
        assert_eq!(c.len(), 3, "60 exchanges in chunks of {CHUNK_EXCHANGES}");
        assert!(c[1].starts_with("## [50] user"), "{}", &c[1][..20]);
        assert_eq!(c.concat(), h, "nothing lost at the cuts");
        let huge = format!("## [0] user\n\n{}", "x".repeat(CHUNK_CHARS * 2));
        let c = chunks(&huge);
        assert!(c.iter().all(|p| p.len() <= CHUNK_CHARS + 200));
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
        let r = row(&Row { header: header(2, "prompt too long", "x"), body, verbatim: None, pointer: None, clean: &|t| t.to_owned() });
        assert!(r.starts_with("[compact-plus wrote this summary"));
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
        assert!(r.contains("`step 499` → Exit code 1") && !r.contains("`step 469` →"), "the newest {MAX_COMMANDS}");
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
