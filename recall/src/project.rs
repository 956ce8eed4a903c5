//! Recall across this project's earlier sessions: Claude Code transcripts,
//! Codex rollouts, OpenCode's prompt history and the summaries compact-plus
//! saved. The core picks the files and the byte ranges to read (newest
//! sessions first, bounded); the shim reads them; this reads the rows and
//! answers: the sessions view, a search, or one message in full.
//!
//! Every raw line is redacted before it is parsed (seed 000), so nothing the
//! model reads, counts included, comes from a credential. A line whose
//! redaction broke its JSON is parsed raw and its texts redacted instead.
//! Malformed lines and rows of kinds not read are skipped and counted.
//!
//! Nothing is kept between calls: the shim drops the module's instance after
//! each one.

use compact_plus::redact::redact;
use serde_json::Value;

use crate::search::{clip, cut_chars, plural, quote, Budget, Matcher, Query, MAX_ANSWER, MAX_LIMIT};

/// A line longer than this is skipped (counted): a pasted image or a dump,
/// whose redaction and parsing would cost the time every other file needs.
pub const MAX_LINE_BYTES: usize = 2 << 20;
/// What one message keeps of its text; `offset` reads within it.
pub const MESSAGE_CHARS: usize = 32 * 1024;
const TOOL_INPUT_CHARS: usize = 2000;
const REQUEST_CHARS: usize = 160;
const CONTEXT_LINES: usize = 2;

/// One file the core chose, as it describes it.
#[derive(Debug, Clone, Default)]
pub struct Source {
    /// `claude`, `codex`, `opencode-prompts` or `summary`.
    pub kind: String,
    pub session: String,
    pub path: String,
    pub mtime_ms: f64,
    /// The byte ranges read, `(offset, length)`, in file order, and the file's size.
    pub reads: Vec<(u64, u64)>,
    pub size: u64,
}

/// What the call asks for beyond the search itself.
#[derive(Debug, Clone, Default)]
pub struct Ask {
    pub query: Option<Query>,
    /// Read more: this session (an id or its start) and message, from `offset` chars.
    pub session: Option<String>,
    pub message: Option<usize>,
    pub offset: usize,
    /// Sentences the core adds (what its caps left out).
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Msg {
    pub n: usize,
    /// `user`, `assistant`, `tool` or `summary`.
    pub role: String,
    pub ts: String,
    pub text: String,
}

#[derive(Debug, Default)]
pub struct Session {
    pub tool: &'static str,
    pub id: String,
    pub mtime_ms: f64,
    pub first_ts: String,
    pub last_ts: String,
    pub title: Option<String>,
    pub compactions: usize,
    pub messages: Vec<Msg>,
    /// The person's requests (not tool results, not the engine's own rows).
    pub requests: usize,
    pub first_request: Option<String>,
    pub last_request: Option<String>,
    pub gap: bool,
}

/// Lines skipped, by why.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Skipped {
    pub malformed: usize,
    pub huge: usize,
    /// Rows of kinds not read: progress, sidechain, reasoning, snapshots, meta, events.
    pub other: usize,
    pub unreadable_files: usize,
}

impl Session {
    fn new(tool: &'static str, source: &Source) -> Session {
        Session { tool, id: source.session.clone(), mtime_ms: source.mtime_ms, ..Session::default() }
    }

    fn stamp(&mut self, ts: &str) {
        if ts.is_empty() {
            return;
        }
        if self.first_ts.is_empty() {
            self.first_ts = ts.to_owned();
        }
        self.last_ts = ts.to_owned();
    }

    fn push(&mut self, role: &str, ts: &str, text: String) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        self.stamp(ts);
        let n = self.messages.len() + 1;
        let text = cut_chars(text, MESSAGE_CHARS);
        if role == "user" && is_request(&text) {
            self.requests += 1;
            let one_line = cut_chars(&text.split_whitespace().collect::<Vec<_>>().join(" "), REQUEST_CHARS);
            if self.first_request.is_none() {
                self.first_request = Some(one_line.clone());
            }
            self.last_request = Some(one_line);
        }
        self.messages.push(Msg { n, role: role.to_owned(), ts: ts.to_owned(), text });
    }
}

/// The engine's own rows written as the user's: command echoes, caveats, reminders.
fn is_request(text: &str) -> bool {
    let t = text.trim_start();
    !(t.starts_with("<command-") || t.starts_with("<local-command") || t.starts_with("<system-reminder>") || t.starts_with("Caveat:"))
}

/// The lines of one source's text pieces (one per range read), with the lines a
/// range edge cut dropped: a range not starting at 0 loses its first line, one
/// not ending the file its last, unless the next range goes on from it.
fn lines_of<'a>(source: &Source, texts: &'a [String]) -> (Vec<&'a str>, bool) {
    let mut out = Vec::new();
    let mut gap = false;
    for (k, text) in texts.iter().enumerate() {
        let (offset, length) = source.reads.get(k).copied().unwrap_or((0, text.len() as u64));
        let starts_cut = offset > 0 && k == 0 || k > 0 && source.reads.get(k - 1).is_some_and(|(o, l)| o + l < offset);
        let next = source.reads.get(k + 1);
        let ends_cut = offset + length < source.size && next.is_none_or(|(o, _)| *o > offset + length);
        gap |= starts_cut && k > 0;
        let mut pieces: Vec<&str> = text.split('\n').collect();
        if starts_cut && !pieces.is_empty() {
            pieces.remove(0);
        }
        if ends_cut {
            pieces.pop();
        }
        out.extend(pieces);
    }
    (out, gap)
}

