//! The recall tool as the model sees it: its name, description and input
//! schema, added to the session's tool list by the shim's `tool.list` hook (from
//! `spec` as the build wrote it). The search itself is a wasm module of
//! its own (`recall/`), compiled only when the tool is first called: it needs
//! the regex engine, which would double the size of the compaction path's wasm.
//! The tool's input is read here, so a bad one is answered without loading it.

use serde::Serialize;
use serde_json::Value;

/// The tool's name, as the model calls it. A tool a `tool.list` hook adds is no
/// MCP server's, so its name has no `mcp__<plugin>__` (the engine refuses an
/// added one that has); the plugin's name in it keeps it apart from others'.
pub const TOOL_NAME: &str = "compact_plus_recall";

/// The name compact-plus's recall tool had while it was an MCP server's (before the
/// `tool.list` hook): earlier sessions' transcripts and history files hold its calls so.
pub const MCP_NAME: &str = "mcp__compact-plus__recall";

/// Whether a tool call is the recall tool's, under its name now or the one earlier
/// sessions recorded (its answers rank below the person's and the assistant's own words).
pub fn is_recall(tool: &str) -> bool {
    tool.starts_with(TOOL_NAME) || tool.starts_with(MCP_NAME)
}

/// What the model reads about the tool (the engine reads up to 4096 UTF-16
/// units of it).
pub const DESCRIPTION: &str = "Search this session's history: the full text of everything earlier compactions summarized away (messages, tool calls and their results). Use it when the summary lacks an exact detail: a command, an error message, a path, a number, what the user said word for word. With scope \"project\" it searches this project's earlier sessions instead (Claude Code transcripts of this folder, Codex sessions started here, OpenCode prompts that name a file here, summaries compact-plus saved), newest first: call it with no query to list them (tool, date, first and last request, compactions), then search, and read one message in full with session and message. Give words (case-insensitive; a \"quoted phrase\" is one term; messages holding more of the words rank first) or, with regex: true, a regex matched line by line (case-insensitive unless it starts with (?-i)). Narrow with role (user, assistant or tool). Answers the total count and the best excerpts, each with its file and line so you can Read more around it.";

/// The input schema as JSON text, handed to the engine as it is.
pub const INPUT_SCHEMA: &str = r#"{"type":"object","properties":{"query":{"type":"string","description":"Words to find (all cases), a \"quoted phrase\", or with regex: true a regex"},"regex":{"type":"boolean","description":"Read query as a regex (Rust syntax, matched per line). Default false"},"role":{"type":"string","enum":["user","assistant","tool"],"description":"Only the user's messages, the assistant's own text, or tool calls and results"},"limit":{"type":"integer","minimum":1,"maximum":50,"description":"How many messages to show excerpts of (default 8)"},"scope":{"type":"string","enum":["session","project"],"description":"session (default): what this session's compactions moved out; project: this project's earlier sessions"},"session":{"type":"string","description":"scope project: only the earlier session whose id starts with this"},"message":{"type":"integer","minimum":1,"description":"scope project, with session: show this message in full instead of searching"},"offset":{"type":"integer","minimum":0,"description":"with message: the character to start at, to read on"}}}"#;

/// The entry the shim's `tool.list` hook adds to the session's tools (d.ts
/// `ToolInfo`: `mcp: false`, a tool of a hook's own). The build writes it into
/// pkg/ (`RECALL_TOOL`), so the hook answers without waiting for the wasm to
/// compile. An added tool is in the prompt's tool list from the first request
/// on, the summarizer's too, and no MCP server has to connect first
/// (`$.tool.register`'s did, and the first turn waited for it: tests/HOST.md).
pub fn spec() -> Value {
    serde_json::json!({
        "name": TOOL_NAME,
        "description": DESCRIPTION,
        "mcp": false,
        "inputSchema": serde_json::from_str::<Value>(INPUT_SCHEMA).unwrap_or_default(),
    })
}

/// How far the recall tool reaches, as the options set it (`recallTool`,
/// `recallScope`): what the pointer offers and what a call may search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// No recall tool: the pointer offers `rg` alone.
    Off,
    /// This session's history alone.
    Session,
    /// This session's history, and this project's earlier sessions.
    Project,
}

