//! What the summary lost: the work record of any messages, the summary check of any summary
//! against them, and the one block they make with the audit, within its bounds, deterministic.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::message::parse_messages;
use compact_plus::{attribution, audit, record, text};
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    kept: u8,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("lost", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let json = gen::messages(&mut u).to_string();
    let msgs = parse_messages(&json);
    let summary = gen::text(&mut u);
    let kept: Vec<String> = (0..k.kept % 3).map(|_| gen::text(&mut u)).collect();
    let mut kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    kept.push(&summary);
    let same = |t: &str| t.to_owned();

    let r = record::read(&msgs, &same);
    assert!(r.items.len() <= record::MAX_ITEMS);
    assert_eq!(record::read(&msgs, &same), r, "the record is deterministic");
    let said = attribution::said(&msgs);
    assert!(said.len() <= attribution::MAX_SAID);
    let checked = attribution::check(&summary, &said);
    assert!(checked.flags.len() <= checked.passages);
    let mentions = audit::collect(&msgs);
    let lost = audit::Lost { record: Some(&r), mentions: Some(&mentions), flags: &checked.flags, clean: &same };
    let block = audit::block(&lost, &kept);
    if let Some(b) = &block {
        assert!(text::len16(b) <= audit::BLOCK_CHARS, "{} units", text::len16(b));
    }
    assert_eq!(audit::block(&lost, &kept), block, "the block is deterministic");
    json.len() + summary.len()
}));
