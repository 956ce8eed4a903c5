//! What the hooks know of the session: the options the mod was registered with,
//! and the state that lasts from one hook to the next ([`Carried`] outlives a
//! rebuilt instance; the rest of [`State`] does not). Part of it belongs to the
//! conversation and ends with it at `/clear` ([`Carried::conversation_ended`]).

use serde::{Deserialize, Serialize};
use std::cell::RefCell;

use crate::compaction::rescue::cool_down::CoolDown;
use crate::compaction::verbatim::{self, Mark};
use crate::message::{self, JsVal};
use crate::prune;
use crate::recall_tool::Reach;
use crate::steer::receipt::Redactions;

/// The mod's options, as `register(on, options)` receives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub turn_end_percent: f64,
    pub verbatim_tokens: f64,
    pub keep_days: f64,
    pub redact: bool,
    /// `recallTool` and `recallScope`: no recall tool, this session's
    /// history alone, or this project's earlier sessions too.
    pub recall: Reach,
    /// When the engine's compaction fails, answer one of compact-plus's own.
    pub rescue: bool,
    /// The model the rescue's summary is asked of: not the one failing.
    pub rescue_model: String,
    /// One or two lines for the person after every compaction (`receipt`).
    pub receipt: bool,
    /// At a new session's first prompt, the brief from this project's newest
    /// earlier summary (`sessionBrief`).
    pub session_brief: bool,
}

/// The engine's small fast model, as `$.model.complete` names it (an alias,
/// resolved like `--model`; the d.ts's `ClassifyOptions.model` default).
pub const RESCUE_MODEL: &str = "haiku";

impl Default for Options {
    fn default() -> Self {
        Options {
            turn_end_percent: 90.0,
            verbatim_tokens: 8000.0,
            keep_days: prune::KEEP_DAYS,
            redact: true,
            recall: Reach::Project,
            rescue: true,
            rescue_model: RESCUE_MODEL.into(),
            receipt: true,
            session_brief: true,
        }
    }
}

impl Options {
    pub fn from_json(json: &str) -> Options {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Raw {
            #[serde(rename = "turnEndPercent")]
            turn_end_percent: JsVal,
            #[serde(rename = "verbatimUserTokens")]
            verbatim_tokens: JsVal,
            #[serde(rename = "keepDays")]
            keep_days: JsVal,
            #[serde(rename = "redactSecrets")]
            redact: JsVal,
            #[serde(rename = "recallTool")]
            recall_tool: JsVal,
            rescue: JsVal,
            #[serde(rename = "rescueModel")]
            rescue_model: JsVal,
            #[serde(rename = "recallScope")]
            recall_scope: JsVal,
            receipt: JsVal,
            #[serde(rename = "sessionBrief")]
            session_brief: JsVal,
        }
        let raw = serde_json::from_str::<message::Lenient<Raw>>(json).ok().and_then(|l| l.0).unwrap_or_default();
        let d = Options::default();
        let keep_days = raw.keep_days.number_or(d.keep_days);
        Options {
            turn_end_percent: raw.turn_end_percent.number_or(d.turn_end_percent),
            verbatim_tokens: raw.verbatim_tokens.number_or(d.verbatim_tokens),
            // A keep period that is no number keeps everything rather than nothing;
            // under a day it would prune folders of sessions live in other terminals.
            keep_days: if keep_days.is_nan() { f64::INFINITY } else { keep_days.max(prune::MIN_KEEP_DAYS) },
            // Only an explicit `false` turns redaction off.
            redact: raw.redact != JsVal::Bool(false),
            recall: match &raw.recall_scope {
                _ if raw.recall_tool == JsVal::Bool(false) => Reach::Off,
                JsVal::Str(s) if s.trim().eq_ignore_ascii_case("session") => Reach::Session,
                _ => Reach::Project,
            },
            rescue: raw.rescue != JsVal::Bool(false),
            // A blank or absent model is the default one.
            rescue_model: raw
                .rescue_model
                .as_str()
                .map(crate::text::trim)
                .filter(|m| !m.is_empty())
                .unwrap_or(RESCUE_MODEL)
                .to_owned(),
            receipt: raw.receipt != JsVal::Bool(false),
            session_brief: raw.session_brief != JsVal::Bool(false),
        }
    }
}

/// Per-session state. A module reload starts it over; a rebuilt instance gets
/// the part that must outlive it back ([`Carried`]).
#[derive(Debug, Default)]
pub struct State {
    pub carried: Carried,
    /// The UTF-8 texts that came with the last `pack` answer (`resume_packed`).
    pub inbox: Option<Vec<u8>>,
    /// Compactions of the main conversation under way (their hooks started, not
    /// ended). Not carried: a rebuild loses those hooks, so none is under way.
    pub compacting: usize,
    /// `log.jsonl` as this process last wrote it, with its folder: the base of
    /// the next line (not carried: a rebuilt core reads the file again).
    pub log_text: Option<(String, String)>,
}

