//! What several hooks ask of the host, typed: a variable, the clock, the
//! session's id, a line to the debug log.

use super::protocol::{self, Call, Host};
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

/// The first 300 units of an error's message, for a log line.
pub(super) fn error_text(err: &str) -> String {
    text::head(err, 300).to_owned()
}
