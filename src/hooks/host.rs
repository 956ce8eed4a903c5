//! What several hooks ask of the host, typed: a variable, the clock, the
//! session's id, a line to the debug log.

use super::protocol::{self, Call, Host};
use super::state::Session;
use crate::engine::Unexpected;
use crate::message::JsVal;
use crate::text;

pub(super) async fn env(host: &Host, name: &'static str) -> Result<Option<String>, String> {
    protocol::value::<Option<String>>(&host.call(Call::Env { name }).await)
}

pub(super) async fn now(host: &Host) -> Result<f64, String> {
    protocol::value::<f64>(&host.call(Call::Now).await)
}

pub(super) async fn session_id(host: &Host) -> Result<JsVal, String> {
    protocol::value::<JsVal>(&host.call(Call::SessionId).await)
}

/// One line to the debug log; nothing to do if it fails.
pub(super) async fn debug(host: &Host, text: &str) {
    let _ = host.call(Call::Debug { text: text.to_owned() }).await;
}

/// Says in the debug log, once per process, that a text of the engine's was
/// not found as compact-plus knows it (`seen`, its start, redacted); the
/// caller leaves the engine's result as it came.
pub(super) async fn unexpected(host: &Host, session: &Session, what: Unexpected, seen: &str) {
    let told = {
        let mut carried = session.carried_mut();
        let told = carried.unexpected_told & what.bit() != 0;
        carried.unexpected_told |= what.bit();
        told
    };
    if !told {
        debug(host, &what.line(text::head(&session.clean(seen), 120))).await;
    }
}

/// The first 300 units of an error's message, for a log line.
pub(super) fn error_text(err: &str) -> String {
    text::head(err, 300).to_owned()
}
