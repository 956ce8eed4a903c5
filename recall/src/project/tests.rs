//! The project readers on records as the real tools write them, fed the way
//! the machine feeds them: one read at a time, by the walk's byte ranges.

use super::message::ReadMore;
use super::search::ProjectSearch;
use super::sessions::SessionsView;
use super::reader::Reader;
use crate::lines::Joiner;
use crate::terms::Terms;
use crate::walk::plan::{spans, MAX_FILE_BYTES};
use crate::walk::{Recorder, SessionFile, Span};
use compact_plus::recall_tool::{Query, Role};

const CWD: &str = "/w/app";

fn file(format: Recorder, session: &str, mtime: f64, text: &str) -> (SessionFile, String) {
    let size = text.len() as u64;
    let f = SessionFile { format, session: session.into(), path: format!("/p/{session}"), mtime_ms: mtime, size, spans: spans(size, MAX_FILE_BYTES) };
    (f, text.to_owned())
}

/// Every file read by its spans, each span cut in reads of `read` bytes at most.
fn feed_in(reader: &mut impl Reader, files: &[(SessionFile, String)], read: u64) {
    for (f, text) in files {
        if !reader.start(f) {
            continue;
        }
        let mut joiner = Joiner::new(f.size);
        let mut reads = Vec::new();
        for s in &f.spans {
            let mut at = s.offset;
            while at < s.end() {
                let length = read.min(s.end() - at);
                reads.push(Span { offset: at, length });
                at += length;
            }
        }
        for span in reads {
            let bytes = &text.as_bytes()[span.offset as usize..span.end() as usize];
            reader.lines(f, joiner.take(span, &String::from_utf8_lossy(bytes)));
        }
        reader.end(f, false);
    }
}

fn feed(reader: &mut impl Reader, files: &[(SessionFile, String)]) {
    feed_in(reader, files, 4 << 20);
}

fn q(text: &str) -> Query {
    Query { text: text.into(), regex: false, role: None, limit: 8 }
}

fn search(query: Query, files: &[(SessionFile, String)]) -> String {
    let mut s = ProjectSearch::new(Terms::new(&query).unwrap(), query, CWD);
    feed(&mut s, files);
    s.answer()
}

fn view(files: &[(SessionFile, String)]) -> String {
    let mut v = SessionsView::new(CWD);
    feed(&mut v, files);
    v.answer()
}

fn read_more(session: &str, message: usize, offset: usize, files: &[(SessionFile, String)]) -> String {
    let mut r = ReadMore::new(session, message, offset, CWD);
    feed(&mut r, files);
    r.answer()
}

/// Claude Code rows of every kind seen in ../shared/real-transcripts, one a line (numbered in the comments).
pub fn claude_rows() -> String {
    [
        r#"{"type":"summary","summary":"Fix the tokenizer","leafUuid":"x"}"#, // 1
        r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{}}"#,
        r#"{"type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>"},"timestamp":"2026-03-09T14:00:00.000Z"}"#,
        r#"{"type":"user","message":{"role":"user","content":"the tokenizer drops zebra-4417 tokens"},"timestamp":"2026-03-09T14:25:05.135Z","isSidechain":false}"#, // 4
        r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","name":"Bash","input":{"command":"cargo test tokenizer"}}]},"timestamp":"2026-03-09T14:26:00.000Z"}"#,
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"error[E0308]: mismatched types in lexer.rs"}]},"timestamp":"2026-03-09T14:26:30.000Z"}"#,
        r#"{"type":"progress","data":{"type":"agent_progress","message":{"content":"subagent zebra-4417 work"}}}"#,
        r#"{"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":"sidechain zebra-4417"}}"#,
        r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"meta zebra-4417"}}"#,
        r#"{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","timestamp":"2026-03-09T15:00:00.000Z"}"#, // 10
        r#"{"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued. We decided to keep the lexer."},"timestamp":"2026-03-09T15:00:01.000Z"}"#,
        r#"{"type":"user","message":{"role":"user","content":"now ship it with key sk-ant-api03-FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE-FAKEFAKEAA"},"timestamp":"2026-03-09T16:00:00.000Z"}"#,
        "{not json",
        "[1,2]",
    ]
    .join("\n")
}

