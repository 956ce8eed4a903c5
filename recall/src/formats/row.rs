//! What a row of a record is, whatever the tool: the vocabulary the readers
//! share, and the few tests they make of a row's text.

use std::borrow::Cow;

use compact_plus::recall_tool::Role;

/// What a tool's input shows of itself: `tool <name>: <input>`, cut.
pub const TOOL_INPUT_CHARS: usize = 2000;

/// Whose a message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    User,
    Assistant,
    /// Tool calls and their results.
    Tool,
    /// A compaction's summary.
    Summary,
}

impl Speaker {
    pub fn as_str(self) -> &'static str {
        match self {
            Speaker::User => "user",
            Speaker::Assistant => "assistant",
            Speaker::Tool => "tool",
            Speaker::Summary => "summary",
        }
    }

    /// Whether a search kept to `role` reads it (a summary is the assistant's).
    pub fn is(self, role: Role) -> bool {
        matches!(
            (self, role),
            (Speaker::User, Role::User) | (Speaker::Assistant | Speaker::Summary, Role::Assistant) | (Speaker::Tool, Role::Tool)
        )
    }
}

/// A message a row holds. Its text is the raw record's: not yet redacted;
/// borrowed from the line where it has no escapes (the sessions view reads
/// every row, and keeps next to nothing of it).
#[derive(Debug, Clone, PartialEq)]
pub struct Utterance<'a> {
    pub speaker: Speaker,
    pub ts: Cow<'a, str>,
    pub text: Cow<'a, str>,
    /// The recall tool's own earlier call or answer: ranked last.
    pub from_recall: bool,
}

/// What one line of a record is, read as its tool's row.
#[derive(Debug, Clone, PartialEq)]
pub enum Line<'a> {
    Utterance(Utterance<'a>),
    /// A compaction; Codex keeps its summary with it.
    Compaction { ts: String, summary: Option<String> },
    /// Claude Code's old `summary` row: the session's title.
    Title(String),
    /// Codex's `session_meta`: the session starts.
    Start { ts: String },
    /// A row of a kind not read: subagents, reasoning, snapshots, meta, events.
    Other,
    /// An OpenCode prompt of another project, or of none it names.
    Elsewhere,
    /// Not a JSON object of the record's shape.
    Malformed,
}

/// How much of a row to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Every text, as the search and a message read in full show them.
    Full,
    /// The person's texts alone (the requests the sessions view names); the
    /// others only as far as to say whether they hold any text.
    Requests,
}

/// A raw JSON string's text; anything else is none.
pub fn decode(raw: &str) -> String {
    crate::json::text(raw).map(std::borrow::Cow::into_owned).unwrap_or_default()
}

/// Whether a raw JSON string holds any text but white space (an escape but
/// `\n`, `\t`, `\r` counts as text). Not a string: whether it is non-empty.
pub fn has_text(raw: &str) -> bool {
    let s = raw.trim();
    let Some(inner) = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return !matches!(s, "" | "null" | "[]" | "{}");
    };
    let mut bytes = inner.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => {}
            b'\\' => match bytes.next() {
                Some(b'n' | b't' | b'r') => {}
                _ => return true,
            },
            _ => return true,
        }
    }
    false
}

/// The engine's own rows written as the person's: command echoes, caveats,
/// reminders. Not requests.
pub fn is_request(text: &str) -> bool {
    let t = text.trim_start();
    !(t.starts_with("<command-") || t.starts_with("<local-command") || t.starts_with("<system-reminder>") || t.starts_with("Caveat:"))
}

/// A tool's output that is the recall tool's own earlier answer.
pub fn is_recall_answer(text: &str) -> bool {
    text.trim_start().starts_with("recall: ")
}

/// At most `max` chars of `s`, `…` where cut.
pub fn cut(s: &str, max: usize) -> String {
    crate::text::cut_chars(s, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_text_reads_escapes() {
        for (json, want) in [(r#""""#, false), (r#"" \n\t ""#, false), (r#""a""#, true), (r#""\u0041""#, true), ("[]", false), ("[1]", true), ("null", false)] {
            assert_eq!(has_text(json), want, "{json}");
        }
        assert!(is_request("fix it") && !is_request("  <command-name>/clear</command-name>"));
        assert!(Speaker::Summary.is(Role::Assistant) && !Speaker::Tool.is(Role::User));
    }
}
