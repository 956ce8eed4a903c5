//! The conversation before compaction, as searchable markdown.
//!
//! One `## [n] role` heading per message, tool calls as `### tool <name>` with
//! their input and result, so `rg` (or the recall tool) finds a word and the
//! message it came from. The messages are numbered as the file shows them,
//! 1, 2, 3 … with no gaps, and the header's count is the number of headings: a
//! user row that only carries tool results is shown under the assistant's call
//! that made them, an empty row not at all, and neither takes a number.

use crate::message::Messages;
use crate::text;

/// How much of a tool's input (its JSON) and of its result the history keeps, in
/// UTF-16 units (`text::cut_middle`): the audit lists only what these keep.
pub const TOOL_INPUT_CHARS: f64 = 2000.0;
pub const TOOL_RESULT_CHARS: f64 = 12000.0;
const TOOL_NOTE: &str = "see the transcript";

/// What the first lines of the file say about it.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    pub session_id: String,
    pub at: String,
    pub trigger: String,
}

/// One message's block: its `## [n] role` heading, its text, and each tool call
/// with its input and result (long ones cut). The one renderer of the format,
/// for the parts and the reference's whole text alike; written straight into one
/// string. `None` when the message has nothing to show: a user row that only
/// carries tool results, an empty row.
pub(crate) fn message_block(i: usize, m: &crate::message::Message) -> Option<String> {
    let text = text::trim(m.text());
    let uses = &m.tool_uses.0;
    if m.is_user() && text.is_empty() && m.tool_results > 0 {
        return None;
    }
    if text.is_empty() && uses.is_empty() {
        return None;
    }
    let size = text.len() + uses.iter().map(|u| 64 + u.input.as_ref().map_or(2, |r| r.get().len()).min(8200) + u.text.as_ref().map_or(0, |t| t.len()).min(49200)).sum::<usize>();
    let mut out = String::with_capacity(size + 32);
    out.push_str("## [");
    out.push_str(&i.to_string());
    out.push_str("] ");
    out.push_str(&m.role.to_js_string());
    out.push('\n');
    if !text.is_empty() {
        out.push('\n');
        out.push_str(text);
        out.push('\n');
    }
    for u in uses {
        out.push_str("\n### tool ");
        out.push_str(&u.tool.to_js_string());
        if u.is_error.truthy() {
            out.push_str(" (error)");
        }
        out.push_str("\ninput: ");
        text::cut_middle_into(&mut out, u.input.as_ref().map_or("{}", |raw| raw.get()), TOOL_INPUT_CHARS, TOOL_NOTE);
        if let Some(result) = &u.text {
            out.push_str("\nresult:\n");
            text::cut_middle_into(&mut out, result, TOOL_RESULT_CHARS, TOOL_NOTE);
        }
        out.push('\n');
    }
    Some(out)
}

/// The file's first lines: what it is, whose session, when and why it compacted.
pub(crate) fn header(count: usize, meta: &Meta) -> Vec<String> {
    vec![
        "# Conversation before compaction".into(),
        String::new(),
        format!(
            "Session {}, compacted {} ({}), {count} messages. Written by the compact-plus mod.",
            meta.session_id, meta.at, meta.trigger
        ),
        "Each message starts with a \"## [n] role\" line; tool calls follow as \"### tool <name>\" with their input and result (long results cut; the .jsonl transcript has everything).".into(),
        String::new(),
    ]
}

/// What one `$.fs.write` may hold: 4 MiB of UTF-8 (the engine refuses more).
pub const WRITE_LIMIT: usize = 4 * 1024 * 1024;
/// Room kept in every part for its heading lines.
const HEADING_ROOM: usize = 2048;
/// The least worth starting a piece of a long message with, at the end of a part.
const MIN_PIECE: usize = 1024;
/// How much of a role a continued message's heading repeats.
const HEADING_ROLE_UNITS: usize = 100;

/// One message's block of text, ready to be packed into parts.
struct Block {
    heading: String,
    text: String,
}

