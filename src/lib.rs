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
//! - [`audit`] (what the summary dropped), [`redact`] (credentials out of what is
//!   kept), [`prune`] (old history folders), [`recall_tool`] (the tool's spec,
//!   its input, and what the recall module is handed), [`instructions`] (the
//!   engine's own reading of instruction files).
//! - [`text`], [`message`]: text as JavaScript sees it, and the host's data.
//! - [`compat`]: the reference's functions, for its exports and the golden vectors.
//! - [`bindings`]: the JS exports.

pub mod text;
pub mod message;
pub mod compaction;
pub mod instructions;
pub mod compat;
pub mod redact;
pub mod audit;
pub mod recall_tool;
pub mod prune;
pub mod step;
pub mod hooks;
#[cfg(feature = "bindings")]
pub mod bindings;
