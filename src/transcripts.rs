//! The real Claude Code sessions other people committed to public repositories, in
//! `../shared/real-transcripts/` (read at test time, never copied into this repository), cut into
//! the windows their compactions saw: for the tests that measure a module on real sessions (the
//! audit's, the work record's, the summary check's). Native tests only; a test says so and passes
//! when the folder is absent.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::message::{parse_messages, Messages};

pub const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real-transcripts");

/// One compaction's input: the event's messages and the summary the session got for them.
pub struct Window {
    pub messages: Messages,
    pub summary: Option<String>,
}

/// The Claude Code transcripts under the folder, sorted; Codex rollouts are left out (their
/// rows are not the engine's).
pub fn transcripts() -> Option<Vec<PathBuf>> {
    let root = Path::new(DIR);
    let repos = std::fs::read_dir(root).ok()?;
    let mut out = Vec::new();
    for repo in repos.flatten() {
        let Ok(files) = std::fs::read_dir(repo.path()) else { continue };
        for f in files.flatten() {
            let p = f.path();
            let name = p.to_string_lossy().into_owned();
            if name.ends_with(".jsonl") && !name.ends_with(".codex.jsonl") && !name.contains("/rollout-") {
                out.push(p);
            }
        }
    }
    out.sort();
    Some(out)
}

/// `text blocks joined`: what the engine reads from a content list (`$Ie` in chunk-k90mh50x
/// of Claude Code 2.1.328: `""` between a message's text blocks, `"\n"` between a tool
/// result's).
fn joined(content: &Value, sep: &str) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .map(|b| b.get("text").and_then(Value::as_str).unwrap_or(""))
            .collect::<Vec<_>>()
            .join(sep),
        _ => String::new(),
    }
}

/// The windows of a transcript, oldest first. A row becomes a message as the engine's `$Ie`
/// makes one: an assistant row its text and tool uses, a user row (not `isMeta`, not
/// `isVirtual`) its text and tool results; each tool use then carries its result's text.
/// Subagent rows (`isSidechain`) and progress, system and snapshot rows are not the main
/// conversation.
pub fn windows(jsonl: &str) -> Vec<Window> {
    let mut out: Vec<Window> = Vec::new();
    let mut rows: Vec<Value> = Vec::new();
    let mut results: HashMap<String, (String, bool)> = HashMap::new();
    let mut awaiting_summary = false;
    let close = |rows: &mut Vec<Value>, results: &mut HashMap<String, (String, bool)>, out: &mut Vec<Window>| {
        for row in rows.iter_mut() {
            let Some(uses) = row.get_mut("toolUses").and_then(Value::as_array_mut) else { continue };
            for u in uses {
                let id = u.get("tool_use_id").and_then(Value::as_str).unwrap_or("").to_owned();
                if let Some((text, is_error)) = results.get(&id) {
                    u["text"] = json!(text);
                    if *is_error {
                        u["isError"] = json!(true);
                    }
                }
            }
        }
        let messages = parse_messages(&Value::Array(std::mem::take(rows)).to_string());
        results.clear();
        out.push(Window { messages, summary: None });
    };
    for line in jsonl.lines() {
        let Ok(row) = serde_json::from_str::<Value>(line) else { continue };
        let kind = row.get("type").and_then(Value::as_str).unwrap_or("");
        if kind == "system" && row.get("subtype").and_then(Value::as_str) == Some("compact_boundary") {
            close(&mut rows, &mut results, &mut out);
            awaiting_summary = true;
            continue;
        }
        if row.get("isSidechain") == Some(&Value::Bool(true)) {
            continue;
        }
        let content = row.pointer("/message/content").cloned().unwrap_or(Value::Null);
        match kind {
            "assistant" => {
                let uses: Vec<Value> = content
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                    .map(|b| json!({"tool_use_id": b.get("id"), "tool": b.get("name"), "input": b.get("input")}))
                    .collect();
                rows.push(json!({"role": "assistant", "text": joined(&content, ""), "toolUses": uses}));
            }
            "user" if row.get("isMeta") != Some(&Value::Bool(true)) && row.get("isVirtual") != Some(&Value::Bool(true)) => {
                let mut tool_results = Vec::new();
                for b in content.as_array().into_iter().flatten() {
                    if b.get("type").and_then(Value::as_str) != Some("tool_result") {
                        continue;
                    }
                    let id = b.get("tool_use_id").and_then(Value::as_str).unwrap_or("").to_owned();
                    let text = joined(b.get("content").unwrap_or(&Value::Null), "\n");
                    let is_error = b.get("is_error") == Some(&Value::Bool(true));
                    results.insert(id.clone(), (text.clone(), is_error));
                    tool_results.push(json!({"tool_use_id": id, "text": text, "isError": is_error}));
                }
                let text = joined(&content, "");
                if awaiting_summary && row.get("isCompactSummary") == Some(&Value::Bool(true)) {
                    if let Some(w) = out.last_mut() {
                        w.summary = Some(text.clone());
                    }
                    awaiting_summary = false;
                }
                let mut m = json!({"role": "user", "text": text, "toolUses": []});
                if !tool_results.is_empty() {
                    m["toolResults"] = Value::Array(tool_results);
                }
                rows.push(m);
            }
            _ => {}
        }
    }
    close(&mut rows, &mut results, &mut out);
    out.retain(|w| !w.messages.is_empty());
    out
}
