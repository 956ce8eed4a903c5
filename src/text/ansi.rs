//! Terminal escape sequences, which the interactive terminal leaves in the text
//! of a conversation (a local command's output keeps the colours it drew).

use std::borrow::Cow;

const ESC: char = '\u{1b}';

/// `s` without ANSI escape sequences: CSI (`ESC [` … a final byte), OSC
/// (`ESC ]` … `BEL` or `ESC \`), and the two-character escapes. An escape cut
/// off at the end of the text goes with it.
pub fn strip_ansi(s: &str) -> Cow<'_, str> {
    if !s.contains(ESC) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != ESC {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                // Parameters and intermediates, up to a final byte in @..~.
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == ESC && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_go() {
        assert_eq!(strip_ansi("\u{1b}[2mCompacted (ctrl+o to see full summary)\u{1b}[22m"), "Compacted (ctrl+o to see full summary)");
        assert_eq!(strip_ansi("a\u{1b}[1;31mred\u{1b}[0m b"), "ared b");
        assert_eq!(strip_ansi("link \u{1b}]8;;http://x\u{7}x\u{1b}]8;;\u{1b}\\ end"), "link x end");
        assert_eq!(strip_ansi("cut \u{1b}[12"), "cut ");
        assert_eq!(strip_ansi("lone \u{1b}"), "lone ");
        assert!(matches!(strip_ansi("plain"), Cow::Borrowed("plain")));
    }
}
