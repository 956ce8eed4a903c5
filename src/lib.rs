//! compact-plus: better context compaction for Claude Code.
//!
//! A sans-IO core. Every decision and every piece of text is made here, by pure
//! functions and small state machines; the JS shim in `js/` only performs the `$`
//! calls the core asks for and hands the answers back (see `host`).

pub mod text;
pub mod message;
pub mod stamp;
pub mod verbatim;
pub mod history;
pub mod handoff;
pub mod instructions;
pub mod compat;
pub mod redact;
pub mod audit;
pub mod recall_tool;
pub mod prune;
pub mod host;
pub mod hooks;
pub mod bindings;

// The engine's reading of instruction files under its old name, for the hooks until they
// name `instructions`.
#[doc(hidden)]
pub use instructions as instructions_engine;
