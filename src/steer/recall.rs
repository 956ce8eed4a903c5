//! `/recall <words>` for the person: the recall tool's own searches (this
//! session's history, then this project's earlier sessions), run through the
//! tool's request path so the two never differ, and answered on the person's
//! screen alone. Each answer is bounded here: the terminal draws every line
//! of a command's output (measured: 40 lines, none folded).

use crate::text;

/// Messages each search shows, as the tool's `limit`.
pub const LIMIT: usize = 3;
/// The lines and characters one search's answer may take on screen.
const MAX_LINES: usize = 24;
const MAX_CHARS: usize = 2400;
/// A line longer than this is cut (the excerpts' own lines are already short).
const LINE_CHARS: usize = 220;

/// The tool's input for each search: this session, then the project.
pub fn inputs(query: &str, project: bool) -> Vec<String> {
    let q = serde_json::to_string(query).unwrap_or_default();
    let mut out = vec![format!("{{\"query\":{q},\"limit\":{LIMIT}}}")];
    if project {
        out.push(format!("{{\"query\":{q},\"scope\":\"project\",\"limit\":{LIMIT}}}"));
    }
    out
}

/// One answer cut to its room on screen, saying so where it was cut.
fn bounded(answer: &str) -> String {
    let mut out = String::new();
    let total = answer.trim_end().lines().count();
    for (i, line) in answer.trim_end().lines().enumerate() {
        let cut = if text::len16(line) > LINE_CHARS { text::head(line, LINE_CHARS - 1) } else { line };
        if i >= MAX_LINES || out.len() + cut.len() > MAX_CHARS {
            out.push_str("  … ");
            out.push_str(&(total - i).to_string());
            out.push_str(" more lines (narrow the words, or open the file above)");
            break;
        }
        out.push_str(cut);
        out.push_str(if cut.len() < line.len() { "…\n" } else { "\n" });
    }
    out.trim_end().to_owned()
}

/// The person's answer: the query, then each search under its heading.
pub fn answer(query: &str, session: &str, project: Option<&str>) -> String {
    let mut out = String::from("recall ");
    out.push_str(&serde_json::to_string(query).unwrap_or_default());
    out.push_str("\n\nthis session (saved history):\n");
    out.push_str(&bounded(session));
    if let Some(p) = project {
        out.push_str("\n\nearlier sessions of this project:\n");
        out.push_str(&bounded(p));
    }
    out.push_str("\n\n(for you alone: nothing of this goes to the model)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_search_is_bounded_and_labelled() {
        let long: String = (1..=60).map(|i| format!("line {i} {}\n", "w".repeat(300))).collect();
        let a = answer("flaky \"parser\"", &long, Some("recall: no hits"));
        assert!(a.starts_with("recall \"flaky \\\"parser\\\"\"\n\nthis session"), "{a}");
        assert!(a.contains("… 52 more lines") || a.contains("more lines"), "{a}");
        assert!(a.contains("\n\nearlier sessions of this project:\nrecall: no hits"));
        assert!(a.lines().all(|l| l.chars().count() <= LINE_CHARS + 80));
        assert!(a.len() < 2 * MAX_CHARS + 600, "{}", a.len());
        assert!(!answer("x", "y", None).contains("earlier sessions"));
    }

    #[test]
    fn inputs_are_the_tools_own() {
        let i = inputs("a b", true);
        assert_eq!(i.len(), 2);
        use crate::recall_tool::{parse_input, Project, Request};
        assert!(matches!(parse_input(&i[0]), Ok(Request::Session(q)) if q.limit == LIMIT && q.text == "a b"));
        assert!(matches!(parse_input(&i[1]), Ok(Request::Project(Project::Search { query, .. })) if query.limit == LIMIT));
        assert_eq!(inputs("a", false).len(), 1);
    }
}
