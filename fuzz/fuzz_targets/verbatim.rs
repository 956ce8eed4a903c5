//! The host's messages read leniently, then the person's words chosen within a
//! budget and rendered: `parse_messages`, `select`, `render`, `not_kept`.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::message::{parse_messages, Message};
use compact_plus::compaction::verbatim;
use compact_plus::compat;
use compact_plus::text;
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    budget: f64,
    tokens: Option<u16>,
    /// The messages as whatever bytes follow, not as generated JSON.
    raw: bool,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("verbatim", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let json = if k.raw {
        String::from_utf8_lossy(u.take_rest()).into_owned()
    } else {
        gen::messages(&mut u).to_string()
    };
    let msgs = parse_messages(&json);
    let budget = k.tokens.map_or(k.budget, f64::from);
    let chosen = compat::verbatim::select(&msgs, budget);
    if budget.is_nan() || budget <= 0.0 {
        assert!(chosen.is_empty());
    } else if budget.is_finite() {
        // Over the budget by at most the last entry's cut note (its count is at
        // most 25 units), its separator, and a fraction of a unit.
        let sep = text::len16(verbatim::VERBATIM_SEP);
        let used: usize = chosen.iter().map(|e| text::len16(&e.text) + sep).sum();
        let note = text::len16("\n[...  characters cut; the full text is in the history file ...]\n") + 25 + sep + 1;
        assert!(used as f64 <= budget * 4.0 + note as f64, "used {used} of {budget}");
    }
    let person: Vec<String> = msgs.iter().flatten().filter(|m| m.is_user()).map(|m| verbatim::person_text(m.text())).collect();
    for p in &person {
        assert_eq!(text::trim(p), p.as_str());
    }
    let block = compat::verbatim::render(&chosen);
    assert!(block.starts_with(verbatim::VERBATIM_OPEN) && block.ends_with(verbatim::VERBATIM_CLOSE));
    let _ = compat::verbatim::carried_messages(&msgs);
    let kept: Vec<&Message> = msgs.iter().flatten().collect();
    let left = verbatim::not_kept(chosen.clone(), &kept);
    assert!(left.len() <= chosen.len());
    json.len()
}));
