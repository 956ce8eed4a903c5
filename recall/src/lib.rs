//! The recall tool's search, compiled to a wasm module of its own: the regex
//! engine it needs would double the size of the compaction path's module, and
//! only a call of the tool loads this one. The core reads the tool's input and
//! picks the files; this module only searches them.

use wasm_bindgen::prelude::*;

pub mod project;
pub mod search;

/// Searches the history files (`paths[i]` holds `texts[i]`) and answers the
/// text the model reads. `role` is `user`, `assistant`, `tool` or empty (all).
/// A pattern that cannot run answers why, starting `recall:`.
#[wasm_bindgen]
pub fn recall(paths: Vec<String>, texts: Vec<String>, query: String, regex: bool, role: String, limit: u32) -> String {
    let files: Vec<(String, String)> = paths.into_iter().zip(texts).collect();
    let role = (!role.is_empty()).then_some(role);
    let q = search::Query { text: query, regex, role, limit: limit as usize };
    search::search(&files, &q)
}

/// Recall across this project's earlier sessions. `request` is the core's
/// (the sources, their byte ranges, the query or the message to show);
/// `texts` holds every source's ranges in turn, and `missing[i]` is 1 where
/// the read of text `i` failed.
#[wasm_bindgen(js_name = recallProject)]
pub fn recall_project(request: String, texts: Vec<String>, missing: Vec<u8>) -> String {
    let (ask, sources) = match project::parse_request(&request) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let mut gone = Vec::with_capacity(sources.len());
    let mut at = 0;
    for s in &sources {
        let n = s.reads.len().max(1);
        gone.push((at..at + n).any(|i| missing.get(i).is_some_and(|m| *m != 0)));
        at += n;
    }
    let grouped = project::group(&sources, texts);
    project::answer(&ask, &sources, grouped, &gone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_over_the_given_files() {
        let paths = vec!["/h/2026-11-29T232701Z-manual.md".to_owned()];
        let texts = vec!["# Conversation before compaction\n\n## [3] user\n\nthe zebra-4417 marker\n".to_owned()];
        let a = recall(paths.clone(), texts.clone(), "zebra-4417".into(), false, String::new(), 8);
        assert!(a.contains("zebra-4417") && a.contains("[3] user"), "{a}");
        assert!(recall(paths.clone(), texts.clone(), "(".into(), true, String::new(), 8).starts_with("recall:"));
        let none = recall(paths, texts, "zebra".into(), false, "assistant".into(), 8);
        assert!(!none.contains("the zebra-4417 marker"), "{none}");
    }
}