/// A piece read on from the one before holds the rest of its last line; the
/// core's ranges are whole chunks, so join contiguous ones first.
fn joined(source: &Source, texts: Vec<String>) -> (Source, Vec<String>) {
    let mut reads = Vec::new();
    let mut out: Vec<String> = Vec::new();
    for (k, text) in texts.into_iter().enumerate() {
        let (o, l) = source.reads.get(k).copied().unwrap_or((0, text.len() as u64));
        match (reads.last_mut(), out.last_mut()) {
            (Some((po, pl)), Some(prev)) if *po + *pl == o => {
                *pl += l;
                prev.push_str(&text);
            }
            _ => {
                reads.push((o, l));
                out.push(text);
            }
        }
    }
    (Source { reads, ..source.clone() }, out)
}

/// One raw line, redacted, as JSON; a line the redaction broke is parsed raw
/// and `true` says its texts must be redacted one by one.
fn parse_line(line: &str, skipped: &mut Skipped) -> Option<(Value, bool)> {
    let line = line.trim_end_matches('\r');
    if line.trim().is_empty() {
        return None;
    }
    if line.len() > MAX_LINE_BYTES {
        skipped.huge += 1;
        return None;
    }
    let clean = redact(line);
    match serde_json::from_str::<Value>(&clean) {
        Ok(v) if v.is_object() => Some((v, false)),
        Ok(_) => {
            skipped.malformed += 1;
            None
        }
        Err(_) => match serde_json::from_str::<Value>(line) {
            Ok(v) if v.is_object() => Some((v, true)),
            _ => {
                skipped.malformed += 1;
                None
            }
        },
    }
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn clean(text: String, again: bool) -> String {
    if again {
        redact(&text).into_owned()
    } else {
        text
    }
}

/// A Claude Code content value: a string, or blocks (text, tool_use,
/// tool_result); `(text, is tool work)`.
fn claude_content(content: &Value) -> (String, bool) {
    match content {
        Value::String(t) => (t.clone(), false),
        Value::Array(blocks) => {
            let mut parts = Vec::new();
            let mut tool = false;
            let mut said = false;
            for b in blocks {
                match s(b, "type") {
                    "text" => {
                        said = true;
                        parts.push(s(b, "text").to_owned());
                    }
                    "tool_use" => {
                        tool = true;
                        let input = b.get("input").map(Value::to_string).unwrap_or_default();
                        parts.push(format!("tool {}: {}", s(b, "name"), cut_chars(&input, TOOL_INPUT_CHARS)));
                    }
                    "tool_result" => {
                        tool = true;
                        parts.push(claude_content(b.get("content").unwrap_or(&Value::Null)).0);
                    }
                    _ => {}
                }
            }
            (parts.join("\n"), tool && !said)
        }
        _ => (String::new(), false),
    }
}

/// A Claude Code transcript: user and assistant rows of the main conversation;
/// compact boundaries counted, their summaries kept as `summary`, old
/// `summary` rows as the title; subagent rows (`progress`, `isSidechain`),
/// meta rows and snapshots skipped and counted.
pub fn read_claude(source: &Source, lines: &[&str], skipped: &mut Skipped) -> Session {
    let mut session = Session::new("claude-code", source);
    for line in lines {
        let Some((row, again)) = parse_line(line, skipped) else { continue };
        let ts = s(&row, "timestamp");
        match s(&row, "type") {
            "summary" => session.title = Some(clean(s(&row, "summary").to_owned(), again)),
            "system" if s(&row, "subtype") == "compact_boundary" => {
                session.compactions += 1;
                session.stamp(ts);
            }
            "user" | "assistant" if row.get("isSidechain") != Some(&Value::Bool(true)) && row.get("isMeta") != Some(&Value::Bool(true)) => {
                let (text, tool) = claude_content(row.get("message").and_then(|m| m.get("content")).unwrap_or(&Value::Null));
                let role = if row.get("isCompactSummary") == Some(&Value::Bool(true)) {
                    "summary"
                } else if tool {
                    "tool"
                } else {
                    s(&row, "type")
                };
                session.push(role, ts, clean(text, again));
            }
            _ => skipped.other += 1,
        }
    }
    session
}

/// A Codex rollout: the person's words from `event_msg` `user_message` (the
/// `response_item` user messages repeat them beside injected context), the
/// assistant's messages, tool calls and their output; `compacted` rows counted.
pub fn read_codex(source: &Source, lines: &[&str], skipped: &mut Skipped) -> Session {
    let mut session = Session::new("codex", source);
    for line in lines {
        let Some((row, again)) = parse_line(line, skipped) else { continue };
        let ts = s(&row, "timestamp");
        let p = row.get("payload").unwrap_or(&Value::Null);
        match (s(&row, "type"), s(p, "type")) {
            ("session_meta", _) => {
                if let Some(id) = p.get("id").and_then(Value::as_str) {
                    session.id = id.to_owned();
                }
                session.stamp(ts);
            }
            ("compacted", _) => {
                session.compactions += 1;
                session.push("summary", ts, clean(s(p, "message").to_owned(), again));
            }
            ("event_msg", "user_message") => session.push("user", ts, clean(s(p, "message").to_owned(), again)),
            ("response_item", "message") if s(p, "role") == "assistant" => {
                let text: Vec<&str> = p
                    .get("content")
                    .and_then(Value::as_array)
                    .map(|c| c.iter().map(|b| s(b, "text")).collect())
                    .unwrap_or_default();
                session.push("assistant", ts, clean(text.join("\n"), again));
            }
            ("response_item", "function_call" | "custom_tool_call") => {
                let input = if p.get("arguments").is_some() { s(p, "arguments") } else { s(p, "input") };
                let text = format!("tool {}: {}", s(p, "name"), cut_chars(input, TOOL_INPUT_CHARS));
                session.push("tool", ts, clean(text, again));
            }
            ("response_item", "function_call_output" | "custom_tool_call_output") => {
                let out = match p.get("output") {
                    Some(Value::String(o)) => o.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                session.push("tool", ts, clean(out, again));
            }
            _ => skipped.other += 1,
        }
    }
    session
}

/// OpenCode's prompt history: `{"input": ...}` per line, the person's alone,
/// for every project (it names none).
pub fn read_opencode_prompts(source: &Source, lines: &[&str], skipped: &mut Skipped) -> Session {
    let mut session = Session::new("opencode", source);
    session.id = "opencode-prompts".into();
    for line in lines {
        let Some((row, again)) = parse_line(line, skipped) else { continue };
        match row.get("input").and_then(Value::as_str) {
            Some(t) => session.push("user", "", clean(t.to_owned(), again)),
            None => skipped.other += 1,
        }
    }
    session
}

/// Reads every source into sessions, newest first; a saved summary joins its
/// session's messages.
pub fn read_all(sources: &[Source], texts: Vec<Vec<String>>, missing: &[bool]) -> (Vec<Session>, Skipped) {
    let mut skipped = Skipped::default();
    let mut sessions: Vec<Session> = Vec::new();
    let mut summaries: Vec<(String, f64, String)> = Vec::new();
    for (k, (source, pieces)) in sources.iter().zip(texts).enumerate() {
        if missing.get(k).copied().unwrap_or(false) {
            skipped.unreadable_files += 1;
            continue;
        }
        let (source, pieces) = joined(source, pieces);
        let (lines, gap) = lines_of(&source, &pieces);
        let mut session = match source.kind.as_str() {
            "claude" => read_claude(&source, &lines, &mut skipped),
            "codex" => read_codex(&source, &lines, &mut skipped),
            "opencode-prompts" => read_opencode_prompts(&source, &lines, &mut skipped),
            "summary" => {
                summaries.push((source.session.clone(), source.mtime_ms, redact(&pieces.concat()).into_owned()));
                continue;
            }
            _ => continue,
        };
        session.gap = gap;
        sessions.push(session);
    }
    for (id, mtime, text) in summaries {
        let ts = iso_of_ms(mtime);
        match sessions.iter_mut().find(|s| s.id == id) {
            // A saved summary's date is its file's, not the session's.
            Some(s) => {
                let (first, last) = (s.first_ts.clone(), s.last_ts.clone());
                s.push("summary", &ts, text);
                if !first.is_empty() {
                    (s.first_ts, s.last_ts) = (first, last);
                }
            }
            None => {
                let mut s = Session { tool: "compact-plus", id, mtime_ms: mtime, ..Session::default() };
                s.push("summary", &ts, text);
                sessions.push(s);
            }
        }
    }
    sessions.sort_by(|a, b| b.mtime_ms.total_cmp(&a.mtime_ms));
    (sessions, skipped)
}

// ---- the answers ----

/// The answer to one project call.
pub fn answer(ask: &Ask, sources: &[Source], texts: Vec<Vec<String>>, missing: &[bool]) -> String {
    let (sessions, skipped) = read_all(sources, texts, missing);
    let mut out = match (&ask.query, ask.message) {
        (_, Some(n)) => read_more(&sessions, ask.session.as_deref().unwrap_or(""), n, ask.offset),
        (Some(q), None) => search(&sessions, q, &skipped),
        (None, None) => sessions_view(&sessions, &skipped),
    };
    for note in &ask.notes {
        if out.encode_utf16().count() + note.len() + 2 < MAX_ANSWER {
            out.push('\n');
            out.push_str(note);
        }
    }
    out
}

fn skipped_line(skipped: &Skipped) -> String {
    let mut parts = Vec::new();
    if skipped.malformed > 0 {
        parts.push(format!("{} malformed line{}", skipped.malformed, plural(skipped.malformed)));
    }
    if skipped.huge > 0 {
        parts.push(format!("{} line{} over {} MiB", skipped.huge, plural(skipped.huge), MAX_LINE_BYTES >> 20));
    }
    if skipped.other > 0 {
        parts.push(format!("{} row{} of other kinds (subagents, reasoning, snapshots, events)", skipped.other, plural(skipped.other)));
    }
    if skipped.unreadable_files > 0 {
        parts.push(format!("{} file{} that could not be read", skipped.unreadable_files, plural(skipped.unreadable_files)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" Skipped: {}.", parts.join(", "))
    }
}

/// The project's earlier sessions, newest first.
pub fn sessions_view(sessions: &[Session], skipped: &Skipped) -> String {
    if sessions.is_empty() {
        return "recall: no earlier sessions of this project were found (Claude Code transcripts of this folder, Codex rollouts started here, OpenCode prompt history).".into();
    }
    let mut out = Budget::default();
    out.push(&format!(
        "recall: {} earlier session{} of this project, newest first.{}\nSearch them with a query and scope \"project\"; narrow to one with session: \"<id>\".\n",
        sessions.len(),
        plural(sessions.len()),
        skipped_line(skipped)
    ));
    for (k, s) in sessions.iter().enumerate() {
        let when = if s.first_ts.is_empty() { date_of_ms(s.mtime_ms) } else { date_of(&s.first_ts) };
        let until = if s.last_ts.is_empty() || date_of(&s.last_ts) == when { String::new() } else { format!(" → {}", date_of(&s.last_ts)) };
        let title = s.title.as_ref().map_or(String::new(), |t| format!(" · {}", quote(&cut_chars(t, 80))));
        let mut entry = format!(
            "\n{}. {} · {when}{until} · session {} · {} message{}, {} request{} · {} compaction{}{title}\n",
            k + 1,
            s.tool,
            s.id,
            s.messages.len(),
            plural(s.messages.len()),
            s.requests,
            plural(s.requests),
            s.compactions,
            plural(s.compactions),
        );
        if let Some(f) = &s.first_request {
            entry.push_str(&format!("   first request: {}\n", quote(f)));
        }
        if let (Some(l), true) = (&s.last_request, s.requests > 1) {
            entry.push_str(&format!("   last request: {}\n", quote(l)));
        }
        if !out.fits(&entry, 120) {
            out.push(&format!("\n{} more session{} not listed (the answer stops at {MAX_ANSWER} characters).", sessions.len() - k, plural(sessions.len() - k)));
            break;
        }
        out.push(&entry);
    }
    out.finish()
}

struct Found<'a> {
    session: &'a Session,
    order: usize,
    msg: &'a Msg,
    hits: usize,
    terms: u32,
    lines: usize,
    best: usize,
}

/// Ranked excerpts: more of the query's terms first, then more hits, then the
/// newer session and the later message.
pub fn search(sessions: &[Session], q: &Query, skipped: &Skipped) -> String {
    let matcher = match Matcher::new(q) {
        Ok(m) => m,
        Err(e) => return e,
    };
    let mut found: Vec<Found> = Vec::new();
    let mut total = 0;
    for (order, session) in sessions.iter().enumerate() {
        for msg in &session.messages {
            if let Some(role) = &q.role {
                let here = if msg.role == "summary" { "assistant" } else { msg.role.as_str() };
                if here != role {
                    continue;
                }
            }
            if let Some((hits, terms, lines, best)) = matcher.scan_text(&msg.text) {
                total += hits;
                found.push(Found { session, order, msg, hits, terms, lines, best });
            }
        }
    }
    let role = q.role.as_ref().map_or(String::new(), |r| format!(", role {r}"));
    if found.is_empty() {
        return format!(
            "recall: no hits for {}{role} in {} earlier session{} of this project.{} Try other or fewer words, or call without a query to list the sessions.",
            matcher.describe(),
            sessions.len(),
            plural(sessions.len()),
            skipped_line(skipped)
        );
    }
    found.sort_by(|a, b| {
        b.terms
            .count_ones()
            .cmp(&a.terms.count_ones())
            .then(b.hits.cmp(&a.hits))
            .then(a.order.cmp(&b.order))
            .then(b.msg.n.cmp(&a.msg.n))
    });
    let mut in_sessions: Vec<usize> = found.iter().map(|f| f.order).collect();
    in_sessions.sort_unstable();
    in_sessions.dedup();
    let mut out = Budget::default();
    out.push(&format!(
        "recall: {total} hit{} in {} message{} of {} earlier session{} (of {} searched) for {}{role}. More terms rank first, then more hits, then newer.{}\nRead a message in full: recall with scope \"project\", its session and message (and offset to go on).\n",
        plural(total),
        found.len(),
        plural(found.len()),
        in_sessions.len(),
        plural(in_sessions.len()),
        sessions.len(),
        matcher.describe(),
        skipped_line(skipped)
    ));
    let limit = q.limit.clamp(1, MAX_LIMIT);
    let mut shown = 0;
    for f in found.iter().take(limit) {
        let text = excerpt(f, &matcher);
        if !out.fits(&text, 200) {
            break;
        }
        out.push(&text);
        shown += 1;
    }
    let rest = found.len() - shown;
    if rest > 0 {
        out.push(&format!("\n{rest} more message{} with hits not shown; narrow the query (more words, a role, a session) or raise limit.", plural(rest)));
    }
    out.finish()
}

fn excerpt(f: &Found, m: &Matcher) -> String {
    let when = if f.msg.ts.is_empty() { date_of_ms(f.session.mtime_ms) } else { date_of(&f.msg.ts) };
    let mut out = format!(
        "\n── {} · session {} · {when} · message {} ({}) · {} hit{}\n",
        f.session.tool,
        f.session.id,
        f.msg.n,
        f.msg.role,
        f.hits,
        plural(f.hits)
    );
    let lines: Vec<&str> = f.msg.text.split('\n').collect();
    let from = f.best.saturating_sub(CONTEXT_LINES);
    let to = (f.best + CONTEXT_LINES + 1).min(lines.len());
    for line in lines.get(from..to).unwrap_or(&[]) {
        let hit = m.first_hit(line);
        let mark = if hit.is_some() { '>' } else { ' ' };
        if line.trim().is_empty() && hit.is_none() {
            continue;
        }
        out.push_str(&format!("{mark} {}\n", clip(line, hit)));
    }
    if f.lines > 1 {
        out.push_str(&format!("  ({} lines of this message hit)\n", f.lines));
    }
    out
}

/// One message in full from `offset` chars, and the ones after it while they fit.
pub fn read_more(sessions: &[Session], id: &str, n: usize, offset: usize) -> String {
    let Some(session) = sessions.iter().find(|s| !id.is_empty() && s.id.starts_with(id)) else {
        return format!("recall: no earlier session of this project has an id starting {}; call without a query to list them.", quote(id));
    };
    let Some(first) = session.messages.iter().position(|m| m.n == n) else {
        return format!("recall: session {} has messages 1 to {}; there is no message {n}.", session.id, session.messages.len());
    };
    let mut out = Budget::default();
    out.push(&format!("recall: {} · session {} · {} messages\n", session.tool, session.id, session.messages.len()));
    for (k, msg) in session.messages.iter().enumerate().skip(first) {
        let skip = if k == first { offset } else { 0 };
        let when = if msg.ts.is_empty() { String::new() } else { format!(" · {}", date_of(&msg.ts)) };
        let head = format!("\n── message {} ({}){when}{}\n", msg.n, msg.role, if skip > 0 { format!(" · from character {skip}") } else { String::new() });
        let body: String = msg.text.chars().skip(skip).collect();
        let room = MAX_ANSWER.saturating_sub(out_units(&out) + head.encode_utf16().count() + 200);
        if body.encode_utf16().count() <= room {
            out.push(&head);
            out.push(&body);
            out.push("\n");
            continue;
        }
        if k == first || room > 1000 {
            let part = take_units(&body, room);
            let took = part.chars().count();
            out.push(&head);
            out.push(&part);
            out.push(&format!("\n… (cut: go on with message {}, offset {})", msg.n, skip + took));
        } else {
            out.push(&format!("\n(go on with message {})", msg.n));
        }
        break;
    }
    out.finish()
}

fn out_units(b: &Budget) -> usize {
    b.units()
}

fn take_units(s: &str, max: usize) -> String {
    let mut units = 0;
    let mut out = String::new();
    for c in s.chars() {
        if units + c.len_utf16() > max {
            break;
        }
        units += c.len_utf16();
        out.push(c);
    }
    out
}

/// `2026-03-09T14:25:05.135Z` as `2026-03-09 14:25Z`; another shape as it is (cut).
fn date_of(ts: &str) -> String {
    match (ts.get(..10), ts.get(11..16)) {
        (Some(d), Some(t)) if ts.as_bytes().get(10) == Some(&b'T') => format!("{d} {t}Z"),
        _ => cut_chars(ts, 24),
    }
}

fn date_of_ms(ms: f64) -> String {
    date_of(&iso_of_ms(ms))
}

/// Milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (civil from days).
pub fn iso_of_ms(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return String::new();
    }
    let secs = (ms / 1000.0).floor() as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

// ---- the request, as the core writes it ----

/// Reads the core's request (`{query, session, message, offset, notes, sources}`).
pub fn parse_request(json: &str) -> Result<(Ask, Vec<Source>), String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("recall: the request did not parse: {e}"))?;
    let query = match v.get("query") {
        Some(q) if q.is_object() && !s(q, "text").is_empty() => Some(Query {
            text: s(q, "text").to_owned(),
            regex: q.get("regex").and_then(Value::as_bool).unwrap_or(false),
            role: q.get("role").and_then(Value::as_str).map(str::to_owned),
            limit: q.get("limit").and_then(Value::as_u64).unwrap_or(8) as usize,
        }),
        _ => None,
    };
    let num = |k: &str| v.get(k).and_then(Value::as_u64).map(|n| n as usize);
    let ask = Ask {
        query,
        session: v.get("session").and_then(Value::as_str).map(str::to_owned),
        message: num("message"),
        offset: num("offset").unwrap_or(0),
        notes: v.get("notes").and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect()).unwrap_or_default(),
    };
    let sources = v
        .get("sources")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| Source {
                    kind: s(x, "kind").to_owned(),
                    session: s(x, "session").to_owned(),
                    path: s(x, "path").to_owned(),
                    mtime_ms: x.get("mtimeMs").and_then(Value::as_f64).unwrap_or(0.0),
                    size: x.get("size").and_then(Value::as_u64).unwrap_or(0),
                    reads: x
                        .get("reads")
                        .and_then(Value::as_array)
                        .map(|r| {
                            r.iter()
                                .map(|r| (r.get("offset").and_then(Value::as_u64).unwrap_or(0), r.get("length").and_then(Value::as_u64).unwrap_or(0)))
                                .collect()
                        })
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((ask, sources))
}

