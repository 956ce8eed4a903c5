//! What the hooks share: the host calls several of them make (the home folder,
//! the clock, the session's `log.jsonl`, the debug log, the blocks kept in
//! `pending-blocks.json` and the words in `.verbatim.json`), and values written
//! as the reference writes them.

use super::state::{Pending, Session};
use super::protocol::{self, Call, Host};
use crate::compaction::history;
use crate::message::JsVal;
use crate::text::{self, stamp};

/// `Number(v ?? fallback)`.
pub(super) fn number_or(v: &JsVal, fallback: f64) -> f64 {
    match v {
        JsVal::Undefined | JsVal::Null => fallback,
        JsVal::Num(n) => *n,
        JsVal::Bool(b) => f64::from(u8::from(*b)),
        JsVal::Str(s) => {
            let t = text::trim(s);
            if t.is_empty() {
                0.0
            } else {
                t.parse().unwrap_or(f64::NAN)
            }
        }
        JsVal::Array(_) | JsVal::Object => f64::NAN,
    }
}

pub(super) async fn env(host: &Host, name: &'static str) -> Result<Option<String>, String> {
    protocol::value::<Option<String>>(&host.call(Call::Env { name }).await)
}

pub(super) async fn now(host: &Host) -> Result<f64, String> {
    protocol::value::<f64>(&host.call(Call::Now).await)
}

pub(super) async fn session_id(host: &Host) -> Result<JsVal, String> {
    protocol::value::<JsVal>(&host.call(Call::SessionId).await)
}

/// `<home>/.claude/compact-history/<session id>`, or `None` with no home.
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

/// One line to the debug log; nothing to do if it fails.
pub(super) async fn debug(host: &Host, text: &str) {
    let _ = host.call(Call::Debug { text: text.to_owned() }).await;
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

/// The first 300 units of an error's message, for the log.
pub(super) fn error_text(err: &str) -> String {
    text::head(err, 300).to_owned()
}

/// Where a compaction's blocks wait on disk until they reach the model: after a
/// terminal `/compact` nothing carries them but the next prompt's context, and a
/// person who leaves right after it resumes in a new process (`--resume`).
const PENDING_FILE: &str = "pending-blocks.json";

/// Keeps `blocks` (or, with `None`, that nothing waits) in the session's folder.
/// A failed write costs the blocks a later process could have delivered.
pub(super) async fn keep_pending(host: &Host, dir: &str, blocks: Option<&Pending>) {
    let text = blocks.map(|b| serde_json::to_string(b).unwrap_or_default()).unwrap_or_default();
    keep(host, dir, PENDING_FILE, text).await;
}

/// Writes one of the session's files; a failure costs that file, and says so.
async fn keep(host: &Host, dir: &str, name: &str, text: String) {
    if let Err(err) = host.call(Call::Write { path: format!("{dir}/{name}"), text }).await {
        debug(host, &format!("compact-plus: {name} was not written: {}", error_text(&err))).await;
    }
}

/// The blocks an earlier process of this session kept and did not deliver:
/// `Pending`, or the list of finished texts an older compact-plus kept. Read
/// without asking first whether the file is there: a missing one rejects, which
/// costs nothing, and the first prompt.context of a session saves a round trip.
pub(super) async fn pending_on_disk(host: &Host) -> Option<(String, Pending)> {
    let dir = history_dir(host).await.ok()??;
    let path = format!("{dir}/{PENDING_FILE}");
    let text: String = protocol::value(&host.call(Call::Read { path }).await).ok()?;
    let pending = match serde_json::from_str::<Pending>(&text) {
        Ok(p) => p,
        Err(_) => Pending { blocks: serde_json::from_str(&text).ok()?, ..Pending::default() },
    };
    (!pending.is_empty()).then_some((dir, pending))
}

/// Where the person's words the last compaction carried wait for the next one,
/// for a resumed process (`Carried::verbatim`): the terminal's block is no
/// message the next compaction could read it back from. Hidden, one word a line:
/// the history files beside it hold the same words, and the pointer's `rg`
/// (which skips hidden files) should find each once, not a second time in a
/// line of every word at once.
const VERBATIM_FILE: &str = ".verbatim.json";

/// Keeps the words the compaction carried (redacted). A failed write costs a
/// resumed process those words (it reads the messages instead).
pub(super) async fn keep_words(host: &Host, dir: &str, words: &[String]) {
    let lines: Vec<String> = words.iter().map(|w| json_str(w)).collect();
    keep(host, dir, VERBATIM_FILE, format!("[\n{}\n]\n", lines.join(",\n"))).await;
}

/// The words the last compaction of this session carried: the session state's,
/// else what an earlier process kept on disk; `None` when neither knows
/// (then the newest block in the messages tells).
pub(super) async fn carried_words(host: &Host, session: &Session, dir: Option<&str>) -> Option<Vec<String>> {
    if let Some(words) = session.carried().verbatim.clone() {
        return Some(words);
    }
    // One call: a file that is not there rejects.
    let text: String = protocol::value(&host.call(Call::Read { path: format!("{}/{VERBATIM_FILE}", dir?) }).await).ok()?;
    serde_json::from_str(&text).ok()
}
