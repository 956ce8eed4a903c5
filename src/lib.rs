//! compact-plus: better context compaction for Claude Code.
//!
//! A sans-IO core. Every decision and every piece of text is made here, by pure
//! functions and small state machines; the JS shim in `js/` only performs the `$`
//! calls the core asks for and hands the answers back (see [`hooks`]).
//!
//! - [`hooks`]: the hooks and the driver the shim talks to, on [`step`] (the
//!   step protocol: a sans-IO machine over its calls, which the recall module's
//!   calls run on too).
//! - [`compaction`]: the texts of a compaction (verbatim block, history, handoff).
//! - [`audit`] (what the summary dropped, one block with [`record`]'s work record and
//!   [`attribution`]'s check of what the summary says the person said), [`redact`] (credentials out of what is
//!   kept), [`prune`] (old history folders), [`recall_tool`] (the tool's spec and
//!   input), [`instructions`] (the engine's own reading of instruction files).
//! - [`steer`]: what the person sees of compaction and steers it by (the
//!   receipt, pins, their own recall, the brief from an earlier session).
//! - [`text`], [`message`]: text as JavaScript sees it, and the host's data.
//! - [`engine`]: the engine's own wording (Claude Code 2.1.328's texts that
//!   compact-plus recognises or depends on), in one place.
//! - [`compat`] (feature `compat`, every test build): the reference's functions,
//!   for its exports, the golden vectors and the benchmark; not in the shipped `.wasm`.
//! - [`bindings`]: the JS exports.

pub mod text;
pub mod engine;
pub mod message;
pub mod compaction;
pub mod instructions;
#[cfg(feature = "compat")]
pub mod compat;
pub mod redact;
pub mod record;
pub mod attribution;
pub mod audit;
pub mod recall_tool;
pub mod prune;
pub mod steer;
pub mod step;
pub mod hooks;
#[cfg(feature = "bindings")]
pub mod bindings;
// The real sessions in ../shared, for the native tests that measure on them.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod transcripts;
#[cfg(test)]
mod test_rng;