/// What the shim keeps for the core while it rebuilds the instance (after a
/// trap, or to hand a large compaction's memory back): the session's state
/// outside any one hook. The core sends it whenever it changes (`carry`).
///
/// Each field is the conversation's or the process's. A conversation's ends at
/// `session.end` (`/clear`, a `/resume` of another session, the exit), and the
/// next one in this process must not inherit it: its blocks, its words, its
/// figures, its failures. [`Carried::conversation_ended`] lists every field and
/// says which it is; a field added here must be added there (it does not
/// compile otherwise).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Carried {
    /// Blocks of the last compaction of the main conversation, until they reach
    /// the model (summary row or `prompt.context`, whichever comes first).
    /// The conversation's.
    pub pending: Option<Pending>,
    /// The pending blocks wait for the summary row alone: after an automatic
    /// compaction the engine computes the context again in the middle of the
    /// turn, before it appends the row, and sends no block of ours from it
    /// (measured headless on 2.1.328); the row's door fires there, in the
    /// terminal too (e2e-kit/tui README item 1). The conversation's.
    pub row_only: bool,
    /// One turn-end compaction per context window. The conversation's.
    pub turn_end_armed: bool,
    /// The auto-compact threshold and when it was asked for. The process's.
    pub threshold: Option<(f64, f64)>,
    /// The process's.
    pub pruned: bool,
    /// Compactions seen; a turn-end compaction queued before one is moot. The
    /// process's, and `/clear` counts as one.
    pub compactions: u64,
    /// Our turn-end `/compact`, queued and not yet come through. The process's.
    pub queued: Option<Queued>,
    /// A precompute's summary, made with the handoff, waits to be installed.
    /// The conversation's.
    pub precomputed: bool,
    /// This process has looked for blocks an earlier one kept on disk (or made
    /// its own, which take their place). The conversation's.
    pub disk_read: bool,
    /// Each instruction file's raw disk text (a hash of it) as the engine had
    /// it, by path: a file whose text is the same is unchanged, however the
    /// engine's loader (which the port follows) reads it. The process's.
    pub loaded: Vec<(String, String)>,
    /// The engine's last figures for the context: the last response's input
    /// tokens and the window (`$.session.usage`, read at each turn's end). The
    /// trim before the summarizer reads them. The conversation's.
    pub usage: Option<(f64, f64)>,
    /// A compaction failed on a prompt too long in this session: later ones are
    /// trimmed on the way down. The conversation's.
    pub ptl_seen: bool,
    /// The summarizer failure this conversation is waiting out, if any: within
    /// it an automatic compaction is answered by the rescue without asking that
    /// summarizer again (a retry storm otherwise: 2-8 failing summarizer
    /// requests at every later turn, the engine's breaker reset at each
    /// prompt; e2e-kit failures/README.md section 1). How long, by cause:
    /// `compaction::rescue::cool_down`. The conversation's.
    pub cool_down: Option<CoolDown>,
    /// The person's words the last compaction carried (its verbatim block, oldest
    /// first, redacted), for the next one to carry on: its block may not be
    /// among the next compaction's messages (the terminal's is a context
    /// attachment). `None`: not known in this process, then looked for on disk
    /// (`.verbatim.json`), then in the messages. The conversation's.
    pub verbatim: Option<Vec<String>>,
    /// This process has decided on the brief from an earlier session: given,
    /// or not (a resumed session, none to give, the option off). The
    /// process's: a `/clear` starts no new brief, it is the person's fresh start.
    pub brief_done: bool,
    /// The engine's texts found otherwise than compact-plus knows them that
    /// the debug log has told of, a bit each (`engine::Unexpected`). The
    /// process's: once a process is enough.
    pub unexpected_told: u8,
}

impl Default for Carried {
    fn default() -> Self {
        Carried {
            pending: None,
            row_only: false,
            turn_end_armed: true,
            threshold: None,
            pruned: false,
            compactions: 0,
            queued: None,
            precomputed: false,
            disk_read: false,
            loaded: Vec::new(),
            usage: None,
            ptl_seen: false,
            cool_down: None,
            verbatim: None,
            brief_done: false,
            unexpected_told: 0,
        }
    }
}

