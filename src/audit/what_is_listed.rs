//! What the audit lists from a session, rule by rule, on the shapes real sessions have (issue
//! [9]: `../shared/real-transcripts/`), and that every entry it lists is in the history file by
//! its exact text, so the recall tool finds what the audit sends the model after.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::{collect, dropped, Kind, Mention, Source};
use crate::compaction::history;
use crate::message::{parse_messages, Messages};

fn session(rows: Value) -> Messages {
    parse_messages(&rows.to_string())
}

/// An assistant row with one tool call and its result, as the engine hands them over.
fn call(tool: &str, input: Value, result: &str) -> Value {
    json!({"role": "assistant", "text": "", "toolUses": [{"tool": tool, "input": input, "text": result}]})
}

fn bash(command: &str, output: &str) -> Value {
    call("Bash", json!({"command": command, "description": "run"}), output)
}

/// What the block would list against a summary that kept nothing.
fn listed(m: &Messages) -> Vec<Mention> {
    dropped(&collect(m), &[])
}

fn texts(d: &[Mention]) -> Vec<&str> {
    d.iter().map(|m| m.text.as_str()).collect()
}

/// The history file the hooks write for these messages (no redaction), all parts joined.
pub(super) fn history_text(messages: &Messages) -> String {
    history::parts(messages, &history::Meta::default(), history::WRITE_LIMIT, &|t| t.to_owned()).concat()
}

fn assert_findable(m: &Messages) {
    let history = history_text(m);
    for entry in listed(m) {
        assert!(history.contains(&entry.text), "listed but not in the history file: {entry:?}");
    }
}

#[test]
fn named_first_then_used_then_printed() {
    let build = "   Compiling app v0.1.0\nwarning: unused import in src/build/generated.rs\n".repeat(30);
    let m = session(json!([
        {"role": "user", "text": "Follow docs/plan.md for the cache."},
        {"role": "assistant", "text": "I'll start in src/cache.rs."},
        call("Read", json!({"file_path": "/repo/src/store.rs"}), "     1\u{2192}pub struct Store;\n"),
        bash("cargo build", &build),
        bash("cargo build", &build),
    ]));
    let d = listed(&m);
    assert_eq!(texts(&d), vec!["src/cache.rs", "docs/plan.md", "/repo/src/store.rs", "src/build/generated.rs"]);
    let sources: Vec<Source> = d.iter().map(|x| x.source).collect();
    assert_eq!(sources, vec![Source::Named, Source::Named, Source::Used, Source::Seen]);
    assert_eq!(d.last().map(|x| x.count), Some(60), "printed 60 times, still last");
}

#[test]
fn bodies_of_what_the_model_read_are_not_listed() {
    // The shapes the real sessions listed from Read results: a test file's literals, a regex,
    // an import; a fetched page's links; a notebook's cells.
    let file = "   104\u{2192}\t\tconst headerMatch = segment.match(/^a\\/(.+?) b\\/(.+)/);\n\
                105\u{2192}\t\tif (/^new file mode/m.test(segment)) {\n\
                106\u{2192}\t\texpect(route('/r/a')).toBe('/r/a');\n\
                107\u{2192}import { plan } from \"./prompt-generator\";\n\
                108\u{2192}throw new Error(\"error: not a real one\");\n";
    let m = session(json!([
        call("Read", json!({"file_path": "/repo/src/git.ts"}), file),
        call("WebFetch", json!({"url": "https://docs.example.com/guide", "prompt": "summarize"}),
             "See https://docs.example.com/other and /static/app.js. Error: none"),
        call("NotebookRead", json!({"notebook_path": "/repo/nb/explore.ipynb"}), "df = pd.read_csv('data/raw/input.csv')"),
    ]));
    let d = listed(&m);
    assert_eq!(texts(&d), vec!["/repo/nb/explore.ipynb", "https://docs.example.com/guide", "/repo/src/git.ts"]);
}

