//! Scope `project`: which files of this project's earlier sessions a call
//! reads, found by looks at the host. The Claude Code transcripts of the
//! project's folder (`~/.claude/projects/<cwd, every non-alphanumeric as
//! ->/`, measured on 2.1.328), the summaries compact-plus saved for them,
//! Codex rollouts whose `session_meta` cwd is this folder, and OpenCode's
//! prompt history. Bounded (`plan`): the newest sessions first, so many a
//! call, so many bytes of each and in all, every byte read counted. Here, not
//! in the core: the compaction path's module is compiled at every start-up and
//! has a size guard.
//!
//! - [`plan`]: what is read, and the bounds.
//! - [`listing`]: folder listings, and the one sort.
//! - [`codex`]: Codex rollouts by their heads.

mod codex;
mod listing;
pub mod plan;

pub use plan::{Recorder, Plan, SessionFile, Span};

use compact_plus::recall_tool::{self, Project};
use compact_plus::step::{value, Host};

use crate::look::Look;
use listing::{entries, largest, list_all, Listed};
use plan::{spans, MAX_CALL_BYTES, MAX_FILE_BYTES, MAX_SESSIONS, READ_BYTES, SMALL_FILE_BYTES};

const NO_HOME: &str = "recall: no home folder, so no earlier sessions to read.";

/// The folder Claude Code keeps a project's transcripts in: the cwd with every
/// char that is not an ASCII letter or digit as `-`.
pub fn claude_project_folder(cwd: &str) -> String {
    cwd.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// The walk: the files to read, or the answer when there is nothing to read.
/// `own_dir` is this session's history folder, `<home>/.claude/compact-history/<id>`.
pub async fn walk(host: &Host<Look>, project: &Project, own_dir: &str) -> Result<Plan, String> {
    let Some((history_root, this_session)) = own_dir.rsplit_once('/') else { return Err(NO_HOME.into()) };
    let Some(claude_root) = history_root.strip_suffix("/compact-history") else { return Err(NO_HOME.into()) };
    let Some(home) = claude_root.strip_suffix("/.claude") else { return Err(NO_HOME.into()) };
    let Ok(cwd) = value::<String>(&host.call(Look::Cwd).await) else {
        return Err("recall: the project's folder is unknown ($.session.cwd() did not answer), so its earlier sessions cannot be found.".into());
    };
    let transcripts = format!("{claude_root}/projects/{}", claude_project_folder(&cwd));
    let codex_root = format!("{home}/.codex/sessions");
    let opencode = format!("{home}/.local/state/opencode/prompt-history.jsonl");
    let first = host
        .ask(vec![
            Look::List { path: transcripts.clone() },
            Look::List { path: history_root.to_owned() },
            Look::Stat { path: opencode.clone() },
        ])
        .await;
    let listed = |i: usize| entries(first.get(i));
    let mut sessions: Vec<SessionFile> = listed(0)
        .into_iter()
        .filter(|e| e.is_file())
        .filter_map(|e| {
            let id = e.name.strip_suffix(".jsonl")?.to_owned();
            (id != this_session).then(|| SessionFile {
                format: Recorder::ClaudeCode,
                path: format!("{transcripts}/{}", e.name),
                session: id,
                mtime_ms: e.mtime_ms,
                size: e.size as u64,
                spans: Vec::new(),
            })
        })
        .collect();
    let histories: Vec<String> = listed(1).into_iter().filter(|e| e.kind == "dir").map(|e| e.name).collect();
    let opencode_stat = first.get(2).and_then(|a| a.as_ref().ok()).and_then(|r| Listed::read(r.get())).filter(Listed::is_file);
    let (rollouts, heads) = codex::rollouts(host, &codex_root, &cwd).await;
    sessions.extend(rollouts);
    if let Some(prefix) = project.session() {
        sessions.retain(|s| s.session.starts_with(prefix));
    }
    let found = sessions.len();
    let sessions = largest(sessions, |s| s.mtime_ms.max(0.0) as u64, MAX_SESSIONS);

    // The summaries compact-plus saved for them, listed at once.
    let folders: Vec<String> = sessions
        .iter()
        .filter(|s| s.format == Recorder::ClaudeCode && histories.contains(&s.session))
        .map(|s| format!("{history_root}/{}", s.session))
        .collect();
    let saved: Vec<(String, Vec<Listed>)> = folders.iter().cloned().zip(list_all(host, &folders).await).collect();

    let mut plan = Plan { cwd: cwd.clone(), files: Vec::new(), notes: Vec::new() };
    if found > MAX_SESSIONS {
        plan.notes.push(format!(
            "(The newest {MAX_SESSIONS} of {found} earlier sessions were read; name an older one with session to read it.)"
        ));
    }
    let mut budget = MAX_CALL_BYTES.saturating_sub(heads);
    let mut cut = 0;
    for mut s in sessions {
        // A session whose first read no longer fits is left out whole.
        if budget < READ_BYTES.min(s.size) {
            cut += 1;
            continue;
        }
        s.spans = spans(s.size, MAX_FILE_BYTES.min(budget));
        let bytes = s.bytes();
        if s.size > bytes {
            plan.notes.push(format!(
                "(Session {} is long: its first {} MiB and newest {} MiB were read.)",
                s.session,
                READ_BYTES >> 20,
                (bytes - READ_BYTES.min(bytes)) >> 20
            ));
        }
        budget -= bytes;
        let folder = format!("{history_root}/{}", s.session);
        let summaries = saved.iter().find(|(f, _)| *f == folder).map(|(_, e)| e.as_slice()).unwrap_or(&[]);
        let session = s.session.clone();
        plan.files.push(s);
        for e in summaries.iter().filter(|e| e.is_file() && recall_tool::is_summary_file(&e.name)) {
            let spans = spans(e.size as u64, SMALL_FILE_BYTES.min(budget));
            budget -= spans.iter().map(|s| s.length).sum::<u64>();
            if spans.is_empty() {
                continue;
            }
            plan.files.push(SessionFile {
                format: Recorder::Summary,
                session: session.clone(),
                path: format!("{folder}/{}", e.name),
                mtime_ms: e.mtime_ms,
                size: e.size as u64,
                spans,
            });
        }
    }
    if cut > 0 {
        plan.notes.push(format!(
            "({cut} older session{} not read: the call reads {} MiB at most.)",
            if cut == 1 { "" } else { "s" },
            MAX_CALL_BYTES >> 20
        ));
    }
    // OpenCode's prompt history names no session: read unless one is named.
    if let (Some(stat), None) = (opencode_stat, project.session()) {
        let spans = spans(stat.size as u64, SMALL_FILE_BYTES.min(budget));
        if !spans.is_empty() {
            let (mtime_ms, size) = (stat.mtime_ms, stat.size as u64);
            plan.files.push(SessionFile { format: Recorder::OpenCodePrompts, session: "opencode-prompts".into(), path: opencode, mtime_ms, size, spans });
        }
    }
    if plan.files.is_empty() {
        let what = match project.session() {
            Some(p) => format!("no earlier session of this project has an id starting \"{}\"", p.chars().take(80).collect::<String>()),
            None => "no earlier sessions of this project were found".to_owned(),
        };
        return Err(format!(
            "recall: {what} (Claude Code transcripts in {transcripts}, Codex rollouts started in {cwd}, OpenCode prompts naming a file in it)."
        ));
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_folder_is_the_cwd_with_dashes() {
        assert_eq!(claude_project_folder("/work/my_app.v2"), "-work-my-app-v2");
        assert_eq!(claude_project_folder("C:\\Users\\ann\\é"), "C--Users-ann--");
    }
}
