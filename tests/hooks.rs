//! The hooks, driven against a fake host. Every expectation comes from the
//! reference `index.js` (lines cited as `ref:N`), so a port that drifts from it
//! fails here before it ships.
//!
//! The fake keeps an in-memory file system, env, clock and session, answers each
//! `Call` as the shim's `perform` would (`{ok}` / `{err}`, `undefined` as `{}`),
//! and records every call, so the tests assert what was asked, in what order.
//! The core gets each event whole; the tests of the exchange the shim uses for
//! session.compact (its texts deferred, then asked for by `texts` and `pack`)
//! answer those calls by hand (`Deferred`). The shim's own side is tested in
//! Node (tests/shim/).

use compact_plus::compaction::handoff;
use compact_plus::hooks::{Channel, Core, Options, Pending};
use compact_plus::instructions;
use compact_plus::recall_tool::Reach;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

const NOW: f64 = 1_700_000_000_000.0;
const NOW_ISO: &str = "2023-11-14T22:13:20.000Z";
const NOW_STAMP: &str = "2023-11-14T221320Z";
const DAY: f64 = 86_400_000.0;
const SID: &str = "0f0e0d0c-0b0a-4909-8807-060504030201";
const HOME: &str = "/home/ann";
const ROOT: &str = "/home/ann/.claude/compact-history";
const OLD: &str = "11111111-1111-4111-8111-111111111111";

fn dir() -> String {
    format!("{ROOT}/{SID}")
}

fn history_file(trigger: &str) -> String {
    format!("{}/{NOW_STAMP}-{trigger}.md", dir())
}

const FIRST: &str = "Please fix the parser in src/parse.rs";

/// The instructions the summarizer should get: the person's own, then ours
/// naming the first message kept word for word (ref:146-147; the wording of
/// ours is `handoff`'s business, tested there).
fn ours(own: Option<&str>, first: Option<&str>, saved: bool) -> String {
    handoff::join_instructions(own, &handoff::instructions(first, saved.then(dir).as_deref()))
}

// ---------------------------------------------------------------- the fake host

/// One thing that happened: a call the core asked for (as the shim received it),
/// or the shim's part in the protocol (`cancel`, `spawn`, `lost`).
#[derive(Debug, Clone)]
struct Rec {
    hook: String,
    call: Value,
}

impl Rec {
    fn op(&self) -> &str {
        self.call["op"].as_str().unwrap_or("")
    }
}

/// A failure to inject: calls with this op whose key (path, env name, usage
/// breakdown, hook for `next`) contains `key` are answered `{err: msg}`.
struct Fail {
    op: &'static str,
    key: String,
    msg: String,
}

struct Fake {
    /// Real path → (text, mtime).
    files: BTreeMap<String, (String, f64)>,
    /// Real paths of directories made explicitly (parents of files are implied).
    dirs: BTreeSet<String>,
    /// Symlink path → target.
    links: BTreeMap<String, String>,
    stat_override: HashMap<String, Value>,
    list_override: HashMap<String, Value>,
    env: BTreeMap<String, String>,
    now: f64,
    session_id: String,
    /// `$.session.cwd()` (d.ts `session.cwd`: "The directory the session runs in, absolute").
    cwd: String,
    tokens: Value,
    breakdown: Value,
    next: HashMap<String, Result<Value, String>>,
    /// What `$.command.run` does: `Ok` queues the command, which the host runs
    /// once idle (a `/compact` is a session.compact dispatch, trigger `manual`,
    /// `instructions` its args) and only then resolves `{}`; `Err` rejects at once.
    /// Measured on Claude Code 2.1.328, terminal and headless (the queued
    /// `/compact` reaches the calling plugin's own session.compact hook; the
    /// promise settles after that compaction).
    command: Result<(), String>,
    /// The conversation a queued `/compact` compacts.
    queued_messages: Value,
    /// Paths as a Windows host has them: it takes `/` and `\\` alike and answers
    /// `realPath` with `\\` (issue [8]: pruning never deleted there).
    windows: bool,
    fails: Vec<Fail>,
    log: Vec<Rec>,
    /// `$.model.complete`'s answers, in turn; past them an API error, as a
    /// completion the API refused resolves (ModelCompleteResult, d.ts).
    completions: std::collections::VecDeque<Value>,
    /// How long the calls of the batch being answered take together.
    batch_ms: f64,
    /// `$.session.messages({ last })`: the conversation's rows; `None` rejects,
    /// as a headless process's first prompt.context does before its session is
    /// bound (measured on 2.1.328: tests/HOST.md, "The person's commands").
    rows: Option<Value>,
    /// The lines the person's transcript got (`$.ui.log` without `to: 'debug'`): a hook's end's
    /// `notice`, logged by the shim once the hook returned (tests/shim/steer.test.mjs).
    shown: Vec<String>,
}

impl Fake {
    fn new() -> Fake {
        let mut next = HashMap::new();
        next.insert(
            "session.compact".to_owned(),
            Ok(json!({
                "messages": [{"role": "user", "text": "This session is being continued from a previous conversation. Summary.", "toolUses": [], "handle": "sum-1"}],
                "tokensBefore": 5000,
                "tokensAfter": 800,
            })),
        );
        next.insert(
            "session.append".to_owned(),
            Ok(json!({"message": {}, "uuid": "sum-1"})),
        );
        next.insert("prompt.context".to_owned(), Ok(json!({"blocks": []})));
        next.insert("turn.complete".to_owned(), Ok(json!({"ok": true})));
        let mut env = BTreeMap::new();
        env.insert("HOME".to_owned(), HOME.to_owned());
        Fake {
            files: BTreeMap::new(),
            dirs: BTreeSet::new(),
            links: BTreeMap::new(),
            stat_override: HashMap::new(),
            list_override: HashMap::new(),
            env,
            now: NOW,
            session_id: SID.to_owned(),
            cwd: "/work/app".to_owned(),
            tokens: json!(1000),
            breakdown: json!({"isAutoCompactEnabled": true, "autoCompactThreshold": 100_000}),
            next,
            command: Ok(()),
            windows: false,
            queued_messages: json!([
                {"role": "user", "text": "Please keep going with the parser", "toolUses": [], "handle": "q1"},
                {"role": "assistant", "text": "Done with the parser.", "toolUses": [], "handle": "q2"}
            ]),
            fails: Vec::new(),
            log: Vec::new(),
            completions: Default::default(),
            batch_ms: 0.0,
            rows: None,
            shown: Vec::new(),
        }
    }

    fn fail(&mut self, op: &'static str, key: &str, msg: &str) {
        self.fails.push(Fail {
            op,
            key: key.to_owned(),
            msg: msg.to_owned(),
        });
    }

    fn add_file(&mut self, path: &str, text: &str, mtime: f64) {
        self.files.insert(path.to_owned(), (text.to_owned(), mtime));
    }

    fn text(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|(t, _)| t.as_str())
    }

    /// The lines of the session's log, as JSON text.
    fn log_lines(&self) -> Vec<String> {
        self.text(&format!("{}/log.jsonl", dir()))
            .map(|t| t.lines().map(str::to_owned).collect())
            .unwrap_or_default()
    }

    fn resolve(&self, path: &str) -> String {
        let mut p = path.to_owned();
        for _ in 0..16 {
            let hit = self
                .links
                .iter()
                .find(|(link, _)| p == **link || p.starts_with(&format!("{link}/")))
                .map(|(l, t)| (l.len(), t.clone()));
            match hit {
                Some((n, target)) => p = format!("{target}{}", &p[n..]),
                None => break,
            }
        }
        p
    }

    fn is_dir(&self, real: &str) -> bool {
        let prefix = format!("{real}/");
        self.dirs.contains(real)
            || self.files.keys().any(|f| f.starts_with(&prefix))
            || self.dirs.iter().any(|d| d.starts_with(&prefix))
    }

    fn enoent(op: &str, path: &str) -> String {
        format!("ENOENT: no such file or directory, {op} '{path}'")
    }

    fn stat(&self, path: &str, resolve: bool) -> Result<Value, String> {
        if let Some(v) = self.stat_override.get(path) {
            return Ok(v.clone());
        }
        let mut out = if self.links.contains_key(path) {
            json!({"kind": "other", "size": 0, "mtimeMs": 0, "isLink": true})
        } else {
            let real = self.resolve(path);
            if let Some((text, mtime)) = self.files.get(&real) {
                json!({"kind": "file", "size": text.len(), "mtimeMs": mtime, "isLink": false})
            } else if self.is_dir(&real) {
                json!({"kind": "dir", "size": 0, "mtimeMs": 0, "isLink": false})
            } else {
                return Err(Fake::enoent("stat", path));
            }
        };
        if resolve {
            out["realPath"] = json!(self.resolve(path));
        }
        Ok(out)
    }

    fn list(&self, path: &str) -> Result<Value, String> {
        if let Some(v) = self.list_override.get(path) {
            return Ok(v.clone());
        }
        let real = self.resolve(path);
        if !self.is_dir(&real) {
            return Err(Fake::enoent("scandir", path));
        }
        let prefix = format!("{real}/");
        let mut entries: BTreeMap<String, Value> = BTreeMap::new();
        fn child<'a>(p: &'a str, prefix: &str) -> Option<Vec<&'a str>> {
            p.strip_prefix(prefix).map(|rest| rest.split('/').collect())
        }
        for (f, (text, mtime)) in &self.files {
            if let Some(parts) = child(f, &prefix) {
                let name = parts[0].to_owned();
                let v = if parts.len() == 1 {
                    json!({"name": name, "kind": "file", "size": text.len(), "mtimeMs": mtime, "isLink": false})
                } else {
                    json!({"name": name, "kind": "dir", "size": 0, "mtimeMs": 0, "isLink": false})
                };
                entries.entry(parts[0].to_owned()).or_insert(v);
            }
        }
        for d in &self.dirs {
            if let Some(parts) = child(d, &prefix) {
                let name = parts[0].to_owned();
                entries.entry(name.clone()).or_insert(
                    json!({"name": name, "kind": "dir", "size": 0, "mtimeMs": 0, "isLink": false}),
                );
            }
        }
        for l in self.links.keys() {
            if let Some(parts) = child(l, &prefix) {
                if parts.len() == 1 {
                    let name = parts[0].to_owned();
                    entries.insert(name.clone(), json!({"name": name, "kind": "other", "size": 0, "mtimeMs": 0, "isLink": true}));
                }
            }
        }
        Ok(Value::Array(entries.into_values().collect()))
    }

    fn injected(&self, hook: &str, call: &Value) -> Option<String> {
        let op = call["op"].as_str().unwrap_or("");
        let key = match op {
            "env" => call["name"].as_str().unwrap_or("").to_owned(),
            "usage" => call["breakdown"].as_str().unwrap_or("").to_owned(),
            "next" => hook.to_owned(),
            "run" => call["argv"].to_string(),
            _ => call["path"].as_str().unwrap_or("").to_owned(),
        };
        self.fails
            .iter()
            .find(|f| f.op == op && key.contains(&f.key))
            .map(|f| f.msg.clone())
    }

    /// The shim's `perform`: `Ok(None)` is `undefined` (sent as `{}`).
    fn perform(&mut self, hook: &str, call: &Value) -> Result<Option<Value>, String> {
        if let Some(msg) = self.injected(hook, call) {
            return Err(msg);
        }
        let mut path = call["path"].as_str().unwrap_or("").to_owned();
        if self.windows {
            path = path.replace('\\', "/");
        }
        match call["op"].as_str().unwrap_or("") {
            "env" => {
                let name = call["name"].as_str().unwrap_or("");
                if !["HOME", "USERPROFILE", "OS"].contains(&name) {
                    return Err(format!("no such variable: {name}"));
                }
                Ok(self.env.get(name).map(|v| json!(v)))
            }
            "sessionId" => Ok(Some(json!(self.session_id))),
            "now" => Ok(Some(json!(self.now))),
            "exists" => {
                let real = self.resolve(&path);
                Ok(Some(json!(
                    self.files.contains_key(&real) || self.is_dir(&real)
                )))
            }
            "read" => {
                let real = self.resolve(&path);
                let text = self.files.get(&real).map(|(t, _)| t.as_str()).ok_or_else(|| Fake::enoent("open", &path))?;
                // `$.fs.read(path, { offset, length })` (d.ts `fs.read`): that byte
                // range alone, at most 4 MiB; a cut character is U+FFFD; a whole
                // answer over 4 MiB rejects.
                if call.get("offset").is_none() && call.get("length").is_none() {
                    if text.len() > 4 << 20 {
                        return Err(format!("EFBIG: {path} is over 4 MiB: read it by ranges"));
                    }
                    return Ok(Some(json!(text)));
                }
                let offset = call["offset"].as_u64().unwrap_or(0) as usize;
                let length = call["length"].as_u64().unwrap_or(4 << 20) as usize;
                if length > 4 << 20 {
                    return Err("length over 4 MiB".into());
                }
                let bytes = text.as_bytes();
                let end = (offset + length).min(bytes.len());
                let slice = bytes.get(offset.min(end)..end).unwrap_or(&[]);
                Ok(Some(json!(String::from_utf8_lossy(slice))))
            }
            "cwd" => Ok(Some(json!(self.cwd))),
            "write" => {
                let real = self.resolve(&path);
                let text = call["text"].as_str().ok_or("no text")?.to_owned();
                self.files.insert(real, (text, self.now));
                Ok(None)
            }
            "list" => self.list(&path).map(Some),
            "stat" => {
                let mut stat = self.stat(&path, call["resolve"] == json!(true))?;
                if let (true, Some(real)) = (self.windows, stat["realPath"].as_str()) {
                    stat["realPath"] = json!(real.replace('/', "\\"));
                }
                Ok(Some(stat))
            }
            "usage" => {
                let mut context = json!({"tokens": self.tokens, "window": 200_000});
                if call["breakdown"].is_string() {
                    context["breakdown"] = self.breakdown.clone();
                }
                Ok(Some(json!({ "context": context })))
            }
            "run" => Ok(Some(
                json!({"exitCode": 0, "stdout": "", "stderr": "", "isStdoutTruncated": false, "isStderrTruncated": false}),
            )),
            "debug" => Ok(None),
            // An answer's `tookMs` (the fake's own field) is how long the model took.
            // Calls asked together run together (the shim's `Promise.all`): the
            // clock moves once the batch is done, by its longest call. A call
            // past its `timeoutMs` is cut then and answers `aborted` (d.ts
            // ModelCompleteResult: "`timeoutMs` elapsed").
            "complete" => {
                let mut answer = self.completions.pop_front().unwrap_or_else(|| {
                    json!({"isAnswered": false, "reason": "api-error", "status": 500, "error": "server_error", "usage": {}})
                });
                let took = answer.as_object_mut().and_then(|o| o.remove("tookMs")).and_then(|v| v.as_f64()).unwrap_or(0.0);
                let timeout = call["timeoutMs"].as_f64().unwrap_or(f64::INFINITY);
                self.batch_ms = self.batch_ms.max(took.min(timeout));
                if took > timeout {
                    answer = json!({"isAnswered": false, "reason": "aborted", "usage": {}});
                }
                Ok(Some(answer))
            }
            "after" => {
                self.now += call["ms"].as_f64().unwrap_or(0.0);
                Ok(None)
            }
            "messages" => match &self.rows {
                Some(rows) => {
                    let last = call["last"].as_u64().unwrap_or(0) as usize;
                    let all = rows.as_array().cloned().unwrap_or_default();
                    Ok(Some(json!(all[all.len().saturating_sub(last)..])))
                }
                None => Err("$.session.messages is not available in this mode: no session is bound in this process".into()),
            },
            // The recall module's search is the shim's (tested in Node, tests/shim/steer.test.mjs):
            // here it answers what it was asked, so a test reads the request.
            "search" => Ok(Some(json!(format!("SEARCHED {}", call["request"])))),
            other => Err(format!("unknown call: {other}")),
        }
    }

    fn record(&mut self, hook: &str, mut call: Value) {
        // How long the shim waits is the protocol's, not the `$` call's
        // (src/step.rs `Wait`); the tests read the calls as the host gets them.
        if let Some(c) = call.as_object_mut() {
            c.remove("waitMs");
        }
        self.log.push(Rec {
            hook: hook.to_owned(),
            call,
        });
    }

    /// Every recorded call of `op`.
    fn calls(&self, op: &str) -> Vec<Value> {
        self.log
            .iter()
            .filter(|r| r.op() == op)
            .map(|r| r.call.clone())
            .collect()
    }

    /// The ops recorded for `hook`, in order.
    fn ops(&self, hook: &str) -> Vec<String> {
        self.log
            .iter()
            .filter(|r| r.hook == hook)
            .map(|r| r.op().to_owned())
            .collect()
    }

    fn clear(&mut self) {
        self.log.clear();
    }
}

/// The changes a `next` carried (`instructions`, `append`): the shim hands the
/// engine the event as received with these applied (js/event.js `down`, tested in
/// Node: tests/shim/). Empty for a `next` that passes the event untouched.
fn changes(next: &Value) -> Vec<&str> {
    next.as_object()
        .map(|o| o.keys().map(String::as_str).filter(|k| !["op", "started"].contains(k)).collect())
        .unwrap_or_default()
}

/// A `next` that passed the event down as the engine sent it.
fn assert_untouched(next: &Value) {
    assert!(changes(next).is_empty(), "the event went down changed: {next}");
}

/// A session.compact event as the shim sends it so that the summary request
/// does not wait for the history (`textsDeferred`: each message's role and handle
/// alone), with the answers the shim gives the core's `texts` and `pack` for it.
/// Each is written out by hand for its event, so a test holds the core to the
/// exchange and not to a copy of the shim (the shim's own side is tested in
/// Node: tests/shim/).
struct Deferred {
    /// The event the core starts on.
    event: Value,
    /// The answer to `texts`: the asked messages' texts, `null` for a non-string.
    texts: Value,
    /// The answer to `pack`: the event with each text a number, ...
    skeleton: Value,
    /// ... and the texts the numbers stand for, sent beside it as UTF-8.
    packed: Vec<&'static str>,
}

impl Deferred {
    /// `pack`'s answer (each text's UTF-8 length), and the bytes beside it.
    fn pack(&self) -> (Value, Vec<u8>) {
        let lens: Vec<usize> = self.packed.iter().map(|t| t.len()).collect();
        let bytes = self.packed.concat().into_bytes();
        (json!({"ok": {"lens": lens, "event": self.skeleton}}), bytes)
    }
}

/// How a hook ended, as the core said it, and what `next` answered where the
/// core called it (`next`, or `startNext` and `nextResult`). The hook's result
/// the shim makes of these is tested in Node (tests/shim/).
#[derive(Debug, Clone, PartialEq)]
struct Ended {
    /// The core's `done` (`{"end": …}`), its `{"lost": …}`, or null where the
    /// shim cancelled the hook (a `next` the hook awaited rejected).
    done: Value,
    next: Option<Result<Value, String>>,
}

impl Ended {
    /// The engine's result passed through, after the core called `next` and
    /// it answered this.
    fn passed(next: Result<Value, String>) -> Ended {
        Ended { done: json!({"end": "passThrough"}), next: Some(next) }
    }

    /// The engine's result passed through, `next` left to the shim to call.
    fn untouched() -> Ended {
        Ended { done: json!({"end": "passThrough"}), next: None }
    }

    fn end(&self) -> &str {
        self.done["end"].as_str().unwrap_or("")
    }
}

/// One loaded module (the core) and the host around it.
struct Harness {
    core: Core,
    fake: Fake,
    /// A compaction the engine runs while a turn-end job waits on `after`.
    during_after: Option<Value>,
    /// The next session.compact comes as the shim defers its texts: the core
    /// starts on this event and these answers (see `Deferred`).
    deferred: Option<Deferred>,
    /// A compaction the engine starts while a turn-end job waits on `after`,
    /// still under way (its summary not back) when the wait ends; its id.
    under_way_after: Option<Value>,
    under_way: Option<u32>,
    /// A compaction the engine runs after our `/compact` is queued and before it
    /// comes to the front (the person's next prompt crossed the threshold).
    before_queued: Option<Value>,
    /// The last session state a step carried out (`carry`), as the shim keeps it.
    carried: String,
    /// A compaction the engine runs when the turn-end job first asks for this op
    /// (it gave the engine a turn: the next prompt may have been sent then).
    at_turn_end_op: Option<(&'static str, Value)>,
    /// `next.signal` had aborted when the summarizer's `next` rejected (Esc).
    aborted: bool,
}

impl Harness {
    fn new() -> Harness {
        Harness::with(Options::default())
    }

    fn with(options: Options) -> Harness {
        Harness {
            core: Core::new(options),
            fake: Fake::new(),
            during_after: None,
            aborted: false,
            deferred: None,
            under_way_after: None,
            under_way: None,
            before_queued: None,
            carried: String::new(),
            at_turn_end_op: None,
        }
    }

    /// The engine fires `hook`: how the core ended it, and what `next`
    /// answered where the core called it. A job the core's end starts runs to
    /// its end before this returns.
    fn fire(&mut self, hook: &str, e: Value) -> Ended {
        let mut spawned = Vec::new();
        let out = self.drive(hook, &e, true, &mut spawned);
        for name in spawned {
            let mut more = Vec::new();
            let _ = self.drive(&name, &json!({}), false, &mut more);
            assert!(more.is_empty(), "a spawned job spawned again");
        }
        out
    }

    /// Speaks the step protocol with the core for one hook, as the shim does:
    /// starts the core on the event, performs each call it asks for on the fake
    /// host (`next` on the fake engine, at most once), resumes it with the
    /// answers, until it ends; starts the job an end names. What the shim then
    /// makes of the end (the hook's result: `next`'s changed, a compaction of
    /// the core's built, a rejection passed up) and how it slims and packs an
    /// event is the shim's, tested in Node (tests/shim/).
    fn drive(&mut self, hook: &str, e: &Value, has_next: bool, spawned: &mut Vec<String>) -> Ended {
        let mut called = false;
        let mut next: Option<Result<Value, String>> = None;
        // As the shim does: these hooks' `next` starts with the event as it came, before the core.
        if has_next && compact_plus::hooks::NEXT_FIRST.contains(&hook) {
            called = true;
            self.fake.record(hook, json!({"op": "next", "started": true}));
            next = Some(self.fake.next.get(hook).cloned().unwrap_or(Ok(Value::Null)));
        }
        let deferred = if hook == "session.compact" { self.deferred.take() } else { None };
        let event = deferred.as_ref().map_or(e, |d| &d.event);
        let first = self.core.start(hook, &event.to_string());
        let mut step: Value = serde_json::from_str(&first).expect("start answers JSON");
        if let Some(carry) = step.get("carry") {
            self.carried = carry.to_string();
        }
        while let Some(calls) = step.get("calls").and_then(Value::as_array).cloned() {
            let id = step["id"].as_u64().expect("an id with calls") as u32;
            let mut answers = Vec::new();
            let mut packed: Option<Vec<u8>> = None;
            for mut call in calls {
                // A long write text waits in the core's outbox.
                if let Some(k) = call.get("textRef").and_then(Value::as_u64) {
                    call["text"] = json!(self.core.take_text(k as usize));
                }
                if call["op"] == "texts" || call["op"] == "pack" {
                    self.fake.record(hook, call.clone());
                    let d = deferred.as_ref().expect("texts and pack are asked only of an event sent without its texts");
                    if let Some(msg) = self.fake.injected(hook, &call) {
                        answers.push(json!({ "err": msg }));
                    } else if call["op"] == "pack" {
                        let (answer, bytes) = d.pack();
                        packed = Some(bytes);
                        answers.push(answer);
                    } else {
                        answers.push(json!({ "ok": d.texts }));
                    }
                    continue;
                }
                if call["op"] == "startNext" {
                    if called || !has_next {
                        answers.push(json!({"err": "next is not available here"}));
                        continue;
                    }
                    called = true;
                    let mut rec = call.clone();
                    rec["op"] = json!("next");
                    rec["started"] = json!(true);
                    self.fake.record(hook, rec);
                    next = Some(self.fake.next.get(hook).cloned().unwrap_or(Ok(Value::Null)));
                    answers.push(json!({}));
                    continue;
                }
                if call["op"] == "nextResult" {
                    self.fake.record(hook, json!({"op": "nextResult"}));
                    match next.clone() {
                        None => answers.push(json!({"err": "no next was started"})),
                        Some(Ok(v)) => answers.push(json!({ "ok": v })),
                        // The rejection is an answer: the core may compact in the engine's place.
                        Some(Err(err)) => answers.push(json!({"err": err, "rejected": true, "aborted": self.aborted})),
                    }
                    continue;
                }
                if call["op"] == "next" {
                    if called || !has_next {
                        answers.push(json!({"err": "next is not available here"}));
                        continue;
                    }
                    called = true;
                    self.fake.record(hook, call.clone());
                    let answer = self.fake.next.get(hook).cloned().unwrap_or(Ok(Value::Null));
                    next = Some(answer.clone());
                    match answer {
                        Ok(v) => answers.push(json!({ "ok": v })),
                        // A `next` the hook awaited rejected: the shim cancels the hook.
                        Err(_) => {
                            self.core.cancel(id);
                            self.fake.record(hook, json!({"op": "cancel", "id": id}));
                            return Ended { done: Value::Null, next };
                        }
                    }
                    continue;
                }
                if hook == "turn-end" && self.at_turn_end_op.as_ref().is_some_and(|(op, _)| call["op"] == *op) {
                    if let Some((_, compaction)) = self.at_turn_end_op.take() {
                        self.fire("session.compact", compaction);
                    }
                }
                if call["op"] == "command" {
                    self.fake.record(hook, call.clone());
                    let queued = match self.fake.injected(hook, &call) {
                        Some(msg) => Err(msg),
                        None => self.fake.command.clone(),
                    };
                    match queued {
                        Err(err) => answers.push(json!({ "err": err })),
                        Ok(()) => {
                            if let Some(compaction) = self.before_queued.take() {
                                self.fire("session.compact", compaction);
                            }
                            // The host runs the queued command before it answers.
                            let args = call["args"].as_str().unwrap_or("").to_owned();
                            let e = json!({"trigger": "manual", "instructions": args, "messages": self.fake.queued_messages.clone()});
                            let out = self.fire("session.compact", e);
                            self.fake.record(hook, json!({"op": "queued ran", "done": out.done}));
                            answers.push(json!({}));
                        }
                    }
                    continue;
                }
                if call["op"] == "after" {
                    if let Some(compaction) = self.under_way_after.take() {
                        self.under_way = Some(self.start_until_next(&compaction));
                    }
                    if let Some(compaction) = self.during_after.take() {
                        self.fire("session.compact", compaction);
                    }
                }
                self.fake.record(hook, call.clone());
                answers.push(match self.fake.perform(hook, &call) {
                    Ok(Some(v)) => json!({ "ok": v }),
                    Ok(None) => json!({}),
                    Err(err) => json!({ "err": err }),
                });
            }
            self.fake.now += std::mem::take(&mut self.fake.batch_ms);
            let answers = Value::Array(answers).to_string();
            let out = match packed {
                Some(bytes) => self.core.resume_packed(id, &answers, bytes),
                None => self.core.resume(id, &answers),
            };
            step = serde_json::from_str(&out).expect("resume answers JSON");
            if let Some(carry) = step.get("carry") {
                self.carried = carry.to_string();
            }
        }
        let Some(mut done) = step.get("done").cloned() else {
            assert!(step["lost"].is_string(), "a step is calls, done or lost: {step}");
            self.fake.record(hook, json!({"op": "lost", "why": step["lost"]}));
            return Ended { done: step, next };
        };
        // As the shim does: the lines for the person logged, the rest of the end as it reads.
        if let Some(Value::Array(lines)) = done.as_object_mut().and_then(|d| d.remove("notice")) {
            self.fake.shown.extend(lines.iter().map(|l| l.as_str().unwrap_or("").to_owned()));
        }
        if done["end"] == "told" {
            done = json!({"end": "passThrough"});
        }
        if done["end"] == "spawn" {
            let job = done["job"].as_str().expect("a job's name").to_owned();
            self.fake.record(hook, json!({"op": "spawn", "name": job}));
            spawned.push(job);
        }
        Ended { done, next }
    }

