//! The recall tool's search, compiled to a wasm module of its own: the regex
//! engine it needs would double the size of the compaction path's module, and
//! only a call of the tool loads this one. The core reads the tool's input and
//! hands over what to search (`compact_plus::recall_tool::Recall`); each call
//! is a machine of its own here, on the core's step protocol
//! (`compact_plus::step`), which the shim runs with the same loop as the
//! core's hooks. Two calls at once (subagents, agent teams) are two machines.
//!
//! - [`look`]: the module's `$` calls.
//! - [`history`]: scope `session`, this session's history parts.
//! - [`walk`]: scope `project`, which files of earlier sessions to read.
//! - [`project`]: scope `project`, reading them: a search, the sessions view,
//!   one message.
//! - [`formats`]: each tool's record, a row at a time.
//! - [`lines`]: reads into whole lines. [`find`]: lines that can hit.
//!   [`terms`]: the query compiled. [`rank`]: the best few. [`text`]: the
//!   answer's text. [`folder`]: folders compared. [`order`]: the one sort.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use compact_plus::recall_tool::Recall;
use compact_plus::step::{on_wire, read_answers, Machine, OnWire, Step};

pub mod find;
pub mod folder;
pub mod formats;
pub mod handoff;
pub mod history;
pub mod json;
pub mod lines;
pub mod look;
pub mod order;
pub mod project;
pub mod rank;
pub mod terms;
pub mod text;
pub mod walk;

use look::Look;

/// At most this many calls in flight; an older one was abandoned by its shim.
const MAX_SEARCHES: usize = 16;

/// The calls in flight, by id.
#[derive(Default)]
struct Searches {
    machines: BTreeMap<u32, Machine<Look, String>>,
    last_id: u32,
}

thread_local! {
    static SEARCHES: RefCell<Searches> = RefCell::new(Searches::default());
}

/// One step's answer to the shim, as JSON.
#[derive(Serialize)]
#[serde(untagged)]
enum Reply<'a> {
    Ask { id: u32, calls: Vec<OnWire<'a, Look>> },
    Done { done: &'a str },
}

fn done(text: &str) -> String {
    serde_json::to_string(&Reply::Done { done: text }).unwrap_or_else(|_| r#"{"done":"recall: the search failed"}"#.into())
}

fn run(id: u32, mut m: Machine<Look, String>, answers: Option<compact_plus::step::Answers>) -> String {
    match m.resume(answers) {
        Step::Done(text) => done(&text),
        Step::Stalled => done("recall: the search stopped short."),
        Step::Ask(calls) => {
            let out = serde_json::to_string(&Reply::Ask { id, calls: on_wire(&calls) });
            SEARCHES.with(|s| {
                let mut s = s.borrow_mut();
                if s.machines.len() >= MAX_SEARCHES {
                    s.machines.pop_first();
                }
                s.machines.insert(id, m);
            });
            out.unwrap_or_else(|_| done("recall: the search failed"))
        }
    }
}

/// Starts a call on the core's handoff (JSON): its first step,
/// `{"id","calls"}`, or `{"done": answer}`.
#[wasm_bindgen]
pub fn start(recall: String) -> String {
    let Some(recall) = handoff::read(&recall) else {
        return done("recall: the search was handed a request it cannot read.");
    };
    let id = SEARCHES.with(|s| {
        let mut s = s.borrow_mut();
        s.last_id = s.last_id.wrapping_add(1).max(1);
        s.last_id
    });
    let m = Machine::new(move |host| async move {
        match recall {
            Recall::Session { paths, query } => history::search(host, paths, query).await,
            Recall::Project { project, history_dir } => project::recall(host, project, history_dir).await,
        }
    });
    run(id, m, None)
}

/// Resumes call `id` with the answers (JSON) to its last calls, and the texts
/// the shim handed beside them (UTF-8, one after the other: a file's text
/// crosses as bytes the shim encoded, neither escaped into JSON nor copied a
/// char at a time).
#[wasm_bindgen]
pub fn resume(id: u32, answers: String, texts: Vec<u8>) -> String {
    match SEARCHES.with(|s| s.borrow_mut().machines.remove(&id)) {
        Some(m) => {
            let answers = read_answers(&answers, m.asked(), texts);
            run(id, m, Some(answers))
        }
        None => done("recall: the search lost its place; ask again."),
    }
}

/// Forgets call `id` (its shim gave up on it).
#[wasm_bindgen]
pub fn cancel(id: u32) {
    SEARCHES.with(|s| s.borrow_mut().machines.remove(&id));
}

#[cfg(test)]
mod docs {
    use crate::walk::plan;

    /// docs/recall.md's table of the bounds says what the code bounds, row by row.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_docs_table_of_bounds_is_the_codes() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/recall.md")).unwrap();
        let row = |name: &str| doc.lines().find(|l| l.starts_with(&format!("| {name} |"))).unwrap_or_else(|| panic!("no row {name}")).to_owned();
        let mib = |b: u64| format!("{} MiB", b >> 20);
        let checks: [(&str, String); 9] = [
            ("sessions a call", format!("the newest {}", plan::MAX_SESSIONS)),
            ("bytes a call", mib(plan::MAX_CALL_BYTES)),
            ("one transcript", format!("{}: all of it, or its first {} and its newest {}", mib(plan::MAX_FILE_BYTES), mib(plan::READ_BYTES), mib(plan::READ_BYTES))),
            ("a saved summary, the prompt history", mib(plan::SMALL_FILE_BYTES)),
            ("one read", format!("| {} (", mib(plan::CHUNK_BYTES))),
            ("the walk's look-ups, together", format!("| {} s |", crate::look::WALK_WAIT_MS / 1000)),
            ("the reads, together", format!("| {} s |", crate::look::READS_WAIT_MS / 1000)),
            ("one line", mib(crate::lines::MAX_LINE_BYTES as u64)),
            ("the answer", format!("{},{:03} UTF-16 units", crate::text::MAX_ANSWER / 1000, crate::text::MAX_ANSWER % 1000)),
        ];
        for (name, want) in checks {
            let line = row(name);
            assert!(line.contains(&want), "docs/recall.md, row {name:?}: no {want:?} in {line}");
        }
    }
}
