//! `session.end`: the conversation is over, in this process at least.
//!
//! A `/clear` ends it and goes on under a new session id with no
//! `session.start` (claude-code.d.ts, `SessionEndInput`), and so does a
//! `/resume` of another session: the next conversation starts clean. Nothing of
//! the old one reaches it: its pending blocks, the words it carried, its usage
//! figures, a prompt-too-long or a rescue it had (`Carried::conversation_ended`
//! says field by field). The blocks and words stay on disk in the old
//! session's folder, for a `--resume` of it.

use std::rc::Rc;

use super::protocol::{Done, Host};
use super::state::Session;

pub(super) async fn session_end(_host: Host, session: Rc<Session>) -> Done {
    session.carried_mut().conversation_ended();
    Done::PassThrough
}
