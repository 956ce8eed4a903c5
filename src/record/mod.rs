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
//! branches, todos, files created or deleted, files edited), newest first within a kind (todos
//! in their list's order), and is bounded ([`MAX_ITEMS`], each
//! text cut to [`TEXT_CHARS`]). Which items the summary already says, and how many fit after
//! it, is the audit's to judge (`crate::audit::block`): the record itself keeps everything, and
//! [`render_full`] writes all of it at the end of the history file.

pub mod command;

use serde_json::Value;

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
    #[cfg(test)]
    fn rank(&self) -> u8 {
        match self {
            Item::Failed { .. } => 0,
            Item::Commit { .. } => 1,
            Item::Branch { .. } => 2,
            Item::Todo { .. } => 3,
            Item::File { change: Change::Deleted | Change::Created, .. } => 4,
            Item::File { change: Change::Edited, .. } => 5,
        }
    }

    /// The item as one line of the record: what it is, and the text the history file holds.
    pub fn line(&self) -> String {
        match self {
            Item::Failed { command, error, message } => {
                format!("- last run failed ([{message}]): `{command}` → {error}")
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

/// A tool's input, read as JSON (the audit reads it so too: no parser of its own for the .wasm).
struct Input(Value);

impl Input {
    fn read(raw: Option<&str>) -> Input {
        Input(raw.and_then(|r| serde_json::from_str(r).ok()).unwrap_or(Value::Null))
    }

    fn text(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// A task's number, as text or as a number (`String(id)`).
    fn task_id(&self) -> Option<String> {
        match self.0.get("taskId")? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => n.as_u64().map(|n| n.to_string()),
            _ => None,
        }
    }
}

/// A result that says the call never ran as asked: the person rejected it, a sibling call
/// failed first, or the person interrupted it.
const NEVER_RAN: [&str; 4] = [
    "The user doesn't want to proceed with this tool use",
    "Sibling tool call errored",
    "[Request interrupted by user",
    "Permission to use",
];

const EDIT_TOOLS: &str = "Edit Write MultiEdit NotebookEdit";


/// What a reading has found so far, kind by kind, oldest first.
struct Findings<'a> {
    /// Redaction, before anything is cut: a credential cut in two is no longer known as one.
    clean: &'a dyn Fn(&str) -> String,
    /// Each command's last run, by its core, when it failed.
    failed: Vec<(String, Item)>,
    commits: Vec<Item>,
    branches: Vec<String>,
    files: Vec<(String, Change)>,
    /// The last TodoWrite list's open items.
    list: Vec<Item>,
    /// TaskCreate's tasks: number, subject, and how far it is while it is open.
    tasks: Vec<(String, String, Option<Progress>)>,
}

impl Findings<'_> {
    /// A text the record keeps: redacted, then on one line of at most [`TEXT_CHARS`].
    fn cut(&self, s: &str) -> String {
        text::one_line(&(self.clean)(s), TEXT_CHARS)
    }
}

/// The record of a conversation, from its tool calls; `clean` redacts every text it keeps.
pub fn read(messages: &Messages, clean: &dyn Fn(&str) -> String) -> Record {
    let mut found = Findings {
        clean,
        failed: Vec::new(),
        commits: Vec::new(),
        branches: Vec::new(),
        files: Vec::new(),
        list: Vec::new(),
        tasks: Vec::new(),
    };
    for (index, m) in messages.iter().enumerate() {
        let Some(m) = m else { continue };
        for u in &m.tool_uses.0 {
            let input = Input::read(u.input.as_ref().map(|r| r.get()));
            let (tool, out, failed) = (u.tool.as_str().unwrap_or(""), u.text.as_deref(), u.is_error.truthy());
            if tool == "Bash" {
                if let (Some(cmd), Some(out)) = (input.text("command"), out) {
                    bash(&mut found, cmd, out, failed, index);
                }
            } else if text::one_of(EDIT_TOOLS, tool) {
                let path = input.text("file_path").or_else(|| input.text("notebook_path")).unwrap_or("");
                if !failed && !path.is_empty() {
                    if let Some(out) = out {
                        let created = tool == "Write" && out.starts_with("File created successfully");
                        let path = found.cut(path);
                        note_file(&mut found.files, path, if created { Change::Created } else { Change::Edited });
                    }
                }
            } else if !failed {
                todos(&mut found, tool, &input, out);
            }
        }
    }
    ranked(found)
}

/// One Bash call: a failure or the success that resolves it, and what it made.
fn bash(found: &mut Findings, cmd: &str, out: &str, failed: bool, index: usize) {
    if failed && NEVER_RAN.iter().any(|n| out.contains(n)) {
        return;
    }
    if !command::is_lookup(cmd) {
        let core = command::core(cmd);
        if let Some(i) = found.failed.iter().position(|f| f.0 == core) {
            found.failed.remove(i);
        }
        if failed {
            let item = Item::Failed { command: found.cut(cmd), error: found.cut(&command::error_line(out)), message: index };
            found.failed.push((core, item));
        }
    }
    if !failed {
        bash_effects(cmd, out, found);
    }
}

/// TodoWrite's list, TaskCreate's and TaskUpdate's tasks.
fn todos(found: &mut Findings, tool: &str, input: &Input, out: Option<&str>) {
    match tool {
        "TodoWrite" => {
            let Some(todos) = input.0.get("todos").and_then(Value::as_array) else { return };
            found.list.clear();
            for t in todos {
                let progress = match t.get("status").and_then(Value::as_str) {
                    Some("completed") => continue,
                    Some("in_progress") => Progress::Doing,
                    _ => Progress::Pending,
                };
                match t.get("content").and_then(Value::as_str) {
                    Some(c) if !text::trim(c).is_empty() => {
                        let text = found.cut(c);
                        found.list.push(Item::Todo { text, progress });
                    }
                    _ => {}
                }
            }
        }
        "TaskCreate" => {
            if let (Some(id), Some(subject)) = (out.and_then(task_number), input.text("subject")) {
                let subject = found.cut(subject);
                found.tasks.push((id, subject, Some(Progress::Pending)));
            }
        }
        "TaskUpdate" => {
            let Some(id) = input.task_id() else { return };
            let subject = input.text("subject").map(|s| found.cut(s));
            let Some(task) = found.tasks.iter_mut().find(|t| t.0 == id) else { return };
            if let Some(subject) = subject {
                task.1 = subject;
            }
            if task.2.is_some() {
                task.2 = match input.text("status") {
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

/// The items in rank order: failures, commits, branches, newest first; todos in their list's
/// order; files created or deleted, then edited, newest first. At most [`MAX_ITEMS`].
fn ranked(found: Findings) -> Record {
    let Findings { failed, mut commits, mut branches, files, list, tasks, .. } = found;
    // A branch made and committed on is named once, with its commits.
    for c in &mut commits {
        if let Item::Commit { branch, made, .. } = c {
            *made = branches.iter().any(|b| b == branch);
        }
    }
    for c in &commits {
        if let Item::Commit { branch, made: true, .. } = c {
            if let Some(i) = branches.iter().position(|b| b == branch) {
                branches.remove(i);
            }
        }
    }
    let mut items: Vec<Item> = Vec::new();
    for f in failed.into_iter().rev() {
        items.push(f.1);
    }
    for c in commits.into_iter().rev() {
        items.push(c);
    }
    for name in branches.into_iter().rev() {
        items.push(Item::Branch { name });
    }
    for t in list {
        items.push(t);
    }
    for (_, text, progress) in tasks {
        if let Some(progress) = progress {
            items.push(Item::Todo { text, progress });
        }
    }
    for made in [true, false] {
        for (path, change) in files.iter().rev() {
            if (*change != Change::Edited) == made {
                items.push(Item::File { path: path.clone(), change: *change });
            }
        }
    }
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
fn bash_effects(cmd: &str, out: &str, found: &mut Findings) {
    let cut = |s: &str| text::one_line(&(found.clean)(s), TEXT_CHARS);
    let Findings { commits, branches, files, .. } = found;
    let mut committed = false;
    for stage in command::stages(cmd) {
        let w = &stage.words;
        if let Some((at, verb)) = command::git_verb(w) {
            let rest = w.get(at + 1..).unwrap_or(&[]);
            match verb {
                "commit" => committed = true,
                "checkout" | "switch" => {
                    let flag = rest.iter().position(|x| matches!(x.as_str(), "-b" | "-B" | "-c" | "-C" | "--create"));
                    if let Some(name) = flag.and_then(|f| rest.get(f + 1)) {
                        note_branch(branches, cut(name));
                    }
                }
                "branch" if !rest.iter().any(|x| x.starts_with('-')) && (1..=2).contains(&rest.len()) => {
                    if let Some(name) = rest.first() {
                        note_branch(branches, cut(name));
                    }
                }
                "worktree" if rest.first().is_some_and(|x| x == "add") => {
                    if let Some(name) = rest.iter().position(|x| x == "-b" || x == "-B").and_then(|f| rest.get(f + 1)) {
                        note_branch(branches, cut(name));
                    }
                }
                "rm" => deleted(rest, files, &cut),
                _ => {}
            }
        } else if w.first().is_some_and(|x| x == "rm") {
            deleted(w.get(1..).unwrap_or(&[]), files, &cut);
        }
    }
    if committed {
        for line in out.lines() {
            if let Some(c) = commit_line(line, &cut) {
                if let Some(i) = commits.iter().position(|x| matches!(x, Item::Commit { sha, .. } if *sha == c.0)) {
                    commits.remove(i);
                }
                commits.push(Item::Commit { sha: c.0, branch: c.1, subject: c.2, made: false });
            }
        }
    }
}

fn note_branch(branches: &mut Vec<String>, name: String) {
    if name.is_empty() || name.starts_with('-') {
        return;
    }
    if let Some(i) = branches.iter().position(|b| *b == name) {
        branches.remove(i);
    }
    branches.push(name);
}

/// The paths an `rm` or `git rm` removed: its arguments that are no option, glob or variable.
fn deleted(args: &[String], files: &mut Vec<(String, Change)>, cut: &dyn Fn(&str) -> String) {
    for a in args {
        let temp = a.starts_with("/tmp/") || a.starts_with("/dev/");
        if a.is_empty() || a.starts_with('-') || a.contains(is_glob_or_variable) || temp {
            continue;
        }
        note_file(files, cut(a), Change::Deleted);
    }
}

/// `*`, `?`, `$`, a backquote: a word the shell expands, so not a path as written.
fn is_glob_or_variable(c: char) -> bool {
    c == '*' || c == '?' || c == '$' || c == '`'
}

/// `[main d13528a] Add x` (also `[main (root-commit) d13528a] …`) → sha, branch, subject.
fn commit_line(line: &str, cut: &dyn Fn(&str) -> String) -> Option<(String, String, String)> {
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
    let all: Vec<&Item> = record.items.iter().collect();
    render(FULL_HEAD, &all, chars, "")
}

/// `head`, then one line per item while they fit in `chars` UTF-16 units with room for the
/// line that counts the rest ("- … and N more{more}"). `None` for no items.
pub fn render(head: &str, items: &[&Item], chars: usize, more: &str) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    let mut out = String::from(head);
    let mut used = text::len16(head);
    for (k, item) in items.iter().enumerate() {
        let line = item.line();
        let left = items.len() - k;
        let tail = if left > 1 { 20 + text::len16(more) } else { 0 };
        if used.saturating_add(text::len16(&line) + 1 + tail) > chars {
            out.push_str(&format!("\n- … and {left} more{more}"));
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
pub const FULL_HEAD: &str = "# compact-plus work record\n\nRead from the tool calls above: commands whose last run failed, commits and branches made, open todos, files created, deleted or edited ([n]: the message).";

#[cfg(test)]
mod tests;
