//! The ways compact-plus's own text reaches the engine and comes back: a
//! context block with the next prompt, and a `/compact` it queues.

use super::reminder::REMINDER_OPEN;

/// The `prompt.context` block names the engine routes itself (d.ts
/// `PromptContextResult`): a block of any other name reaches the model in one
/// copy, as a reminder with the name as its heading ([`block_opening`];
/// measured on 2.1.328: tests/HOST.md, "The channel the blocks take").
/// compact-plus's block must be none of these.
pub const ROUTED_BLOCKS: [&str; 2] = ["claudeMd", "currentDate"];

/// How an unrouted block opens in the request:
/// `<system-reminder>\n# <name>\n<text>\n\nThis is ambient context …`.
pub fn block_opening(name: &str) -> String {
    format!("{REMINDER_OPEN}\n# {name}\n")
}

/// The command a hook queues with `$.command.run({ command, args })` to compact
/// between turns: it runs once the session is idle, and comes back to the
/// calling plugin's own `session.compact` hook with trigger `manual` and
/// `instructions` the `args` exactly; the terminal shows `❯ /compact <args>`
/// (tests/HOST.md, "A compaction between turns").
pub const COMPACT_COMMAND: &str = "compact";