fn codex_rows() -> String {
    [
        r#"{"timestamp":"2026-03-08T09:00:00.000Z","type":"session_meta","payload":{"id":"019a-codex","cwd":"/w/app","cli_version":"0.77.0"}}"#,
        r#"{"timestamp":"2026-03-08T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>zebra-4417</environment_context>"}]}}"#,
        r#"{"timestamp":"2026-03-08T09:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"which command fixed the build? zebra-4417"}}"#, // 3
        r#"{"timestamp":"2026-03-08T09:00:03.000Z","type":"response_item","payload":{"type":"reasoning","summary":[]}}"#,
        r#"{"timestamp":"2026-03-08T09:00:04.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"make\",\"clean-build\"]}"}}"#,
        r#"{"timestamp":"2026-03-08T09:00:05.000Z","type":"response_item","payload":{"type":"function_call_output","output":"build ok"}}"#,
        r#"{"timestamp":"2026-03-08T09:00:06.000Z","type":"event_msg","payload":{"type":"agent_message","message":"dup"}}"#,
        r#"{"timestamp":"2026-03-08T09:00:06.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"make clean-build fixed it"}]}}"#,
        r#"{"timestamp":"2026-03-08T09:10:00.000Z","type":"compacted","payload":{"message":"summary of the codex work","replacement_history":[]}}"#,
    ]
    .join("\n")
}

fn opencode_prompts() -> String {
    [
        r#"{"input":"opencode asked this about @src/lexer.rs","mode":"normal","parts":[{"type":"file","mime":"text/plain","filename":"src/lexer.rs","url":"file:///w/app/src/lexer.rs","source":{"type":"file","path":"src/lexer.rs","text":{"start":27,"end":40,"value":"@src/lexer.rs"}}}]}"#,
        r#"{"input":"a prompt of no folder: zebra-4417","mode":"normal","parts":[]}"#,
        r#"{"input":"another project's @x.rs zebra-4417","mode":"normal","parts":[{"type":"file","url":"file:///w/other/x.rs"}]}"#,
    ]
    .join("\n")
}

fn project() -> Vec<(SessionFile, String)> {
    vec![
        file(Recorder::ClaudeCode, "cc-1", 2.0, &claude_rows()),
        file(Recorder::Summary, "cc-1", 2.5, "We kept the lexer; next: ship."),
        file(Recorder::Codex, "019a-codex", 1.0, &codex_rows()),
        file(Recorder::OpenCodePrompts, "opencode-prompts", 0.5, &opencode_prompts()),
    ]
}

#[test]
fn the_sessions_view_lists_them_newest_first() {
    let out = view(&project());
    assert!(out.starts_with("recall: 3 earlier sessions of this project, newest first. Skipped: 2 malformed lines, 7 rows of other kinds"), "{out}");
    let cc = out.find("1. claude-code · 2026-03-09 14:00Z → 2026-03-09 16:00Z · session cc-1 · 7 messages, 2 requests · 1 compaction · \"Fix the tokenizer\"").expect(&out);
    let codex = out.find("2. codex · 2026-03-08 09:00Z → 2026-03-08 09:10Z · session 019a-codex · 5 messages, 1 request · 1 compaction").expect(&out);
    let oc = out.find("3. opencode (prompts naming a file in this folder) ·").expect(&out);
    assert!(cc < codex && codex < oc);
    assert!(out.contains("1 message, 1 request"), "only the prompt naming this folder: {out}");
    assert!(out.contains("first request: \"the tokenizer drops zebra-4417 tokens\""));
    assert!(out.contains("last request: \"now ship it with key [REDACTED:"), "{out}");
    assert!(!out.contains("FAKEFAKE") && !out.contains("no folder"), "{out}");
}

