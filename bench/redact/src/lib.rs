//! The two redactors side by side, and C-ABI exports for the wasm run (bench/redact/run.mjs):
//! `buffer(len)` hands out memory for the text, `redact_new(len)` / `redact_old(len)` redact
//! each line of it and return how many credentials they replaced.

#[cfg(feature = "new")]
#[allow(dead_code, unused_imports)]
#[path = "../../../src/redact/mod.rs"]
pub mod new;

#[cfg(feature = "old")]
#[allow(dead_code, unused_imports, clippy::all)]
#[path = "../../../target/bench-redact/old/src/redact/mod.rs"]
pub mod old;

/// Redacts each line of `text` with `redact`; the number of lines that changed.
pub fn each_line(text: &str, redact: fn(&str) -> std::borrow::Cow<'_, str>) -> usize {
    text.lines()
        .filter(|line| matches!(redact(line), std::borrow::Cow::Owned(_)))
        .count()
}

static mut BUFFER: Vec<u8> = Vec::new();

/// Memory for `len` bytes of text, filled by the caller before `redact_*`.
#[no_mangle]
pub extern "C" fn buffer(len: usize) -> *mut u8 {
    // Single-threaded wasm, one caller: the buffer is only ever touched from these exports.
    #[allow(static_mut_refs)]
    unsafe {
        BUFFER = vec![0; len];
        BUFFER.as_mut_ptr()
    }
}

fn text() -> &'static str {
    #[allow(static_mut_refs)]
    unsafe {
        std::str::from_utf8(&BUFFER).unwrap_or("")
    }
}

#[cfg(feature = "new")]
#[no_mangle]
pub extern "C" fn redact_new() -> usize {
    each_line(text(), new::redact)
}

#[cfg(feature = "old")]
#[no_mangle]
pub extern "C" fn redact_old() -> usize {
    each_line(text(), old::redact)
}
