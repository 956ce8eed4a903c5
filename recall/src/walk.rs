//! Scope `project`: which files of this project's earlier sessions the recall
//! module reads, found by `$` calls the shim performs (the core's step
//! protocol, `compact_plus::hooks::protocol`). The Claude Code transcripts of
//! the project's folder (`~/.claude/projects/<cwd, every non-alphanumeric as
//! ->/`, measured on 2.1.328), the summaries compact-plus saved for them, Codex
//! rollouts whose `session_meta` cwd is this folder, and OpenCode's prompt
//! history. Bounded so a call stays well inside the hook's budget: the newest
//! `MAX_TRANSCRIPTS` sessions, `MAX_FILE_BYTES` of each (its start and its
//! newest end when longer), `MAX_CALL_BYTES` in all, reads of at most 4 MiB
//! (`$.fs.read`'s bound), and a deadline on them. Here, not in the core: the
//! compaction path's module is compiled at every start-up and has a size guard.

use compact_plus::hooks::protocol::{Range, Source};
use serde_json::Value;

use crate::steps::{self, Answer, Host};
use compact_plus::recall_tool;
use serde_json::json;

fn answer(text: &str) -> String {
    json!({ "answer": text }).to_string()
}

/// Seed 000's cap: at most this many transcripts a call.
pub const MAX_TRANSCRIPTS: usize = 20;
/// `$.fs.read` answers at most 4 MiB.
pub const READ_BYTES: u64 = 4 << 20;
/// What one transcript may cost: one longer is read at its start and its end.
pub const MAX_FILE_BYTES: u64 = 2 * READ_BYTES;
/// What one call reads in all (the module holds it at once, about twice over).
pub const MAX_CALL_BYTES: u64 = 48 << 20;
/// Summaries and the prompt history are short; past this their newest end.
const SMALL_FILE_BYTES: u64 = 1 << 20;
/// Codex rollouts whose first line is read to learn their folder.
const CODEX_CANDIDATES: usize = 40;
/// A Codex `session_meta` line holds its instructions; the cwd comes early.
const CODEX_HEAD_BYTES: u64 = 64 << 10;
/// The shim stops waiting for reads after this, leaving the search time
/// within the hook's 10 s.
pub const READ_DEADLINE_MS: u64 = 5000;

/// A folder entry as `$.fs.list` answers it (or a stat, without a name).
struct Listed {
    name: String,
    kind: String,
    size: f64,
    mtime_ms: f64,
}

fn entry(v: &Value) -> Option<Listed> {
    let field = |k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    Some(Listed {
        name: v.get("name").and_then(Value::as_str).unwrap_or("").to_owned(),
        kind: v.get("kind")?.as_str()?.to_owned(),
        size: field("size"),
        mtime_ms: field("mtimeMs"),
    })
}

/// A listing's entries; anything but a list is none.
fn entries(a: Option<&Answer>) -> Vec<Listed> {
    match a {
        Some(Ok(Value::Array(items))) => items.iter().filter_map(entry).collect(),
        _ => Vec::new(),
    }
}

async fn list(host: &Host, path: &str) -> Vec<Listed> {
    entries(Some(&host.call(steps::list(path)).await))
}

async fn list_all(host: &Host, paths: &[String]) -> Vec<Vec<Listed>> {
    // An empty ask would never be answered.
    if paths.is_empty() {
        return Vec::new();
    }
    let answers = host.ask(paths.iter().map(|p| steps::list(p)).collect()).await;
    answers.iter().map(|a| entries(Some(a))).collect()
}

