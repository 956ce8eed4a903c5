//! The reference `lib.js`'s functions, same names and shapes, calling into
//! [`crate::compat`] (`cutMiddle` and `stamp` into [`crate::text`]). The golden
//! vectors test them and the benchmark times them; no hook uses them, so they
//! are built only with the `compat` feature, never into the shipped `.wasm`.
//!
//! Every argument arrives as a JS value and is read the way the reference would
//! read it; where the reference would throw, the port answers the closest
//! harmless value instead (an empty string, an empty list, `false`).

use wasm_bindgen::prelude::*;

use super::to_js;
use crate::compat::{handoff, history, instructions, verbatim};
use crate::message::{self, Messages};
use crate::text::{self, stamp};

/// `String(v)`.
fn js_string(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        return s;
    }
    if let Some(n) = v.as_f64() {
        return text::number_to_string(n);
    }
    if let Some(b) = v.as_bool() {
        return b.to_string();
    }
    if v.is_null() {
        return "null".into();
    }
    if v.is_undefined() {
        return "undefined".into();
    }
    // Objects and arrays: `[v].join('')` converts with the object's own toString.
    js_sys::Array::of1(v).join("").into()
}

/// `Number(v)`, as `<=` and arithmetic coerce it.
fn to_number(v: &JsValue) -> f64 {
    v.as_f64().unwrap_or_else(|| v.unchecked_into_f64())
}

/// `JSON.stringify(v)`, or `None` when it throws (a BigInt, a cycle) or gives nothing.
fn json_of(v: &JsValue) -> Option<String> {
    js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string())
}

/// A messages argument as JSON text. A list that will not stringify whole is
/// read one message at a time, so a bad message costs that message alone.
pub fn messages_json(v: &JsValue) -> String {
    if let Some(json) = json_of(v) {
        return json;
    }
    if !js_sys::Array::is_array(v) {
        return "[]".into();
    }
    let items: Vec<String> = js_sys::Array::from(v)
        .iter()
        .map(|m| json_of(&m).unwrap_or_else(|| "null".into()))
        .collect();
    format!("[{}]", items.join(","))
}

fn messages_of(v: &JsValue) -> Messages {
    message::parse_messages(&messages_json(v))
}

/// The messages as far as the verbatim block reads them: each one's `role` and
/// `handle`, and `text` for user rows only, taken property by property as the
/// reference reads them. The rest of a 24 MB session never crosses.
fn person_rows_of(v: &JsValue) -> Messages {
    if !js_sys::Array::is_array(v) {
        return Vec::new();
    }
    let get = |o: &JsValue, key: &str| js_sys::Reflect::get(o, &JsValue::from_str(key));
    let slim = |m: JsValue| -> Result<JsValue, JsValue> {
        if !m.is_object() || js_sys::Array::is_array(&m) || m.is_function() {
            return Ok(m);
        }
        let out = js_sys::Object::new();
        let role = get(&m, "role")?;
        js_sys::Reflect::set(&out, &"role".into(), &role)?;
        js_sys::Reflect::set(&out, &"handle".into(), &get(&m, "handle")?)?;
        if role.as_string().as_deref() == Some("user") {
            js_sys::Reflect::set(&out, &"text".into(), &get(&m, "text")?)?;
        }
        Ok(out.into())
    };
    let rows: js_sys::Array = js_sys::Array::from(v).iter().map(|m| slim(m).unwrap_or(JsValue::NULL)).collect();
    message::parse_messages(&messages_json(&rows))
}

#[wasm_bindgen(js_name = cutMiddle)]
pub fn cut_middle(text: JsValue, max: JsValue, note: JsValue) -> String {
    let Some(s) = text.as_string() else { return String::new() };
    let note = if note.is_undefined() { verbatim::CUT_NOTE.to_owned() } else { js_string(&note) };
    text::cut_middle(&s, to_number(&max), &note)
}

#[wasm_bindgen(js_name = personText)]
pub fn person_text(text: JsValue) -> String {
    text.as_string().map(|s| verbatim::person_text(&s)).unwrap_or_default()
}

#[wasm_bindgen(js_name = carriedMessages)]
pub fn carried_messages(messages: JsValue) -> JsValue {
    let carried = verbatim::carried_messages(&person_rows_of(&messages));
    to_js(&serde_json::to_string(&carried).unwrap_or_else(|_| "[]".into()))
}

#[wasm_bindgen(js_name = selectVerbatim)]
pub fn select_verbatim(messages: JsValue, budget_tokens: JsValue) -> JsValue {
    let chosen = verbatim::select(&person_rows_of(&messages), to_number(&budget_tokens));
    to_js(&serde_json::to_string(&chosen).unwrap_or_else(|_| "[]".into()))
}

#[wasm_bindgen(js_name = renderVerbatim)]
pub fn render_verbatim(entries: JsValue) -> String {
    #[derive(serde::Deserialize)]
    struct RawText {
        #[serde(default, deserialize_with = "message::lenient_string")]
        text: Option<String>,
    }
    let json = json_of(&entries).unwrap_or_default();
    let entries: Vec<verbatim::Entry> = serde_json::from_str::<message::ListOrNot<RawText>>(&json)
        .map(|l| l.0)
        .unwrap_or_default()
        .into_iter()
        .map(|t| verbatim::Entry { text: t.and_then(|t| t.text).unwrap_or_default(), handle: None })
        .collect();
    verbatim::render(&entries)
}

#[wasm_bindgen(js_name = pointerText)]
pub fn pointer_text(file: JsValue, dir: JsValue) -> String {
    handoff::pointer_text(&js_string(&file), &js_string(&dir))
}

#[wasm_bindgen(js_name = handoffInstructions)]
pub fn handoff_instructions(first_verbatim: JsValue) -> String {
    handoff::handoff_instructions(first_verbatim.as_string().as_deref())
}

#[wasm_bindgen(js_name = joinInstructions)]
pub fn join_instructions(own: JsValue, extra: JsValue) -> String {
    handoff::join_instructions(own.as_string().as_deref(), &js_string(&extra))
}

#[wasm_bindgen(js_name = renderHistory)]
pub fn render_history(messages: JsValue, meta: JsValue) -> String {
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct RawMeta {
        #[serde(rename = "sessionId")]
        session_id: message::JsVal,
        at: message::JsVal,
        trigger: message::JsVal,
    }
    let raw: RawMeta = json_of(&meta)
        .and_then(|j| serde_json::from_str::<message::Lenient<RawMeta>>(&j).ok())
        .and_then(|l| l.0)
        .unwrap_or_default();
    let meta = history::Meta {
        session_id: raw.session_id.to_js_string(),
        at: raw.at.to_js_string(),
        trigger: raw.trigger.to_js_string(),
    };
    history::render(&messages_of(&messages), &meta)
}

#[wasm_bindgen(js_name = stripInstructionText)]
pub fn strip_instruction_text(raw: JsValue) -> String {
    raw.as_string().map(|s| instructions::strip_instruction_text(&s)).unwrap_or_default()
}

#[wasm_bindgen(js_name = sameText)]
pub fn same_text(a: JsValue, b: JsValue) -> bool {
    match (a.as_string(), b.as_string()) {
        (Some(a), Some(b)) => instructions::same_text(&a, &b),
        _ => false,
    }
}

/// `""` where `new Date(ms)` is invalid (the reference throws a RangeError).
#[wasm_bindgen]
pub fn stamp(ms: JsValue) -> String {
    stamp::stamp(to_number(&ms)).unwrap_or_default()
}