#[test]
fn listings_give_a_few_entries() {
    let envs: String = (0..25).map(|i| format!("env{i:<12}        /Users/chip/miniconda3/envs/env{i}\n")).collect();
    let found: String = (0..40).map(|i| format!("./internal/pkg{i}/handler.go\n")).collect();
    let globbed: String = (0..30).map(|i| format!("/repo/src/components/C{i}.tsx\n")).collect();
    let grepped: String = (0..20).map(|i| format!("src/mod{i}.rs:{i}:    return Err(\"error: bad input\".into());\n")).collect();
    let lock: String = (0..50)
        .map(|i| format!("    \"node_modules/p{i}\": {{\n      \"resolved\": \"https://registry.npmjs.org/p{i}/-/p{i}-1.0.{i}.tgz\",\n"))
        .collect();
    for (rows, what) in [
        (json!([bash("conda env list", &envs)]), "conda env list"),
        (json!([bash("cd /repo && find . -name '*.go' | head -50", &found)]), "find"),
        (json!([call("Glob", json!({"pattern": "**/*.tsx"}), &globbed)]), "Glob"),
        (json!([call("Grep", json!({"pattern": "error:", "output_mode": "content"}), &grepped)]), "Grep"),
        (json!([bash("cat package-lock.json", &lock)]), "a lockfile"),
    ] {
        let d = listed(&session(rows));
        let from_result: Vec<&Mention> = d.iter().filter(|x| x.source == Source::Seen).collect();
        assert!(from_result.len() <= 3, "{what}: {d:?}");
        assert!(!d.iter().any(|x| x.kind == Kind::Error), "{what}: {d:?}");
        assert!(!d.iter().any(|x| x.text.ends_with(".tgz") || x.text.contains("node_modules")), "{what}: {d:?}");
    }
}

#[test]
fn a_build_log_gives_a_bounded_number_of_each_kind() {
    let out: String = (0..12)
        .map(|i| format!("error[E0308]: mismatched types in f{i}\n --> src/m{i}.rs:{i}:5\n"))
        .collect();
    let d = listed(&session(json!([bash("cargo build", &out)])));
    let count = |k: Kind| d.iter().filter(|x| x.kind == k).count();
    assert_eq!(count(Kind::Path), 6, "{d:?}");
    assert_eq!(count(Kind::Error), 6, "{d:?}");
    // The first ones the log printed.
    assert!(d.iter().any(|x| x.text == "src/m0.rs") && !d.iter().any(|x| x.text == "src/m11.rs"));
}

#[test]
fn device_temp_and_vendored_paths_are_not_listed() {
    let traceback = "Traceback (most recent call last):\n  File \"/home/ana/app/train.py\", line 9, in <module>\n    \
                     model = AutoModel.from_pretrained(name)\n  File \"/home/ana/.venv/lib/python3.11/site-packages/transformers/modeling_utils.py\", line 3012, in from_pretrained\n    \
                     raise OSError(msg)\nOSError: no file named pytorch_model.bin\n";
    let node = "TypeError: Cannot read properties of undefined (reading 'map')\n    at render (/repo/web/src/List.tsx:12:9)\n    \
                at renderWithHooks (/repo/web/node_modules/react-dom/cjs/react-dom.development.js:16305:18)\n";
    let m = session(json!([
        bash("cargo test 2>/dev/null | tee /tmp/test.log", "test result: ok. 3 passed\n"),
        bash("python train.py", traceback),
        bash("npm test", node),
        bash("cat /proc/self/status", "Name:\tcat\n"),
        bash("cargo build", "   Compiling serde v1.0.200 (~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.200)\n"),
    ]));
    let d = listed(&m);
    let paths: Vec<&str> = d.iter().filter(|x| x.kind == Kind::Path).map(|x| x.text.as_str()).collect();
    assert_eq!(paths, vec!["/repo/web/src/List.tsx", "/home/ana/app/train.py"], "{d:?}");
    assert!(d.iter().any(|x| x.text == "OSError: no file named pytorch_model.bin"));
}

#[test]
fn a_diff_names_each_file_once_and_no_blob() {
    let diff = "diff --git a/cmd/entire/cli/wingman.go b/cmd/entire/cli/wingman.go\n\
                index 48f53c95..bcd63072 100644\n\
                --- a/cmd/entire/cli/wingman.go\n\
                +++ b/cmd/entire/cli/wingman.go\n\
                @@ -1,3 +1,4 @@\n+// added\n";
    let d = listed(&session(json!([bash("git diff", diff)])));
    assert_eq!(texts(&d), vec!["cmd/entire/cli/wingman.go"], "{d:?}");
    assert_eq!(d.first().map(|x| x.count), Some(4));
}

