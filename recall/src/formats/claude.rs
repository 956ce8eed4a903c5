//! A Claude Code transcript: user and assistant rows of the main
//! conversation; compact boundaries counted, their summaries read as
//! `summary`, old `summary` rows as the title; subagent rows (`progress`,
//! `isSidechain`), meta rows and snapshots are other kinds. Line shapes as
//! ../shared/real-transcripts has them (Claude Code 1.0.17 to 2.1.79).

use std::borrow::Cow;

use super::row::{cut, decode, has_text, is_recall_answer, Detail, Line, Utterance, Speaker, TOOL_INPUT_CHARS};
use crate::json::{array, fields, is_true, items, object, place, string_end, text, unquoted, value_end, whole_object};
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

/// A row's members, as [`ROW_KEYS`] names them.
type Members<'a> = [Option<&'a str>; 8];
const ROW_KEYS: [&str; 8] = ["type", "subtype", "timestamp", "isSidechain", "isMeta", "isCompactSummary", "summary", "message"];
/// A content block's members, as [`BLOCK_KEYS`] names them.
type BlockFields<'a> = [Option<&'a str>; 5];
const BLOCK_KEYS: [&str; 5] = ["type", "text", "name", "input", "content"];

/// A message's content: its raw value and, when it is an array, its blocks
/// (`None`: an element that is no object); `plain`: a string without escapes
/// (its text is what its quotes hold).
struct Content<'a> {
    raw: &'a str,
    blocks: Option<Vec<Option<BlockFields<'a>>>>,
    plain: bool,
}

/// A row's members and its message's content, read in one pass: what
/// `fields(line, ROW_KEYS)`, then `fields(message, ["content"])`, `items` of
/// the content and `fields(block, BLOCK_KEYS)` of each element read, without
/// reading a text again at each level (the sessions view reads every row: a
/// long text was read four times). `None`: the line is no object.
fn read_row(line: &str) -> Option<(Members<'_>, Option<Content<'_>>)> {
    let (mut members, mut content): (Members, _) = ([None; 8], None);
    whole_object(line, |name, start| {
        let at = place(&ROW_KEYS, name);
        let end = if at == Some(7) {
            // The last `message` is the one read; one that is no object has no content.
            match message(line, start) {
                Some((end, c)) => {
                    content = c;
                    end
                }
                None => {
                    content = None;
                    value_end(line, start)?
                }
            }
        } else {
            value_end(line, start)?
        };
        if let Some(slot) = at.and_then(|p| members.get_mut(p)) {
            *slot = line.get(start..end);
        }
        Some(end)
    })?;
    Some((members, content))
}

/// The message object at `start`: its end and its content.
fn message(line: &str, start: usize) -> Option<(usize, Option<Content<'_>>)> {
    let mut content = None;
    let end = object(line, start, |name, at| {
        if name != "content" {
            return value_end(line, at);
        }
        let (end, blocks, plain) = match (blocks(line, at), string_end(line, at)) {
            (Some((end, blocks)), _) => (end, Some(blocks), false),
            (None, Some((end, escaped))) => (end, None, !escaped),
            (None, None) => (value_end(line, at)?, None, false),
        };
        content = Some(Content { raw: line.get(at..end)?, blocks, plain });
        Some(end)
    })?;
    Some((end, content))
}

/// The array of content blocks at `start`: its end and its blocks.
fn blocks(line: &str, start: usize) -> Option<(usize, Vec<Option<BlockFields<'_>>>)> {
    let mut blocks = Vec::new();
    let end = array(line, start, |at| {
        let mut block: BlockFields = [None; 5];
        let read = object(line, at, |name, v| {
            let end = value_end(line, v)?;
            if let Some(slot) = place(&BLOCK_KEYS, name).and_then(|p| block.get_mut(p)) {
                *slot = line.get(v..end);
            }
            Some(end)
        });
        blocks.push(read.map(|_| block));
        read.or_else(|| value_end(line, at))
    })?;
    Some((end, blocks))
}

