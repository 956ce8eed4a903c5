//! Scope `session`: what earlier compactions of this session moved out of the
//! context, found again without a shell.
//!
//! The history files are the markdown the core's `history` writes: a header,
//! then per message a `## [n] role` line and its text, then per tool call a
//! `### tool <Name>` section (input, result). A message too large for one part
//! goes on in the next part under `## [n] role (continued)`, so the parts of
//! one compaction are read as one stream and such a message stays one message.
//!
//! The parts are read one at a time, oldest compaction first, and each is
//! dropped once scanned: what is kept is the best `limit` messages, each with
//! its excerpt taken when it was found, and the true totals. A hit inside the
//! recall tool's own earlier calls ranks below every other: an earlier answer
//! is never the top hit for what it quoted.
//!
//! - [`scan`]: one part's lines into the messages' tallies.
//! - [`render`]: the answer.

mod render;
mod scan;
#[cfg(test)]
mod tests;

use compact_plus::recall_tool::Query;
use compact_plus::step::{value, Host};

use crate::look::Look;
use crate::terms::Terms;
pub use scan::HistoryScan;

/// The machine for scope `session`: reads each history part in turn and
/// answers the search of them.
pub async fn search(host: Host<Look>, paths: Vec<String>, query: Query) -> String {
    let terms = match Terms::new(&query) {
        Ok(t) => t,
        Err(why) => return why,
    };
    let mut scan = HistoryScan::new(terms, query, &paths);
    for (k, path) in scan.reading_order() {
        let answer = host.call(Look::Read { path }).await;
        match host.text(0).map_or_else(|| value::<String>(&answer), Ok) {
            Ok(text) => scan.part(k, &text),
            Err(_) => scan.unread(k),
        }
    }
    render::answer(scan.finish())
}

/// The search over files at hand (`(path, text)`, any order), as the machine
/// reads them.
pub fn search_files(files: &[(String, String)], query: &Query) -> String {
    let terms = match Terms::new(query) {
        Ok(t) => t,
        Err(why) => return why,
    };
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut scan = HistoryScan::new(terms, query.clone(), &paths);
    for (k, path) in scan.reading_order() {
        if let Some((_, text)) = files.iter().find(|(p, _)| *p == path) {
            scan.part(k, text);
        }
    }
    render::answer(scan.finish())
}
