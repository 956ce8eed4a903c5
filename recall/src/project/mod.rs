//! Scope `project`: this project's earlier sessions, whatever tool ran them.
//! The walk names the files; they are read one read at a time, each read's
//! lines handed to what the call wants and then dropped, so the memory is one
//! read and the answer's, whatever the number of files.
//!
//! Messages are numbered by their line in the session's record as read (its
//! line number, for a session read whole; past an unread middle the count goes
//! on from the part read first); a saved summary comes after its session's
//! lines. A search and a message read in full number alike.
//!
//! - [`reader`]: what each of them does with the lines read, and the lines
//!   skipped.
//! - [`search`]: a search of them (lines tested for the terms first).
//! - [`sessions`]: the sessions view (every line glanced at, to count).
//! - [`message`]: one message in full.

mod message;
mod reader;
mod search;
mod sessions;
#[cfg(test)]
mod tests;

use compact_plus::recall_tool::Project;
use compact_plus::step::{value, Host};

use crate::lines::Joiner;
use crate::look::Look;
use crate::terms::Terms;
use crate::walk::{walk, Plan};
use reader::Reader;

/// The machine for scope `project`: the walk, then the reads.
pub async fn recall(host: Host<Look>, project: Project, history_dir: String) -> String {
    let plan = match walk(&host, &project, &history_dir).await {
        Ok(plan) => plan,
        Err(answer) => return answer,
    };
    let out = match project {
        Project::Sessions { .. } => {
            let mut view = sessions::SessionsView::new(&plan.cwd);
            read(&host, &plan, &mut view).await;
            view.answer()
        }
        Project::Search { query, .. } => {
            let terms = match Terms::new(&query) {
                Ok(t) => t,
                Err(why) => return why,
            };
            let mut found = search::ProjectSearch::new(terms, query, &plan.cwd);
            read(&host, &plan, &mut found).await;
            found.answer()
        }
        Project::Message { session, message, offset } => {
            let mut more = message::ReadMore::new(&session, message, offset, &plan.cwd);
            read(&host, &plan, &mut more).await;
            return more.answer();
        }
    };
    with_notes(out, &plan)
}

/// The notes of what the bounds left out, while they fit.
fn with_notes(mut out: String, plan: &Plan) -> String {
    for note in &plan.notes {
        if out.encode_utf16().count() + note.len() + 2 < crate::text::MAX_ANSWER {
            out.push('\n');
            out.push_str(note);
        }
    }
    out
}

/// Reads the plan's files one read at a time into `reader`.
async fn read(host: &Host<Look>, plan: &Plan, reader: &mut impl Reader) {
    for file in &plan.files {
        if reader.full() {
            return;
        }
        if !reader.start(file) {
            continue;
        }
        let mut joiner = Joiner::new(file.size);
        let mut unread = false;
        for span in file.spans.iter().flat_map(|s| s.chunks()) {
            if reader.full() {
                break;
            }
            let look = Look::ReadSpan { path: file.path.clone(), offset: span.offset, length: span.length };
            let answer = host.call(look).await;
            let Ok(text) = host.text(0).map_or_else(|| value::<String>(&answer), Ok) else {
                unread = true;
                break;
            };
            reader.lines(file, joiner.take(span, &text));
        }
        reader.end(file, unread);
    }
}
