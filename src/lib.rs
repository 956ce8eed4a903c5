//! compact-plus: better context compaction for Claude Code.
//!
//! A sans-IO core. Every decision and every piece of text is made here, by pure
//! functions and small state machines; the JS shim in `js/` only performs the `$`
//! calls the core asks for and hands the answers back (see `hooks`).

pub mod text;
pub mod message;
pub mod compaction;
pub mod instructions;
pub mod compat;
pub mod redact;
pub mod audit;
pub mod recall_tool;
pub mod prune;
pub mod hooks;
pub mod bindings;
