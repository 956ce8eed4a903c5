//! `session.append` at door `compaction`: the summary row of the main
//! conversation gets the blocks the last compaction left pending. At door
//! `command`: the rows of compact-plus's own commands rewritten
//! (`steer::command::rewrite_row`): neither a `/recall` query nor a `/pin`
//! text reaches the model through them.

use serde::Deserialize;
use std::rc::Rc;

use super::protocol::{Call, Done, Host};
use super::history_folder::history_dir;
use super::waiting::keep_pending;
use super::state::{Channel, Session};
use crate::message::{self, JsVal};
use crate::steer;

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct AppendEvent {
    #[serde(rename = "agentId")]
    agent_id: JsVal,
    door: JsVal,
    message: message::Lenient<AppendMessage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct AppendMessage {
    #[serde(rename = "type")]
    kind: JsVal,
    role: JsVal,
    /// Read at door `command` alone (a command's row: a few text blocks).
    content: serde_json::Value,
}

pub(super) async fn session_append(host: Host, session: Rc<Session>, e: AppendEvent) -> Done {
    if e.door.as_str() == Some("command") && !e.agent_id.truthy() {
        return command_row(e.message.0.as_ref().map(|m| &m.content));
    }
    let is_summary_row = e.message.0.as_ref().is_some_and(|m| m.kind.as_str() == Some("user") && m.role.as_str() == Some("user"));
    let pending = session.carried().pending.is_some();
    if !pending || e.agent_id.truthy() || !is_summary_row {
        return Done::PassThrough;
    }
    let blocks = session.carried_mut().pending.take().map(|p| p.render(Channel::SummaryRow));
    let _ = host.call(Call::Next { instructions: None, append: blocks }).await;
    if let Ok(Some(dir)) = history_dir(&host).await {
        keep_pending(&host, &dir, None).await;
    }
    Done::PassThrough
}

/// A row of compact-plus's own command, rewritten; every other row as it came.
/// Only a row of text blocks alone is rewritten (a command line is one).
fn command_row(content: Option<&serde_json::Value>) -> Done {
    let blocks = content.and_then(serde_json::Value::as_array);
    let mut content = Vec::new();
    let mut changed = false;
    for b in blocks.map_or(&[][..], Vec::as_slice) {
        let text = b.get("text").and_then(serde_json::Value::as_str);
        let Some(text) = text.filter(|_| b.get("type").and_then(serde_json::Value::as_str) == Some("text")) else {
            return Done::PassThrough;
        };
        match steer::command::rewrite_row(text) {
            Some(new) => {
                changed = true;
                content.push(new);
            }
            None => content.push(text.to_owned()),
        }
    }
    if !changed {
        return Done::PassThrough;
    }
    Done::Rewritten { content }
}