/// The folder Claude Code keeps a project's transcripts in: the cwd with every
/// char that is not an ASCII letter or digit as `-`.
pub fn claude_project_folder(cwd: &str) -> String {
    cwd.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// The cwd a Codex rollout's first line names, read from the redacted line
/// (a first line longer than the head read is searched for the key alone).
pub fn codex_cwd(head: &str) -> Option<String> {
    let first = head.split('\n').next().unwrap_or("");
    let clean = compact_plus::redact::redact(first);
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(&clean) {
        if v.get("type").and_then(|t| t.as_str()) != Some("session_meta") {
            return None;
        }
        return v.get("payload").and_then(|p| p.get("cwd")).and_then(|c| c.as_str()).map(str::to_owned);
    }
    if !clean.contains("\"session_meta\"") {
        return None;
    }
    let at = clean.find("\"cwd\":\"")? + 7;
    let rest = clean.get(at..)?;
    let raw = rest.get(..rest.find('"')?)?;
    serde_json::from_str::<String>(&format!("\"{raw}\"")).ok()
}

fn same_folder(a: &str, b: &str) -> bool {
    let norm = |p: &str| p.replace('\\', "/").trim_end_matches('/').to_owned();
    norm(a) == norm(b)
}

/// The byte ranges read of a file: all of it, in reads of 4 MiB, up to `cap`;
/// a longer one its first read and its newest end.
pub fn ranges(size: u64, cap: u64) -> Vec<Range> {
    if size == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    if size <= cap {
        let mut at = 0;
        while at < size {
            let length = READ_BYTES.min(size - at);
            out.push(Range { offset: at, length });
            at += length;
        }
        return out;
    }
    if cap <= READ_BYTES {
        return vec![Range { offset: size - cap, length: cap }];
    }
    out.push(Range { offset: 0, length: READ_BYTES });
    let mut tail = cap - READ_BYTES;
    let mut end = size;
    let mut back = Vec::new();
    while tail > 0 {
        let length = READ_BYTES.min(tail);
        back.push(Range { offset: end - length, length });
        end -= length;
        tail -= length;
    }
    back.reverse();
    out.extend(back);
    out
}

struct Candidate {
    kind: &'static str,
    session: String,
    path: String,
    mtime_ms: f64,
    size: u64,
}

/// The walk: the sources to read and the module's request (JSON), or the
/// answer when there is nothing to read. `own_dir` is this session's history
/// folder, `<home>/.claude/compact-history/<id>`.
pub async fn project(host: &Host, raw: &str, own_dir: &str) -> String {
    const NO_HOME: &str = "recall: no home folder, so no earlier sessions to read.";
    let input = match recall_tool::parse_input(raw) {
        Ok(i) => i,
        Err(why) => return answer(&why),
    };
    let input = &input;
    // `<home>/.claude/compact-history/<id>`.
    let Some((history_root, this_session)) = own_dir.rsplit_once('/') else { return answer(NO_HOME) };
    let Some(claude_root) = history_root.strip_suffix("/compact-history") else { return answer(NO_HOME) };
    let Some(home) = claude_root.strip_suffix("/.claude") else { return answer(NO_HOME) };
    let Ok(Value::String(cwd)) = host.call(steps::cwd()).await else {
        return answer("recall: the project's folder is unknown ($.session.cwd() did not answer), so its earlier sessions cannot be found.");
    };
    let transcripts = format!("{claude_root}/projects/{}", claude_project_folder(&cwd));
    let codex_root = format!("{home}/.codex/sessions");
    let opencode = format!("{home}/.local/state/opencode/prompt-history.jsonl");
    let first = host
        .ask(vec![
            steps::list(&transcripts),
            steps::list(history_root),
            steps::list(&codex_root),
            steps::stat(&opencode),
        ])
        .await;
    let listed = |i: usize| entries(first.get(i));
    let mut candidates: Vec<Candidate> = listed(0)
        .into_iter()
        .filter(|e| e.kind == "file" && e.size > 0.0)
        .filter_map(|e| {
            let id = e.name.strip_suffix(".jsonl")?.to_owned();
            (id != this_session).then(|| Candidate {
                kind: "claude",
                path: format!("{transcripts}/{}", e.name),
                session: id,
                mtime_ms: e.mtime_ms,
                size: e.size as u64,
            })
        })
        .collect();
    let histories: Vec<String> = listed(1).into_iter().filter(|e| e.kind == "dir").map(|e| e.name).collect();
    candidates.extend(codex_rollouts(host, &codex_root, &cwd).await);
    let mut candidates = newest_first(candidates);
    if let Some(prefix) = &input.session {
        candidates.retain(|c| c.session.starts_with(prefix.as_str()));
    }
    let found = candidates.len();
    candidates.truncate(MAX_TRANSCRIPTS);

    let mut notes = Vec::new();
    if found > MAX_TRANSCRIPTS {
        notes.push(format!(
            "(The newest {MAX_TRANSCRIPTS} of {found} earlier sessions were read; name an older one with session to read it.)"
        ));
    }
    let mut sources = Vec::new();
    let mut budget = MAX_CALL_BYTES;
    let mut cut = 0;
    for c in &candidates {
        let reads = ranges(c.size, MAX_FILE_BYTES.min(budget));
        let bytes: u64 = reads.iter().map(|r| r.length).sum();
        if reads.is_empty() || budget < READ_BYTES.min(c.size) {
            cut += 1;
            continue;
        }
        if c.size > bytes {
            notes.push(format!(
                "(Session {} is long: its first {} MiB and newest {} MiB were read.)",
                c.session,
                READ_BYTES >> 20,
                (bytes - READ_BYTES.min(bytes)) >> 20
            ));
        }
        budget -= bytes;
        sources.push(Source { kind: c.kind, session: c.session.clone(), path: c.path.clone(), mtime_ms: c.mtime_ms, size: c.size, reads });
    }
    if cut > 0 {
        notes.push(format!("({cut} older session{} not read: the call reads {} MiB at most.)", if cut == 1 { "" } else { "s" }, MAX_CALL_BYTES >> 20));
    }
    // The summaries compact-plus saved for these sessions.
    let with_history: Vec<&Source> =
        sources.iter().filter(|s| s.kind == "claude" && histories.contains(&s.session)).collect();
    let folders: Vec<String> = with_history.iter().map(|s| format!("{history_root}/{}", s.session)).collect();
    let mut summaries = Vec::new();
    for (s, entries) in with_history.iter().zip(list_all(host, &folders).await) {
        for e in entries.into_iter().filter(|e| e.kind == "file" && recall_tool::is_summary_file(&e.name)) {
            let size = e.size as u64;
            summaries.push(Source {
                kind: "summary",
                session: s.session.clone(),
                path: format!("{history_root}/{}/{}", s.session, e.name),
                mtime_ms: e.mtime_ms,
                size,
                reads: ranges(size, SMALL_FILE_BYTES),
            });
        }
    }
    sources.extend(summaries.into_iter().filter(|s| !s.reads.is_empty()));
    let opencode_stat = match first.get(3) { Some(Ok(v)) => entry(v), _ => None };
    if let (Some(stat), None) = (opencode_stat, &input.session) {
        if stat.kind == "file" && stat.size > 0.0 {
            sources.push(Source {
                kind: "opencode-prompts",
                session: "opencode-prompts".into(),
                path: opencode,
                mtime_ms: stat.mtime_ms,
                size: stat.size as u64,
                reads: ranges(stat.size as u64, SMALL_FILE_BYTES),
            });
        }
    }
    if sources.is_empty() {
        let what = match &input.session {
            Some(p) => format!("no earlier session of this project has an id starting \"{}\"", p.chars().take(80).collect::<String>()),
            None => "no earlier sessions of this project were found".to_owned(),
        };
        return answer(&format!(
            "recall: {what} (Claude Code transcripts in {transcripts}, Codex rollouts started in {cwd}, OpenCode's prompt history)."
        ));
    }
    #[derive(serde::Serialize)]
    struct Request<'a> {
        query: &'a Option<recall_tool::Query>,
        session: &'a Option<String>,
        message: Option<usize>,
        offset: usize,
        notes: &'a [String],
        sources: &'a [Source],
    }
    let request = serde_json::to_string(&Request {
        query: &input.query,
        session: &input.session,
        message: input.message,
        offset: input.offset,
        notes: &notes,
        sources: &sources,
    })
    .unwrap_or_default();
    json!({ "sources": sources, "deadlineMs": READ_DEADLINE_MS, "request": request }).to_string()
}

