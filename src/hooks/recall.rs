//! `tool.call` for the recall tool: which of this session's history files to
//! search, and for what; the search itself is the recall module's (`recall/`).

use std::rc::Rc;

use super::protocol::{self, Call, Done, Host, Search};
use super::shared::history_dir;
use super::state::Session;
use crate::{prune, recall_tool};

const NOTHING_SAVED: &str = "recall: nothing has been saved in this session yet: the history is written at each compaction, and this session has not compacted (or has no home folder to write to).";

/// Which files the recall tool searches (this session's history parts, oldest
/// first), and for what; a bad input is answered here.
pub(super) async fn recall_files(host: Host, session: Rc<Session>, input: String) -> Done {
    if !session.options.recall_tool {
        return Done::answer("recall: the recall tool is turned off (option recallTool).");
    }
    let query = match recall_tool::parse_query(&input) {
        Ok(q) => q,
        Err(why) => return Done::answer(&why),
    };
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
    Done { search: Some(Search { paths, query }), ..Done::pass_through() }
}
