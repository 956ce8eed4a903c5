//! The recall tool as the model sees it: its name, description and input
//! schema, registered at `session.start`. The search itself is a wasm module of
//! its own (`recall/`), compiled only when the tool is first called: it needs
//! the regex engine, which would double the size of the compaction path's wasm.

/// The tool's short name; the engine lists it as `mcp__<plugin>__recall`.
pub const TOOL_NAME: &str = "recall";

/// What the model reads about the tool (the engine reads up to 4096 UTF-16
/// units of it).
pub const DESCRIPTION: &str = "Search this session's history: the full text of everything earlier compactions summarized away (messages, tool calls and their results). Use it when the summary lacks an exact detail: a command, an error message, a path, a number, what the user said word for word. Give words (case-insensitive; a \"quoted phrase\" is one term; messages holding more of the words rank first) or, with regex: true, a regex matched line by line (case-insensitive unless it starts with (?-i)). Narrow with role (user, assistant or tool). Answers the total count and the best excerpts, each with its file and line so you can Read more around it.";

/// The input schema as JSON text, handed to `$.tool.register` as it is.
pub const INPUT_SCHEMA: &str = r#"{"type":"object","properties":{"query":{"type":"string","description":"Words to find (all cases), a \"quoted phrase\", or with regex: true a regex"},"regex":{"type":"boolean","description":"Read query as a regex (Rust syntax, matched per line). Default false"},"role":{"type":"string","enum":["user","assistant","tool"],"description":"Only the user's messages, the assistant's own text, or tool calls and results"},"limit":{"type":"integer","minimum":1,"maximum":50,"description":"How many messages to show excerpts of (default 8)"}},"required":["query"]}"#;

/// Whether a file in the history folder is one to search: the markdown parts,
/// not the folder's log or anything hidden.
pub fn is_history_file(name: &str) -> bool {
    name.ends_with(".md") && !name.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_tool_spec_is_well_formed() {
        let schema: Value = serde_json::from_str(INPUT_SCHEMA).unwrap();
        assert_eq!(schema["required"], serde_json::json!(["query"]));
        assert_eq!(schema["properties"]["limit"]["maximum"], serde_json::json!(50));
        assert!(crate::text::len16(DESCRIPTION) < 4096);
        assert!(TOOL_NAME.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    }

    #[test]
    fn history_files() {
        assert!(is_history_file("2026-11-29T232701Z-manual.md"));
        assert!(is_history_file("2026-11-29T232701Z-auto-2.part3.md"));
        assert!(!is_history_file("log.jsonl"));
        assert!(!is_history_file(".hidden.md"));
    }
}
