//! The engine's copy of an instruction file, rebuilt by the Markdown lexer port:
//! any text must come back in time linear in its length.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::instructions_engine as engine;
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    comment: bool,
    /// Deep nesting (`>` or `- ` repeated) ahead of the text.
    nest: Option<(bool, u16)>,
}

/// The lexer port recurses per nesting level and overflows the stack at a few
/// hundred levels, and a quote with a lazy line costs depth² × length (see
/// fuzz/artifacts/instructions_engine/*.txt): nesting past 7 levels is fed only
/// with COMPACT_PLUS_FUZZ_KNOWN_BUGS set, so the rest is fuzzed meanwhile.
fn known_bugs() -> bool {
    static SET: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SET.get_or_init(|| std::env::var_os("COMPACT_PLUS_FUZZ_KNOWN_BUGS").is_some())
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("instructions_engine", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let mut raw = gen::instruction_text(&mut u);
    if let Some((quote, depth)) = k.nest {
        let depth = if known_bugs() { usize::from(depth) } else { usize::from(depth % 8) };
        raw.insert_str(0, &(if quote { ">" } else { "- " }).repeat(depth));
    }
    if k.comment {
        // the lexer runs only where a comment is
        raw.push_str("\n<!-- c -->\n");
    }
    let content = engine::engine_content(&raw);
    let _ = engine::engine_loads(&content);
    let paths = engine::import_paths(&raw);
    assert_eq!(engine::has_imports(&raw), !paths.is_empty());
    let files = [("/p/CLAUDE.md", "project", content.as_str()), ("/u/CLAUDE.md", "user", raw.as_str())];
    let all = engine::claude_md_text(files);
    assert!(all.is_some_and(|t| t.starts_with(engine::CLAUDE_MD_PREAMBLE)));
    raw.len()
}));
