//! A Claude Code transcript: user and assistant rows of the main
//! conversation; compact boundaries counted, their summaries read as
//! `summary`, old `summary` rows as the title; subagent rows (`progress`,
//! `isSidechain`), meta rows and snapshots are other kinds. Line shapes as
//! ../shared/real-transcripts has them (Claude Code 1.0.17 to 2.1.79).

use super::row::{cut, decode, has_text, is_recall_answer, Detail, Line, Utterance, Speaker, TOOL_INPUT_CHARS};
use crate::json::{fields, is_true, items, text};
use compact_plus::recall_tool;

/// A tool result's content (a string, or blocks of text) as text.
fn result_text(raw: &str) -> String {
    match items(raw) {
        Some(blocks) => blocks
            .iter()
            .filter_map(|b| fields(b, ["text"]).and_then(|[t]| t).map(decode))
            .collect::<Vec<_>>()
            .join("\n"),
        None => decode(raw),
    }
}

/// Content blocks as one text: `(text, tool work alone, a recall call or
/// answer)`. Without `Detail::Full` the tools' texts are left unread, and the
/// assistant's unless `words` (the person's are read: the sessions view shows
/// requests); a text of "…" says there was some.
fn blocks_text(blocks: &[&str], detail: Detail, words: bool) -> (String, bool, bool) {
    let mut parts = Vec::new();
    let (mut tool, mut said, mut recall, mut any) = (false, false, false, false);
    for b in blocks {
        let Some([kind, t, name, input, content]) = fields(b, ["type", "text", "name", "input", "content"]) else { continue };
        match kind.and_then(text).as_deref() {
            Some("text") => {
                said = true;
                any |= t.is_some_and(has_text);
                if detail == Detail::Full || words {
                    parts.push(t.map(decode).unwrap_or_default());
                }
            }
            Some("tool_use") => {
                tool = true;
                any = true;
                let name = name.and_then(text).unwrap_or_default();
                recall |= recall_tool::is_recall(&name);
                if detail == Detail::Full {
                    parts.push(format!("tool {name}: {}", cut(input.unwrap_or(""), TOOL_INPUT_CHARS)));
                }
            }
            Some("tool_result") => {
                tool = true;
                if detail == Detail::Full {
                    let out = content.map(result_text).unwrap_or_default();
                    recall |= is_recall_answer(&out);
                    any |= !out.trim().is_empty();
                    parts.push(out);
                } else {
                    any |= content.is_some_and(has_text);
                    recall |= content.is_some_and(|c| c.starts_with("\"recall: "));
                }
            }
            _ => {}
        }
    }
    let mut out = parts.join("\n");
    if detail != Detail::Full && any && out.trim().is_empty() {
        out = "…".into();
    }
    (out, tool && !said, recall)
}

