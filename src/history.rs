//! The conversation before compaction, as searchable markdown.
//!
//! One `## [n] role` heading per message, tool calls as `### tool <name>` with
//! their input and result, so `rg` (or the recall tool) finds a word and the
//! message it came from.

use crate::message::{Messages, ToolUse};
use crate::text;

const TOOL_INPUT_CHARS: f64 = 2000.0;
const TOOL_RESULT_CHARS: f64 = 12000.0;
const TOOL_NOTE: &str = "see the transcript";

/// What the first lines of the file say about it.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    pub session_id: String,
    pub at: String,
    pub trigger: String,
}

fn tool_input(u: &ToolUse) -> String {
    let json = u.input.as_ref().map_or("{}", |raw| raw.get());
    text::cut_middle(json, TOOL_INPUT_CHARS, TOOL_NOTE)
}

/// The lines of one message, or none when the message has nothing to show
/// (a user row that only carries tool results, an empty row, a `null`).
fn message_lines(i: usize, m: &crate::message::Message, out: &mut Vec<String>) {
    let text = text::trim(m.text());
    let uses = &m.tool_uses.0;
    if m.is_user() && text.is_empty() && m.tool_results > 0 {
        return;
    }
    if text.is_empty() && uses.is_empty() {
        return;
    }
    out.push(format!("## [{i}] {}", m.role.to_js_string()));
    out.push(String::new());
    if !text.is_empty() {
        out.push(text.to_owned());
        out.push(String::new());
    }
    for u in uses {
        let error = if u.is_error.truthy() { " (error)" } else { "" };
        out.push(format!("### tool {}{error}", u.tool.to_js_string()));
        out.push(format!("input: {}", tool_input(u)));
        if let Some(result) = &u.text {
            out.push("result:".into());
            out.push(text::cut_middle(result, TOOL_RESULT_CHARS, TOOL_NOTE));
        }
        out.push(String::new());
    }
}

fn header(count: usize, meta: &Meta) -> Vec<String> {
    vec![
        "# Conversation before compaction".into(),
        String::new(),
        format!(
            "Session {}, compacted {} ({}), {count} messages. Written by the compact-plus mod.",
            meta.session_id, meta.at, meta.trigger
        ),
        "Each message starts with a \"## [n] role\" line; tool calls follow as \"### tool <name>\" with their input and result (long results cut; the .jsonl transcript has everything).".into(),
        String::new(),
    ]
}

/// The reference's history text, byte for byte.
pub fn render(messages: &Messages, meta: &Meta) -> String {
    let mut out = header(messages.len(), meta);
    for (i, m) in messages.iter().enumerate() {
        if let Some(m) = m {
            message_lines(i, m, &mut out);
        }
    }
    out.join("\n")
}
