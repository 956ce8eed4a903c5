//! The benchmark's handles on one pass (bench/run.mjs): built only with the
//! `bench` feature, never into the shipped `.wasm`.

use wasm_bindgen::prelude::*;

use crate::message::{self, Messages};

thread_local! {
    static HELD: std::cell::RefCell<Messages> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps a session's messages (JSON) in the module, so `benchAudit` times the
/// audit alone. Not used by the shim.
#[wasm_bindgen(js_name = benchHold)]
pub fn bench_hold(messages_json: &str) -> usize {
    let messages = message::parse_messages(messages_json);
    let n = messages.len();
    HELD.with(|h| *h.borrow_mut() = messages);
    n
}

/// The coverage audit of the held messages against the kept texts (a JSON list
/// of strings), as session.compact runs it: the length of its block, 0 for none.
#[wasm_bindgen(js_name = benchAudit)]
pub fn bench_audit(kept_json: &str) -> usize {
    let kept: Vec<String> = serde_json::from_str(kept_json).unwrap_or_default();
    let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    HELD.with(|h| crate::audit::audit(&h.borrow(), &kept).map_or(0, |b| b.len()))
}
