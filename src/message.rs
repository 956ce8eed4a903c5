//! The host's messages, read leniently.
//!
//! The engine hands `session.compact` plain objects: `{ role, text, handle,
//! toolUses: [{ tool, input, text, isError }], toolResults }`. Input the
//! reference would choke on (`text: 5`, `toolUses: null`, a `null` message) costs
//! that field or that message here, never the whole result. Everything arrives as
//! JSON text (the shim's `JSON.stringify`), so a tool's `input` is kept as the exact
//! text `JSON.stringify(input)` gave, key order included.
//!
//! The lenient readers themselves (`JsVal`, `Lenient`, `ListOrNot`, …) are
//! [`crate::text`]'s; they are named here too, where the hooks and bindings read them.

use serde::de::Deserializer;
use serde::Deserialize;
use serde_json::value::RawValue;

pub use crate::text::{lenient_string, raw_present, JsVal, Lenient, LenientList, ListOrNot};

use crate::text;

thread_local! {
    /// The texts of a packed event (`Call::Pack`'s answer), while it is read.
    static PACKED: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// Runs `read` with `texts` standing for the numbers in text fields.
pub fn with_packed<T>(texts: Vec<String>, read: impl FnOnce() -> T) -> T {
    PACKED.with(|p| *p.borrow_mut() = Some(texts));
    let out = read();
    PACKED.with(|p| *p.borrow_mut() = None);
    out
}

/// Cuts packed texts (UTF-8, one after the other) at their byte lengths. A
/// length past the end gives what is left; invalid UTF-8 becomes U+FFFD.
pub fn unpack(lens: &[usize], bytes: &[u8]) -> Vec<String> {
    let mut at: usize = 0;
    lens.iter()
        .map(|len| {
            let end = at.saturating_add(*len).min(bytes.len());
            let piece = bytes.get(at.min(end)..end).unwrap_or_default();
            at = end;
            String::from_utf8_lossy(piece).into_owned()
        })
        .collect()
}

/// A message's or a tool's text: a string, or in a packed event the number of a
/// text sent beside the JSON (moved out, not copied).
fn lenient_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(text_of(JsVal::deserialize(d)?))
}

fn text_of(v: JsVal) -> Option<String> {
    match v {
        JsVal::Str(s) => Some(s),
        JsVal::Num(k) if k >= 0.0 => PACKED.with(|p| {
            p.borrow_mut().as_mut().and_then(|texts| texts.get_mut(k as usize)).map(std::mem::take)
        }),
        _ => None,
    }
}

/// `x?.length ?? 0` for a list (or a string) of tool results.
fn lenient_len<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Ok(match JsVal::deserialize(d)? {
        JsVal::Array(items) => items.len(),
        JsVal::Str(s) => text::len16(&s),
        // The shim's slim event sends `m.toolResults?.length` itself.
        JsVal::Num(n) if n >= 1.0 => n as usize,
        _ => 0,
    })
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct ToolUse {
    pub tool: JsVal,
    /// Exactly what `JSON.stringify(input)` gave; `None` when absent or null.
    pub input: Option<Box<RawValue>>,
    #[serde(deserialize_with = "lenient_text")]
    pub text: Option<String>,
    #[serde(rename = "isError")]
    pub is_error: JsVal,
}

#[derive(Debug, Deserialize, Default)]
#[serde(default)]
pub struct Message {
    pub role: JsVal,
    #[serde(deserialize_with = "lenient_text")]
    pub text: Option<String>,
    /// The engine's opaque handle, kept as given (`null` too) so it goes back out unchanged.
    #[serde(deserialize_with = "raw_present")]
    pub handle: Option<Box<RawValue>>,
    #[serde(rename = "toolUses")]
    pub tool_uses: LenientList<ToolUse>,
    #[serde(rename = "toolResults", deserialize_with = "lenient_len")]
    pub tool_results: usize,
    /// The texts of a user message's tool results, sent only when the trim
    /// before the summarizer asked for them (`Call::Pack { results }`): one per
    /// result, in order, `None` for one that is no string.
    #[serde(rename = "resultTexts", deserialize_with = "lenient_texts")]
    pub result_texts: Vec<Option<String>>,
}

