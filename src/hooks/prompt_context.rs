//! `prompt.context`: the blocks a compaction left pending, where no summary row
//! carried them (the terminal's `/compact`), with nothing marked current (they
//! come with the person's new prompt), or at a new session's first prompt the
//! brief from an earlier one (`brief`); and the instruction files refreshed
//! where they changed on disk since the engine read them.

use serde::Deserialize;
use std::rc::Rc;

use super::protocol::{self, Answer, Call, ContextBlock, Done, Host};
use super::history_folder::history_dir;
use super::session_log::{json_str, log};
use super::waiting::{keep_pending, pending_on_disk};
use super::state::{Channel, Session};
use crate::instructions;
use crate::message::JsVal;

/// The name of the `prompt.context` block that carries the blocks where no
/// summary row is appended through a hook (the terminal's `/compact`).
const CONTEXT_BLOCK: &str = "compact-plus";

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct ContextFiles {
    #[serde(rename = "instructionFiles")]
    instruction_files: Option<Vec<serde_json::Value>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct InstructionFile {
    path: JsVal,
    kind: JsVal,
    content: JsVal,
}

/// A hash of a file's raw text, to tell later whether it changed: FNV-1a over
/// the UTF-8 bytes, and the length.
fn fingerprint(raw: &str) -> String {
    let hash = raw.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}-{}", raw.len())
}

/// What to do with one file: keep the engine's copy (`None`), or swap in the
/// disk text as the engine itself would load it (`Some`; `Some(None)`: the file
/// is empty now, and the engine would leave it out). Only a file whose raw text
/// changed since the engine had it is judged by the port at all: the engine's
/// loader may change with its version, and an unchanged file must not look edited.
fn refreshed_text(file: &InstructionFile, disk: &Answer, session: &Session) -> Option<Option<String>> {
    let raw: String = protocol::value(disk).ok()?;
    let path = file.path.to_js_string();
    let now = fingerprint(&raw);
    let before = {
        let mut carried = session.carried_mut();
        let slot = carried.loaded.iter_mut().find(|(p, _)| *p == path);
        match slot {
            Some((_, seen)) => Some(std::mem::replace(seen, now.clone())),
            None => {
                carried.loaded.push((path, now.clone()));
                None
            }
        }
    };
    // First seen: the engine has just read it, as it is on disk now.
    if before.as_deref().is_none_or(|b| b == now) {
        return None;
    }
    // Imports are entries of their own, a swap could not add or drop them; and a
    // file nested deeper than the port lexes cannot be judged: both stay as they are.
    if instructions::too_deep(&raw) || instructions::has_imports(&raw) {
        return None;
    }
    let content = instructions::engine_content(&raw);
    if file.content.as_str()? == content {
        return None;
    }
    Some(instructions::engine_loads(&content).then_some(content))
}

/// The engine computes the context blocks again after every compaction, and
/// sends a block of a name it does not route in one copy, made when the
/// conversation holds none: the one channel that reaches the model after a
/// terminal `/compact`, where no `session.append` at door `compaction` fires.
pub(super) async fn prompt_context(host: Host, session: Rc<Session>, e: ContextFiles) -> Done {
    // `next` with the event as it came, started by the shim (`NEXT_FIRST`).
    let answer = host.call(Call::NextResult).await;
    let Ok(result) = protocol::value::<ContextFiles>(&answer) else { return Done::PassThrough };
    let instruction_files = refreshed_files(&host, &session, result, e).await;
    // A new session has no compaction's blocks to deliver: its first prompt
    // may get the brief from an earlier one instead.
    let (context_block, notice) = match deliverable_blocks(&host, &session).await {
        Some(block) => (Some(block), Vec::new()),
        None => match super::brief::brief(&host, &session).await {
            Some((block, line)) => (Some(block), vec![line]),
            None => (None, Vec::new()),
        },
    };
    Done::amended(instruction_files, context_block, notice)
}

/// The blocks this context may carry: the last compaction's, or those an earlier
/// process of the session kept on disk. They are taken from the session state
/// only after every call, in the step that answers: a hook lost to a rebuild
/// before then leaves them for the next request. Taken only once `next`
/// answered: a rejected `next` leaves them for the summary row.
async fn deliverable_blocks(host: &Host, session: &Session) -> Option<ContextBlock> {
    let (waiting, first_look) = {
        let carried = session.carried();
        (carried.pending.is_some() && !carried.row_only, !carried.disk_read)
    };
    if waiting {
        if let Ok(Some(dir)) = history_dir(host).await {
            keep_pending(host, &dir, None).await;
        }
    } else if first_look {
        let on_disk = pending_on_disk(host).await;
        if let Some((dir, _)) = &on_disk {
            keep_pending(host, dir, None).await;
        }
        let mut carried = session.carried_mut();
        carried.disk_read = true;
        if let Some((_, blocks)) = on_disk {
            carried.pending.get_or_insert(blocks);
        }
    }
    let mut carried = session.carried_mut();
    if carried.row_only {
        return None;
    }
    // They come with a new prompt: every request in them was answered.
    carried.pending.take().map(|p| ContextBlock { name: CONTEXT_BLOCK, text: p.render(Channel::Prompt).join("\n\n") })
}

/// The engine's instruction files with those edited on disk since it loaded
/// them swapped in, or `None` to keep its copy. A refresh is logged.
async fn refreshed_files(host: &Host, session: &Session, result: ContextFiles, e: ContextFiles) -> Option<serde_json::Value> {
    let mut files = result.instruction_files.or(e.instruction_files).filter(|f| !f.is_empty())?;
    let parsed: Vec<InstructionFile> =
        files.iter().map(|f| serde_json::from_value(f.clone()).unwrap_or_default()).collect();
    let to_read: Vec<(usize, Call)> = parsed
        .iter()
        .enumerate()
        .filter(|(_, f)| !matches!(f.kind.as_str(), Some("memory" | "managed")))
        .map(|(i, f)| (i, Call::Read { path: f.path.to_js_string() }))
        .collect();
    if to_read.is_empty() {
        return None;
    }
    let answers = host.ask(to_read.iter().map(|(_, c)| c.clone()).collect()).await;
    let mut refreshed = Vec::new();
    let mut emptied = Vec::new();
    for ((i, _), disk) in to_read.iter().zip(&answers) {
        let (Some(file), Some(slot)) = (parsed.get(*i), files.get_mut(*i)) else { continue };
        match refreshed_text(file, disk, session) {
            Some(Some(text)) => {
                if let Some(obj) = slot.as_object_mut() {
                    obj.insert("content".into(), serde_json::Value::String(text));
                    refreshed.push(file.path.to_js_string());
                }
            }
            Some(None) => {
                emptied.push(*i);
                refreshed.push(file.path.to_js_string());
            }
            None => {}
        }
    }
    if refreshed.is_empty() {
        return None;
    }
    let mut index = 0;
    files.retain(|_| {
        index += 1;
        !emptied.contains(&(index - 1))
    });
    if let Ok(Some(dir)) = history_dir(host).await {
        let list = serde_json::to_string(&refreshed).unwrap_or_default();
        log(host, session, &dir, &[("event", json_str("instructions-refreshed")), ("files", list)]).await;
    }
    Some(serde_json::Value::Array(files))
}
