//! Which texts of a conversation are scanned, and for what: the person's own words (not machine
//! rows or reminders) and the assistant's, the tools' own inputs (the paths they were given, the
//! commands run), and what tools printed, but not the bodies of files the model read and no more
//! than a few entries of a listing. Only what the history file keeps is scanned, so every
//! identifier the audit lists can be found there by its exact text.

use serde_json::Value;

use crate::compaction::verbatim;
use crate::message::{Message, Messages};
use crate::text;
use super::MAX_TRACKED;
use super::mention::{Kind, Mentions, Source};
use super::scan::{find_bytes, listed_path, scan_text, Place, Scan};

/// What the history file keeps of each tool call: `src/compaction/history.rs` cuts a tool's input (its
/// JSON) and its result to these many UTF-16 units with `text::cut_middle`. An identifier only
/// in the part cut away would send the model searching for text the file does not have.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Keeps {
    pub tool_input_chars: f64,
    pub tool_result_chars: f64,
}

impl Keeps {
    /// What the history keeps (the findability tests render it and fail if the two part ways).
    pub const HISTORY: Keeps = Keeps {
        tool_input_chars: crate::compaction::history::TOOL_INPUT_CHARS,
        tool_result_chars: crate::compaction::history::TOOL_RESULT_CHARS,
    };
}

/// Tools whose results are the bodies of what the model read: a file's string literals and a
/// page's links are not what the work was about.
const BODY_RESULT_TOOLS: [&str; 3] = ["Read", "NotebookRead", "WebFetch"];
/// Tools whose results are listings (file names, matching lines, search hits): a few entries
/// each, never error lines (a matching line that says `error:` is code).
const LISTING_TOOLS: [&str; 4] = ["Grep", "Glob", "LS", "WebSearch"];
/// Tools whose inputs carry a file body: only their other fields (the path) are scanned.
const BODY_INPUT_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];
const BODY_INPUT_KEYS: [&str; 4] = ["content", "old_string", "new_string", "new_source"];
/// A tool's input fields that are a path whatever it looks like (`bin/server`, `cmd/api`).
const PATH_KEYS: [&str; 3] = ["file_path", "path", "notebook_path"];

/// Distinct identifiers of each kind one tool result adds: a build log names the files that
/// failed, a listing names everything.
const RESULT_PER_KIND: usize = 6;
const LISTING_PER_KIND: usize = 3;

/// Commands whose output is a listing: the first word of a pipeline stage, or how it starts.
const LISTING_COMMANDS: [&str; 6] = ["find", "ls", "tree", "fd", "du", "locate"];
const LISTING_PHRASES: [&str; 8] =
    ["conda env list", "conda info --envs", "pip list", "pip freeze", "npm ls", "git ls-files", "git ls-tree", "rg --files"];

/// Collects the identifiers of a conversation in one pass over its messages, from what the
/// history file keeps as [`Keeps::HISTORY`] says.
pub fn collect(messages: &Messages) -> Mentions {
    collect_kept(messages, Keeps::HISTORY)
}

/// [`collect`], for a history that keeps `keeps` of each tool call.
pub fn collect_kept(messages: &Messages, keeps: Keeps) -> Mentions {
    let mut found = Mentions::default();
    for (index, message) in messages.iter().enumerate() {
        let Some(message) = message else { continue };
        found.message = index;
        collect_message(&mut found, message, keeps);
    }
    if found.len() > MAX_TRACKED {
        found.prune(MAX_TRACKED);
    }
    found
}