impl Carried {
    /// The conversation ended (`session.end`): what was its goes, what is the
    /// process's stays. Every field is named, so none is forgotten.
    pub fn conversation_ended(&mut self) {
        let fresh = Carried::default();
        let Carried {
            // The conversation's: its blocks, words and figures describe a context
            // that is gone; a failure or a precompute of it says nothing of the next.
            pending,
            row_only,
            turn_end_armed,
            precomputed,
            // The next conversation (a new session id) has its own folder to look in.
            disk_read,
            usage,
            ptl_seen,
            cool_down,
            verbatim,
            // The process's: the engine's threshold depends on the model and
            // settings, not the conversation; pruning is once a process.
            threshold: _,
            pruned: _,
            // The disk text the engine was last seen to have: the engine reads its
            // instruction files for the new conversation or not, either way a file
            // compared with it is swapped only where its content differs from the
            // engine's copy (`prompt_context::refreshed_text`); forgetting it would
            // take a file edited before the `/clear` for one the engine just read.
            loaded: _,
            // A queued `/compact` is in the process's command queue, not the
            // conversation: kept, it is known when it comes, and moot then, since
            // the clear counts as a compaction (the context it was for is gone).
            queued: _,
            // The process's count of what replaced the context: the clear is one more.
            compactions,
            // The brief is for the process's first conversation: after a
            // `/clear` the person starts fresh, the last session's brief is noise.
            brief_done: _,
            // Told once a process: the engine's wording does not change with the conversation.
            unexpected_told: _,
        } = self;
        *pending = fresh.pending;
        *row_only = fresh.row_only;
        *turn_end_armed = fresh.turn_end_armed;
        *precomputed = fresh.precomputed;
        *disk_read = fresh.disk_read;
        *usage = fresh.usage;
        *ptl_seen = fresh.ptl_seen;
        *cool_down = fresh.cool_down;
        *verbatim = fresh.verbatim;
        *compactions = compactions.wrapping_add(1);
    }
}

/// Which way a compaction's blocks reach the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// Appended to the engine's summary row (headless, the engine's automatic
    /// compaction): they reach the model where the row does.
    SummaryRow,
    /// A `prompt.context` block, which the engine sends with a new prompt (a
    /// terminal `/compact`, blocks kept on disk for a resumed process): the
    /// person's newest message follows them.
    Prompt,
}

/// A compaction's blocks on their way to the model: the person's words, made
/// into the verbatim block when a channel takes them (its mark depends on the
/// channel), and the blocks after it (the pointer with the audit).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Pending {
    /// The person's words, oldest first, redacted.
    pub words: Vec<String>,
    /// The mark on the summary row: the newest is current only where the row
    /// reaches the model inside the turn that asked it.
    pub mark: Mark,
    pub blocks: Vec<String>,
    /// The person's pins (redacted), in the block with their words: those the
    /// context did not already hold word for word when the compaction was made.
    pub pins: Vec<String>,
}

impl Pending {
    pub fn is_empty(&self) -> bool {
        self.words.is_empty() && self.blocks.is_empty() && self.pins.is_empty()
    }

    /// The texts `channel` hands the model: what comes with a new prompt marks
    /// nothing current.
    pub fn render(&self, channel: Channel) -> Vec<String> {
        let mark = match channel {
            Channel::SummaryRow => self.mark,
            Channel::Prompt => Mark::NoneCurrent,
        };
        let entries: Vec<verbatim::Entry> = self.words.iter().map(|t| verbatim::Entry { text: t.clone(), handle: None }).collect();
        let block = (!entries.is_empty()).then(|| verbatim::render(&entries, mark));
        let block = crate::steer::pins::with_words(&self.pins, block);
        block.into_iter().chain(self.blocks.iter().cloned()).collect()
    }
}

/// A turn-end `/compact` in the engine's queue: its marker's token, and the
/// compactions seen when it was queued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Queued {
    pub token: String,
    pub seen: u64,
}

pub struct Session {
    pub options: Options,
    pub state: RefCell<State>,
}

impl Session {
    pub fn carried(&self) -> std::cell::Ref<'_, Carried> {
        std::cell::Ref::map(self.state.borrow(), |s| &s.carried)
    }

    pub fn carried_mut(&self) -> std::cell::RefMut<'_, Carried> {
        std::cell::RefMut::map(self.state.borrow_mut(), |s| &mut s.carried)
    }

    /// Text on its way to disk or into the summary row.
    pub fn clean(&self, text: &str) -> String {
        if self.options.redact {
            crate::redact::redact(text).into_owned()
        } else {
            text.to_owned()
        }
    }

    /// `clean`, counting what it redacted in `tally` (for the receipt).
    pub fn clean_counted(&self, text: &str, tally: &RefCell<Redactions>) -> String {
        if !self.options.redact {
            return text.to_owned();
        }
        let (out, n) = crate::redact::redact_counted(text);
        if n > 0 {
            tally.borrow_mut().count(text);
        }
        out.into_owned()
    }
}
