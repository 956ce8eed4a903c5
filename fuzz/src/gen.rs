//! Structured inputs for compact-plus, made from a stream of bytes.
//!
//! One generator serves both the fuzz targets (bytes from libFuzzer, through
//! `arbitrary`) and the property tests (bytes from proptest), so both explore the
//! same shapes: host messages with odd fields, text full of graphemes, JS
//! whitespace, markup the core looks for, U+FFFD where a lone surrogate was, and
//! fields that are empty or huge. Every choice reads one byte and 0 picks the
//! plainest option, so a shrinking tester shrinks towards plain inputs. An
//! exhausted source reads zeros, so every generator ends.

use serde_json::{json, Map, Value};

/// Where the bytes come from.
pub trait Source {
    /// The next byte, 0 once the source is exhausted.
    fn byte(&mut self) -> u8;
}

/// A plain slice of bytes.
pub struct Tape<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Tape<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Tape { bytes, at: 0 }
    }
}

impl Source for Tape<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
}

/// A number below `n` (0 for `n == 0`).
pub fn below<S: Source + ?Sized>(s: &mut S, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let wide = if n > 256 { usize::from(s.byte()) << 8 | usize::from(s.byte()) } else { usize::from(s.byte()) };
    wide % n
}

pub fn pick<'p, S: Source + ?Sized, T>(s: &mut S, pool: &'p [T]) -> &'p T {
    &pool[below(s, pool.len())]
}

pub fn flag<S: Source + ?Sized>(s: &mut S) -> bool {
    s.byte() & 1 == 1
}

/// Any f64 from eight bytes.
pub fn raw_f64<S: Source + ?Sized>(s: &mut S) -> f64 {
    let mut b = [0u8; 8];
    for x in &mut b {
        *x = s.byte();
    }
    f64::from_le_bytes(b)
}

/// Budgets, limits and times as a host might send them, odd ones included.
pub fn number<S: Source + ?Sized>(s: &mut S) -> f64 {
    match s.byte() % 8 {
        0 => below(s, 256) as f64,
        1 => below(s, 20_000) as f64,
        2 => below(s, 20_000) as f64 + f64::from(s.byte()) / 256.0,
        3 => *pick(s, &[0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e21, 8.64e15, -8.64e15, 0.1]),
        4 => -(below(s, 20_000) as f64),
        5 => raw_f64(s),
        _ => below(s, 70_000) as f64 * f64::from(s.byte().max(1)),
    }
}

/// Pieces of text the core treats specially, or that are easy to get wrong.
const ATOMS: &[&str] = &[
    "a", "word", " ", "\n", "\r\n", "\t", "  ", "\r",
    // JS whitespace that Rust's `trim` does not agree on, and one it takes that JS does not
    "\u{a0}", "\u{feff}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{b}", "\u{85}", "\u{180e}", "\u{200b}",
    // multi-unit graphemes
    "é", "e\u{301}", "😀", "👨\u{200d}👩\u{200d}👧", "🇫🇷", "क्षि", "한", "\u{fffd}", "\u{10ffff}", "\0",
    // markup the core searches for
    "<system-reminder>", "</system-reminder>", "<command-name>", "<local-command-stdout>", "Caveat:",
    "[Request interrupted by user]", "<task-notification>",
    "This session is being continued from a previous conversation",
    "<user-messages-verbatim>", "</user-messages-verbatim>", "\n--- user message ---\n",
    "---\n", "\n---", "<!--", "-->", "@", "@./x.md", "## [1] user", "(continued)", "\\", "\"", "/", "..",
    // Markdown the engine's lexer splits blocks on
    "```", "~~~", "    ", "> ", "- ", "* ", "1. ", "[x]: /url", "<div>", "</div>", "# ", "***", "| a |", "\u{2029}",
    "\n\n", "<pre>", "</pre>", "<?", "?>", "<![CDATA[", "]]>",
    // credential shapes for redaction, and identifiers for the audit
    "AKIAIOSFODNN7EXAMPLE", "ghp_", "sk-ant-api03-", "xoxb-", "password=", "Authorization: Bearer ", "eyJhbGciOiJIUzI1NiJ9.",
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "https://user:pass@host/x", "=", ":",
    "src/main.rs", "a1b2c3d4e5f6", "https://example.com/a?b=c", "Error: ", "`", "(?i)", ".*", "[", "(",
    "### tool Bash", "## [2] assistant", "# Conversation before compaction",
];

