//! JS string semantics: `cut_middle`, `head`, `tail`, trimming, `number_to_string`.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::compaction::verbatim;
use compact_plus::text;
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    max: f64,
    /// `max` as an offset from the text's length, where the cut decisions are.
    near_len: Option<i16>,
    default_note: bool,
    at: u32,
}

/// JS `slice`'s relative index.
fn js_index(x: f64, len: usize) -> usize {
    if x.is_nan() {
        return 0;
    }
    let i = x.trunc();
    if i < 0.0 {
        (len as f64 + i).max(0.0) as usize
    } else {
        i.min(len as f64) as usize
    }
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("text", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let s = gen::text(&mut u);
    let note = if k.default_note { verbatim::CUT_NOTE.to_owned() } else { gen::text(&mut u) };
    let len = text::len16(&s);
    assert_eq!(len, s.encode_utf16().count());
    let max = k.near_len.map_or(k.max, |d| len as f64 + f64::from(d));

    let out = text::cut_middle(&s, max, &note);
    if len as f64 <= max {
        assert_eq!(out, s);
    } else {
        // Never longer than the reference's own output.
        let head = (max * 0.7).floor();
        let kept = js_index(head, len) + len - js_index(len as f64 - (max - head), len);
        let line = format!("\n[... {} characters cut; {note} ...]\n", text::number_to_string(len as f64 - max));
        assert!(text::len16(&out) <= kept + text::len16(&line), "max {max}");
    }

    let at = k.at as usize % (len + 2);
    let head = text::head(&s, at);
    let tail = text::tail(&s, at);
    assert!(s.starts_with(head) && s.ends_with(tail));
    assert!(text::len16(head) <= at && text::len16(tail) <= len.saturating_sub(at));

    let trimmed = text::trim(&s);
    assert!(!trimmed.starts_with(text::is_js_space) && !trimmed.ends_with(text::is_js_space));
    let collapsed = text::collapse_space(&s);
    assert!(!collapsed.contains("  "));
    let n = text::number_to_string(k.max);
    if k.max.is_finite() {
        assert_eq!(n.parse::<f64>().ok(), Some(k.max), "{n}");
    }
    let spans = text::remove_spans(&s, "<system-reminder>", "</system-reminder>");
    assert!(spans.len() <= s.len());
    s.len() + note.len()
}));