// The walk sorts by numbers packed into a `u64` with the item's index in the
// low bits: the core's .wasm already has that one sort (`audit::coverage`),
// where each `sort_by` closure would be a sort of its own (about 4 KB each).
const INDEX_BITS: u32 = 20;

/// The order of `keys` (at most 2^20 of them, each under 2^43), largest first.
fn largest_first(keys: impl Iterator<Item = u64>) -> Vec<usize> {
    let mut packed: Vec<u64> = keys.take(1 << INDEX_BITS).enumerate().map(|(i, k)| (k.min((1 << 43) - 1) << INDEX_BITS) | i as u64).collect();
    packed.sort_unstable();
    packed.iter().rev().map(|p| (p & ((1 << INDEX_BITS) - 1)) as usize).collect()
}

/// Newest first (by mtime to the millisecond; ties in the order listed).
fn newest_first(c: Vec<Candidate>) -> Vec<Candidate> {
    let order = largest_first(c.iter().map(|c| if c.mtime_ms > 0.0 { c.mtime_ms as u64 } else { 0 }));
    let mut slots: Vec<Option<Candidate>> = c.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect()
}

/// The newest `n` of a Codex date folder's folders (`2026`, `11`, `29`), with
/// their number: a folder named otherwise is none of them.
fn newest(entries: Vec<Listed>, n: usize) -> Vec<(u64, String)> {
    let dated = entries
        .into_iter()
        .filter(|e| e.kind == "dir" && !e.name.is_empty() && e.name.len() <= 4 && e.name.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|e| Some((e.name.parse::<u64>().ok()?, e.name)))
        .collect();
    largest_of(dated, n)
}

/// The `n` largest by their number, largest first.
fn largest_of(v: Vec<(u64, String)>, n: usize) -> Vec<(u64, String)> {
    let order = largest_first(v.iter().map(|d| d.0));
    let mut slots: Vec<Option<(u64, String)>> = v.into_iter().map(Some).collect();
    order.into_iter().take(n).filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect()
}

