//! Each tool's record, one row at a time: what a row of it says, read from
//! the raw JSON line. Nothing here redacts: a row's texts are redacted by the
//! search before anything keeps or tests them, and a row is read only when
//! its line can hit (or, for the sessions view, to count it).
//!
//! - [`claude`]: Claude Code transcripts.
//! - [`codex`]: Codex CLI rollouts.
//! - [`opencode`]: OpenCode's prompt history.
//! - `row`: what a row is, whatever the tool.
//!
//! A summary compact-plus saved is markdown, one message a file: no rows.

pub mod claude;
pub mod codex;
pub mod opencode;
mod row;

pub use row::{is_request, Detail, Line, Utterance, Speaker};

use crate::walk::Recorder;

/// One row of `format`. `cwd` is the project's folder (OpenCode's rows name
/// it, or not).
pub fn read_line<'a>(format: Recorder, line: &'a str, detail: Detail, cwd: &str) -> Line<'a> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    match format {
        Recorder::ClaudeCode => claude::read(line, detail),
        Recorder::Codex => codex::read(line, detail),
        Recorder::OpenCodePrompts => opencode::read(line, cwd),
        Recorder::Summary => Line::Other,
    }
}