/// Messages shown when the input names no `limit`.
pub const DEFAULT_LIMIT: usize = 8;
/// The most messages one answer shows, whatever `limit` asks for.
pub const MAX_LIMIT: usize = 50;
/// The search costs the text's length times the query's where no literal
/// narrows it (a non-ASCII word matched case-insensitively on text full of it:
/// 0.4 s natively for 256 KB at this length, 1.5 s at 800): a query is words,
/// not a document.
const MAX_QUERY_CHARS: usize = 200;

/// Whose words a search keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    /// Tool calls and their results.
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }
}

/// One search, as the tool's input asks for it; the recall module runs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Query {
    pub text: String,
    pub regex: bool,
    /// `None` searches everything.
    pub role: Option<Role>,
    pub limit: usize,
}

/// What one call of the tool asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// Scope `session`: a search of this session's history.
    Session(Query),
    /// Scope `project`: this project's earlier sessions, whatever tool ran them.
    Project(Project),
}

/// What a call with scope `project` asks of this project's earlier sessions.
// Externally tagged (`{"search": {…}}`), as serde writes an enum; the recall
// module reads it back with its own lazy JSON (`recall/src/handoff.rs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Project {
    /// No query: the sessions, listed, newest first; `session` keeps to the
    /// ones whose id starts so.
    Sessions { session: Option<String> },
    /// A search of them.
    Search { query: Query, session: Option<String> },
    /// One message of one session in full, from `offset` characters on.
    Message { session: String, message: usize, offset: usize },
}

impl Project {
    /// The session id (or its start) the call keeps to.
    pub fn session(&self) -> Option<&str> {
        match self {
            Project::Sessions { session } | Project::Search { session, .. } => session.as_deref(),
            Project::Message { session, .. } => Some(session),
        }
    }
}

/// What the core hands the recall module for one call (`Done::search`): the
/// module reads the files and answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Recall {
    /// This session's history parts, oldest compaction first.
    Session { paths: Vec<String>, query: Query },
    /// This project's earlier sessions: the recall module walks them
    /// (`recall/src/walk/`), knowing this session by its history folder,
    /// `<home>/.claude/compact-history/<id>`.
    Project {
        project: Project,
        #[serde(rename = "historyDir")]
        history_dir: String,
    },
}

/// Where the tool's input says to look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Session,
    Project,
}

/// Reads the tool's whole input. A query is needed in scope `session`; in
/// scope `project` none lists the sessions, and `session` with `message`
/// reads one.
pub fn parse_input(json: &str) -> Result<Request, String> {
    let value: Value = serde_json::from_str(&crate::text::well_formed_json(json)).map_err(|_| not_an_object())?;
    let Value::Object(map) = &value else { return Err(not_an_object()) };
    let asks_query = !matches!(map.get("query"), None | Some(Value::Null));
    // No query and no scope is the sessions view: what the project did before.
    let scope = match map.get("scope") {
        None | Some(Value::Null) if !asks_query && map.get("session").is_none() => Scope::Project,
        None | Some(Value::Null) => Scope::Session,
        Some(Value::String(s)) if s.trim().eq_ignore_ascii_case("session") || s.trim().is_empty() => Scope::Session,
        Some(Value::String(s)) if s.trim().eq_ignore_ascii_case("project") => Scope::Project,
        Some(_) => return Err(r#"recall: scope must be "session" or "project" (or left out)"#.into()),
    };
    let session = match map.get("session") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(_) => return Err("recall: session must be a session id (or its start), as the sessions view lists it".into()),
    };
    // `min` whole: a float's `{}` would bring core's float printer into the module.
    let whole = |k: &str, min: u32| -> Result<Option<usize>, String> {
        match map.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => {
                let n = match v {
                    Value::Number(n) => n.as_f64(),
                    // A whole number written as text; `parse::<f64>` would bring its tables of powers into both modules.
                    Value::String(s) => s.trim().parse::<u32>().ok().map(f64::from),
                    _ => None,
                };
                match n {
                    Some(n) if n.is_finite() && n >= f64::from(min) => Ok(Some(n.floor().min(1e9) as usize)),
                    _ => Err(format!("recall: {k} must be a whole number from {min}")),
                }
            }
        }
    };
    let message = whole("message", 1)?;
    let offset = whole("offset", 0)?.unwrap_or(0);
    if scope == Scope::Session {
        if session.is_some() || message.is_some() {
            return Err(r#"recall: session and message read an earlier session: give scope "project" with them"#.into());
        }
        return Ok(Request::Session(parse_query(json)?));
    }
    let project = match (message, session) {
        (Some(_), None) => {
            return Err("recall: message needs session: the id of the session it is in, as the sessions view or a search lists it".into())
        }
        (Some(message), Some(session)) => Project::Message { session, message, offset },
        (None, session) if asks_query => Project::Search { query: parse_query(json)?, session },
        (None, session) => Project::Sessions { session },
    };
    Ok(Request::Project(project))
}

