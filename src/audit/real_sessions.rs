//! The audit on real Claude Code sessions: the transcripts other people committed to public
//! repositories, in `../shared/real-transcripts/` (read at test time, never copied into this
//! repository; the test says so and passes when they are absent).
//!
//! Each transcript is cut into the windows its compactions saw (rows after one
//! `compact_boundary` up to the next; the last window is what a `/compact` on the resumed
//! session would get), each window turned into the event's messages as the engine builds them,
//! and the audit run against the summary the session really got (the `isCompactSummary` row
//! after the boundary; none for the last window) and the verbatim block. Printed per window: entries listed, how many
//! the history file holds by their exact text, how many are in a noise shape. An entry the
//! history does not hold fails the test: the recall tool would answer "no hits" for it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{collect, dropped, Kind, Mention};
use crate::message::{parse_messages, Messages};
use super::what_is_listed::history_text;
use crate::compaction::{terminal, verbatim};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/real-transcripts");

/// One compaction's input: the event's messages and the summary the session got for them.
pub(super) struct Window {
    pub(super) messages: Messages,
    pub(super) summary: Option<String>,
}

/// The Claude Code transcripts under the folder, sorted; Codex rollouts are left out (their
/// rows are not the engine's).
pub(super) fn transcripts() -> Option<Vec<PathBuf>> {
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
pub(super) fn windows(jsonl: &str) -> Vec<Window> {
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

// Noise shapes: what the issue found listed on real sessions that names nothing the next
// model needs. Each is judged on the entry alone.

/// `514M/1.42G`, `12.5MB/40MB`: a download's progress.
pub(super) fn progress_counter(m: &Mention) -> bool {
    let amount = |s: &str| {
        let digits = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let unit = s.get(digits.len()..).unwrap_or("");
        !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && digits.bytes().any(|b| b.is_ascii_digit())
            && unit.len() <= 3
    };
    m.text.split_once('/').is_some_and(|(a, b)| amount(a) && amount(b))
}

/// `/dev/null`, `/proc/self/…`, `/tmp/…`: no file of the project.
pub(super) fn device_proc_temp(m: &Mention) -> bool {
    m.kind == Kind::Path
        && ["/dev/", "/proc/", "/sys/", "/tmp/", "/private/tmp/", "/var/tmp/", "/var/folders/"]
            .iter()
            .any(|p| m.text.starts_with(p) || m.text == p.trim_end_matches('/'))
}

/// Inside `node_modules`, `site-packages`, a virtualenv or the cargo registry.
pub(super) fn vendored(m: &Mention) -> bool {
    let t = m.text.as_str();
    m.kind == Kind::Path
        && (["node_modules", "site-packages", "dist-packages", ".cargo/registry", ".cargo/git/"].iter().any(|v| t.contains(v))
            || t.starts_with(".venv/")
            || t.contains("/.venv/")
            || t.starts_with("venv/")
            || t.contains("/venv/"))
}

/// `a/src/x.rs`, `b/src/x.rs`: git diff's prefixes.
pub(super) fn diff_prefix(m: &Mention) -> bool {
    m.kind == Kind::Path && (m.text.starts_with("a/") || m.text.starts_with("b/"))
}

/// A package tarball or wheel on a registry.
pub(super) fn registry_tarball(m: &Mention) -> bool {
    let t = m.text.as_str();
    m.kind == Kind::Url
        && ((t.contains("/-/") && t.ends_with(".tgz"))
            || t.contains("files.pythonhosted.org/")
            || t.contains("registry.yarnpkg.com/")
            || t.ends_with(".whl"))
}

/// `/r/a`, `x/y.z`: every component one or two characters, a string literal, not a file.
pub(super) fn literal(m: &Mention) -> bool {
    m.kind == Kind::Path && m.text.split('/').filter(|c| !c.is_empty()).all(|c| c.len() <= 2)
}

/// `mode/m.test`, `s/x.replace`: a regex literal or a call read as a path.
pub(super) fn code_call(m: &Mention) -> bool {
    let last = m.text.rsplit('/').next().unwrap_or("");
    m.kind == Kind::Path
        && [".test", ".exec", ".match", ".replace", ".split", ".map", ".filter", ".join", ".push"]
            .iter()
            .any(|e| last.strip_suffix(e).is_some_and(|stem| stem.len() <= 2))
}

/// `strategy.go-185-`: a context line of `grep -C`, the line number glued to the file.
pub(super) fn grep_context(m: &Mention) -> bool {
    let t = m.text.strip_suffix('-').unwrap_or("");
    let digits = t.bytes().rev().take_while(u8::is_ascii_digit).count();
    m.kind == Kind::Path && digits > 0 && t.get(..t.len() - digits).is_some_and(|h| h.ends_with('-'))
}

/// `os/exec.Command`: a Go package member, not a file.
pub(super) fn member(m: &Mention) -> bool {
    let last = m.text.rsplit('/').next().unwrap_or("");
    let ext = last.rsplit_once('.').map_or("", |(_, e)| e);
    m.kind == Kind::Path && ext.len() >= 4 && ext.starts_with(|c: char| c.is_ascii_uppercase())
}

/// A noise shape: its name and whether an entry has it.
type Shape = (&'static str, fn(&Mention) -> bool);

pub(super) const NOISE: [Shape; 9] = [
    ("progress", progress_counter),
    ("device/temp", device_proc_temp),
    ("vendored", vendored),
    ("diff prefix", diff_prefix),
    ("tarball", registry_tarball),
    ("literal", literal),
    ("code call", code_call),
    ("grep context", grep_context),
    ("member", member),
];

pub(super) fn noise_shape(m: &Mention) -> Option<&'static str> {
    NOISE.iter().find(|(_, is)| is(m)).map(|(name, _)| *name)
}

/// One window's figures, printed under its file.
struct Figures {
    listed: usize,
    found: usize,
    noise: usize,
    lines: Vec<String>,
}

fn audit_window(w: Window, show: bool, unfindable: &mut Vec<String>, name: &str) -> Figures {
    let summary = w.summary;
    let mut messages = w.messages;
    // As the hooks do before the history and the audit.
    terminal::tidy(&mut messages);
    let history = history_text(&messages);
    // What the hooks check the list against: the summary and the verbatim block (at the hooks'
    // default budget, `Options::default`).
    let block = verbatim::render(&verbatim::select(None, &messages, 8000.0), verbatim::Mark::NewestCurrent);
    let kept: Vec<&str> = summary.as_deref().into_iter().chain([block.as_str()]).collect();
    let listed = dropped(&collect(&messages), &kept);
    let findable = |m: &Mention| history.contains(m.text.as_str());
    let found = listed.iter().filter(|m| findable(m)).count();
    let noise = listed.iter().filter(|m| noise_shape(m).is_some()).count();
    let mut lines = vec![format!(
        "  window of {} messages{}: {} listed, {found} findable, {noise} in a noise shape",
        messages.len(),
        if summary.is_some() { " (with its real summary)" } else { " (the last: no summary yet)" },
        listed.len()
    )];
    for m in &listed {
        let lost = !findable(m);
        if lost {
            unfindable.push(format!("{name}: {}", m.text));
        }
        if show || lost || noise_shape(m).is_some() {
            let tag = noise_shape(m).map(|n| format!(" [{n}]")).unwrap_or_default();
            let lost = if lost { " [NOT IN THE HISTORY]" } else { "" };
            lines.push(format!("      {}: {} (×{}, {:?}){tag}{lost}", m.kind.as_str(), m.text, m.count, m.source));
        }
    }
    Figures { listed: listed.len(), found, noise, lines }
}

/// Per file: entries listed, how many the rendered history holds, how many are in a noise
/// shape; every noisy or unfindable entry printed (`AUDIT_SHOW=1` prints them all). Fails on an
/// unfindable entry.
#[test]
fn real_transcripts() {
    let Some(files) = transcripts() else {
        println!("real_transcripts: skipped, {DIR} is absent (the real sessions are read from ../shared at test time)");
        return;
    };
    let show = std::env::var_os("AUDIT_SHOW").is_some();
    let mut unfindable = Vec::new();
    let (mut all_listed, mut all_found, mut all_noise, mut all_windows) = (0, 0, 0, 0);
    for path in &files {
        let Ok(jsonl) = std::fs::read_to_string(path) else { continue };
        let name = path.strip_prefix(DIR).unwrap_or(path).to_string_lossy().trim_start_matches('/').to_owned();
        let figures: Vec<Figures> = windows(&jsonl).into_iter().map(|w| audit_window(w, show, &mut unfindable, &name)).collect();
        let (listed, found, noise) = figures.iter().fold((0, 0, 0), |(l, f, n), x| (l + x.listed, f + x.found, n + x.noise));
        println!("{name}: {listed} listed, {found} findable in the history, {noise} in a noise shape");
        for line in figures.iter().flat_map(|f| &f.lines) {
            println!("{line}");
        }
        all_listed += listed;
        all_found += found;
        all_noise += noise;
        all_windows += figures.len();
    }
    println!(
        "real_transcripts: {} files, {all_windows} windows: {all_listed} listed, {all_found} findable, {all_noise} in a noise shape",
        files.len()
    );
    assert!(unfindable.is_empty(), "listed but not in the history file: {unfindable:#?}");
}
