//! The literal of a declaration written as code writes it, where the key-value grammar reads
//! something else after the name: a type between the name and its `=` (Rust's `static
//! SECRET: &str = "…";`, TypeScript's `const apiKey: string = "…"`, Kotlin's `val token:
//! String = "…"`), and a literal moved to the line after the `=` (rustfmt breaks a `static`
//! or `let` whose line passes 100 columns there, Prettier one past its print width:
//! `static SECRET: &str =` then `    "…";`), and Python's annotated assignment (PEP 526:
//! `secret_key: str = "…"`, pydantic's and dataclasses' defaults, a statement of its own
//! line). Read as `:` then a value, the type is the value
//! and a declaration's type is no secret (`not_secret::declaration`), so the literal went
//! unread (coinbase-pro-rs' sandbox key and secret in the distant set, [15]'s ninth round).
//!
//! The caller asks only after a declaration's keyword (`static`, `const`, `let`, …) or of a
//! name that begins its line. A leaf:
//! imports nothing of its neighbours but `shape`.

use super::shape::{blanks, run_within, string_prefix};

/// How far a type may reach (`&'static str`, `[u8; 32]`, `Option<&str>`).
const TYPE_REACH: usize = 64;

/// How far the next line's indentation may reach.
const INDENT_REACH: usize = 64;

/// Where the declaration's literal opens (its quote or string prefix), reading from `at`:
/// after the name's `:` when `typed` (a type, then `=`), else after the `=` and its blanks.
/// `None` when no literal follows (`[u8; 32] = hex!(…)`, `= other;`, `==`), or when one
/// follows on the same line of an untyped `=` (the grammar reads that one itself).
pub(crate) fn declared_literal(b: &[u8], at: usize, typed: bool) -> Option<usize> {
    let mut i = at;
    if typed {
        // A type of names, references, generics and unions (`Optional[str]`); not an array
        // or a slice: bytes (`&[u8]`, `[u8; 32]`) are `raw_key`'s to read, by the size a key
        // of theirs has.
        let end = run_within(b, at, TYPE_REACH, |c| {
            c.is_ascii_alphanumeric() || b"_&'<>[] :,*|?.".contains(&c)
        });
        // `=` alone: not `==`, `=>`, nor an empty type.
        if end == at
            || b.get(at) == Some(&b'[')
            || b.get(at..at + 2) == Some(b"&[")
            || b.get(end) != Some(&b'=')
            || b.get(end + 1).is_some_and(|c| b"=>".contains(c))
        {
            return None;
        }
        i = blanks(b, end + 1);
        if opens_literal(b, i) {
            return Some(i);
        }
    }
    // The literal on the next line, indented deeper than nothing: `=` ends its line.
    let next = match b.get(i) {
        Some(b'\n') => i + 1,
        Some(b'\r') if b.get(i + 1) == Some(&b'\n') => i + 2,
        _ => return None,
    };
    let start = blanks(b, next);
    (start > next && start - next <= INDENT_REACH && opens_literal(b, start)).then_some(start)
}

/// A string literal opens at `i`: a quote, or a string prefix and its quote (`b"…"`).
fn opens_literal(b: &[u8], i: usize) -> bool {
    let q = i + string_prefix(b, i);
    matches!(b.get(q), Some(b'"' | b'\''))
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;
    use super::declared_literal;

    #[test]
    fn a_declaration_s_literal_after_its_type_or_on_the_next_line() {
        let typed = |s: &str| declared_literal(s.as_bytes(), 0, true);
        assert_eq!(typed("&str = \"x\";"), Some(7));
        assert_eq!(typed("&'static str =\n    \"x\";"), Some(19));
        assert_eq!(typed("string = 'x'"), Some(9));
        assert_eq!(typed("Optional[str] = \"x\""), Some(16));
        for s in [
            "[u8; 4] = b\"abcd\";",
            "&[u8] = b\"ab\"",
            "[u8; 32] = hex!(\"ab\")",
            "&str = other;",
            "T == \"x\"",
            "= \"x\"",
            "&str;",
            "Foo\n\"x\"",
        ] {
            assert_eq!(typed(s), None, "{s}");
        }
        let untyped = |s: &str| declared_literal(s.as_bytes(), 0, false);
        assert_eq!(untyped("\n    \"x\";"), Some(5));
        assert_eq!(untyped("\"x\";"), None);
        assert_eq!(untyped("\n\"x\";"), None);
        assert_eq!(untyped("\n    other;"), None);
    }

    /// coinbase-pro-rs' layout (a made-up key and secret), and what stays: a declaration whose
    /// value is code or a type alone, and a long run of the trigger (no panic).
    #[test]
    fn typed_and_wrapped_declarations_are_read() {
        for s in [
            "static SECRET: &str = \"Qm9ndXNTZWNyZXQ4Mnh5ejQ1Nzg5cXdlcnR5dWlvcGFzZGZnaGprbA==\";",
            "    static SECRET: &str =\n        \"Qm9ndXNTZWNyZXQ4Mnh5ejQ1Nzg5cXdlcnR5dWlvcGFzZGZnaGprbA==\";",
            "const apiKey: string = \"k8Jd2LqP0zXvR7tYwE3n\";",
            "const API_TOKEN =\n  \"k8Jd2LqP0zXvR7tYwE3nQm9ndXNT\";",
            "class Settings(BaseSettings):\n    secret_key: str = \"k8Jd2LqP0zXvR7tYwE3nQm9ndXNT\"",
            "    api_key: Optional[str] = \"k8Jd2LqP0zXvR7tYwE3nQm9ndXNT\"",
        ] {
            assert_eq!(redact_counted(s).1, 1, "{s}");
        }
        for s in [
            "pub const X_PASSWORD: BINDSTRING = 6;",
            "static SECRET: &str = SECRET_FROM_ENV;",
            "let token: Token = Token::new();",
            "const SECRET =\n  process.env.SECRET;",
            "    secret_key: str = \"changeme\"",
            "    tokens: List[str] = [\"k8Jd2LqP0zXvR7tYwE3nQm9ndXNT\"]",
        ] {
            assert_eq!(redact_counted(s).1, 0, "{s}");
        }
        let _ = redact_counted(&"static SECRET: &str =\n ".repeat(10_000));
        let _ = redact_counted(&"let key: [u8; 3] = ".repeat(12_000));
    }
}
