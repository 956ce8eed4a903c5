//! The reference-compatible surface: the functions of the reference `lib.js`
//! that `bindings` exports under the reference's names and shapes, so that the
//! golden vectors (`tests/golden.test.mjs`) hold this port to the reference.
//!
//! No hook calls them: the product's own texts are `crate::compaction`'s and
//! `crate::instructions`'s. Where the reference's function is also the
//! product's (`person_text`, `join_instructions`), the module here names it too,
//! so the reference's exports read from this folder alone.
//!
//! - `selectVerbatim`, `renderVerbatim`, `carriedMessages`, `personText`: [`verbatim`].
//! - `renderHistory`: [`history`].
//! - `handoffInstructions`, `pointerText`, `joinInstructions`: [`handoff`].
//! - `stripInstructionText`, `sameText`: [`instructions`].

pub mod handoff;
pub mod history;
pub mod instructions;
pub mod verbatim;
