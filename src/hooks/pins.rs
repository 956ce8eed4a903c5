//! The person's pins on disk: `<history folder>/.pins.json`, the one place
//! they are kept, so every process of the session (a `--resume`, a rebuilt
//! instance) reads the same ones. The texts are `steer::pins`'.

use super::protocol::{self, Call, Host};
use super::host::{debug, error_text};
use crate::steer::pins;

/// The session's pins; none when the file is not there or unreadable.
pub(super) async fn load(host: &Host, dir: &str) -> Vec<String> {
    let answer = host.call(Call::Read { path: format!("{dir}/{}", pins::FILE) }).await;
    protocol::value::<String>(&answer).map(|t| pins::parse(&t)).unwrap_or_default()
}

/// Writes the pins; the error says why they were not kept.
pub(super) async fn save(host: &Host, dir: &str, list: &[String]) -> Result<(), String> {
    let result = host.call(Call::Write { path: format!("{dir}/{}", pins::FILE), text: pins::to_json(list) }).await;
    if let Err(err) = &result {
        debug(host, &format!("compact-plus: {} was not written: {}", pins::FILE, error_text(err))).await;
    }
    result.map(|_| ())
}
