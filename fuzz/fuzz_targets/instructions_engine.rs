//! The engine's copy of an instruction file, rebuilt by the Markdown lexer port:
//! any text must come back in time linear in its length.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::instructions as engine;
use compact_plus_fuzz::gen;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    comment: bool,
    /// Deep nesting (`>` or `- ` repeated) ahead of the text: up to 65,535 levels, where the
    /// engine's port gives up past 256 (fuzz/artifacts/instructions_engine/ has what it once cost).
    nest: Option<(bool, u16)>,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("instructions_engine", data, || {
    let mut u = Unstructured::new(data);
    let Ok(k) = Knobs::arbitrary(&mut u) else { return 0 };
    let mut raw = gen::instruction_text(&mut u);
    if let Some((quote, depth)) = k.nest {
        let depth = usize::from(depth);
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
