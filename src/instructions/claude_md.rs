//! The `claudeMd` block the engine renders from its `instructionFiles`. No hook writes it; the
//! tests rebuild it to hold the port's copies to what the engine showed the model.

use super::utf16::is_js_space_char;

/// The sentence the engine's `claudeMd` block starts with.
pub const CLAUDE_MD_PREAMBLE: &str = "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.";

/// What the `claudeMd` block writes after a file's path, by the file's `kind` in
/// `instructionFiles`; `None` for `memory` (whose content the engine rewrites before showing
/// it) and for kinds it does not know.
pub fn kind_note(kind: &str) -> Option<&'static str> {
    match kind {
        "project" => Some(" (project instructions, checked into the codebase)"),
        "local" => Some(" (user's private project instructions, not checked in)"),
        "managed" => Some(" (organization-managed policy instructions)"),
        "user" => Some(" (user's private global instructions for all projects)"),
        _ => None,
    }
}

/// The `claudeMd` block text the engine renders from `instructionFiles` entries
/// (`(path, kind, content)`, in order): the preamble, then per file its path and kind's note
/// and its content with JavaScript `trim()` applied (a leading BOM and the last newline go).
/// `""` for no files; `None` when a kind has no note here (see [`kind_note`]); a managed file
/// the engine marks unverified is rendered differently and is not covered.
pub fn claude_md_text<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> Option<String> {
    let mut sections = Vec::new();
    for (path, kind, content) in files {
        let note = kind_note(kind)?;
        sections.push(format!(
            "Contents of {path}{note}:\n\n{}",
            content.trim_matches(is_js_space_char)
        ));
    }
    if sections.is_empty() {
        return Some(String::new());
    }
    Some(format!("{CLAUDE_MD_PREAMBLE}\n\n{}", sections.join("\n\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_md_text_renders_as_the_engine_does() {
        let text = claude_md_text([("/p/CLAUDE.md", "project", "\u{feff}# P\r\n\r\nBody.  \r\n")]);
        let expected = format!(
            "{CLAUDE_MD_PREAMBLE}\n\nContents of /p/CLAUDE.md (project instructions, checked into the codebase):\n\n# P\r\n\r\nBody."
        );
        assert_eq!(text.as_deref(), Some(expected.as_str()));
        assert_eq!(claude_md_text([]).as_deref(), Some(""));
        assert_eq!(claude_md_text([("/m", "memory", "x")]), None);
    }
}