fn collect_message(found: &mut Mentions, message: &Message, keeps: Keeps) {
    found.source = Source::Named;
    match message.role.as_str() {
        // `person_text` is "" for machine rows.
        Some("user") if !verbatim::person_text(message.text()).is_empty() => {
            scan_outside_reminders(found, message.text(), Scan { errors: true, quotes: true, prose: true });
        }
        Some("assistant") => scan_outside_reminders(found, message.text(), Scan { errors: true, quotes: false, prose: true }),
        _ => {}
    }
    for tool_use in &message.tool_uses.0 {
        let tool = tool_use.tool.as_str().unwrap_or("");
        let input = tool_use.input.as_ref().map(|raw| raw.get());
        let value = input.and_then(|raw| serde_json::from_str::<Value>(raw).ok());
        if let Some(raw) = input {
            found.source = Source::Used;
            scan_input(found, tool, raw, value.as_ref(), keeps);
        }
        if let Some(result) = &tool_use.text {
            found.source = Source::Seen;
            scan_result(found, tool, value.as_ref(), result, keeps);
        }
    }
}

/// The text between `<system-reminder>` spans, a piece at a time: what the harness adds is not
/// the conversation, and the pieces are never glued into a word the text does not hold. An
/// unclosed reminder stays, as `text::remove_spans` keeps it.
fn scan_outside_reminders(found: &mut Mentions, s: &str, scan: Scan) {
    use crate::engine::rows::{REMINDER_CLOSE as CLOSE, REMINDER_OPEN as OPEN};
    let mut rest = s;
    while let Some(start) = find_tag(rest, OPEN) {
        let after = start + OPEN.len();
        let Some(end) = rest.get(after..).and_then(|r| r.find(CLOSE)) else { break };
        scan_text(found, rest.get(..start).unwrap_or(""), scan);
        rest = rest.get(after + end + CLOSE.len()..).unwrap_or("");
    }
    scan_text(found, rest, scan);
}

