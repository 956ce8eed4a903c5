//! The reference-compatible surface: functions of the reference `lib.js` that `bindings`
//! exports under the reference's names and shapes, so that the golden vectors
//! (`tests/golden.test.mjs`) can hold this port to the reference. The hooks do not call them;
//! the product's own versions live in the modules the hooks use.

pub mod instructions;
