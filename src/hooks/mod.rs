//! The hooks: every decision compact-plus makes in a session, made here and
//! performed by the shim (`js/compact-plus.js`).
//!
//! A sans-IO driver on the step protocol ([`crate::step`], which the recall
//! module's calls run on too). The engine fires a hook in the shim; the shim
//! starts it here ([`Core::start`]) on the event as JSON. A hook is an `async
//! fn` over a [`Host`]: each `$` call it awaits suspends it, and the step's
//! answer to the shim (`Wire`) lists the [`Call`]s to perform, each with the
//! wait the shim gives it. The shim performs exactly those and resumes the
//! hook with their answers ([`Core::resume`]), until the hook ends in a
//! [`Done`]. Nothing here does I/O, so a native test plays the shim and the
//! host (`tests/hooks.rs`).
//!
//! What the hooks promise: errors are values, and a failed call costs only what
//! depended on it; every hook ends in a [`Done`], and the engine's own result
//! comes through it (the shim calls `next` itself where a hook did not); the
//! session state that must outlive a rebuilt instance ([`Carried`]) goes to the
//! shim with the step that changed it.
//!
//! The parts: [`protocol`] (the hooks' calls, how long each is waited for, and
//! how a hook ends), `state` (options and session state), one file per
//! hook (`session_compact`, `session_append`, `prompt_context`, `turn_end` for
//! `turn.complete` and the turn-end compaction it starts, `recall` for the
//! recall tool's `tool.call`, `rescue` for compact-plus's own compaction where
//! the engine's failed), `gathered` (what a compaction gathers for the blocks
//! after its summary, the engine's or the rescue's) and `shared` (the calls
//! they share); `command` (the person's `/pin`, `/unpin`, `/recall`), `pins`
//! (the pins on disk) and `brief` (a new session's brief from an earlier one),
//! whose texts are `crate::steer`'s.

mod brief;
mod command;
mod gathered;
mod pins;
mod prompt_context;
pub mod protocol;
mod recall;
mod rescue;
mod session_append;
mod session_compact;
mod session_end;
mod shared;
mod state;
mod turn_end;

pub use protocol::{Call, Done, Host};
pub use state::{Carried, Channel, Options, Pending, Queued, Session, State};

/// The hooks whose first call is always `next` with the event as it came,
/// whatever the state: the shim may start that `next` before the core is ready
/// (the compile at start-up, measured 120–240 ms in the real host), so the
/// engine's own work runs meanwhile, and hands its answer to the core's first
/// call (`tests/hooks.rs` holds each of them to it). The build writes the list
/// into pkg/ (`NEXT_FIRST`).
pub const NEXT_FIRST: [&str; 2] = ["prompt.context", "turn.complete"];

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::message;
use crate::text;
use crate::step::{on_wire, read_answers, Answers, OnWire};
use protocol::{Machine, Step};
use session_compact::CompactEvent;

/// Texts longer than this go through the outbox instead of the step's JSON.
const OUTBOX_MIN: usize = 4096;
/// At most this many hooks in flight; an older one was abandoned by its shim.
const MAX_MACHINES: usize = 64;

/// The hooks of one loaded module: options, session state, hooks in flight.
pub struct Core {
    /// Long texts of the last step's writes, taken by the shim one by one.
    outbox: Vec<Option<String>>,
    session: Rc<Session>,
    machines: BTreeMap<u32, Machine<Done>>,
    next_id: u32,
    /// The carried state as the shim last got it (`carry`), to send it again
    /// only when it changed.
    sent: Option<Carried>,
}

/// One step's answer to the shim, as JSON. `carry` is the session state to keep
/// across a rebuild, present when it changed since the last step.
#[derive(Serialize)]
#[serde(untagged)]
enum Wire<'a> {
    Ask {
        id: u32,
        calls: Vec<OnWire<'a, Call>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        carry: Option<&'a Carried>,
    },
    Done {
        done: &'a Done,
        #[serde(skip_serializing_if = "Option::is_none")]
        carry: Option<&'a Carried>,
    },
    /// Nothing to run (an unknown hook or id) or a hook that asked nothing: the
    /// shim lets the engine's result through.
    Stuck {
        stuck: bool,
    },
}

fn parse_event<T: for<'de> Deserialize<'de> + Default>(json: &str) -> T {
    let json = text::well_formed_json(json);
    serde_json::from_str::<message::Lenient<T>>(&json).ok().and_then(|l| l.0).unwrap_or_default()
}

impl Core {
    pub fn new(options: Options) -> Core {
        Core::rebuilt(options, "", 1)
    }

