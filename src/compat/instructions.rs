//! Instruction files (CLAUDE.md, AGENTS.md) compared with the engine's copy, the way the
//! reference does it. The engine's own reading of those files is [`crate::instructions`].

use crate::text;

/// The reference's view of instruction text as the engine loads it: no
/// frontmatter, no HTML comments.
pub fn strip_instruction_text(raw: &str) -> String {
    let mut text = raw.replace("\r\n", "\n");
    if text.starts_with("---\n") {
        if let Some(end) = text.get(4..).and_then(|r| r.find("\n---")).map(|e| e + 4) {
            // `text.indexOf('\n', end + 1) + 1`: no newline after the fence keeps it all.
            let from = text.get(end + 1..).and_then(|r| r.find('\n')).map_or(0, |n| end + 1 + n + 1);
            text = text.get(from..).unwrap_or("").to_owned();
        }
    }
    text::remove_spans(&text, "<!--", "-->")
}

/// Equal but for line endings, trailing spaces on lines, and outer blank space.
pub fn same_text(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> String {
        let s = s.replace("\r\n", "\n");
        let lines: Vec<&str> = s.split('\n').map(text::trim_end).collect();
        text::trim(&lines.join("\n")).to_owned()
    }
    norm(a) == norm(b)
}

/// The reference's import test, `/^@\S/m`: a line that starts with `@` and a
/// non-space. The engine expands those into the content, so disk text lacks them.
pub fn has_import_line(raw: &str) -> bool {
    let mut at_line_start = true;
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if at_line_start && c == '@' {
            if let Some(&n) = chars.peek() {
                if !text::is_js_space(n) {
                    return true;
                }
            }
        }
        at_line_start = text::is_js_line_end(c);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_frontmatter_and_comments() {
        assert_eq!(strip_instruction_text("---\na: 1\n---\n# T\n<!-- c -->\nbody"), "# T\n\nbody");
        assert_eq!(strip_instruction_text("---\r\na: 1\r\n---\r\nx"), "x");
        // No closing fence: left as is.
        assert_eq!(strip_instruction_text("---\na: 1\nbody"), "---\na: 1\nbody");
        // A closing fence with nothing after it: the reference keeps everything.
        assert_eq!(strip_instruction_text("---\na: 1\n---"), "---\na: 1\n---");
        assert_eq!(strip_instruction_text("a<!-- x\ny -->b<!-- open"), "ab<!-- open");
    }

    #[test]
    fn same_text_ignores_trailing_space_and_crlf() {
        assert!(same_text("a  \r\nb\t\n\n", "a\nb"));
        assert!(!same_text("a\n\nb", "a\nb"));
    }

    #[test]
    fn import_lines() {
        assert!(has_import_line("x\n@./other.md"));
        assert!(has_import_line("@AGENTS.md"));
        assert!(has_import_line("x\r@y"));
        assert!(!has_import_line("mail me @ home"));
        assert!(!has_import_line("x\n@ y"));
        assert!(!has_import_line("x @y"));
    }
}
