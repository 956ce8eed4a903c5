use super::*;
use crate::message::parse_messages;
use serde_json::{json, Value};

fn session(rows: Value) -> Messages {
    parse_messages(&rows.to_string())
}

fn call(tool: &str, input: Value, out: &str, error: bool) -> Value {
    json!({"role": "assistant", "text": "", "toolUses": [{"tool": tool, "input": input, "text": out, "isError": error}]})
}

fn bash(command: &str, out: &str, error: bool) -> Value {
    call("Bash", json!({"command": command, "description": "run"}), out, error)
}

fn same(t: &str) -> String {
    t.to_owned()
}

fn record(rows: Value) -> Record {
    read(&session(rows), &same)
}

fn lines(r: &Record) -> Vec<String> {
    r.items.iter().map(Item::line).collect()
}

#[test]
fn a_failure_is_unresolved_until_the_same_command_succeeds() {
    let r = record(json!([
        {"role": "user", "text": "make the tests pass"},
        bash("cargo test", "Exit code 101\nerror[E0308]: mismatched types", true),
        bash("cd /w/app && cargo build 2>&1 | tail -20", "Exit code 101\n   Compiling app\nerror: could not compile `app`", true),
        bash("cargo test 2>&1", "test result: ok. 3 passed", false),
        bash("npm run lint", "Exit code 1\n$ eslint .\n/w/app/a.js:3:1: Unexpected var", true),
        bash("npm run lint", "Exit code 1\n$ eslint .\nFound 2 errors.", true),
    ]));
    assert_eq!(
        lines(&r),
        vec![
            "- last run failed ([5]): `npm run lint` → Found 2 errors.",
            "- last run failed ([2]): `cd /w/app && cargo build 2>&1 | tail -20` → error: could not compile `app`",
        ]
    );
}

#[test]
fn look_ups_rejections_and_calls_that_never_ran_are_no_failures() {
    let r = record(json!([
        bash("git status", "Exit code 128\nfatal: unable to read e53647ba", true),
        bash("ls ~/missing 2>&1", "Exit code 1\nls: no such file", true),
        bash("grep -rn foo . | head", "Exit code 1", true),
        bash("make deploy", "The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\nnot yet", true),
        bash("make lint", "<tool_use_error>Sibling tool call errored</tool_use_error>", true),
        bash("make test", "Exit code 2\nmake: *** [test] Error 2", true),
    ]));
    assert_eq!(lines(&r), vec!["- last run failed ([5]): `make test` → make: *** [test] Error 2"]);
}

#[test]
fn commits_and_branches_made() {
    let r = record(json!([
        bash("git checkout -b feature/login origin/main", "Switched to a new branch 'feature/login'", false),
        bash("git add -A && git commit -m \"$(cat <<'EOF'\nAdd login\nEOF\n)\"", "[feature/login d13528a1] Add login form\n 2 files changed", false),
        bash("git commit --amend --no-edit", "[feature/login 9f8e7d6] Add login form\n Date: x", false),
        bash("git branch -D old-thing && git branch spare main", "Deleted branch old-thing (was 1234567).", false),
        bash("git switch -c broken", "fatal: a branch named 'broken' already exists", true),
        bash("git -C /w worktree add -b wt/x ../x", "Preparing worktree", false),
        bash("git commit -m wip", "nothing to commit, working tree clean", false),
        bash("git log --oneline -3", "[not a commit 1234567] looks like one", false),
    ]));
    assert_eq!(
        lines(&r),
        vec![
            "- last run failed ([4]): `git switch -c broken` → fatal: a branch named 'broken' already exists",
            "- commit 9f8e7d6 on feature/login (a branch made here): Add login form",
            "- commit d13528a1 on feature/login (a branch made here): Add login form",
            "- branch made: wt/x",
            "- branch made: spare",
        ]
    );
}