    /// Starts session.compact and answers it until it starts `next`; leaves it
    /// there and answers its id.
    fn start_until_next(&mut self, e: &Value) -> u32 {
        let mut step: Value = serde_json::from_str(&self.core.start("session.compact", &e.to_string())).unwrap();
        while let Some(calls) = step.get("calls").and_then(Value::as_array).cloned() {
            let id = step["id"].as_u64().unwrap() as u32;
            if calls.iter().any(|c| c["op"] == "startNext") {
                self.fake.record("session.compact", json!({"op": "under way"}));
                return id;
            }
            let answers: Vec<Value> = calls
                .iter()
                .map(|c| match self.fake.perform("session.compact", c) {
                    Ok(Some(v)) => json!({ "ok": v }),
                    Ok(None) => json!({}),
                    Err(err) => json!({ "err": err }),
                })
                .collect();
            step = serde_json::from_str(&self.core.resume(id, &Value::Array(answers).to_string())).unwrap();
        }
        panic!("the compaction ended without starting next: {step}");
    }

    fn compact(&mut self, e: Value) -> Ended {
        self.fire("session.compact", e)
    }

    fn append(&mut self, e: Value) -> Ended {
        self.fire("session.append", e)
    }

    fn turn(&mut self) -> Ended {
        self.fire(
            "turn.complete",
            json!({"reason": "answer", "answer": "Done.", "isAborted": false}),
        )
    }

    /// The `next` calls of `hook`, in order.
    fn nexts(&self, hook: &str) -> Vec<Value> {
        self.fake
            .log
            .iter()
            .filter(|r| r.hook == hook && r.op() == "next")
            .map(|r| r.call.clone())
            .collect()
    }

    fn armed(&self) -> bool {
        self.core.session().carried().turn_end_armed
    }

    /// The pending blocks as the summary row would carry them.
    fn pending(&self) -> Option<Vec<String>> {
        self.core.session().carried().pending.as_ref().map(|p| p.render(Channel::SummaryRow))
    }

    /// The pending blocks as the state holds them (words and mark, blocks).
    fn pending_state(&self) -> Option<Pending> {
        self.core.session().carried().pending.clone()
    }
}

// ---------------------------------------------------------------- events

fn messages() -> Value {
    json!([
        {"role": "user", "text": "Please fix the parser in src/parse.rs", "toolUses": [], "handle": "h1"},
        {"role": "assistant", "text": "Looking.", "toolUses": [{"tool": "Bash", "input": {"command": "cargo test"}, "text": "ok", "isError": false}], "handle": "h2"},
        {"role": "user", "text": "<system-reminder>tool list</system-reminder>", "toolUses": [], "handle": "h3"},
        {"role": "user", "text": "Also keep the old API", "toolUses": [], "handle": "h4"},
    ])
}

fn compact_event(trigger: &str) -> Value {
    json!({"trigger": trigger, "messages": messages()})
}

/// `compact_event(trigger)` as the shim sends it, texts deferred, and its
/// answers to `texts` (the user rows, 0, 2 and 3) and `pack`.
fn deferred_event(trigger: &str) -> Deferred {
    Deferred {
        event: json!({"trigger": trigger, "textsDeferred": true, "messages": [
            {"role": "user", "handle": "h1"},
            {"role": "assistant", "handle": "h2"},
            {"role": "user", "handle": "h3"},
            {"role": "user", "handle": "h4"},
        ]}),
        texts: json!(["Please fix the parser in src/parse.rs", "<system-reminder>tool list</system-reminder>", "Also keep the old API"]),
        skeleton: json!({"trigger": trigger, "messages": [
            {"role": "user", "text": 0, "handle": "h1", "toolUses": []},
            {"role": "assistant", "text": 1, "handle": "h2", "toolUses": [{"tool": "Bash", "input": {"command": "cargo test"}, "text": 2, "isError": false}]},
            {"role": "user", "text": 3, "handle": "h3", "toolUses": []},
            {"role": "user", "text": 4, "handle": "h4", "toolUses": []},
        ]}),
        packed: vec!["Please fix the parser in src/parse.rs", "Looking.", "ok", "<system-reminder>tool list</system-reminder>", "Also keep the old API"],
    }
}

fn summary_row() -> Value {
    json!({"door": "compaction", "origin": {"kind": "engine"},
           "message": {"type": "user", "role": "user", "content": [{"type": "text", "text": "This session is being continued from a previous conversation. Summary."}]}})
}

fn boundary_row() -> Value {
    json!({"door": "compaction", "origin": {"kind": "engine"},
           "message": {"type": "system", "name": "compact_boundary", "content": [{"type": "text", "text": "Conversation compacted"}]}})
}

/// A verbatim block holding `texts` in this order (oldest first), and none of `absent`.
/// How each is introduced (the separators, the intro) is `verbatim`'s business.
fn verbatim_block(block: &str, texts: &[&str], absent: &[&str]) {
    assert!(
        block.starts_with("<user-messages-verbatim>\n")
            && block.ends_with("\n</user-messages-verbatim>"),
        "{block}"
    );
    let mut from = 0;
    for t in texts {
        let at = block[from..]
            .find(&format!("\n{t}\n"))
            .unwrap_or_else(|| panic!("{t:?} missing or out of order in {block}"));
        from += at + t.len();
    }
    for t in absent {
        assert!(!block.contains(t), "{t:?} in {block}");
    }
}

/// The text blocks `next` received beyond the row's own, for the last append.
fn appended(h: &Harness) -> Vec<String> {
    let nexts = h.nexts("session.append");
    let last = nexts.last().expect("an append reached next");
    last["append"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|b| b.as_str().unwrap_or("").to_owned())
        .collect()
}

fn pointer_block(file: &str, d: &str) -> String {
    let p = handoff::pointer(file, d, 1, Reach::Project);
    assert!(p.contains(&format!("\"{file}\"")) && p.contains(&format!("rg -n \"<term>\" \"{d}\"")));
    p
}

// ---------------------------------------------------------------- session.compact

#[test]
fn compaction_writes_history_passes_instructions_and_logs() {
    let mut h = Harness::new();
    // As the shim sends it: the texts come when the core asks for them.
    h.deferred = Some(deferred_event("manual"));
    let out = h.compact(compact_event("manual"));
    // The engine's result comes back unchanged (ref:179).
    assert_eq!(out, Ended::passed(h.fake.next["session.compact"].clone()));

    // ref:26-29 (the home and the session id, asked here in one round trip:
    // the reference asked them one after another); the person's texts for the
    // verbatim block, and the words an earlier process of the session carried
    // (`.verbatim.json`: the first compaction of a process alone); then next
    // starts, and ref:69-77 run while the summarizer works: now, id, (is the
    // name taken?), all the texts, write; then next's result. (The reference
    // writes before next; here the summary request is not kept waiting for it.)
    assert_eq!(
        h.fake.ops("session.compact")[..13],
        [
            "env",
            "env",
            "env",
            "sessionId",
            "texts",
            "read",
            "next",
            "now",
            "sessionId",
            "exists",
            "pack",
            "write",
            "nextResult"
        ]
    );
    // Only the user rows' texts are asked for before next.
    assert_eq!(h.fake.calls("texts")[0]["messages"], json!([0, 2, 3]));
    let envs: Vec<_> = h
        .fake
        .calls("env")
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(envs[..3], [json!("OS"), json!("HOME"), json!("USERPROFILE")]);

    let file = history_file("manual");
    let text = h.fake.text(&file).expect("history written");
    assert!(text.starts_with(&format!(
        "# Conversation before compaction\n\nSession {SID}, compacted {NOW_ISO} (manual), 4 messages. Written by the compact-plus mod.\n"
    )));
    assert!(text.contains("## [1] user\n\nPlease fix the parser in src/parse.rs\n"));
    assert!(text.contains("### tool Bash\ninput: {\"command\":\"cargo test\"}\nresult:\nok\n"));

    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 1, "next asked once");
    assert_eq!(
        nexts[0]["instructions"],
        json!(ours(None, Some(FIRST), true))
    );
    // The rest of the event goes down as received.
    assert_eq!(changes(&nexts[0]), ["instructions"]);

    // One log line, keys in the reference's order (ref:166-175).
    assert_eq!(
        h.fake.log_lines(),
        vec![format!(
            "{{\"at\":\"{NOW_ISO}\",\"event\":\"compact\",\"trigger\":\"manual\",\"messages\":4,\"kept\":0,\"verbatim\":2,\"tokensBefore\":5000,\"tokensAfter\":800,\"file\":\"{file}\"}}"
        )]
    );

    // Pending: the verbatim block, then the pointer (ref:160-163).
    let pending = h.pending().expect("blocks pending");
    assert_eq!(pending.len(), 2);
    // Machine rows are not the person's words.
    verbatim_block(
        &pending[0],
        &[FIRST, "Also keep the old API"],
        &["tool list", "Looking."],
    );
    assert_eq!(pending[1], pointer_block(&file, &dir()));
}

#[test]
fn no_home_and_no_userprofile() {
    let mut h = Harness::new();
    h.fake.env.clear();
    h.compact(compact_event("auto"));

    assert!(h.fake.calls("write").is_empty(), "no history, no log");
    assert!(
        h.fake.calls("list").is_empty() && h.fake.calls("stat").is_empty(),
        "no pruning"
    );
    // The id is asked with the home, in the same round trip, and left unread.
    assert!(h.fake.files.is_empty());
    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 1);
    // Still the handoff instructions, naming the first kept message; nothing saved.
    assert_eq!(
        nexts[0]["instructions"],
        json!(ours(None, Some(FIRST), false))
    );

    h.append(summary_row());
    let blocks = appended(&h);
    assert_eq!(
        blocks.len(),
        1,
        "the verbatim block alone, no pointer: {blocks:?}"
    );
    verbatim_block(&blocks[0], &[FIRST, "Also keep the old API"], &[]);
}

#[test]
fn an_empty_home_does_not_fall_back() {
    // `??` only skips null and undefined: HOME="" means no home (ref:26-27).
    let mut h = Harness::new();
    h.fake.env.insert("HOME".into(), String::new());
    h.fake.env.insert("USERPROFILE".into(), "/mnt/c/Users/ann".into());
    h.compact(compact_event("manual"));
    // USERPROFILE is asked with the others, in one round trip, and not used.
    assert!(h.fake.calls("env").iter().any(|c| c["name"] == "USERPROFILE"));
    assert!(h.fake.calls("write").is_empty());
}

#[test]
fn userprofile_is_no_home_outside_windows() {
    // WSL with WSLENV=USERPROFILE/p: USERPROFILE is the Windows home as a Linux
    // path, not the home Claude Code keeps ~/.claude in.
    let mut h = Harness::new();
    h.fake.env.insert("USERPROFILE".into(), "/mnt/c/Users/ann".into());
    h.compact(compact_event("manual"));
    assert_eq!(h.fake.calls("write")[0]["path"], json!(history_file("manual")));
    // With no HOME at all, it is the home that is there.
    let mut h = Harness::new();
    h.fake.env.clear();
    h.fake.env.insert("USERPROFILE".into(), "/u/ann".into());
    h.compact(compact_event("manual"));
    let file = format!("/u/ann/.claude/compact-history/{SID}/{NOW_STAMP}-manual.md");
    assert_eq!(h.fake.calls("write")[0]["path"], json!(file));
}

#[test]
fn on_windows_userprofile_is_preferred_with_forward_slashes() {
    let mut h = Harness::new();
    h.fake
        .env
        .insert("USERPROFILE".into(), "C:\\Users\\ann".into());
    h.fake.env.insert("OS".into(), "Windows_NT".into());
    h.compact(compact_event("manual"));

    // HOME is not used once USERPROFILE answers (ref:26).
    let d = format!("C:/Users/ann/.claude/compact-history/{SID}");
    let file = format!("{d}/{NOW_STAMP}-manual.md");
    assert_eq!(h.fake.calls("write")[0]["path"], json!(file));
    assert!(h.fake.text(&format!("{d}/log.jsonl")).is_some());

    h.append(summary_row());
    assert_eq!(appended(&h).last().unwrap(), &pointer_block(&file, &d));
}

#[test]
fn deferred_texts_and_a_whole_event_come_out_the_same() {
    // The shim hands session.compact its texts late (after next has started);
    // a host that sends the whole event must get the very same compaction.
    let mut e = compact_event("auto");
    e["messages"][1]["toolUses"][0]["text"] = json!("out: /srv/app/main.rs:10 failed, see `deploy-key` 🙂");
    e["messages"][3]["text"] = json!(null);
    e["messages"].as_array_mut().unwrap().push(json!(null));
    // `e` as the shim sends it, and its answers (the user rows are 0, 2 and 3).
    let deferred = Deferred {
        event: json!({"trigger": "auto", "textsDeferred": true, "messages": [
            {"role": "user", "handle": "h1"},
            {"role": "assistant", "handle": "h2"},
            {"role": "user", "handle": "h3"},
            {"role": "user", "handle": "h4"},
            null,
        ]}),
        texts: json!(["Please fix the parser in src/parse.rs", "<system-reminder>tool list</system-reminder>", null]),
        skeleton: json!({"trigger": "auto", "messages": [
            {"role": "user", "text": 0, "handle": "h1", "toolUses": []},
            {"role": "assistant", "text": 1, "handle": "h2", "toolUses": [{"tool": "Bash", "input": {"command": "cargo test"}, "text": 2, "isError": false}]},
            {"role": "user", "text": 3, "handle": "h3", "toolUses": []},
            {"role": "user", "text": null, "handle": "h4", "toolUses": []},
            null,
        ]}),
        packed: vec![
            "Please fix the parser in src/parse.rs",
            "Looking.",
            "out: /srv/app/main.rs:10 failed, see `deploy-key` 🙂",
            "<system-reminder>tool list</system-reminder>",
        ],
    };
    let run = |deferred: Option<Deferred>| {
        let mut h = Harness::new();
        h.deferred = deferred;
        h.compact(e.clone());
        let nexts = h.nexts("session.compact");
        (h.fake.files.clone(), h.pending(), nexts[0]["instructions"].clone(), h.fake.calls("texts").len())
    };
    let (files, pending, instructions, texts) = run(Some(deferred));
    let (whole_files, whole_pending, whole_instructions, whole_texts) = run(None);
    assert_eq!((texts, whole_texts), (1, 0));
    assert_eq!(files, whole_files);
    assert_eq!(pending, whole_pending);
    assert_eq!(instructions, whole_instructions);
    assert!(files.values().any(|(t, _)| t.contains("see `deploy-key` 🙂")));
}

#[test]
fn unanswered_texts_cost_the_verbatim_block_alone() {
    let mut h = Harness::new();
    h.deferred = Some(deferred_event("manual"));
    h.fake.fail("texts", "", "texts: gone");
    h.compact(compact_event("manual"));
    assert!(h.fake.text(&history_file("manual")).unwrap().contains("Also keep the old API"));
    let pending = h.pending().unwrap();
    assert_eq!(pending.len(), 1, "the pointer alone");
    assert!(pending[0].starts_with(&handoff::pointer(&history_file("manual"), &dir(), 1, Reach::Project)));
    assert_eq!(h.nexts("session.compact")[0]["instructions"], json!(ours(None, None, true)));
}

#[test]
fn unpacked_texts_cost_the_history_alone() {
    let mut h = Harness::new();
    h.deferred = Some(deferred_event("manual"));
    h.fake.fail("pack", "", "pack: too big");
    let out = h.compact(compact_event("manual"));
    assert_eq!(out, Ended::passed(h.fake.next["session.compact"].clone()));
    assert!(h.fake.text(&history_file("manual")).is_none());
    let pending = h.pending().unwrap();
    assert_eq!(pending.len(), 1, "verbatim kept, pointer gone");
    verbatim_block(&pending[0], &[FIRST, "Also keep the old API"], &[]);
    let debug: Vec<String> = h.fake.calls("debug").iter().map(|c| c["text"].as_str().unwrap().to_owned()).collect();
    assert!(debug.iter().any(|d| d.contains("the history was not written: pack: too big")), "{debug:?}");
    assert!(h.fake.log_lines()[0].ends_with("\"file\":null}"), "{:?}", h.fake.log_lines());
}

#[test]
fn a_rejected_next_still_leaves_the_history_written_meanwhile() {
    let mut h = Harness::with(Options { rescue: false, ..Options::default() });
    h.fake.next.insert("session.compact".into(), Err("the summarizer failed".into()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Err("the summarizer failed".into())));
    // Written while the summarizer ran, as the reference wrote it before: the
    // conversation is kept; nothing is logged as a compaction, nothing pending.
    assert!(h.fake.text(&history_file("manual")).is_some());
    assert!(h.fake.log_lines().is_empty());
    assert_eq!(h.pending(), None);
    // With the rescue off the core ends by passing the rejection up: the shim rethrows it.
    assert_eq!(h.fake.ops("session.compact").last().map(String::as_str), Some("nextResult"));
}

#[test]
fn history_write_failure_costs_the_pointer_alone() {
    let mut h = Harness::new();
    h.fake.fail("write", ".md", "EFBIG: over 4 MiB");
    h.compact(compact_event("manual"));

    let pending = h.pending().unwrap();
    assert_eq!(pending.len(), 1, "verbatim kept, pointer gone");
    verbatim_block(&pending[0], &[FIRST, "Also keep the old API"], &[]);
    let lines = h.fake.log_lines();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0]
            .ends_with(",\"verbatim\":2,\"tokensBefore\":5000,\"tokensAfter\":800,\"file\":null}"),
        "{}",
        lines[0]
    );
    // The instructions still went down with the onward line; "saved" was said
    // before the write was tried (it runs while the summarizer works).
    assert_eq!(
        h.nexts("session.compact")[0]["instructions"],
        json!(ours(None, Some(FIRST), true))
    );
}

#[test]
fn env_rejecting_costs_the_history_alone() {
    // A deliberate difference: in the reference prepare throws and `down = e`
    // (ref:148-151), losing the handoff and the verbatim block too, though
    // neither needs the home folder.
    let mut h = Harness::new();
    h.fake.fail("env", "HOME", "denied");
    let mut e = compact_event("manual");
    e["instructions"] = json!("mine");
    h.compact(e.clone());
    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 1);
    let down = nexts[0]["instructions"].as_str().unwrap();
    assert!(
        down.starts_with("mine\n\nFrom the compact-plus mod:"),
        "{down}"
    );
    assert!(h.fake.calls("write").is_empty());
    assert!(h.fake.calls("debug").iter().any(|d| d["text"]
        .as_str()
        .unwrap()
        .contains("no history folder: denied")));
    let pending = h.pending().expect("the verbatim block is kept");
    assert_eq!(pending.len(), 1);
    verbatim_block(
        &pending[0],
        &[
            "Please fix the parser in src/parse.rs",
            "Also keep the old API",
        ],
        &[],
    );
}

