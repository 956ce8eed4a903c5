//! What the person sees of compaction, and how they steer it (issue [16]):
//!
//! - [`receipt`]: one or two lines after every compaction, rescue included,
//!   for the person alone (`$.ui.log`, `ui_log` headless): where the history
//!   is, what of their words was kept, what the summary dropped and was
//!   listed, what was redacted (by kind, never the value), their pins;
//! - [`pins`]: texts the person pins (`/pin`) to be kept word for word after
//!   every compaction of the session, beside their kept words, bounded, and
//!   never twice in one context;
//! - [`command`]: the slash commands (`/pin`, `/unpin`, `/recall`), their
//!   specs and arguments, and the command rows rewritten so the model never
//!   reads a `/recall` query or a pinned credential;
//! - [`recall`]: `/recall`'s answer for the person, bounded;
//! - [`brief`]: at the first prompt of a new session, the next steps and open
//!   questions of this project's newest earlier summary, labelled as the
//!   lowest authority there is.
//!
//! Pure texts and decisions: the hooks perform them (`hooks/command.rs`,
//! `hooks/brief.rs`, `hooks/pins.rs`, and the compaction hooks for the receipt).

pub mod brief;
pub mod command;
pub mod pins;
pub mod recall;
pub mod receipt;
