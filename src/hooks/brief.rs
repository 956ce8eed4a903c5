//! At the first prompt of a new session: the brief from this project's newest
//! earlier summary (`steer::brief`), once per process. A new session is one
//! whose conversation holds no answer and no summary at its first
//! `prompt.context`: only the person's rows, if any (measured on 2.1.328:
//! `$.session.messages()` answers `[]` where the engine asks the context
//! before the prompt is kept, headless; the prompt, and a command's rows
//! typed before it, where it asks after, in the terminal; a `--resume`d or
//! `--continue`d one answers its rows, an answer or a summary among them;
//! headless, a resumed process's first one rejects, the session not bound
//! yet, and the next answers the rows). This project's sessions are those
//! with a Claude Code transcript in its folder; their summaries are in the
//! history root.

use super::protocol::{self, Call, ContextBlock, Host};
use super::history_folder::history_dir;
use crate::message::{JsVal, ListOrNot, Message};
use super::state::Session;
use crate::prune::{FolderEntry, DAY_MS};
use crate::recall_tool::{is_summary_file, Reach};
use crate::engine::summary_row;
use crate::steer::brief;

/// The newest rows read to tell a new session from a resumed one: a person may
/// run commands before their first prompt, each a few rows.
const ROWS_LOOKED_AT: u32 = 24;

/// The block and the person's line, where this is a new session's first
/// prompt and an earlier summary of the project is there to brief from.
pub(super) async fn brief(host: &Host, session: &Session) -> Option<(ContextBlock, String)> {
    if session.carried().brief_done {
        return None;
    }
    if !session.options.session_brief {
        session.carried_mut().brief_done = true;
        return None;
    }
    // Not bound yet (no list): decided at the next prompt.context.
    let asked = host.ask(vec![Call::Messages { last: ROWS_LOOKED_AT }, Call::Cwd, Call::Now]).await;
    // Read as a compaction's messages are (`{ role, text, toolUses }`, the same shape).
    let rows = protocol::value::<ListOrNot<Message>>(&asked[0]).ok()?.0;
    session.carried_mut().brief_done = true;
    if rows.iter().flatten().any(|m| !m.is_user() || m.text().starts_with(summary_row::HEAD)) {
        return None;
    }
    let (Ok(JsVal::Str(cwd)), Ok(JsVal::Num(now))) = (protocol::value::<JsVal>(&asked[1]), protocol::value::<JsVal>(&asked[2])) else {
        return None;
    };
    let dir = history_dir(host).await.ok()??;
    let (root, own) = dir.rsplit_once('/')?;
    let claude = root.strip_suffix("/compact-history")?;
    let cutoff = now - session.options.keep_days * DAY_MS;
    let transcripts = format!("{claude}/projects/{}", brief::project_folder(&cwd));
    let listed: Vec<FolderEntry> = protocol::value(&host.call(Call::List { path: transcripts }).await).ok()?;
    // The newest first, at most `MAX_SESSIONS` of them.
    let mut ids: Vec<(f64, &str)> = Vec::new();
    for e in listed.iter().filter(|e| e.kind == "file" && e.mtime_ms >= cutoff) {
        let Some(id) = e.name.strip_suffix(".jsonl").filter(|id| *id != own && !id.is_empty() && !id.contains('/')) else { continue };
        let at = ids.iter().position(|(t, _)| *t < e.mtime_ms).unwrap_or(ids.len());
        if at < brief::MAX_SESSIONS {
            ids.insert(at, (e.mtime_ms, id));
            ids.truncate(brief::MAX_SESSIONS);
        }
    }
    if ids.is_empty() {
        return None;
    }
    // Those that never compacted have no folder: their listing rejects.
    let listings = host.ask(ids.iter().map(|(_, id)| Call::List { path: format!("{root}/{id}") }).collect()).await;
    let mut newest: Option<(f64, &str, String)> = None;
    for ((_, id), listing) in ids.iter().zip(&listings) {
        for e in protocol::value::<Vec<FolderEntry>>(listing).unwrap_or_default() {
            let fresher = newest.as_ref().is_none_or(|(t, _, _)| e.mtime_ms > *t);
            if e.kind == "file" && is_summary_file(&e.name) && e.mtime_ms >= cutoff && fresher {
                newest = Some((e.mtime_ms, id, e.name));
            }
        }
    }
    let (_, id, name) = newest?;
    let path = format!("{root}/{id}/{name}");
    let summary: String = protocol::value(&host.call(Call::Read { path: path.clone() }).await).ok()?;
    if summary.trim().is_empty() {
        return None;
    }
    let when = brief::when(&name);
    let recall = session.options.recall == Reach::Project;
    let text = brief::render(&brief::Earlier { session: id, when: &when, path: &path, recall }, &session.clean(&summary))?;
    let line = brief::notice(id, &when, &text);
    Some((ContextBlock { name: brief::BLOCK, text }, line))
}