#[test]
fn files_created_deleted_edited_once_each() {
    let r = record(json!([
        call("Write", json!({"file_path": "/w/a.rs", "content": "x"}), "File created successfully at: /w/a.rs", false),
        call("Edit", json!({"file_path": "/w/a.rs", "old_string": "x", "new_string": "y"}), "The file /w/a.rs has been updated.", false),
        call("Edit", json!({"file_path": "/w/b.rs"}), "The file /w/b.rs has been updated.", false),
        call("Edit", json!({"file_path": "/w/c.rs"}), "<tool_use_error>String to replace not found</tool_use_error>", true),
        call("Write", json!({"file_path": "/w/d.rs"}), "The file /w/d.rs has been updated.", false),
        bash("rm -f /w/old.rs build/*.o $OUT /tmp/scratch && git rm -q docs/gone.md", "", false),
        bash("rm /w/kept.rs", "rm: /w/kept.rs: Permission denied\nExit code 1", true),
        call("NotebookEdit", json!({"notebook_path": "/w/n.ipynb"}), "Updated cell", false),
    ]));
    assert_eq!(
        lines(&r),
        vec![
            "- last run failed ([6]): `rm /w/kept.rs` → rm: /w/kept.rs: Permission denied",
            "- file deleted: docs/gone.md",
            "- file deleted: /w/old.rs",
            "- file created: /w/a.rs",
            "- file edited: /w/n.ipynb",
            "- file edited: /w/d.rs",
            "- file edited: /w/b.rs",
        ]
    );
    // The failed `rm` is a failure, not a deletion.
    assert!(!lines(&r).iter().any(|l| l.contains("deleted: /w/kept.rs")));
}

#[test]
fn open_todos_from_the_last_list_and_the_tasks() {
    let r = record(json!([
        call("TodoWrite", json!({"todos": [{"content": "old item", "status": "pending"}]}), "ok", false),
        call("TodoWrite", json!({"todos": [
            {"content": "write the parser", "status": "completed"},
            {"content": "add tests", "status": "in_progress"},
            {"content": "update docs", "status": "pending"}]}), "ok", false),
        call("TaskCreate", json!({"subject": "Add StartedAt", "description": "x"}), "Task #1 created successfully: Add StartedAt", false),
        call("TaskCreate", json!({"subject": "Run fmt, lint, and tests"}), "Task #2 created successfully: Run fmt, lint, and tests", false),
        call("TaskCreate", json!({"subject": "Dropped"}), "Task #3 created successfully: Dropped", false),
        call("TaskUpdate", json!({"taskId": "1", "status": "completed"}), "Updated task #1 status", false),
        call("TaskUpdate", json!({"taskId": 2, "status": "in_progress"}), "Updated task #2 status", false),
        call("TaskUpdate", json!({"taskId": "3", "status": "deleted"}), "Updated task #3", false),
    ]));
    assert_eq!(
        lines(&r),
        vec!["- open todo (in progress): add tests", "- open todo: update docs", "- open todo (in progress): Run fmt, lint, and tests"]
    );
}

#[test]
fn the_ranks_put_failures_then_commits_then_todos_then_files() {
    let r = record(json!([
        call("Edit", json!({"file_path": "/w/x.rs"}), "ok", false),
        call("TodoWrite", json!({"todos": [{"content": "ship", "status": "pending"}]}), "ok", false),
        bash("git commit -m x", "[main abcdef1] x", false),
        bash("cargo test", "Exit code 101\nerror: test failed", true),
    ]));
    let kinds: Vec<u8> = r.items.iter().map(Item::rank).collect();
    assert_eq!(kinds, vec![0, 1, 3, 5]);
}

#[test]
fn bad_input_costs_the_call() {
    let r = record(json!([
        null, 5,
        {"role": "assistant", "toolUses": [
            {"tool": "Bash", "input": "not an object", "text": "x", "isError": true},
            {"tool": "Bash", "input": {"command": 7}, "text": "x", "isError": true},
            {"tool": "Bash", "input": {"command": "make"}, "isError": true},
            {"tool": "Edit", "input": {"file_path": ""}, "text": "ok"},
            {"tool": "TaskUpdate", "input": {"taskId": "9", "status": "completed"}, "text": "ok"},
            {"tool": "TodoWrite", "input": {"todos": [null, {"status": "pending"}, {"content": "  "}]}, "text": "ok"},
            {"tool": "Bash", "input": {"command": "git commit -m x"}, "text": "[] x\n[main zzzzzzz] x\n[main abc] short"},
        ]},
    ]));
    assert_eq!(r, Record::default(), "{:?}", lines(&r));
    assert_eq!(render_full(&r), None);
}

#[test]
fn bounded_and_deterministic() {
    let rows: Vec<Value> = (0..600)
        .map(|i| bash(&format!("make step{i} {}", "x".repeat(500)), &format!("Exit code 2\nerror: step {i} {}", "y".repeat(500)), true))
        .collect();
    let m = session(Value::Array(rows));
    let r = read(&m, &same);
    assert_eq!(r.items.len(), MAX_ITEMS);
    assert!(lines(&r).first().is_some_and(|l| l.contains("step599")), "newest first");
    for item in &r.items {
        let Item::Failed { command, error, .. } = item else { panic!("{item:?}") };
        assert!(text::len16(command) <= TEXT_CHARS && text::len16(error) <= TEXT_CHARS);
    }
    assert_eq!(read(&m, &same), r);
    let full = render_full(&r).unwrap_or_default();
    assert!(full.starts_with(FULL_HEAD) && full.lines().count() == MAX_ITEMS + 3);
    let within = render_within(&r, 2000).unwrap_or_default();
    assert!(text::len16(&within) <= 2000 && within.ends_with(" more"), "{}", text::len16(&within));
}

