//! What waits in the session's folder for a later process of the session (a
//! `--resume`): the blocks no channel has delivered yet (`pending-blocks.json`)
//! and the person's words the last compaction carried (`.verbatim.json`).

use super::history_folder::history_dir;
use super::host::{debug, error_text};
use super::protocol::{self, Call, Host};
use super::session_log::json_str;
use super::state::{Pending, Session};

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
