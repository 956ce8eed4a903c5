//! JSON read lazily: the members of an object as raw slices of the line,
//! found by skipping each value (a string to its closing quote, eight bytes
//! at a time; a nested value by its brackets), so a row's few fields are read
//! without building the row, and a string is decoded only when asked for.
//! Iterative: no nesting, however deep, grows the stack. A caller that wants
//! a nested value's members too reads them in the same pass ([`object`],
//! [`array`]), not from its slice again: the sessions view reads every row, and
//! the skipping is most of its time.
//!
//! It reads what is well-formed as `serde_json` does (a test holds it to that
//! on every real transcript line); of what is not, it may accept a little
//! inside values it skips, never a line whose object does not close.

use std::borrow::Cow;

/// The raw values of `keys` in the JSON object `raw` (the last of a repeated
/// key), or `None` when `raw` is not an object.
pub fn fields<'a, const N: usize>(raw: &'a str, keys: [&str; N]) -> Option<[Option<&'a str>; N]> {
    let mut out = [None; N];
    members(raw, &keys, &mut out)?;
    Some(out)
}

/// `fields`, for any number of keys (one copy of the code, not one per `N`).
fn members<'a>(raw: &'a str, keys: &[&str], out: &mut [Option<&'a str>]) -> Option<()> {
    whole_object(raw, |name, start| {
        let end = value_end(raw, start)?;
        if let Some(slot) = place(keys, name).and_then(|p| out.get_mut(p)) {
            *slot = raw.get(start..end);
        }
        Some(end)
    })
}

/// Where `name` is in `keys`.
pub fn place(keys: &[&str], name: &str) -> Option<usize> {
    keys.iter().position(|k| *k == name)
}

/// The JSON object `raw`, each member told to `member` in order, or `None`
/// when `raw` is not one object.
pub fn whole_object(raw: &str, member: impl FnMut(&str, usize) -> Option<usize>) -> Option<()> {
    let end = object(raw, 0, member)?;
    (ws(raw.as_bytes(), end) == raw.len()).then_some(())
}

/// The object at `i` (after white space): each member told to `member`; its
/// end, past its `}`. A value read by `member` is read in the same pass as the
/// object (a row's message, its blocks), not again from a slice of it: the
/// end found is the one [`value_end`] finds, the brackets of what an object
/// accepts being balanced.
pub fn object(raw: &str, i: usize, mut member: impl FnMut(&str, usize) -> Option<usize>) -> Option<usize> {
    let b = raw.as_bytes();
    let mut i = ws(b, i);
    if !matches!(b.get(i), Some(b'{')) {
        return None;
    }
    i = ws(b, i + 1);
    if matches!(b.get(i), Some(b'}')) {
        return Some(i + 1);
    }
    loop {
        let i0 = i;
        let (key_end, escaped) = skip_string(b, i)?;
        let name = raw.get(i + 1..key_end - 1)?;
        i = ws(b, key_end);
        if !matches!(b.get(i), Some(b':')) {
            return None;
        }
        // A key written with escapes (`"t\u0079pe"`) is told as its text (a
        // key asked for has none).
        let decoded = if escaped { raw.get(i0..key_end).and_then(text) } else { None };
        let end = member(decoded.as_deref().unwrap_or(name), ws(b, i + 1))?;
        i = ws(b, end);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b'}') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The array at `i` (after white space): where each element starts told to
/// `item`, which answers where it ends; the array's end, past its `]`.
pub fn array(raw: &str, i: usize, mut item: impl FnMut(usize) -> Option<usize>) -> Option<usize> {
    let b = raw.as_bytes();
    let mut i = ws(b, i);
    if !matches!(b.get(i), Some(b'[')) {
        return None;
    }
    i = ws(b, i + 1);
    if matches!(b.get(i), Some(b']')) {
        return Some(i + 1);
    }
    loop {
        let end = item(i)?;
        i = ws(b, end);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b']') => return Some(i + 1),
            _ => return None,
        }
    }
}

/// The raw elements of the JSON array `raw`, or `None` when it is not one.
pub fn items(raw: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    array(raw, 0, |i| {
        let end = value_end(raw, i)?;
        out.push(raw.get(i..end)?);
        Some(end)
    })?;
    Some(out)
}

/// The end of the value starting at `i`, skipped unread.
pub fn value_end(raw: &str, i: usize) -> Option<usize> {
    skip_value(raw.as_bytes(), i)
}

