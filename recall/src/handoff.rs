//! What the core hands the module for one call (`recall_tool::Recall`, as the
//! core serializes it), read back with the module's own lazy JSON: a derived
//! deserializer per type would cost the module about 10 KB of wasm.

use compact_plus::recall_tool::{Project, Query, Recall, Role};

use crate::json::{fields, is_true, items, text};

fn string(raw: Option<&str>) -> Option<String> {
    raw.and_then(text).map(|t| t.into_owned())
}

fn number(raw: Option<&str>) -> Option<usize> {
    raw?.parse().ok()
}

fn query(raw: &str) -> Option<Query> {
    let [t, regex, role, limit] = fields(raw, ["text", "regex", "role", "limit"])?;
    let role = match role.and_then(text).as_deref() {
        Some("user") => Some(Role::User),
        Some("assistant") => Some(Role::Assistant),
        Some("tool") => Some(Role::Tool),
        _ => None,
    };
    Some(Query { text: string(t)?, regex: is_true(regex), role, limit: number(limit)? })
}

fn project(raw: &str) -> Option<Project> {
    let [sessions, search, message] = fields(raw, ["sessions", "search", "message"])?;
    if let Some(s) = sessions {
        let [session] = fields(s, ["session"])?;
        return Some(Project::Sessions { session: string(session) });
    }
    if let Some(s) = search {
        let [q, session] = fields(s, ["query", "session"])?;
        return Some(Project::Search { query: query(q?)?, session: string(session) });
    }
    let [session, n, offset] = fields(message?, ["session", "message", "offset"])?;
    Some(Project::Message { session: string(session)?, message: number(n)?, offset: number(offset)? })
}

/// The core's handoff, or `None` when it is not one.
pub fn read(json: &str) -> Option<Recall> {
    let [session, proj] = fields(json, ["session", "project"])?;
    if let Some(s) = session {
        let [paths, q] = fields(s, ["paths", "query"])?;
        let paths = items(paths?)?.into_iter().map(|p| string(Some(p))).collect::<Option<Vec<_>>>()?;
        return Some(Recall::Session { paths, query: query(q?)? });
    }
    let [p, dir] = fields(proj?, ["project", "historyDir"])?;
    Some(Recall::Project { project: project(p?)?, history_dir: string(dir)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handoff_reads_back_as_the_core_wrote_it() {
        let query = Query { text: "say \"x\"".into(), regex: true, role: Some(Role::User), limit: 3 };
        let dir = "/h/.claude/compact-history/s".to_owned();
        for recall in [
            Recall::Session { paths: vec!["/h/a.md".into(), "/h/b.md".into()], query: query.clone() },
            Recall::Session { paths: vec![], query: Query { role: None, ..query.clone() } },
            Recall::Project { project: Project::Sessions { session: None }, history_dir: dir.clone() },
            Recall::Project { project: Project::Sessions { session: Some("ab".into()) }, history_dir: dir.clone() },
            Recall::Project { project: Project::Search { query, session: None }, history_dir: dir.clone() },
            Recall::Project { project: Project::Message { session: "ab".into(), message: 2, offset: 9 }, history_dir: dir },
        ] {
            let json = serde_json::to_string(&recall).unwrap();
            assert_eq!(read(&json), Some(recall), "{json}");
        }
        assert_eq!(read("{}"), None);
        assert_eq!(read("nope"), None);
    }
}