/// The texts as the shim hands them (every source's ranges in turn, flat) put
/// back per source.
pub fn group(sources: &[Source], flat: Vec<String>) -> Vec<Vec<String>> {
    let mut it = flat.into_iter();
    sources.iter().map(|s| (0..s.reads.len().max(1)).map_while(|_| it.next()).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(kind: &str, session: &str, text: &str, mtime: f64) -> (Source, Vec<String>) {
        let size = text.len() as u64;
        (Source { kind: kind.into(), session: session.into(), path: format!("/p/{session}"), mtime_ms: mtime, reads: vec![(0, size)], size }, vec![text.to_owned()])
    }

    fn q(text: &str) -> Query {
        Query { text: text.into(), regex: false, role: None, limit: 8 }
    }

    fn run(ask: &Ask, files: Vec<(Source, Vec<String>)>) -> String {
        let (sources, texts): (Vec<Source>, Vec<Vec<String>>) = files.into_iter().unzip();
        let missing = vec![false; sources.len()];
        answer(ask, &sources, texts, &missing)
    }

    /// Claude Code rows of every kind seen in ../shared/real-transcripts.
    fn claude_rows() -> String {
        [
            r#"{"type":"summary","summary":"Fix the tokenizer","leafUuid":"x"}"#,
            r#"{"type":"file-history-snapshot","messageId":"m","snapshot":{}}"#,
            r#"{"type":"user","message":{"role":"user","content":"<command-name>/clear</command-name>"},"timestamp":"2026-03-09T14:00:00.000Z"}"#,
            r#"{"type":"user","message":{"role":"user","content":"the tokenizer drops zebra-4417 tokens"},"timestamp":"2026-03-09T14:25:05.135Z","isSidechain":false}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","name":"Bash","input":{"command":"cargo test tokenizer"}}]},"timestamp":"2026-03-09T14:26:00.000Z"}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"error[E0308]: mismatched types in lexer.rs"}]},"timestamp":"2026-03-09T14:26:30.000Z"}"#,
            r#"{"type":"progress","data":{"type":"agent_progress","message":{"content":"subagent zebra-4417 work"}}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"role":"assistant","content":"sidechain zebra-4417"}}"#,
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"meta zebra-4417"}}"#,
            r#"{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","timestamp":"2026-03-09T15:00:00.000Z"}"#,
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
            r#"{"timestamp":"2026-03-08T09:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"which command fixed the build? zebra-4417"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:03.000Z","type":"response_item","payload":{"type":"reasoning","summary":[]}}"#,
            r#"{"timestamp":"2026-03-08T09:00:04.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"make\",\"clean-build\"]}"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:05.000Z","type":"response_item","payload":{"type":"function_call_output","output":"build ok"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:06.000Z","type":"event_msg","payload":{"type":"agent_message","message":"dup"}}"#,
            r#"{"timestamp":"2026-03-08T09:00:06.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"make clean-build fixed it"}]}}"#,
            r#"{"timestamp":"2026-03-08T09:10:00.000Z","type":"compacted","payload":{"message":"summary of the codex work","replacement_history":[]}}"#,
        ]
        .join("\n")
    }

    #[test]
    fn claude_rows_of_every_kind() {
        let (s, t) = source("claude", "cc-1", &claude_rows(), 2.0);
        let mut skipped = Skipped::default();
        let (s, lines) = (s.clone(), lines_of(&s, &t).0);
        let session = read_claude(&s, &lines, &mut skipped);
        let roles: Vec<&str> = session.messages.iter().map(|m| m.role.as_str()).collect();
        assert_eq!(roles, ["user", "user", "assistant", "tool", "summary", "user"]);
        assert_eq!(session.title.as_deref(), Some("Fix the tokenizer"));
        assert_eq!(session.compactions, 1);
        assert_eq!(session.requests, 2, "the command echo is not a request");
        assert_eq!(skipped, Skipped { malformed: 2, huge: 0, other: 4, unreadable_files: 0 });
        assert!(session.messages.iter().all(|m| !m.text.contains("sidechain") && !m.text.contains("subagent")));
        assert!(session.messages[2].text.contains("tool Bash: {\"command\":\"cargo test tokenizer\"}"));
        let last = &session.messages[5].text;
        assert!(last.contains("[REDACTED:") && !last.contains("FAKEFAKE"), "{last}");
    }

    #[test]
    fn codex_rows_of_every_kind() {
        let (s, t) = source("codex", "019a-codex", &codex_rows(), 1.0);
        let mut skipped = Skipped::default();
        let session = read_codex(&s, &lines_of(&s, &t).0, &mut skipped);
        let got: Vec<(&str, &str)> = session.messages.iter().map(|m| (m.role.as_str(), m.text.as_str())).collect();
        assert_eq!(
            got,
            [
                ("user", "which command fixed the build? zebra-4417"),
                ("tool", "tool shell: {\"command\":[\"make\",\"clean-build\"]}"),
                ("tool", "build ok"),
                ("assistant", "make clean-build fixed it"),
                ("summary", "summary of the codex work"),
            ]
        );
        assert_eq!((session.compactions, session.id.as_str(), session.first_ts.as_str()), (1, "019a-codex", "2026-03-08T09:00:00.000Z"));
        assert_eq!(skipped.other, 3, "injected user context, reasoning, the duplicate agent_message");
    }

    #[test]
    fn the_sessions_view_lists_them_newest_first() {
        let files = vec![
            source("codex", "019a-codex", &codex_rows(), 1.0),
            source("claude", "cc-1", &claude_rows(), 2.0),
            source("summary", "cc-1", "We kept the lexer; next: ship.", 2.0),
            source("opencode-prompts", "opencode-prompts", "{\"input\":\"opencode asked this\",\"parts\":[],\"mode\":\"normal\"}\n", 0.5),
        ];
        let out = run(&Ask::default(), files);
        assert!(out.starts_with("recall: 3 earlier sessions of this project, newest first. Skipped: 2 malformed lines"), "{out}");
        let cc = out.find("1. claude-code · 2026-03-09 14:00Z → 2026-03-09 16:00Z · session cc-1 · 7 messages, 2 requests · 1 compaction · \"Fix the tokenizer\"").expect(&out);
        let codex = out.find("2. codex · 2026-03-08 09:00Z → 2026-03-08 09:10Z · session 019a-codex").expect(&out);
        let oc = out.find("3. opencode").expect(&out);
        assert!(cc < codex && codex < oc);
        assert!(out.contains("first request: \"the tokenizer drops zebra-4417 tokens\""));
        assert!(out.contains("last request: \"now ship it with key [REDACTED:"), "{out}");
    }

    #[test]
    fn a_search_ranks_excerpts_with_their_source_and_reads_more() {
        let files = || vec![source("codex", "019a-codex", &codex_rows(), 1.0), source("claude", "cc-1", &claude_rows(), 2.0)];
        let out = run(&Ask { query: Some(q("zebra-4417 build")), ..Ask::default() }, files());
        assert!(out.starts_with("recall: 6 hits in 5 messages of 2 earlier sessions (of 2 searched)"), "{out}");
        // The message holding both words first, then the newer session.
        let both = out.find("── codex · session 019a-codex · 2026-03-08 09:00Z · message 1 (user) · 2 hits").expect(&out);
        let cc = out.find("── claude-code · session cc-1 · 2026-03-09 14:25Z · message 2 (user) · 1 hit").expect(&out);
        assert!(both < cc);
        assert!(!out.contains("sidechain") && !out.contains("environment_context"), "{out}");
        // A secret is neither shown nor found.
        let out = run(&Ask { query: Some(q("FAKEFAKEFAKE")), ..Ask::default() }, files());
        assert!(out.starts_with("recall: no hits"), "{out}");
        // Read more: the message in full, from an offset.
        let more = run(&Ask { session: Some("cc".into()), message: Some(5), ..Ask::default() }, files());
        assert!(more.contains("── message 5 (summary)") && more.contains("We decided to keep the lexer.") && more.contains("── message 6 (user)"), "{more}");
        let on = run(&Ask { session: Some("cc-1".into()), message: Some(5), offset: 25, ..Ask::default() }, files());
        assert!(on.contains("from character 25") && !on.contains("This session is being"), "{on}");
        let none = run(&Ask { session: Some("nope".into()), message: Some(1), ..Ask::default() }, files());
        assert!(none.starts_with("recall: no earlier session"), "{none}");
    }

    #[test]
    fn huge_lines_and_range_edges_are_skipped_not_fatal() {
        let huge = format!("{{\"type\":\"user\",\"message\":{{\"content\":\"{}\"}}}}", "y".repeat(MAX_LINE_BYTES + 10));
        let text = format!("{}\n{huge}\n{}\n", claude_rows(), r#"{"type":"user","message":{"content":"after the huge line"}}"#);
        let (s, t) = source("claude", "cc-1", &text, 1.0);
        let mut skipped = Skipped::default();
        let session = read_claude(&s, &lines_of(&s, &t).0, &mut skipped);
        assert_eq!(skipped.huge, 1);
        assert_eq!(session.messages.last().map(|m| m.text.as_str()), Some("after the huge line"));
    }

    /// A file over 4 MiB, read as the core's ranges give it (its first 4 MiB
    /// and its newest end): the rows cut at the edges are dropped, the others
    /// read, the newest row found.
    #[test]
    fn a_file_over_4_mib_read_by_ranges() {
        let row = |k: usize| format!("{{\"type\":\"user\",\"message\":{{\"content\":\"row {k} {}\"}},\"timestamp\":\"2026-03-09T14:00:00.000Z\"}}\n", "p".repeat(200));
        let mut text = String::new();
        let mut k = 0;
        while text.len() < 10 << 20 {
            text.push_str(&row(k));
            k += 1;
        }
        text.push_str(r#"{"type":"user","message":{"content":"the newest row: quokka"}}"#);
        let size = text.len() as u64;
        let four = 4u64 << 20;
        let reads = vec![(0, four), (size - four, four)];
        let pieces: Vec<String> = reads.iter().map(|(o, l)| String::from_utf8_lossy(&text.as_bytes()[*o as usize..(*o + *l) as usize]).into_owned()).collect();
        let source = Source { kind: "claude".into(), session: "big".into(), path: "/p/big".into(), mtime_ms: 1.0, reads, size };
        let out = answer(&Ask { query: Some(q("quokka")), ..Ask::default() }, std::slice::from_ref(&source), vec![pieces.clone()], &[false]);
        assert!(out.contains("message ") && out.contains("the newest row: quokka"), "{out}");
        assert!(!out.contains("malformed"), "rows cut at a range's edge are not malformed: {out}");
        let (sessions, _) = read_all(&[source], vec![pieces], &[false]);
        assert!(sessions[0].gap);
        assert!(sessions[0].messages.len() < k, "the middle was not read");
    }

    #[test]
    fn an_unreadable_file_is_counted() {
        let (s, t) = source("claude", "cc-1", &claude_rows(), 2.0);
        let out = answer(&Ask::default(), &[s.clone(), s], vec![t.clone(), t], &[true, false]);
        assert!(out.contains("1 file that could not be read"), "{out}");
    }

    #[test]
    fn iso_of_ms_is_the_civil_date() {
        assert_eq!(iso_of_ms(1_700_000_000_000.0), "2023-11-14T22:13:20Z");
        assert_eq!(iso_of_ms(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_of_ms(f64::NAN), "");
    }

    /// The real sessions in ../shared/real-transcripts (read at test time, never
    /// copied here): every one reads without a panic, finds messages, and
    /// counts what it skips.
    #[test]
    fn real_transcripts() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-transcripts");
        let Ok(dirs) = std::fs::read_dir(&root) else {
            eprintln!("real_transcripts: skipped, {} is absent", root.display());
            return;
        };
        let mut files: Vec<std::path::PathBuf> = Vec::new();
        for d in dirs.flatten() {
            for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
                if f.path().extension().is_some_and(|e| e == "jsonl") {
                    files.push(f.path());
                }
            }
        }
        assert!(files.len() >= 10, "{files:?}");
        let (mut compactions, mut codex_compactions, mut sidechain_free, mut with_request) = (0, 0, true, 0);
        for path in &files {
            let bytes = std::fs::read(path).unwrap();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let kind = if name.contains("codex") || name.starts_with("rollout-") { "codex" } else { "claude" };
            let size = text.len() as u64;
            let source = Source { kind: kind.into(), session: name.clone(), path: name.clone(), mtime_ms: 1.0, reads: vec![(0, size)], size };
            let (sessions, skipped) = read_all(&[source], vec![vec![text.clone()]], &[false]);
            let s = &sessions[0];
            assert!(!s.messages.is_empty(), "{name}: no messages");
            with_request += usize::from(s.first_request.is_some());
            if kind == "codex" {
                codex_compactions += s.compactions;
            } else {
                compactions += s.compactions;
                let sidechains = text.lines().filter(|l| l.contains("\"isSidechain\":true")).count();
                sidechain_free &= sidechains == 0 || skipped.other >= sidechains;
            }
            let view = sessions_view(&sessions, &skipped);
            assert!(view.encode_utf16().count() <= MAX_ANSWER, "{name}");
            let found = search(&sessions, &q("error"), &skipped);
            assert!(found.encode_utf16().count() <= MAX_ANSWER && found.starts_with("recall: "), "{name}: {found}");
        }
        // SOURCES.md: 6 Claude Code sessions hold 7 compactions between them, 2 Codex rollouts hold compacted rows.
        assert!(compactions >= 6, "{compactions}");
        assert!(codex_compactions >= 2, "{codex_compactions}");
        assert!(sidechain_free);
        // `/init` sessions open with a command echo, not a request.
        assert!(with_request + 3 >= files.len(), "{with_request} of {}", files.len());
    }
}