#[test]
fn subagent_compaction_gets_instructions_only() {
    let mut h = Harness::new();
    h.core.session().carried_mut().turn_end_armed = false;
    let mut e = compact_event("auto");
    e["agentId"] = json!("agent-7");
    e["instructions"] = json!("  keep the test names \n");
    let out = h.compact(e);
    assert_eq!(out, Ended::passed(h.fake.next["session.compact"].clone()));

    assert_eq!(
        h.fake.ops("session.compact"),
        ["next"],
        "no env, no writes, no log"
    );
    // handoffInstructions(null) (ref:137): no first message named, nothing saved.
    let instructions = h.nexts("session.compact")[0]["instructions"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(instructions, ours(Some("keep the test names"), None, false));
    assert!(instructions.starts_with("keep the test names\n\n"));
    assert!(h.pending().is_none());
    assert!(
        !h.armed(),
        "a subagent's compaction does not re-arm (ref:139)"
    );

    // Nothing pending: the summary row passes untouched.
    assert_eq!(h.append(summary_row()), Ended::untouched());
}

#[test]
fn own_instructions_first_then_ours() {
    let theirs = ours(None, Some(FIRST), true);
    for (own, want) in [
        (
            json!("  Focus on the DB migration.  \n"),
            format!("Focus on the DB migration.\n\n{theirs}"),
        ),
        (json!(" \n\t"), theirs.clone()),
        (Value::Null, theirs.clone()),
    ] {
        let mut h = Harness::new();
        let mut e = compact_event("manual");
        if !own.is_null() {
            e["instructions"] = own;
        }
        h.compact(e);
        assert_eq!(
            h.nexts("session.compact")[0]["instructions"],
            json!(want)
        );
    }
}

#[test]
fn verbatim_budget_zero_keeps_no_messages() {
    let mut h = Harness::with(Options::from_json(r#"{"verbatimUserTokens":0}"#));
    h.compact(compact_event("manual"));
    assert_eq!(
        h.nexts("session.compact")[0]["instructions"],
        json!(ours(None, None, true))
    );
    // The pointer, then the audit: the event's paths that the fake summary leaves out.
    let pending = h.pending().unwrap();
    assert_eq!(pending.len(), 1);
    assert!(pending[0].starts_with(&pointer_block(&history_file("manual"), &dir())));
    assert!(
        pending[0].contains("are not in the summary above")
            && pending[0].contains("- path: src/parse.rs (×1)"),
        "{}",
        pending[0]
    );
    assert!(h.fake.log_lines()[0].contains("\"verbatim\":0"));

    // No home as well: no blocks at all, so nothing is pending (ref:163).
    let mut h = Harness::with(Options::from_json(r#"{"verbatimUserTokens":0}"#));
    h.fake.env.clear();
    h.compact(compact_event("manual"));
    assert!(h.pending().is_none());
    assert_eq!(h.append(summary_row()), Ended::untouched());
}

#[test]
fn verbatim_the_engine_kept_is_dropped() {
    let mut h = Harness::new();
    let carried = "This session is being continued from a previous conversation.\n<user-messages-verbatim>\nintro\n\n--- user message ---\nan older request\n</user-messages-verbatim>";
    let mut e = compact_event("auto");
    let mut msgs = vec![json!({"role": "user", "text": carried, "handle": "old-sum"})];
    msgs.extend(messages().as_array().unwrap().iter().cloned());
    e["messages"] = Value::Array(msgs);
    h.fake.next.insert(
        "session.compact".into(),
        Ok(json!({"messages": [
            {"role": "user", "text": "summary", "handle": "sum-2"},
            {"role": "user", "text": "Also keep the old API", "handle": "h4"},
        ], "tokensBefore": 9, "tokensAfter": 3})),
    );
    h.compact(e);

    let pending = h.pending().unwrap();
    // A carried entry has no handle and stays; the one the engine kept goes (ref:158-159).
    assert_eq!(pending.len(), 2);
    verbatim_block(
        &pending[0],
        &["an older request", FIRST],
        &["Also keep the old API"],
    );
    // The instructions were built before the result: they name the first entry.
    assert_eq!(
        h.nexts("session.compact")[0]["instructions"],
        json!(ours(None, Some("an older request"), true))
    );
    let line = &h.fake.log_lines()[0];
    assert!(
        line.contains(
            "\"messages\":5,\"kept\":1,\"verbatim\":2,\"tokensBefore\":9,\"tokensAfter\":3"
        ),
        "{line}"
    );
}

#[test]
fn result_without_messages_leaves_state_alone() {
    let mut h = Harness::new();
    h.core.session().carried_mut().turn_end_armed = false;
    for result in [
        json!({"tokensBefore": 1}),
        json!({"messages": null}),
        json!({"messages": "x"}),
        Value::Null,
    ] {
        h.fake
            .next
            .insert("session.compact".into(), Ok(result.clone()));
        let out = h.compact(compact_event("manual"));
        assert_eq!(out, Ended::passed(Ok(result.clone())));
        assert!(!h.armed(), "{result}");
        assert!(h.pending().is_none(), "{result}");
    }
    assert!(
        h.fake.log_lines().is_empty(),
        "no compact log without a result (ref:157)"
    );
    assert!(h.fake.calls("list").is_empty());
}

#[test]
fn tokens_absent_from_the_result_are_absent_from_the_log() {
    let mut h = Harness::new();
    h.fake.next.insert(
        "session.compact".into(),
        Ok(json!({"messages": [{"handle": "s"}], "tokensBefore": 7})),
    );
    h.compact(compact_event("manual"));
    let line = &h.fake.log_lines()[0];
    assert!(
        line.contains("\"verbatim\":2,\"tokensBefore\":7,\"file\":"),
        "{line}"
    );
    assert!(!line.contains("tokensAfter"));
}

#[test]
fn null_tokens_are_logged_as_null() {
    let mut h = Harness::new();
    h.fake.next.insert(
        "session.compact".into(),
        Ok(json!({"messages": [{"handle": "s"}], "tokensBefore": null})),
    );
    h.compact(compact_event("manual"));
    let line = &h.fake.log_lines()[0];
    assert!(
        line.contains("\"verbatim\":2,\"tokensBefore\":null,\"file\":"),
        "{line}"
    );
}

#[test]
fn missing_trigger_is_left_out_of_the_log() {
    let mut h = Harness::new();
    h.compact(json!({"messages": messages()}));
    // The file name interpolates it (ref:70) ...
    assert!(h.fake.text(&history_file("undefined")).is_some());
    // ... but JSON.stringify drops an undefined value (ref:166-175).
    let line = &h.fake.log_lines()[0];
    assert!(!line.contains("\"trigger\""), "{line}");
}

#[test]
fn log_appends_to_the_existing_file() {
    let mut h = Harness::new();
    let log = format!("{}/log.jsonl", dir());
    h.fake.add_file(&log, "{\"earlier\":1}\n", NOW - DAY);
    h.compact(compact_event("manual"));
    let text = h.fake.text(&log).unwrap();
    assert!(text.starts_with("{\"earlier\":1}\n{\"at\":"), "{text}");
    assert_eq!(text.lines().count(), 2);
    // exists, read, write for the log; the write is the hook's last call.
    let ops = h.fake.ops("session.compact");
    assert_eq!(ops.last().unwrap(), "write");
    assert!(ops.contains(&"exists".to_owned()) && ops.contains(&"read".to_owned()));
}

#[test]
fn log_read_failure_costs_the_line_alone() {
    let mut h = Harness::new();
    let log = format!("{}/log.jsonl", dir());
    h.fake.add_file(&log, "keep me\n", NOW - DAY);
    h.fake.fail("read", "log.jsonl", "EACCES");
    h.compact(compact_event("manual"));
    assert_eq!(
        h.fake.text(&log),
        Some("keep me\n"),
        "never overwritten with less (ref:33-37)"
    );
    assert!(h.pending().is_some());
}

// ---------------------------------------------------------------- session.append

#[test]
fn append_fills_only_the_first_main_summary_row() {
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    let pending = h.pending().unwrap();
    h.fake.clear();

    // The boundary row passes untouched, and the core asks nothing (ref:183):
    // the shim calls `next` with the event as it came.
    assert_eq!(h.append(boundary_row()), Ended::untouched());
    assert!(h.fake.ops("session.append").is_empty());

    // A subagent's summary row passes too.
    let mut sub = summary_row();
    sub["agentId"] = json!("agent-1");
    assert_eq!(h.append(sub), Ended::untouched());

    // A user-typed row with another role is not the summary row.
    let mut odd = summary_row();
    odd["message"]["role"] = json!("assistant");
    assert_eq!(h.append(odd), Ended::untouched());
    assert!(h.nexts("session.append").is_empty());
    assert_eq!(h.pending().as_ref(), Some(&pending), "still pending");

    // The summary row gets the blocks, once, through the core's own next.
    let out = h.append(summary_row());
    assert_eq!(out, Ended::passed(Ok(json!({"message": {}, "uuid": "sum-1"}))));
    let n = h.nexts("session.append");
    assert_eq!(n.len(), 1);
    assert_eq!(n[0]["append"], json!(pending));
    assert_eq!(changes(&n[0]), ["append"], "the row as it came, the blocks appended");
    assert!(h.pending().is_none());

    // Consumed: the next summary row passes untouched.
    assert_eq!(h.append(summary_row()), Ended::untouched());
    assert_eq!(h.nexts("session.append").len(), 1);
}

#[test]
fn append_without_a_message_passes() {
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    assert_eq!(h.append(json!({"door": "compaction"})), Ended::untouched());
    assert!(h.pending().is_some());
}

// ---------------------------------------------------------------- prompt.context

fn file(path: &str, kind: &str, content: &str) -> Value {
    json!({"path": path, "kind": kind, "content": content, "parent": null})
}

/// prompt.context with `next` answering `result`: the core's end. It always
/// calls `next` first (`NEXT_FIRST`), and its end passes `next`'s result
/// through or amends it (`instructionFiles`, `contextBlock`).
fn context(h: &mut Harness, e: Value, result: Value) -> Value {
    h.fake.next.insert("prompt.context".into(), Ok(result.clone()));
    let out = h.fire("prompt.context", e);
    assert_eq!(out.next, Some(Ok(result)), "the core called next, first");
    out.done
}

/// The end that passes the engine's result through as it came.
fn pass_through() -> Value {
    json!({"end": "passThrough"})
}

/// The session's first prompt.context: the engine read these project files as
/// they were on disk then (raw texts; its copy is what the port makes of them).
/// A test then edits the disk, and the next prompt.context (after a compaction)
/// sees the change.
fn engine_loaded(h: &mut Harness, files: &[(&str, &str)]) {
    for (path, raw) in files {
        h.fake.add_file(path, raw, NOW - DAY);
    }
    let list: Vec<Value> = files.iter().map(|(p, raw)| file(p, "project", &instructions::engine_content(raw))).collect();
    let out = context(h, json!({}), json!({"instructionFiles": list}));
    assert_eq!(out, pass_through(), "the engine's files pass through");
    h.fake.clear();
}

#[test]
fn context_reads_only_project_files_and_keeps_unreadable_and_imports() {
    let mut h = Harness::new();
    h.fake
        .add_file("/home/ann/.claude/memory/MEMORY.md", "changed on disk", NOW);
    h.fake
        .add_file("/etc/claude-code/CLAUDE.md", "changed on disk", NOW);
    h.fake
        .add_file("/p/AGENTS.md", "Use tabs.\n@docs/style.md\n", NOW);
    let files = json!([
        file("/home/ann/.claude/memory/MEMORY.md", "memory", "old"),
        file("/etc/claude-code/CLAUDE.md", "managed", "old"),
        file("/p/CLAUDE.md", "project", "gone from disk"),
        file("/p/AGENTS.md", "project", "Use tabs.\nStyle: short lines."),
    ]);
    let result = json!({"blocks": ["b"], "instructionFiles": files});
    let out = context(&mut h, json!({"instructionFiles": []}), result.clone());

    // The blocks kept on disk are read too (the first look, no `exists` first).
    let reads: Vec<_> = h
        .fake
        .calls("read")
        .iter()
        .map(|c| c["path"].clone())
        .filter(|p| !p.as_str().unwrap_or("").ends_with("/pending-blocks.json"))
        .collect();
    assert_eq!(
        reads,
        [json!("/p/CLAUDE.md"), json!("/p/AGENTS.md")],
        "memory and managed are not read (ref:198)"
    );
    assert_eq!(out, pass_through(), "nothing refreshed: the engine's result as is");
    assert!(h.fake.calls("write").is_empty());
    assert_eq!(h.nexts("prompt.context").len(), 1);
}

#[test]
fn context_unchanged_file_is_not_refreshed() {
    // Frontmatter, a comment line, CRLF and trailing spaces: the engine's copy is
    // what it made of this very text, so nothing is refreshed (the reference's
    // strip leaves a blank line and refreshes it on every compaction).
    for raw in [
        "---\ntitle: x\n---\r\n<!-- note -->\r\nRun   \r\ncargo test.\r\n\r\n",
        "# T\n\n<!-- hidden -->\nAlways answer briefly.\n",
        "\u{feff}plain, with a BOM and no comment\n",
        "see @./other.md for more\n",
    ] {
        let mut h = Harness::new();
        h.fake.add_file("/p/CLAUDE.md", raw, NOW);
        let engine = compact_plus::instructions::engine_content(raw);
        let result = json!({"instructionFiles": [file("/p/CLAUDE.md", "project", &engine)]});
        let out = context(&mut h, json!({}), result.clone());
        let reads = h.fake.calls("read");
        assert_eq!(reads.iter().filter(|c| c["path"] == "/p/CLAUDE.md").count(), 1);
        assert!(reads.iter().all(|c| c["path"] == "/p/CLAUDE.md" || c["path"].as_str().unwrap_or("").ends_with("/pending-blocks.json")));
        assert_eq!(out, pass_through(), "{raw:?}");
        assert!(h.fake.log_lines().is_empty(), "{raw:?}");
    }
}

#[test]
fn an_unchanged_file_is_never_refreshed_whatever_the_engine_makes_of_it() {
    // Issue [9]: "unchanged" was the port's reading of the disk compared with the
    // engine's copy; an engine whose loader changed (here: it keeps a comment the
    // port drops) made every unchanged file look edited at each compaction.
    let raw = "Use tabs.\n<!-- reviewed 2026-11 -->\nRun cargo test.\n";
    let engines_copy = "Use tabs.\n<!-- reviewed 2026-11 -->\nRun cargo test.";
    assert_ne!(instructions::engine_content(raw), engines_copy, "the simulated engine reads it otherwise than the port");
    let mut h = Harness::new();
    h.fake.add_file("/p/CLAUDE.md", raw, NOW - DAY);
    let files = json!({"instructionFiles": [file("/p/CLAUDE.md", "project", engines_copy)]});
    for _ in 0..3 {
        // The session's start, then two compactions: the file never changed on disk.
        let out = context(&mut h, json!({}), files.clone());
        assert_eq!(out, pass_through());
    }
    assert!(!h.fake.log_lines().iter().any(|l| l.contains("instructions-refreshed")));
    // Edited on disk: then the port makes the engine's copy of the new text.
    h.fake.add_file("/p/CLAUDE.md", "Use spaces.\n", NOW);
    let out = context(&mut h, json!({}), files.clone());
    assert_eq!(out["instructionFiles"][0]["content"], "Use spaces.\n");
    // And once refreshed, the same text again is no edit.
    let again = context(&mut h, json!({}), files.clone());
    assert_eq!(again, pass_through());
}

#[test]
fn context_edited_file_is_refreshed_and_logged() {
    let mut h = Harness::new();
    engine_loaded(&mut h, &[("/p/CLAUDE.md", "Run cargo test."), ("/p/sub/CLAUDE.md", "same")]);
    let raw = "---\ntitle: x\n---\nRun cargo nextest.\n<!-- hidden -->\n";
    h.fake.add_file("/p/CLAUDE.md", raw, NOW);
    h.fake.add_file("/p/sub/CLAUDE.md", "same", NOW);
    let result = json!({
        "blocks": ["b"],
        "instructionFiles": [file("/p/CLAUDE.md", "project", "Run cargo test."), file("/p/sub/CLAUDE.md", "project", "same")],
        "originMarkedPaths": [],
    });
    let out = context(&mut h, json!({}), result.clone());

    let mut want = result.clone();
    want["instructionFiles"][0]["content"] =
        json!(compact_plus::instructions::engine_content(raw));
    assert_eq!(
        want["instructionFiles"][0]["content"],
        json!("Run cargo nextest.\n")
    );
    assert_eq!(
        out,
        json!({"end": "amended", "instructionFiles": want["instructionFiles"]}),
        "the new text as the engine loads it, every other field of each file kept"
    );
    assert_eq!(
        h.fake.log_lines(),
        vec![format!("{{\"at\":\"{NOW_ISO}\",\"event\":\"instructions-refreshed\",\"files\":[\"/p/CLAUDE.md\"]}}")]
    );
}

#[test]
fn context_file_emptied_on_disk_is_left_out_as_the_engine_would() {
    let mut h = Harness::new();
    engine_loaded(&mut h, &[("/p/CLAUDE.md", "old rules"), ("/p/sub/CLAUDE.md", "same")]);
    h.fake
        .add_file("/p/CLAUDE.md", "<!-- nothing left -->\n", NOW);
    h.fake.add_file("/p/sub/CLAUDE.md", "same", NOW);
    let result = json!({"instructionFiles": [file("/p/CLAUDE.md", "project", "old rules"), file("/p/sub/CLAUDE.md", "project", "same")]});
    let out = context(&mut h, json!({}), result);
    assert_eq!(out["instructionFiles"], json!([file("/p/sub/CLAUDE.md", "project", "same")]));
}

#[test]
fn context_edited_file_without_home_is_refreshed_unlogged() {
    let mut h = Harness::new();
    h.fake.env.clear();
    engine_loaded(&mut h, &[("/p/CLAUDE.md", "old")]);
    h.fake.add_file("/p/CLAUDE.md", "new", NOW);
    let out = context(
        &mut h,
        json!({}),
        json!({"instructionFiles": [file("/p/CLAUDE.md", "project", "old")]}),
    );
    assert_eq!(out["instructionFiles"][0]["content"], "new");
    assert!(h.fake.calls("write").is_empty());
}

#[test]
// A deliberate difference: in the reference (ref:214) a failing historyDir throws
// inside the try and loses the refresh; a failed log line should cost the line alone.
fn context_env_rejecting_after_a_refresh_still_refreshes() {
    let mut h = Harness::new();
    engine_loaded(&mut h, &[("/p/CLAUDE.md", "old")]);
    h.fake.add_file("/p/CLAUDE.md", "new", NOW);
    h.fake.fail("env", "HOME", "denied");
    let result = json!({"instructionFiles": [file("/p/CLAUDE.md", "project", "old")]});
    let out = context(&mut h, json!({}), result);
    assert_eq!(out["instructionFiles"], json!([file("/p/CLAUDE.md", "project", "new")]));
    assert!(h.fake.calls("write").is_empty());
}

#[test]
fn context_prefers_the_results_files_over_the_events() {
    let mut h = Harness::new();
    engine_loaded(&mut h, &[("/p/A.md", "A old"), ("/p/B.md", "B old")]);
    h.fake.add_file("/p/A.md", "A new", NOW);
    h.fake.add_file("/p/B.md", "B new", NOW);
    let e = json!({"instructionFiles": [file("/p/A.md", "project", "A old")]});
    let out = context(
        &mut h,
        e.clone(),
        json!({"instructionFiles": [file("/p/B.md", "project", "B old")]}),
    );
    let reads: Vec<_> = h
        .fake
        .calls("read")
        .iter()
        .map(|c| c["path"].clone())
        .collect();
    assert_eq!(reads, [json!("/p/B.md")]);
    assert_eq!(
        out["instructionFiles"],
        json!([file("/p/B.md", "project", "B new")])
    );

    // A result without the list (or with null) falls back to the event's (ref:193).
    for result in [
        json!({"blocks": []}),
        json!({"blocks": [], "instructionFiles": null}),
    ] {
        let mut h = Harness::new();
        engine_loaded(&mut h, &[("/p/A.md", "A old")]);
        h.fake.add_file("/p/A.md", "A new", NOW);
        let out = context(&mut h, e.clone(), result);
        assert_eq!(out, json!({"end": "amended", "instructionFiles": [file("/p/A.md", "project", "A new")]}));
    }

    // An empty list in the result is the answer: nothing read.
    h.fake.clear();
    let out = context(&mut h, e, json!({"instructionFiles": []}));
    assert!(h.fake.calls("read").is_empty());
    assert_eq!(out, pass_through());
}

// ---------------------------------------------------------------- turn.complete

/// Tokens at which the default 90% of a 100,000 threshold is reached.
const NEAR: u64 = 90_000;

#[test]
fn turn_complete_spawns_only_armed_on_a_main_answer() {
    let mut h = Harness::new();
    for (e, spawns) in [
        (json!({"reason": "answer"}), true),
        (json!({"reason": "tool_use"}), false),
        (json!({"reason": "aborted"}), false),
        (json!({}), false),
        (json!({"reason": "answer", "agentId": "a1"}), false),
    ] {
        h.fake.clear();
        let out = h.fire("turn.complete", e.clone());
        assert_eq!(out.next, Some(Ok(json!({"ok": true}))), "the core asks next itself (ref:223)");
        assert_eq!(out.end(), if spawns { "spawn" } else { "passThrough" }, "{e}");
        let n = h.nexts("turn.complete");
        assert_eq!(n.len(), 1, "{e}");
        assert_untouched(&n[0]);
        assert_eq!(!h.fake.calls("spawn").is_empty(), spawns, "{e}");
    }
    // Disarmed: no job.
    h.core.session().carried_mut().turn_end_armed = false;
    h.fake.clear();
    h.turn();
    assert!(h.fake.calls("spawn").is_empty());
}

#[test]
fn turn_end_percent_zero_disables() {
    for mut h in [
        Harness::with(Options {
            turn_end_percent: 0.0,
            ..Options::default()
        }),
        Harness::with(Options::from_json(r#"{"turnEndPercent":0}"#)),
        Harness::with(Options::from_json(r#"{"turnEndPercent":"abc"}"#)),
    ] {
        h.fake.tokens = json!(99_999);
        h.turn();
        assert!(h.fake.calls("spawn").is_empty());
        assert!(h.fake.calls("usage").is_empty());
    }
}

#[test]
fn turn_end_percent_from_options_is_a_number() {
    let mut h = Harness::with(Options::from_json(r#"{"turnEndPercent":"50"}"#));
    h.fake.tokens = json!(50_000);
    h.turn();
    assert_eq!(h.fake.calls("command").len(), 1);
    assert!(h.fake.log_lines()[0].ends_with("\"event\":\"turn-end-compact\",\"percent\":50}"));
}

/// The marker of the turn-end compaction's queued `/compact`.
const MARKER_HEAD: &str = "compact-plus: compacting between turns, the context is near the auto-compact threshold (queued at ";

#[test]
fn near_threshold_logs_waits_and_queues_a_compact_that_is_ours() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.turn();

    assert_eq!(
        h.fake.ops("turn-end"),
        ["usage", "now", "usage", "env", "env", "env", "sessionId", "now", "exists", "write", "after", "now", "command", "queued ran"]
    );
    let usage = h.fake.calls("usage");
    assert_eq!(usage[0], json!({"op": "usage"}));
    assert_eq!(usage[1], json!({"op": "usage", "breakdown": "summary"}));
    assert_eq!(h.fake.calls("after"), vec![json!({"op": "after", "ms": 1500})]);
    // `$.session.compact()` is never asked: in the terminal it would skip our own hook.
    assert!(h.fake.calls("compact").is_empty());
    let command = &h.fake.calls("command")[0];
    assert_eq!(command["command"], json!("compact"));
    let args = command["args"].as_str().unwrap();
    // Issue [13] item 13: words and the time it was queued (the fake clock's, 1.5 s after the
    // turn), not an internal token like `(#sp0bi-3)`.
    assert_eq!(args, format!("{MARKER_HEAD}22:13:21 UTC)"));

    // The queued /compact ran through our own hook, as the host runs it: the
    // summarizer got the handoff, not the marker; the history is named turn-end.
    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 1);
    assert_eq!(nexts[0]["instructions"], json!(ours(None, Some("Please keep going with the parser"), true)));
    // Named for the clock when it ran, 1.5 s after the turn.
    let file = format!("{}/2023-11-14T221321Z-turn-end.md", dir());
    assert!(h.fake.text(&file).is_some(), "{:?}", h.fake.files.keys().collect::<Vec<_>>());
    let lines = h.fake.log_lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], format!("{{\"at\":\"{NOW_ISO}\",\"event\":\"turn-end-compact\",\"percent\":90}}"));
    assert!(lines[1].contains("\"event\":\"compact\",\"trigger\":\"turn-end\""), "{}", lines[1]);
    // Counted and re-armed for the next window, the blocks pending for it.
    assert_eq!(h.core.session().carried().compactions, 1);
    assert!(h.armed());
    assert!(h.pending().is_some());
    assert!(h.core.session().carried().queued.is_none());
}

#[test]
fn two_turn_end_compactions_and_the_persons_compact_all_compact() {
    // Issue [8] item 3: the queued count was stored only after `$.command.run`
    // resolved, which is after the queued compaction ran; the person's next
    // /compact, and every second turn-end compaction, were then refused.
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.turn();
    h.turn();
    let ran: Vec<Value> = h.fake.calls("queued ran");
    assert_eq!(ran.len(), 2);
    assert!(ran.iter().all(|r| r["done"]["end"] == "passThrough"), "{ran:?}");
    h.fake.clear();
    let out = h.compact(compact_event("manual"));
    assert_ne!(out.end(), "skip", "{out:?}");
    assert_eq!(h.nexts("session.compact").len(), 1);
    assert_eq!(h.core.session().carried().compactions, 3);
}

#[test]
fn below_threshold_rearms_without_compacting() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR - 1);
    h.turn();
    assert_eq!(h.fake.ops("turn-end"), ["usage", "now", "usage"]);
    assert!(h.armed());
    assert!(h.fake.calls("compact").is_empty());

    // No tokens: the threshold is not even asked for (ref:96).
    let mut h = Harness::new();
    h.fake.tokens = json!(0);
    h.turn();
    assert_eq!(h.fake.ops("turn-end"), ["usage"]);
    assert!(h.armed());
}

#[test]
fn a_refused_command_rearms_and_logs_the_error() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    // 'é' is one UTF-16 unit and two UTF-8 bytes: the cut counts units (ref:118).
    let long = "é".repeat(400);
    h.fake.command = Err(long);
    h.turn();
    assert!(h.armed(), "re-armed (ref:117)");
    assert!(h.core.session().carried().queued.is_none());
    let lines = h.fake.log_lines();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[1],
        format!(
            "{{\"at\":\"{}\",\"event\":\"turn-end-compact-failed\",\"error\":\"{}\"}}",
            "2023-11-14T22:13:21.500Z",
            "é".repeat(300)
        )
    );

    // Re-armed: the next answer starts another attempt.
    h.fake.clear();
    h.turn();
    assert_eq!(h.fake.calls("spawn").len(), 1);
    assert_eq!(h.fake.calls("command").len(), 1);
}

#[test]
fn threshold_is_cached_for_ten_minutes() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR - 1);
    let summaries = |h: &Harness| {
        h.fake
            .calls("usage")
            .iter()
            .filter(|c| c.get("breakdown").is_some())
            .count()
    };

    h.turn();
    assert_eq!(summaries(&h), 1);
    h.fake.now = NOW + 599_999.0;
    h.turn();
    assert_eq!(summaries(&h), 1, "cached within ten minutes");
    assert_eq!(
        h.fake.calls("usage").len(),
        3,
        "the plain usage is asked every time"
    );
    h.fake.now = NOW + 600_000.0;
    h.turn();
    assert_eq!(summaries(&h), 2, "asked again after ten minutes");

    // The cached value is what decides: the threshold drops, the cache still says 100,000.
    h.fake.breakdown = json!({"isAutoCompactEnabled": true, "autoCompactThreshold": 1000});
    h.fake.now = NOW + 600_001.0;
    h.turn();
    assert!(h.fake.calls("compact").is_empty());
    assert_eq!(summaries(&h), 2);
}

#[test]
fn a_disabled_or_zero_threshold_is_never_near() {
    for breakdown in [
        json!({"isAutoCompactEnabled": false, "autoCompactThreshold": 100}),
        json!({"isAutoCompactEnabled": true, "autoCompactThreshold": 0}),
        json!({"isAutoCompactEnabled": true}),
        Value::Null,
    ] {
        let mut h = Harness::new();
        h.fake.tokens = json!(1_000_000);
        h.fake.breakdown = breakdown.clone();
        h.turn();
        assert!(h.fake.calls("compact").is_empty(), "{breakdown}");
        assert!(h.armed(), "{breakdown}");
        // The zero is cached too: within ten minutes no breakdown is asked again.
        h.turn();
        assert_eq!(
            h.fake
                .calls("usage")
                .iter()
                .filter(|c| c.get("breakdown").is_some())
                .count(),
            1,
            "{breakdown}"
        );
    }
}

#[test]
fn usage_rejecting_rearms() {
    for key in ["", "summary"] {
        let mut h = Harness::new();
        h.fake.tokens = json!(NEAR);
        h.fake.fail("usage", key, "usage unavailable");
        h.turn();
        assert!(h.armed(), "{key:?}");
        assert!(h.fake.calls("compact").is_empty());
        assert!(h.fake.log_lines().is_empty());
    }
}

#[test]
fn env_rejecting_when_near_stays_disarmed_without_compacting() {
    // historyDir throws after `near`: compactIfNear rejects before the timer (ref:109).
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.fake.fail("env", "HOME", "denied");
    h.turn();
    assert!(h.fake.calls("compact").is_empty());
    assert!(h.fake.calls("after").is_empty());
    assert!(!h.armed());
}

#[test]
fn no_home_when_near_compacts_without_logging() {
    let mut h = Harness::new();
    h.fake.env.clear();
    h.fake.tokens = json!(NEAR);
    h.fake.command = Err("no".into());
    h.turn();
    assert!(h.fake.calls("write").is_empty());
    assert_eq!(h.fake.calls("command").len(), 1);
    assert!(h.armed());
}

#[test]
fn a_precompute_is_no_compaction_and_the_one_that_installs_it_is() {
    // precompute "installs nothing: its result is kept for the next compaction"
    // (claude-code.d.ts, SessionCompactInput): issue [8] item 4.
    let mut h = Harness::new();
    h.core.session().carried_mut().turn_end_armed = false;
    h.compact(compact_event("precompute"));
    // The summarizer gets the handoff ...
    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 1);
    assert!(nexts[0]["instructions"].as_str().unwrap().contains("From the compact-plus mod:"));
    // ... and nothing is written, logged, counted, re-armed or pending.
    assert!(h.fake.calls("write").is_empty());
    assert!(h.fake.log_lines().is_empty());
    assert!(!h.armed());
    assert!(h.pending().is_none());
    assert_eq!(h.core.session().carried().compactions, 0);

    assert!(h.core.session().carried().precomputed);

    // The compaction that installs it gets the full treatment, once, and leaves
    // the instructions as the engine sent them: changed, the engine discards the
    // precomputed summary and asks the summarizer again (measured on 2.1.328:
    // tests/HOST.md, "precompute").
    h.compact(compact_event("auto"));
    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 2);
    assert!(nexts[1].get("instructions").is_none(), "{}", nexts[1]);
    assert!(!h.core.session().carried().precomputed);
    assert!(h.armed());
    assert!(h.pending().is_some());
    assert_eq!(h.fake.log_lines().len(), 1);
    assert!(h.fake.text(&history_file("auto")).is_some());
    assert_eq!(h.core.session().carried().compactions, 1);
}

