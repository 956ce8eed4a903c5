//! `session.append` at door `compaction`: the summary row of the main
//! conversation gets the blocks the last compaction left pending.

use serde::Deserialize;
use std::rc::Rc;

use super::protocol::{Call, Done, Host};
use super::history_folder::history_dir;
use super::waiting::keep_pending;
use super::state::{Channel, Session};
use crate::message::{self, JsVal};

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct AppendEvent {
    #[serde(rename = "agentId")]
    agent_id: JsVal,
    message: message::Lenient<AppendMessage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct AppendMessage {
    #[serde(rename = "type")]
    kind: JsVal,
    role: JsVal,
}

pub(super) async fn session_append(host: Host, session: Rc<Session>, e: AppendEvent) -> Done {
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
