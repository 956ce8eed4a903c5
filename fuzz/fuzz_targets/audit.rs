//! The coverage audit: identifiers collected from any messages, checked against
//! any kept text, listed within its bounds.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::message::parse_messages;
use compact_plus::{audit, text};
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    kept: u8,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("audit", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let json = gen::messages(&mut u).to_string();
    let msgs = parse_messages(&json);
    let kept: Vec<String> = (0..k.kept % 4).map(|_| gen::text(&mut u)).collect();
    let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    let mentions = audit::collect(&msgs);
    assert!(mentions.len() <= audit::MAX_TRACKED);
    let dropped = audit::dropped(&mentions, &kept);
    assert!(dropped.len() <= audit::MAX_LISTED);
    let rendered = audit::render(&dropped);
    assert_eq!(rendered.is_none(), dropped.is_empty());
    if let Some(r) = &rendered {
        assert!(text::len16(r) <= audit::MAX_LISTED_CHARS, "{} units", text::len16(r));
    }
    assert_eq!(audit::audit(&msgs, &kept), rendered);
    json.len() + kept.iter().map(|k| k.len()).sum::<usize>()
}));