#[test]
fn download_progress_is_not_a_path() {
    let progress: String = (0..40).map(|i| format!("\rmodel.safetensors: {:>3}%|###   | {}M/1.42G [00:{i:02}<01:10, 10.4MB/s]", i * 2, 100 + i * 10)).collect();
    let d = listed(&session(json!([bash("python download.py", &progress)])));
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn extensionless_paths_from_prose_and_tool_arguments() {
    let m = session(json!([
        {"role": "user", "text": "The binary is target/release/quokka_42_engine. Run bin/server, then look at cmd/api, internal/auth, scripts/build, docker/Dockerfile and src/components/ (and/or the client/server split, 1/2 of it)."},
        call("Grep", json!({"pattern": "mode/m", "path": "web/handlers"}), "web/handlers/auth.go\n"),
    ]));
    let d = listed(&m);
    let mut got = texts(&d);
    got.sort_unstable();
    assert_eq!(
        got,
        vec![
            "bin/server", "cmd/api", "docker/Dockerfile", "internal/auth", "scripts/build", "src/components",
            "target/release/quokka_42_engine", "web/handlers", "web/handlers/auth.go",
        ]
    );
}

#[test]
fn only_what_the_history_keeps_is_listed() {
    // The history keeps 8,400 units of a long result's start and 3,600 of its end.
    let mut out = String::from("src/head.rs\n");
    while out.len() < 8_390 {
        out.push_str("ok ");
    }
    out.push_str("src/boundary_path.rs\n");
    out.push_str(&"x ".repeat(4_000));
    out.push_str("\nsrc/middle.rs\nerror: lost in the middle\n");
    out.push_str(&"y ".repeat(8_000));
    out.push_str("\nsrc/tail.rs\n");
    let long_prompt = format!("Look at src/prompt_head.rs. {} Then src/prompt_middle.rs. {}", "a ".repeat(2_000), "b ".repeat(1_000));
    let m = session(json!([
        bash("make", &out),
        call("Task", json!({"description": "explore", "prompt": long_prompt}), "done"),
    ]));
    let d = listed(&m);
    let mut got = texts(&d);
    got.sort_unstable();
    assert_eq!(got, vec!["src/head.rs", "src/prompt_head.rs", "src/tail.rs"], "{d:?}");
    assert_findable(&m);
}

#[test]
fn error_lines_are_listed_as_the_output_has_them() {
    let go = "=== RUN   TestParse\n    parse_test.go:12: \tgot 3\twant 4\n--- FAIL: TestParse/with_tabs (0.00s)\n\
              FAIL\tgithub.com/ana/parser\t0.004s\n";
    let m = session(json!([bash("go test ./...", go)]));
    let d = listed(&m);
    let errors: Vec<&str> = d.iter().filter(|x| x.kind == Kind::Error).map(|x| x.text.as_str()).collect();
    // `FAIL<tab>github.com/ana/parser`: the run around the marker is too short to list; the
    // package is listed as a path.
    assert_eq!(errors, vec!["--- FAIL: TestParse/with_tabs (0.00s)"], "{d:?}");
    assert!(d.iter().any(|x| x.kind == Kind::Path && x.text == "github.com/ana/parser"), "{d:?}");
    assert!(!d.iter().any(|x| x.text.starts_with("TestParse/")), "a sub-test is no path: {d:?}");
    assert_findable(&m);
}

#[test]
fn reminders_and_colour_codes_never_glue_a_word() {
    let m = session(json!([
        {"role": "assistant", "text": "See src/a.rs<system-reminder>note</system-reminder>.bak next."},
        bash("cargo test --color=always", "\u{1b}[31merror\u{1b}[0m: src/b.rs\u{1b}[1m:4\u{1b}[0m failed\n"),
    ]));
    let d = listed(&m);
    assert_eq!(texts(&d), vec!["src/a.rs", "src/b.rs"], "{d:?}");
    assert_findable(&m);
}

#[test]
fn git_words_in_prose_name_a_branch_only_when_one_could_be_meant() {
    let m = session(json!([
        {"role": "assistant", "text": "The git checkout failed because of the lock; git switch main works, and git checkout fix-42 too."},
        bash("git checkout feature", "Switched to branch 'feature'\n"),
    ]));
    let d = listed(&m);
    let branches: Vec<&str> = d.iter().filter(|x| x.kind == Kind::Branch).map(|x| x.text.as_str()).collect();
    assert_eq!(branches, vec!["fix-42", "main", "feature"], "{d:?}");
}

/// Pieces real sessions are made of, mixed at random into messages, tool calls and results of
/// any length: whatever the audit lists of them, the history file holds by its exact text.
fn piece() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "src/main.rs", "/home/ana/app/src/lib.rs:12:5", "cmd/api", "bin/server", "a/src/x.rs", "b/src/x.rs",
        "/dev/null", "node_modules/react/index.js", "514M/1.42G", "https://example.com/a/b?token=x", "https://u:p@host.com/x",
        "http://localhost:3000/chunk-1.js:30815:13", "error: expected `;`", "\terror: tabbed\tline", "--- FAIL: TestX/with_y (0.00s)",
        "KeyError: 'dsn'", "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: bad", "a1b2c3d", "index a1b2c3d..e4f5a6b 100644",
        "git checkout feature/login", "git checkout failed", "\"quoted term\"", "`code span`", "\u{1b}[31merror\u{1b}[0m: coloured",
        "\u{1b}[1msrc/bold.rs\u{1b}[0m", "<system-reminder>src/hidden.rs</system-reminder>", "\r", "\n", " ", "\t", "é", "😀", "x",
        "  word  ", "origin/main", "branch fix-9", "/r/a", "mode/m.test(x)", "docs/plan.md",
    ])
    .prop_map(str::to_owned)
}