/// The history as numbered parts, each at most `limit` bytes of UTF-8, so a long
/// session loses no message to the write limit. Parts break between messages;
/// only a message too large for a part on its own is broken inside, at a line
/// end where there is one, and goes on under `## [n] role (continued)`. The
/// messages shown are numbered from 1 without gaps, and the header counts them
/// (the reference numbered them by their place in the event, gaps and all, and
/// counted the event's rows). `clean` runs over each message's text before it
/// is measured (redaction).
pub fn parts(messages: &Messages, meta: &Meta, limit: usize, clean: &dyn Fn(&str) -> String) -> Vec<String> {
    let mut blocks = Vec::new();
    for m in messages.iter().flatten() {
        let n = blocks.len() + 1;
        let Some(block) = message_block(n, m) else { continue };
        // Repeated on each continued part: the role is host data, so bounded.
        let heading = format!("## [{n}] {}", text::head(&m.role.to_js_string(), HEADING_ROLE_UNITS));
        blocks.push(Block { heading, text: clean(&block) });
    }
    let shown = blocks.len();
    let head = header(shown, meta).join("\n");
    let whole = blocks.iter().fold(head.len(), |n, b| n + 1 + b.text.len());
    if whole <= limit {
        let mut out = String::with_capacity(whole);
        out.push_str(&head);
        for b in &blocks {
            out.push('\n');
            out.push_str(&b.text);
        }
        return vec![out];
    }
    let room = limit.saturating_sub(HEADING_ROOM).max(1024);
    let mut bodies: Vec<String> = vec![String::new()];
    for b in &blocks {
        // A message that fits a part of its own never starts in a part it
        // would overflow; a longer one starts where there is room and goes on.
        let here = bodies.last().map_or(0, String::len);
        if here > 0 && here + 1 + b.text.len() > room && b.text.len() <= room {
            bodies.push(String::new());
        }
        let mut rest = b.text.as_str();
        let mut first = true;
        while let Some(body) = bodies.last_mut() {
            let prefix = if first { String::new() } else { format!("{} (continued)\n\n", b.heading) };
            let space = room.saturating_sub(body.len() + 1 + prefix.len());
            if rest.len() <= space {
                push_line(body, &format!("{prefix}{rest}"));
                break;
            }
            if space < MIN_PIECE && !body.is_empty() {
                bodies.push(String::new());
                continue;
            }
            let cut = split_point(rest, space);
            let (now, later) = rest.split_at(cut);
            push_line(body, &format!("{prefix}{now}"));
            rest = later.strip_prefix('\n').unwrap_or(later);
            first = false;
            bodies.push(String::new());
        }
    }
    bodies.retain(|b| !b.is_empty());
    let n = bodies.len();
    bodies
        .into_iter()
        .enumerate()
        .map(|(k, body)| {
            let lines = header(shown, meta);
            let title = format!("# Conversation before compaction, part {} of {n}", k + 1);
            let rest = lines.get(1..).map(|l| l.join("\n")).unwrap_or_default();
            format!("{title}\n{rest}\n{body}")
        })
        .collect()
}

fn push_line(body: &mut String, text: &str) {
    if !body.is_empty() {
        body.push('\n');
    }
    body.push_str(text);
}

/// Where to break `text` to keep at most `max` bytes: the last line end in the
/// second half of that span, else the last char boundary.
fn split_point(text: &str, max: usize) -> usize {
    let mut at = max.min(text.len());
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    if at == 0 {
        // Not one whole char fits: take one anyway, so the text always moves on.
        return text.chars().next().map_or(text.len(), char::len_utf8);
    }
    match text.get(..at).and_then(|w| w.rfind('\n')) {
        Some(nl) if nl > at / 2 => nl,
        _ => at,
    }
}

/// The file of part `k` (1-based) of a compaction's history: `<stamp>-<trigger>`,
/// then `-<n>` for the `n`th compaction of that second (`n` ≥ 2), so two
/// compactions in one second never write over each other.
pub fn part_file(dir: &str, stamp: &str, trigger: &str, n: usize, k: usize) -> String {
    let trigger = path_segment(trigger).unwrap_or_else(|| "compact".into());
    let again = if n >= 2 { format!("-{n}") } else { String::new() };
    if k <= 1 {
        format!("{dir}/{stamp}-{trigger}{again}.md")
    } else {
        format!("{dir}/{stamp}-{trigger}{again}.part{k}.md")
    }
}