/// A string of atoms, single chars, raw bytes (read as UTF-8 with U+FFFD for what
/// is not, as JS's `toWellFormed` leaves a lone surrogate) and long runs.
pub fn text<S: Source + ?Sized>(s: &mut S) -> String {
    let pieces = match s.byte() % 8 {
        0 => 0,
        1..=5 => below(s, 12),
        6 => below(s, 64),
        _ => below(s, 400),
    };
    let mut out = String::new();
    for _ in 0..pieces {
        match s.byte() % 12 {
            0..=4 | 11 => out.push_str(pick::<_, &str>(s, ATOMS)),
            5 | 6 => {
                let c = u32::from(s.byte()) << 16 | u32::from(s.byte()) << 8 | u32::from(s.byte());
                out.push(char::from_u32(c % 0x11_0000).unwrap_or('\u{fffd}'));
            }
            7 => {
                let n = below(s, 16);
                let bytes: Vec<u8> = (0..n).map(|_| s.byte()).collect();
                out.push_str(&String::from_utf8_lossy(&bytes));
            }
            8 => {
                // a long run, past the per-message and per-result caps
                let unit = *pick(s, &["x", "é", "😀", "ab\n", "e\u{301}", " "]);
                let n = below(s, 1 << 14) + 1;
                out.push_str(&unit.repeat(n));
            }
            9 => out.push_str(&below(s, 100_000).to_string()),
            _ => {
                // an earlier summary's verbatim block, as the core renders it
                out.push_str("<user-messages-verbatim>\nThe user's own messages.\n");
                for _ in 0..below(s, 4) {
                    out.push_str("\n--- user message ---\n");
                    for _ in 0..below(s, 4) {
                        out.push_str(pick::<_, &str>(s, ATOMS));
                    }
                }
                if s.byte() % 8 != 7 {
                    out.push_str("\n</user-messages-verbatim>");
                }
            }
        }
    }
    out
}

/// Any JSON value, nested up to `depth`.
pub fn json<S: Source + ?Sized>(s: &mut S, depth: usize) -> Value {
    let kinds = if depth == 0 { 5 } else { 7 };
    match s.byte() % kinds {
        0 => Value::Null,
        1 => Value::Bool(flag(s)),
        2 => serde_json::Number::from_f64(number(s)).map_or(Value::Null, Value::Number),
        3 | 4 => Value::String(text(s)),
        5 => Value::Array((0..below(s, 6)).map(|_| json(s, depth - 1)).collect()),
        _ => {
            let mut map = Map::new();
            for _ in 0..below(s, 6) {
                let key = if flag(s) { pick(s, KEYS).to_string() } else { text(s) };
                map.insert(key, json(s, depth - 1));
            }
            Value::Object(map)
        }
    }
}

/// Field names the core reads, so random objects sometimes have them.
const KEYS: &[&str] = &[
    "role", "text", "handle", "toolUses", "toolResults", "tool", "input", "isError", "messages", "trigger",
    "agentId", "instructions", "message", "type", "instructionFiles", "path", "kind", "content", "reason",
    "context", "tokens", "breakdown", "isAutoCompactEnabled", "autoCompactThreshold", "name", "isLink",
    "mtimeMs", "realPath", "ok", "err", "tokensBefore", "tokensAfter",
];

/// A tool input: deeply nested sometimes, as a model's tool call may be.
fn tool_input<S: Source + ?Sized>(s: &mut S) -> Value {
    match s.byte() % 4 {
        0 => json!({"command": text(s)}),
        1 => json(s, 4),
        2 => {
            let depth = below(s, 300);
            let mut v = Value::String(text(s));
            for i in 0..depth {
                v = if i % 2 == 0 { json!({ "k": v }) } else { json!([v]) };
            }
            v
        }
        _ => Value::Null,
    }
}

fn role<S: Source + ?Sized>(s: &mut S) -> Option<Value> {
    Some(match s.byte() % 8 {
        0..=2 => json!("user"),
        3 | 4 => json!("assistant"),
        5 => return None,
        6 => json(s, 1),
        _ => json!(*pick(s, &["system", "User", "", "user ", "tool"])),
    })
}

/// One host message, `{ role, text, handle, toolUses, toolResults }`, any field
/// missing or of the wrong type now and then; or no object at all.
pub fn message<S: Source + ?Sized>(s: &mut S) -> Value {
    if s.byte() % 16 == 15 {
        return json(s, 2);
    }
    let mut m = Map::new();
    if let Some(r) = role(s) {
        m.insert("role".into(), r);
    }
    match s.byte() % 8 {
        0..=4 => {
            m.insert("text".into(), Value::String(text(s)));
        }
        5 => {}
        _ => {
            m.insert("text".into(), json(s, 1));
        }
    }
    match s.byte() % 4 {
        0 => {}
        1 => {
            m.insert("handle".into(), json!(format!("h{}", below(s, 8))));
        }
        _ => {
            m.insert("handle".into(), json(s, 1));
        }
    }
    match s.byte() % 4 {
        0 => {}
        1 => {
            m.insert("toolUses".into(), json(s, 1));
        }
        _ => {
            let uses: Vec<Value> = (0..below(s, 4))
                .map(|_| {
                    if s.byte() % 8 == 7 {
                        return json(s, 1);
                    }
                    let mut u = Map::new();
                    u.insert("tool".into(), if flag(s) { json!(*pick(s, &["Bash", "Read", "Edit"])) } else { json(s, 1) });
                    if s.byte() % 4 != 0 {
                        u.insert("input".into(), tool_input(s));
                    }
                    if flag(s) {
                        u.insert("text".into(), Value::String(text(s)));
                    }
                    u.insert("isError".into(), json(s, 0));
                    Value::Object(u)
                })
                .collect();
            m.insert("toolUses".into(), Value::Array(uses));
        }
    }
    if s.byte() % 4 == 0 {
        m.insert("toolResults".into(), json(s, 1));
    }
    Value::Object(m)
}

