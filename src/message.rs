//! The host's messages, read leniently.
//!
//! The engine hands `session.compact` plain objects: `{ role, text, handle,
//! toolUses: [{ tool, input, text, isError }], toolResults }`. Input the
//! reference would choke on (`text: 5`, `toolUses: null`, a `null` message) costs
//! that field or that message here, never the whole result. Everything arrives as
//! JSON text (the shim's `JSON.stringify`), so a tool's `input` is kept as the exact
//! text `JSON.stringify(input)` gave, key order included.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt;
use std::marker::PhantomData;

use crate::text;

/// A JS value as far as `String(v)` and truthiness need it.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum JsVal {
    #[default]
    Undefined,
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Array(Vec<JsVal>),
    Object,
}

impl JsVal {
    /// `String(v)`, as a template literal interpolates it.
    pub fn to_js_string(&self) -> String {
        match self {
            JsVal::Undefined => "undefined".into(),
            JsVal::Null => "null".into(),
            JsVal::Bool(b) => b.to_string(),
            JsVal::Num(n) => text::js_number(*n),
            JsVal::Str(s) => s.clone(),
            // Array.prototype.toString: join(','), with null and undefined as ''.
            JsVal::Array(items) => items
                .iter()
                .map(|v| match v {
                    JsVal::Undefined | JsVal::Null => String::new(),
                    other => other.to_js_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            JsVal::Object => "[object Object]".into(),
        }
    }

    pub fn truthy(&self) -> bool {
        match self {
            JsVal::Undefined | JsVal::Null => false,
            JsVal::Bool(b) => *b,
            JsVal::Num(n) => *n != 0.0 && !n.is_nan(),
            JsVal::Str(s) => !s.is_empty(),
            JsVal::Array(_) | JsVal::Object => true,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            JsVal::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl JsVal {
    /// `JSON.stringify(v)` as a member of an object: `None` where JS leaves the
    /// key out (undefined). Objects are reduced to `{}` (their keys are not kept).
    pub fn to_json(&self) -> Option<String> {
        Some(match self {
            JsVal::Undefined => return None,
            JsVal::Null => "null".into(),
            JsVal::Bool(b) => b.to_string(),
            JsVal::Num(n) if n.is_finite() => text::js_number(*n),
            JsVal::Num(_) => "null".into(),
            JsVal::Str(s) => serde_json::to_string(s).unwrap_or_default(),
            JsVal::Array(items) => {
                let items: Vec<String> = items.iter().map(|v| v.to_json().unwrap_or_else(|| "null".into())).collect();
                format!("[{}]", items.join(","))
            }
            JsVal::Object => "{}".into(),
        })
    }
}

impl<'de> Deserialize<'de> for JsVal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsVal;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, v: bool) -> Result<JsVal, E> {
                Ok(JsVal::Bool(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<JsVal, E> {
                Ok(JsVal::Num(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<JsVal, E> {
                Ok(JsVal::Num(v as f64))
            }
            fn visit_f64<E>(self, v: f64) -> Result<JsVal, E> {
                Ok(JsVal::Num(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<JsVal, E> {
                Ok(JsVal::Str(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<JsVal, E> {
                Ok(JsVal::Str(v))
            }
            fn visit_unit<E>(self) -> Result<JsVal, E> {
                Ok(JsVal::Null)
            }
            fn visit_none<E>(self) -> Result<JsVal, E> {
                Ok(JsVal::Null)
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<JsVal, D2::Error> {
                JsVal::deserialize(d)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JsVal, A::Error> {
                let mut items = Vec::new();
                while let Some(v) = seq.next_element::<JsVal>()? {
                    items.push(v);
                }
                Ok(JsVal::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsVal, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(JsVal::Object)
            }
        }
        d.deserialize_any(V)
    }
}

/// `Some(T)` when the value is an object (read with `T`'s own lenient fields),
/// `None` for anything else: a `null` message costs that message alone.
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient<T>(pub Option<T>);

impl<T> Default for Lenient<T> {
    fn default() -> Self {
        Lenient(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Lenient<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(|t| Lenient(Some(t)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Lenient(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// A list that is a list, or empty when the host sent anything else; its
/// entries that are not objects are dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct LenientList<T>(pub Vec<T>);

impl<T> Default for LenientList<T> {
    fn default() -> Self {
        LenientList(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for LenientList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items: ListOrNot<T> = ListOrNot::deserialize(d)?;
        Ok(LenientList(items.0.into_iter().flatten().collect()))
    }
}

/// A list of optional entries (kept in place, for numbering), or empty.
#[derive(Debug, Clone, PartialEq)]
pub struct ListOrNot<T>(pub Vec<Option<T>>);

impl<T> Default for ListOrNot<T> {
    fn default() -> Self {
        ListOrNot(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ListOrNot<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = ListOrNot<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(Lenient(v)) = seq.next_element::<Lenient<T>>()? {
                    items.push(v);
                }
                Ok(ListOrNot(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(ListOrNot(Vec::new()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(ListOrNot(Vec::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(ListOrNot(Vec::new()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(ListOrNot(Vec::new()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(ListOrNot(Vec::new()))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(ListOrNot(Vec::new()))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(ListOrNot(Vec::new()))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

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
    Ok(match JsVal::deserialize(d)? {
        JsVal::Str(s) => Some(s),
        JsVal::Num(k) if k >= 0.0 => PACKED.with(|p| {
            p.borrow_mut().as_mut().and_then(|texts| texts.get_mut(k as usize)).map(std::mem::take)
        }),
        _ => None,
    })
}

/// `Some(s)` for a string, `None` for anything else.
pub fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match JsVal::deserialize(d)? {
        JsVal::Str(s) => Some(s),
        _ => None,
    })
}

/// Present, whatever it is: `null` stays `Some("null")`, only absence is `None`.
pub fn raw_present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Box<RawValue>>, D::Error> {
    Box::<RawValue>::deserialize(d).map(Some)
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
    fn js_string_conversion() {
        assert_eq!(JsVal::Num(1e21).to_js_string(), "1e+21");
        assert_eq!(JsVal::Array(vec![JsVal::Num(1.0), JsVal::Null, JsVal::Str("x".into())]).to_js_string(), "1,,x");
        assert_eq!(JsVal::Object.to_js_string(), "[object Object]");
        assert!(!JsVal::Num(0.0).truthy());
        assert!(!JsVal::Str(String::new()).truthy());
        assert!(JsVal::Object.truthy());
    }

    #[test]
    fn falsy_handles_are_no_handle() {
        let m = parse_messages(r#"[{"handle":""},{"handle":0},{"handle":null},{"handle":7}]"#);
        let keys: Vec<_> = m.iter().map(|m| m.as_ref().unwrap().handle_key()).collect();
        assert_eq!(keys, vec![None, None, None, Some("7")]);
    }
}