#[test]
fn after_a_precompute_a_compaction_with_the_persons_instructions_gets_the_handoff() {
    // The engine cannot install the precomputed summary then anyway: the
    // person's instructions make a new one.
    let mut h = Harness::new();
    h.compact(compact_event("precompute"));
    let mut e = compact_event("manual");
    e["instructions"] = json!("keep the parser");
    h.compact(e);
    let down = &h.nexts("session.compact")[1]["instructions"];
    assert!(down.as_str().unwrap().starts_with("keep the parser"), "{down}");
    assert!(down.as_str().unwrap().contains("From the compact-plus mod:"), "{down}");
}

#[test]
fn a_compaction_without_home_still_rearms() {
    let mut h = Harness::new();
    h.fake.env.clear();
    h.core.session().carried_mut().turn_end_armed = false;
    h.compact(compact_event("auto"));
    assert!(h.armed());
}

// ---------------------------------------------------------------- pruning

fn old_log(h: &mut Harness, root: &str, name: &str, age_days: f64) {
    h.fake.add_file(
        &format!("{root}/{name}/log.jsonl"),
        "{}\n",
        NOW - age_days * DAY,
    );
}

fn runs(h: &Harness) -> Vec<Value> {
    h.fake
        .calls("run")
        .iter()
        .map(|c| c["argv"].clone())
        .collect()
}

#[test]
fn prune_removes_only_old_plain_session_folders() {
    let mut h = Harness::new();
    old_log(&mut h, ROOT, SID, 90.0); // ours: never
    old_log(&mut h, ROOT, OLD, 31.0); // goes
    old_log(&mut h, ROOT, "22222222-2222-4222-8222-222222222222", 29.0); // recent
    old_log(&mut h, ROOT, "33333333-3333-4333-8333-333333333333", 30.0); // exactly at the cutoff: kept
    old_log(&mut h, ROOT, "AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA", 90.0); // not lowercase
    old_log(&mut h, ROOT, "0123456789abcdef0123456789abcdef----", 90.0); // hex and dashes, not a UUID
    old_log(&mut h, ROOT, "notes", 90.0);
    h.fake
        .dirs
        .insert(format!("{ROOT}/44444444-4444-4444-8444-444444444444")); // no log
    h.fake.add_file(
        &format!("{ROOT}/55555555-5555-4555-8555-555555555555"),
        "a file",
        0.0,
    );
    old_log(
        &mut h,
        "/elsewhere",
        "66666666-6666-4666-8666-666666666666",
        90.0,
    );
    h.fake.links.insert(
        format!("{ROOT}/66666666-6666-4666-8666-666666666666"),
        "/elsewhere/66666666-6666-4666-8666-666666666666".into(),
    );
    // A log that is a folder is no log.
    h.fake.dirs.insert(format!(
        "{ROOT}/77777777-7777-4777-8777-777777777777/log.jsonl"
    ));

    h.compact(compact_event("manual"));

    assert_eq!(
        h.fake.calls("stat")[0],
        json!({"op": "stat", "path": ROOT, "resolve": true})
    );
    assert_eq!(
        h.fake.calls("list"),
        vec![json!({"op": "list", "path": ROOT})]
    );
    assert_eq!(
        runs(&h),
        vec![json!(["rm", "-rf", "--", format!("{ROOT}/{OLD}")])]
    );
    assert_eq!(h.fake.calls("run")[0]["timeoutMs"], 20_000);
    // No variables: no `env` on the wire at all (the Windows removal's one is an object).
    assert!(h.fake.calls("run")[0].get("env").is_none(), "{}", h.fake.calls("run")[0]);
    // Each candidate: the folder (resolved) and its log (not), asked together.
    let stats = h.fake.calls("stat");
    assert!(
        stats.contains(&json!({"op": "stat", "path": format!("{ROOT}/{OLD}"), "resolve": true}))
    );
    assert!(stats.contains(&json!({"op": "stat", "path": format!("{ROOT}/{OLD}/log.jsonl")})));
    assert!(
        !stats
            .iter()
            .any(|s| s["path"].as_str().unwrap().contains(SID)),
        "our own folder is not even looked at"
    );
    // Pruning comes before the log line (ref:165-166).
    let ops = h.fake.ops("session.compact");
    let run_at = ops.iter().position(|o| o == "run").unwrap();
    assert!(ops[run_at..].contains(&"write".to_owned()));

    // Once per session: the next compaction does not list again.
    h.fake.clear();
    h.compact(compact_event("auto"));
    assert!(
        h.fake.calls("list").is_empty()
            && h.fake.calls("run").is_empty()
            && h.fake.calls("stat").is_empty()
    );
}

