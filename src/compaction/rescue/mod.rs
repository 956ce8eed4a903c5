//! compact-plus's own compaction, for when the engine's fails and leaves the
//! conversation uncompacted. Without it the session stays as it was, and at
//! the blocking limit every later turn fails the same way (measured: e2e-kit
//! `failures/README.md` section 1).
//!
//! What it promises, as pure functions of the host's data (the hook that
//! makes the calls is `hooks::rescue`):
//!
//! Which failures get here is read from the engine's own words
//! (`crate::engine::rejection`: a refusal such as `/compact` right after
//! `/clear` is no failure, a text the engine was not measured to write is left
//! to the engine) and from its summary row (`crate::engine::summary_row`: one
//! is replaced only when it holds no summary).
//!
//! - [`cool_down`]: after a failure, how long automatic compactions leave the
//!   failing summarizer alone: by cause, for one conversation.
//! - [`tier1`]: the rescue model's prompts and bounds; a long conversation in
//!   parts asked at once, what came back merged, what did not named.
//! - [`digest`]: tier 2, with no model.
//! - [`row`]: the rescue's row (its header machine text the verbatim block never
//!   quotes) and the newest messages kept after it.

pub mod cool_down;
pub mod digest;
pub mod row;
pub mod tier1;
