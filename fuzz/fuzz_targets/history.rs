//! The history file: the reference's whole text (`compat::history::render`), the
//! parts under a write limit (`parts`), and the paths they go to (`folder`,
//! `part_file`).
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::compaction::history::{self, Meta};
use compact_plus::compat;
use compact_plus::message::parse_messages;
use compact_plus_fuzz::{check, gen};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    limit: u32,
    redact: bool,
    raw: bool,
    k: u8,
}

fn body(part: &str) -> &str {
    part.splitn(6, '\n').nth(5).unwrap_or("")
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("history", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let home = gen::text(&mut u);
    let id = gen::text(&mut u);
    if let Some(dir) = history::folder(&home, &id) {
        let seg = dir.rsplit('/').next().unwrap_or("");
        assert!(!seg.is_empty() && !seg.starts_with('.') && !seg.contains('\\'), "{dir}");
    }
    let trigger = gen::text(&mut u);
    let file = history::part_file("/d", "S", &trigger, usize::from(k.k >> 4), usize::from(k.k & 15));
    assert!(!file["/d/".len()..].contains('/'));

    let json = if k.raw { String::from_utf8_lossy(u.take_rest()).into_owned() } else { gen::messages(&mut u).to_string() };
    let msgs = parse_messages(&json);
    let meta = Meta { session_id: "s".into(), at: "t".into(), trigger: "auto".into() };
    let whole = compat::history::render(&msgs, &meta);
    let clean = |t: &str| if k.redact { t.replace("word", "[REDACTED:word]") } else { t.to_owned() };
    let one = history::parts(&msgs, &meta, usize::MAX, &clean);
    assert_eq!(one.len(), 1);
    if !k.redact {
        // The reference's text but for the headings' numbers: ours number the messages shown
        // 1, 2, 3 …, the reference's by their place in the event (issue [13]), and the header counts.
        let unnumbered = |t: &str| {
            t.lines()
                .skip(3)
                .map(|l| match l.strip_prefix("## [").and_then(|r| r.split_once("] ")) {
                    Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => format!("## [] {rest}"),
                    _ => l.to_owned(),
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(unnumbered(&one[0]), unnumbered(&whole));
    }
    let limit = 3072 + k.limit as usize % (1 << 20);
    let parts = history::parts(&msgs, &meta, limit, &clean);
    let mut all = String::new();
    for p in &parts {
        assert!(p.len() <= limit, "part of {} bytes over {limit}", p.len());
        let b = body(p);
        all.push_str(check::strip_continued(b, &msgs));
    }
    if parts.len() > 1 {
        assert!(all.replace('\n', "") == body(&one[0]).replace('\n', ""), "a part lost or changed text");
    }
    json.len() + whole.len()
}));