#[test]
fn prune_keep_days_option() {
    let mut h = Harness::with(Options::from_json(r#"{"keepDays":7}"#));
    old_log(&mut h, ROOT, OLD, 8.0);
    h.compact(compact_event("manual"));
    assert_eq!(runs(&h).len(), 1);
}

#[test]
fn keep_days_under_one_is_a_day() {
    // 0 would prune every other session's folder, live ones in other terminals too.
    for days in ["0", "-3", "0.2"] {
        let mut h = Harness::with(Options::from_json(&format!(r#"{{"keepDays":{days}}}"#)));
        assert_eq!(h.core.session().options.keep_days, 1.0, "{days}");
        old_log(&mut h, ROOT, OLD, 0.5);
        old_log(&mut h, ROOT, "22222222-2222-4222-8222-222222222222", 1.5);
        h.compact(compact_event("manual"));
        assert_eq!(runs(&h).len(), 1, "{days}: only the folder over a day old");
    }
}

/// Issue [13] item 14: Windows pruning ran `cmd /c rd /s /q <path>`, and `cmd`
/// parses its command line again: a home path with `&` ran what follows as a
/// command, `%NAME%` expanded, `^` vanished. Now no argument carries the path:
/// PowerShell runs a constant text that reads it from the environment.
#[test]
fn prune_on_windows_runs_no_shell_over_the_path() {
    let mut h = Harness::new();
    let home = "C:\\Users\\A&B %USERNAME% ^x";
    h.fake.env.insert("USERPROFILE".into(), home.into());
    h.fake.env.insert("OS".into(), "Windows_NT".into());
    h.fake.windows = true;
    old_log(&mut h, "C:/Users/A&B %USERNAME% ^x/.claude/compact-history", OLD, 40.0);
    h.compact(compact_event("manual"));
    let calls = h.fake.calls("run");
    assert_eq!(calls.len(), 1, "{calls:?}");
    let argv: Vec<&str> = calls[0]["argv"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(argv.first(), Some(&"powershell.exe"), "{argv:?}");
    assert!(argv.iter().all(|a| !a.contains("Users") && !a.contains(OLD)), "the path is in no argument: {argv:?}");
    assert_eq!(
        calls[0]["env"],
        json!({"COMPACT_PLUS_PRUNE_PATH": format!("C:\\Users\\A&B %USERNAME% ^x\\.claude\\compact-history\\{OLD}")})
    );
    assert!(argv.last().unwrap().contains("$env:COMPACT_PLUS_PRUNE_PATH"));
}

#[test]
fn prune_skips_a_linked_root() {
    let mut h = Harness::new();
    h.fake
        .links
        .insert(ROOT.into(), "/mnt/shared/history".into());
    old_log(&mut h, "/mnt/shared/history", OLD, 40.0);
    h.compact(compact_event("manual"));
    assert!(h
        .fake
        .text(&format!("/mnt/shared/history/{SID}/{NOW_STAMP}-manual.md"))
        .is_some());
    assert_eq!(h.fake.calls("stat").len(), 1);
    assert!(h.fake.calls("list").is_empty());
    assert!(runs(&h).is_empty());
    assert!(
        h.fake
            .text(&format!("/mnt/shared/history/{SID}/log.jsonl"))
            .is_some(),
        "still logged"
    );

    // A host whose stat follows the link for the kind but says it is one.
    let mut h = Harness::new();
    h.fake
        .links
        .insert(ROOT.into(), "/mnt/shared/history".into());
    old_log(&mut h, "/mnt/shared/history", OLD, 40.0);
    h.fake.stat_override.insert(
        ROOT.into(),
        json!({"kind": "dir", "size": 0, "mtimeMs": 0, "isLink": true, "realPath": "/mnt/shared/history"}),
    );
    h.compact(compact_event("manual"));
    assert!(h.fake.calls("list").is_empty());
    assert!(runs(&h).is_empty());
}

#[test]
fn prune_works_in_the_resolved_root() {
    let mut h = Harness::new();
    h.fake
        .links
        .insert("/home/ann/.claude".into(), "/data/claude".into());
    old_log(&mut h, "/data/claude/compact-history", OLD, 40.0);
    h.compact(compact_event("manual"));
    assert_eq!(
        h.fake.calls("list"),
        vec![json!({"op": "list", "path": "/data/claude/compact-history"})]
    );
    assert_eq!(
        runs(&h),
        vec![json!([
            "rm",
            "-rf",
            "--",
            format!("/data/claude/compact-history/{OLD}")
        ])]
    );
}

#[test]
fn prune_skips_a_folder_that_resolves_elsewhere() {
    let mut h = Harness::new();
    old_log(&mut h, ROOT, OLD, 40.0);
    let other = "22222222-2222-4222-8222-222222222222";
    old_log(&mut h, ROOT, other, 40.0);
    // Swapped for a link after the listing: its stat no longer matches.
    h.fake.stat_override.insert(
        format!("{ROOT}/{OLD}"),
        json!({"kind": "dir", "size": 0, "mtimeMs": 0, "isLink": false, "realPath": "/tmp/victim"}),
    );
    h.compact(compact_event("manual"));
    assert_eq!(
        runs(&h),
        vec![json!(["rm", "-rf", "--", format!("{ROOT}/{other}")])]
    );
}

#[test]
fn prune_failures_cost_pruning_alone() {
    let mut h = Harness::new();
    old_log(&mut h, ROOT, OLD, 40.0);
    h.fake.fail("list", ROOT, "EACCES");
    h.compact(compact_event("manual"));
    assert!(runs(&h).is_empty());
    assert_eq!(h.fake.log_lines().len(), 1, "still logged");
    assert!(h.pending().is_some());
    // Tried once: no second listing.
    h.fake.clear();
    h.compact(compact_event("manual"));
    assert!(h.fake.calls("list").is_empty());
}

// ---------------------------------------------------------------- the protocol

#[test]
fn next_rejected_ends_the_hook_and_a_later_hook_works() {
    let mut h = Harness::with(Options { rescue: false, ..Options::default() });
    h.fake
        .next
        .insert("session.compact".into(), Err("summarizer failed".into()));
    let out = h.compact(compact_event("manual"));
    assert_eq!(out, Ended::passed(Err("summarizer failed".into())));
    // The hook ended (the core numbers hooks from 1): resuming it answers
    // that no such hook is in flight, nothing more is asked.
    let id = 1;
    assert_eq!(
        h.core.resume(id, r#"[{"ok":{"messages":[]}}]"#),
        r#"{"lost":"no hook of this id in flight"}"#
    );
    assert!(h.pending().is_none());
    assert_eq!(h.fake.log_lines().len(), 0, "no compact log");

    // A turn's next rejecting starts no job either.
    h.fake
        .next
        .insert("turn.complete".into(), Err("aborted".into()));
    h.fake.tokens = json!(NEAR);
    assert_eq!(h.turn(), Ended::passed(Err("aborted".into())));
    assert!(h.fake.calls("spawn").is_empty());

    h.fake.next.insert(
        "session.compact".into(),
        Fake::new().next["session.compact"].clone(),
    );
    h.fake.clear();
    h.compact(compact_event("manual"));
    assert!(h.pending().is_some());
    assert_eq!(h.nexts("session.compact").len(), 1);
}

/// At most 64 hooks in flight: a 65th lets go of the one with the lowest id (the oldest,
/// one its shim abandoned), and only that one.
#[test]
fn a_65th_hook_in_flight_lets_go_of_the_oldest() {
    let mut h = Harness::new();
    let lost = r#"{"lost":"no hook of this id in flight"}"#;
    for id in 1..=65u32 {
        let out: Value = serde_json::from_str(&h.core.start("session.compact", &compact_event("manual").to_string())).unwrap();
        assert_eq!(out["id"], json!(id), "{out}");
        assert!(out["calls"].is_array(), "hook {id} waits on its calls: {out}");
    }
    assert_eq!(h.core.resume(1, "[]"), lost);
    for id in [2, 40, 65] {
        assert_ne!(h.core.resume(id, "[]"), lost, "hook {id} is still in flight");
    }
}

#[test]
fn unknown_hooks_and_ids_are_lost() {
    let mut h = Harness::new();
    assert_eq!(h.core.start("session.unknown", "{}"), r#"{"lost":"no such hook"}"#);
    assert_eq!(h.core.resume(999, "[]"), r#"{"lost":"no hook of this id in flight"}"#);
    // The shim then passes the event through, and says so in the debug log.
    let out = h.fire("session.unknown", json!({"x": 1}));
    assert_eq!(out, Ended { done: json!({"lost": "no such hook"}), next: None });
    assert_eq!(h.fake.ops("session.unknown"), ["lost"]);
}

/// Issue [8], "Memory handed back": wasm memory only grows, so once a large
/// compaction is over the core tells the shim to rebuild the instance (its
/// state carried), and only when no hook is in flight: a rebuild loses the
/// machines of the old instance. (tests/shim/hand-back.test.mjs: the rebuild.)
#[test]
fn the_core_hands_its_memory_back_once_no_hook_is_in_flight() {
    const BIG: f64 = 40.0 * 1024.0 * 1024.0;
    let step = |out: String| -> Value { serde_json::from_str(&out).unwrap() };
    let mut core = Core::new(Options::default()).measuring(|| BIG);
    // A turn.complete waits for its `next`: in flight.
    let turn = step(core.start("turn.complete", r#"{"reason":"tool_use"}"#));
    assert_eq!(turn["calls"][0]["op"], "nextResult");
    // A session.end ends meanwhile: no hand-back, the turn would be lost.
    let end = step(core.start("session.end", "{}"));
    assert_eq!((end["done"]["end"].as_str(), end.get("handBack")), (Some("passThrough"), None));
    // The turn ends: nothing in flight, the memory goes back.
    let id = turn["id"].as_u64().unwrap() as u32;
    let done = step(core.resume(id, r#"[{"ok":{}}]"#));
    assert_eq!(done["handBack"], json!(BIG), "{done}");
    // Under the bound, never.
    let mut small = Core::new(Options::default()).measuring(|| 1e6);
    assert!(step(small.start("session.end", "{}")).get("handBack").is_none());
}

#[test]
fn garbled_answers_do_not_hang_or_panic() {
    let mut h = Harness::new();
    let first: Value = serde_json::from_str(
        &h.core
            .start("session.compact", &compact_event("manual").to_string()),
    )
    .unwrap();
    let id = first["id"].as_u64().unwrap() as u32;
    assert_eq!(
        first["calls"],
        json!([{"op": "env", "name": "OS", "waitMs": 30000}, {"op": "env", "name": "HOME", "waitMs": 30000}, {"op": "env", "name": "USERPROFILE", "waitMs": 30000}, {"op": "sessionId", "waitMs": 30000}])
    );
    // An unreadable answer is an error: no history folder (said in the debug
    // log), the handoff still goes down, and an unreadable result ends the hook.
    let step: Value = serde_json::from_str(&h.core.resume(id, "not json")).unwrap();
    assert_eq!(step["calls"][0]["op"], json!("debug"));
    let step: Value = serde_json::from_str(&h.core.resume(id, "garbage")).unwrap();
    assert_eq!(step["calls"][0]["op"], json!("startNext"));
    assert!(step["calls"][0]["instructions"]
        .as_str()
        .unwrap()
        .starts_with("From the compact-plus mod:"));
    let step: Value = serde_json::from_str(&h.core.resume(id, "[{\"ok\":")).unwrap();
    assert_eq!(step, json!({"done": {"end": "passThrough"}}));
    assert!(h.pending().is_none());
}

#[test]
fn a_module_reload_starts_over() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR - 1);
    h.turn(); // caches the threshold
    h.compact(compact_event("manual")); // pending, pruned
    h.fake.tokens = json!(NEAR);
    h.fake.command = Err("not now".into());
    h.turn(); // queued and refused: armed again; the threshold cached
    h.core.session().carried_mut().turn_end_armed = false;
    h.fake.command = Ok(());
    assert!(!h.armed() && h.pending().is_some());

    h.core = Core::new(Options::default());
    assert!(h.armed());
    assert!(h.pending().is_none());
    h.fake.clear();
    assert_eq!(h.append(summary_row()), Ended::untouched()); // nothing pending after a reload
    h.turn();
    assert_eq!(h.fake.calls("spawn").len(), 1, "armed again");
    assert_eq!(
        h.fake
            .calls("usage")
            .iter()
            .filter(|c| c.get("breakdown").is_some())
            .count(),
        1,
        "threshold asked again"
    );
    h.compact(compact_event("manual"));
    assert_eq!(h.fake.calls("list").len(), 1, "pruning once more");
}

// ---------------------------------------------------------------- a turn-end compaction gone stale
// Not in the reference: compact-plus's own rule that a turn-end compaction the
// engine already overtook does not compact the fresh context again.

#[test]
fn a_compaction_before_the_wait_makes_the_turn_end_moot_too() {
    // The next prompt went out while the job was still asking for the usage or
    // writing its log line, and crossed the engine's threshold (seen on the real
    // CLI headless: the job then queued a /compact of the fresh context).
    for op in ["usage", "write"] {
        let mut h = Harness::new();
        h.fake.tokens = json!(NEAR);
        h.at_turn_end_op = Some((op, compact_event("auto")));
        h.turn();
        assert!(h.fake.calls("command").is_empty(), "{op}: queued a compaction of the fresh context");
        let lines = h.fake.log_lines();
        assert!(lines.last().unwrap().contains("turn-end-compact-skipped"), "{op}: {lines:?}");
    }
}

#[test]
fn two_hooks_logging_at_once_lose_no_line() {
    // A turn-end job writes its line while a compaction logs its own (seen on the
    // real CLI: a rescue's line overwritten by the job's read-modify-write). Here
    // the compaction runs inside the job's write, and that write lands last.
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.at_turn_end_op = Some(("write", compact_event("auto")));
    h.turn();
    let events: Vec<String> = h
        .fake
        .log_lines()
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(events, ["turn-end-compact", "compact", "turn-end-compact-skipped"], "{:?}", h.fake.log_lines());
}

#[test]
fn a_compaction_during_the_wait_makes_the_turn_end_moot() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.during_after = Some(compact_event("auto"));
    h.turn();
    assert!(h.fake.calls("compact").is_empty() && h.fake.calls("command").is_empty());
    let lines = h.fake.log_lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("\"event\":\"turn-end-compact\""));
    assert!(lines[1].contains("\"event\":\"compact\",\"trigger\":\"auto\""));
    assert_eq!(
        lines[2],
        "{\"at\":\"2023-11-14T22:13:21.500Z\",\"event\":\"turn-end-compact-skipped\",\"reason\":\"compacted meanwhile\"}"
    );
    assert!(h.armed(), "the engine's compaction re-armed");
}

#[test]
fn a_compaction_under_way_when_the_wait_ends_makes_the_turn_end_moot() {
    // The next prompt crossed the threshold and the engine is compacting (its
    // summary not back yet) when the turn-end job wakes: it must not ask for
    // another (found on a loaded machine: a stale second compaction).
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.under_way_after = Some(compact_event("auto"));
    h.turn();
    assert!(h.fake.calls("compact").is_empty() && h.fake.calls("command").is_empty());
    let lines = h.fake.log_lines();
    assert!(lines.last().unwrap().contains("\"event\":\"turn-end-compact-skipped\""), "{lines:?}");
    // Once it ends (here: let go of), none is under way and the next turn-end may compact.
    assert_eq!(h.core.session().state.borrow().compacting, 1);
    h.core.cancel(h.under_way.unwrap());
    assert_eq!(h.core.session().state.borrow().compacting, 0);
}

#[test]
fn a_precompute_during_the_wait_is_no_compaction() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.during_after = Some(compact_event("precompute"));
    h.turn();
    assert_eq!(h.fake.calls("command").len(), 1);
}

#[test]
fn a_queued_compact_overtaken_by_another_is_skipped() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    // The engine compacts on its own before our queued /compact comes to the front ...
    h.before_queued = Some(compact_event("auto"));
    h.turn();
    assert_eq!(h.fake.calls("command").len(), 1, "queued as /compact");
    // ... so ours, when it runs, is skipped without next, and writes nothing.
    let ran = h.fake.calls("queued ran");
    assert!(ran[0]["done"]["end"] == "skip" && ran[0]["done"]["reason"].as_str().unwrap().starts_with("compact-plus:"), "{ran:?}");
    assert_eq!(h.nexts("session.compact").len(), 1, "the engine's own only");
    assert!(h.fake.text(&history_file("turn-end")).is_none());
    assert!(h.armed(), "the engine's compaction re-armed");

    // The person's own /compact after it runs, and so does every later one.
    for _ in 0..2 {
        h.fake.clear();
        let out = h.compact(compact_event("manual"));
        assert_ne!(out.end(), "skip");
        assert_eq!(h.nexts("session.compact").len(), 1);
    }
}

#[test]
fn a_persons_compact_is_never_taken_for_ours() {
    // A /compact that is not our marker, while ours is queued (the person typed
    // /compact meanwhile, after another compaction): it runs.
    let mut h = Harness::new();
    h.core.session().carried_mut().queued = Some(compact_plus::hooks::Queued { token: "05:00:00".into(), seen: 0 });
    h.compact(compact_event("auto"));
    h.fake.clear();
    let out = h.compact(compact_event("manual"));
    assert_ne!(out.end(), "skip");
    assert_eq!(h.nexts("session.compact").len(), 1);
    // A marker whose token is not the one queued (a module reload lost it): ours,
    // treated as a turn-end compaction, never skipped.
    h.fake.clear();
    let mut e = compact_event("manual");
    e["instructions"] = json!(format!("{MARKER_HEAD}07:07:07 UTC)"));
    let out = h.compact(e);
    assert_ne!(out.end(), "skip");
    assert_eq!(h.nexts("session.compact")[0]["instructions"], json!(ours(None, Some(FIRST), true)));
    assert!(h.fake.text(&history_file("turn-end")).is_some());
}

#[test]
fn a_failed_queue_marks_nothing() {
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.fake.command = Err("refused".into());
    h.turn();
    assert!(h.core.session().carried().queued.is_none());
    h.compact(compact_event("auto"));
    h.fake.clear();
    let out = h.compact(compact_event("manual"));
    assert_ne!(out.end(), "skip");
    assert_eq!(h.nexts("session.compact").len(), 1);
}

// ---------------------------------------------------------------- the channel the blocks leave by

/// The `compact-plus` block a prompt.context answer carries, if any.
/// The block a prompt.context's end adds to the engine's `blocks`, if any.
fn context_block(out: &Value) -> Option<String> {
    let block = out.get("contextBlock")?;
    assert_eq!(block["name"], "compact-plus", "{out}");
    Some(block["text"].as_str().unwrap_or("").to_owned())
}

#[test]
fn after_a_terminal_compact_the_blocks_leave_through_prompt_context_once() {
    // In the terminal a person's /compact appends no summary row through door
    // `compaction` (e2e-kit/tui README item 1, measured on 2.1.328); the engine
    // computes the context blocks again before the next request, and sends a
    // block of ours in one copy (measured in this project's TUI probe).
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    let engine = json!({"blocks": [{"name": "claudeMd", "text": "x"}, {"name": "currentDate", "text": "y"}]});
    let out = context(&mut h, json!({"blocks": []}), engine.clone());
    let text = context_block(&out).expect("the blocks, as a context block");
    assert_eq!(out["end"], "amended", "the block added to the engine's, which stand unchanged");
    let close = "</user-messages-verbatim>";
    let (verbatim, pointer) = text.split_at(text.find(close).expect("a verbatim block") + close.len());
    verbatim_block(verbatim, &[FIRST], &[]);
    assert_eq!(pointer, format!("\n\n{}", pointer_block(&history_file("manual"), &dir())));
    assert!(h.pending().is_none());
    // Once: the next context computation, and a late summary row, carry nothing.
    let again = context(&mut h, json!({"blocks": []}), engine);
    assert_eq!(context_block(&again), None);
    assert_eq!(h.append(summary_row()), Ended::untouched());
}

#[test]
fn where_the_summary_row_comes_first_it_carries_the_blocks_and_the_context_none() {
    // Headless, and the terminal's own threshold compaction: door `compaction`
    // fires for the summary row before the next request is built.
    let mut h = Harness::new();
    h.compact(compact_event("auto"));
    h.append(summary_row());
    let blocks = appended(&h);
    assert_eq!(blocks.len(), 2);
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": [{"name": "claudeMd", "text": "x"}]}));
    assert_eq!(out, pass_through());
}

#[test]
fn blocks_a_process_did_not_deliver_reach_the_resumed_session() {
    // A terminal /compact, then /exit: nothing carried the blocks yet. The
    // resumed session (a new process, the same session id) sends them at its
    // first prompt, once.
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    let kept = format!("{}/pending-blocks.json", dir());
    let pending = h.pending_state().unwrap();
    assert_eq!(h.fake.text(&kept), Some(serde_json::to_string(&pending).unwrap().as_str()));

    h.core = Core::new(Options::default()); // the resumed process
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(context_block(&out), Some(pending.render(Channel::Prompt).join("\n\n")));
    assert_eq!(h.fake.text(&kept), Some(""), "delivered: nothing waits");
    h.core = Core::new(Options::default());
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(context_block(&out), None);

    // Delivered by the summary row in the first process: nothing waits either.
    let mut h = Harness::new();
    h.compact(compact_event("auto"));
    h.append(summary_row());
    assert_eq!(h.fake.text(&kept), Some(""));
}

#[test]
fn after_an_automatic_compaction_the_blocks_wait_for_the_summary_row() {
    // Inside a turn the engine computes the context again before it appends the
    // summary row, and sends no block of ours from that (measured headless on
    // 2.1.328: the request after held neither); the row's door fires after it.
    let mut h = Harness::new();
    h.compact(compact_event("auto"));
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": [{"name": "claudeMd", "text": "x"}]}));
    assert_eq!(context_block(&out), None);
    assert!(h.pending().is_some());
    h.append(summary_row());
    assert_eq!(appended(&h).len(), 2, "the row carries them");
    assert!(h.pending().is_none());
}

#[test]
fn after_a_clear_the_old_conversations_blocks_stay_out_of_the_new_one() {
    // `/clear` ends the conversation and goes on under a new session id with no
    // session.start (claude-code.d.ts, SessionEndInput): session.end is how a hook sees it.
    let mut h = Harness::new();
    h.fake.next.insert("session.end".into(), Ok(json!({})));
    h.compact(compact_event("manual"));
    let kept = format!("{}/pending-blocks.json", dir());
    let on_disk = h.fake.text(&kept).map(str::to_owned);
    assert!(h.pending().is_some());
    h.fire("session.end", json!({"reason": "clear", "sessionId": SID}));
    assert!(h.pending().is_none());
    h.fake.session_id = "99999999-9999-4999-8999-999999999999".into();
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(context_block(&out), None, "the old conversation's blocks reached the new one");
    // They wait on disk for a resume of the old session.
    assert_eq!(h.fake.text(&kept).map(str::to_owned), on_disk);
}

#[test]
fn a_rejected_context_next_leaves_the_blocks_pending() {
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    h.fake.next.insert("prompt.context".into(), Err("engine says no".into()));
    assert_eq!(h.fire("prompt.context", json!({"blocks": []})), Ended::passed(Err("engine says no".into())));
    assert!(h.pending().is_some());
}

// ---------------------------------------------------------------- the person's words across compactions

const SUMMARY_TEXT: &str = "This session is being continued from a previous conversation. Summary.";
const PLAN: &str = "The migration plan: users first, then orders, never drop a column before its backfill. PLAN-1";

/// What the engine's summarizer answers: its summary row alone (a `/compact` keeps nothing after it).
fn summary_only(handle: &str) -> Value {
    json!({"messages": [{"role": "user", "text": SUMMARY_TEXT, "toolUses": [], "handle": handle}], "tokensBefore": 5000, "tokensAfter": 800})
}

/// A conversation after compaction number `n`: the engine's summary row first, as the terminal
/// hands it to the next compaction (its blocks were a `context_sections` attachment, not a
/// message: tests/HOST.md), the `/compact` command's rows, then a turn per prompt.
fn after_compaction(n: usize, row: &str, prompts: &[&str]) -> Value {
    let mut rows = vec![
        json!({"role": "user", "text": row, "toolUses": [], "handle": format!("sum-{n}")}),
        json!({"role": "user", "text": "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>keep the migration plan</command-args>", "toolUses": [], "handle": format!("cmd-{n}")}),
        json!({"role": "user", "text": "<local-command-stdout>\u{1b}[2mCompacted (ctrl+o to see full summary)\u{1b}[22m</local-command-stdout>", "toolUses": [], "handle": format!("out-{n}")}),
    ];
    for (k, p) in prompts.iter().enumerate() {
        rows.push(json!({"role": "user", "text": p, "toolUses": [], "handle": format!("p-{n}-{k}")}));
        rows.push(json!({"role": "assistant", "text": "Done.", "toolUses": [], "handle": format!("a-{n}-{k}")}));
    }
    Value::Array(rows)
}

/// The words of the verbatim block in `text`, oldest first, and how many are marked current.
fn block_words(text: &str) -> (Vec<String>, usize) {
    let start = text.find("<user-messages-verbatim>").expect("a verbatim block");
    let end = text[start..].find("</user-messages-verbatim>").expect("closed") + start;
    assert_eq!(text.matches("<user-messages-verbatim>").count(), 1, "one block: {text}");
    let body = &text[start..end];
    let mut words = Vec::new();
    let mut current = 0;
    for piece in body.split("\n--- user message ").skip(1) {
        let (mark, rest) = piece.split_once(" ---\n").expect("a separator");
        current += usize::from(mark == "(current request when compacted)");
        words.push(rest.trim().to_owned());
    }
    (words, current)
}

/// A terminal `/compact` over `messages`, then the next prompt's context: the block it carries.
fn terminal_compact(h: &mut Harness, instructions: Option<&str>, messages: Value, summary: &str) -> String {
    h.fake.next.insert("session.compact".into(), Ok(summary_only(summary)));
    let mut e = json!({"trigger": "manual", "messages": messages});
    if let Some(i) = instructions {
        e["instructions"] = json!(i);
    }
    h.compact(e);
    let out = context(h, json!({"blocks": []}), json!({"blocks": []}));
    context_block(&out).expect("the blocks, with the next prompt")
}

#[test]
fn three_terminal_compacts_carry_the_first_request_to_the_third() {
    // Issue [13] item 1, as seen on the real CLI: the terminal's blocks are a context attachment,
    // not among the next compaction's messages; the second /compact lost the first message.
    let mut h = Harness::new();
    let first = json!([{"role": "user", "text": PLAN, "toolUses": [], "handle": "p1"}, {"role": "assistant", "text": "Noted.", "toolUses": [], "handle": "a1"}]);
    let b1 = terminal_compact(&mut h, None, first, "sum-1");
    assert_eq!(block_words(&b1), (vec![PLAN.to_owned()], 0));
    let b2 = terminal_compact(&mut h, Some("keep the migration plan"), after_compaction(1, SUMMARY_TEXT, &["Start with users. P2"]), "sum-2");
    assert_eq!(block_words(&b2), (vec![PLAN.to_owned(), "Start with users. P2".to_owned()], 0));
    let b3 = terminal_compact(&mut h, None, after_compaction(2, SUMMARY_TEXT, &["Now orders. P3", "And the report. P4"]), "sum-3");
    let want: Vec<String> = [PLAN, "Start with users. P2", "Now orders. P3", "And the report. P4"].map(str::to_owned).to_vec();
    assert_eq!(block_words(&b3), (want.clone(), 0), "{b3}");
    // What the next process would carry on: the same words, on disk.
    let on_disk: Vec<String> = serde_json::from_str(h.fake.text(&format!("{}/.verbatim.json", dir())).unwrap()).unwrap();
    assert_eq!(on_disk, want);
}

#[test]
fn the_oldest_words_go_first_when_the_budget_is_short() {
    // 150 tokens = 600 characters: three messages of 150 and their separators.
    let mut h = Harness::with(Options { verbatim_tokens: 150.0, ..Options::default() });
    let m = |c: char| c.to_string().repeat(150);
    let first = json!([{"role": "user", "text": m('a'), "toolUses": [], "handle": "p1"}]);
    terminal_compact(&mut h, None, first, "sum-1");
    terminal_compact(&mut h, None, after_compaction(1, SUMMARY_TEXT, &[&m('b')]), "sum-2");
    let b3 = terminal_compact(&mut h, None, after_compaction(2, SUMMARY_TEXT, &[&m('c'), &m('d')]), "sum-3");
    assert_eq!(block_words(&b3).0, vec![m('b'), m('c'), m('d')], "{b3}");
}

#[test]
fn a_resumed_process_and_a_rebuilt_instance_carry_the_words_on() {
    // `--resume` in a new process: the words come from the session's folder.
    let mut h = Harness::new();
    let first = json!([{"role": "user", "text": PLAN, "toolUses": [], "handle": "p1"}]);
    terminal_compact(&mut h, None, first.clone(), "sum-1");
    h.core = Core::new(Options::default());
    let b2 = terminal_compact(&mut h, None, after_compaction(1, SUMMARY_TEXT, &["P2 after the resume"]), "sum-2");
    assert_eq!(block_words(&b2).0, vec![PLAN.to_owned(), "P2 after the resume".to_owned()]);

    // A rebuilt instance (a trap, the memory handed back): from the state the shim kept, even with
    // the file gone.
    let mut h = Harness::new();
    terminal_compact(&mut h, None, first, "sum-1");
    h.fake.files.remove(&format!("{}/.verbatim.json", dir()));
    h.core = Core::rebuilt(Options::default(), &h.carried, 100);
    let b2 = terminal_compact(&mut h, None, after_compaction(1, SUMMARY_TEXT, &["P2 after the rebuild"]), "sum-2");
    assert_eq!(block_words(&b2).0, vec![PLAN.to_owned(), "P2 after the rebuild".to_owned()]);
}

#[test]
fn headless_rows_carry_every_word_once_and_mark_nothing_answered_current() {
    // Headless: the block is in the summary row, which is the next compaction's first message,
    // and in the session state: carried once. The engine keeps the prompt that triggered an
    // automatic compaction after the summary (e2e-kit notes/host-probe.md section 5): not in the
    // block then, and carried once later.
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Ok(summary_only("sum-1")));
    h.compact(json!({"trigger": "manual", "messages": [{"role": "user", "text": PLAN, "toolUses": [], "handle": "p1"}]}));
    h.append(summary_row());
    let row1 = format!("{SUMMARY_TEXT}\n\n{}", appended(&h).join("\n\n"));
    // A `/compact` between turns: the next prompt follows the row; nothing in it is current.
    assert_eq!(block_words(&row1), (vec![PLAN.to_owned()], 0), "{row1}");

    let kept = json!({"role": "user", "text": "P3 sent as the threshold was crossed", "toolUses": [], "handle": "p3"});
    h.fake.next.insert("session.compact".into(), Ok(json!({"messages": [{"role": "user", "text": SUMMARY_TEXT, "toolUses": [], "handle": "sum-2"}, kept], "tokensBefore": 9, "tokensAfter": 1})));
    let mut messages = after_compaction(1, &row1, &["P2"]);
    messages.as_array_mut().unwrap().push(kept.clone());
    h.compact(json!({"trigger": "auto", "messages": messages}));
    h.append(summary_row());
    let row2 = format!("{SUMMARY_TEXT}\n\n{}", appended(&h).join("\n\n"));
    assert_eq!(block_words(&row2), (vec![PLAN.to_owned(), "P2".to_owned()], 0), "the kept prompt is after the row: {row2}");

    h.fake.next.insert("session.compact".into(), Ok(summary_only("sum-3")));
    let messages = json!([{"role": "user", "text": row2, "toolUses": [], "handle": "sum-2"}, kept, {"role": "assistant", "text": "ok", "toolUses": [], "handle": "a3"}, {"role": "user", "text": "P4", "toolUses": [], "handle": "p4"}]);
    h.compact(json!({"trigger": "manual", "messages": messages}));
    h.append(summary_row());
    let row3 = format!("{SUMMARY_TEXT}\n\n{}", appended(&h).join("\n\n"));
    let want: Vec<String> = [PLAN, "P2", "P3 sent as the threshold was crossed", "P4"].map(str::to_owned).to_vec();
    assert_eq!(block_words(&row3), (want, 0), "{row3}");
}

#[test]
fn the_current_request_mark_by_path() {
    // Only the person's newest request that no later message of theirs follows, in the request the
    // model gets (tests/HOST.md, "Which request is current").
    let marks = |h: &Harness| block_words(&h.pending().unwrap()[0]).1;

    // An automatic compaction inside a turn, its row delivered in that turn: the newest is current.
    let mut h = Harness::new();
    h.compact(compact_event("auto"));
    assert_eq!(marks(&h), 1);
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(context_block(&out), None, "an auto compaction's blocks wait for the row");
    h.append(summary_row());
    let row = appended(&h).join("\n\n");
    assert_eq!(block_words(&row), (vec![FIRST.to_owned(), "Also keep the old API".to_owned()], 1));
    assert!(row.contains("(current request when compacted) ---\nAlso keep the old API\n"), "{row}");

    // The same compaction with the prompt kept after the summary by the engine: nothing current.
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Ok(json!({"messages": [{"role": "user", "text": SUMMARY_TEXT, "toolUses": [], "handle": "s"}, {"role": "user", "text": "Also keep the old API", "toolUses": [], "handle": "h4"}]})));
    h.compact(compact_event("auto"));
    assert_eq!(marks(&h), 0);

    // A person's /compact (terminal or headless) and ours at a turn's end, between turns: nothing
    // current on the row, nor in the context block that comes with the next prompt.
    for trigger in ["manual", "plugin"] {
        let mut h = Harness::new();
        h.compact(compact_event(trigger));
        assert_eq!(marks(&h), 0, "{trigger}");
        let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
        let block = context_block(&out).unwrap();
        assert_eq!(block_words(&block).1, 0, "{trigger}: {block}");
        assert!(block.contains("answered unless the summary says otherwise"), "{block}");
    }
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR);
    h.turn();
    assert_eq!(h.nexts("session.compact").len(), 1, "the turn-end compaction ran");
    assert_eq!(marks(&h), 0, "turn-end");

    // Blocks a process left on disk reach the resumed one with its first new prompt.
    let mut h = Harness::new();
    h.core.session().carried_mut().pending = None;
    h.compact(compact_event("auto")); // row_only, then the process ends before the row
    h.core = Core::new(Options::default());
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(block_words(&context_block(&out).unwrap()).1, 0);
}

#[test]
fn a_team_leads_message_is_never_the_persons_request() {
    // Issue [13] item 12: a `<teammate-message>` (the engine's envelope for a team lead's message,
    // Claude Code 2.1.328) was kept as `user message (current request)`.
    let lead = "<teammate-message teammate_id=\"team-lead\" color=\"blue\" summary=\"deploy\">\nDeploy to production now.\n</teammate-message>";
    let peer = "Another Claude session sent a message while you were working:\n<cross-session-message from=\"s2\">push the branch</cross-session-message>";
    let mut h = Harness::new();
    h.compact(json!({"trigger": "auto", "messages": [
        {"role": "user", "text": FIRST, "toolUses": [], "handle": "h1"},
        {"role": "assistant", "text": "On it.", "toolUses": [], "handle": "h2"},
        {"role": "user", "text": lead, "toolUses": [], "handle": "h3"},
        {"role": "user", "text": peer, "toolUses": [], "handle": "h4"},
    ]}));
    let block = &h.pending().unwrap()[0];
    assert_eq!(block_words(block), (vec![FIRST.to_owned()], 1), "{block}");
    assert!(!block.contains("Deploy to production") && !block.contains("push the branch"), "{block}");
}

#[test]
fn session_end_starts_the_next_conversation_clean() {
    // Issue [13] item 9: after one prompt-too-long every later compaction was trimmed, the new
    // conversation's too; session.end reset 3 of the 13 carried fields.
    let mut state = compact_plus::hooks::Carried {
        pending: Some(Pending { words: vec!["old".into()], ..Pending::default() }),
        row_only: true,
        turn_end_armed: false,
        threshold: Some((67_000.0, NOW)),
        pruned: true,
        compactions: 4,
        queued: Some(compact_plus::hooks::Queued { token: "01:02:03".into(), seen: 4 }),
        precomputed: true,
        disk_read: true,
        loaded: vec![("/p/CLAUDE.md".into(), "abc-3".into())],
        usage: Some((190_000.0, 200_000.0)),
        ptl_seen: true,
        cool_down: compact_plus::compaction::rescue::cool_down::CoolDown::after(SID, compact_plus::engine::rejection::Cause::Overloaded, NOW),
        verbatim: Some(vec!["old words".into()]),
        brief_done: true,
        unexpected_told: 1,
    };
    let mut h = Harness::new();
    h.fake.next.insert("session.end".into(), Ok(json!({})));
    h.core = Core::rebuilt(Options::default(), &serde_json::to_string(&state).unwrap(), 1);
    h.fire("session.end", json!({"reason": "clear", "sessionId": SID}));
    // The conversation's go; the process's stay; the clear counts as a compaction, so a turn-end
    // /compact queued for the old context is moot when it comes.
    state.pending = None;
    state.row_only = false;
    state.turn_end_armed = true;
    state.precomputed = false;
    state.disk_read = false;
    state.usage = None;
    state.ptl_seen = false;
    state.cool_down = None;
    state.verbatim = None;
    state.compactions = 5;
    assert_eq!(*h.core.session().carried(), state);
    let marker = format!("{MARKER_HEAD}01:02:03 UTC)");
    let out = h.compact(json!({"trigger": "manual", "instructions": marker, "messages": messages()}));
    assert_eq!(out.end(), "skip", "{out:?}");
}

#[test]
fn after_a_clear_nothing_of_the_old_conversation_is_carried_or_trimmed() {
    let big: &'static str = Box::leak("1\n".repeat(100_000).into_boxed_str());
    let newest: &'static str = Box::leak("f\n".repeat(5_000).into_boxed_str());
    let mut h = Harness::new();
    h.fake.next.insert("session.end".into(), Ok(json!({})));
    // The old conversation: its words carried, a prompt-too-long seen, its figures near the window.
    terminal_compact(&mut h, None, json!([{"role": "user", "text": PLAN, "toolUses": [], "handle": "p1"}]), "sum-1");
    {
        let mut c = h.core.session().carried_mut();
        c.ptl_seen = true;
        c.usage = Some((195_000.0, 200_000.0));
    }
    h.fire("session.end", json!({"reason": "clear", "sessionId": SID}));
    h.fake.session_id = "99999999-9999-4999-8999-999999999999".into();
    // The new conversation's first compaction: its own words alone, its request the engine's own.
    h.fake.next.insert("session.compact".into(), Ok(summary_only("new-1")));
    h.deferred = Some(tool_loop_event(big, newest));
    h.compact(json!({}));
    let nexts = h.nexts("session.compact");
    assert!(nexts.last().unwrap().get("cut").is_none(), "trimmed after the clear: {}", nexts.last().unwrap());
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    let block = context_block(&out).unwrap();
    assert_eq!(block_words(&block).0, vec!["find the bug".to_owned()], "{block}");
}

#[test]
fn a_rebuilt_core_goes_on_with_the_state_carried_and_new_ids() {
    // The shim rebuilds the instance after a trap, or to hand a large
    // compaction's memory back; what the session needs must outlive it.
    let mut h = Harness::new();
    h.fake.tokens = json!(NEAR - 1);
    h.turn(); // the threshold, cached
    h.compact(compact_event("manual")); // pending blocks, pruned, counted
    let before = h.core.session().carried().clone();
    assert!(before.pending.is_some() && before.pruned && before.compactions == 1 && before.threshold.is_some());
    let carried: compact_plus::hooks::Carried = serde_json::from_str(&h.carried).expect("the last carry is the state");
    assert_eq!(carried, before);

    h.core = Core::rebuilt(Options::default(), &h.carried, 500);
    assert_eq!(*h.core.session().carried(), before);
    assert_eq!(h.core.session().state.borrow().compacting, 0);
    let first: Value = serde_json::from_str(&h.core.start("turn.complete", "{}")).unwrap();
    assert!(first["id"].as_u64().unwrap() >= 500, "{first}");
    // A turn-end job lost with the old instance (disarmed, nothing queued) leaves
    // turn-end armed again; one whose /compact is queued stays disarmed until it comes.
    let mut lost = before.clone();
    lost.turn_end_armed = false;
    let json = serde_json::to_string(&lost).unwrap();
    assert!(Core::rebuilt(Options::default(), &json, 1).session().carried().turn_end_armed);
    lost.queued = Some(compact_plus::hooks::Queued { token: "a-1".into(), seen: 1 });
    let json = serde_json::to_string(&lost).unwrap();
    assert!(!Core::rebuilt(Options::default(), &json, 1).session().carried().turn_end_armed);
    // Unreadable carried state starts over, rather than failing.
    let fresh = Core::rebuilt(Options::default(), "{not json", 0);
    assert!(fresh.session().carried().pending.is_none() && fresh.session().carried().turn_end_armed);
}

#[test]
fn a_step_carries_the_state_only_when_it_changed() {
    let mut h = Harness::new();
    h.fake.tokens = json!(0); // no threshold asked
    h.turn();
    // Disarmed while it looked, armed again after: the shim holds the state as it ended.
    let after_turn: compact_plus::hooks::Carried = serde_json::from_str(&h.carried).unwrap_or_default();
    assert_eq!(after_turn, compact_plus::hooks::Carried::default());
    h.compact(compact_event("manual"));
    let carried: compact_plus::hooks::Carried = serde_json::from_str(&h.carried).unwrap();
    assert_eq!(carried.compactions, 1);
    // A step that changes nothing carries nothing.
    let mut core = Core::rebuilt(Options::default(), &h.carried, 9);
    let first: Value = serde_json::from_str(&core.start("turn.complete", "{}")).unwrap();
    assert!(first.get("carry").is_none(), "{first}");
    let id = first["id"].as_u64().unwrap() as u32;
    let done: Value = serde_json::from_str(&core.resume(id, r#"[{"ok":{}}]"#)).unwrap();
    assert!(done.get("carry").is_none(), "unchanged: {done}");
}

// ---------------------------------------------------------------- history over the write limit

#[test]
fn a_long_history_is_written_in_parts() {
    let mut h = Harness::new();
    let big = "word ".repeat(1_000_000); // 5 MB in one message: more than one write holds
    let mut e = compact_event("auto");
    e["messages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"role": "assistant", "text": big, "handle": "h5"}));
    h.compact(e);
    let writes: Vec<String> = h
        .fake
        .calls("write")
        .iter()
        .map(|c| c["path"].as_str().unwrap().to_owned())
        .filter(|p| p.ends_with(".md") && !p.ends_with(".summary.md"))
        .collect();
    let first = history_file("auto");
    let n = writes.len();
    assert!(n >= 2, "{writes:?}");
    let want: Vec<String> = std::iter::once(first.clone())
        .chain((2..=n).map(|k| format!("{}/{NOW_STAMP}-auto.part{k}.md", dir())))
        .collect();
    assert_eq!(writes, want);
    let mut total = 0;
    for w in &writes {
        let len = h.fake.text(w).unwrap().len();
        assert!(len <= 4 * 1024 * 1024);
        total += len;
    }
    assert!(total > 5_000_000, "nothing lost");
    // All parts were asked for at once, while the summarizer worked.
    let ops = h.fake.ops("session.compact");
    let w = ops.iter().position(|o| o == "write").unwrap();
    assert!(ops[..w].contains(&"next".to_owned()));
    assert!(ops[w..w + n].iter().all(|o| o == "write"));
    assert_eq!(ops[w + n], "nextResult");
    assert!(h.pending().unwrap()[1].starts_with(&handoff::pointer(&first, &dir(), n, Reach::Project)));
}

#[test]
fn a_failed_first_part_points_at_the_next() {
    let mut h = Harness::new();
    let big = "word ".repeat(1_000_000);
    let mut e = compact_event("auto");
    e["messages"]
        .as_array_mut()
        .unwrap()
        .push(json!({"role": "assistant", "text": big}));
    h.fake.fail("write", "-auto.md", "EIO");
    h.compact(e);
    let second = format!("{}/{NOW_STAMP}-auto.part2.md", dir());
    assert!(h.pending().unwrap()[1].contains(&format!("\"{second}\"")));
    assert!(h.fake.log_lines()[0].ends_with(&format!("\"file\":\"{second}\"}}")));
}

// ---- redaction (issue [3] part 1): nothing written or kept carries a credential ----

fn secret_event() -> Value {
    json!({"trigger": "manual", "messages": [
        {"role": "user", "text": "deploy with token ghp_FAKE0123456789abcdefghijklmnopqrstuv please", "toolUses": [], "handle": "u1"},
        {"role": "assistant", "text": "", "toolUses": [{"tool": "Bash", "input": {"command": "cat .env"},
            "text": "AWS_ACCESS_KEY_ID=AKIAFAKE0123456789AB\nDATABASE_URL=postgres://app:s3cr3t-FAKE@db.internal:5432/app"}], "handle": "a1"}
    ]})
}

#[test]
fn credentials_are_redacted_before_anything_is_written_or_kept() {
    let mut h = Harness::new();
    h.compact(secret_event());
    let writes = h.fake.calls("write");
    let history = writes
        .iter()
        .find(|w| w["path"].as_str().unwrap().ends_with("-manual.md"))
        .unwrap();
    let text = history["text"].as_str().unwrap();
    for secret in [
        "ghp_FAKE0123456789abcdefghijklmnopqrstuv",
        "AKIAFAKE0123456789AB",
        "s3cr3t-FAKE",
    ] {
        assert!(!text.contains(secret), "{secret} in the history");
        for block in h.pending().unwrap() {
            assert!(!block.contains(secret), "{secret} in a kept block");
        }
    }
    assert!(
        text.contains("[REDACTED:github-token]") && text.contains("[REDACTED:aws-access-key-id]"),
        "{text}"
    );
    assert!(
        text.contains("postgres://") && text.contains("@db.internal:5432/app"),
        "the URL around the credential stays: {text}"
    );
    let block = &h.pending().unwrap()[0];
    assert!(
        block.contains("deploy with token [REDACTED:github-token] please"),
        "{block}"
    );
    for w in &writes {
        assert!(
            !w["text"].as_str().unwrap().contains("ghp_FAKE"),
            "{}",
            w["path"]
        );
    }
}

#[test]
fn redaction_can_be_turned_off() {
    let mut h = Harness::with(Options::from_json(r#"{"redactSecrets":false}"#));
    h.compact(secret_event());
    let writes = h.fake.calls("write");
    let history = writes
        .iter()
        .find(|w| w["path"].as_str().unwrap().ends_with("-manual.md"))
        .unwrap();
    assert!(history["text"]
        .as_str()
        .unwrap()
        .contains("ghp_FAKE0123456789abcdefghijklmnopqrstuv"));
    assert!(h.pending().unwrap()[0].contains("ghp_FAKE0123456789abcdefghijklmnopqrstuv"));
}

#[test]
fn two_compactions_in_one_second_get_a_file_each() {
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    h.compact(compact_event("manual"));
    let names: Vec<String> = h
        .fake
        .calls("write")
        .iter()
        .map(|w| w["path"].as_str().unwrap().to_owned())
        .filter(|p| p.ends_with(".md") && !p.ends_with(".summary.md"))
        .collect();
    let first = history_file("manual");
    assert_eq!(
        names,
        [first.clone(), first.replace("-manual.md", "-manual-2.md")]
    );
    assert!(h.fake.text(&first).is_some());
}

// ---- the recall tool (issue [7]) ----

/// The answers to one step's calls on the fake, as the shim gives them: a
/// call marked `beside` has its text handed beside the JSON.
fn perform_all(h: &mut Harness, calls: &[Value]) -> (String, Vec<u8>) {
    let mut texts = Vec::new();
    let answers: Vec<Value> = calls
        .iter()
        .map(|c| {
            h.fake.record("tool.call", c.clone());
            match h.fake.perform("tool.call", c) {
                Ok(Some(Value::String(t))) if c["beside"] == json!(true) => {
                    texts.extend_from_slice(t.as_bytes());
                    json!({"text": t.len()})
                }
                Ok(v) => json!({"ok": v}),
                Err(e) => json!({"err": e}),
            }
        })
        .collect();
    (Value::Array(answers).to_string(), texts)
}

/// Drives the recall hook to its end (it never asks for `next`): the core's
/// last step, with what it hands the recall module in `done.search`.
fn recall_handoff(h: &mut Harness, event: &str) -> Value {
    let mut step: Value = serde_json::from_str(&h.core.start("tool.call", event)).unwrap();
    while let Some(calls) = step["calls"].as_array().cloned() {
        let (answers, _) = perform_all(h, &calls);
        let id = step["id"].as_u64().unwrap() as u32;
        step = serde_json::from_str(&h.core.resume(id, &answers)).unwrap();
    }
    step
}

/// The tool's answer: the core's, or the recall module's run on the same
/// fake as the shim runs it (js/core.js `recall.search`: the same step loop).
fn recall_step(h: &mut Harness, event: &str) -> Value {
    let step = recall_handoff(h, event);
    if step["done"]["end"] != "search" {
        return step;
    }
    let search = step["done"]["request"].clone();
    let mut walk: Value = serde_json::from_str(&compact_plus_recall::start(search.to_string())).unwrap();
    while let Some(calls) = walk["calls"].as_array().cloned() {
        let (answers, texts) = perform_all(h, &calls);
        let id = walk["id"].as_u64().unwrap() as u32;
        walk = serde_json::from_str(&compact_plus_recall::resume(id, answers, texts)).unwrap();
    }
    // What the tool answers: the module's text, as the core's own answer is.
    json!({ "done": { "end": "answer", "text": walk["done"] } })
}

fn answer_of(step: &Value) -> &str {
    step["done"]["text"].as_str().unwrap_or_else(|| panic!("no answer: {step}"))
}

#[test]
fn the_tool_list_entry_is_the_shims_alone() {
    // The shim adds the recall tool to the session's tool list (`tool.list`) from
    // the entry the build wrote out (`RECALL_TOOL`), without the wasm; the core
    // has no session.start or tool.list hook.
    let mut h = Harness::new();
    assert_eq!(h.core.start("session.start", "{}"), r#"{"lost":"no such hook"}"#);
    assert_eq!(h.core.start("tool.list", "{}"), r#"{"lost":"no such hook"}"#);
    let spec = compact_plus::recall_tool::spec();
    // An added tool is no MCP server's: no `mcp__` name, `mcp: false` (d.ts ToolInfo).
    assert_eq!(spec["name"], json!("compact_plus_recall"));
    assert_eq!(spec["mcp"], json!(false));
    assert!(spec["inputSchema"].get("required").is_none(), "no query lists the earlier sessions");
    assert!(spec["description"].as_str().unwrap().starts_with("Search this session's history"));
    assert!(spec["description"].as_str().unwrap().contains("earlier sessions"));
}

#[test]
fn recall_searches_this_sessions_history_parts_oldest_first() {
    let mut h = Harness::new();
    h.fake
        .add_file(&format!("{}/2026-01-02T000000Z-auto.md", dir()), "b", NOW);
    h.fake
        .add_file(&format!("{}/2026-01-01T000000Z-manual.md", dir()), "a", NOW);
    h.fake.add_file(
        &format!("{}/2026-01-02T000000Z-auto.part2.md", dir()),
        "c",
        NOW,
    );
    h.fake.add_file(&format!("{}/log.jsonl", dir()), "{}", NOW);
    let event = r#"{"query":"x","tool":"compact_plus_recall"}"#;
    let step = recall_handoff(&mut h, event);
    let d = dir();
    let parts = [
        format!("{d}/2026-01-01T000000Z-manual.md"),
        format!("{d}/2026-01-02T000000Z-auto.md"),
        format!("{d}/2026-01-02T000000Z-auto.part2.md"),
    ];
    assert_eq!(
        step["done"]["request"],
        json!({"session": {"paths": parts, "query": {"text": "x", "regex": false, "role": null, "limit": 8}}})
    );
    // The recall module reads them one at a time, oldest first, each beside the JSON.
    let before = h.fake.calls("read").len();
    let answer = recall_step(&mut h, event);
    let reads: Vec<Value> = h.fake.calls("read").split_off(before);
    assert_eq!(reads.iter().map(|r| r["path"].as_str().unwrap().to_owned()).collect::<Vec<_>>(), parts);
    assert!(reads.iter().all(|r| r["beside"] == json!(true) && r["deadline"] == json!("reads")), "{reads:?}");
    assert!(answer_of(&answer).starts_with("recall: no hits for \"x\""), "{answer}");
}

#[test]
fn a_bad_recall_input_is_answered_without_reading_anything() {
    let mut h = Harness::new();
    let step = recall_step(&mut h, r#"{"query":"x","role":"robot"}"#);
    assert!(
        step["done"]["text"]
            .as_str()
            .unwrap()
            .starts_with("recall: role must be"),
        "{step}"
    );
    assert!(h.fake.calls("list").is_empty());
}

#[test]
fn recall_with_nothing_saved_says_so() {
    let mut h = Harness::new();
    let step = recall_step(&mut h, r#"{"query":"x"}"#);
    assert!(
        step["done"]["text"]
            .as_str()
            .unwrap()
            .starts_with("recall: nothing has been saved"),
        "{step}"
    );
}

#[test]
fn a_lone_surrogate_costs_one_character_not_the_history() {
    // JSON.stringify writes a string cut inside an emoji as a lone \ud83d escape.
    let mut h = Harness::new();
    let event = r#"{"trigger":"manual","messages":[{"role":"user","text":"cut here \ud83d and go on","toolUses":[],"handle":"h1"},{"role":"assistant","text":"fine","toolUses":[]}]}"#;
    let mut step: Value = serde_json::from_str(&h.core.start("session.compact", event)).unwrap();
    let mut history = None;
    while let Some(calls) = step["calls"].as_array().cloned() {
        let id = step["id"].as_u64().unwrap() as u32;
        let answers: Vec<Value> = calls
            .iter()
            .map(|c| {
                let mut c = c.clone();
                if let Some(k) = c.get("textRef").and_then(Value::as_u64) {
                    c["text"] = json!(h.core.take_text(k as usize));
                }
                if c["op"] == "write" && c["path"].as_str().unwrap().ends_with(".md") && !c["path"].as_str().unwrap().ends_with(".summary.md") {
                    history = c["text"].as_str().map(str::to_owned);
                }
                if c["op"] == "startNext" {
                    return json!({});
                }
                if c["op"] == "nextResult" {
                    return json!({"ok": {"messages": [{"role": "user", "text": "summary"}]}});
                }
                match h.fake.perform("session.compact", &c) {
                    Ok(v) => json!({"ok": v}),
                    Err(e) => json!({"err": e}),
                }
            })
            .collect();
        step =
            serde_json::from_str(&h.core.resume(id, &Value::Array(answers).to_string())).unwrap();
    }
    let history = history.expect("a history was written");
    assert!(history.contains("cut here \u{fffd} and go on"), "{history}");
    assert!(history.contains("## [2] assistant"));
    verbatim_block(
        &h.pending().unwrap()[0],
        &["cut here \u{fffd} and go on"],
        &[],
    );
}

#[test]
fn an_instruction_file_nested_too_deep_to_judge_is_left_as_the_engine_has_it() {
    for raw in [
        format!("<!-- c -->\n{}x\n", ">".repeat(60_000)),
        // A deep quote, a long line, then lazy lines: depth² × length (found by the fuzzer).
        format!(
            "<!-- c -->\n{} {}\nlazy\nlazy\n",
            ">".repeat(61),
            "w".repeat(200_000)
        ),
    ] {
        let mut h = Harness::new();
        h.fake.add_file("/p/CLAUDE.md", &raw, NOW);
        let result = json!({"instructionFiles": [file("/p/CLAUDE.md", "project", "old")]});
        let out = context(&mut h, json!({}), result.clone());
        assert_eq!(out, pass_through());
        assert!(h.fake.log_lines().is_empty());
    }
}

// ---- recall across sessions (issue [12]) ----

const PROJECTS: &str = "/home/ann/.claude/projects";
const CODEX_A: &str = "019a0000-0000-7000-8000-00000000000a";
const CODEX_B: &str = "019a0000-0000-7000-8000-00000000000b";

fn codex_meta(id: &str, cwd: &str) -> String {
    // As Codex writes it (real-transcripts/EntityProcess__agentv): the cwd
    // early, the instructions after it make the line longer than the head read.
    format!(
        "{{\"timestamp\":\"2023-11-14T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"{id}\",\"cwd\":\"{cwd}\",\"base_instructions\":{{\"text\":\"{}\"}}}}}}\n{}\n",
        "x".repeat(70_000),
        json!({"timestamp": "2023-11-14T10:00:01.000Z", "type": "event_msg", "payload": {"type": "user_message", "message": "codex words"}})
    )
}

/// An earlier project: two transcripts of this folder (/work/app), one of
/// another, this session's own, a history folder with a saved summary, Codex
/// rollouts of both folders, OpenCode's prompt history.
fn earlier_sessions(h: &mut Harness) {
    let here = format!("{PROJECTS}/-work-app");
    h.fake.add_file(&format!("{here}/aaaa.jsonl"), "{\"type\":\"user\"}\n", NOW - 3.0 * DAY);
    h.fake.add_file(&format!("{here}/bbbb.jsonl"), "{\"type\":\"user\"}\n", NOW - DAY);
    h.fake.add_file(&format!("{here}/{SID}.jsonl"), "{\"type\":\"user\"}\n", NOW);
    h.fake.add_file(&format!("{PROJECTS}/-work-other/cccc.jsonl"), "{\"type\":\"user\"}\n", NOW);
    h.fake.add_file(&format!("{ROOT}/bbbb/2023-11-13T000000Z-auto.md"), "# history", NOW - DAY);
    h.fake.add_file(&format!("{ROOT}/bbbb/2023-11-13T000000Z-auto.summary.md"), "the summary", NOW - DAY);
    let day = "/home/ann/.codex/sessions/2023/11/14";
    h.fake.add_file(&format!("{day}/rollout-2023-11-14T10-00-00-{CODEX_A}.jsonl"), &codex_meta(CODEX_A, "/work/app/"), NOW - 2.0 * DAY);
    h.fake.add_file(&format!("{day}/rollout-2023-11-14T11-00-00-{CODEX_B}.jsonl"), &codex_meta(CODEX_B, "/work/other"), NOW - 2.0 * DAY);
    h.fake.add_file("/home/ann/.local/state/opencode/prompt-history.jsonl", "{\"input\":\"hi\"}\n", NOW - 5.0 * DAY);
}

/// The search's reads (not the walk's): `(path, offset, length)`, in order.
fn search_reads(h: &Harness) -> Vec<(String, u64, u64)> {
    h.fake
        .calls("read")
        .iter()
        .filter(|r| r["deadline"] == json!("reads"))
        .map(|r| (r["path"].as_str().unwrap().to_owned(), r["offset"].as_u64().unwrap(), r["length"].as_u64().unwrap()))
        .collect()
}

#[test]
fn project_recall_reads_this_projects_sessions_newest_first() {
    let mut h = Harness::new();
    earlier_sessions(&mut h);
    let step = recall_step(&mut h, r#"{"query":"codex words","scope":"project"}"#);
    let day = "/home/ann/.codex/sessions/2023/11/14";
    let codex_a = format!("{day}/rollout-2023-11-14T10-00-00-{CODEX_A}.jsonl");
    let codex_size = codex_meta(CODEX_A, "/work/app/").len() as u64;
    assert_eq!(
        search_reads(&h),
        [
            (format!("{PROJECTS}/-work-app/bbbb.jsonl"), 0, 16),
            (format!("{ROOT}/bbbb/2023-11-13T000000Z-auto.summary.md"), 0, 11),
            (codex_a.clone(), 0, codex_size),
            (format!("{PROJECTS}/-work-app/aaaa.jsonl"), 0, 16),
            ("/home/ann/.local/state/opencode/prompt-history.jsonl".to_owned(), 0, 15),
        ]
    );
    // The Codex rollouts' first lines were read by range to learn their folder,
    // within the walk's deadline.
    let heads: Vec<Value> = h.fake.calls("read").into_iter().filter(|r| r["deadline"] == json!("walk")).collect();
    assert!(heads.iter().all(|r| r["offset"] == json!(0) && r["length"].as_u64().unwrap() <= 64 * 1024), "{heads:?}");
    assert_eq!(heads.len(), 2);
    let answer = answer_of(&step);
    assert!(answer.starts_with("recall: 2 hits in 1 message of 1 earlier session (of 4 searched)"), "{answer}");
    assert!(answer.contains(&format!("── codex · session {CODEX_A} · 2023-11-14 10:00Z · message 2 (user)")), "{answer}");
}

#[test]
fn no_query_is_the_sessions_view_and_session_narrows_to_one() {
    let mut h = Harness::new();
    earlier_sessions(&mut h);
    let view = recall_step(&mut h, r#"{}"#);
    // OpenCode's one prompt names no folder: not this project's.
    assert!(answer_of(&view).starts_with("recall: 3 earlier sessions of this project, newest first."), "{view}");
    assert_eq!(search_reads(&h).len(), 5);
    let before = search_reads(&h).len();
    let more = recall_step(&mut h, r#"{"scope":"project","session":"bbbb","message":1}"#);
    assert_eq!(
        search_reads(&h).split_off(before).into_iter().map(|r| r.0).collect::<Vec<_>>(),
        [format!("{PROJECTS}/-work-app/bbbb.jsonl"), format!("{ROOT}/bbbb/2023-11-13T000000Z-auto.summary.md")]
    );
    assert!(answer_of(&more).contains("── message 2 (summary)") && answer_of(&more).contains("the summary"), "{more}");
    let step = recall_step(&mut h, r#"{"scope":"project","session":"zzzz","query":"x"}"#);
    assert!(answer_of(&step).contains("no earlier session of this project has an id starting \"zzzz\""), "{step}");
}

#[test]
fn project_recall_is_bounded_newest_first() {
    let mut h = Harness::new();
    let here = format!("{PROJECTS}/-work-app");
    for k in 0..25 {
        h.fake.add_file(&format!("{here}/s{k:02}.jsonl"), "{}\n", NOW - f64::from(k) * DAY);
    }
    let big = "x".repeat(9 << 20);
    h.fake.add_file(&format!("{here}/s00.jsonl"), &big, NOW);
    let step = recall_step(&mut h, r#"{"query":"x","scope":"project"}"#);
    let reads = search_reads(&h);
    let mut files: Vec<&str> = reads.iter().map(|r| r.0.as_str()).collect();
    files.dedup();
    assert_eq!(files.len(), 20, "seed 000's cap: 20 transcripts a call");
    assert!(files[0].ends_with("s00.jsonl") && files[19].ends_with("s19.jsonl"), "{files:?}");
    // Over 8 MiB: the first 4 MiB and the newest 4 MiB, in reads of 1 MiB.
    let size = 9u64 << 20;
    let mib = 1u64 << 20;
    let want: Vec<(String, u64, u64)> = [0, mib, 2 * mib, 3 * mib, size - 4 * mib, size - 3 * mib, size - 2 * mib, size - mib]
        .map(|o| (files[0].to_owned(), o, mib))
        .to_vec();
    assert_eq!(reads[..8], want[..]);
    let answer = answer_of(&step);
    assert!(answer.contains("The newest 20 of 25 earlier sessions were read") && answer.contains("Session s00 is long"), "{answer}");
    assert!(h.fake.calls("read").iter().all(|r| r["deadline"] == json!("reads")), "every read within the reads' deadline");
}

#[test]
fn every_byte_read_counts_in_the_calls_bound() {
    let mut h = Harness::new();
    let here = format!("{PROJECTS}/-work-app");
    let four = "y".repeat(4 << 20);
    for k in 0..14 {
        h.fake.add_file(&format!("{here}/s{k:02}.jsonl"), &four, NOW - f64::from(k) * DAY);
    }
    // Codex heads the walk reads (this folder's or not) count too.
    let day = "/home/ann/.codex/sessions/2023/11/14";
    h.fake.add_file(&format!("{day}/rollout-2023-11-14T10-00-00-{CODEX_B}.jsonl"), &codex_meta(CODEX_B, "/work/other"), NOW);
    let step = recall_step(&mut h, r#"{"query":"x","scope":"project"}"#);
    let read: u64 = h.fake.calls("read").iter().map(|r| r["length"].as_u64().unwrap()).sum();
    assert!(read <= 48 << 20, "{read} bytes read");
    let mut files: Vec<String> = search_reads(&h).into_iter().map(|r| r.0).collect();
    files.dedup();
    assert_eq!(files.len(), 11, "11 whole sessions fit beside the 64 KiB head");
    assert!(answer_of(&step).contains("(3 older sessions not read: the call reads 48 MiB at most.)"), "{step}");
}

#[test]
fn recall_scope_session_keeps_to_this_session() {
    let mut h = Harness::with(Options::from_json(r#"{"recallScope":"session"}"#));
    earlier_sessions(&mut h);
    for input in [r#"{"query":"x","scope":"project"}"#, r#"{}"#] {
        let step = recall_step(&mut h, input);
        assert!(step["done"]["text"].as_str().unwrap().contains("option recallScope"), "{step}");
    }
    assert!(h.fake.calls("list").is_empty() && h.fake.calls("cwd").is_empty());
    let mut h = Harness::with(Options::from_json(r#"{"recallTool":false}"#));
    earlier_sessions(&mut h);
    let step = recall_step(&mut h, r#"{"query":"x","scope":"project"}"#);
    assert!(step["done"]["text"].as_str().unwrap().contains("turned off"), "{step}");
}

#[test]
fn each_compaction_saves_its_summary_redacted_beside_the_history() {
    let mut h = Harness::new();
    h.fake.next.insert(
        "session.compact".to_owned(),
        Ok(json!({
            "messages": [{"role": "user", "text": "Summary: we chose serde; deploy token ghp_FAKE0123456789abcdefghijklmnopqrstuv", "toolUses": [], "handle": "sum-1"}],
            "tokensBefore": 5000, "tokensAfter": 800,
        })),
    );
    h.compact(compact_event("manual"));
    let path = format!("{}/{NOW_STAMP}-manual.summary.md", dir());
    let text = h.fake.text(&path).unwrap_or_else(|| panic!("no summary saved"));
    assert!(text.contains("we chose serde") && text.contains("[REDACTED:github-token]") && !text.contains("ghp_FAKE"), "{text}");
    // This session's recall still searches the history parts alone.
    let step = recall_handoff(&mut h, r#"{"query":"serde"}"#);
    assert_eq!(step["done"]["request"]["session"]["paths"], json!([history_file("manual")]));
}

// ---------------------------------------------------------------- the rescue

/// The engine's rejections of a `/compact` whose summarizer failed, and of an
/// automatic compaction whatever failed (e2e-kit failures/README.md section 1:
/// `r-manual-500-r2`, `r-manual-529-r2`, `r-manual-ptl`; tests/HOST.md "Why a
/// compaction did not happen").
const FAILED_500: &str = "Error during compaction: API Error: 500 Internal server error. This is a server-side issue, usually temporary";
const FAILED_529: &str = "Error during compaction: API Error: Repeated 529 Overloaded errors. The API is temporarily overloaded";
const FAILED_PTL: &str = "Compaction failed · conversation could not be reduced below the context limit";
const FAILED_AUTO: &str = "reactive compaction did not settle ok";

/// A compaction of the core's own: its summary row's text, and the places of
/// the messages it keeps after it. One in place of `next`'s rejection comes
/// only where `next` rejected; one in place of its result, where it resolved
/// or was not asked.
fn rescued(out: &Ended) -> (String, Vec<u64>) {
    assert_eq!(out.end(), "compacted", "{out:?}");
    match out.done["inPlaceOf"].as_str() {
        Some("rejection") => assert!(matches!(out.next, Some(Err(_))), "answered where next rejected: {out:?}"),
        Some("result") => assert!(!matches!(out.next, Some(Err(_))), "{out:?}"),
        other => panic!("in place of {other:?}"),
    }
    let summary = out.done["summary"].as_str().unwrap().to_owned();
    let keep = out.done["keep"].as_array().unwrap().iter().map(|k| k.as_u64().unwrap()).collect();
    (summary, keep)
}

fn rescue_log(h: &Harness) -> Value {
    let lines = h.fake.log_lines();
    assert_eq!(lines.len(), 1, "{lines:?}");
    serde_json::from_str(&lines[0]).unwrap()
}

#[test]
fn a_failed_summarizer_gets_a_digest_when_no_model_answers() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    // A long answer in the middle: the messages kept after the row start after it.
    let mut e = compact_event("manual");
    e["messages"][1]["text"] = json!("x".repeat(40_000));
    let out = h.compact(e);
    let (summary, handles) = rescued(&out);
    assert!(summary.starts_with("[compact-plus wrote this summary (a digest made without a model): the engine's own compaction failed (API server error: Error during compaction: API Error: 500"), "{summary}");
    assert!(summary.contains("`cargo test` → ok"), "{summary}");
    // The person's words, the current request marked, and the pointer: in the row, once.
    // The person's words not kept after it come word for word; the current
    // request is kept itself, so every entry of the block is an earlier one.
    assert!(summary.contains("--- user message (earlier) ---\nPlease fix the parser in src/parse.rs"), "{summary}");
    assert!(!summary.contains("Also keep the old API"), "kept whole after the row: {summary}");
    assert!(summary.contains(&history_file("manual")), "{summary}");
    assert_eq!(summary.matches("<user-messages-verbatim>").count(), 1);
    assert_eq!(summary.matches(&history_file("manual")).count(), 1);
    // The newest messages kept by their place, from a clean user message.
    assert_eq!(handles, vec![2, 3]);
    // Nothing waits for a channel: the row carries the blocks itself.
    assert_eq!(h.pending(), None);
    let log = rescue_log(&h);
    assert_eq!((log["event"].as_str(), log["tier"].as_u64(), log["modelCalls"].as_u64()), (Some("rescue"), Some(2), Some(1)));
    assert_eq!(log["cause"], "API server error");
    assert_eq!(h.fake.calls("complete")[0]["model"], "haiku");
}

#[test]
fn the_rescue_model_writes_the_summary_when_it_answers() {
    let mut h = Harness::with(Options { rescue_model: "claude-haiku-4-5".into(), ..Options::default() });
    h.fake.next.insert("session.compact".into(), Err(FAILED_PTL.into()));
    let reply = "## Decisions\n- keep the old API → callers depend on it\n## Open Questions\n- No open questions.";
    h.fake.completions.push_back(json!({"isAnswered": true, "text": reply, "usage": {}}));
    let out = h.compact(compact_event("manual"));
    let (summary, _) = rescued(&out);
    assert!(summary.starts_with("[compact-plus wrote this summary (summarized by the rescue model): the engine's own compaction failed (prompt too long"), "{summary}");
    assert!(summary.contains(reply));
    let call = &h.fake.calls("complete")[0];
    assert_eq!(call["model"], "claude-haiku-4-5");
    assert!(call["timeoutMs"].as_u64().unwrap() > 0);
    let prompt = call["prompt"].as_str().unwrap();
    assert!(prompt.contains("Please fix the parser in src/parse.rs") && prompt.contains("P1"), "the history and the priorities");
    // The history's header names this session and the time, as the history file's does.
    assert!(prompt.contains(&format!("Session {SID}, compacted {NOW_ISO} (rescue)")), "{}", &prompt[..400.min(prompt.len())]);
    assert_eq!(rescue_log(&h)["tier"], 1);
}

#[test]
fn an_aborted_compaction_or_the_rescue_off_passes_the_rejection_up() {
    let mut h = Harness::new();
    h.aborted = true;
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Err(FAILED_500.into())));
    assert!(h.fake.calls("complete").is_empty());
    let mut h = Harness::with(Options::from_json(r#"{"rescue": false}"#));
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Err(FAILED_500.into())));
}

#[test]
fn a_resolved_next_is_never_replaced() {
    let mut h = Harness::new();
    let out = h.compact(compact_event("manual"));
    assert_eq!(out, Ended::passed(h.fake.next["session.compact"].clone()));
    assert!(h.fake.calls("complete").is_empty());
}

#[test]
fn the_rescue_redacts_what_it_writes() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    let e = json!({"trigger": "manual", "messages": [
        {"role": "user", "text": "use my token ghp_FAKE0123456789abcdefghijklmnopqrstuv", "toolUses": [], "handle": "a"},
        {"role": "assistant", "text": "ok", "toolUses": [{"tool": "Bash", "input": {"command": "export GITHUB_TOKEN=ghp_FAKE0123456789abcdefghijklmnopqrstuv"}, "text": "", "isError": false}], "handle": "b"},
    ]});
    let out = h.compact(e);
    let (summary, _) = rescued(&out);
    assert!(!summary.contains("ghp_FAKE"), "{summary}");
    assert!(summary.contains("[REDACTED"), "{summary}");
}

/// `n` exchanges with 10 kB answers: `n` × 10 kB of history, over one
/// request's 240 kB from 25 on, in parts of 25 exchanges.
fn long_conversation(n: usize) -> Value {
    let mut messages = Vec::new();
    for i in 0..n {
        messages.push(json!({"role": "user", "text": format!("question {i}"), "toolUses": [], "handle": format!("u{i}")}));
        messages.push(json!({"role": "assistant", "text": format!("answer {i} {}", "z".repeat(10_000)), "toolUses": [], "handle": format!("a{i}")}));
    }
    Value::Array(messages)
}

fn part_summary(k: usize, took_ms: f64) -> Value {
    json!({"isAnswered": true, "text": format!("## Decisions\n- part summary number {k} with words"), "usage": {}, "tookMs": took_ms})
}

#[test]
fn a_conversation_over_the_rescue_models_window_goes_in_parts_then_one_merge() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_AUTO.into()));
    // 60 exchanges: 3 parts.
    for k in 0..3 {
        h.fake.completions.push_back(part_summary(k, 0.0));
    }
    h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- the merged summary of all parts", "usage": {}}));
    let out = h.compact(json!({"trigger": "auto", "messages": long_conversation(60)}));
    let calls = h.fake.calls("complete");
    let prompts: Vec<&str> = calls.iter().map(|c| c["prompt"].as_str().unwrap()).collect();
    assert_eq!(prompts.len(), 4, "three parts and the merge");
    let (parts, merge) = prompts.split_at(3);
    assert!(parts.iter().all(|p| p.contains("<conversation-part>") && p.len() < 300_000));
    assert!(parts[0].contains("part 1 of 3") && parts[0].contains("question 0"), "oldest first");
    assert!(merge[0].starts_with("Merge these summaries") && merge[0].contains("open question"));
    assert!((0..3).all(|k| merge[0].contains(&format!("part summary number {k}"))), "every part merged");
    // The merge is what stands, with nothing said missing.
    let (summary, _) = rescued(&out);
    assert!(summary.contains("the merged summary of all parts") && !summary.contains("got no summary"), "{summary}");
    assert_eq!(rescue_log(&h)["modelCalls"], 4);
}

#[test]
fn the_parts_are_asked_at_once() {
    // Issue [13] item 14: asked one after another inside the 150 s, a late
    // time-out cost every part summary already paid for. Each part here takes
    // 40 s: at once they are all back after 40 s, and the merge (10 s) after 50.
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    for k in 0..3 {
        h.fake.completions.push_back(part_summary(k, 40_000.0));
    }
    h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- merged in the end", "usage": {}, "tookMs": 10_000}));
    let out = h.compact(json!({"trigger": "manual", "messages": long_conversation(60)}));
    let log = rescue_log(&h);
    assert_eq!((log["tier"].as_u64(), log["ms"].as_f64()), (Some(1), Some(50_000.0)), "{log}");
    let timeouts: Vec<u64> = h.fake.calls("complete").iter().map(|c| c["timeoutMs"].as_u64().unwrap()).collect();
    assert_eq!(timeouts, vec![60_000; 4], "each part its own bound; the merge what is left, within its own");
    assert!(rescued(&out).0.contains("merged in the end"));
}

#[test]
fn a_part_that_does_not_come_back_costs_that_part_alone() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    h.fake.completions.push_back(part_summary(0, 1_000.0));
    // The second part runs past its 60 s and is cut.
    h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- too late to count", "usage": {}, "tookMs": 90_000}));
    h.fake.completions.push_back(part_summary(2, 1_000.0));
    h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- merged from parts one and three", "usage": {}}));
    let out = h.compact(json!({"trigger": "manual", "messages": long_conversation(60)}));
    let calls = h.fake.calls("complete");
    assert_eq!(calls.len(), 4);
    let merge = calls[3]["prompt"].as_str().unwrap();
    assert!(merge.contains("<part n=\"1\">") && merge.contains("<part n=\"3\">") && !merge.contains("<part n=\"2\">"), "{}", &merge[..200]);
    assert!(!merge.contains("too late to count"));
    let (summary, _) = rescued(&out);
    assert!(summary.contains("summarized by the rescue model"), "kept, not the digest: {summary}");
    assert!(summary.contains("Parts not in this summary, by number: 2 (") && summary.contains("merged from parts one and three"), "{summary}");
    let log = rescue_log(&h);
    assert_eq!((log["tier"].as_u64(), log["modelCalls"].as_u64(), log["ms"].as_f64()), (Some(1), Some(4), Some(60_000.0)));
}

#[test]
fn a_merge_that_does_not_come_back_leaves_the_parts_summaries() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    for k in 0..3 {
        h.fake.completions.push_back(part_summary(k, 0.0));
    }
    h.fake.completions.push_back(json!({"isAnswered": false, "reason": "api-error", "status": 529, "error": "overloaded", "usage": {}}));
    let out = h.compact(json!({"trigger": "manual", "messages": long_conversation(60)}));
    let (summary, _) = rescued(&out);
    assert!(summary.contains("summarized by the rescue model"), "{summary}");
    assert!((0..3).all(|k| summary.contains(&format!("### Part {} of 3\n\n## Decisions\n- part summary number {k}", k + 1))), "{summary}");
}

#[test]
fn no_part_answered_falls_back_to_the_digest() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_AUTO.into()));
    // Every part past its bound: cut at 60 s, all of them together.
    for _ in 0..3 {
        h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- a part summary with enough words", "usage": {}, "tookMs": 70_000}));
    }
    let out = h.compact(json!({"trigger": "auto", "messages": long_conversation(60)}));
    let (summary, _) = rescued(&out);
    assert!(summary.contains("a digest made without a model"), "{summary}");
    assert_eq!(h.fake.calls("complete").len(), 3, "no merge of nothing");
    let log = rescue_log(&h);
    assert_eq!((log["tier"].as_u64(), log["modelCalls"].as_u64(), log["ms"].as_f64()), (Some(2), Some(3), Some(60_000.0)));
}

#[test]
fn the_rescue_model_gets_what_is_left_of_the_rescues_time_and_no_more() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    // A history that fits one request: a slow model, cut at its 60 s.
    h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- a summary with enough words", "usage": {}, "tookMs": 70_000}));
    let out = h.compact(compact_event("manual"));
    let timeouts: Vec<u64> = h.fake.calls("complete").iter().map(|c| c["timeoutMs"].as_u64().unwrap()).collect();
    assert_eq!(timeouts, vec![60_000]);
    assert!(rescued(&out).0.contains("a digest made without a model"));
    // Parts of 55 s, then a merge: 150 s in all leaves the merge 95 s, so its own 60 s.
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    for k in 0..3 {
        h.fake.completions.push_back(part_summary(k, 55_000.0));
    }
    h.fake.completions.push_back(json!({"isAnswered": true, "text": "## Decisions\n- merged", "usage": {}, "tookMs": 70_000}));
    let out = h.compact(json!({"trigger": "manual", "messages": long_conversation(60)}));
    let log = rescue_log(&h);
    assert_eq!(log["ms"].as_f64(), Some(115_000.0), "the parts, then the merge cut at 60 s: {log}");
    assert!(rescued(&out).0.contains("### Part 1 of 3"), "the parts stand");
}

// ---------------------------------------------------------------- the trim before the summarizer

/// A tool loop as the shim sends it, texts deferred: the person's request, an
/// old call whose result is `big`, then the newest round (a call and its
/// result, also long). `pack` with `results` carries the tool-result texts.
fn tool_loop_event(big: &'static str, newest: &'static str) -> Deferred {
    Deferred {
        event: json!({"trigger": "manual", "textsDeferred": true, "messages": [
            {"role": "user", "handle": "p"},
            {"role": "assistant", "handle": "a1"},
            {"role": "user", "handle": "r1"},
            {"role": "assistant", "handle": "a2"},
            {"role": "user", "handle": "r2"},
        ]}),
        texts: json!(["find the bug", "", ""]),
        skeleton: json!({"trigger": "manual", "messages": [
            {"role": "user", "text": 0, "handle": "p", "toolUses": []},
            {"role": "assistant", "text": 1, "handle": "a1", "toolUses": [{"tool": "Bash", "input": {"command": "seq 1 60000"}, "text": 2}]},
            {"role": "user", "text": 3, "handle": "r1", "toolUses": [], "toolResults": 1, "resultTexts": [4]},
            {"role": "assistant", "text": 5, "handle": "a2", "toolUses": [{"tool": "Bash", "input": {"command": "ls"}, "text": 6}]},
            {"role": "user", "text": 7, "handle": "r2", "toolUses": [], "toolResults": 1, "resultTexts": [8]},
        ]}),
        packed: vec!["find the bug", "", big, "", big, "", newest, "", newest],
    }
}

#[test]
fn under_the_limit_the_summarizer_request_goes_down_as_the_engine_made_it() {
    let big: &'static str = Box::leak("1\n".repeat(100_000).into_boxed_str());
    let newest: &'static str = Box::leak("f\n".repeat(5_000).into_boxed_str());
    let mut h = Harness::new();
    // The engine's figures at the last turn's end: well under the window.
    h.core.session().carried_mut().usage = Some((120_000.0, 200_000.0));
    h.deferred = Some(tool_loop_event(big, newest));
    h.compact(json!({}));
    let nexts = h.nexts("session.compact");
    assert_eq!(nexts.len(), 1);
    assert!(nexts[0].get("cut").is_none(), "{}", nexts[0]);
    // Nothing fetched before the summarizer started: its request waits for nothing.
    let ops = h.fake.ops("session.compact");
    let at = ops.iter().position(|o| o == "next").unwrap();
    assert!(!ops[..at].contains(&"pack".to_owned()), "{ops:?}");
    assert!(h.fake.calls("pack").iter().all(|p| p.get("results").is_none()));
}

#[test]
fn over_the_limit_the_largest_old_results_are_cut_on_the_way_down() {
    let big: &'static str = Box::leak("1\n".repeat(100_000).into_boxed_str());
    let newest: &'static str = Box::leak("f\n".repeat(5_000).into_boxed_str());
    for (usage, ptl) in [(Some((195_000.0, 200_000.0)), false), (None, true)] {
        let mut h = Harness::new();
        h.core.session().carried_mut().usage = usage;
        h.core.session().carried_mut().ptl_seen = ptl;
        h.deferred = Some(tool_loop_event(big, newest));
        h.compact(json!({}));
        // The texts, with the results, come before the summarizer starts.
        let ops = h.fake.ops("session.compact");
        let pack_at = ops.iter().position(|o| o == "pack").unwrap();
        assert!(pack_at < ops.iter().position(|o| o == "next").unwrap(), "{ops:?}");
        assert_eq!(h.fake.calls("pack")[0]["results"], true);
        let nexts = h.nexts("session.compact");
        let cut = nexts[0]["cut"].as_array().expect("messages cut on the way down");
        // Only the old result: the newest round and every other message go down whole.
        assert_eq!(cut.len(), 1, "{cut:?}");
        assert_eq!(cut[0]["index"], 2);
        let text = cut[0]["results"][0].as_str().unwrap();
        assert!(text.len() < 1_200 && text.starts_with("1\n1\n") && text.contains("history file"), "{text}");
        // The history is written from the messages as the engine sent them
        // (its own 12,000-character cut of tool results), not from the trim's.
        let history: String = h.fake.files.iter().filter(|(p, _)| p.ends_with(".md")).map(|(_, (t, _))| t.clone()).collect();
        assert!(history.contains(&big[..5_000]) && !history.contains("compact-plus cut"), "{}", &history[..300.min(history.len())]);
    }
}

// ---------------------------------------------------------------- a summary row that is no summary

/// The engine's summary row (2.1.328) around `body`: `Summary:` and the reply's
/// `<summary>` block, or the reply as it came when it had none
/// (e2e-kit failures/README.md section 1, `r-manual-ok`, `r-manual-nosummary`).
fn engine_summary(body: &str) -> Value {
    let text = format!("This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n<system-reminder>\n<tools-used-before-summary></tools-used-before-summary>\n</system-reminder>\n{body}\n\nIf you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /tmp/t.jsonl");
    json!({"messages": [{"role": "user", "text": text, "toolUses": [], "handle": "sum"}, {"role": "user", "text": "Also keep the old API", "toolUses": [], "handle": "h4"}], "tokensBefore": 60, "tokensAfter": 2600})
}

#[test]
fn a_reply_with_no_summary_installed_as_the_summary_is_replaced_by_the_rescue() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Ok(engine_summary("I cannot summarize this conversation.")));
    let out = h.compact(compact_event("manual"));
    let (summary, _) = rescued(&out);
    assert!(summary.starts_with("[compact-plus wrote this summary (a digest made without a model): the engine's own compaction failed (no summary: the summarizer's reply held no <summary> block"), "{summary}");
    assert!(!summary.contains("I cannot summarize"), "{summary}");
    let log = rescue_log(&h);
    assert_eq!((log["event"].as_str(), log["cause"].as_str(), log["tier"].as_u64()), (Some("rescue"), Some("no summary"), Some(2)));
    assert_eq!(h.nexts("session.compact").len(), 1, "next once");
}

#[test]
fn a_real_summary_or_the_rescue_off_leaves_the_engines_compaction_standing() {
    let ok = engine_summary("Summary:\n1. Primary Request and Intent: fix the parser.");
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Ok(ok.clone()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Ok(ok)));
    assert!(h.fake.calls("complete").is_empty());

    let junk = engine_summary("I cannot summarize this conversation.");
    let mut h = Harness::with(Options { rescue: false, ..Options::default() });
    h.fake.next.insert("session.compact".into(), Ok(junk.clone()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Ok(junk)));
}

#[test]
fn a_summary_after_a_preamble_or_cut_short_is_kept() {
    // Issue [13] item 7: the engine installs a reply with words before its
    // `<summary>` block; the check wanted the row to start with `Summary:`.
    // These bodies are the rows 2.1.328 wrote for such replies (tests/HOST.md).
    for body in [
        "Here is the summary of our conversation so far.\n\nSummary:\n1. Primary Request and Intent: PREAMBLE-KEPT",
        "Sure.\n\nHere it is:\nSummary:\nPA-KEPT",
        "<summary>\n1. Primary Request and Intent: UNCLOSED cut short",
    ] {
        let kept = engine_summary(body);
        let mut h = Harness::new();
        h.fake.next.insert("session.compact".into(), Ok(kept.clone()));
        assert_eq!(h.compact(compact_event("manual")), Ended::passed(Ok(kept)), "{body}");
        assert!(h.fake.calls("complete").is_empty(), "{body}");
        assert!(h.fake.log_lines()[0].contains("\"event\":\"compact\""), "{body}");
    }
}

#[test]
fn the_next_compaction_quotes_the_person_not_the_rescues_row() {
    // Issue [13] item 6: a rescue's row is a plain user row (e2e-kit
    // failures/README.md section 2); the next compaction's verbatim block
    // carried its header as `--- user message (earlier) ---`.
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    let (row, _) = rescued(&h.compact(compact_event("manual")));
    h.fake.next.insert("session.compact".into(), Ok(engine_summary("Summary:\nthe second one.")));
    let e = json!({"trigger": "manual", "messages": [
        {"role": "user", "text": row, "toolUses": [], "handle": "r"},
        {"role": "user", "text": "Also keep the old API", "toolUses": [], "handle": "k"},
        {"role": "assistant", "text": "Kept.", "toolUses": [], "handle": "x"},
        {"role": "user", "text": "Now the lexer, please", "toolUses": [], "handle": "n"},
        {"role": "assistant", "text": "On it.", "toolUses": [], "handle": "y"},
    ]});
    h.compact(e);
    let pending = h.pending().expect("the second compaction's blocks");
    verbatim_block(&pending[0], &["Now the lexer, please"], &["[compact-plus wrote this summary", "digest made without a model"]);
}

// ---------------------------------------------------------------- refusals and unknown texts

#[test]
fn a_refusal_of_the_engines_is_no_failure_and_passes_up_as_it_came() {
    // Issue [13] item 3: `/compact` right after `/clear` is refused with this
    // text (measured on 2.1.328, tests/HOST.md); compact-plus invented a summary.
    for refusal in ["Not enough messages to compact.", "API Error: Request was aborted."] {
        let mut h = Harness::new();
        h.fake.next.insert("session.compact".into(), Err(refusal.into()));
        assert_eq!(h.compact(compact_event("manual")), Ended::passed(Err(refusal.into())), "{refusal}");
        assert!(h.fake.calls("complete").is_empty(), "{refusal}: the rescue model was asked");
        assert!(h.fake.log_lines().is_empty(), "{refusal}: {:?}", h.fake.log_lines());
        assert_eq!(h.core.session().carried().compactions, 0);
        assert_eq!(h.core.session().carried().cool_down, None);
    }
}

#[test]
fn a_rejection_in_words_the_engine_was_not_measured_to_use_is_left_to_the_engine() {
    let mut h = Harness::new();
    let words = "TypeError: undefined is not an object";
    h.fake.next.insert("session.compact".into(), Err(words.into()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Err(words.into())));
    assert!(h.fake.calls("complete").is_empty());
    assert!(h.fake.log_lines().is_empty());
    // Said once per process in the debug log, with what the engine said, then not again.
    let told = |h: &Harness| h.fake.calls("debug").iter().filter(|c| c["text"].as_str().unwrap().contains("Claude Code 2.1.328 was not measured to use")).count();
    assert_eq!(told(&h), 1);
    assert!(h.fake.calls("debug").iter().any(|c| c["text"].as_str().unwrap().ends_with(&format!("{words:?}"))));
    h.fake.next.insert("session.compact".into(), Err("RangeError: another".into()));
    assert_eq!(h.compact(compact_event("manual")), Ended::passed(Err("RangeError: another".into())));
    assert_eq!(told(&h), 1, "once per process");
    // A rebuilt instance of the same process has been told too (the state is carried).
    let carried = h.carried.clone();
    h.core = Core::rebuilt(Options::default(), &carried, 100);
    h.compact(compact_event("manual"));
    assert_eq!(told(&h), 1, "once per process, across a rebuild");
}

/// src/engine/: where a summary row does not open as 2.1.328's does (an engine
/// that words it otherwise), the engine's result stands, unchecked, and the
/// debug log says so once per process.
#[test]
fn a_summary_row_that_opens_otherwise_is_left_as_it_came_and_said_once() {
    let mut h = Harness::new();
    let reworded = json!({"messages": [{"role": "user", "text": "Here is where we left off: nothing at all useful", "toolUses": [], "handle": "sum"}], "tokensBefore": 60});
    h.fake.next.insert("session.compact".into(), Ok(reworded.clone()));
    let told = |h: &Harness| h.fake.calls("debug").iter().filter(|c| c["text"].as_str().unwrap().contains("summary row does not open as Claude Code 2.1.328's")).count();
    for _ in 0..2 {
        assert_eq!(h.compact(compact_event("manual")), Ended::passed(Ok(reworded.clone())), "no rescue of a row it cannot read");
    }
    assert!(h.fake.calls("complete").is_empty());
    assert_eq!(told(&h), 1, "once per process");
    // The blocks after the summary are made as for any summary.
    assert!(h.pending().is_some());
    // The engine's own row says nothing.
    let mut h = Harness::new();
    h.compact(compact_event("manual"));
    assert_eq!(told(&h), 0);
}

// ---------------------------------------------------------------- no retry storm

/// The turn-end job's queued `/compact` of the conversation in `queued_messages`.
fn turn_end_compaction(h: &mut Harness) {
    h.fake.tokens = json!(NEAR);
    h.turn();
    assert_eq!(h.fake.calls("queued ran").len(), 1, "the turn-end /compact ran");
}

#[test]
fn after_a_rescue_automatic_compactions_in_the_cool_down_do_not_run_the_failing_summarizer_again() {
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
    rescued(&h.compact(compact_event("manual")));
    assert_eq!(h.nexts("session.compact").len(), 1);

    // The threshold's compaction a minute later: answered without next.
    h.fake.clear();
    h.fake.now += 60_000.0;
    let (summary, _) = rescued(&h.compact(compact_event("auto")));
    assert!(h.nexts("session.compact").is_empty(), "the summarizer was asked again");
    assert!(summary.contains("summarizer failing (cool-down)") && summary.contains("(API server error) 60 s ago"), "{summary}");
    let lines = h.fake.log_lines();
    let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!((last["event"].as_str(), last["cause"].as_str()), (Some("rescue"), Some("summarizer failing (cool-down)")));

    // Another plugin's compaction, and our own turn-end `/compact` (issue [13]
    // item 8: it asked the failing summarizer 12 times before the rescue).
    h.fake.clear();
    rescued(&h.compact(compact_event("plugin")));
    turn_end_compaction(&mut h);
    assert!(h.nexts("session.compact").is_empty(), "{:?}", h.fake.ops("session.compact"));
    let lines = h.fake.log_lines();
    assert!(lines.iter().any(|l| l.contains("\"trigger\":\"turn-end\",\"cause\":\"summarizer failing (cool-down)\"")), "{lines:?}");

    // A precompute is not asked of it either: vetoed.
    h.fake.clear();
    assert!(h.compact(compact_event("precompute")).done["reason"].is_string());
    assert!(h.nexts("session.compact").is_empty());

    // After the cool-down (5 minutes for a server error) the engine is asked again.
    h.fake.clear();
    h.fake.now += 5.0 * 60_000.0;
    rescued(&h.compact(compact_event("auto")));
    assert_eq!(h.nexts("session.compact").len(), 1, "after the cool-down the engine compacts again");

    // A person's /compact asks the engine too; once its summarizer answers, the cool-down is over.
    h.fake.clear();
    h.fake.now += 60_000.0;
    h.fake.next.insert("session.compact".into(), Ok(engine_summary("Summary:\nfine again.")));
    h.compact(compact_event("manual"));
    assert_eq!(h.nexts("session.compact").len(), 1);
    h.compact(compact_event("auto"));
    assert_eq!(h.nexts("session.compact").len(), 2, "the summarizer works again: asked");
}

#[test]
fn a_transient_overload_cools_a_minute_and_a_prompt_too_long_not_at_all() {
    // Issue [13] item 8: one transient 529 kept every automatic compaction off
    // the summarizer for 15 minutes.
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_529.into()));
    rescued(&h.compact(compact_event("manual")));
    h.fake.now += 30_000.0;
    rescued(&h.compact(compact_event("auto")));
    assert_eq!(h.nexts("session.compact").len(), 1, "within the minute: not asked");
    h.fake.now += 31_000.0;
    h.fake.next.insert("session.compact".into(), Ok(engine_summary("Summary:\nback.")));
    h.compact(compact_event("auto"));
    assert_eq!(h.nexts("session.compact").len(), 2, "past the minute: asked again");

    // A prompt too long is the conversation's, not the clock's: the rescue
    // replaced that conversation, and the next compaction asks again (trimmed).
    let mut h = Harness::new();
    h.fake.next.insert("session.compact".into(), Err(FAILED_PTL.into()));
    rescued(&h.compact(compact_event("manual")));
    assert!(h.core.session().carried().ptl_seen);
    h.fake.now += 1_000.0;
    h.fake.next.insert("session.compact".into(), Ok(engine_summary("Summary:\nshorter now.")));
    h.compact(compact_event("auto"));
    assert_eq!(h.nexts("session.compact").len(), 2, "asked again at once");
}

#[test]
fn the_cool_down_is_its_conversations_and_ends_at_clear() {
    let failed = |h: &mut Harness| {
        h.fake.next.insert("session.compact".into(), Err(FAILED_500.into()));
        rescued(&h.compact(compact_event("manual")));
        h.fake.next.insert("session.compact".into(), Ok(engine_summary("Summary:\nthe new conversation's.")));
        h.fake.clear();
    };
    // `/clear`: session.end, then the new conversation's first compaction asks its summarizer.
    let mut h = Harness::new();
    failed(&mut h);
    h.fire("session.end", json!({"reason": "clear", "sessionId": SID}));
    h.fake.session_id = "99999999-9999-4999-8999-999999999999".into();
    h.compact(compact_event("auto"));
    assert_eq!(h.nexts("session.compact").len(), 1, "the new conversation's summarizer was not asked");
    // Another conversation without a session.end (a resume of another session in this process).
    let mut h = Harness::new();
    failed(&mut h);
    h.fake.session_id = "99999999-9999-4999-8999-999999999999".into();
    h.compact(compact_event("auto"));
    assert_eq!(h.nexts("session.compact").len(), 1);
    assert_eq!(h.core.session().carried().cool_down, None, "dropped once another conversation compacts");
    // A rebuilt core keeps its conversation's cool-down (carried).
    let mut h = Harness::new();
    failed(&mut h);
    let carried = h.carried.clone();
    h.core = Core::rebuilt(Options::default(), &carried, 100);
    rescued(&h.compact(compact_event("auto")));
    assert!(h.nexts("session.compact").is_empty());
}

#[test]
fn with_the_rescue_off_there_is_no_cool_down() {
    let mut h = Harness::with(Options { rescue: false, ..Options::default() });
    h.fake.next.insert("session.compact".into(), Err(FAILED_AUTO.into()));
    assert_eq!(h.compact(compact_event("auto")), Ended::passed(Err(FAILED_AUTO.into())));
    assert_eq!(h.compact(compact_event("auto")), Ended::passed(Err(FAILED_AUTO.into())));
    assert_eq!(h.nexts("session.compact").len(), 2);
}

/// `NEXT_FIRST`: the shim starts these hooks' `next` with the event as it came
/// before the core is ready (the compile at start-up), and hands its answer to
/// the core's first call, `nextResult`; so that first call must be exactly
/// that, in every state the session can be in: fresh, blocks pending, a
/// turn-end armed and the context near the threshold, after a compaction,
/// instruction files given.
#[test]
fn next_first_hooks_ask_for_nexts_result_first_in_every_state() {
    let unchanged = serde_json::to_value(compact_plus::hooks::Call::NextResult).unwrap();
    let first = |h: &mut Harness, hook: &str, e: &Value| -> Value {
        let step: Value = serde_json::from_str(&h.core.start(hook, &e.to_string())).unwrap();
        if let Some(id) = step["id"].as_u64() {
            h.core.cancel(id as u32);
        }
        step["calls"].clone()
    };
    let events = [
        ("prompt.context", json!({"blocks": [], "instructionFiles": [file("/p/CLAUDE.md", "project", "# P\n")]})),
        ("prompt.context", json!({})),
        ("turn.complete", json!({"reason": "answer", "answer": "Done.", "isAborted": false})),
        ("turn.complete", json!({"reason": "aborted", "agentId": "a1"})),
    ];
    let mut states: Vec<(&str, Harness)> = vec![("fresh", Harness::new())];
    let mut pending = Harness::new();
    pending.compact(compact_event("manual"));
    assert!(pending.pending().is_some());
    states.push(("blocks pending", pending));
    let mut near = Harness::new();
    near.fake.tokens = json!(NEAR);
    near.turn();
    states.push(("after a turn-end compaction", near));
    let mut row_only = Harness::new();
    row_only.compact(compact_event("auto"));
    states.push(("after an auto compaction", row_only));
    for (state, mut h) in states {
        for (hook, e) in &events {
            assert!(compact_plus::hooks::NEXT_FIRST.contains(hook));
            assert_eq!(first(&mut h, hook, e), json!([unchanged]), "{hook} ({state}) {e}");
        }
    }
    assert_eq!(compact_plus::hooks::NEXT_FIRST.len(), 2, "each hook listed is held to it here");
}

// ---------------------------------------------------------------- issue [16]: the person sees and steers

/// The lines the person's transcript got since the last look (each hook's `notice`).
fn notice(h: &mut Harness) -> Vec<String> {
    std::mem::take(&mut h.fake.shown)
}

/// The person runs `/<command> <args>`: `command.run` as the engine raises it (measured, tests/HOST.md).
fn command(h: &mut Harness, name: &str, args: &str) -> String {
    let e = json!({"command": name, "args": args, "origin": {"kind": "composer"}, "presentation": {"isFullscreen": false, "columns": 80}});
    let out = h.fire("command.run", e);
    assert_eq!(out.end(), "reply", "for the person alone: {out:?}");
    assert!(out.next.is_none() && h.nexts("command.run").is_empty(), "no next: nothing ran beneath, no model turn");
    out.done["text"].as_str().unwrap_or("").to_owned()
}

const KEY: &str = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl-AA";

#[test]
fn the_receipt_says_where_the_history_is_what_was_kept_and_what_was_redacted() {
    let mut h = Harness::new();
    let messages = json!([
        {"role": "user", "text": format!("Deploy with my key {KEY} please"), "toolUses": [], "handle": "h1"},
        {"role": "assistant", "text": format!("Using {KEY} now."), "toolUses": [], "handle": "h2"},
        {"role": "user", "text": "And keep the old API KIWI-16", "toolUses": [], "handle": "h3"},
    ]);
    let out = h.compact(json!({"trigger": "manual", "messages": messages}));
    assert_eq!(out.end(), "passThrough", "the engine's result as it came: {out:?}");
    let lines = notice(&mut h);
    assert_eq!(lines.len(), 2, "{lines:?}");
    let file = history_file("manual");
    let written = h.fake.text(&file).unwrap().len();
    let shown = file.replace(HOME, "~");
    assert!(lines[0].starts_with(&format!("history saved to {shown} (")), "{}", lines[0]);
    assert!(lines[0].contains(&format!("({})", compact_plus::steer::receipt::size(written))), "{} vs {written} bytes", lines[0]);
    assert!(lines[0].contains("2 of your messages kept word for word"), "{}", lines[0]);
    // One key, pasted once and echoed once: one credential, by kind, never the value.
    assert_eq!(lines[1], "redacted 1 credential (1 anthropic-key): the model sees [REDACTED:<kind>] in their place, so paste a key again if it needs one");
    assert!(!lines.concat().contains("sk-ant-api03"));
    // Nothing of it reaches the model: not in the blocks.
    assert!(!h.pending().unwrap().concat().contains("history saved to"));
}

#[test]
fn the_receipt_counts_the_words_the_budget_left_out_and_the_items_listed() {
    // 100 tokens, about 400 characters: the newest message (about 250) leaves no room for another.
    let mut h = Harness::with(Options { verbatim_tokens: 100.0, ..Options::default() });
    let long = |n: usize| format!("{n}: edit crates/parser/src/lib{n}.rs {}", "word ".repeat(60));
    let newest = format!("Then run the suite {}", "now ".repeat(56));
    let messages = json!([
        {"role": "user", "text": long(1), "toolUses": [], "handle": "h1"},
        {"role": "user", "text": long(2), "toolUses": [], "handle": "h2"},
        {"role": "user", "text": newest, "toolUses": [], "handle": "h3"},
    ]);
    h.compact(json!({"trigger": "manual", "messages": messages}));
    let lines = notice(&mut h);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("1 of your messages kept word for word, 2 older left out by the budget"), "{}", lines[0]);
    let listed = h.pending().unwrap().concat().matches("\n- ").count();
    assert!(listed > 0 && lines[0].contains(&format!("{listed} item")), "{listed}: {}", lines[0]);
    // Option off: no line at all.
    let mut off = Harness::with(Options { receipt: false, ..Options::default() });
    off.compact(compact_event("manual"));
    assert_eq!(notice(&mut off), Vec::<String>::new());
}

#[test]
fn a_rescue_receipt_says_the_engine_failed_and_who_wrote_the_summary() {
    for (completions, author) in [
        (vec![json!({"isAnswered": true, "text": "## Decisions\n- keep the parser\n## Open Questions\n- none", "usage": {}})], "the rescue model (haiku) wrote the summary"),
        (vec![], ": the summary is compact-plus's digest"),
    ] {
        let mut h = Harness::new();
        h.fake.completions = completions.into();
        h.fake.next.insert("session.compact".into(), Err(FAILED_PTL.into()));
        let out = h.compact(compact_event("manual"));
        assert_eq!(out.end(), "compacted", "{out:?}");
        assert!(out.done["summary"].as_str().unwrap().contains("compact-plus wrote this summary"), "{out:?}");
        let lines = notice(&mut h);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("Claude Code's own compaction failed (prompt too long); compact-plus compacted in its place: "), "{}", lines[0]);
        assert!(lines[0].contains(author), "{}", lines[0]);
        assert!(lines[1].starts_with("history saved to ~/.claude/compact-history/"), "{}", lines[1]);
    }
}

const PIN: &str = "Never push to main; open a pull request. PIN-16";

#[test]
fn a_pin_rides_with_the_words_after_every_compaction_and_in_a_new_process() {
    let mut h = Harness::new();
    let reply = command(&mut h, "pin", &format!("  {PIN}  "));
    assert!(reply.starts_with(&format!("pinned as pin 1 (\"{PIN}\", ")), "{reply}");
    assert_eq!(command(&mut h, "pin", "").lines().nth(1), Some(format!("  1. {PIN}").as_str()));
    // Kept in the history folder (a pin-only folder has a log line, so pruning sees it).
    assert_eq!(compact_plus::steer::pins::parse(h.fake.text(&format!("{}/.pins.json", dir())).unwrap()), vec![PIN.to_owned()]);
    assert!(h.fake.log_lines().iter().any(|l| l.contains("\"event\":\"pin\"")));
    // An answer after the /pin: its line is the summarizer's, the pin comes with the words.
    h.turn();
    let mut block = terminal_compact(&mut h, None, json!([{"role": "user", "text": PLAN, "toolUses": [], "handle": "p1"}]), "sum-1");
    for n in 2..=5 {
        assert_eq!(block.matches(PIN).count(), 1, "compaction {}: {block}", n - 1);
        assert!(block.find("<user-pinned>").unwrap() < block.find("<user-messages-verbatim>").unwrap());
        block = terminal_compact(&mut h, None, after_compaction(n - 1, SUMMARY_TEXT, &[&format!("step {n}")]), &format!("sum-{n}"));
    }
    assert_eq!(block.matches(PIN).count(), 1, "compaction 5: {block}");
    // A new process of the session (`--resume`): a core with nothing in its state reads the file.
    h.core = Core::new(Options::default());
    h.fake.next.insert("session.compact".into(), Ok(summary_only("sum-6")));
    h.compact(json!({"trigger": "manual", "messages": after_compaction(5, SUMMARY_TEXT, &["after the resume"])}));
    let lines = notice(&mut h);
    assert!(lines[0].contains("1 pin kept"), "{lines:?}");
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(context_block(&out).unwrap().matches(PIN).count(), 1);
}

#[test]
fn unpin_takes_a_pin_out_of_the_file_and_of_blocks_still_waiting() {
    let mut h = Harness::new();
    command(&mut h, "pin", PIN);
    command(&mut h, "pin", "second pin PIN-TWO");
    h.turn();
    // A terminal /compact: its blocks wait for the next prompt, the pins in them.
    h.fake.next.insert("session.compact".into(), Ok(summary_only("sum-1")));
    h.compact(json!({"trigger": "manual", "messages": messages()}));
    assert_eq!(h.pending_state().unwrap().pins.len(), 2);
    assert!(notice(&mut h)[0].ends_with(" · 2 pins kept"));
    let reply = command(&mut h, "unpin", "1");
    assert!(reply.starts_with(&format!("unpinned \"{PIN}\"; 1 pin left")), "{reply}");
    assert_eq!(h.pending_state().unwrap().pins, vec!["second pin PIN-TWO".to_owned()]);
    let on_disk: Value = serde_json::from_str(h.fake.text(&format!("{}/pending-blocks.json", dir())).unwrap()).unwrap();
    assert_eq!(on_disk["pins"], json!(["second pin PIN-TWO"]));
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    let block = context_block(&out).unwrap();
    assert!(!block.contains(PIN) && block.contains("PIN-TWO"));
    assert!(command(&mut h, "unpin", "7").starts_with("nothing unpinned: give the number of a pin, from 1 to 1"));
    assert!(command(&mut h, "unpin", "1").starts_with("unpinned \"second pin PIN-TWO\"; 0 pins left"));
    h.fake.next.insert("session.compact".into(), Ok(summary_only("sum-2")));
    h.compact(json!({"trigger": "manual", "messages": messages()}));
    let lines = notice(&mut h);
    assert!(h.pending_state().unwrap().pins.is_empty());
    assert!(!lines[0].contains("pin"), "{lines:?}");
}

#[test]
fn a_pin_is_redacted_bounded_and_never_twice_in_one_context() {
    let mut h = Harness::new();
    let reply = command(&mut h, "pin", &format!("deploy key {KEY}"));
    assert!(reply.contains("Credentials in it are kept as [REDACTED:<kind>]"), "{reply}");
    let kept = h.fake.text(&format!("{}/.pins.json", dir())).unwrap().to_owned();
    assert!(kept.contains("deploy key [REDACTED:anthropic-key]") && !kept.contains("sk-ant"), "{kept}");
    // Past 2,000 tokens in all a pin is refused, and nothing changes.
    let big = "x".repeat(8_000);
    assert!(command(&mut h, "pin", &big).starts_with("not pinned: 2000 tokens, past the 2000 all pins may hold ("));
    assert_eq!(compact_plus::steer::pins::parse(h.fake.text(&format!("{}/.pins.json", dir())).unwrap()).len(), 1);
    // The person also said the pinned text as a message: the words carry it, the pin is left out.
    command(&mut h, "pin", "Also keep the old API");
    h.turn();
    h.fake.next.insert("session.compact".into(), Ok(summary_only("sum-1")));
    h.compact(json!({"trigger": "manual", "messages": messages()}));
    let lines = notice(&mut h);
    let pending = h.pending_state().unwrap();
    assert_eq!(pending.pins, vec!["deploy key [REDACTED:anthropic-key]".to_owned()]);
    let text = pending.render(Channel::Prompt).concat();
    assert_eq!(text.matches("Also keep the old API").count(), 1, "{text}");
    assert!(lines[0].contains(" · 2 pins kept"), "{lines:?}");
    // The engine kept the message after its summary (an automatic compaction at a prompt): the same.
    h.fake.next.insert("session.compact".into(), Ok(json!({"messages": [
        {"role": "user", "text": SUMMARY_TEXT, "toolUses": [], "handle": "s"},
        {"role": "user", "text": "deploy key [REDACTED:anthropic-key] now", "toolUses": [], "handle": "k"}]})));
    h.compact(json!({"trigger": "auto", "messages": messages()}));
    assert!(h.pending_state().unwrap().pins.is_empty(), "{:?}", h.pending_state());
}

#[test]
fn the_command_rows_keep_a_recall_query_and_a_pin_from_the_model() {
    let row = |name: &str, args: &str| json!({"door": "command", "origin": {"kind": "engine"}, "uuid": "r1", "message": {"type": "user", "role": "user", "content": [
        {"type": "text", "text": format!("<command-name>/{name}</command-name>\n            <command-message>{name}</command-message>\n            <command-args>{args}</command-args>")}]}});
    let mut h = Harness::new();
    h.fake.next.insert("session.append".into(), Ok(json!({"message": {}, "uuid": "r1"})));
    for (name, args) in [("recall", "the walrus parser".to_owned()), ("pin", format!("key {KEY}"))] {
        let out = h.append(row(name, &args));
        assert_eq!(out.end(), "rewritten", "{out:?}");
        assert!(out.next.is_none(), "the shim calls next with the row rewritten");
        assert_eq!(out.done["content"], json!([format!("<command-name>/{name}</command-name>\n            <command-message>{name}</command-message>\n            <command-args></command-args>")]));
    }
    // Every other row goes as it came: the shim's own next, no change.
    for (name, args) in [("compact", "keep KIWI"), ("unpin", "2"), ("pin", "")] {
        assert_eq!(h.append(row(name, args)).done, pass_through(), "{name}");
    }
    assert!(h.nexts("session.append").is_empty());
}

#[test]
fn recall_for_the_person_runs_the_tools_own_searches() {
    let mut h = Harness::new();
    h.fake.add_file(&history_file("manual"), "# history\n## [1] user\n\nthe walrus parser\n", NOW);
    let reply = command(&mut h, "recall", "walrus parser");
    let searches = h.fake.calls("search");
    assert_eq!(searches.len(), 2, "this session's history, then the project's");
    // The tool's own requests (`recall_tool::Recall`), as its tool.call hands them to the module.
    assert_eq!(searches[0]["request"]["session"]["paths"], json!([history_file("manual")]), "{}", searches[0]);
    assert_eq!(searches[0]["request"]["session"]["query"]["text"], json!("walrus parser"));
    assert_eq!(searches[1]["request"]["project"]["project"]["search"]["query"]["text"], json!("walrus parser"), "{}", searches[1]);
    assert_eq!(searches[1]["request"]["project"]["historyDir"], json!(dir()));
    assert!(reply.starts_with("recall \"walrus parser\"\n\nthis session"), "{reply}");
    assert!(reply.contains("SEARCHED") && reply.ends_with("(for you alone: nothing of this goes to the model)"));
    // Off: nothing searched.
    let mut off = Harness::with(Options { recall: Reach::Off, ..Options::default() });
    assert!(command(&mut off, "recall", "walrus").starts_with("recall is turned off"));
    assert!(off.fake.calls("search").is_empty());
}

const OTHER: &str = "22222222-2222-4222-8222-222222222222";
const SUMMARY_16: &str = "This session is being continued from a previous conversation.\n\nSummary:\n1. Primary Request and Intent:\n   Fix the parser.\n\n7. Pending Tasks:\n   - Re-run the suite NEXT-KIWI\n\n## Open Questions\n- Keep the API? OPEN-LIME\n";

/// An earlier session of this project (`/work/app`) that compacted `days` ago.
fn earlier_session(h: &mut Harness, id: &str, days: f64, project: &str) {
    let at = NOW - days * DAY;
    h.fake.add_file(&format!("{HOME}/.claude/projects/{project}/{id}.jsonl"), "{}\n", at);
    h.fake.add_file(&format!("{ROOT}/{id}/2023-11-10T101500Z-manual.summary.md"), SUMMARY_16, at);
}

/// The brief in a prompt.context's end, where there is one.
fn brief_block(out: &Value) -> Option<String> {
    let block = out.get("contextBlock").filter(|b| b["name"] == "compact-plus-brief")?;
    Some(block["text"].as_str().unwrap_or("").to_owned())
}

#[test]
fn a_new_session_gets_the_brief_from_the_newest_earlier_summary_once() {
    let mut h = Harness::new();
    earlier_session(&mut h, OLD, 3.0, "-work-app");
    earlier_session(&mut h, OTHER, 40.0, "-work-app"); // past keepDays
    earlier_session(&mut h, "33333333-3333-4333-8333-333333333333", 0.5, "-work-elsewhere"); // another project
    h.fake.rows = Some(json!([]));
    let out = context(&mut h, json!({"blocks": []}), json!({"blocks": []}));
    assert_eq!(out["end"], "amended", "{out}");
    let brief = brief_block(&out).expect("a brief");
    assert!(brief.starts_with("From compact-plus: a brief from an earlier session of this project (session 11111111, its summary saved 2023-11-10 10:15 UTC)"), "{brief}");
    assert!(brief.contains("NEXT-KIWI") && brief.contains("OPEN-LIME") && !brief.contains("Fix the parser"), "{brief}");
    assert!(brief.len() <= 2400, "{}", brief.len());
    let lines = notice(&mut h);
    assert!(lines[0].starts_with("gave the model a brief from an earlier session of this project (11111111"), "{lines:?}");
    // Once: the next prompt's context gets none.
    h.fake.rows = Some(json!([{"role": "user", "text": "hello"}]));
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None);
    // In the terminal the context is asked after the first prompt is kept, maybe after a command:
    // the person's rows alone, no answer, are still a new session.
    let mut h = Harness::new();
    earlier_session(&mut h, OLD, 3.0, "-work-app");
    h.fake.rows = Some(json!([{"role": "user", "text": "<command-name>/pin</command-name>"}, {"role": "user", "text": "Where were we?"}]));
    assert!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))).is_some());
}