pub fn read(line: &str, detail: Detail) -> Line {
    let keys = ["type", "subtype", "timestamp", "isSidechain", "isMeta", "isCompactSummary", "summary", "message"];
    let Some([kind, subtype, ts, sidechain, meta, compact_summary, summary, message]) = fields(line, keys) else {
        return Line::Malformed;
    };
    let ts = ts.map(decode).unwrap_or_default();
    let kind = kind.and_then(text).unwrap_or_default();
    match kind.as_ref() {
        "summary" => Line::Title(summary.map(decode).unwrap_or_default()),
        "system" if subtype.and_then(text).as_deref() == Some("compact_boundary") => Line::Compaction { ts, summary: None },
        "user" | "assistant" if !is_true(sidechain) && !is_true(meta) => {
            let user = kind == "user";
            let content = message.and_then(|m| fields(m, ["content"])).and_then(|[c]| c);
            let (said, tool, from_recall) = match content {
                None => (String::new(), false, false),
                Some(c) => match items(c) {
                    // The person's words are read whole even in a glance.
                    Some(blocks) => blocks_text(&blocks, detail, user),
                    None => (decode(c), false, false),
                },
            };
            let speaker = if is_true(compact_summary) {
                Speaker::Summary
            } else if tool {
                Speaker::Tool
            } else if user {
                Speaker::User
            } else {
                Speaker::Assistant
            };
            Line::Utterance(Utterance { speaker, ts, text: said, from_recall })
        }
        _ => Line::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(line: &str) -> Utterance {
        match read(line, Detail::Full) {
            Line::Utterance(s) => s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rows_of_every_kind() {
        assert_eq!(read(r#"{"type":"summary","summary":"Fix the tokenizer","leafUuid":"x"}"#, Detail::Full), Line::Title("Fix the tokenizer".into()));
        assert_eq!(read(r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{}}"#, Detail::Full), Line::Other);
        assert_eq!(read(r#"{"type":"progress","data":{"type":"agent_progress"}}"#, Detail::Full), Line::Other);
        assert_eq!(read(r#"{"type":"assistant","isSidechain":true,"message":{"content":"x"}}"#, Detail::Full), Line::Other);
        assert_eq!(read(r#"{"type":"user","isMeta":true,"message":{"content":"x"}}"#, Detail::Full), Line::Other);
        assert_eq!(read("{not json", Detail::Full), Line::Malformed);
        assert_eq!(read("[1,2]", Detail::Full), Line::Malformed);
        let b = read(r#"{"type":"system","subtype":"compact_boundary","timestamp":"t1"}"#, Detail::Full);
        assert_eq!(b, Line::Compaction { ts: "t1".into(), summary: None });
        let u = said(r#"{"type":"user","message":{"role":"user","content":"the \"tokenizer\" drops"},"timestamp":"t2"}"#);
        assert_eq!((u.speaker, u.text.as_str(), u.ts.as_str()), (Speaker::User, "the \"tokenizer\" drops", "t2"));
        let a = said(r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Looking."},{"type":"tool_use","name":"Bash","input":{"command":"cargo test"}}]}}"#);
        assert_eq!((a.speaker, a.text.as_str()), (Speaker::Assistant, "Looking.\ntool Bash: {\"command\":\"cargo test\"}"));
        let t = said(r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"text","text":"error[E0308]"}]}]}}"#);
        assert_eq!((t.speaker, t.text.as_str()), (Speaker::Tool, "error[E0308]"));
        let s = said(r#"{"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued."}}"#);
        assert_eq!(s.speaker, Speaker::Summary);
    }

    #[test]
    fn the_recall_tools_own_calls_and_answers_are_marked() {
        let call = said(r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"mcp__compact-plus__recall","input":{"query":"heron"}}]}}"#);
        assert!(call.from_recall && call.speaker == Speaker::Tool);
        let answer = said(r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"recall: 1 hit in 1 message"}]}}"#);
        assert!(answer.from_recall);
        let glance = match read(r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"recall: 1 hit"}]}}"#, Detail::Requests) {
            Line::Utterance(s) => s,
            other => panic!("{other:?}"),
        };
        assert!(glance.from_recall && !glance.text.is_empty());
        assert!(!said(r#"{"type":"user","message":{"content":"recall: what did we do?"}}"#).from_recall, "the person's words are theirs");
    }

    #[test]
    fn a_glance_says_whether_there_is_text_without_reading_it() {
        let row = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"a long answer"}]}}"#;
        let Line::Utterance(s) = read(row, Detail::Requests) else { panic!() };
        assert_eq!((s.speaker, s.text.as_str()), (Speaker::Assistant, "…"));
        let row = r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"only this"}]}}"#;
        let Line::Utterance(s) = read(row, Detail::Requests) else { panic!() };
        assert!(s.text.is_empty(), "no text: not a message");
        let row = r#"{"type":"user","message":{"content":[{"type":"text","text":"the request"},{"type":"image"}]}}"#;
        let Line::Utterance(s) = read(row, Detail::Requests) else { panic!() };
        assert_eq!(s.text, "the request", "the person's words are read whole");
    }
}
