//! The recall tool's search, compiled to a wasm module of its own: the regex
//! engine it needs would double the size of the compaction path's module, and
//! only a call of the tool loads this one. The core reads the tool's input and
//! picks this session's files; this module walks the project's earlier
//! sessions (`walk`) and searches.

use wasm_bindgen::prelude::*;

pub mod project;
pub mod search;
pub mod steps;
pub mod walk;

use std::cell::RefCell;

thread_local! {
    /// The walk in progress: one at a time, and the shim drops the instance
    /// after the call anyway.
    static WALK: RefCell<Option<steps::Machine>> = const { RefCell::new(None) };
}

/// Starts the walk of a project recall (`walk::project`): answers its first
/// step as the core's are (`{"calls":[…]}`), or `{"done":…}`: `{"answer"}`,
/// or the `sources` to read, their `deadlineMs` and the `request` for
/// `recallProject`.
#[wasm_bindgen(js_name = walkStart)]
pub fn walk_start(input: String, history_dir: String) -> String {
    let m = steps::Machine::new(move |host| async move { walk::project(&host, &input, &history_dir).await });
    walk_run(m, None)
}

/// Resumes the walk with the answers (JSON, as the core takes them).
#[wasm_bindgen(js_name = walkResume)]
pub fn walk_resume(answers: String) -> String {
    match WALK.with(|w| w.borrow_mut().take()) {
        Some(m) => walk_run(m, Some(&answers)),
        None => r#"{"done":{"answer":"recall: the search lost its place; ask again."}}"#.to_owned(),
    }
}

fn walk_run(mut m: steps::Machine, answers: Option<&str>) -> String {
    match m.step(answers) {
        Ok(done) => format!("{{\"done\":{done}}}"),
        Err(calls) if calls.is_empty() => r#"{"done":{"answer":"recall: the search stopped short."}}"#.to_owned(),
        Err(calls) => {
            let calls = serde_json::Value::Array(calls).to_string();
            WALK.with(|w| *w.borrow_mut() = Some(m));
            format!("{{\"calls\":{calls}}}")
        }
    }
}

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
