//! `tool.call` for the recall tool: whether it runs, and what the recall module
//! (`recall/`) is handed; the reading and the search are the module's own.
//!
//! Scope `session` searches this session's history parts, listed here so a
//! session with nothing saved is answered without loading the module. Scope
//! `project` reads this project's earlier sessions: which files those are is
//! the module's walk, so the compaction path's module does not carry it; the
//! core decides whether it runs at all (options `recallTool` and
//! `recallScope`) and where this session's history is.

use std::rc::Rc;

use super::protocol::{self, Call, Done, Host};
use super::history_folder::history_dir;
use super::state::Session;
use crate::prune;
use crate::recall_tool::{self, Reach, Recall, Request};

const NOTHING_SAVED: &str = "recall: nothing has been saved in this session yet: the history is written at each compaction, and this session has not compacted (or has no home folder to write to). Earlier sessions of this project: scope \"project\".";

fn recall(request: Recall) -> Done {
    Done::Search { request }
}

/// What the recall module is handed; a bad input, or nothing to read, is
/// answered here.
pub(super) async fn recall_files(host: Host, session: Rc<Session>, raw: String) -> Done {
    if session.options.recall == Reach::Off {
        return Done::answer("recall: the recall tool is turned off (option recallTool).");
    }
    let query = match recall_tool::parse_input(&raw) {
        Ok(Request::Session(query)) => query,
        Ok(Request::Project(project)) => {
            if session.options.recall != Reach::Project {
                return Done::answer("recall: only this session's history is searched here (option recallScope is \"session\"); give a query.");
            }
            let Ok(Some(history_dir)) = history_dir(&host).await else {
                return Done::answer("recall: no home folder, so no earlier sessions to read.");
            };
            return recall(Recall::Project { project, history_dir });
        }
        Err(why) => return Done::answer(&why),
    };
    let Ok(Some(dir)) = history_dir(&host).await else { return Done::answer(NOTHING_SAVED) };
    let Ok(entries) = protocol::value::<Vec<prune::FolderEntry>>(&host.call(Call::List { path: dir.clone() }).await) else {
        return Done::answer(NOTHING_SAVED);
    };
    let mut names: Vec<&str> = entries
        .iter()
        .filter(|e| e.kind == "file" && recall_tool::is_history_file(&e.name))
        .map(|e| e.name.as_str())
        .collect();
    if names.is_empty() {
        return Done::answer(NOTHING_SAVED);
    }
    names.sort_unstable();
    let paths = names.iter().map(|n| format!("{dir}/{n}")).collect();
    recall(Recall::Session { paths, query })
}
