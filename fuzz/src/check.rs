//! Checks shared by the fuzz targets and `tests/properties.rs`.

use compact_plus::message::Messages;

/// A history part's body without the `## [i] <role> (continued)` heading a
/// continued message starts with. The role there may be cut short (it is host
/// data, bounded in the heading), so any leading piece of the role matches.
pub fn strip_continued<'b>(body: &'b str, msgs: &Messages) -> &'b str {
    const MARK: &str = " (continued)\n\n";
    for (i, m) in msgs.iter().enumerate() {
        let Some(m) = m else { continue };
        let Some(rest) = body.strip_prefix(&format!("## [{i}] ")) else { continue };
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
