//! Plays the JS shim for `hooks::Core`, with answers drawn from a byte source.
//!
//! Most answers are what a real host gives (so the hooks go deep: history
//! written, old folders pruned, instruction files refreshed); the rest are errors,
//! values of the wrong shape, `{}` (`undefined`), or an answers list that is not
//! JSON at all. A hook must end in `done` whatever it is told, within a bounded
//! number of steps, and never panic.

use compact_plus::hooks::Core;
use serde_json::{json, Value};

use crate::gen::{self, below, flag, pick, Source};

/// How one hook run ended.
#[derive(Debug, PartialEq)]
pub enum Ending {
    /// `{"done": ...}`: the hook ended and the engine's result comes through.
    Done(Value),
    /// `{"lost": why}`: no hook to go on with (an unknown hook, a lost id); the
    /// shim lets the engine's result through.
    Lost,
}

/// What went wrong with a run.
#[derive(Debug)]
pub enum Fault {
    /// Still asking after this many steps.
    Endless(usize),
    /// A step's answer that is not one of the wire shapes.
    BadWire(String),
}

const SESSION: &str = "3e771ee8-7a5c-472f-8c77-3dfd1e6415f3";

thread_local! {
    static ANSWERED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Bytes of answers handed to the core since the last `play`, `session` or
/// `interleaved` began: with the event, the size of what a run processed.
pub fn answered() -> usize {
    ANSWERED.with(std::cell::Cell::get)
}

fn count_answer(reply: &str) {
    ANSWERED.with(|a| a.set(a.get() + reply.len()));
}

fn reset_answered() {
    ANSWERED.with(|a| a.set(0));
}

fn answer_for<S: Source + ?Sized>(s: &mut S, hook: &str, call: &Value) -> Value {
    // One answer in eight is an error, one in eight a value of any shape.
    match s.byte() % 8 {
        6 => return json!({ "err": gen::text(s) }),
        7 => {
            return match s.byte() % 4 {
                0 => json!({}),
                1 => json!({ "ok": null }),
                _ => json!({ "ok": gen::json(s, 3) }),
            }
        }
        _ => {}
    }
    let op = call.get("op").and_then(Value::as_str).unwrap_or("");
    let ok = match op {
        "env" => match call.get("name").and_then(Value::as_str) {
            Some("OS") => json!(*pick(s, &["Linux", "Windows_NT"])),
            _ => match s.byte() % 6 {
                0..=2 => json!("/home/u"),
                3 => json!("C:\\Users\\u"),
                4 => Value::Null,
                _ => json!(*pick(s, &["", "/", "relative", "/h/../x", "\\\\srv\\share"])),
            },
        },
        "sessionId" => match s.byte() % 4 {
            0..=2 => json!(SESSION),
            _ => json!(*pick(s, &["", "..", "a/b", "x".repeat(300).as_str()])),
        },
        "now" => match s.byte() % 4 {
            0..=2 => json!(1_764_457_502_123.0 + below(s, 1 << 16) as f64 * 1000.0),
            _ => serde_json::Number::from_f64(gen::number(s)).map_or(Value::Null, Value::Number),
        },
        "exists" => json!(flag(s)),
        "read" => json!(if flag(s) { gen::instruction_text(s) } else { gen::text(s) }),
        "write" | "debug" | "after" | "run" | "compact" | "command" => Value::Null,
        "list" => {
            let entries: Vec<Value> = (0..below(s, 6))
                .map(|i| {
                    let name = match s.byte() % 8 {
                        0 => gen::text(s),
                        1 | 2 => format!("2026-11-29T2327{:02}Z-{}.md", below(s, 60), *pick(s, &["manual", "auto", "x"])),
                        3 => (*pick(s, &["log.jsonl", ".hidden.md", "a.part2.md", "x.md"])).to_owned(),
                        _ => format!("{:08x}-0000-4000-8000-{:012x}", i, below(s, 4)),
                    };
                    json!({ "name": name, "kind": *pick(s, &["dir", "file", "link"]), "isLink": s.byte() % 8 == 0 })
                })
                .collect();
            json!(entries)
        }
        "stat" => {
            let path = call.get("path").cloned().unwrap_or(Value::Null);
            json!({
                "kind": *pick(s, &["dir", "file", "missing"]),
                "mtimeMs": if flag(s) { json!(0) } else { json!(1_764_457_502_123.0) },
                "isLink": s.byte() % 8 == 0,
                "realPath": if s.byte() % 4 == 0 { json!("/elsewhere") } else { path },
            })
        }
        "usage" => json!({
            "context": {
                "tokens": below(s, 200_000),
                "breakdown": {
                    "isAutoCompactEnabled": s.byte() % 4 != 0,
                    "autoCompactThreshold": if flag(s) { json!(100_000) } else { gen::json(s, 0) },
                },
            },
        }),
        "startNext" => Value::Null,
        // `$.session.messages` (the brief's rows) and the recall module's answer to `search`
        // (`/recall`): their usual shapes, odd values inside
        "messages" => gen::messages(s),
        "search" => json!(gen::text(s)),
        "texts" => {
            let n = call.get("messages").and_then(Value::as_array).map_or(0, Vec::len);
            let n = if s.byte() % 8 == 0 { below(s, n + 2) } else { n };
            json!((0..n).map(|_| if s.byte() % 8 == 0 { gen::json(s, 0) } else { json!(gen::text(s)) }).collect::<Vec<_>>())
        }
        "pack" => {
            // Numbers where texts were, some past the list; odd lengths.
            let mut messages = gen::messages(s);
            for m in messages.as_array_mut().into_iter().flatten() {
                if m.is_object() && flag(s) {
                    m["text"] = json!(below(s, 10));
                }
            }
            let lens: Vec<usize> = (0..below(s, 8)).map(|_| below(s, 200)).collect();
            json!({ "lens": lens, "event": { "messages": messages } })
        }
        "next" | "nextResult" => match hook {
            "session.compact" => json!({
                "messages": gen::messages(s),
                "tokensBefore": below(s, 200_000),
                "tokensAfter": below(s, 200_000),
            }),
            "prompt.context" => json!({
                "instructionFiles": (0..below(s, 4)).map(|_| json!({
                    "path": format!("/p/CLAUDE{}.md", below(s, 4)),
                    "kind": *pick(s, &["project", "memory", "user"]),
                    "content": gen::instruction_text(s),
                })).collect::<Vec<_>>(),
            }),
            _ => json!({}),
        },
        _ => gen::json(s, 2),
    };
    json!({ "ok": ok })
}

/// Fetches the long texts a batch's writes hand out by reference, as the shim
/// does before it writes them.
fn take_texts(core: &mut Core, calls: &[Value]) {
    for c in calls {
        if let Some(r) = c.get("textRef").and_then(Value::as_u64) {
            let text = core.take_text(usize::try_from(r).unwrap_or(usize::MAX));
            count_answer(&text);
        }
    }
}

/// The texts a `pack` answer hands over beside the JSON: any bytes, valid UTF-8
/// or not, as many as the source gives.
fn packed_texts<S: Source + ?Sized>(s: &mut S, calls: &[Value]) -> Option<Vec<u8>> {
    if !calls.iter().any(|c| c.get("op").and_then(Value::as_str) == Some("pack")) {
        return None;
    }
    Some(match s.byte() % 4 {
        0 => (0..below(s, 600)).map(|_| s.byte()).collect(),
        _ => gen::text(s).into_bytes(),
    })
}

/// Resumes `id` as the shim does: with the packed texts beside, when asked.
fn resume<S: Source + ?Sized>(core: &mut Core, id: u32, hook: &str, calls: &[Value], s: &mut S) -> String {
    let reply = answers(s, hook, calls);
    count_answer(&reply);
    match packed_texts(s, calls) {
        Some(bytes) => {
            ANSWERED.with(|a| a.set(a.get() + bytes.len()));
            core.resume_packed(id, &reply, bytes)
        }
        None => core.resume(id, &reply),
    }
}

/// The shim's answers to a batch of calls, as JSON text.
fn answers<S: Source + ?Sized>(s: &mut S, hook: &str, calls: &[Value]) -> String {
    match s.byte() % 32 {
        // not JSON, not a list, or the wrong number of answers
        29 => (*pick(s, &["", "garbage", "{}", "null", "[", "[1,2,3]", "[null]"])).to_owned(),
        30 => Value::Array(calls.iter().skip(1).map(|c| answer_for(s, hook, c)).collect()).to_string(),
        31 => {
            let mut all: Vec<Value> = calls.iter().map(|c| answer_for(s, hook, c)).collect();
            all.push(json!({ "ok": 1 }));
            Value::Array(all).to_string()
        }
        _ => Value::Array(calls.iter().map(|c| answer_for(s, hook, c)).collect()).to_string(),
    }
}

/// Runs `hook` on `event` to its end, answering every call from `s`.
pub fn play<S: Source + ?Sized>(core: &mut Core, hook: &str, event: &str, s: &mut S, max_steps: usize) -> Result<Ending, Fault> {
    reset_answered();
    play_on(core, hook, event, s, max_steps)
}

fn play_on<S: Source + ?Sized>(core: &mut Core, hook: &str, event: &str, s: &mut S, max_steps: usize) -> Result<Ending, Fault> {
    let mut out = core.start(hook, event);
    for _ in 0..max_steps {
        let step: Value = serde_json::from_str(&out).map_err(|_| Fault::BadWire(out.clone()))?;
        if let Some(done) = step.get("done") {
            return Ok(Ending::Done(done.clone()));
        }
        if step.get("lost").is_some_and(Value::is_string) {
            return Ok(Ending::Lost);
        }
        let (Some(id), Some(calls)) = (step.get("id").and_then(Value::as_u64), step.get("calls").and_then(Value::as_array)) else {
            return Err(Fault::BadWire(out));
        };
        if calls.is_empty() {
            return Err(Fault::BadWire(out));
        }
        let id = u32::try_from(id).map_err(|_| Fault::BadWire(out.clone()))?;
        take_texts(core, calls);
        out = resume(core, id, hook, calls, s);
    }
    Err(Fault::Endless(max_steps))
}

/// Steps enough for any run: a prune looks at each listed folder in turn.
pub const MAX_STEPS: usize = 1_000;

/// Several hooks on one core, as a session runs them, each to its end.
pub fn session<S: Source + ?Sized>(s: &mut S, hooks: usize) -> Result<Vec<Ending>, Fault> {
    reset_answered();
    // The options are work the core does (it parses them): counted, as the answers are.
    let options = options(s);
    count_answer(&options);
    let mut core = Core::new(compact_plus::hooks::Options::from_json(&options));
    let mut endings = Vec::new();
    for _ in 0..hooks {
        let hook = *pick(s, &gen::HOOKS);
        let event = gen::event(s, hook);
        count_answer(&event);
        endings.push(play_on(&mut core, hook, &event, s, MAX_STEPS)?);
    }
    Ok(endings)
}

/// `register(on, options)`'s options, odd values included.
pub fn options<S: Source + ?Sized>(s: &mut S) -> String {
    match s.byte() % 4 {
        0 => "{}".into(),
        1 => json!({ "turnEndPercent": below(s, 120), "verbatimUserTokens": below(s, 20_000), "keepDays": below(s, 60) }).to_string(),
        2 => json!({ "turnEndPercent": gen::json(s, 0), "verbatimUserTokens": gen::json(s, 0), "keepDays": gen::json(s, 0) }).to_string(),
        _ => gen::json(s, 2).to_string(),
    }
}

/// Several hooks in flight at once on one core, resumed in an order drawn from
/// `s` (a turn-end compaction waiting on its delay while the compaction runs).
/// Every run ends in `done`, or `lost` for one the core let go of (it keeps at
/// most 64 in flight).
pub fn interleaved<S: Source + ?Sized>(s: &mut S, hooks: usize) -> Result<Vec<Ending>, Fault> {
    reset_answered();
    // The options are work the core does (it parses them): counted, as the answers are.
    let options = options(s);
    count_answer(&options);
    let mut core = Core::new(compact_plus::hooks::Options::from_json(&options));
    let mut endings = Vec::new();
    // (hook, id, calls) of each run still asking
    let mut open: Vec<(&'static str, u32, Vec<Value>)> = Vec::new();
    let mut steps = 0;
    let mut started = 0;
    while started < hooks || !open.is_empty() {
        steps += 1;
        if steps > MAX_STEPS * hooks.max(1) {
            return Err(Fault::Endless(steps));
        }
        let out = if started < hooks && (open.is_empty() || flag(s)) {
            started += 1;
            let hook = *pick(s, &gen::HOOKS);
            let event = gen::event(s, hook);
            count_answer(&event);
            (hook, core.start(hook, &event))
        } else {
            let at = below(s, open.len());
            let (hook, id, calls) = open.swap_remove(at);
            take_texts(&mut core, &calls);
            (hook, resume(&mut core, id, hook, &calls, s))
        };
        let (hook, out) = out;
        let step: Value = serde_json::from_str(&out).map_err(|_| Fault::BadWire(out.clone()))?;
        if let Some(done) = step.get("done") {
            endings.push(Ending::Done(done.clone()));
        } else if step.get("lost").is_some_and(Value::is_string) {
            endings.push(Ending::Lost);
        } else {
            let (Some(id), Some(calls)) = (step.get("id").and_then(Value::as_u64), step.get("calls").and_then(Value::as_array)) else {
                return Err(Fault::BadWire(out));
            };
            let id = u32::try_from(id).map_err(|_| Fault::BadWire(out.clone()))?;
            open.push((hook, id, calls.clone()));
        }
    }
    Ok(endings)
}
