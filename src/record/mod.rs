//! The work record: what the conversation before a compaction did, read from its tool calls,
//! which a summary most often loses.
//!
//! Summaries name the files they edited, but drop what a continuing model needs to know about
//! the state the work is in: the build or test whose last run failed, the commits and branches
//! made, the files created or deleted, the todo items still open. The record reads them from the
//! tool calls, deterministically and with no model: the same messages always give the same
//! record. It promises:
//!
//! - an **unresolved failure** is a command (Bash) whose last run in the conversation failed
//!   (its result is an error) with no later successful run of the same command (the same
//!   [`command::core`]); a look-up (`ls`, `grep`, `git status`, [`command::is_lookup`]) is never
//!   one, nor a call the person rejected or that never ran. Each comes with its error line
//!   ([`command::error_line`]) and the message it is in;
//! - a **commit** is a `git commit` whose output has git's `[<branch> <sha>] <subject>` line; a
//!   **branch** one a `git checkout -b`, `git switch -c`, `git branch <name>` or `git worktree add
//!   -b` made without an error (named with its commits when it has some, so once);
//! - a file is **created** by a Write whose result says so, **deleted** by a successful `rm` or
//!   `git rm` of it, **edited** by any other Edit, Write, MultiEdit or NotebookEdit without an
//!   error;
//! - the **open todo items** are the last TodoWrite list's items not completed, and the
//!   TaskCreate tasks no later TaskUpdate completed or deleted.
//!
//! The record ranks by what a continuing model needs ([`Item`]'s order: failures, commits,
//! branches, todos, then files), newest first within a kind, and is bounded ([`MAX_ITEMS`], each
//! text cut to [`TEXT_CHARS`]). Which items the summary already says, and how many fit after
//! it, is the audit's to judge (`crate::audit::block`): the record itself keeps everything, and
//! [`render_full`] writes all of it at the end of the history file.

pub mod command;

use serde::Deserialize;

use crate::message::Messages;
use crate::text;

/// At most this many items: a session that runs thousands of commands keeps its newest.
pub const MAX_ITEMS: usize = 200;
/// Each command, error line, subject, todo or path is cut to this many UTF-16 units.
pub const TEXT_CHARS: usize = 200;

/// How a file changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    Deleted,
    Created,
    Edited,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Deleted => "deleted",
            Change::Created => "created",
            Change::Edited => "edited",
        }
    }
}

/// Whether an open todo item is being worked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    Doing,
    Pending,
}

/// One thing the conversation did. The variants are in rank order: what a continuing model needs
/// most comes first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// `message`: where its last run is (`## [n]` in the history file).
    Failed { command: String, error: String, message: usize },
    /// `made`: the branch was made in the conversation too (and is not listed apart).
    Commit { sha: String, branch: String, subject: String, made: bool },
    Branch { name: String },
    Todo { text: String, progress: Progress },
    File { path: String, change: Change },
}

impl Item {
    fn rank(&self) -> u8 {
        match self {
            Item::Failed { .. } => 0,
            Item::Commit { .. } => 1,
            Item::Branch { .. } => 2,
            Item::Todo { progress: Progress::Doing, .. } => 3,
            Item::Todo { progress: Progress::Pending, .. } => 4,
            Item::File { change, .. } => 5 + *change as u8,
        }
    }

    /// The item as one line of the record: what it is, and the text the history file holds.
    pub fn line(&self) -> String {
        match self {
            Item::Failed { command, error, message } => {
                format!("- failed, not run successfully since ([{message}]): `{command}` → {error}")
            }
            Item::Commit { sha, branch, subject, made: false } => format!("- commit {sha} on {branch}: {subject}"),
            Item::Commit { sha, branch, subject, made: true } => format!("- commit {sha} on {branch} (a branch made here): {subject}"),
            Item::Branch { name } => format!("- branch made: {name}"),
            Item::Todo { text, progress: Progress::Doing } => format!("- open todo (in progress): {text}"),
            Item::Todo { text, progress: Progress::Pending } => format!("- open todo: {text}"),
            Item::File { path, change } => format!("- file {}: {path}", change.as_str()),
        }
    }
}

