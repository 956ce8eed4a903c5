//! Pruning against a real file system: the hooks run through the same protocol
//! the shim speaks, and a host written here performs the calls with `std::fs`
//! and really runs `rm`, with the engine's `$.fs` semantics (a listed link is
//! `other` with `isLink`; `stat` follows links and says `isLink`; `realPath` is
//! where the path lands). Afterwards the file system is checked, not the argv.
#![cfg(unix)]

use compact_plus::hooks::{Core, Options};
use serde_json::{json, Value};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const CURRENT: &str = "00000000-0000-4000-8000-000000000000";
const DAY: Duration = Duration::from_secs(86_400);

fn ms(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH).map(|d| d.as_millis() as f64).unwrap_or(0.0)
}

fn kind(m: &fs::Metadata) -> &'static str {
    if m.is_dir() {
        "dir"
    } else if m.is_file() {
        "file"
    } else {
        "other"
    }
}

/// Performs one call as the engine would, on the real file system.
fn perform(call: &Value, home: &Path, removed: &mut Vec<String>) -> Value {
    let path = |k: &str| PathBuf::from(call[k].as_str().unwrap_or(""));
    let err = |e: &dyn std::fmt::Display| json!({ "err": e.to_string() });
    match call["op"].as_str().unwrap_or("") {
        "env" => match call["name"].as_str() {
            Some("HOME") => json!({ "ok": home.to_str() }),
            _ => json!({ "ok": null }),
        },
        "sessionId" => json!({ "ok": CURRENT }),
        "now" => json!({ "ok": ms(SystemTime::now()) }),
        "write" => {
            let p = path("path");
            if let Some(parent) = p.parent() {
                let _ = fs::create_dir_all(parent);
            }
            match fs::write(&p, call["text"].as_str().unwrap_or("")) {
                Ok(()) => json!({ "ok": null }),
                Err(e) => err(&e),
            }
        }
        "exists" => json!({ "ok": path("path").exists() }),
        "read" => match fs::read_to_string(path("path")) {
            Ok(t) => json!({ "ok": t }),
            Err(e) => err(&e),
        },
        "list" => match fs::read_dir(path("path")) {
            Ok(dir) => {
                let entries: Vec<Value> = dir
                    .flatten()
                    .map(|e| {
                        let m = fs::symlink_metadata(e.path()).ok();
                        let link = m.as_ref().is_some_and(|m| m.file_type().is_symlink());
                        let kind = if link { "other" } else { m.as_ref().map_or("other", kind) };
                        json!({ "name": e.file_name().to_string_lossy(), "kind": kind, "size": 0, "mtimeMs": 0, "isLink": link })
                    })
                    .collect();
                json!({ "ok": entries })
            }
            Err(e) => err(&e),
        },
        "stat" => {
            let p = path("path");
            let link = fs::symlink_metadata(&p).map(|m| m.file_type().is_symlink());
            match (fs::metadata(&p), link) {
                (Ok(m), Ok(link)) => {
                    let mut v = json!({ "kind": kind(&m), "size": m.len(), "isLink": link,
                                        "mtimeMs": m.modified().map(ms).unwrap_or(0.0) });
                    if call["resolve"] == json!(true) {
                        if let Ok(real) = fs::canonicalize(&p) {
                            v["realPath"] = json!(real.to_string_lossy());
                        }
                    }
                    json!({ "ok": v })
                }
                (Err(e), _) | (_, Err(e)) => err(&e),
            }
        }
        "run" => {
            let argv: Vec<String> =
                call["argv"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_owned()).collect();
            removed.push(argv.last().cloned().unwrap_or_default());
            let out = std::process::Command::new(&argv[0]).args(&argv[1..]).output().unwrap();
            json!({ "ok": { "exitCode": out.status.code() } })
        }
        "startNext" => json!({ "ok": null }),
        "nextResult" => json!({ "ok": { "messages": [{ "role": "user", "text": "summary", "toolUses": [] }] } }),
        _ => json!({ "ok": null }),
    }
}

/// One manual compaction of the current session, pruning on the way.
fn compact(home: &Path) -> Vec<String> {
    compact_with(home, Options::default())
}

fn compact_with(home: &Path, options: Options) -> Vec<String> {
    let mut core = Core::new(options);
    let event = json!({ "trigger": "manual", "messages": [{ "role": "user", "text": "hi", "toolUses": [] }] });
    let mut step: Value = serde_json::from_str(&core.start("session.compact", &event.to_string())).unwrap();
    let mut removed = Vec::new();
    while let Some(calls) = step["calls"].as_array() {
        let answers: Vec<Value> = calls.iter().map(|c| perform(c, home, &mut removed)).collect();
        let id = step["id"].as_u64().unwrap() as u32;
        step = serde_json::from_str(&core.resume(id, &Value::Array(answers).to_string())).unwrap();
    }
    assert!(step["done"].is_object(), "{step}");
    removed
}

/// A session folder with a log this many days old.
fn session_folder(root: &Path, name: &str, age_days: u32) -> PathBuf {
    let dir = root.join(name);
    fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log.jsonl");
    fs::write(&log, "{}\n").unwrap();
    fs::write(dir.join("x.md"), "history").unwrap();
    let f = fs::File::options().write(true).open(&log).unwrap();
    f.set_modified(SystemTime::now() - DAY * age_days).unwrap();
    dir
}

