//! What the interactive terminal leaves in the conversation, made readable for
//! the history file.
//!
//! In the terminal UI, local commands (`/compact`, `/plugin`, …) are user rows
//! of the conversation a compaction receives, and their output keeps the raw
//! ANSI escapes the screen drew (`ESC[2mCompacted …ESC[22m`, measured on Claude
//! Code 2.1.328; headless, the same row reads `Compacted `). A search for a word
//! must not trip over escapes, and a history should not spend a heading on each
//! echo: each local-command row becomes one short line, the caveat none. The
//! screen's own key hints go too (`Compacted (ctrl+o to see full summary)` is
//! `Compacted`): they tell a person at that screen what to press, and say
//! nothing to someone reading the history later.

use std::borrow::Cow;

use crate::engine::rows;
use crate::message::Messages;
use crate::text::{self, strip_ansi};

/// How much of a local command's output the history keeps on its one line.
const OUTPUT_UNITS: usize = 200;

/// `s` without the screen's key hints: each parenthesis whose text starts with a
/// modifier and a key (`(ctrl+o to see full summary)`), and the space before it.
fn without_key_hints(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('(') {
        let (before, from) = rest.split_at(open);
        let inner = from.get(1..).unwrap_or("");
        let is_hint = rows::KEY_MODIFIERS.iter().any(|m| inner.get(..m.len()).is_some_and(|h| h.eq_ignore_ascii_case(m)));
        match inner.find(')') {
            Some(close) if is_hint => {
                out.push_str(text::trim_end(before));
                rest = inner.get(close + 1..).unwrap_or("");
            }
            _ => {
                out.push_str(before);
                out.push('(');
                rest = inner;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text between `<tag>` and `</tag>`, when `s` holds both in that order.
fn inside<'a>(s: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = s.find(&open)? + open.len();
    let rest = s.get(start..)?;
    let end = rest.find(&close)?;
    rest.get(..end)
}

/// What a local-command row becomes in the history: `None` when the text is no
/// such row, `Some(None)` when it says nothing worth a line (the caveat, an
/// empty output), else its one line.
pub fn local_command_line(text_in: &str) -> Option<Option<String>> {
    let t = text::trim(text_in);
    if t.starts_with(rows::COMMAND_CAVEAT) {
        return Some(None);
    }
    if t.starts_with(&rows::tags(rows::COMMAND_NAME).0) {
        let name = inside(t, rows::COMMAND_NAME).map(text::trim).unwrap_or("");
        let args = inside(t, rows::COMMAND_ARGS).map(text::trim).unwrap_or("");
        let line = if args.is_empty() { name.to_owned() } else { format!("{name} {args}") };
        let line = text::collapse_space(&strip_ansi(&line));
        return Some(Some(format!("(local command: {})", text::head(&line, OUTPUT_UNITS))));
    }
    for (tag, what) in [(rows::COMMAND_STDOUT, "output"), (rows::COMMAND_STDERR, "error output")] {
        if t.starts_with(&format!("<{tag}>")) {
            let out = inside(t, tag).unwrap_or_else(|| t.get(tag.len() + 2..).unwrap_or(""));
            let out = text::collapse_space(&without_key_hints(&strip_ansi(out)));
            let out = text::trim(&out);
            if out.is_empty() || out == rows::NO_CONTENT {
                return Some(None);
            }
            let cut = text::head(out, OUTPUT_UNITS);
            let more = if cut.len() < out.len() { " …" } else { "" };
            return Some(Some(format!("(local command {what}: {cut}{more})")));
        }
    }
    None
}

/// The conversation as the history file shows it: escapes gone from every text
/// and tool result, each local-command row one line or none.
pub fn tidy(messages: &mut Messages) {
    for m in messages.iter_mut().flatten() {
        if let Some(t) = m.text.as_deref() {
            let line = if m.is_user() { local_command_line(t) } else { None };
            m.text = match line {
                Some(line) => Some(line.unwrap_or_default()),
                None => match strip_ansi(t) {
                    Cow::Owned(s) => Some(s),
                    Cow::Borrowed(_) => m.text.take(),
                },
            };
        }
        for u in m.tool_uses.0.iter_mut() {
            if let Some(Cow::Owned(s)) = u.text.as_deref().map(strip_ansi) {
                u.text = Some(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;

    #[test]
    fn local_command_rows_are_one_line_or_none() {
        // As the terminal of Claude Code 2.1.328 hands them to session.compact.
        let name = "<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args>keep it</command-args>";
        assert_eq!(local_command_line(name), Some(Some("(local command: /compact keep it)".into())));
        let bare = "<command-name>/plugin</command-name>\n<command-message>plugin</command-message>\n<command-args></command-args>";
        assert_eq!(local_command_line(bare), Some(Some("(local command: /plugin)".into())));
        let out = "<local-command-stdout>\u{1b}[2mCompacted (ctrl+o to see full summary)\u{1b}[22m</local-command-stdout>";
        // Issue [13] item 13: the screen's key hint is no part of what the command said.
        assert_eq!(local_command_line(out), Some(Some("(local command output: Compacted)".into())));
        assert_eq!(local_command_line("<local-command-stdout>(no content)</local-command-stdout>"), Some(None));
        assert_eq!(local_command_line("<local-command-caveat>Caveat: …</local-command-caveat>"), Some(None));
        assert_eq!(local_command_line("please run /compact later"), None);
        let long = format!("<local-command-stdout>{}</local-command-stdout>", "x".repeat(5000));
        let line = local_command_line(&long).flatten().unwrap_or_default();
        assert!(line.len() < 260 && line.ends_with(" …)"), "{line}");
        // Hints of other keys alike, anywhere; a parenthesis of the command's own stays.
        let hints = "<local-command-stdout>Set model to opus (Shift+Tab to cycle) (default) (ctrl+x ctrl+e to edit)</local-command-stdout>";
        assert_eq!(local_command_line(hints), Some(Some("(local command output: Set model to opus (default))".into())));
        assert_eq!(local_command_line("<local-command-stdout>(ctrl+o to see full summary)</local-command-stdout>"), Some(None));
        assert_eq!(local_command_line("<local-command-stdout>a (ctrl+o unclosed</local-command-stdout>"), Some(Some("(local command output: a (ctrl+o unclosed)".into())));
        // Unclosed: the rest of the row is the output.
        assert_eq!(local_command_line("<local-command-stdout>half"), Some(Some("(local command output: half)".into())));
    }

    #[test]
    fn tidy_keeps_the_person_and_drops_the_noise() {
        let mut m = parse_messages(
            r#"[{"role":"user","text":"<local-command-caveat>The command below was run directly</local-command-caveat>"},
                {"role":"user","text":"<command-name>/compact</command-name> <command-args>keep X</command-args>"},
                {"role":"user","text":"<local-command-stdout>\u001b[2mCompacted\u001b[22m</local-command-stdout>"},
                {"role":"user","text":"fix \u001b[1mthe\u001b[0m test"},
                {"role":"assistant","text":"<command-name>/x</command-name>","toolUses":[{"tool":"Bash","text":"\u001b[32mok\u001b[0m"}]},
                null]"#,
        );
        tidy(&mut m);
        let texts: Vec<&str> = m.iter().flatten().map(|m| m.text()).collect();
        assert_eq!(texts, ["", "(local command: /compact keep X)", "(local command output: Compacted)", "fix the test", "<command-name>/x</command-name>"]);
        let result = m.get(4).and_then(Option::as_ref).and_then(|m| m.tool_uses.0.first()).and_then(|u| u.text.as_deref());
        assert_eq!(result, Some("ok"));
    }
}
