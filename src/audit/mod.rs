//! The coverage audit: what the conversation named that the summary lost.
//!
//! A summary paraphrases, and a paraphrase drops the exact file, commit, URL or
//! error line the next turn needs. After the summarizer answers, the identifiers
//! of the compacted conversation are collected in one pass and checked against
//! the kept text (the summary and the verbatim block); the ones found in neither
//! are listed, with a pointer to the history file: what the person or the
//! assistant named first, then what the tools were given, then what they
//! printed, each most mentioned and most recent first. Deterministic, no model
//! call: the same conversation and summary always give the same list.
//!
//! Only what the person, the assistant and the tools said counts. Machine rows
//! (reminders, command echoes, earlier summaries) and `<system-reminder>` spans
//! are not the conversation, and listing them would only send the model
//! searching for boilerplate. Nor are the bodies of files the model read, the
//! bulk of a listing, or paths no one edits (`/dev/null`, `node_modules`): on
//! real sessions they crowded out what the person cared about (issue [9]).
//!
//! Every entry is listed by text the history file holds: only the part of a tool
//! call the history keeps is scanned ([`Keeps`]), an error line is listed as the
//! output has it, never with its whitespace collapsed, and no identifier is glued
//! across a reminder or a colour code. The recall tool then finds what the list
//! names.
//!
//! No regex: the shipped `regex` has no lazy DFA or literal prefilters, so the
//! scanners below are hand-written byte loops, linear in the text even for one
//! huge line, that skip what cannot start anything: commits seven bytes a step,
//! error markers by a pair table, words eight bytes a step to the next `/`,
//! `git` or "branch" (byte classes in `scan::bytes`). Measured on a 24 MB session
//! (`tests::bench`): collect ≈ 0.08 s of CPU natively, ≈ 0.16 s as the
//! size-optimised wasm in Node (0.17 s and 0.45 s before the skipping).
//!
//! The audit's list is one part of the block that says what the summary lost ([`block`]): first
//! the summary check's flags (`crate::attribution`: passages the summary puts in the person's
//! mouth that match none of their messages), then the work record's items the summary does not
//! already say (`crate::record`: unresolved failures with their error line, commits, branches,
//! open todos, files created, deleted or edited), ranked above the identifiers because a commit
//! made matters more than a path mentioned twelve times, then the identifiers. What the record
//! names is not listed again; the whole block stays within [`BLOCK_CHARS`], the identifiers
//! within [`IDENTIFIER_CHARS`] of it, and the record's items that had no room are counted and
//! named in the history file.
//!
//! The parts, in the order an audit runs: `collect` (which texts of the conversation are
//! scanned, and for what), `scan` (one scanner per kind of identifier), `mention` (the table
//! of what was found, ranked), `coverage` (whether the kept text holds an identifier),
//! `render` (what the list holds and how it reads), and `block` (the list with the record and
//! the flags). `what_is_listed` and `real_sessions` test them together, on made and on real
//! sessions.

mod block;
mod collect;
mod coverage;
mod hash;
mod mention;
mod render;
// Native only: proptest does not build for wasm32, and the real sessions are files.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod real_sessions;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod what_is_listed;
mod scan;

pub use block::{block, Lost, BLOCK_CHARS, IDENTIFIER_CHARS, RECORD_INTRO};
pub use collect::{collect, collect_kept, Keeps};
pub use mention::{Kind, Mention, Mentions, Source};
pub use render::{dropped, dropped_within, render};

use crate::message::Messages;

/// At most this many entries are listed: the block is a pointer, not a second summary.
pub const MAX_LISTED: usize = 40;
/// The whole rendered block, intro included, stays within this many characters
/// (UTF-16 units, as the host measures).
pub const MAX_LISTED_CHARS: usize = 2000;
/// Distinct identifiers kept while collecting. A session that prints thousands
/// of paths would otherwise grow the table without bound; past twice this many
/// the table is cut back to this many, keeping the most mentioned and most recent.
pub const MAX_TRACKED: usize = 20_000;

pub const INTRO: &str = "compact-plus: these were mentioned before this compaction and are not in the summary above; search the history file for them before asking the user:";

