//! `tool.call` for the recall tool: which files to search, and for what; the
//! search itself is the recall module's (`recall/`).
//!
//! Scope `session` searches this session's history parts. Scope `project`
//! reads this project's earlier sessions: which files those are is the recall
//! module's walk (`recall/src/walk.rs`), so the compaction path's module does
//! not carry it; the core decides whether it runs at all (options `recallTool`
//! and `recallScope`) and where this session's history is.

use std::rc::Rc;

use super::protocol::{self, Call, Done, Host, Project, Search};
use super::shared::history_dir;
use super::state::Session;
use crate::prune;
use crate::recall_tool::{self, Scope};

const NOTHING_SAVED: &str = "recall: nothing has been saved in this session yet: the history is written at each compaction, and this session has not compacted (or has no home folder to write to). Earlier sessions of this project: scope \"project\".";

/// Which files the recall tool searches, and for what; a bad input is
/// answered here.
pub(super) async fn recall_files(host: Host, session: Rc<Session>, raw: String) -> Done {
    if !session.options.recall_tool {
        return Done::answer("recall: the recall tool is turned off (option recallTool).");
    }
    let input = match recall_tool::parse_input(&raw) {
        Ok(i) => i,
        Err(why) => return Done::answer(&why),
    };
    if input.scope == Scope::Project || input.query.is_none() {
        if !session.options.recall_project {
            return Done::answer("recall: only this session's history is searched here (option recallScope is \"session\"); give a query.");
        }
        let Ok(Some(history)) = history_dir(&host).await else {
            return Done::answer("recall: no home folder, so no earlier sessions to read.");
        };
        let query = recall_tool::Query { text: String::new(), regex: false, role: None, limit: 0 };
        let project = Project { input: raw, history_dir: history };
        return Done { search: Some(Search { paths: Vec::new(), query, project: Some(project) }), ..Done::pass_through() };
    }
    let Some(query) = input.query else { return Done::answer(NOTHING_SAVED) };
    let Ok(Some(dir)) = history_dir(&host).await else { return Done::answer(NOTHING_SAVED) };
    let Ok(entries) = protocol::value::<Vec<prune::Entry>>(&host.call(Call::List { path: dir.clone() }).await) else {
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
    Done { search: Some(Search { paths, query, project: None }), ..Done::pass_through() }
}