/// The record of one conversation, best ranked first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    pub items: Vec<Item>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Input {
    command: Option<String>,
    file_path: Option<String>,
    notebook_path: Option<String>,
    todos: Option<Vec<TodoInput>>,
    subject: Option<String>,
    #[serde(rename = "taskId")]
    task_id: Option<serde_json::Value>,
    status: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct TodoInput {
    content: Option<String>,
    status: Option<String>,
}

/// A result that says the call never ran as asked: the person rejected it, a sibling call
/// failed first, or the person interrupted it.
const NEVER_RAN: [&str; 4] = [
    "The user doesn't want to proceed with this tool use",
    "Sibling tool call errored",
    "[Request interrupted by user",
    "Permission to use",
];

const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// One line of at most [`TEXT_CHARS`] units: whitespace collapsed, a long text cut in its middle
/// at `…` (its start and its end are what tell commands and paths apart).
pub fn cut(s: &str) -> String {
    let one = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let len = text::len16(&one);
    if len <= TEXT_CHARS {
        return one;
    }
    let head = text::head(&one, TEXT_CHARS * 7 / 10);
    let tail = text::tail(&one, len - (TEXT_CHARS - text::len16(head) - 1));
    format!("{head}…{tail}")
}

/// The record of a conversation, from its tool calls.
pub fn read(messages: &Messages) -> Record {
    let mut runs: Vec<(String, String, bool, String, usize)> = Vec::new(); // core, command, failed, error, message
    let mut commits = Vec::new();
    let mut branches: Vec<String> = Vec::new();
    let mut files: Vec<(String, Change)> = Vec::new();
    let mut list: Vec<(String, Progress)> = Vec::new();
    let mut tasks: Vec<(String, String, Option<Progress>)> = Vec::new(); // id, subject, open?
    for (index, m) in messages.iter().enumerate() {
        let Some(m) = m else { continue };
        for u in &m.tool_uses.0 {
            let tool = u.tool.as_str().unwrap_or("");
            let input: Input = u.input.as_ref().and_then(|r| serde_json::from_str(r.get()).ok()).unwrap_or_default();
            let out = u.text.as_deref();
            let failed = u.is_error.truthy();
            match tool {
                "Bash" => {
                    let (Some(cmd), Some(out)) = (input.command.as_deref(), out) else { continue };
                    if failed && NEVER_RAN.iter().any(|n| out.contains(n)) {
                        continue;
                    }
                    if !command::is_lookup(cmd) {
                        let core = command::core(cmd);
                        let error = if failed { cut(&command::error_line(out)) } else { String::new() };
                        runs.retain(|r| r.0 != core);
                        runs.push((core, cut(cmd), failed, error, index));
                    }
                    if !failed {
                        bash_effects(cmd, out, &mut commits, &mut branches, &mut files);
                    }
                }
                t if EDIT_TOOLS.contains(&t) => {
                    if failed || out.is_none() {
                        continue;
                    }
                    let Some(path) = input.file_path.or(input.notebook_path).filter(|p| !p.is_empty()) else { continue };
                    let created = t == "Write" && out.is_some_and(|o| o.starts_with("File created successfully"));
                    note_file(&mut files, cut(&path), if created { Change::Created } else { Change::Edited });
                }
                "TodoWrite" if !failed => {
                    if let Some(todos) = input.todos {
                        list = todos
                            .into_iter()
                            .filter_map(|t| {
                                let progress = match t.status.as_deref() {
                                    Some("completed") => return None,
                                    Some("in_progress") => Progress::Doing,
                                    _ => Progress::Pending,
                                };
                                t.content.filter(|c| !text::trim(c).is_empty()).map(|c| (cut(&c), progress))
                            })
                            .collect();
                    }
                }
                "TaskCreate" if !failed => {
                    let id = out.and_then(task_number);
                    if let (Some(id), Some(subject)) = (id, input.subject) {
                        tasks.push((id, cut(&subject), Some(Progress::Pending)));
                    }
                }
                "TaskUpdate" if !failed => {
                    let id = match &input.task_id {
                        Some(serde_json::Value::String(s)) => s.clone(),
                        Some(serde_json::Value::Number(n)) => n.to_string(),
                        _ => continue,
                    };
                    if let Some(task) = tasks.iter_mut().find(|t| t.0 == id) {
                        if let Some(s) = input.subject {
                            task.1 = cut(&s);
                        }
                        task.2 = match input.status.as_deref() {
                            Some("completed" | "deleted") => None,
                            Some("in_progress") => Some(Progress::Doing),
                            Some(_) => Some(Progress::Pending),
                            None => task.2,
                        };
                    }
                }
                _ => {}
            }
        }
    }
    // A branch made and committed on is named once, with its commits.
    for c in &mut commits {
        if let Item::Commit { branch, made, .. } = c {
            *made = branches.contains(branch);
        }
    }
    branches.retain(|b| !commits.iter().any(|c| matches!(c, Item::Commit { branch, .. } if branch == b)));
    let mut items: Vec<Item> = Vec::new();
    items.extend(runs.into_iter().rev().filter(|r| r.2).map(|r| Item::Failed { command: r.1, error: r.3, message: r.4 }));
    items.extend(commits.into_iter().rev());
    items.extend(branches.into_iter().rev().map(|name| Item::Branch { name }));
    items.extend(list.into_iter().map(|(text, progress)| Item::Todo { text, progress }));
    items.extend(tasks.into_iter().filter_map(|(_, text, p)| p.map(|progress| Item::Todo { text, progress })));
    items.extend(files.into_iter().rev().map(|(path, change)| Item::File { path, change }));
    items.sort_by_key(Item::rank);
    items.truncate(MAX_ITEMS);
    Record { items }
}

