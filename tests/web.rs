//! The reference's exports through the JS boundary: what a caller of `lib.js`
//! gets from the wasm build (run with `cargo test --target wasm32-unknown-unknown`,
//! in Node). Values go in and come out as JS values, as the shim and the golden
//! vectors use them.
#![cfg(target_arch = "wasm32")]

use compact_plus::bindings::*;
use js_sys::{Array, JSON, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

fn js(json: &str) -> JsValue {
    JSON::parse(json).unwrap()
}

fn json(v: &JsValue) -> String {
    JSON::stringify(v).unwrap().as_string().unwrap()
}

#[wasm_bindgen_test]
fn constants_are_the_references() {
    let c = constants();
    assert_eq!(Reflect::get(&c, &"CHARS_PER_TOKEN".into()).unwrap().as_f64(), Some(4.0));
    assert_eq!(Reflect::get(&c, &"VERBATIM_OPEN".into()).unwrap().as_string().unwrap(), "<user-messages-verbatim>");
}

#[wasm_bindgen_test]
fn select_verbatim_returns_plain_objects_without_absent_handles() {
    let messages = js(r#"[{"role":"user","text":"one","handle":"h1"},{"role":"user","text":"two"},
                          {"role":"assistant","text":"x"},null,{"role":"user","text":5}]"#);
    let out = select_verbatim(messages, JsValue::from(8000));
    assert!(Array::is_array(&out));
    assert_eq!(json(&out), r#"[{"text":"one","handle":"h1"},{"text":"two"}]"#);
    let second = Array::from(&out).get(1);
    assert!(!Reflect::has(&second, &"handle".into()).unwrap());
}

#[wasm_bindgen_test]
fn budgets_that_are_not_positive_numbers_keep_nothing() {
    let messages = js(r#"[{"role":"user","text":"one"}]"#);
    for budget in [JsValue::from(0), JsValue::from(-5), JsValue::from(f64::NAN), JsValue::UNDEFINED, JsValue::NULL] {
        assert_eq!(json(&select_verbatim(messages.clone(), budget)), "[]");
    }
    assert_eq!(json(&select_verbatim(messages, JsValue::from(f64::INFINITY))), r#"[{"text":"one"}]"#);
}

#[wasm_bindgen_test]
fn cut_middle_counts_utf16_and_keeps_graphemes() {
    let s = "a".repeat(10);
    assert_eq!(cut_middle(s.clone().into(), 20.into(), JsValue::UNDEFINED), s);
    assert_eq!(
        cut_middle(s.into(), 4.into(), "n".into()),
        "aa\n[... 6 characters cut; n ...]\naa"
    );
    // Emoji are two UTF-16 units each: a cut at 2 would split the second one.
    let e = "😀😀😀😀";
    let cut = cut_middle(e.into(), 4.into(), "n".into());
    assert!(cut.starts_with("😀\n[..."), "{cut}");
    assert!(cut.ends_with("...]\n😀"), "{cut}");
}

#[wasm_bindgen_test]
fn render_history_with_bad_messages_keeps_numbering() {
    let messages = js(r#"[{"role":"user","text":"hi"},null,{"role":"assistant","text":"","toolUses":
        [{"tool":"Bash","input":{"z":1,"a":2},"text":"out","isError":true}]}]"#);
    let meta = js(r#"{"sessionId":"s","at":"t","trigger":"manual"}"#);
    let h = render_history(messages, meta);
    assert!(h.contains("s, compacted t (manual), 3 messages."), "{h}");
    assert!(h.contains("## [0] user\n\nhi\n"));
    assert!(h.contains("## [2] assistant\n\n### tool Bash (error)\ninput: {\"z\":1,\"a\":2}\nresult:\nout\n"), "{h}");
}

#[wasm_bindgen_test]
fn a_message_list_that_will_not_stringify_costs_one_message() {
    let good = js(r#"{"role":"user","text":"kept"}"#);
    let bad = js(r#"{"role":"user"}"#);
    Reflect::set(&bad, &"text".into(), &JsValue::bigint_from_str("1")).unwrap();
    let list = Array::of2(&good, &bad);
    assert_eq!(json(&select_verbatim(list.into(), 100.into())), r#"[{"text":"kept"}]"#);
}

#[wasm_bindgen_test]
fn strings_and_fallbacks() {
    assert_eq!(person_text("  hi \n".into()), "hi");
    assert_eq!(person_text(JsValue::from(5)), "");
    assert_eq!(join_instructions(" own ".into(), "extra".into()), "own\n\nextra");
    assert_eq!(join_instructions(JsValue::UNDEFINED, "extra".into()), "extra");
    assert_eq!(stamp(JsValue::from(0)), "1970-01-01T000000Z");
    assert_eq!(stamp(JsValue::from(f64::NAN)), "");
    assert!(same_text("a \r\nb".into(), "a\nb\n".into()));
    assert!(!same_text(JsValue::from(1), "1".into()));
    assert_eq!(strip_instruction_text("---\na\n---\nx<!-- c -->".into()), "x");
    assert!(pointer_text("/f.md".into(), "/d".into()).contains("\"/f.md\""));
    assert!(handoff_instructions("hello".into()).contains("beginning \"hello\" onward"));
    assert_eq!(json(&carried_messages(js("[]"))), "[]");
    let block = render_verbatim(js(r#"[{"text":"a"},{"text":"b"}]"#));
    assert_eq!(json(&carried_messages(js(&format!("[{{\"role\":\"user\",\"text\":{}}}]", json(&block.into()))))), r#"["a","b"]"#);
}

#[wasm_bindgen_test]
fn the_hook_driver_speaks_json() {
    init("{}", "", 1);
    let step = start("session.append", r#"{"message":{"type":"user","role":"user","content":[]}}"#);
    assert_eq!(step, r#"{"done":{"end":"passThrough"}}"#);
    assert_eq!(start("no.such.hook", "{}"), r#"{"lost":"no such hook"}"#);
    assert_eq!(resume(999, "[]"), r#"{"lost":"no hook of this id in flight"}"#);
    let step = start("turn.complete", r#"{"reason":"answer"}"#);
    assert!(step.starts_with(r#"{"id":"#) && step.contains(r#""calls":[{"op":"nextResult"}]"#), "{step}");
}

/// A session.compact as the shim runs it: roles first, the person's texts, then
/// every text as UTF-8 through `resumePacked` while the summarizer works.
#[wasm_bindgen_test]
fn session_compact_takes_its_texts_late_and_as_bytes() {
    init("{}", "", 1);
    let roles = r#"{"trigger":"manual","textsDeferred":true,"messages":[{"role":"user","handle":"h1"},{"role":"assistant"}]}"#;
    let mut step: serde_json::Value = serde_json::from_str(&start("session.compact", roles)).unwrap();
    let mut history = None;
    let mut ops = Vec::new();
    for _ in 0..20 {
        let Some(calls) = step["calls"].as_array().cloned() else { break };
        let id = step["id"].as_u64().unwrap() as u32;
        let mut bytes = None;
        let answers: Vec<serde_json::Value> = calls
            .iter()
            .map(|c| {
                let op = c["op"].as_str().unwrap().to_owned();
                ops.push(op.clone());
                match op.as_str() {
                    "env" => serde_json::json!({"ok": if c["name"] == "HOME" { "/home/u".into() } else { serde_json::Value::Null }}),
                    "sessionId" => serde_json::json!({"ok": "s1"}),
                    "now" => serde_json::json!({"ok": 1_700_000_000_000u64}),
                    "texts" => serde_json::json!({"ok": ["fix the parser ✓"]}),
                    "pack" => {
                        let texts = ["fix the parser ✓", "done: 🙂 é"];
                        bytes = Some(texts.concat().into_bytes());
                        serde_json::json!({"ok": {"lens": texts.map(str::len), "event": {"trigger": "manual", "messages": [
                            {"role": "user", "text": 0, "handle": "h1"}, {"role": "assistant", "text": 1}]}}})
                    }
                    "write" => {
                        let text = match c.get("textRef").and_then(|r| r.as_u64()) {
                            Some(r) => take_text(r as u32),
                            None => c["text"].as_str().unwrap_or("").to_owned(),
                        };
                        let path = c["path"].as_str().unwrap();
                        // The history part, not the summary saved beside it.
                        if path.ends_with(".md") && !path.ends_with(".summary.md") {
                            history = Some(text);
                        }
                        serde_json::json!({})
                    }
                    "nextResult" => serde_json::json!({"ok": {"messages": [{"role": "user", "text": "summary"}]}}),
                    _ => serde_json::json!({"ok": null}),
                }
            })
            .collect();
        let answers = serde_json::Value::Array(answers).to_string();
        let out = match bytes {
            Some(b) => resume_packed(id, &answers, b),
            None => resume(id, &answers),
        };
        step = serde_json::from_str(&out).unwrap();
    }
    // The engine's result as it came, with the receipt for the person (issue [16]).
    assert_eq!(step["done"]["end"], "told", "{step}");
    let notice = step["done"]["notice"].to_string();
    assert!(notice.contains("history saved to ~/.claude/compact-history/s1/") && notice.contains("1 of your messages kept word for word"), "{notice}");
    let at = |op: &str| ops.iter().position(|o| o == op).unwrap();
    assert!(at("texts") < at("startNext") && at("startNext") < at("pack") && at("pack") < at("nextResult"), "{ops:?}");
    let history = history.expect("a history was written");
    assert!(history.contains("## [1] user\n\nfix the parser ✓\n") && history.contains("done: 🙂 é"), "{history}");
}
