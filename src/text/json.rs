//! JSON text as JS writes it.

/// JSON text with every escaped lone surrogate (`\\ud800` alone, which JS's
/// `JSON.stringify` writes for a string cut inside a pair) made `\\ufffd`, so one
/// broken character costs that character, not the whole parse.
pub fn well_formed_json(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.contains("\\u") {
        return std::borrow::Cow::Borrowed(json);
    }
    let bytes = json.as_bytes();
    let hex = |at: usize| -> Option<u32> {
        let digits = bytes.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let escape_at = |at: usize| bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u');
    let mut fixed: Option<Vec<u8>> = None;
    let (mut i, mut in_string) = (0, false);
    while let Some(&c) = bytes.get(i) {
        if !in_string {
            in_string = c == b'"';
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_string = false;
                i += 1;
            }
            b'\\' if escape_at(i) => {
                let unit = hex(i + 2);
                let paired = matches!(unit, Some(0xD800..=0xDBFF))
                    && escape_at(i + 6)
                    && matches!(hex(i + 8), Some(0xDC00..=0xDFFF));
                if paired {
                    i += 12;
                } else if matches!(unit, Some(0xD800..=0xDFFF)) {
                    let out = fixed.get_or_insert_with(|| bytes.to_vec());
                    if let Some(slot) = out.get_mut(i + 2..i + 6) {
                        slot.copy_from_slice(b"fffd");
                    }
                    i += 6;
                } else {
                    i += 6;
                }
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    match fixed.map(String::from_utf8) {
        Some(Ok(s)) => std::borrow::Cow::Owned(s),
        _ => std::borrow::Cow::Borrowed(json),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogate_escapes_become_replacement_characters() {
        let pair = r#"["a\ud83d\ude00b"]"#;
        assert_eq!(well_formed_json(pair), pair);
        assert_eq!(well_formed_json(r#"["x \ud800", "\udc00y"]"#), r#"["x \ufffd", "\ufffdy"]"#);
        assert_eq!(well_formed_json(r#"["\ud83d\u0041"]"#), r#"["\ufffd\u0041"]"#);
        // An escaped backslash followed by "ud800" is text, not an escape.
        assert_eq!(well_formed_json(r#"["\\ud800"]"#), r#"["\\ud800"]"#);
        assert_eq!(well_formed_json(r#"{"\ud800":1}"#), r#"{"\ufffd":1}"#);
        assert_eq!(well_formed_json(r#"["cut \ud8"]"#), r#"["cut \ud8"]"#);
        let v: Vec<String> = serde_json::from_str(&well_formed_json(r#"["x \ud800 y"]"#)).unwrap();
        assert_eq!(v, ["x \u{fffd} y"]);
    }
}
