//! Instruction files against the engine's copy, and the handoff text.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::compaction::handoff;
use compact_plus::compat::{self, instructions};
use compact_plus::recall_tool::Reach;
use compact_plus::text;
use compact_plus_fuzz::gen::{self, Source};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    parts: u8,
    own: bool,
    reach: u8,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("instructions", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let raw = gen::instruction_text(&mut u);
    let other = if u.byte() % 2 == 0 { raw.replace('\n', "  \r\n") } else { gen::instruction_text(&mut u) };
    let stripped = instructions::strip_instruction_text(&raw);
    assert!(instructions::same_text(&stripped, &stripped));
    assert_eq!(instructions::same_text(&raw, &other), instructions::same_text(&other, &raw));
    if !raw.contains('\r') {
        assert!(instructions::same_text(&raw, &raw.replace('\n', " \r\n")));
    }
    let _ = instructions::has_import_line(&raw);
    let h = compat::handoff::handoff_instructions(Some(&raw));
    if !raw.is_empty() {
        assert!(h.contains("onward"));
    }
    let joined = handoff::join_instructions(k.own.then_some(raw.as_str()), &h);
    assert!(joined.ends_with(&h));
    let reach = [Reach::Off, Reach::Session, Reach::Project][usize::from(k.reach % 3)];
    let p = handoff::pointer(&other, &stripped, usize::from(k.parts), reach);
    assert!(text::len16(&p) > 0);
    let _ = compat::handoff::pointer_text(&other, &stripped);
    let _ = handoff::instructions(Some(&raw), k.own.then_some(stripped.as_str()));
    raw.len() + other.len()
}));
