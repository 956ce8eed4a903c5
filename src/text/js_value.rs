//! A value from the host, as far as JS's `String(v)`, truthiness and `JSON.stringify` need it.

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;

use super::decimal::parse_f64;
use super::js_string::trim;
use super::number::number_to_string;

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
            JsVal::Num(n) => number_to_string(*n),
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

    /// `Number(v ?? fallback)`: an option or a figure the host gave, read as JS reads it.
    pub fn number_or(&self, fallback: f64) -> f64 {
        match self {
            JsVal::Undefined | JsVal::Null => fallback,
            JsVal::Num(n) => *n,
            JsVal::Bool(b) => f64::from(u8::from(*b)),
            JsVal::Str(s) => {
                let t = trim(s);
                if t.is_empty() {
                    0.0
                } else {
                    parse_f64(t).unwrap_or(f64::NAN)
                }
            }
            JsVal::Array(_) | JsVal::Object => f64::NAN,
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
            JsVal::Num(n) if n.is_finite() => number_to_string(*n),
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn number_or_reads_as_js_number_does() {
        assert_eq!(JsVal::Undefined.number_or(7.0), 7.0);
        assert_eq!(JsVal::Null.number_or(7.0), 7.0);
        assert_eq!(JsVal::Bool(true).number_or(7.0), 1.0);
        assert_eq!(JsVal::Str(" 12 ".into()).number_or(7.0), 12.0);
        assert_eq!(JsVal::Str("  ".into()).number_or(7.0), 0.0);
        assert!(JsVal::Str("twelve".into()).number_or(7.0).is_nan());
        assert!(JsVal::Object.number_or(7.0).is_nan());
    }
}
