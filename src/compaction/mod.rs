//! The texts a compaction is made of, as compact-plus writes them: what the
//! summarizer is told, what the next model gets after the summary, and the
//! conversation saved for searching.
//!
//! - [`verbatim`]: the person's own messages, kept word for word in a block after
//!   the summary, the newest marked as the current request.
//! - [`history`]: the conversation before compaction as searchable markdown, in
//!   parts under the host's write limit, and the paths they go to.
//! - [`terminal`]: the interactive terminal's text (escapes, local-command echoes)
//!   tidied for the history.
//! - [`trim`]: the largest tool results cut on the way down when the
//!   conversation is over what the summarizer can take.
//! - [`handoff`]: the instructions handed to the summarizer, and the pointer from
//!   the summary to the history.
//!
//! Pure functions of the host's data: the hooks (`crate::hooks`) call them. The
//! reference's own versions of these texts, which no hook uses, are in
//! `crate::compat`.

pub mod handoff;
pub mod history;
pub mod rescue;
pub mod terminal;
pub mod trim;
pub mod verbatim;
