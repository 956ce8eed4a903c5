//! The redactors over corpus cases, for bench/redact/scanners: reads case texts on stdin,
//! separated by NUL bytes (no case holds one), redacts each whole text with `redact_counted`
//! of the redactor named by the argument (`new`: src/redact; `old`: the reference, the
//! redactor before [15] that bench/redact/run.sh and scanners/run.sh extract from git), and
//! prints, per case, the number of credentials replaced, a newline, the output, and a NUL.
//! The whole text in one call, as tests/redact_corpus.rs's `held_out_figures` does.

use std::borrow::Cow;
use std::io::{Read, Write};

use redact_bench::{new, old};

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "new".into());
    let redact: fn(&str) -> (Cow<'_, str>, usize) = match which.as_str() {
        "new" => new::redact_counted,
        "old" => old::redact_counted,
        other => panic!("redact-cases new|old, not {other:?}"),
    };
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .expect("UTF-8 case texts on stdin");
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for text in input.split('\0') {
        let (redacted, count) = redact(text);
        write!(out, "{count}\n{redacted}\0").unwrap();
    }
}