/// The record of every real compaction window (`../shared/real-transcripts`, read at test time):
/// printed (`cargo test record::tests::real -- --nocapture`), and what the windows are known to
/// hold found in it.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn real_sessions() {
    use crate::transcripts::{transcripts, windows, DIR};
    let Some(files) = transcripts() else {
        println!("record real_sessions: skipped, {DIR} is absent");
        return;
    };
    let mut all = Vec::new();
    for path in &files {
        let Ok(jsonl) = std::fs::read_to_string(path) else { continue };
        let name = path.file_name().map(|n| n.to_string_lossy().chars().take(13).collect::<String>()).unwrap_or_default();
        for (k, w) in windows(&jsonl).into_iter().enumerate().filter(|(_, w)| w.summary.is_some()) {
            let r = read(&w.messages, &same);
            println!("{name}#{}: {} items", k + 1, r.items.len());
            for l in lines(&r).iter().filter(|l| !l.starts_with("- file edited")) {
                println!("    {l}");
            }
            all.push((format!("{name}#{}", k + 1), r));
        }
    }
    if all.is_empty() {
        return;
    }
    let find = |id: &str| all.iter().find(|(n, _)| n == id).map(|(_, r)| lines(r)).unwrap_or_default();
    assert!(find("77-8aa463e2ba#1").iter().any(|l| l.starts_with("- commit d13528a1 on dipree/entire-wingman: Add wingman")));
    assert!(find("b8-659b3a4dd4#1").iter().any(|l| l.contains("`git checkout HEAD -- cmd/entire/cli/hooks_geminicli_handlers.go && go build ./... 2>&1` → cmd/entire/cli/hooks_geminicli_handlers.go:634:64: not enough arguments")));
    assert_eq!(find("ee-7e610ffc3f#1").iter().filter(|l| l.starts_with("- last run failed")).count(), 3);
    assert!(find("9b-04c3d92e38#1").iter().any(|l| l == "- open todo (in progress): Run fmt, lint, and tests"));
}

#[test]
fn the_record_goes_at_the_end_of_the_history() {
    let r = record(json!([bash("make", "Exit code 2\nerror: no rule", true)]));
    let mut parts = vec!["# Conversation\n## [0] assistant".to_owned()];
    into_history(&mut parts, &r, 1000, &|t| t.replace("rule", "[REDACTED:x]"));
    assert_eq!(parts.len(), 1);
    assert!(parts[0].ends_with("\n\n# compact-plus work record\n\nRead from the tool calls above: commands whose last run failed, commits and branches made, open todos, files created, deleted or edited ([n]: the message).\n- last run failed ([0]): `make` → error: no [REDACTED:x]\n"), "{:?}", parts[0]);
    // A full last part: the record is a part of its own.
    let mut full = vec!["x".repeat(990)];
    into_history(&mut full, &r, 1000, &|t| t.to_owned());
    assert_eq!(full.len(), 2);
    assert!(full[1].starts_with(FULL_HEAD));
    let mut none = vec!["x".to_owned()];
    into_history(&mut none, &Record::default(), 1000, &|t| t.to_owned());
    assert_eq!(none, vec!["x".to_owned()]);
}

#[test]
fn redacted_before_it_is_cut() {
    const TOKEN: &str = "ghp_8fK2mQx9TzL4vB7nR1wY5cJ3hD6sG0aPeU2i";
    let clean = |t: &str| t.replace(TOKEN, "[REDACTED:github]");
    // The token where the cut falls: cut first, its two halves would pass any redactor.
    let out = format!("Exit code 1\nerror: {} {TOKEN} {}", "x".repeat(128), "y".repeat(120));
    let r = read(&session(json!([bash(&format!("deploy --token {TOKEN} {}", "z".repeat(300)), &out, true)])), &clean);
    let line = lines(&r).join("\n");
    assert!(line.contains("[REDACTED:github]"), "{line}");
    for piece in [&TOKEN[..12], &TOKEN[TOKEN.len() - 12..]] {
        assert!(!line.contains(piece), "{piece} in {line}");
    }
}