    /// A core that goes on where a lost instance stopped: its carried state (the
    /// JSON of a `carry`; anything unreadable starts the state over), and ids
    /// from `first_id` on, so no answer meant for a lost hook reaches a new one.
    pub fn rebuilt(options: Options, carried_json: &str, first_id: u32) -> Core {
        // What the shim holds (`""` stands for the default state); a change made
        // here goes out with the first step.
        let given = serde_json::from_str::<Carried>(carried_json).unwrap_or_default();
        let mut carried = given.clone();
        // No hook outlives a rebuild: a turn-end job that had disarmed and not
        // yet queued its /compact is gone, and nothing else would arm again (a
        // /compact already queued does, when it runs).
        carried.turn_end_armed |= carried.queued.is_none();
        let sent = Some(given);
        let state = State { carried, ..State::default() };
        Core {
            outbox: Vec::new(),
            session: Rc::new(Session { options, state: RefCell::new(state) }),
            machines: BTreeMap::new(),
            next_id: first_id.max(1),
            sent,
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    fn machine(&self, hook: &str, event: &str) -> Option<Machine<Done>> {
        let s = self.session.clone();
        Some(match hook {
            "session.compact" => {
                let e: CompactEvent = parse_event(event);
                Machine::new(move |h| session_compact::session_compact(h, s, e))
            }
            "session.append" => {
                let e = parse_event(event);
                let raw = event.to_owned();
                Machine::new(move |h| session_append::session_append(h, s, e, raw))
            }
            "prompt.context" => {
                let e = parse_event(event);
                Machine::new(move |h| prompt_context::prompt_context(h, s, e))
            }
            "turn.complete" => {
                let e = parse_event(event);
                Machine::new(move |h| turn_end::turn_complete(h, s, e))
            }
            "turn-end" => Machine::new(move |h| turn_end::turn_end(h, s)),
            "session.end" => Machine::new(move |h| session_end::session_end(h, s)),
            "command.run" => {
                let e: serde_json::Value = serde_json::from_str(&text::well_formed_json(event)).unwrap_or_default();
                let field = |k: &str| e.get(k).and_then(serde_json::Value::as_str).unwrap_or("").to_owned();
                let (name, args) = (field("command"), field("args"));
                Machine::new(move |h| command::command_run(h, s, name, args))
            }
            "tool.call" => {
                let input = event.to_owned();
                Machine::new(move |h| recall::recall_files(h, s, input))
            }
            _ => return None,
        })
    }

    /// Starts a hook on its event (JSON); answers the first step (JSON).
    pub fn start(&mut self, hook: &str, event: &str) -> String {
        match self.machine(hook, event) {
            Some(m) => {
                let id = self.next_id;
                self.next_id = self.next_id.wrapping_add(1).max(1);
                self.run(id, m, None)
            }
            None => wire(&Wire::Stuck { stuck: true }),
        }
    }

    /// Resumes hook `id` with the answers (JSON) to its last calls.
    pub fn resume(&mut self, id: u32, answers: &str) -> String {
        match self.machines.remove(&id) {
            Some(m) => {
                let answers = read_answers(answers, m.asked(), Vec::new());
                self.run(id, m, Some(answers))
            }
            None => wire(&Wire::Stuck { stuck: true }),
        }
    }

    /// `resume`, with the UTF-8 texts a `pack` call answers beside its JSON.
    pub fn resume_packed(&mut self, id: u32, answers: &str, texts: Vec<u8>) -> String {
        self.session.state.borrow_mut().inbox = Some(texts);
        let out = self.resume(id, answers);
        self.session.state.borrow_mut().inbox = None;
        out
    }

    /// The text of a `write` call's `textRef`, once; `""` for any other number.
    pub fn take_text(&mut self, text_ref: usize) -> String {
        self.outbox.get_mut(text_ref).and_then(Option::take).unwrap_or_default()
    }

    /// Forgets hook `id` (its `next` rejected, or the shim gave up on it).
    pub fn cancel(&mut self, id: u32) {
        self.machines.remove(&id);
    }

    fn run(&mut self, id: u32, mut m: Machine<Done>, answers: Option<Answers>) -> String {
        self.outbox.clear();
        let step = m.resume(answers);
        let carried = self.session.carried().clone();
        let carry = (self.sent.as_ref() != Some(&carried)).then_some(&carried);
        let (out, carried_out) = match step {
            Step::Ask(mut calls) => {
                for call in calls.iter_mut() {
                    if let Call::Write { path, text } = call {
                        if text.len() > OUTBOX_MIN {
                            let text_ref = self.outbox.len();
                            self.outbox.push(Some(std::mem::take(text)));
                            *call = Call::WriteRef { path: std::mem::take(path), text_ref };
                        }
                    }
                }
                let out = wire(&Wire::Ask { id, calls: on_wire(&calls), carry });
                if self.machines.len() >= MAX_MACHINES {
                    self.machines.pop_first();
                }
                self.machines.insert(id, m);
                (out, carry.is_some())
            }
            Step::Done(done) => (wire(&Wire::Done { done: &done, carry }), carry.is_some()),
            Step::AskedNothing => (wire(&Wire::Stuck { stuck: true }), false),
        };
        if carried_out {
            self.sent = Some(carried);
        }
        out
    }
}

fn wire(w: &Wire) -> String {
    serde_json::to_string(w).unwrap_or_else(|_| r#"{"stuck":true}"#.into())
}
