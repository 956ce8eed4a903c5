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
//! recall tool's `tool.call`, `session_end`), `rescue` (compact-plus's own
//! compaction where the engine's failed), `saved` (what a compaction saves
//! beside its summary, the engine's or the rescue's), and what several hooks
//! use: `host` (the clock, a variable, the session id, the debug log),
//! `history_folder` (where the session's history goes), `session_log` (its
//! `log.jsonl`) and `waiting` (what waits there for a resumed process). What
//! the person sees and steers, whose texts are `crate::steer`'s: `command`
//! (`command.run` for `/pin`, `/unpin`, `/recall`), `pins` (the pins on
//! disk) and `brief` (a new session's brief from an earlier one).

mod brief;
mod command;
mod history_folder;
mod host;
mod pins;
mod prompt_context;
pub mod protocol;
mod recall;
mod rescue;
mod saved;
mod session_append;
mod session_compact;
mod session_end;
mod session_log;
mod state;
mod turn_end;
mod waiting;

pub use protocol::{Call, Done, Host};
pub use state::{Carried, Channel, Options, Pending, Queued, Session, State};

/// The hooks whose `next` the shim starts with the event as it came before it
/// starts the core on them, whatever the state: the engine's own work runs
/// while the module compiles (at start-up, measured 120–240 ms in the real
/// host). Their first call is always [`Call::NextResult`] (`tests/hooks.rs`
/// holds each of them to it). The build writes the list into pkg/
/// (`NEXT_FIRST`).
pub const NEXT_FIRST: [&str; 2] = ["prompt.context", "turn.complete"];

use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;

use crate::message;
use crate::step::{on_wire, read_answers, Answers, OnWire};
use protocol::{Job, Machine, Step};
use session_compact::CompactEvent;

/// Texts longer than this go through the outbox instead of the step's JSON.
const OUTBOX_MIN: usize = 4096;
/// At most this many hooks in flight; an older one was abandoned by its shim.
const MAX_MACHINES: usize = 64;

/// Past this much linear memory, the shim rebuilds the instance (its state
/// carried) once no hook is in flight: wasm memory only grows, and one large
/// compaction would otherwise keep its peak for the rest of the process.
const HAND_BACK_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

/// Why a step has no hook to go on with (`Wire::Lost`).
const NO_SUCH_HOOK: &str = "no such hook";
/// The id's hook was lost: to a rebuilt instance, or given up by its shim.
const NOT_IN_FLIGHT: &str = "no hook of this id in flight";
/// The hook waits with nothing asked, so no answer can resume it (a bug).
const STALLED: &str = "stalled";

/// The hooks of one loaded module: options, session state, hooks in flight.
pub struct Core {
    /// Long texts of the last step's writes, taken by the shim one by one.
    outbox: Vec<Option<String>>,
    session: Rc<Session>,
    /// By id, ascending: at most [`MAX_MACHINES`], so a sorted list. A `BTreeMap` of machines
    /// was 7.8 KB of the .wasm (its node code for this key and value, measured with twiggy).
    machines: Vec<(u32, Machine<Done>)>,
    next_id: u32,
    /// The carried state as the shim last got it (`carry`), to send it again
    /// only when it changed.
    sent: Option<Carried>,
    /// The instance's linear memory in bytes (`Core::measuring`; none natively).
    memory: fn() -> f64,
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
        /// The memory to hand back (bytes): the shim rebuilds the instance now.
        #[serde(rename = "handBack", skip_serializing_if = "Option::is_none")]
        hand_back: Option<f64>,
    },
    /// No hook to go on with, and why: the shim lets the engine's result
    /// through and says so in the debug log.
    Lost {
        lost: &'static str,
    },
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
            machines: Vec::new(),
            next_id: first_id.max(1),
            sent,
            memory: || 0.0,
        }
    }

    /// This core, reading its instance's memory with `memory` (the wasm
    /// build's), to say when to hand it back.
    pub fn measuring(self, memory: fn() -> f64) -> Core {
        Core { memory, ..self }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    fn machine(&self, hook: &str, event: &str) -> Option<Machine<Done>> {
        let s = self.session.clone();
        Some(match hook {
            "session.compact" => {
                let e: CompactEvent = message::parse_event(event);
                Machine::new(move |h| session_compact::session_compact(h, s, e))
            }
            "session.append" => {
                let e = message::parse_event(event);
                Machine::new(move |h| session_append::session_append(h, s, e))
            }
            "prompt.context" => {
                let e = message::parse_event(event);
                Machine::new(move |h| prompt_context::prompt_context(h, s, e))
            }
            "turn.complete" => {
                let e = message::parse_event(event);
                Machine::new(move |h| turn_end::turn_complete(h, s, e))
            }
            _ if hook == Job::TurnEnd.name() => Machine::new(move |h| turn_end::turn_end(h, s)),
            "session.end" => Machine::new(move |h| session_end::session_end(h, s)),
            "command.run" => {
                let e = event.to_owned();
                Machine::new(move |h| command::command_run(h, s, e))
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
            None => wire(&Wire::Lost { lost: NO_SUCH_HOOK }),
        }
    }

    /// Resumes hook `id` with the answers (JSON) to its last calls.
    pub fn resume(&mut self, id: u32, answers: &str) -> String {
        match self.take_machine(id) {
            Some(m) => {
                let answers = read_answers(answers, m.asked(), Vec::new());
                self.run(id, m, Some(answers))
            }
            None => wire(&Wire::Lost { lost: NOT_IN_FLIGHT }),
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
        self.take_machine(id);
    }

    /// Hook `id`'s machine, out of those in flight.
    fn take_machine(&mut self, id: u32) -> Option<Machine<Done>> {
        let at = self.machines.binary_search_by_key(&id, |(k, _)| *k).ok()?;
        Some(self.machines.remove(at).1)
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
                    self.machines.remove(0);
                }
                match self.machines.binary_search_by_key(&id, |(k, _)| *k) {
                    Ok(at) => {
                        if let Some(slot) = self.machines.get_mut(at) {
                            slot.1 = m;
                        }
                    }
                    Err(at) => self.machines.insert(at, (id, m)),
                }
                (out, carry.is_some())
            }
            Step::Done(done) => {
                // No other hook in flight: none loses its machine to the rebuild.
                let bytes = (self.memory)();
                let hand_back = (self.machines.is_empty() && bytes > HAND_BACK_BYTES).then_some(bytes);
                (wire(&Wire::Done { done: &done, carry, hand_back }), carry.is_some())
            }
            Step::Stalled => (wire(&Wire::Lost { lost: STALLED }), false),
        };
        if carried_out {
            self.sent = Some(carried);
        }
        out
    }
}

fn wire(w: &Wire) -> String {
    serde_json::to_string(w).unwrap_or_else(|_| r#"{"lost":"its step would not serialize"}"#.into())
}
