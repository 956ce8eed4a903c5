//! Checks shared by the fuzz targets and `tests/properties.rs`.

use compact_plus::message::Messages;

/// A history part's body without the `## [i] <role> (continued)` heading a
/// continued message starts with. The role there may be cut short (it is host
/// data, bounded in the heading), so any leading piece of the role matches.
pub fn strip_continued<'b>(body: &'b str, msgs: &Messages) -> &'b str {
    const MARK: &str = " (continued)\n\n";
    // `## [n] role (continued)`, n numbering the messages as the history shows them.
    let Some((num, rest)) = body.strip_prefix("## [").and_then(|r| r.split_once("] ")) else { return body };
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return body;
    }
    for m in msgs.iter().flatten() {
        let role = m.role.to_js_string();
        for (at, _) in rest.match_indices(MARK) {
            if at > role.len() {
                break;
            }
            if rest.get(..at).is_some_and(|piece| role.starts_with(piece)) {
                return rest.get(at + MARK.len()..).unwrap_or("");
            }
        }
    }
    body
}
