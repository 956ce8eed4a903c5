//! Which texts of a conversation are scanned, and for what: the person's own words (not machine
//! rows or reminders), the assistant's, and tool inputs and results, where a file body or a
//! search listing is not scanned for errors.

use std::borrow::Cow;

use serde_json::Value;

use crate::message::{Message, Messages};
use crate::{text, verbatim};
use super::MAX_TRACKED;
use super::mention::{Kind, Mentions};
use super::scan::{listed_path, scan_text, Place, Scan};

/// Tools whose results are file bodies or listings, not things that happened.
const BODY_RESULT_TOOLS: [&str; 6] = ["Read", "Grep", "Glob", "NotebookRead", "WebFetch", "WebSearch"];
/// Tools whose inputs carry a file body: only their other fields (the path) are scanned.
const BODY_INPUT_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];
const BODY_INPUT_KEYS: [&str; 4] = ["content", "old_string", "new_string", "new_source"];
/// A tool's input fields that are a path whatever it looks like (`bin/server`, `cmd/api`).
const PATH_KEYS: [&str; 3] = ["file_path", "path", "notebook_path"];

/// Collects the identifiers of a conversation in one pass over its messages.
pub fn collect(messages: &Messages) -> Mentions {
    let mut found = Mentions::default();
    for (index, message) in messages.iter().enumerate() {
        let Some(message) = message else { continue };
        found.message = index;
        collect_message(&mut found, message);
    }
    if found.len() > MAX_TRACKED {
        found.prune(MAX_TRACKED);
    }
    found
}

fn collect_message(found: &mut Mentions, message: &Message) {
    match message.role.as_str() {
        Some("user") => {
            // `person_text` is "" for machine rows and strips reminder spans.
            let own = verbatim::person_text(message.text());
            scan_text(found, &own, Scan { errors: true, quotes: true, prose: true });
        }
        Some("assistant") => {
            scan_text(found, &without_reminders(message.text()), Scan { errors: true, quotes: false, prose: true });
        }
        _ => {}
    }
    for tool_use in &message.tool_uses.0 {
        let tool = tool_use.tool.as_str().unwrap_or("");
        if let Some(input) = &tool_use.input {
            scan_input(found, tool, input.get());
        }
        if let Some(result) = &tool_use.text {
            let errors = !BODY_RESULT_TOOLS.contains(&tool);
            scan_text(found, &without_reminders(result), Scan { errors, quotes: false, prose: false });
        }
    }
}

fn without_reminders(s: &str) -> Cow<'_, str> {
    if has_reminder(s) {
        Cow::Owned(text::remove_spans(s, "<system-reminder>", "</system-reminder>"))
    } else {
        Cow::Borrowed(s)
    }
}

/// `s.contains("<system-reminder>")`, by `memchr` on `<`: no searcher to set up per text.
fn has_reminder(s: &str) -> bool {
    let mut from = 0;
    while let Some(p) = s.get(from..).and_then(|r| r.find('<')) {
        let at = from + p;
        if s.get(at..).is_some_and(|r| r.starts_with("<system-reminder>")) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// A tool's input is JSON text; its string values are scanned one by one, so an
/// escaped `\n` never glues two words together.
fn scan_input(found: &mut Mentions, tool: &str, json: &str) {
    let skip_bodies = BODY_INPUT_TOOLS.contains(&tool);
    match serde_json::from_str::<Value>(json) {
        Ok(value) => scan_value(found, &value, skip_bodies),
        Err(_) => scan_text(found, json, Scan { errors: false, quotes: false, prose: false }),
    }
}

fn scan_value(found: &mut Mentions, value: &Value, skip_bodies: bool) {
    match value {
        Value::String(s) => scan_text(found, &without_reminders(s), Scan { errors: false, quotes: false, prose: false }),
        Value::Array(items) => items.iter().for_each(|v| scan_value(found, v, skip_bodies)),
        Value::Object(map) => {
            for (key, v) in map {
                if skip_bodies && BODY_INPUT_KEYS.contains(&key.as_str()) {
                    continue;
                }
                let argument = v.as_str().filter(|_| PATH_KEYS.contains(&key.as_str()));
                if let Some(path) = argument.and_then(|p| listed_path(p, Place::Argument)) {
                    found.note(Kind::Path, path);
                    continue;
                }
                scan_value(found, v, skip_bodies);
            }
        }
        _ => {}
    }
}