/// Codex rollouts started in `cwd`, newest first: the newest date folders
/// (`YYYY/MM/DD`), then the first line of the newest `CODEX_CANDIDATES`.
async fn codex_rollouts(host: &Host, root: &str, cwd: &str) -> Vec<Candidate> {
    let years: Vec<(u64, String)> = newest(list(host, root).await, 2).into_iter().map(|(y, name)| (y, format!("{root}/{name}"))).collect();
    if years.is_empty() {
        return Vec::new();
    }
    // `YYYY/MM/DD` as one number, so months and days sort across years.
    let paths = |v: &[(u64, String)]| v.iter().map(|d| d.1.clone()).collect::<Vec<String>>();
    let mut months = Vec::new();
    for ((y, path), entries) in years.iter().zip(list_all(host, &paths(&years)).await) {
        months.extend(newest(entries, 12).into_iter().map(|(m, name)| (y * 100 + m, format!("{path}/{name}"))));
    }
    let months = largest_of(months, 3);
    let mut days = Vec::new();
    for ((m, path), entries) in months.iter().zip(list_all(host, &paths(&months)).await) {
        days.extend(newest(entries, 31).into_iter().map(|(d, name)| (m * 100 + d, format!("{path}/{name}"))));
    }
    let days = paths(&largest_of(days, 31));
    let mut files: Vec<Candidate> = Vec::new();
    for (d, entries) in days.iter().zip(list_all(host, &days).await) {
        for e in entries.into_iter().filter(|e| e.kind == "file" && e.size > 0.0 && e.name.starts_with("rollout-") && e.name.ends_with(".jsonl")) {
            let stem = e.name.strip_suffix(".jsonl").unwrap_or(&e.name);
            // `rollout-<timestamp>-<uuid>`: the uuid is the last 36 chars.
            let id = stem.get(stem.len().saturating_sub(36)..).unwrap_or(stem).to_owned();
            files.push(Candidate { kind: "codex", session: id, path: format!("{d}/{}", e.name), mtime_ms: e.mtime_ms, size: e.size as u64 });
        }
    }
    let mut files = newest_first(files);
    files.truncate(CODEX_CANDIDATES);
    if files.is_empty() {
        return files;
    }
    let heads = host
        .ask(files.iter().map(|f| steps::read_range(&f.path, 0, CODEX_HEAD_BYTES.min(f.size))).collect())
        .await;
    files
        .into_iter()
        .zip(heads)
        .filter(|(_, head)| {
            head.as_ref().ok().and_then(Value::as_str).and_then(codex_cwd).is_some_and(|c| same_folder(&c, cwd))
        })
        .map(|(f, _)| f)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_folder_is_the_cwd_with_dashes() {
        assert_eq!(claude_project_folder("/work/my_app.v2"), "-work-my-app-v2");
        assert_eq!(claude_project_folder("C:\\Users\\ann\\é"), "C--Users-ann--");
    }

    #[test]
    fn ranges_cover_small_files_and_cut_long_ones() {
        assert!(ranges(0, MAX_FILE_BYTES).is_empty());
        assert_eq!(ranges(10, MAX_FILE_BYTES), vec![Range { offset: 0, length: 10 }]);
        let five = 5 << 20;
        assert_eq!(ranges(five, MAX_FILE_BYTES), vec![Range { offset: 0, length: READ_BYTES }, Range { offset: READ_BYTES, length: 1 << 20 }]);
        let big = 100 << 20;
        assert_eq!(ranges(big, MAX_FILE_BYTES), vec![Range { offset: 0, length: READ_BYTES }, Range { offset: big - READ_BYTES, length: READ_BYTES }]);
        assert!(ranges(big, 3 << 20).iter().all(|r| r.length <= READ_BYTES && r.offset + r.length <= big));
    }

    #[test]
    fn codex_cwd_comes_from_session_meta() {
        let line = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"u","cwd":"/w/app","base_instructions":{"text":"x"}}}"#;
        assert_eq!(codex_cwd(&format!("{line}\n{{\"type\":\"event_msg\"}}")).as_deref(), Some("/w/app"));
        // A first line cut by the head read still names its cwd.
        assert_eq!(codex_cwd(&line[..line.len() - 20]).as_deref(), Some("/w/app"));
        assert_eq!(codex_cwd(r#"{"type":"event_msg","payload":{"cwd":"/w/app"}}"#), None);
        assert_eq!(codex_cwd("not json"), None);
        assert!(same_folder("/w/app/", "/w/app") && !same_folder("/w/app2", "/w/app"));
    }
}
