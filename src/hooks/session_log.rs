//! The session's `log.jsonl`: one line per thing compact-plus did (`compact`,
//! `rescue`, `turn-end-compact`, `instructions-refreshed`, …), its values
//! written as the reference writes them.

use super::host::{debug, error_text, now};
use super::protocol::{self, Call, Host};
use super::state::Session;
use crate::text::{self, stamp};

/// One JSON object with its keys in this order (serde_json's map would sort them).
fn ordered_json(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", serde_json::to_string(k).unwrap_or_default()))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// `JSON.stringify(n)`: a number that is not finite is `null`.
pub(super) fn json_number(n: f64) -> String {
    if n.is_finite() {
        text::number_to_string(n)
    } else {
        "null".into()
    }
}

pub(super) fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Appends one line to the session's `log.jsonl`. A failure costs the line, and
/// says so in the debug log.
pub(super) async fn log(host: &Host, session: &Session, dir: &str, entry: &[(&str, String)]) {
    if let Err(err) = try_log(host, session, dir, entry).await {
        debug(host, &format!("compact-plus: a log.jsonl line was lost: {}", error_text(&err))).await;
    }
}

/// Appends by rewriting the file (`$.fs` has no append). Two hooks may log at
/// once (a turn-end job and a rescue, seen on the real CLI): each appends to the
/// text this process last wrote, kept in the session, so no line overwrites
/// another; a hook whose write was overtaken by a longer text writes again, so
/// the last write to land holds every line.
async fn try_log(host: &Host, session: &Session, dir: &str, entry: &[(&str, String)]) -> Result<(), String> {
    let file = format!("{dir}/log.jsonl");
    let at = stamp::iso(now(host).await?).ok_or("the clock answered no time")?;
    let cached = |session: &Session| session.state.borrow().log_text.as_ref().filter(|(d, _)| d == dir).map(|(_, t)| t.clone());
    let prior = match cached(session) {
        Some(text) => text,
        None => {
            let disk = if protocol::value::<bool>(&host.call(Call::Exists { path: file.clone() }).await)? {
                protocol::value::<String>(&host.call(Call::Read { path: file.clone() }).await)?
            } else {
                String::new()
            };
            // Another hook may have read and written meanwhile: its text is the newer.
            cached(session).unwrap_or(disk)
        }
    };
    let mut fields = vec![("at", json_str(&at))];
    fields.extend(entry.iter().cloned());
    let mut text = format!("{prior}{}\n", ordered_json(&fields));
    session.state.borrow_mut().log_text = Some((dir.to_owned(), text.clone()));
    loop {
        let written = text.len();
        host.call(Call::Write { path: file.clone(), text }).await.map(|_| ())?;
        match cached(session) {
            Some(now) if now.len() > written => text = now,
            _ => return Ok(()),
        }
    }
}
