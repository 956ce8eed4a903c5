//! Where this session's history goes: `<home>/.claude/compact-history/<session id>`.

use super::protocol::{self, Call, Host};
use crate::compaction::history;
use crate::message::JsVal;

/// The session's history folder, or `None` with no home.
/// The home is `HOME`, as the engine's own `~/.claude` is, except on Windows
/// (`OS=Windows_NT`), where it is `USERPROFILE`: WSL can share `USERPROFILE`
/// into Linux as a `/mnt/c/…` path that is not this home.
///
/// The three variables and the session id are asked at once: one round trip
/// where there were up to four, each waiting on the engine's main thread, which
/// at start-up is busy (measured in the first prompt.context: 3–200 ms each,
/// tests/HOST.md). An answer that is not needed is not read, its error neither.
pub(super) async fn history_dir(host: &Host) -> Result<Option<String>, String> {
    let answers = host
        .ask(vec![Call::Env { name: "OS" }, Call::Env { name: "HOME" }, Call::Env { name: "USERPROFILE" }, Call::SessionId])
        .await;
    let [os, home, profile, id] = answers.as_slice() else { return Err("the host answered short".into()) };
    let variable = |a: &protocol::Answer| protocol::value::<Option<String>>(a);
    let windows = variable(os)?.as_deref() == Some("Windows_NT");
    let (first, second) = if windows { (profile, home) } else { (home, profile) };
    // `??`: an empty value is a home that is not there, not a reason to look further.
    let home = match variable(first)? {
        Some(h) => Some(h),
        None => variable(second)?,
    };
    let Some(home) = home.filter(|h| !h.is_empty()) else { return Ok(None) };
    let id = protocol::value::<JsVal>(id)?;
    Ok(history::folder(&home, &id.to_js_string()))
}
