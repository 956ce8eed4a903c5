//! The reference's history text: the whole conversation in one file, however
//! long. compact-plus writes it in parts under the host's write limit
//! ([`crate::compaction::history`]), from the same blocks; a session that fits
//! in one part gets this text exactly.

use crate::compaction::history::{header, message_block};
use crate::message::Messages;

pub use crate::compaction::history::Meta;

/// The reference's history text, byte for byte.
pub fn render(messages: &Messages, meta: &Meta) -> String {
    let mut out = header(messages.len(), meta).join("\n");
    for (i, m) in messages.iter().enumerate() {
        if let Some(block) = m.as_ref().and_then(|m| message_block(i, m)) {
            out.push('\n');
            out.push_str(&block);
        }
    }
    out
}
