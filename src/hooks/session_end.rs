//! `session.end`: the conversation is over, in this process at least.
//!
//! A `/clear` ends it and goes on under a new session id with no
//! `session.start` (claude-code.d.ts, `SessionEndInput`): blocks still pending
//! from the old conversation must not reach the new one's first request. They
//! stay on disk in the old session's folder, for a `--resume` of it.

use std::rc::Rc;

use super::protocol::{Done, Host};
use super::state::Session;

pub(super) async fn session_end(_host: Host, session: Rc<Session>) -> Done {
    let mut carried = session.carried_mut();
    carried.pending = None;
    carried.row_only = false;
    // A session that goes on in this process (a resume) has its own folder to look in.
    carried.disk_read = false;
    // A failed summarizer's cool-down is the old conversation's.
    carried.cool_down = None;
    Done::pass_through()
}
