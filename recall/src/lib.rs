//! The recall tool's search, compiled to a wasm module of its own: the regex
//! engine it needs would double the size of the compaction path's module, and
//! only a call of the tool loads this one.

use wasm_bindgen::prelude::*;

pub mod search;

/// Searches `files` (JSON `[[path, text], …]`) for the tool input `query_json`
/// (`{ query, regex?, role?, limit? }`); answers the text the model reads. A bad
/// input or pattern answers why, starting `recall:`.
#[wasm_bindgen]
pub fn recall(files_json: &str, query_json: &str) -> String {
    let query = match search::parse_query(query_json) {
        Ok(q) => q,
        Err(why) => return why,
    };
    match serde_json::from_str::<Vec<(String, String)>>(files_json) {
        Ok(files) => search::search(&files, &query),
        Err(e) => format!("recall: the history files could not be read: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_through_json() {
        let files = serde_json::json!([["/h/2026-11-29T232701Z-manual.md",
            "# Conversation before compaction\n\n## [3] user\n\nthe zebra-4417 marker\n"]]).to_string();
        let a = recall(&files, r#"{"query":"zebra-4417"}"#);
        assert!(a.contains("zebra-4417") && a.contains("[3] user"), "{a}");
        assert!(recall(&files, r#"{"query":"(","regex":true}"#).starts_with("recall:"));
        assert!(recall("nope", r#"{"query":"x"}"#).starts_with("recall: the history files"));
        assert!(recall(&files, "{}").starts_with("recall:"));
    }
}
