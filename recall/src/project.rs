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
            Some(s) => s.push("summary", &ts, text),
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