fn scratch(name: &str) -> PathBuf {
    let base = std::env::temp_dir().join(format!("cp-prune-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&base);
    fs::create_dir_all(&base).unwrap();
    base
}

#[test]
fn only_old_session_folders_of_ours_are_removed() {
    let base = scratch("rules");
    let home = base.join("home");
    let root = home.join(".claude/compact-history");
    let outside = base.join("outside");
    fs::create_dir_all(&outside).unwrap();
    let precious = session_folder(&outside, "99999999-9999-4999-8999-999999999999", 400);

    let old = session_folder(&root, "11111111-1111-4111-8111-111111111111", 40);
    let young = session_folder(&root, "22222222-2222-4222-8222-222222222222", 5);
    let current = session_folder(&root, CURRENT, 400);
    let not_uuid = session_folder(&root, "notes-from-2020", 400);
    let upper = session_folder(&root, "33333333-3333-4333-8333-33333333333A", 400);
    let no_log = root.join("44444444-4444-4444-8444-444444444444");
    fs::create_dir_all(&no_log).unwrap();
    // A link to a folder outside the root, named like a session.
    symlink(&precious, root.join("55555555-5555-4555-8555-555555555555")).unwrap();
    // A link to a file, named like a session.
    fs::write(outside.join("file"), "keep").unwrap();
    symlink(outside.join("file"), root.join("66666666-6666-4666-8666-666666666666")).unwrap();
    // A file where a folder is expected.
    fs::write(root.join("77777777-7777-4777-8777-777777777777"), "a file").unwrap();
    // A folder whose log.jsonl is a link to an old log elsewhere.
    let linked_log = root.join("88888888-8888-4888-8888-888888888888");
    fs::create_dir_all(&linked_log).unwrap();
    symlink(precious.join("log.jsonl"), linked_log.join("log.jsonl")).unwrap();
    // An unreadable old folder: its log cannot be statted by others, but we are
    // probably root here, so it only must not break the run.
    let locked = session_folder(&root, "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", 400);

    let removed = compact(&home);

    assert!(!old.exists(), "the old folder stays");
    assert!(!locked.exists(), "an old folder we could read stays");
    for kept in [&young, &current, &not_uuid, &upper, &no_log, &linked_log, &precious] {
        assert!(kept.exists(), "{} was removed", kept.display());
    }
    assert!(root.join("55555555-5555-4555-8555-555555555555").exists());
    assert!(outside.join("file").exists());
    assert!(root.join("77777777-7777-4777-8777-777777777777").is_file());
    // Every removal named a real child of the real root.
    let real_root = fs::canonicalize(&root).unwrap();
    for r in &removed {
        assert_eq!(Path::new(r).parent().unwrap(), real_root, "{r}");
    }
    assert_eq!(removed.len(), 2, "{removed:?}");
    // The current session's history was written.
    assert!(current.join("log.jsonl").exists());
    let _ = fs::remove_dir_all(&base);
}

#[test]
fn a_history_root_that_is_a_link_is_never_pruned() {
    let base = scratch("rootlink");
    let home = base.join("home");
    let elsewhere = base.join("elsewhere");
    let old = session_folder(&elsewhere, "11111111-1111-4111-8111-111111111111", 400);
    fs::create_dir_all(home.join(".claude")).unwrap();
    symlink(&elsewhere, home.join(".claude/compact-history")).unwrap();
    let removed = compact(&home);
    assert!(removed.is_empty(), "{removed:?}");
    assert!(old.exists());
    let _ = fs::remove_dir_all(&base);
}

#[test]
fn a_home_reached_through_a_link_prunes_by_the_real_path() {
    let base = scratch("homelink");
    let real_home = base.join("real-home");
    let old = session_folder(&real_home.join(".claude/compact-history"), "11111111-1111-4111-8111-111111111111", 400);
    symlink(&real_home, base.join("home")).unwrap();
    let removed = compact(&base.join("home"));
    assert!(!old.exists());
    assert_eq!(removed, vec![fs::canonicalize(real_home.join(".claude/compact-history")).unwrap().join("11111111-1111-4111-8111-111111111111").to_string_lossy().into_owned()]);
    let _ = fs::remove_dir_all(&base);
}

#[test]
fn keep_days_is_an_option() {
    let base = scratch("keep");
    let home = base.join("home");
    let root = home.join(".claude/compact-history");
    let forty = session_folder(&root, "11111111-1111-4111-8111-111111111111", 40);
    let seventy = session_folder(&root, "22222222-2222-4222-8222-222222222222", 70);
    let options = Options::from_json(r#"{"keepDays":60}"#);
    assert_eq!(options.keep_days, 60.0);
    compact_with(&home, options);
    assert!(forty.exists());
    assert!(!seventy.exists());
    // A keep period that is no number keeps everything.
    compact_with(&home, Options::from_json(r#"{"keepDays":"x"}"#));
    assert!(forty.exists());
    let _ = fs::remove_dir_all(&base);
}