/// Content blocks as one text: `(text, tool work alone, a recall call or
/// answer)`. Without `Detail::Full` the tools' texts are left unread, and the
/// assistant's unless `words` (the person's are read: the sessions view shows
/// requests); a text of "…" says there was some.
fn blocks_text(blocks: &[Option<BlockFields>], detail: Detail, words: bool) -> (Cow<'static, str>, bool, bool) {
    let mut parts = Vec::new();
    let (mut tool, mut said, mut recall, mut any) = (false, false, false, false);
    for &[kind, t, name, input, content] in blocks.iter().flatten() {
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
    let out = parts.join("\n");
    let out = if detail != Detail::Full && any && out.trim().is_empty() { Cow::Borrowed("…") } else { Cow::Owned(out) };
    (out, tool && !said, recall)
}

pub fn read(line: &str, detail: Detail) -> Line<'_> {
    let Some(([kind, subtype, ts, sidechain, meta, compact_summary, summary, _], content)) = read_row(line) else {
        return Line::Malformed;
    };
    let ts = ts.and_then(text).unwrap_or_default();
    let kind = kind.and_then(text).unwrap_or_default();
    match kind.as_ref() {
        "summary" => Line::Title(summary.map(decode).unwrap_or_default()),
        "system" if subtype.and_then(text).as_deref() == Some("compact_boundary") => Line::Compaction { ts: ts.into_owned(), summary: None },
        "user" | "assistant" if !is_true(sidechain) && !is_true(meta) => {
            let user = kind == "user";
            let (said, tool, from_recall) = match content {
                None => (Cow::Borrowed(""), false, false),
                // The person's words are read whole even in a glance.
                Some(Content { blocks: Some(blocks), .. }) => blocks_text(&blocks, detail, user),
                Some(Content { raw, blocks: None, plain: true }) => (Cow::Borrowed(unquoted(raw).unwrap_or_default()), false, false),
                Some(Content { raw, blocks: None, plain: false }) => (text(raw).unwrap_or_default(), false, false),
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

    fn said(line: &str) -> Utterance<'_> {
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
        assert_eq!((u.speaker, &*u.text, &*u.ts), (Speaker::User, "the \"tokenizer\" drops", "t2"));
        let a = said(r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Looking."},{"type":"tool_use","name":"Bash","input":{"command":"cargo test"}}]}}"#);
        assert_eq!((a.speaker, &*a.text), (Speaker::Assistant, "Looking.\ntool Bash: {\"command\":\"cargo test\"}"));
        let t = said(r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"text","text":"error[E0308]"}]}]}}"#);
        assert_eq!((t.speaker, &*t.text), (Speaker::Tool, "error[E0308]"));
        let s = said(r#"{"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued."}}"#);
        assert_eq!(s.speaker, Speaker::Summary);
    }

    /// The row as it was read before the one pass: its members, then its
    /// message's, then the content's elements, each from a slice of the last.
    #[allow(clippy::type_complexity)]
    fn read_in_steps(line: &str) -> Option<(Members<'_>, Option<(&str, Option<Vec<Option<BlockFields<'_>>>>)>)> {
        let members = fields(line, ROW_KEYS)?;
        let content = members[7].and_then(|m| fields(m, ["content"])).and_then(|[c]| c);
        Some((members, content.map(|c| (c, items(c).map(|blocks| blocks.iter().map(|b| fields(b, BLOCK_KEYS)).collect())))))
    }

    /// Every line of the real transcripts, and rows malformed where the one
    /// pass reads deeper than a skip: read alike both ways.
    #[test]
    fn one_pass_reads_a_row_as_the_steps_did() {
        let mut lines: Vec<String> = [
            r#"{"type":"user","message":{"content":"plain"}}"#,
            r#"{"type":"user","message":{"content":"with \"escapes\""}}"#,
            r#"{"type":"user","message":{"content":"first"},"message":{"content":[{"type":"text","text":"second"}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"text","text":"a"}],"content":"last"}}"#,
            r#"{"type":"user","message":{"content":"first"},"message":{"content" "then none"}}"#,
            r#"{"type":"user","message":{"content" "no colon"},"timestamp":"t"}"#,
            r#"{"type":"user","message":{"content":[{"type":"text"},7,{"type" 1},[]]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"text","text":"a"} x]}}"#,
            r#"{"type":"user","message":{"content":[1,}]}}"#,
            r#"{"type":"user","message":["not", "an object"]}"#,
            r#"{"type":"user","message":"a string"}"#,
            r#"{"type":"user","m\u0065ssage":{"c\u006fntent":"escaped keys"}}"#,
            r#"{"type":"user","message":{"content":[{"type":"text","text":"open"}"#,
            r#"{"type":"user","message":{"content":7}}"#,
            "{not json",
            "",
        ]
        .map(str::to_owned)
        .to_vec();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-transcripts");
        for d in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
                lines.extend(std::fs::read_to_string(f.path()).unwrap_or_default().lines().map(str::to_owned));
            }
        }
        for line in &lines {
            let one = read_row(line).map(|(m, c)| (m, c.map(|c| (c.raw, c.blocks, c.plain))));
            let steps = read_in_steps(line);
            assert_eq!(one.as_ref().map(|(m, _)| m), steps.as_ref().map(|(m, _)| m), "{line}");
            let one = one.and_then(|(_, c)| c);
            let steps = steps.and_then(|(_, c)| c);
            assert_eq!(one.as_ref().map(|(raw, blocks, _)| (*raw, blocks)), steps.as_ref().map(|(raw, blocks)| (*raw, blocks)), "{line}");
            if let Some((raw, _, plain)) = one {
                assert_eq!(plain, raw.starts_with('"') && text(raw).is_some_and(|t| matches!(t, Cow::Borrowed(_))), "{line}");
            }
        }
        assert!(lines.len() > 5000 || !root.exists(), "{}", lines.len());
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
        assert_eq!((s.speaker, &*s.text), (Speaker::Assistant, "…"));
        let row = r#"{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"only this"}]}}"#;
        let Line::Utterance(s) = read(row, Detail::Requests) else { panic!() };
        assert!(s.text.is_empty(), "no text: not a message");
        let row = r#"{"type":"user","message":{"content":[{"type":"text","text":"the request"},{"type":"image"}]}}"#;
        let Line::Utterance(s) = read(row, Detail::Requests) else { panic!() };
        assert_eq!(s.text, "the request", "the person's words are read whole");
    }
}
