//! The default a program gives an environment variable it reads: Node's `process.env.NAME ||
//! '…'` and `?? '…'` (Node.js's docs, "process.env"; MDN, "Logical OR (||)" and "Nullish
//! coalescing operator (??)"): the variable is a reference, the literal after the operator
//! is the value the key holds when the variable is unset — a credential under a key naming
//! one, as the default of Python's `getenv("K", "…")` is (`pair`).

use super::shape::{blanks, is_word, run_within, NAME_REACH};

/// Where the quoted default starts, if the value at `at` is an environment variable with a
/// default: its opening quote.
pub(crate) fn env_default(b: &[u8], at: usize) -> Option<usize> {
    let name = at + b.get(at..)?.strip_prefix(b"process.env.").map(|_| 12)?;
    let end = run_within(b, name, NAME_REACH, is_word);
    let op = blanks(b, end);
    let op = match b.get(op..op + 2) {
        Some(b"||" | b"??") if end > name => op + 2,
        _ => return None,
    };
    let quote = blanks(b, op);
    matches!(b.get(quote), Some(b'"' | b'\'' | b'`')).then_some(quote)
}

#[cfg(test)]
mod tests {
    use super::super::redact;

    #[test]
    fn a_literal_after_an_environment_variable_is_its_default() {
        let hex = "9c4e1f0a7b3d52e86a1c0f4b9d2e7a3c5f8b1d6e0a4c9f27";
        let text = format!("const apiKey = process.env.API_KEY || '{hex}';");
        assert!(!redact(&text).contains(hex));
        let text = format!("const token = process.env.TOKEN ?? \"{hex}\";");
        assert!(!redact(&text).contains(hex));
        for text in [
            "const apiKey = process.env.API_KEY || '';",
            "const apiKey = process.env.API_KEY || 'YOUR_API_KEY';",
            "const apiKey = process.env.API_KEY || defaultKey;",
            "const apiKey = process.env.API_KEY;",
        ] {
            assert_eq!(redact(text), text);
        }
        let long = "key = process.env.A || ".repeat(9_000);
        assert_eq!(redact(&long), long);
    }
}
