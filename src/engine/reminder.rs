//! Text the engine adds to a row for the model (a reminder, a context block,
//! the hooks' output), never the person's: measured on 2.1.328 in rows, tool
//! results and the summary row (tests/HOST.md, "The channel the blocks take",
//! "The summary row the engine writes").

pub const REMINDER_OPEN: &str = "<system-reminder>";
pub const REMINDER_CLOSE: &str = "</system-reminder>";
