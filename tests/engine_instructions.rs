//! The engine's copy of instruction files, checked against what Claude Code 2.1.328 really
//! held: `engine-instructions.json` is one real CLI run per CLAUDE.md / AGENTS.md variant,
//! `engine-instructions-corpus.json` generated Markdown that the real CLI loaded as imports
//! (both recorded by a probe mod logging `prompt.context`).

use compact_plus::instructions::{
    claude_md_text, engine_content, engine_loads, has_imports,
};
use serde_json::Value;

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match serde_json::from_str(&text) {
        Ok(Value::Array(items)) => items,
        other => panic!("{path}: not a JSON array: {other:?}"),
    }
}

fn text<'a>(case: &'a Value, key: &str) -> Option<&'a str> {
    case.get(key).and_then(Value::as_str)
}

/// A file the engine held must come out exactly; a file it left out must come out empty.
fn check(label: &str, raw: &str, held: Option<&str>) -> Result<(), String> {
    let ours = engine_content(raw);
    match held {
        Some(content) if ours != content => Err(format!(
            "{label}: raw {raw:?}\n  engine {content:?}\n  ours   {ours:?}"
        )),
        Some(_) => Ok(()),
        None if engine_loads(&ours) => Err(format!(
            "{label}: the engine left {raw:?} out, ours keeps {ours:?}"
        )),
        None => Ok(()),
    }
}

#[test]
fn every_recorded_variant_matches_the_engine() {
    let cases = fixture("engine-instructions.json");
    assert!(cases.len() >= 40, "fixture holds {} variants", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let name = text(case, "name").unwrap_or("?");
        let raw = text(case, "raw").unwrap_or_else(|| panic!("{name}: no raw"));
        if let Err(e) = check(name, raw, text(case, "content")) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn import_detection_matches_the_imports_the_engine_loaded() {
    for case in fixture("engine-instructions.json") {
        let name = text(&case, "name").unwrap_or("?");
        let raw = text(&case, "raw").unwrap_or("");
        let loaded = case
            .get("importsFound")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        assert_eq!(has_imports(raw), loaded, "{name}: {raw:?}");
    }
}

#[test]
fn claude_md_text_matches_the_engine() {
    let mut checked = 0;
    for case in fixture("engine-instructions.json") {
        let name = text(&case, "name").unwrap_or("?");
        let Some(expected) = text(&case, "claudeMdText") else {
            continue;
        };
        let files: Vec<(&str, &str, &str)> = case
            .get("instructionFiles")
            .and_then(Value::as_array)
            .map(|files| {
                files
                    .iter()
                    .map(|f| {
                        (
                            text(f, "path").unwrap_or(""),
                            text(f, "kind").unwrap_or(""),
                            text(f, "content").unwrap_or(""),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(claude_md_text(files).as_deref(), Some(expected), "{name}");
        checked += 1;
    }
    assert!(
        checked >= 30,
        "only {checked} variants had a claudeMd block"
    );
}

#[test]
fn the_generated_corpus_matches_the_engine() {
    let cases = fixture("engine-instructions-corpus.json");
    assert!(cases.len() >= 500, "corpus holds {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .enumerate()
        .filter_map(|(i, case)| {
            check(
                &format!("case {i}"),
                text(case, "raw").unwrap_or(""),
                text(case, "content"),
            )
            .err()
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