#[test]
fn a_search_ranks_excerpts_with_their_source_and_reads_more() {
    let files = project();
    let out = search(q("zebra-4417 build"), &files);
    assert!(out.starts_with("recall: 6 hits in 5 messages of 2 earlier sessions (of 3 searched)"), "{out}");
    // The message holding both words first, then the newer session.
    let both = out.find("── codex · session 019a-codex · 2026-03-08 09:00Z · message 3 (user) · 2 hits").expect(&out);
    let cc = out.find("── claude-code · session cc-1 · 2026-03-09 14:25Z · message 4 (user) · 1 hit").expect(&out);
    assert!(both < cc);
    assert!(!out.contains("sidechain") && !out.contains("environment_context") && !out.contains("no folder"), "{out}");
    // Rows of other kinds are counted where they could hit.
    assert!(out.contains("Skipped: 4 rows of other kinds"), "{out}");
    // A secret is neither shown nor found.
    assert!(search(q("FAKEFAKEFAKE"), &files).starts_with("recall: no hits"));
    // The saved summary comes after its session's 14 lines.
    let saved = search(q("ship"), &files);
    assert!(saved.contains("── compact-plus · session cc-1 · 1970-01-01 00:00Z · message 15 (summary)"), "{saved}");
    assert!(saved.contains("message 12 (user)"), "{saved}");
    // Read more: the message in full, from an offset, and the ones after it.
    let more = read_more("cc", 11, 0, &files);
    assert!(more.starts_with("recall: claude-code · session cc-1 · from message 11"), "{more}");
    assert!(more.contains("── message 11 (summary)") && more.contains("We decided to keep the lexer.") && more.contains("── message 12 (user)"), "{more}");
    assert!(more.contains("── message 15 (summary)") && more.contains("next: ship"), "{more}");
    assert!(more.contains("[REDACTED:") && !more.contains("FAKEFAKE"), "{more}");
    let on = read_more("cc-1", 11, 25, &files);
    assert!(on.contains("from character 25") && !on.contains("This session is being"), "{on}");
    // A number that is no message starts at the next one.
    assert!(read_more("cc-1", 7, 0, &files).contains("── message 11 (summary)"));
    let none = read_more("nope", 1, 0, &files);
    assert!(none.starts_with("recall: no earlier session"), "{none}");
    assert!(read_more("cc-1", 99, 0, &files).contains("has no message numbered 99"));
}

#[test]
fn a_role_keeps_to_whose_words_they_are() {
    let files = project();
    let user = search(Query { role: Some(Role::User), ..q("zebra-4417 build") }, &files);
    assert!(user.starts_with("recall: 3 hits in 2 messages"), "{user}");
    let tool = search(Query { role: Some(Role::Tool), ..q("build") }, &files);
    assert!(tool.starts_with("recall: 2 hits in 2 messages"), "{tool}");
}

#[test]
fn the_recall_tools_earlier_answer_is_never_the_top_hit_for_what_it_quoted() {
    let rows = [
        r#"{"type":"user","message":{"role":"user","content":"we chose the osprey parser"},"timestamp":"2026-03-09T10:00:00.000Z"}"#,
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"mcp__compact-plus__recall","input":{"query":"osprey parser"}}]},"timestamp":"2026-03-09T11:00:00.000Z"}"#,
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"recall: 2 hits in 1 message\n> we chose the osprey parser osprey parser"}]},"timestamp":"2026-03-09T11:00:01.000Z"}"#,
    ]
    .join("\n");
    let out = search(q("osprey parser"), &[file(Recorder::ClaudeCode, "cc-2", 3.0, &rows)]);
    let heads: Vec<&str> = out.lines().filter(|l| l.starts_with("── ")).collect();
    assert_eq!(heads.len(), 3, "{out}");
    assert!(heads[0].contains("message 1 (user)"), "the person's own words first, though the answer holds more hits: {out}");
    assert!(out.contains("a hit in the recall tool's own earlier calls last"), "{out}");
}

#[test]
fn any_reads_give_the_answer_one_read_gives() {
    let files = project();
    let whole = (search(q("zebra-4417 build"), &files), view(&files), read_more("cc-1", 4, 3, &files));
    for read in [1, 7, 64, 333] {
        let mut s = ProjectSearch::new(Terms::new(&q("zebra-4417 build")).unwrap(), q("zebra-4417 build"), CWD);
        feed_in(&mut s, &files, read);
        let mut v = SessionsView::new(CWD);
        feed_in(&mut v, &files, read);
        let mut r = ReadMore::new("cc-1", 4, 3, CWD);
        feed_in(&mut r, &files, read);
        assert_eq!((s.answer(), v.answer(), r.answer()), whole.clone(), "reads of {read} bytes");
    }
}

