//! Codex rollouts started in this project's folder. A rollout names its folder
//! only in its first line (`session_meta`), so the newest are found by their
//! date folders (`YYYY/MM/DD`) and the head of each read.

use compact_plus::step::{value, Host};

use super::listing::{largest, list, list_all, Listed};
use super::plan::{Recorder, SessionFile};
use crate::folder;
use crate::json::{fields, text};
use crate::look::Look;

/// Codex rollouts whose first line is read to learn their folder.
const CANDIDATES: usize = 40;
/// A Codex `session_meta` line holds its instructions; the cwd comes early.
pub const HEAD_BYTES: u64 = 64 << 10;

/// Rollouts started in `cwd`, newest first, and the bytes their heads took.
pub async fn rollouts(host: &Host<Look>, root: &str, cwd: &str) -> (Vec<SessionFile>, u64) {
    let years: Vec<(u64, String)> =
        dated(list(host, root).await, 2).into_iter().map(|(y, name)| (y, format!("{root}/{name}"))).collect();
    if years.is_empty() {
        return (Vec::new(), 0);
    }
    // `YYYY/MM/DD` as one number, so months and days sort across years.
    let paths = |v: &[(u64, String)]| v.iter().map(|d| d.1.clone()).collect::<Vec<String>>();
    let mut months = Vec::new();
    for ((y, path), entries) in years.iter().zip(list_all(host, &paths(&years)).await) {
        months.extend(dated(entries, 12).into_iter().map(|(m, name)| (y * 100 + m, format!("{path}/{name}"))));
    }
    let months = largest(months, |m| m.0, 3);
    let mut days = Vec::new();
    for ((m, path), entries) in months.iter().zip(list_all(host, &paths(&months)).await) {
        days.extend(dated(entries, 31).into_iter().map(|(d, name)| (m * 100 + d, format!("{path}/{name}"))));
    }
    let days = paths(&largest(days, |d| d.0, 31));
    let mut files = Vec::new();
    for (d, entries) in days.iter().zip(list_all(host, &days).await) {
        for e in entries.into_iter().filter(|e| e.is_file() && e.name.starts_with("rollout-") && e.name.ends_with(".jsonl")) {
            let stem = e.name.strip_suffix(".jsonl").unwrap_or(&e.name);
            // `rollout-<timestamp>-<uuid>`: the uuid is the last 36 chars.
            let id = stem.get(stem.len().saturating_sub(36)..).unwrap_or(stem).to_owned();
            let path = format!("{d}/{}", e.name);
            files.push(SessionFile { format: Recorder::Codex, session: id, path, mtime_ms: e.mtime_ms, size: e.size as u64, spans: Vec::new() });
        }
    }
    let files = largest(files, |f| f.mtime_ms.max(0.0) as u64, CANDIDATES);
    if files.is_empty() {
        return (files, 0);
    }
    let heads: Vec<Look> = files.iter().map(|f| Look::Head { path: f.path.clone(), offset: 0, length: HEAD_BYTES.min(f.size) }).collect();
    let read: u64 = files.iter().map(|f| HEAD_BYTES.min(f.size)).sum();
    let answers = host.ask(heads).await;
    let mine = files
        .into_iter()
        .zip(answers)
        .enumerate()
        .filter(|(i, (_, answer))| {
            let head = host.text(*i).map_or_else(|| value::<String>(answer), Ok);
            head.ok().and_then(|h| codex_cwd(&h)).is_some_and(|c| folder::same(&c, cwd))
        })
        .map(|(_, (f, _))| f)
        .collect();
    (mine, read)
}

/// The newest `n` of a Codex date folder's folders (`2026`, `11`, `29`), with
/// their number: a folder named otherwise is none of them.
fn dated(entries: Vec<Listed>, n: usize) -> Vec<(u64, String)> {
    let dated = entries
        .into_iter()
        .filter(|e| e.kind == "dir" && !e.name.is_empty() && e.name.len() <= 4 && e.name.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|e| Some((e.name.parse::<u64>().ok()?, e.name)))
        .collect();
    largest(dated, |d| d.0, n)
}

/// The cwd a Codex rollout's first line names (a first line longer than the
/// head read is searched for the key alone). Only compared, never shown.
pub fn codex_cwd(head: &str) -> Option<String> {
    let first = head.split('\n').next().unwrap_or("");
    if let Some([kind, payload]) = fields(first, ["type", "payload"]) {
        if kind.and_then(text).as_deref() != Some("session_meta") {
            return None;
        }
        let [cwd] = fields(payload?, ["cwd"])?;
        return cwd.and_then(text).map(|c| c.into_owned());
    }
    if !first.contains("\"session_meta\"") {
        return None;
    }
    let at = first.find("\"cwd\":\"")? + 7;
    let rest = first.get(at..)?;
    let raw = rest.get(..rest.find('"')?)?;
    text(&format!("\"{raw}\"")).map(|c| c.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_cwd_comes_from_session_meta() {
        let line = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"u","cwd":"/w/app","base_instructions":{"text":"x"}}}"#;
        assert_eq!(codex_cwd(&format!("{line}\n{{\"type\":\"event_msg\"}}")).as_deref(), Some("/w/app"));
        // A first line cut by the head read still names its cwd.
        assert_eq!(codex_cwd(&line[..line.len() - 20]).as_deref(), Some("/w/app"));
        assert_eq!(codex_cwd(r#"{"type":"event_msg","payload":{"cwd":"/w/app"}}"#), None);
        assert_eq!(codex_cwd("not json"), None);
    }
}