/// A list of texts, each as `lenient_text` reads it; anything but a list is none.
fn lenient_texts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Option<String>>, D::Error> {
    Ok(match JsVal::deserialize(d)? {
        JsVal::Array(items) => items.into_iter().map(text_of).collect(),
        _ => Vec::new(),
    })
}

impl Message {
    pub fn is_user(&self) -> bool {
        self.role.as_str() == Some("user")
    }

    pub fn text(&self) -> &str {
        self.text.as_deref().unwrap_or("")
    }

    /// The handle, when it is one the engine could match again (`filter(Boolean)`).
    pub fn handle_key(&self) -> Option<&str> {
        handle_key(self.handle.as_deref())
    }
}

/// The raw JSON of a truthy handle: `null`, `false`, `0` and `""` are no handle.
pub fn handle_key(raw: Option<&RawValue>) -> Option<&str> {
    let raw = raw?.get();
    match raw {
        "null" | "false" | "0" | "-0" | "\"\"" => None,
        _ => Some(raw),
    }
}

/// A list of messages: a `null` or non-object entry is `None` in its place, so
/// numbering and counts stay the reference's; anything but a list is empty.
pub type Messages = Vec<Option<Message>>;

/// An event's JSON as the hooks read it: a field that does not read costs that
/// field, and an event that is no object at all is the default one.
pub fn parse_event<T: for<'de> Deserialize<'de> + Default>(json: &str) -> T {
    let json = crate::text::well_formed_json(json);
    serde_json::from_str::<Lenient<T>>(&json).ok().and_then(|l| l.0).unwrap_or_default()
}

/// Reads a messages array from JSON text. Unreadable JSON is an empty list.
pub fn parse_messages(json: &str) -> Messages {
    serde_json::from_str::<ListOrNot<Message>>(&text::well_formed_json(json)).map(|l| l.0).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_host_shapes() {
        let m = parse_messages(
            r#"[{"role":"user","text":"hi","toolUses":[],"handle":"h1"},
                {"role":"assistant","text":"","toolUses":[{"tool_use_id":"t","tool":"Bash",
                  "input":{"z":1,"a":{"b":[1,2]},"2":true},"text":"out","isError":true}],"handle":"h2"}]"#,
        );
        assert_eq!(m.len(), 2);
        let a = m[1].as_ref().unwrap();
        assert_eq!(a.role.to_js_string(), "assistant");
        let u = &a.tool_uses.0[0];
        assert_eq!(u.input.as_ref().unwrap().get(), r#"{"z":1,"a":{"b":[1,2]},"2":true}"#);
        assert!(u.is_error.truthy());
        assert_eq!(m[0].as_ref().unwrap().handle_key(), Some("\"h1\""));
    }

    #[test]
    fn bad_fields_cost_the_field() {
        let m = parse_messages(
            r#"[null, 5, {"text":5,"toolUses":null}, {"role":"user","toolUses":[null,{"tool":"X"}],"toolResults":"ab"}]"#,
        );
        assert_eq!(m.len(), 4);
        assert!(m[0].is_none() && m[1].is_none());
        let c = m[2].as_ref().unwrap();
        assert_eq!(c.text, None);
        assert_eq!(c.role, JsVal::Undefined);
        assert_eq!(c.role.to_js_string(), "undefined");
        assert!(c.tool_uses.0.is_empty());
        let d = m[3].as_ref().unwrap();
        assert_eq!(d.tool_uses.0.len(), 1);
        assert_eq!(d.tool_results, 2);
    }

    #[test]
    fn not_a_list_is_empty() {
        assert!(parse_messages(r#"{"a":1}"#).is_empty());
        assert!(parse_messages("not json").is_empty());
        assert!(parse_messages("null").is_empty());
    }

    #[test]
    fn falsy_handles_are_no_handle() {
        let m = parse_messages(r#"[{"handle":""},{"handle":0},{"handle":null},{"handle":7}]"#);
        let keys: Vec<_> = m.iter().map(|m| m.as_ref().unwrap().handle_key()).collect();
        assert_eq!(keys, vec![None, None, None, Some("7")]);
    }
}
