//! JSON read lazily: the members of an object as raw slices of the line,
//! found by skipping each value (a string by `memchr` to its closing quote, a
//! nested value by its brackets), so a row's few fields are read without
//! building the row, and a string is decoded only when asked for. Iterative:
//! no nesting, however deep, grows the stack.
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
    let b = raw.as_bytes();
    let mut i = ws(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = ws(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return (ws(b, i + 1) == b.len()).then_some(());
    }
    loop {
        let i0 = i;
        let key_end = skip_string(b, i)?;
        let name = raw.get(i + 1..key_end - 1)?;
        i = ws(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        let start = ws(b, i + 1);
        let end = skip_value(b, start)?;
        let at = keys.iter().position(|k| *k == name).or_else(|| {
            // A key written with escapes (`"t\u0079pe"`) is read as its text.
            let name = name.contains('\\').then(|| text(raw.get(i0..key_end)?)).flatten()?;
            keys.iter().position(|k| *k == name)
        });
        if let Some(slot) = at.and_then(|p| out.get_mut(p)) {
            *slot = raw.get(start..end);
        }
        i = ws(b, end);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b'}') => return (ws(b, i + 1) == b.len()).then_some(()),
            _ => return None,
        }
    }
}

/// The raw elements of the JSON array `raw`, or `None` when it is not one.
pub fn items(raw: &str) -> Option<Vec<&str>> {
    let b = raw.as_bytes();
    let mut out = Vec::new();
    let mut i = ws(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = ws(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Some(out);
    }
    loop {
        let end = skip_value(b, i)?;
        out.push(raw.get(i..end)?);
        i = ws(b, end);
        match b.get(i) {
            Some(b',') => i = ws(b, i + 1),
            Some(b']') => return Some(out),
            _ => return None,
        }
    }
}

/// The text of a raw JSON string; anything else is none.
pub fn text(raw: &str) -> Option<Cow<'_, str>> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
}

/// `true` for a raw `true`.
pub fn is_true(raw: Option<&str>) -> bool {
    raw == Some("true")
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (past its closing quote).
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let mut at = i + 1;
    loop {
        let rest = b.get(at..)?;
        let found = memchr::memchr2(b'"', b'\\', rest)?;
        at += found;
        if b.get(at) == Some(&b'"') {
            return Some(at + 1);
        }
        at += 2;
    }
}

/// The end of the value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut at = i;
            loop {
                match b.get(at)? {
                    b'"' => {
                        at = skip_string(b, at)?;
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