/// A name that is safe as one path segment: letters, digits, `.`, `_`, `-`,
/// other characters made `_`, no leading dot. `None` when nothing is left.
pub fn path_segment(name: &str) -> Option<String> {
    let cleaned: String = name
        .chars()
        .take(128)
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '_' })
        .collect();
    let cleaned = cleaned.trim_start_matches('.').to_owned();
    (!cleaned.is_empty()).then_some(cleaned)
}

/// `<home>/.claude/compact-history/<session>`: only under an absolute home, and
/// only with the session id as one safe segment, so nothing is written elsewhere.
pub fn folder(home: &str, session_id: &str) -> Option<String> {
    if home.is_empty() {
        return None;
    }
    let home = home.replace('\\', "/");
    let home = home.trim_end_matches('/');
    let bytes = home.as_bytes();
    let absolute = home.starts_with('/')
        || (bytes.len() >= 2 && bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':'));
    // `/` trims to nothing and stays absolute; anything else must start at a root.
    if !absolute && !home.is_empty() {
        return None;
    }
    let id = path_segment(session_id)?;
    Some(format!("{home}/.claude/compact-history/{id}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;

    fn meta() -> Meta {
        Meta { session_id: "s".into(), at: "t".into(), trigger: "manual".into() }
    }

    fn session(n: usize, size: usize) -> Messages {
        let rows: Vec<_> = (0..n)
            .map(|i| {
                let role = if i % 2 == 0 { "user" } else { "assistant" };
                serde_json::json!({"role": role, "text": format!("msg-{i:05} {}", "x".repeat(size))})
            })
            .collect();
        parse_messages(&serde_json::Value::Array(rows).to_string())
    }

    /// The headings of a history text: their numbers, in order.
    fn numbers(text: &str) -> Vec<usize> {
        text.lines()
            .filter(|l| !l.ends_with("(continued)"))
            .filter_map(|l| l.strip_prefix("## [")?.split_once(']')?.0.parse().ok())
            .collect()
    }

    #[test]
    fn one_part_is_the_reference_text_but_for_the_numbers() {
        let m = session(5, 10);
        let ours = parts(&m, &meta(), WRITE_LIMIT, &|t| t.to_owned());
        let reference = crate::compat::history::render(&m, &meta());
        // No row left out here: the reference's 0-based numbers, one up.
        let renumbered = (0..5).rev().fold(reference, |t, i| t.replace(&format!("## [{i}] "), &format!("## [{}] ", i + 1)));
        assert_eq!(ours, vec![renumbered]);
    }

    /// Issue [13] item 13: the reference numbered a message by its place in the
    /// event, so the user rows that only carry tool results (shown under the
    /// call) and empty rows left gaps (`[0]`, `[1]`, `[3]`), and the header
    /// counted every row (5 messages above 3 headings).
    #[test]
    fn numbers_have_no_gaps_and_the_header_counts_the_headings() {
        let m = parse_messages(
            r#"[{"role":"user","text":"fix the parser"},
                {"role":"assistant","text":"","toolUses":[{"tool":"Bash","input":{"command":"cargo test"},"text":"ok"}]},
                {"role":"user","text":"","toolResults":[{"text":"ok"}]},
                null,
                {"role":"assistant","text":""},
                {"role":"assistant","text":"All pass."},
                {"role":"user","text":"thanks"}]"#,
        );
        let one = parts(&m, &meta(), WRITE_LIMIT, &|t| t.to_owned());
        assert_eq!(numbers(&one[0]), [1, 2, 3, 4]);
        assert!(one[0].contains(", 4 messages. "), "{}", one[0]);
        assert!(one[0].contains("## [2] assistant\n\n### tool Bash\n") && one[0].contains("## [3] assistant\n\nAll pass.\n"));
        // In parts alike: every part's header says the same count, the numbers go on across parts.
        let many = session(300, 1000);
        let split = parts(&many, &meta(), 64 * 1024, &|t| t.to_owned());
        assert!(split.len() > 2);
        assert!(split.iter().all(|p| p.contains(", 300 messages. ")));
        assert_eq!(split.iter().flat_map(|p| numbers(p)).collect::<Vec<_>>(), (1..=300).collect::<Vec<_>>());
    }

    #[test]
    fn parts_hold_every_message_under_the_limit() {
        let m = session(400, 1000);
        let limit = 64 * 1024;
        let parts = parts(&m, &meta(), limit, &|t| t.to_owned());
        assert!(parts.len() > 5);
        for (k, p) in parts.iter().enumerate() {
            assert!(p.len() <= limit, "part {k}: {}", p.len());
            assert!(p.starts_with(&format!("# Conversation before compaction, part {} of {}", k + 1, parts.len())));
        }
        let all = parts.concat();
        for i in 0..400 {
            assert_eq!(all.matches(&format!("msg-{i:05} ")).count(), 1, "message {i}");
            assert!(all.contains(&format!("## [{}] ", i + 1)));
        }
        // Parts break between messages: no message is continued.
        assert!(!all.contains("(continued)"));
    }

    #[test]
    fn a_message_over_the_limit_is_broken_and_continued() {
        let big = format!("{}\n{}", "a".repeat(150_000), "é".repeat(100_000));
        let json = serde_json::json!([{"role": "user", "text": "before"}, {"role": "assistant", "text": big}, {"role": "user", "text": "after"}]);
        let m = parse_messages(&json.to_string());
        let limit = 64 * 1024;
        let parts = parts(&m, &meta(), limit, &|t| t.to_owned());
        assert!(parts.iter().all(|p| p.len() <= limit));
        assert!(parts.iter().skip(1).any(|p| p.contains("## [2] assistant (continued)")));
        let joined: String = parts.concat();
        assert!(joined.matches('a').count() >= 150_000);
        assert_eq!(joined.matches('é').count(), 100_000);
        assert!(joined.contains("before") && joined.contains("after"));
    }

    #[test]
    fn clean_runs_before_measuring() {
        let m = session(3, 10);
        let parts = parts(&m, &meta(), WRITE_LIMIT, &|t| t.replace("msg-", "MSG-"));
        assert!(parts[0].contains("MSG-00000") && !parts[0].contains("msg-0"));
    }

    #[test]
    fn paths_stay_inside_the_history_folder() {
        let id = "3e771ee8-7a5c-472f-8c77-3dfd1e6415f3";
        assert_eq!(folder("/home/a b/ü", id).unwrap(), format!("/home/a b/ü/.claude/compact-history/{id}"));
        assert_eq!(folder("C:\\Users\\A", id).unwrap(), format!("C:/Users/A/.claude/compact-history/{id}"));
        assert_eq!(folder("/root/", id).unwrap(), format!("/root/.claude/compact-history/{id}"));
        assert_eq!(folder("/h", "../../etc").unwrap(), "/h/.claude/compact-history/_.._etc");
        assert_eq!(folder("/h", "a/b\\c").unwrap(), "/h/.claude/compact-history/a_b_c");
        assert!(folder("/h", "..").is_none());
        assert!(folder("/h", "").is_none());
        assert!(folder("relative/home", id).is_none());
        assert!(folder("", id).is_none());
        assert_eq!(folder("/", id).unwrap(), format!("/.claude/compact-history/{id}"));
        assert_eq!(part_file("/d", "S", "manual", 1, 1), "/d/S-manual.md");
        assert_eq!(part_file("/d", "S", "auto", 1, 3), "/d/S-auto.part3.md");
        assert_eq!(part_file("/d", "S", "auto", 2, 1), "/d/S-auto-2.md");
        assert_eq!(part_file("/d", "S", "auto", 3, 2), "/d/S-auto-3.part2.md");
        assert_eq!(part_file("/d", "S", "../x", 1, 1), "/d/S-_x.md");
    }
}