/// Reads the tool's input. Every error is a sentence for the model, starting
/// with `recall:`, so the caller can answer it as it is.
pub fn parse_query(json: &str) -> Result<Query, String> {
    let value: Value = serde_json::from_str(&crate::text::well_formed_json(json)).map_err(|_| not_an_object())?;
    let Value::Object(map) = value else { return Err(not_an_object()) };
    let regex = match map.get("regex") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("true") => true,
        Some(Value::String(s)) if s.eq_ignore_ascii_case("false") => false,
        Some(_) => return Err("recall: regex must be true or false".into()),
    };
    let text = match map.get("query") {
        None | Some(Value::Null) => {
            return Err("recall: query is missing: give the words (or, with regex: true, the regex) to find".into())
        }
        // A regex keeps its spaces: ` foo` is not `foo`.
        Some(Value::String(s)) if regex => s.clone(),
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(_) => return Err("recall: query must be a string".into()),
    };
    if text.trim().is_empty() {
        return Err("recall: query is empty: give the words (or, with regex: true, the regex) to find".into());
    }
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(format!("recall: query is too long (over {MAX_QUERY_CHARS} characters); search for fewer words"));
    }
    let role = match map.get("role") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "" | "any" | "all" => None,
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => return Err(bad_role()),
        },
        Some(_) => return Err(bad_role()),
    };
    let limit = match map.get("limit") {
        None | Some(Value::Null) => DEFAULT_LIMIT,
        Some(v) => {
            let n = match v {
                Value::Number(n) => n.as_f64(),
                // A whole number written as text; `parse::<f64>` would bring its tables of powers into both modules.
                Value::String(s) => s.trim().parse::<u32>().ok().map(f64::from),
                _ => None,
            };
            match n {
                Some(n) if n.is_finite() && n >= 1.0 => (n.floor().min(MAX_LIMIT as f64)) as usize,
                _ => return Err(format!("recall: limit must be a whole number from 1 to {MAX_LIMIT}")),
            }
        }
    };
    Ok(Query { text, regex, role, limit })
}

fn not_an_object() -> String {
    r#"recall: the input must be a JSON object like {"query": "words to find"}"#.into()
}

fn bad_role() -> String {
    r#"recall: role must be "user", "assistant" or "tool" (or left out)"#.into()
}

/// Whether a file in the history folder is one to search: the markdown parts,
/// not the folder's log or anything hidden.
pub fn is_history_file(name: &str) -> bool {
    name.ends_with(".md") && !name.starts_with('.') && !is_summary_file(name)
}