/// A numbered identifier, so one in the middle of a long text is found nowhere else.
fn numbered() -> impl Strategy<Value = String> {
    (0usize..6, 0u32..100_000).prop_map(|(shape, n)| match shape {
        0 => format!("src/f{n}.rs"),
        1 => format!("error: failure number {n}"),
        2 => format!("https://example.com/p/{n}"),
        3 => format!("cmd/tool{n}"),
        4 => format!("{:07x}a", n + 0x100_0000),
        _ => format!("git checkout topic-{n}"),
    })
}

/// Pieces and numbered identifiers joined by what real output has between words, with runs
/// of filler long enough that the history cuts the text.
fn text() -> impl Strategy<Value = String> {
    let part = prop::collection::vec(prop_oneof![piece(), numbered()], 0..12);
    let sep = prop::sample::select(vec![" ", "\n", "\t", "\r\n", ", "]);
    (prop::collection::vec((part, sep, 0usize..3), 1..4)).prop_map(|parts| {
        let mut s = String::new();
        for (pieces, sep, filler) in parts {
            s.push_str(&pieces.join(sep));
            s.push_str(sep);
            if filler > 1 {
                s.push_str(&"lorem ipsum ".repeat(900));
            }
        }
        s
    })
}

fn row() -> impl Strategy<Value = Value> {
    let tools = prop::sample::select(vec!["Bash", "Read", "Grep", "Glob", "Edit", "Write", "WebFetch", "Task", "mcp__x__y"]);
    prop_oneof![
        text().prop_map(|t| json!({"role": "user", "text": t})),
        text().prop_map(|t| json!({"role": "assistant", "text": t})),
        (tools, text(), text(), text()).prop_map(|(tool, a, b, out)| {
            let input = match tool {
                "Bash" => json!({"command": a, "description": b}),
                "Grep" => json!({"pattern": a, "path": b}),
                "Edit" => json!({"file_path": a, "old_string": b, "new_string": "y"}),
                _ => json!({"file_path": a, "prompt": b}),
            };
            call(tool, input, &out)
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_listed_entry_is_in_the_history_file(rows in prop::collection::vec(row(), 1..8)) {
        let m = session(Value::Array(rows));
        let history = history_text(&m);
        for entry in listed(&m) {
            prop_assert!(history.contains(&entry.text), "listed but not in the history file: {:?}", entry);
        }
    }
}
