//! Readers for host data that cost a bad value that value, never the whole read: a field
//! of the wrong type, a `null` where an object should be, a list that is not one.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::fmt;
use std::marker::PhantomData;

use super::js_value::JsVal;

/// What a lenient reader makes of one JSON value: the one shape it reads, and its `Default`
/// for every other value (an object or array it does not read is skipped whole). Serde asks a
/// visitor for each kind of value apart; [`OneShapeVisitor`] answers every kind from
/// `from_object`, `from_array` or `Default`.
trait OneShape<'de>: Default {
    fn from_object<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }

    fn from_array<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
}

/// The visitor of every [`OneShape`] reader.
struct OneShapeVisitor<T>(PhantomData<T>);

impl<'de, T: OneShape<'de>> Visitor<'de> for OneShapeVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::from_object(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_array(seq)
    }
    fn visit_bool<E>(self, _: bool) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::default())
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

impl<'de, T: Deserialize<'de>> OneShape<'de> for Lenient<T> {
    fn from_object<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        T::deserialize(de::value::MapAccessDeserializer::new(map)).map(|t| Lenient(Some(t)))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OneShapeVisitor(PhantomData))
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

impl<'de, T: Deserialize<'de>> OneShape<'de> for ListOrNot<T> {
    fn from_array<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut items = Vec::new();
        while let Some(Lenient(v)) = seq.next_element::<Lenient<T>>()? {
            items.push(v);
        }
        Ok(ListOrNot(items))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ListOrNot<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(OneShapeVisitor(PhantomData))
    }
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
