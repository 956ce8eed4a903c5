//! Credential redaction over any text: it must end, in time linear in the text,
//! and leave text with nothing to redact as it was.
#![no_main]
use arbitrary::Unstructured;
use compact_plus::redact;
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;
use std::borrow::Cow;

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("redact", data, || {
    let mut u = Unstructured::new(data);
    let text = gen::text(&mut u);
    let (out, count) = redact::redact_counted(&text);
    if count == 0 {
        assert!(matches!(out, Cow::Borrowed(_)) && out == text);
    } else {
        assert!(out.contains("[REDACTED:"));
    }
    assert_eq!(redact::redact(&text), out);
    text.len()
}));