pub fn messages<S: Source + ?Sized>(s: &mut S) -> Value {
    let n = match s.byte() % 4 {
        0 => below(s, 4),
        1 | 2 => below(s, 16),
        _ => below(s, 200),
    };
    Value::Array((0..n).map(|_| message(s)).collect())
}

/// The hooks the core runs, as the shim names them.
pub const HOOKS: [&str; 8] = [
    "session.compact",
    "session.append",
    "prompt.context",
    "turn.complete",
    "turn-end",
    "tool.call",
    "command.run",
    "session.end",
];

/// An instruction file as `prompt.context` lists it.
fn instruction_file<S: Source + ?Sized>(s: &mut S) -> Value {
    if s.byte() % 8 == 7 {
        return json(s, 2);
    }
    json!({
        "path": if flag(s) { json!(format!("/p/CLAUDE{}.md", below(s, 4))) } else { json(s, 0) },
        "kind": *pick(s, &["project", "user", "memory", "managed", "local", ""]),
        "content": if flag(s) { Value::String(instruction_text(s)) } else { json(s, 0) },
    })
}

/// Instruction text: frontmatter, comments, imports, line ending noise.
pub fn instruction_text<S: Source + ?Sized>(s: &mut S) -> String {
    let mut out = String::new();
    if flag(s) {
        out.push_str(pick::<_, &str>(s, &["---\n", "---\r\n", "---"]));
        out.push_str(&text(s));
        out.push_str(pick::<_, &str>(s, &["\n---\n", "\n---", "\r\n---\r\n", ""]));
    }
    for _ in 0..below(s, 6) {
        out.push_str(&text(s));
        out.push_str(pick::<_, &str>(s, &["\n", "\r\n", "  \n", "<!-- c -->", "<!--", "-->", "\n@imp.md\n", "\n@ x\n"]));
    }
    out
}

/// A slash command's row as the engine keeps it, with any name and arguments.
fn command_row<S: Source + ?Sized>(s: &mut S) -> String {
    let name = *pick(s, &["pin", "unpin", "recall", "compact", ""]);
    format!(
        "<command-name>/{name}</command-name>\n            <command-message>{name}</command-message>\n            <command-args>{}</command-args>",
        text(s)
    )
}

/// The event a hook starts with: its usual shape with odd values, or any JSON.
pub fn event<S: Source + ?Sized>(s: &mut S, hook: &str) -> String {
    if s.byte() % 16 == 15 {
        return match s.byte() % 4 {
            0 => text(s),
            _ => json(s, 3).to_string(),
        };
    }
    let agent = || json!(null);
    let mut e = match hook {
        "session.compact" => json!({
            "trigger": *pick(s, &["auto", "manual", "precompute", "plugin", ""]),
            "messages": messages(s),
            "instructions": if flag(s) { Value::String(text(s)) } else { json(s, 0) },
            "agentId": agent(),
            // as the shim sends it: the texts to come by `texts` and `pack`
            "textsDeferred": flag(s),
        }),
        // door `compaction` (the summary row) or `command` (a slash command's row, as the
        // engine writes it: tests/HOST.md "The person's commands and lines")
        "session.append" => json!({
            "door": *pick(s, &["compaction", "command", ""]),
            "message": json!({
                "type": *pick(s, &["user", "assistant", "system"]),
                "role": *pick(s, &["user", "assistant"]),
                "content": [{"type": "text", "text": if flag(s) { command_row(s) } else { text(s) }}],
            }),
            "agentId": agent(),
        }),
        // compact-plus's slash commands as the person types them, and others
        "command.run" => json!({
            "command": *pick(s, &["pin", "unpin", "recall", "compact", ""]),
            "args": if flag(s) { Value::String(text(s)) } else { json(s, 0) },
        }),
        "prompt.context" => json!({
            "instructionFiles": (0..below(s, 5)).map(|_| instruction_file(s)).collect::<Vec<_>>(),
        }),
        "turn.complete" => json!({
            "reason": *pick(s, &["answer", "tool", "abort", ""]),
            "agentId": agent(),
        }),
        // the recall tool's input, as the model wrote it
        "tool.call" => {
            let mut q = json!({ "query": text(s) });
            if flag(s) {
                q["regex"] = json(s, 0);
            }
            if flag(s) {
                q["role"] = if flag(s) { json!(*pick(s, &["user", "assistant", "tool"])) } else { json(s, 0) };
            }
            if flag(s) {
                q["limit"] = json(s, 0);
            }
            q
        }
        _ => json!({}),
    };
    if s.byte() % 8 == 7 {
        if let Some(obj) = e.as_object_mut() {
            obj.insert("agentId".into(), json(s, 0));
        }
    }
    if s.byte() % 8 == 7 {
        // one field of the wrong type
        if let Some(obj) = e.as_object_mut() {
            let key = pick(s, KEYS).to_string();
            obj.insert(key, json(s, 2));
        }
    }
    e.to_string()
}
