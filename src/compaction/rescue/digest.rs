//! Tier 2: what a reading of the conversation finds with no model at all
//! (files edited and by which tool, commands and how they ended, error lines,
//! open todo items, the assistant's last message), as the summary row's body
//! when no rescue model answers, within [`DIGEST_MAX_CHARS`].

use serde::Deserialize;
use std::collections::BTreeSet;

use crate::message::Messages;
use crate::text;

/// The digest's size at most, in characters (UTF-16 units).
pub const DIGEST_MAX_CHARS: usize = 16_000;
const LINE_MAX: usize = 300;
const MAX_FILES: usize = 60;
const MAX_COMMANDS: usize = 30;
const MAX_ERRORS: usize = 20;
const MAX_TODOS: usize = 30;
const LAST_ASSISTANT_MAX: usize = 2_000;
const CUT_NOTE: &str = "\n[… cut by compact-plus …]\n";

/// A text on one line, cut in its middle past [`LINE_MAX`].
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
    /// Each file edited, with the tools that edited it; by path, ascending. (A sorted list: a
    /// `BTreeMap` here was 6.8 KB of the .wasm, measured with twiggy.)
    pub files: Vec<(String, BTreeSet<String>)>,
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
                    let path = line(&path);
                    let at = match d.files.binary_search_by(|(p, _)| p.as_str().cmp(&path)) {
                        Ok(at) => at,
                        Err(at) => {
                            d.files.insert(at, (path, BTreeSet::new()));
                            at
                        }
                    };
                    if let Some((_, tools)) = d.files.get_mut(at) {
                        tools.insert(line(&tool));
                    }
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
    d.files.truncate(MAX_FILES);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;
    use serde_json::json;

    fn msgs(v: serde_json::Value) -> Messages {
        parse_messages(&v.to_string())
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
        let a = d.files.iter().find(|(p, _)| p == "src/a.rs").map(|(_, tools)| tools.iter().cloned().collect::<Vec<_>>());
        assert_eq!(a, Some(vec!["Edit".to_owned(), "Write".to_owned()]));
        assert_eq!(d.commands, vec![("cargo test".into(), "Exit code 101".into()), ("ls".into(), "ok".into())]);
        assert_eq!(d.errors, vec!["error[E0308]: mismatched types".to_owned()]);
        assert_eq!(d.todos, vec!["add test (pending)".to_owned()]);
        assert_eq!(d.last_assistant.as_deref(), Some("Tests still fail."));
        let r = render_digest(&d);
        assert!(r.contains("src/a.rs (Edit, Write)") && r.contains("`cargo test` → Exit code 101"), "{r}");
    }

    /// The files come by path, each once with all its tools, the first MAX_FILES of them,
    /// whatever order they were edited in.
    #[test]
    fn the_files_are_by_path_each_once_at_most_max_files() {
        let uses: Vec<serde_json::Value> = (0..70)
            .rev()
            .flat_map(|i| {
                let path = format!("src/f{i:02}.rs");
                [json!({"tool": "Write", "input": {"file_path": path}}), json!({"tool": "Edit", "input": {"file_path": path}})]
            })
            .collect();
        let d = digest(&msgs(json!([{"role": "assistant", "text": "", "handle": "a", "toolUses": uses}])));
        let want: Vec<(String, BTreeSet<String>)> = (0..MAX_FILES)
            .map(|i| (format!("src/f{i:02}.rs"), BTreeSet::from(["Edit".to_owned(), "Write".to_owned()])))
            .collect();
        assert_eq!(d.files, want);
    }

}