/// The text of a raw JSON string; anything else is none.
pub fn text(raw: &str) -> Option<Cow<'_, str>> {
    let inner = unquoted(raw)?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
}

/// `raw` between its quotes, when it is quoted.
pub fn unquoted(raw: &str) -> Option<&str> {
    match raw.as_bytes() {
        [b'"', .., b'"'] => raw.get(1..raw.len() - 1),
        _ => None,
    }
}

/// `true` for a raw `true`.
pub fn is_true(raw: Option<&str>) -> bool {
    raw == Some("true")
}

#[inline(always)]
fn ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (past its closing quote), and
/// whether it holds an escape: when not, its text is what its quotes hold,
/// unread again.
pub fn string_end(raw: &str, i: usize) -> Option<(usize, bool)> {
    skip_string(raw.as_bytes(), i)
}

#[inline(always)]
fn skip_string(b: &[u8], i: usize) -> Option<(usize, bool)> {
    if !matches!(b.get(i), Some(b'"')) {
        return None;
    }
    let (mut at, mut escaped) = (i + 1, false);
    loop {
        at = quote_or_escape(b, at)?;
        if matches!(b.get(at), Some(b'"')) {
            return Some((at + 1, escaped));
        }
        escaped = true;
        at += 2;
    }
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;
const QUOTES: u64 = LOW * b'"' as u64;
const ESCAPES: u64 = LOW * b'\\' as u64;

/// Where the first `"` or `\\` at or after `at` is: eight bytes at a time
/// (the lowest byte flagged in a word is exact).
#[inline(always)]
fn quote_or_escape(b: &[u8], mut at: usize) -> Option<usize> {
    let mut rest = b.get(at..)?;
    while let Some((word, tail)) = rest.split_first_chunk::<8>() {
        let w = u64::from_le_bytes(*word);
        let (q, e) = (w ^ QUOTES, w ^ ESCAPES);
        let found = (q.wrapping_sub(LOW) & !q | e.wrapping_sub(LOW) & !e) & HIGH;
        if found != 0 {
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
        rest = tail;
    }
    for c in rest {
        if matches!(c, b'"' | b'\\') {
            return Some(at);
        }
        at += 1;
    }
    None
}

/// The end of the value starting at `i`.
#[inline(always)]
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => skip_string(b, i).map(|(end, _)| end),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = i;
            loop {
                match b.get(at)? {
                    b'"' => {
                        at = skip_string(b, at)?.0;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
        }
        _ => {
            let end = b.get(i..)?.iter().position(|c| !matches!(c, b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'E')).map_or(b.len(), |n| i + n);
            let word = b.get(i..end)?;
            let number = word.first().is_some_and(|c| *c == b'-' || c.is_ascii_digit());
            (end > i && (number || matches!(word, b"true" | b"false" | b"null"))).then_some(end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn reads_members_and_refuses_what_is_no_object() {
        let row = r#" {"type":"user","n":-1.5e3,"ok":true,"message":{"content":[{"text":"a \"quoted\" }"}]},"t\u0079pe":"again"} "#;
        let [kind, n, ok, message, none] = fields(row, ["type", "n", "ok", "message", "nope"]).unwrap();
        assert_eq!((kind, n, ok, none), (Some(r#""again""#), Some("-1.5e3"), Some("true"), None));
        let [content] = fields(message.unwrap(), ["content"]).unwrap();
        let blocks = items(content.unwrap()).unwrap();
        assert_eq!(blocks.len(), 1);
        let [t] = fields(blocks[0], ["text"]).unwrap();
        assert_eq!(text(t.unwrap()).as_deref(), Some("a \"quoted\" }"));
        assert!(is_true(ok) && !is_true(n));
        for bad in ["{not json", "[1,2]", "{\"a\":1", "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{\"a\":\"x}", "{\"a\":1} x", "", "{\"a\":[1,{]}"] {
            assert!(fields(bad, ["a"]).is_none(), "{bad}");
        }
        assert_eq!(fields("{}", ["a"]), Some([None]));
        assert_eq!(items("[]"), Some(vec![]));
        // Deep nesting is skipped without recursion.
        let deep = format!("{{\"a\":{}1{},\"b\":2}}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(fields(&deep, ["b"]), Some([Some("2")]));
    }

    /// The old skip: `memchr2` to each quote or escape, an escape passing over
    /// the byte after it.
    fn reference(b: &[u8], i: usize) -> Option<(usize, bool)> {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let (mut at, mut escaped) = (i + 1, false);
        loop {
            at += memchr::memchr2(b'"', b'\\', b.get(at..)?)?;
            if b.get(at) == Some(&b'"') {
                return Some((at + 1, escaped));
            }
            escaped = true;
            at += 2;
        }
    }

    /// Strings of quotes, escapes and other bytes, at every length around the
    /// eight-byte words and every place: each ends where the old skip ended.
    #[test]
    fn a_string_ends_where_the_byte_by_byte_skip_ends() {
        let alphabet: [&[u8]; 6] = [b"a", b"\"", b"\\", "é".as_bytes(), b"\n", b"\x80"];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for case in 0..40_000 {
            let mut s = vec![b'"'];
            for _ in 0..case % 41 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly plain bytes, as texts are.
                let pick = if seed % 4 == 0 { (seed >> 8) as usize % alphabet.len() } else { 0 };
                s.extend_from_slice(alphabet[pick]);
            }
            assert_eq!(skip_string(&s, 0), reference(&s, 0), "{s:?}");
            s.push(b'"');
            assert_eq!(skip_string(&s, 0), reference(&s, 0), "{s:?}");
        }
        assert_eq!(string_end(r#""plain" "#, 0), Some((7, false)));
        assert_eq!(string_end(r#""a \"b\" c""#, 0), Some((11, true)));
        assert_eq!(string_end(r#""ends \\""#, 0), Some((9, true)));
        assert_eq!(string_end(r#""open \""#, 0), None);
    }

    /// A value read within its object's pass ends where skipping it ends, and
    /// a member that cannot read its value makes the object none.
    #[test]
    fn nested_reads_end_where_skipping_ends() {
        let row = r#"{"a":{"b":[{"c":"x\"}"},7],"d":"}"},"e":true}"#;
        let mut seen = Vec::new();
        whole_object(row, |name, start| {
            let end = if name == "a" {
                object(row, start, |name, v| {
                    if name != "b" {
                        return value_end(row, v);
                    }
                    array(row, v, |at| {
                        seen.push(row.get(at..value_end(row, at)?)?.to_owned());
                        value_end(row, at)
                    })
                })?
            } else {
                value_end(row, start)?
            };
            assert_eq!(Some(end), value_end(row, start), "{name}");
            Some(end)
        })
        .unwrap();
        assert_eq!(seen, [r#"{"c":"x\"}"}"#, "7"]);
        assert!(whole_object(r#"{"a":1}"#, |_, _| None).is_none());
        assert!(whole_object(r#"{"a":1} x"#, |_, v| value_end(r#"{"a":1} x"#, v)).is_none());
        assert_eq!(array("[ ]", 0, |_| None), Some(3));
        assert_eq!(object(" {} ", 0, |_, _| None), Some(3));
        // A key written with escapes is told as its text.
        let escaped = r#"{"t\u0079pe":1}"#;
        let mut names = Vec::new();
        whole_object(escaped, |name, v| {
            names.push(name.to_owned());
            value_end(escaped, v)
        });
        assert_eq!(names, ["type"]);
    }

    /// Every line of the real transcripts: each member read as serde_json
    /// reads it.
    #[test]
    fn reads_real_rows_as_serde_json_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/real-transcripts");
        let Ok(dirs) = std::fs::read_dir(&root) else {
            eprintln!("skipped: {} is absent", root.display());
            return;
        };
        let mut lines = 0;
        for d in dirs.flatten() {
            for f in std::fs::read_dir(d.path()).into_iter().flatten().flatten() {
                let file = std::fs::read_to_string(f.path()).unwrap_or_default();
                for line in file.lines().filter(|l| !l.is_empty()) {
                    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(line) else {
                        assert!(fields(line, ["type"]).is_none(), "{line}");
                        continue;
                    };
                    lines += 1;
                    for (k, v) in &map {
                        let [raw] = fields(line, [k.as_str()]).unwrap_or_else(|| panic!("{line}"));
                        assert_eq!(serde_json::from_str::<Value>(raw.unwrap()).unwrap(), *v, "{k} in {line}");
                        if let (Value::String(s), Some(raw)) = (v, raw) {
                            assert_eq!(text(raw).as_deref(), Some(s.as_str()));
                        }
                        if let Value::Array(a) = v {
                            assert_eq!(items(raw.unwrap()).unwrap().len(), a.len());
                        }
                    }
                }
            }
        }
        assert!(lines > 5000, "{lines}");
    }
}
