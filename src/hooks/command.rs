//! `command.run` for compact-plus's own slash commands (`steer::command`):
//! `/pin`, `/unpin` and `/recall`, each answered for the person alone and
//! without `next`, so no model turn is spent on them (measured on 2.1.328:
//! `num_turns` 0, no request). `session.append` at door `command` rewrites
//! their rows (`session_append`).

use std::rc::Rc;

use super::history_folder::history_dir;
use super::host::error_text;
use super::protocol::{self, Call, Done, Host};
use super::session_log::{json_str, log};
use super::state::Session;
use super::waiting::keep_pending;
use super::{pins, recall};
use crate::recall_tool::Reach;
use crate::steer::{self, command::Command, pins::Edit};
use crate::text;


fn shown(text: String) -> Done {
    Done::Reply { text }
}

/// `command.run`'s event (`{ command, args, … }`, JSON): the command's name and its arguments as typed.
pub(super) async fn command_run(host: Host, session: Rc<Session>, event: String) -> Done {
    let e = serde_json::from_str::<serde_json::Value>(&text::well_formed_json(&event)).unwrap_or_default();
    let field = |k: &str| e.get(k).and_then(serde_json::Value::as_str).unwrap_or("");
    let args = text::trim(field("args"));
    let command = match Command::named(field("command")) {
        Some(Command::Recall) => return find(&host, &session, args).await,
        Some(c) => c,
        None => return Done::PassThrough,
    };
    let Ok(Some(dir)) = history_dir(&host).await else { return shown(steer::pins::NO_HOME.into()) };
    let mut list = pins::load(&host, &dir).await;
    let (answer, change) = match command {
        Command::Pin => steer::pins::pin(&mut list, args, &|t| session.clean(t)),
        _ => steer::pins::unpin(&mut list, args),
    };
    if change == Edit::None {
        return shown(answer);
    }
    if let Err(err) = pins::save(&host, &dir, &list).await {
        return shown(format!("not done: the pins could not be written ({}).", error_text(&err)));
    }
    match &change {
        // A pin in the blocks still waiting for the model goes too, so the next
        // context has exactly the pins left.
        Edit::Removed(gone) => {
            let waiting = session.carried_mut().pending.as_mut().map(|p| {
                p.pins.retain(|pin| !gone.contains(pin));
                p.clone()
            });
            if let Some(p) = waiting {
                keep_pending(&host, &dir, (!p.is_empty()).then_some(&p)).await;
            }
        }
        // The log line keeps a folder that holds pins alone from being pruned
        // while the session goes on (pruning reads `log.jsonl`'s time).
        _ => log(&host, &session, &dir, &[("event", json_str("pin")), ("pins", list.len().to_string())]).await,
    }
    shown(answer)
}

/// `/recall <words>`: the recall tool's searches, this session's then the
/// project's, through the tool's own request path; the answer is the person's.
async fn find(host: &Host, session: &Rc<Session>, query: &str) -> Done {
    if query.is_empty() {
        return shown("/recall <words> searches this session's saved history and this project's earlier sessions, for you alone.".into());
    }
    if session.options.recall == Reach::Off {
        return shown("recall is turned off (option recallTool): nothing was searched.".into());
    }
    let mut answers = Vec::new();
    for input in steer::recall::inputs(query, session.options.recall == Reach::Project) {
        let done = recall::recall_files(host.clone(), session.clone(), input).await;
        let text = match done {
            Done::Answer { text } => text,
            Done::Search { request } => protocol::value::<String>(&host.call(Call::Search { request }).await)
                .unwrap_or_else(|err| format!("recall: the search failed: {}", error_text(&err))),
            _ => "recall: nothing to search.".into(),
        };
        answers.push(text);
    }
    let session_answer = answers.first().map_or("", String::as_str);
    shown(steer::recall::answer(query, session_answer, answers.get(1).map(String::as_str)))
}