#[test]
fn huge_lines_are_skipped_not_fatal() {
    let huge = format!("{{\"type\":\"user\",\"message\":{{\"content\":\"quokka {}\"}}}}", "y".repeat(crate::lines::MAX_LINE_BYTES + 10));
    let text = format!("{}\n{huge}\n{}\n", claude_rows(), r#"{"type":"user","message":{"content":"after the huge line: quokka"}}"#);
    let out = search(q("quokka"), &[file(Recorder::ClaudeCode, "cc-1", 1.0, &text)]);
    assert!(out.contains("message 16 (user)") && out.contains("1 line over 2 MiB"), "{out}");
    assert!(view(&[file(Recorder::ClaudeCode, "cc-1", 1.0, &text)]).contains("1 line over 2 MiB"));
}

/// A file over 8 MiB, read as the walk's ranges give it (its first 4 MiB and
/// its newest end): the rows cut at the edges are dropped, the others read,
/// the newest row found.
#[test]
fn a_long_file_read_at_both_ends() {
    let row = |k: usize| format!("{{\"type\":\"user\",\"message\":{{\"content\":\"row {k} {}\"}},\"timestamp\":\"2026-03-09T14:00:00.000Z\"}}\n", "p".repeat(200));
    let mut text = String::new();
    let mut k = 0;
    while text.len() < 10 << 20 {
        text.push_str(&row(k));
        k += 1;
    }
    text.push_str(r#"{"type":"user","message":{"content":"the newest row: quokka"}}"#);
    let files = [file(Recorder::ClaudeCode, "big", 1.0, &text)];
    assert_eq!(files[0].0.spans.len(), 2);
    let out = search(q("quokka"), &files);
    assert!(out.contains("the newest row: quokka"), "{out}");
    assert!(!out.contains("malformed"), "rows cut at a range's edge are not malformed: {out}");
    let n: usize = out.split("· message ").nth(1).and_then(|s| s.split(' ').next()).and_then(|s| s.parse().ok()).expect(&out);
    assert!(n < k, "the middle was not read: message {n} of {k} rows");
    assert!(read_more("big", n, 0, &files).contains("the newest row: quokka"));
}

#[test]
fn an_unreadable_file_is_counted() {
    let mut s = ProjectSearch::new(Terms::new(&q("zebra-4417")).unwrap(), q("zebra-4417"), CWD);
    let (f, _) = file(Recorder::ClaudeCode, "cc-1", 2.0, &claude_rows());
    assert!(s.start(&f));
    s.end(&f, true);
    assert!(s.answer().contains("1 file that could not be read"));
}

/// The real sessions in ../shared/real-transcripts (read at test time, never
/// copied here): every one reads without a panic, in reads of any size, finds
/// messages, and counts what it skips.
#[test]
fn real_transcripts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-transcripts");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        eprintln!("real_transcripts: skipped, {} is absent", root.display());
        return;
    };
    let mut paths: Vec<std::path::PathBuf> = Vec::new();
    for d in dirs.flatten() {
        for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
            if f.path().extension().is_some_and(|e| e == "jsonl") {
                paths.push(f.path());
            }
        }
    }
    assert!(paths.len() >= 10, "{paths:?}");
    let (mut compactions, mut with_request) = (0, 0);
    for path in &paths {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let format = if name.contains("codex") || name.starts_with("rollout-") { Recorder::Codex } else { Recorder::ClaudeCode };
        let files = [file(format, &name, 1.0, &text)];
        let v = view(&files);
        assert!(v.encode_utf16().count() <= crate::text::MAX_ANSWER && v.starts_with("recall: 1 earlier session"), "{name}: {v}");
        let count = |word: &str| -> usize {
            v.split(" · ").find(|p| p.ends_with(word) || p.contains(&format!(" {word}"))).and_then(|p| p.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0)
        };
        assert!(count("messages,") > 0 || v.contains(" message,"), "{name}: no messages: {v}");
        compactions += count("compactions").max(count("compaction"));
        with_request += usize::from(v.contains("first request:"));
        let found = search(q("error"), &files);
        assert!(found.encode_utf16().count() <= crate::text::MAX_ANSWER && found.starts_with("recall: "), "{name}: {found}");
        // Reads of an odd size give the same answer.
        let mut s = ProjectSearch::new(Terms::new(&q("error")).unwrap(), q("error"), CWD);
        feed_in(&mut s, &files, 100_003);
        assert_eq!(s.answer(), found, "{name}");
    }
    // SOURCES.md: 6 Claude Code sessions hold 7 compactions between them, 2 Codex rollouts hold 4.
    assert!(compactions >= 10, "{compactions}");
    // `/init` sessions open with a command echo, not a request.
    assert!(with_request + 3 >= paths.len(), "{with_request} of {}", paths.len());
}


