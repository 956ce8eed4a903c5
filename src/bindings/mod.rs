//! The JS face of the core:
//!
//! - here, the hooks' driver the shim talks to: [`crate::hooks::Core`] behind
//!   `init`, `start`, `resume` and their kin, JSON text in and out; and
//!   `__constants`, which the build writes out as `export const` lines (the
//!   recall tool's spec the shim registers at start-up);
//! - [`reference`] (feature `compat`): the reference `lib.js`'s functions, same
//!   names and shapes, for the golden vectors and the benchmark. No hook uses
//!   them, so the shipped `.wasm` leaves them out;
//! - [`bench`] (feature `bench`): the benchmark's handles on one pass.

use wasm_bindgen::prelude::*;

#[cfg(feature = "bench")]
pub mod bench;
#[cfg(feature = "compat")]
pub mod reference;

#[cfg(feature = "bench")]
pub use bench::*;
#[cfg(feature = "compat")]
pub use reference::*;

fn to_js(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap_or(JsValue::NULL)
}

/// The constants, for the build to write out as `export const` lines (wasm
/// exports only functions): the reference's, the recall tool's spec, and the
/// slash commands the shim registers at load.
#[wasm_bindgen(js_name = __constants)]
pub fn constants() -> JsValue {
    let c = serde_json::json!({
        "CHARS_PER_TOKEN": crate::compaction::verbatim::CHARS_PER_TOKEN,
        "VERBATIM_OPEN": crate::compaction::verbatim::VERBATIM_OPEN,
        "VERBATIM_CLOSE": crate::compaction::verbatim::VERBATIM_CLOSE,
        "RECALL_TOOL": crate::recall_tool::spec(),
        "COMMANDS": serde_json::from_str::<serde_json::Value>(crate::steer::command::SPECS).unwrap_or_default(),
        "NEXT_FIRST": crate::hooks::NEXT_FIRST,
    });
    to_js(&c.to_string())
}

thread_local! {
    static CORE: std::cell::RefCell<crate::hooks::Core> =
        std::cell::RefCell::new(crate::hooks::Core::new(crate::hooks::Options::default()));
}

/// Starts the module over with these options (`register(on, options)`), the
/// state a lost instance carried (`carry` of its last step; `""` for none) and
/// the first id the new instance may give a hook.
#[wasm_bindgen]
pub fn init(options_json: &str, carried_json: &str, first_id: u32) {
    let options = crate::hooks::Options::from_json(options_json);
    let core = crate::hooks::Core::rebuilt(options, carried_json, first_id).measuring(memory_bytes);
    CORE.with(|c| *c.borrow_mut() = core);
}

/// The instance's linear memory in bytes: it only grows, so the core tells the
/// shim to rebuild the instance (its state carried) once a large compaction has
/// made it large (`handBack`); the shim logs the figure after.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) as f64 * 65536.0
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}

/// Starts `hook` on its event (JSON); answers `{id, calls}`, `{done}` or `{lost}`.
#[wasm_bindgen]
pub fn start(hook: &str, event_json: &str) -> String {
    // Test-only builds (`--features trap`, never shipped): a marker in an event
    // traps mid-call, for the fault table's "the instance is rebuilt" case.
    #[cfg(feature = "trap")]
    if event_json.contains("COMPACT_PLUS_FORCE_TRAP") {
        panic!("compact-plus: forced trap (test build)");
    }
    CORE.with(|c| c.borrow_mut().start(hook, event_json))
}

/// Resumes hook `id` with the answers to its calls (JSON list of `{ok}`/`{err}`).
#[wasm_bindgen]
pub fn resume(id: u32, answers_json: &str) -> String {
    CORE.with(|c| c.borrow_mut().resume(id, answers_json))
}

/// `resume` for the answers to a `pack` call: the texts come as UTF-8 `texts`,
/// their byte lengths in the answer (see `Call::Pack`).
#[wasm_bindgen(js_name = resumePacked)]
pub fn resume_packed(id: u32, answers_json: &str, texts: Vec<u8>) -> String {
    #[cfg(feature = "trap")]
    if texts.windows(23).any(|w| w == b"COMPACT_PLUS_FORCE_TRAP") {
        panic!("compact-plus: forced trap (test build)");
    }
    CORE.with(|c| c.borrow_mut().resume_packed(id, answers_json, texts))
}

/// The text of a `write` call that names it by `textRef` (see `start`).
#[wasm_bindgen(js_name = takeText)]
pub fn take_text(text_ref: u32) -> String {
    CORE.with(|c| c.borrow_mut().take_text(text_ref as usize))
}

#[wasm_bindgen]
pub fn cancel(id: u32) {
    CORE.with(|c| c.borrow_mut().cancel(id));
}
