//! The rows the engine writes into the conversation as the user's that are
//! not the person's words: its reminders, the terminal's local commands and
//! their output, and the envelopes of what another agent, session or tool
//! relays. compact-plus keeps them out of the verbatim block, the audit and
//! the summary check, and makes the terminal's readable in the history.

pub use super::reminder::{REMINDER_CLOSE, REMINDER_OPEN};

/// A local command typed in the terminal (`/compact`, `/plugin`, …) is a user
/// row `<command-name>/compact</command-name> <command-message>…</command-message>
/// <command-args>…</command-args>`, its output another
/// (`<local-command-stdout>…</local-command-stdout>`, or `-stderr`), and a
/// caveat row before them (tests/HOST.md, "The terminal's text in a
/// compaction's messages").
pub const COMMAND_NAME: &str = "command-name";
pub const COMMAND_ARGS: &str = "command-args";
pub const COMMAND_STDOUT: &str = "local-command-stdout";
pub const COMMAND_STDERR: &str = "local-command-stderr";
pub const COMMAND_CAVEAT: &str = "<local-command-caveat>";
/// The output of a command that printed nothing.
pub const NO_CONTENT: &str = "(no content)";
/// The terminal keeps its screen's escapes in a command's output
/// (`ESC[2mCompacted (ctrl+o to see full summary)ESC[22m`; headless the row
/// reads `Compacted `) and its key hints: a parenthesis that starts with one
/// of these modifiers and a key.
pub const KEY_MODIFIERS: [&str; 6] = ["ctrl+", "shift+", "alt+", "option+", "cmd+", "meta+"];

/// The engine's rows as the reference knew them (its `lib.js`), by how they
/// start: reminders, notifications, local commands and their caveat, hook
/// output, an interrupted request, an earlier summary row. `crate::compat`
/// keeps to these alone, as the reference did.
pub const ENGINE_ROWS: [&str; 10] = [
    REMINDER_OPEN,
    "<task-notification>",
    "<command-",
    "<local-command",
    "<side-sessions-event>",
    "<ci-monitor-event>",
    "<user-prompt-submit-hook>",
    "[Request interrupted",
    "Caveat:",
    super::summary_row::HEAD,
];

/// User rows that are another's words, as the engine writes them, that the
/// reference took for the person's: the
/// envelopes it lists as not the user's input (its bundle's
/// `harness-envelope-tag` list: agent, team and peer messages, notifications,
/// relayed web and artifact content), the channel relay (`<channel
/// source="…">`: Slack or Telegram, anyone there), the lines it puts before a
/// peer's message delivered into a running turn, the frame of a task
/// notification, the terminal's `!` shell rows (a command and its output, not
/// a request to the model), a skill's body and a fork's boilerplate. Read from
/// the 2.1.328 bundle (tests/HOST.md, "Which request is current": no agent
/// team was run here).
pub const NOT_THE_PERSON: &[&str] = &[
    "<task-notification",
    "<teammate-message",
    "<agent-message",
    "<cross-session-message",
    "<coordinator-relay",
    "<remote-review",
    "<slack-ping",
    "<slack-tag-message",
    "<channel source=",
    "<tick>",
    "<fetched-web-content",
    "<untrusted-widget-state",
    "<artifact-type-instructions",
    "<cowritten-artifact-html",
    "<artifact-file-content",
    "<artifact-origin-notes",
    "<artifact-stored-declaration",
    "<mcp-resource-update",
    "<mcp-polling-update",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<fork-boilerplate>",
    "Another Claude session sent a message",
    "A peer session sent a message",
    "[SYSTEM NOTIFICATION - NOT USER INPUT]",
    "Base directory for this skill:",
];

/// `<tag>` and `</tag>`.
pub fn tags(tag: &str) -> (String, String) {
    (format!("<{tag}>"), format!("</{tag}>"))
}