/// A file's change, once per path: a deletion wins over what came before it, a creation over an
/// edit; a path edited again after its deletion was made anew.
fn note_file(files: &mut Vec<(String, Change)>, path: String, change: Change) {
    let change = match files.iter().position(|f| f.0 == path) {
        Some(i) => {
            let (_, before) = files.remove(i);
            match (before, change) {
                (_, Change::Deleted) => Change::Deleted,
                (Change::Deleted, _) => Change::Created,
                (Change::Created, _) => Change::Created,
                (Change::Edited, c) => c,
            }
        }
        None => change,
    };
    files.push((path, change));
}

/// `Task #3 created successfully: …` → `3`.
fn task_number(out: &str) -> Option<String> {
    let rest = out.split("Task #").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty() && rest.get(digits.len()..)?.starts_with(" created")).then_some(digits)
}

/// What a successful command made: commits (from git's output), branches and deleted files (from
/// its words).
fn bash_effects(cmd: &str, out: &str, commits: &mut Vec<Item>, branches: &mut Vec<String>, files: &mut Vec<(String, Change)>) {
    let mut committed = false;
    for stage in command::stages(cmd) {
        let w = command::words(stage);
        if let Some((at, verb)) = command::git_verb(&w) {
            let rest = w.get(at + 1..).unwrap_or(&[]);
            match verb {
                "commit" => committed = true,
                "checkout" | "switch" => {
                    let flag = rest.iter().position(|x| matches!(x.as_str(), "-b" | "-B" | "-c" | "-C" | "--create"));
                    if let Some(name) = flag.and_then(|f| rest.get(f + 1)) {
                        note_branch(branches, name);
                    }
                }
                "branch" => {
                    let names: Vec<&String> = rest.iter().filter(|x| !x.starts_with('-')).collect();
                    if !rest.iter().any(|x| x.starts_with('-')) && (1..=2).contains(&names.len()) {
                        if let Some(name) = names.first() {
                            note_branch(branches, name);
                        }
                    }
                }
                "worktree" if rest.first().is_some_and(|x| x == "add") => {
                    if let Some(name) = rest.iter().position(|x| x == "-b" || x == "-B").and_then(|f| rest.get(f + 1)) {
                        note_branch(branches, name);
                    }
                }
                "rm" => deleted(rest, files),
                _ => {}
            }
        } else if w.first().is_some_and(|x| x == "rm") {
            deleted(w.get(1..).unwrap_or(&[]), files);
        }
    }
    if committed {
        for line in out.lines() {
            if let Some(c) = commit_line(line) {
                commits.retain(|x| !matches!(x, Item::Commit { sha, .. } if *sha == c.0));
                commits.push(Item::Commit { sha: c.0, branch: c.1, subject: c.2, made: false });
            }
        }
    }
}

