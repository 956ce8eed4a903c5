//! A Codex rollout: the person's words from `event_msg` `user_message` (the
//! `response_item` user messages repeat them beside injected context), the
//! assistant's messages, tool calls and their output; `compacted` rows are
//! compactions with their summary. Line shapes as ../shared/real-transcripts
//! has them (Codex 0.58 to 0.142).

use super::row::{cut, decode, has_text, is_recall_answer, Detail, Line, Utterance, Speaker, TOOL_INPUT_CHARS};
use crate::json::{fields, items, text};

/// A string as its text, anything else as its JSON.
fn text_of(raw: &str) -> String {
    if raw.starts_with('"') {
        decode(raw)
    } else {
        raw.to_owned()
    }
}

pub fn read(line: &str, detail: Detail) -> Line<'_> {
    let Some([ts, kind, payload]) = fields(line, ["timestamp", "type", "payload"]) else { return Line::Malformed };
    let ts = ts.map(decode).unwrap_or_default();
    let kind = kind.and_then(text).unwrap_or_default();
    let full = detail == Detail::Full;
    let keys = ["type", "role", "message", "content", "name", "arguments", "input", "output"];
    let Some([p_kind, role, message, content, name, arguments, input, output]) = payload.and_then(|p| fields(p, keys)) else {
        return if kind == "session_meta" { Line::Start { ts } } else { Line::Other };
    };
    let said = |speaker, text: String, from_recall| Line::Utterance(Utterance { speaker, ts: ts.clone().into(), text: text.into(), from_recall });
    // Without the full texts, "…" stands for a text there is.
    let glance = |raw: Option<&str>| if raw.is_some_and(has_text) { "…".to_owned() } else { String::new() };
    let p_kind = p_kind.and_then(text).unwrap_or_default();
    match (kind.as_ref(), p_kind.as_ref()) {
        ("session_meta", _) => Line::Start { ts },
        ("compacted", _) => {
            let summary = if full { message.map(decode).unwrap_or_default() } else { glance(message) };
            Line::Compaction { ts: ts.clone(), summary: Some(summary) }
        }
        ("event_msg", "user_message") => said(Speaker::User, message.map(decode).unwrap_or_default(), false),
        ("response_item", "message") if role.and_then(text).as_deref() == Some("assistant") => {
            let parts: Vec<Option<&str>> = content.and_then(items).unwrap_or_default().into_iter().map(|b| fields(b, ["text"]).and_then(|[t]| t)).collect();
            let out = if full {
                parts.iter().map(|t| t.map(decode).unwrap_or_default()).collect::<Vec<_>>().join("\n")
            } else if parts.iter().any(|t| t.is_some_and(has_text)) {
                "…".to_owned()
            } else {
                String::new()
            };
            said(Speaker::Assistant, out, false)
        }
        ("response_item", "function_call" | "custom_tool_call") => {
            let name = name.and_then(text).unwrap_or_default();
            let out = if full { format!("tool {name}: {}", cut(&arguments.or(input).map(text_of).unwrap_or_default(), TOOL_INPUT_CHARS)) } else { "…".into() };
            said(Speaker::Tool, out, false)
        }
        ("response_item", "function_call_output" | "custom_tool_call_output") if full => {
            let out = output.map(text_of).unwrap_or_default();
            let from_recall = is_recall_answer(&out);
            said(Speaker::Tool, out, from_recall)
        }
        ("response_item", "function_call_output" | "custom_tool_call_output") => said(Speaker::Tool, glance(output), false),
        _ => Line::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_every_kind() {
        let rows = [
            r#"{"timestamp":"2026-03-08T09:00:00.000Z","type":"session_meta","payload":{"id":"019a-codex","cwd":"/w/app","cli_version":"0.77.0"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>zebra-4417</environment_context>"}]}}"#,
            r#"{"timestamp":"2026-03-08T09:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"which command fixed the build? zebra-4417"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:03.000Z","type":"response_item","payload":{"type":"reasoning","summary":[]}}"#,
            r#"{"timestamp":"2026-03-08T09:00:04.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"make\",\"clean-build\"]}"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:05.000Z","type":"response_item","payload":{"type":"function_call_output","output":"build ok"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:06.000Z","type":"event_msg","payload":{"type":"agent_message","message":"dup"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:06.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"make clean-build fixed it"}]}}"#,
            r#"{"timestamp":"2026-03-08T09:10:00.000Z","type":"compacted","payload":{"message":"summary of the codex work","replacement_history":[]}}"#,
        ];
        let got: Vec<Line> = rows.iter().map(|r| read(r, Detail::Full)).collect();
        let said = |speaker, ts: &'static str, text: &'static str| Line::Utterance(Utterance { speaker, ts: ts.into(), text: text.into(), from_recall: false });
        assert_eq!(
            got,
            [
                Line::Start { ts: "2026-03-08T09:00:00.000Z".into() },
                Line::Other,
                said(Speaker::User, "2026-03-08T09:00:02.000Z", "which command fixed the build? zebra-4417"),
                Line::Other,
                said(Speaker::Tool, "2026-03-08T09:00:04.000Z", "tool shell: {\"command\":[\"make\",\"clean-build\"]}"),
                said(Speaker::Tool, "2026-03-08T09:00:05.000Z", "build ok"),
                Line::Other,
                said(Speaker::Assistant, "2026-03-08T09:00:06.000Z", "make clean-build fixed it"),
                Line::Compaction { ts: "2026-03-08T09:10:00.000Z".into(), summary: Some("summary of the codex work".into()) },
            ]
        );
        assert_eq!(read("nope", Detail::Full), Line::Malformed);
    }
}