/// A summary row's text saved beside the history parts (`<stamp>-<trigger>.summary.md`).
pub fn is_summary_file(name: &str) -> bool {
    name.ends_with(".summary.md") && !name.starts_with('.')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn parse_query_reads_every_field() {
        let got = parse_query(r#"{"query":"  cargo test ","role":"Tool","limit":3}"#).unwrap();
        assert_eq!(got, Query { text: "cargo test".into(), regex: false, role: Some(Role::Tool), limit: 3 });
        let got = parse_query(r#"{"query":" ^cargo ","regex":true}"#).unwrap();
        assert_eq!((got.text.as_str(), got.regex), (" ^cargo ", true));
        let got = parse_query(r#"{"query":"x"}"#).unwrap();
        assert_eq!(got, Query { text: "x".into(), regex: false, role: None, limit: DEFAULT_LIMIT });
        let got = parse_query(r#"{"query":"x","role":"any","limit":"5","regex":null,"extra":1}"#).unwrap();
        assert_eq!((got.role, got.limit, got.regex), (None, 5, false));
        assert_eq!(parse_query(r#"{"query":"x","limit":1000}"#).unwrap().limit, MAX_LIMIT);
        assert_eq!(parse_query(r#"{"query":"x","limit":2.9}"#).unwrap().limit, 2);
    }

    #[test]
    fn parse_query_explains_bad_input() {
        let cases = [
            ("", "JSON object"),
            ("[1]", "JSON object"),
            ("\"zebra\"", "JSON object"),
            ("{}", "query is missing"),
            (r#"{"query":null}"#, "query is missing"),
            (r#"{"query":"   "}"#, "query is empty"),
            (r#"{"query":7}"#, "query must be a string"),
            (r#"{"query":"x","regex":"yes"}"#, "regex must be true or false"),
            (r#"{"query":"x","role":"system"}"#, "role must be"),
            (r#"{"query":"x","role":3}"#, "role must be"),
            (r#"{"query":"x","limit":0}"#, "limit must be"),
            (r#"{"query":"x","limit":-2}"#, "limit must be"),
            (r#"{"query":"x","limit":"many"}"#, "limit must be"),
        ];
        for (input, want) in cases {
            let err = parse_query(input).unwrap_err();
            assert!(err.starts_with("recall: "), "{input}: {err}");
            assert!(err.contains(want), "{input}: {err}");
        }
        let long = format!(r#"{{"query":"{}"}}"#, "w ".repeat(MAX_QUERY_CHARS));
        assert!(parse_query(&long).unwrap_err().contains("too long"));
    }

    #[test]
    fn the_tool_spec_is_well_formed() {
        let schema: Value = serde_json::from_str(INPUT_SCHEMA).unwrap();
        assert!(schema.get("required").is_none(), "no query lists the sessions");
        assert!(DESCRIPTION.contains("scope \"project\"") && DESCRIPTION.contains("earlier sessions"));
        assert_eq!(schema["properties"]["limit"]["maximum"], serde_json::json!(MAX_LIMIT));
        assert!(crate::text::len16(DESCRIPTION) < 4096);
        assert!(TOOL_NAME.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    }

    #[test]
    fn parse_input_reads_scope_and_read_more() {
        let q = |text: &str| Query { text: text.into(), regex: false, role: None, limit: DEFAULT_LIMIT };
        assert_eq!(parse_input(r#"{"query":"x"}"#), Ok(Request::Session(q("x"))));
        let view = Request::Project(Project::Sessions { session: None });
        assert_eq!(parse_input(r#"{}"#), Ok(view.clone()), "no query: the sessions view");
        assert_eq!(parse_input(r#"{"scope":"project"}"#), Ok(view));
        assert_eq!(
            parse_input(r#"{"scope":"project","session":"ab","query":"x"}"#),
            Ok(Request::Project(Project::Search { query: q("x"), session: Some("ab".into()) }))
        );
        assert_eq!(
            parse_input(r#"{"scope":"Project","session":" ab12 ","message":"3","offset":10}"#),
            Ok(Request::Project(Project::Message { session: "ab12".into(), message: 3, offset: 10 }))
        );
        for (input, want) in [
            (r#"{"scope":"all","query":"x"}"#, "scope must be"),
            (r#"{"scope":"project","message":2}"#, "message needs session"),
            (r#"{"query":"x","session":"ab"}"#, "give scope \"project\""),
            (r#"{"scope":"project","session":"ab","message":0}"#, "recall: message must be a whole number from 1"),
            (r#"{"scope":"project","offset":-1}"#, "recall: offset must be a whole number from 0"),
            (r#"{"scope":"session"}"#, "query is missing"),
        ] {
            let err = parse_input(input).unwrap_err();
            assert!(err.contains(want), "{input}: {err}");
        }
    }

    #[test]
    fn the_handoff_to_the_recall_module_is_plain_json() {
        let query = Query { text: "x".into(), regex: false, role: Some(Role::User), limit: 3 };
        let search = Recall::Project { project: Project::Search { query, session: None }, history_dir: "/h".into() };
        assert_eq!(
            serde_json::to_string(&search).unwrap(),
            r#"{"project":{"project":{"search":{"query":{"text":"x","regex":false,"role":"user","limit":3},"session":null}},"historyDir":"/h"}}"#
        );
    }

    #[test]
    fn history_files() {
        assert!(is_history_file("2026-11-29T232701Z-manual.md"));
        assert!(is_history_file("2026-11-29T232701Z-auto-2.part3.md"));
        assert!(!is_history_file("log.jsonl"));
        assert!(!is_history_file(".hidden.md"));
        assert!(!is_history_file("2026-11-29T232701Z-manual.summary.md"));
        assert!(is_summary_file("2026-11-29T232701Z-manual.summary.md"));
    }
}
