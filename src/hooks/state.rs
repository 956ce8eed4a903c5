//! What the hooks know of the session: the options the mod was registered with,
//! and the state that lasts from one hook to the next ([`Carried`] outlives a
//! rebuilt instance; the rest of [`State`] does not).

use serde::{Deserialize, Serialize};
use std::cell::RefCell;

use super::shared::number_or;
use crate::compaction::rescue::cool_down::CoolDown;
use crate::message::{self, JsVal};
use crate::prune;

/// The mod's options, as `register(on, options)` receives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub turn_end_percent: f64,
    pub verbatim_tokens: f64,
    pub keep_days: f64,
    pub redact: bool,
    pub recall_tool: bool,
    /// When the engine's compaction fails, answer one of compact-plus's own.
    pub rescue: bool,
    /// The model the rescue's summary is asked of: not the one failing.
    pub rescue_model: String,
    /// `recallScope: "session"` keeps the recall tool to this session's history.
    pub recall_project: bool,
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
            recall_tool: true,
            rescue: true,
            rescue_model: RESCUE_MODEL.into(),
            recall_project: true,
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
        }
        let raw = serde_json::from_str::<message::Lenient<Raw>>(json).ok().and_then(|l| l.0).unwrap_or_default();
        let d = Options::default();
        let keep_days = number_or(&raw.keep_days, d.keep_days);
        Options {
            turn_end_percent: number_or(&raw.turn_end_percent, d.turn_end_percent),
            verbatim_tokens: number_or(&raw.verbatim_tokens, d.verbatim_tokens),
            // A keep period that is no number keeps everything rather than nothing;
            // under a day it would prune folders of sessions live in other terminals.
            keep_days: if keep_days.is_nan() { f64::INFINITY } else { keep_days.max(prune::MIN_KEEP_DAYS) },
            // Only an explicit `false` turns redaction off.
            redact: raw.redact != JsVal::Bool(false),
            recall_tool: raw.recall_tool != JsVal::Bool(false),
            rescue: raw.rescue != JsVal::Bool(false),
            // A blank or absent model is the default one.
            rescue_model: raw
                .rescue_model
                .as_str()
                .map(crate::text::trim)
                .filter(|m| !m.is_empty())
                .unwrap_or(RESCUE_MODEL)
                .to_owned(),
            recall_project: !matches!(&raw.recall_scope, JsVal::Str(s) if s.trim().eq_ignore_ascii_case("session")),
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Carried {
    /// Blocks of the last compaction of the main conversation, until they reach
    /// the model (summary row or `prompt.context`, whichever comes first).
    pub pending: Option<Vec<String>>,
    /// The pending blocks wait for the summary row alone: after an automatic
    /// compaction the engine computes the context again in the middle of the
    /// turn, before it appends the row, and sends no block of ours from it
    /// (measured headless on 2.1.328); the row's door fires there, in the
    /// terminal too (e2e-kit/tui README item 1).
    pub row_only: bool,
    /// One turn-end compaction per context window.
    pub turn_end_armed: bool,
    /// The auto-compact threshold and when it was asked for.
    pub threshold: Option<(f64, f64)>,
    pub pruned: bool,
    /// Compactions seen; a turn-end compaction queued before one is moot.
    pub compactions: u64,
    /// Our turn-end `/compact`, queued and not yet come through.
    pub queued: Option<Queued>,
    /// A precompute's summary, made with the handoff, waits to be installed.
    pub precomputed: bool,
    /// This process has looked for blocks an earlier one kept on disk (or made
    /// its own, which take their place).
    pub disk_read: bool,
    /// Each instruction file's raw disk text (a hash of it) as the engine had
    /// it, by path: a file whose text is the same is unchanged, however the
    /// engine's loader (which the port follows) reads it.
    pub loaded: Vec<(String, String)>,
    /// The engine's last figures for the context: the last response's input
    /// tokens and the window (`$.session.usage`, read at each turn's end). The
    /// trim before the summarizer reads them.
    pub usage: Option<(f64, f64)>,
    /// A compaction failed on a prompt too long in this session: later ones are
    /// trimmed on the way down.
    pub ptl_seen: bool,
    /// The summarizer failure this conversation is waiting out, if any: within
    /// it an automatic compaction is answered by the rescue without asking that
    /// summarizer again (a retry storm otherwise: 2-8 failing summarizer
    /// requests at every later turn, the engine's breaker reset at each
    /// prompt; e2e-kit failures/README.md section 1). How long, by cause:
    /// `compaction::rescue::cool_down`.
    pub cool_down: Option<CoolDown>,
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
        }
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
}