#[test]
fn no_brief_for_a_resumed_session_a_project_without_summaries_or_the_option_off() {
    // Resumed: the conversation has rows at its first prompt.
    let mut h = Harness::new();
    earlier_session(&mut h, OLD, 1.0, "-work-app");
    h.fake.rows = Some(json!([{"role": "assistant", "text": "Done."}]));
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None);
    h.fake.rows = Some(json!([]));
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None, "decided once per process");
    // Not bound yet (headless, a resumed process's first): decided at the next one.
    let mut h = Harness::new();
    earlier_session(&mut h, OLD, 1.0, "-work-app");
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None);
    h.fake.rows = Some(json!([{"role": "user", "text": "hello two"}, {"role": "assistant", "text": "Hello."}]));
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None);
    // Resumed right after a /compact: the summary row and the command's rows, no answer yet.
    let mut h = Harness::new();
    earlier_session(&mut h, OLD, 1.0, "-work-app");
    h.fake.rows = Some(json!([{"role": "user", "text": SUMMARY_TEXT}, {"role": "user", "text": "<command-name>/compact</command-name>"}]));
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None);
    // No earlier summary of this project.
    let mut h = Harness::new();
    earlier_session(&mut h, OLD, 1.0, "-work-elsewhere");
    h.fake.rows = Some(json!([]));
    assert_eq!(context(&mut h, json!({"blocks": []}), json!({"blocks": []})), pass_through());
    assert!(notice(&mut h).is_empty());
    // Option off.
    let mut h = Harness::with(Options { session_brief: false, ..Options::default() });
    earlier_session(&mut h, OLD, 1.0, "-work-app");
    h.fake.rows = Some(json!([]));
    assert_eq!(brief_block(&context(&mut h, json!({"blocks": []}), json!({"blocks": []}))), None);
    assert!(h.fake.calls("messages").is_empty());
}

#[test]
fn a_pin_comes_in_the_block_whatever_command_rows_follow_the_summary() {
    // Whether the engine sends the command rows typed before a /compact after its summary is not
    // steady (measured in the terminal: tests/HOST.md); the /pin line holds no text (rewritten), so
    // the block always gives the pin, and only it.
    let mut h = Harness::new();
    command(&mut h, "pin", PIN);
    let mut rows = messages().as_array().unwrap().clone();
    rows.push(json!({"role": "user", "text": "<command-name>/pin</command-name>\n            <command-message>pin</command-message>\n            <command-args></command-args>", "toolUses": [], "handle": "c1"}));
    let block = terminal_compact(&mut h, None, Value::Array(rows), "sum-1");
    assert_eq!(block.matches(PIN).count(), 1, "{block}");
    assert!(block.contains("<user-pinned>"));
}
