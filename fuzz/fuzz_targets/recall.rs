//! The recall tool: any input read by the core (`recall_tool::parse_query`),
//! searched by the recall module over history files (as `history` writes them,
//! and any text), answers within `MAX_ANSWER`, or says why it cannot.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::compaction::history::{self as written, Meta};
use compact_plus::message::parse_messages;
use compact_plus::{recall_tool, text};
use compact_plus_recall::history;
use compact_plus_recall::text::MAX_ANSWER;
use compact_plus_fuzz::gen::{self, Source};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

#[derive(Arbitrary, Debug)]
struct Knobs {
    regex: Option<bool>,
    role: u8,
    limit: Option<i64>,
    limit_bytes: u16,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("recall", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let query = if u.byte() % 8 == 7 {
        gen::json(&mut u, 2).to_string()
    } else {
        let mut q = json!({ "query": gen::text(&mut u) });
        if let Some(r) = k.regex {
            q["regex"] = json!(r);
        }
        if k.role % 5 < 3 {
            q["role"] = json!(["user", "assistant", "tool"][usize::from(k.role % 5)]);
        } else if k.role % 5 == 3 {
            q["role"] = gen::json(&mut u, 0);
        }
        if let Some(l) = k.limit {
            q["limit"] = json!(l % 100);
        }
        q.to_string()
    };
    let msgs = parse_messages(&gen::messages(&mut u).to_string());
    let meta = Meta { session_id: "s".into(), at: "t".into(), trigger: "auto".into() };
    let limit = 3072 + usize::from(k.limit_bytes);
    let parts = written::parts(&msgs, &meta, limit, &|t| t.to_owned());
    let mut files: Vec<(String, String)> =
        parts.into_iter().enumerate().map(|(i, p)| (written::part_file("/h", "S", "auto", 1, i + 1), p)).collect();
    if u.byte() % 4 == 0 {
        files.push(("/h/other.md".into(), gen::text(&mut u)));
    }
    let size: usize = files.iter().map(|f| f.1.len()).sum();
    match recall_tool::parse_query(&query) {
        Ok(q) => {
            let answer = history::search_files(&files, &q);
            assert!(text::len16(&answer) <= MAX_ANSWER, "{} units", text::len16(&answer));
        }
        Err(e) => assert!(e.starts_with("recall:"), "{e}"),
    }
    size + query.len()
}));