fn note_branch(branches: &mut Vec<String>, name: &str) {
    if name.is_empty() || name.starts_with('-') {
        return;
    }
    let name = cut(name);
    branches.retain(|b| *b != name);
    branches.push(name);
}

/// The paths an `rm` or `git rm` removed: its arguments that are no option, glob or variable.
fn deleted(args: &[String], files: &mut Vec<(String, Change)>) {
    for a in args {
        let temp = a.starts_with("/tmp/") || a.starts_with("/dev/");
        if a.is_empty() || a.starts_with('-') || a.contains(['*', '?', '$', '`']) || temp {
            continue;
        }
        note_file(files, cut(a), Change::Deleted);
    }
}

/// `[main d13528a] Add x` (also `[main (root-commit) d13528a] …`) → sha, branch, subject.
fn commit_line(line: &str) -> Option<(String, String, String)> {
    let rest = text::trim(line).strip_prefix('[')?;
    let (inside, subject) = rest.split_once("] ")?;
    let mut parts = inside.split(' ');
    let branch = parts.next()?;
    let sha = parts.next_back()?;
    let hex = sha.len() >= 7 && sha.len() <= 40 && sha.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    (hex && !branch.is_empty() && !text::trim(subject).is_empty()).then(|| (sha.to_owned(), cut(branch), cut(subject)))
}

/// The whole record as a section of the history file: every item, so what the block after the
/// summary had no room for is still named where the recall tool finds it. `None` when empty.
pub fn render_full(record: &Record) -> Option<String> {
    render_within(record, usize::MAX)
}

/// The record's section within `chars` UTF-16 units: its best ranked items, and how many more.
pub fn render_within(record: &Record, chars: usize) -> Option<String> {
    if record.items.is_empty() {
        return None;
    }
    let mut out = String::from(FULL_HEAD);
    let mut used = text::len16(FULL_HEAD);
    for (k, item) in record.items.iter().enumerate() {
        let line = item.line();
        let left = record.items.len() - k;
        let tail = if left > 1 { 40 } else { 0 };
        if used.saturating_add(text::len16(&line) + 1 + tail) > chars {
            out.push_str(&format!("\n- … and {left} more"));
            break;
        }
        used += text::len16(&line) + 1;
        out.push('\n');
        out.push_str(&line);
    }
    Some(out)
}

/// The record at the end of the history (its last part, or a part of its own when that one is
/// full), `clean`ed (redacted) like the rest of the history.
pub fn into_history(parts: &mut Vec<String>, record: &Record, limit: usize, clean: &dyn Fn(&str) -> String) {
    let Some(full) = render_full(record) else { return };
    let section = format!("\n\n{}\n", clean(&full));
    match parts.last_mut() {
        Some(last) if last.len() + section.len() <= limit => last.push_str(&section),
        _ => parts.push(section.trim_start().to_owned()),
    }
}

/// The heading of the record in the history file (and the tier-2 rescue's digest).
pub const FULL_HEAD: &str = "# compact-plus work record\n\nWhat the conversation above did, read from its tool calls: commands whose last run failed, commits and branches made, open todo items, files created, deleted or edited (`[n]` is the message).";

#[cfg(test)]
mod tests;