/// `s.find(tag)`, by `memchr` on `<`: no searcher to set up per text.
fn find_tag(s: &str, tag: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = s.get(from..).and_then(|r| r.find('<')) {
        let at = from + p;
        if s.get(at..).is_some_and(|r| r.starts_with(tag)) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// A tool's input is JSON text; its string values are scanned one by one, so an escaped `\n`
/// never glues two words together. The history keeps the JSON text cut: when it is, only what
/// the kept part holds is noted.
fn scan_input(found: &mut Mentions, tool: &str, raw: &str, value: Option<&Value>, keeps: Keeps) {
    let kept = text::cut_middle(raw, keeps.tool_input_chars, "");
    let gated = kept != raw && found.only_within(&kept);
    match value {
        Some(value) => scan_value(found, tool, None, value),
        None => scan_text(found, &kept, Scan { errors: false, quotes: false, prose: false }),
    }
    if gated {
        found.any_text();
    }
}

fn scan_value(found: &mut Mentions, tool: &str, key: Option<&str>, value: &Value) {
    match value {
        Value::String(s) => {
            if key.is_some_and(|k| PATH_KEYS.contains(&k)) {
                if let Some(path) = listed_path(s, Place::Argument) {
                    found.note(Kind::Path, path);
                    return;
                }
            }
            scan_outside_reminders(found, s, Scan { errors: false, quotes: false, prose: false });
        }
        Value::Array(items) => items.iter().for_each(|v| scan_value(found, tool, None, v)),
        Value::Object(map) => {
            for (k, v) in map {
                let body = BODY_INPUT_TOOLS.contains(&tool) && BODY_INPUT_KEYS.contains(&k.as_str());
                // Grep's pattern is a regex: `mode/m` in it is no folder.
                let regex = tool == "Grep" && k == "pattern";
                if !body && !regex {
                    scan_value(found, tool, Some(k), v);
                }
            }
        }
        _ => {}
    }
}

/// What a tool printed, as far as the history keeps it: not a body the model read, a few
/// entries of a listing, a bounded number of each kind from anything else.
fn scan_result(found: &mut Mentions, tool: &str, input: Option<&Value>, result: &str, keeps: Keeps) {
    if BODY_RESULT_TOOLS.contains(&tool) {
        return;
    }
    let listing_tool = LISTING_TOOLS.contains(&tool);
    let command = input.and_then(|v| v.get("command")).and_then(Value::as_str);
    let listing = listing_tool || (tool == "Bash" && command.is_some_and(is_listing_command));
    found.limit(if listing { LISTING_PER_KIND } else { RESULT_PER_KIND });
    let scan = Scan { errors: !listing_tool, quotes: false, prose: false };
    match kept_parts(result, keeps.tool_result_chars) {
        Kept::Whole => scan_outside_reminders(found, result, scan),
        Kept::Cut { head, tail } => {
            scan_outside_reminders(found, head, scan);
            // The tail starts inside a line: from the next line on, or, in one long line, with
            // no error excerpt that would start where the cut fell.
            match tail.find('\n') {
                Some(nl) => scan_outside_reminders(found, tail.get(nl + 1..).unwrap_or(""), scan),
                None => scan_outside_reminders(found, tail, Scan { errors: false, ..scan }),
            }
        }
        Kept::Unknown(kept) => scan_outside_reminders(found, &kept, scan),
    }
    found.no_limit();
}

/// `find . -name '*.go'`, `conda env list`, `cat package-lock.json`: output that lists.
fn is_listing_command(command: &str) -> bool {
    let b = command.as_bytes();
    // A lockfile: `Cargo.lock`, `yarn.lock`, `package-lock.json`, `pnpm-lock.yaml`, `go.sum`.
    if [b".lock".as_slice(), b"-lock.", b"go.sum"].iter().any(|f| find_bytes(b, f).is_some()) {
        return true;
    }
    b.split(|&c| matches!(c, b'|' | b';' | b'&' | b'\n')).any(|stage| {
        let start = stage.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(stage.len());
        let stage = stage.get(start..).unwrap_or(&[]);
        let first = stage.get(..stage.iter().position(u8::is_ascii_whitespace).unwrap_or(stage.len()));
        LISTING_COMMANDS.iter().any(|c| first == Some(c.as_bytes()))
            || LISTING_PHRASES.iter().any(|p| stage.starts_with(p.as_bytes()))
    })
}

/// What the history keeps of a tool result.
enum Kept<'a> {
    Whole,
    /// The start and the end, each without the word the cut went through.
    Cut { head: &'a str, tail: &'a str },
    /// The kept text as `cut_middle` gave it, when its parts could not be told apart.
    Unknown(String),
}

fn kept_parts(s: &str, max: f64) -> Kept<'_> {
    // The cut's place does not depend on the note: a NUL marks it, and `cut_middle` writes
    // `<head>\n[... N characters cut; <note> ...]\n<tail>`.
    const NOTE: &str = "\u{0}";
    const AFTER_NOTE: &str = " ...]\n";
    if (s.len() as f64) <= max {
        return Kept::Whole;
    }
    let cut = text::cut_middle(s, max, NOTE);
    if cut == s {
        return Kept::Whole;
    }
    let parts = cut.find(NOTE).and_then(|p| {
        let open = cut.as_bytes().get(..p)?.iter().rposition(|&b| b == b'[')?;
        let head = cut.get(..open.checked_sub(1)?)?;
        let tail = cut.get(p + NOTE.len() + AFTER_NOTE.len()..)?;
        (s.starts_with(head) && s.ends_with(tail)).then_some((head.len(), tail.len()))
    });
    let Some((head_len, tail_len)) = parts else { return Kept::Unknown(cut) };
    let head = s.get(..head_len).unwrap_or("");
    let tail = s.get(s.len() - tail_len..).unwrap_or("");
    // ASCII whitespace: every cut is a char boundary.
    let head = head.as_bytes().iter().rposition(u8::is_ascii_whitespace).and_then(|e| head.get(..e)).unwrap_or("");
    let tail = tail.as_bytes().iter().position(u8::is_ascii_whitespace).and_then(|b| tail.get(b..)).unwrap_or("");
    Kept::Cut { head, tail }
}