/// Collect, compare and render in one call.
pub fn audit(messages: &Messages, kept: &[&str]) -> Option<String> {
    render(&dropped(&collect(messages), kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;
    use crate::text;
    use coverage::{naive_contains, needles, Haystack, Needle};
    use scan::{scan_errors, scan_shas, scan_text, scan_words, Scan};
    use serde_json::{json, Value};

    fn session(rows: Value) -> Messages {
        parse_messages(&rows.to_string())
    }

    fn bash(command: &str, output: &str) -> Value {
        json!({"role": "assistant", "text": "", "toolUses": [
            {"tool": "Bash", "input": {"command": command, "description": "run"}, "text": output}
        ]})
    }

    fn texts(d: &[Mention]) -> Vec<(Kind, &str)> {
        d.iter().map(|m| (m.kind, m.text.as_str())).collect()
    }

    fn listed(d: &[Mention], kind: Kind, text: &str) -> bool {
        d.iter().any(|m| m.kind == kind && m.text == text)
    }

    const CARGO_OUT: &str = "   Compiling demo v0.1.0 (/work/demo)\n\
    error[E0382]: borrow of moved value: `v`\n --> src/main.rs:4:20\n  |\n\
    2 |     let v = vec![1];\n  |         - move occurs because `v` has type `Vec<i32>`\n\
    3 |     let w = v;\n4 |     println!(\"{:?}\", v);\n  |                      ^ value borrowed here after move\n\n\
    For more information about this error, try `rustc --explain E0382`.\n\
    error: could not compile `demo` (bin \"demo\") due to 1 previous error\n";

    fn rust_session() -> Messages {
        session(json!([
            {"role": "user", "text": "The build fails around `Vec` moves; keep the \"borrow checker\" happy and don't touch 'Cargo.lock settings'."},
            {"role": "assistant", "text": "Let me build it first."},
            bash("cd /work/demo && cargo build", CARGO_OUT),
            {"role": "assistant", "text": "", "toolUses": [
                {"tool": "Read", "input": {"file_path": "/work/demo/src/main.rs"},
                 "text": "     1\u{2192}fn main() {\n     2\u{2192}    let error: Option<String> = None; // error: not a real one\n"}
            ]},
            {"role": "assistant", "text": "", "toolUses": [
                {"tool": "Edit", "input": {"file_path": "/work/demo/src/main.rs", "old_string": "let w = v;",
                 "new_string": "let w = v.clone(); // see ./docs/moves.md"},
                 "text": "The file /work/demo/src/main.rs has been updated."}
            ]},
            bash("cargo build", CARGO_OUT),
        ]))
    }

    #[test]
    fn rust_error_session() {
        let m = collect(&rust_session());
        let err = m.get(Kind::Error, "error[E0382]: borrow of moved value: `v`").expect("error line");
        assert_eq!(err.count, 2);
        assert_eq!(m.get(Kind::Path, "/work/demo/src/main.rs").map(|x| x.count), Some(3));
        assert_eq!(m.get(Kind::Path, "src/main.rs").map(|x| x.count), Some(2));
        assert_eq!(m.get(Kind::Path, "/work/demo").map(|x| x.count), Some(3));
        assert!(m.get(Kind::Quoted, "borrow checker").is_some());
        assert!(m.get(Kind::Quoted, "Vec").is_some());
        assert!(m.get(Kind::Quoted, "Cargo.lock settings").is_some());
        // Generic cargo lines, Read bodies and Edit bodies are not identifiers.
        let all = m.ranked();
        assert!(!all.iter().any(|x| x.text.contains("could not compile")), "{all:?}");
        assert!(!all.iter().any(|x| x.text.contains("not a real one")), "{all:?}");
        assert!(m.get(Kind::Path, "./docs/moves.md").is_none());
        assert!(!all.iter().any(|x| x.kind == Kind::Quoted && x.text == "t touch "));

        let summary = "Fixed E0382 in src/main.rs by cloning `v` before the move. Build is green.";
        let d = dropped(&m, &[summary]);
        assert!(!listed(&d, Kind::Error, "error[E0382]: borrow of moved value: `v`"));
        assert!(!listed(&d, Kind::Path, "/work/demo/src/main.rs"), "covered by src/main.rs");
        assert!(listed(&d, Kind::Path, "/work/demo"), "{d:?}");
        assert!(listed(&d, Kind::Quoted, "borrow checker"));
        // The verbatim block holds the person's message: the quotes are kept.
        let verbatim = "<user-messages-verbatim>\n--- user message ---\nThe build fails around `Vec` moves; keep the \"borrow checker\" happy and don't touch 'Cargo.lock settings'.\n</user-messages-verbatim>";
        let d = dropped(&m, &[summary, verbatim]);
        assert!(!d.iter().any(|x| x.kind == Kind::Quoted), "{d:?}");
        assert_eq!(texts(&d), vec![(Kind::Path, "/work/demo")]);
    }

    #[test]
    fn error_code_alone_does_not_cover_a_different_error() {
        let m = collect(&rust_session());
        let d = dropped(&m, &["We changed src/main.rs; a borrow problem remains."]);
        assert!(listed(&d, Kind::Error, "error[E0382]: borrow of moved value: `v`"));
        // The message itself, quoted, covers it.
        let d = dropped(&m, &["Fixed `borrow of moved value: v` in src/main.rs"]);
        assert!(!listed(&d, Kind::Error, "error[E0382]: borrow of moved value: `v`"), "{d:?}");
    }

    #[test]
    fn python_traceback() {
        let out = "Traceback (most recent call last):\n  File \"/home/ana/proj/app/main.py\", line 12, in <module>\n    run()\n  File \"/home/ana/proj/app/db.py\", line 40, in run\n    conn = connect(cfg[\"dsn\"])\n          ~~~^^^^^^^\nKeyError: 'dsn'\n";
        let out2 = "Traceback (most recent call last):\n  File \"/home/ana/proj/app/main.py\", line 3, in <module>\n    import psycopg\nKeyboardInterrupt\n";
        let m = collect(&session(json!([
            {"role": "user", "text": "run the app"},
            bash("python3 app/main.py", out),
            bash("python3 app/main.py", out2),
        ])));
        assert_eq!(m.get(Kind::Error, "KeyError: 'dsn'").map(|x| x.count), Some(1));
        assert!(m.get(Kind::Error, "KeyboardInterrupt").is_some(), "{:?}", m.ranked());
        assert!(!m.ranked().iter().any(|x| x.text.starts_with("Traceback")));
        assert_eq!(m.get(Kind::Path, "/home/ana/proj/app/main.py").map(|x| x.count), Some(2));
        assert!(m.get(Kind::Path, "/home/ana/proj/app/db.py").is_some());
        assert!(m.get(Kind::Path, "app/main.py").is_some());
        let d = dropped(&m, &["The app crashed with KeyError: 'dsn' in app/db.py."]);
        assert!(!listed(&d, Kind::Error, "KeyError: 'dsn'"));
        assert!(!listed(&d, Kind::Path, "/home/ana/proj/app/db.py"));
        assert!(listed(&d, Kind::Error, "KeyboardInterrupt"));
        // Listed once, as the command gave it: a tool's input ranks above what it printed.
        assert!(listed(&d, Kind::Path, "app/main.py"), "{d:?}");
        assert!(!listed(&d, Kind::Path, "/home/ana/proj/app/main.py"));
    }

    #[test]
    fn git_branch_work() {
        let m = collect(&session(json!([
            {"role": "user", "text": "Start a branch for the login form off origin/develop, then push it."},
            bash("git fetch origin && git checkout -b feature/login-form origin/develop",
                 "Switched to a new branch 'feature/login-form'\nbranch 'feature/login-form' set up to track 'origin/develop'."),
            bash("git log --oneline -3", "a1b2c3d (HEAD -> feature/login-form) Add login form\n9f8e7d6 Wire session store\n0c4d5e6 Initial commit\n"),
            bash("git push -u origin feature/login-form", "To github.com:ana/app.git\n * [new branch]      feature/login-form -> feature/login-form\n"),
            bash("git switch main && git merge --no-ff feature/login-form", "Merge made by the 'ort' strategy.\n"),
            bash("git branch -d hotfix-42; git checkout -- src/app.ts", "Deleted branch hotfix-42 (was 3e4f5a6b7c8d).\n"),
            {"role": "assistant", "text": "Container 550e8400-e29b-41d4-a716-446655440000 at 0x7ffdab12cd45 wrote 1.5e10 rows; see build.a1b2c3d4.js."},
        ])));
        let b = |n: &str| m.get(Kind::Branch, n).map(|x| x.count);
        assert!(b("feature/login-form").unwrap_or(0) >= 5, "{:?}", m.ranked());
        assert!(b("develop").is_some());
        assert_eq!(b("main"), Some(1));
        assert!(b("hotfix-42").is_some());
        assert!(b("src/app.ts").is_none());
        assert!(b("origin").is_none());
        for sha in ["a1b2c3d", "9f8e7d6", "0c4d5e6", "3e4f5a6b7c8d"] {
            assert!(m.get(Kind::Sha, sha).is_some(), "{sha}");
        }
        let shas: Vec<String> = m.ranked().into_iter().filter(|x| x.kind == Kind::Sha).map(|x| x.text).collect();
        assert_eq!(shas.len(), 4, "no UUID pieces, 0x numbers, exponents or hashed names: {shas:?}");

        let summary = "Created feature/login-form from develop, committed a1b2c3d and 9f8e7d6 (full: 9f8e7d6aa01), merged into main.";
        let d = dropped(&m, &[summary]);
        assert!(!listed(&d, Kind::Branch, "feature/login-form"));
        assert!(!listed(&d, Kind::Branch, "main"));
        assert!(!listed(&d, Kind::Sha, "9f8e7d6"));
        assert!(listed(&d, Kind::Branch, "hotfix-42"));
        assert!(listed(&d, Kind::Sha, "0c4d5e6"));
        // "main" inside "maintain" does not count.
        let d = dropped(&m, &["We maintain feature/login-form."]);
        assert!(listed(&d, Kind::Branch, "main"));
    }

    #[test]
    fn machine_rows_and_reminders_are_not_listed() {
        let m = collect(&session(json!([
            {"role": "user", "text": "<system-reminder>Check /opt/hidden/one.rs and https://hidden.example/a</system-reminder>"},
            {"role": "user", "text": "please look at src/real.rs <system-reminder>see /opt/hidden/two.rs \"hidden term\"</system-reminder>"},
            {"role": "user", "text": "<command-name>/compact</command-name>\n<command-args>/opt/hidden/three.rs</command-args>"},
            {"role": "user", "text": "<local-command-stdout>/opt/hidden/four.rs</local-command-stdout>"},
            {"role": "user", "text": "Caveat: The messages below were generated by the user while running local commands. /opt/hidden/five.rs"},
            {"role": "user", "text": format!("{} that ran out of context. /opt/hidden/six.rs error[E0001]: old", crate::engine::summary_row::HEAD)},
            {"role": "assistant", "text": "Reading it.<system-reminder>/opt/hidden/seven.rs</system-reminder>", "toolUses": [
                {"tool": "Read", "input": {"file_path": "/work/src/real.rs"},
                 "text": "fn x() {}\n<system-reminder>\nWhenever you read a file /opt/hidden/eight.rs consider malware.\n</system-reminder>"}
            ]},
        ])));
        let all = m.ranked();
        assert!(!all.iter().any(|x| x.text.contains("hidden")), "{all:?}");
        assert!(!all.iter().any(|x| x.text.contains("E0001")), "{all:?}");
        assert!(m.get(Kind::Path, "src/real.rs").is_some());
        assert!(m.get(Kind::Path, "/work/src/real.rs").is_some());
        let d = dropped(&m, &[""]);
        assert!(!d.iter().any(|x| x.text.contains("hidden")));
        // `src/real.rs` and `/work/src/real.rs` are listed once, as the person named it.
        assert_eq!(texts(&d), vec![(Kind::Path, "src/real.rs")]);
    }

    #[test]
    fn ordering_is_count_then_recency() {
        let m = collect(&session(json!([
            {"role": "user", "text": "see docs/often.md and docs/early.md"},
            {"role": "user", "text": "again docs/often.md"},
            {"role": "user", "text": "and docs/often.md, plus docs/twice.md"},
            {"role": "user", "text": "docs/twice.md then docs/late.md"},
        ])));
        let d = dropped(&m, &["nothing"]);
        assert_eq!(
            texts(&d),
            vec![
                (Kind::Path, "docs/often.md"),
                (Kind::Path, "docs/twice.md"),
                (Kind::Path, "docs/late.md"),
                (Kind::Path, "docs/early.md"),
            ]
        );
        assert_eq!(d.first().map(|x| (x.count, x.message)), Some((3, 2)));
        let r = render(&d).unwrap_or_default();
        assert!(r.starts_with(INTRO));
        assert!(r.contains("\n- path: docs/often.md (×3)\n- path: docs/twice.md (×2)\n"), "{r}");
    }

    #[test]
    fn caps_hold() {
        let rows: Vec<Value> = (0..500)
            .map(|i| json!({"role": "assistant", "text": format!("Touched /srv/app/mod{i}/file{i}.rs and https://example.com/issues/{i}")}))
            .collect();
        let m = collect(&session(Value::Array(rows)));
        assert_eq!(m.len(), 1000, "500 paths and 500 urls");
        let d = dropped(&m, &["summary"]);
        assert!(d.len() <= MAX_LISTED && !d.is_empty());
        let r = render(&d).unwrap_or_default();
        assert!(text::len16(&r) <= MAX_LISTED_CHARS, "{}", text::len16(&r));
        // Newest first at equal counts.
        assert!(d.first().is_some_and(|x| x.text.contains("499")), "{:?}", d.first());

        // Long identifiers: the character cap binds before the entry cap.
        let rows: Vec<Value> = (0..500)
            .map(|i| json!({"role": "assistant", "text": format!("https://example.com/{}/{i}", "segment".repeat(30))}))
            .collect();
        let d = dropped(&collect(&session(Value::Array(rows))), &[]);
        let r = render(&d).unwrap_or_default();
        assert!(d.len() < 10 && !d.is_empty(), "{}", d.len());
        assert!(text::len16(&r) <= MAX_LISTED_CHARS);
    }

    #[test]
    fn nothing_dropped_renders_nothing() {
        let m = collect(&session(json!([{"role": "user", "text": "fix src/lib.rs"}])));
        assert_eq!(dropped(&m, &["Fixed SRC/LIB.RS."]), vec![]);
        assert_eq!(render(&[]), None);
        assert_eq!(audit(&Vec::new(), &["x"]), None);
        assert!(audit(&session(json!([{"role": "user", "text": "fix src/lib.rs"}])), &["no"]).is_some());
    }

    /// Minified output and pasted logs come as one huge line: every scanner must
    /// stay linear in it (a quadratic one would take minutes here).
    #[test]
    fn one_huge_line_is_one_pass() {
        let line = "x Error: y (error: z) it's 'q http://nope \"a ".repeat(20_000);
        let m = collect(&session(json!([
            {"role": "user", "text": line},
            bash("cat bundle.min.js", &line),
        ])));
        let errors: Vec<Mention> = m.ranked().into_iter().filter(|x| x.kind == Kind::Error).collect();
        assert_eq!(errors.len(), 1, "one error per line");
        assert!(errors.first().is_some_and(|e| e.count == 2 && e.text.starts_with("x Error: y")));
    }

    #[test]
    fn deterministic() {
        let a = audit(&rust_session(), &["summary"]);
        for _ in 0..5 {
            assert_eq!(audit(&rust_session(), &["summary"]), a);
        }
        assert!(a.is_some());
    }

    /// Figures for the report: `cargo test --release -- --ignored --nocapture audit::tests::bench`.
    #[test]
    #[ignore]
    fn bench() {
        /// This thread's CPU time (Linux), so figures hold on a loaded machine.
        struct Instant(u64);
        impl Instant {
            fn now() -> Instant {
                let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
                Instant(s.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or(0))
            }
            fn elapsed(&self) -> std::time::Duration {
                std::time::Duration::from_nanos(Instant::now().0.saturating_sub(self.0))
            }
        }
        let mut rows = Vec::new();
        let mut bytes = 0;
        let mut i = 0usize;
        while bytes < 24_000_000 {
            let out = format!(
                "{CARGO_OUT}   Compiling crate{i} v0.1.{i}\n/work/app/src/mod{m}/file{i}.rs:{i}:1: warning: unused\ncommit {i:07x}abc\n{}\n",
                "Lorem ipsum dolor sit amet, the quick brown fox jumps over the lazy dog, error handling is fine here.\n".repeat(40),
                m = i % 97
            );
            bytes += out.len();
            rows.push(json!({"role": "user", "text": format!("please check src/mod{}/file{i}.rs and the \"term {i}\" <system-reminder>x</system-reminder>", i % 97)}));
            rows.push(json!({"role": "assistant", "text": format!("Looking at https://example.com/issues/{i} now."), "toolUses": [
                {"tool": "Bash", "input": {"command": format!("cargo test -p crate{i} && git checkout -b fix/issue-{i}")}, "text": out}
            ]}));
            i += 1;
        }
        let json = Value::Array(rows).to_string();
        let t = Instant::now();
        let messages = parse_messages(&json);
        let parse = t.elapsed();
        let t = Instant::now();
        let m = collect(&messages);
        let collect_time = t.elapsed();
        let all_text: Vec<&str> = messages.iter().flatten().flat_map(|m| m.tool_uses.0.iter().filter_map(|u| u.text.as_deref())).collect();
        for part in ["errors", "shas", "words", "all"] {
            let t = Instant::now();
            let mut mm = Mentions::default();
            for s in &all_text {
                match part {
                    "errors" => scan_errors(&mut mm, s),
                    "shas" => scan_shas(&mut mm, s),
                    "words" => {
                        scan_words(&mut mm, s, false);
                    }
                    _ => scan_text(&mut mm, s, Scan { errors: true, quotes: false, prose: false }),
                }
            }
            println!("  {part}: {:?} over {} MB of tool results", t.elapsed(), all_text.iter().map(|s| s.len()).sum::<usize>() / 1_000_000);
        }
        println!("session: {} MB json, {} messages; parse {parse:?}; collect {collect_time:?}; {} identifiers tracked", json.len() / 1_000_000, messages.len(), m.len());

        // A 200 KB summary that names a third of the identifiers.
        let ranked = m.ranked();
        let mut summary = String::new();
        for (k, x) in ranked.iter().enumerate() {
            if k % 3 == 0 && summary.len() < 200_000 {
                summary.push_str(&format!("We looked at {} and moved on. ", x.text));
            }
        }
        while summary.len() < 200_000 {
            summary.push_str("The quick brown fox jumps over the lazy dog. ");
        }
        let t = Instant::now();
        let d = dropped(&m, &[&summary]);
        println!("dropped (index, early stop at 40): {:?}, {} listed", t.elapsed(), d.len());

        let take = 1000.min(ranked.len());
        let t = Instant::now();
        let hay = Haystack::new(&[&summary]);
        let build = t.elapsed();
        let needles: Vec<Needle> = ranked.iter().take(take).flat_map(needles).collect();
        let t = Instant::now();
        let a = needles.iter().filter(|n| hay.contains(n)).count();
        let index = t.elapsed();
        let t = Instant::now();
        let b = needles.iter().filter(|n| naive_contains(&hay.text, n)).count();
        let naive = t.elapsed();
        let t = Instant::now();
        let lower = String::from_utf8_lossy(&hay.text).into_owned();
        let c = needles
            .iter()
            .filter(|n| lower.contains(std::str::from_utf8(&n.text).unwrap_or("")))
            .count();
        let std_find = t.elapsed();
        println!("{} needles x 200 KB: index build {build:?} + lookups {index:?} ({a} found); byte scan {naive:?} ({b}); str::contains without boundaries {std_find:?} ({c})", needles.len());
        assert_eq!(a, b);

        // The alternation of escaped literals the brief mentions, on the shipped regex features.
        let alternation = needles
            .iter()
            .take(200)
            .map(|n| regex::escape(std::str::from_utf8(&n.text).unwrap_or("")))
            .collect::<Vec<_>>()
            .join("|");
        let t = Instant::now();
        let re = regex::Regex::new(&alternation).expect("regex");
        let hits: std::collections::HashSet<&str> = re.find_iter(&lower).map(|m| m.as_str()).collect();
        println!("regex alternation of 200 literals over 200 KB (PikeVM only): {:?}, {} distinct hits", t.elapsed(), hits.len());
    }
}
