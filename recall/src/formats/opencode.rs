//! OpenCode's prompt history (`~/.local/state/opencode/prompt-history.jsonl`):
//! one prompt a line, the person's alone, `{ input, mode, parts }`, the newest
//! 50 (OpenCode's `PromptInfo`, `cli/cmd/tui/component/prompt/history.tsx`).
//! A prompt names no folder, but a file it mentions (`@path`) is a `file` part
//! whose `url` is `file://<OpenCode's cwd>/<path>`: a prompt is this project's
//! when a file it mentions is in this folder. The others are no project's we
//! can tell, and left out.

use super::row::{decode, Line, Utterance, Speaker};
use crate::folder;
use crate::json::{fields, items, text};

/// `%xx` escapes decoded (a `file://` URL made by `new URL` has them).
fn unescape(url: &str) -> String {
    let b = url.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = b.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match (c, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a file part's URL names a file inside `cwd`.
fn in_folder(url: &str, cwd: &str) -> bool {
    let Some(path) = url.strip_prefix("file://") else { return false };
    let path = unescape(path.split(['?', '#']).next().unwrap_or(""));
    folder::inside(&path, cwd)
}

pub fn read<'a>(line: &'a str, cwd: &str) -> Line<'a> {
    let Some([input, parts]) = fields(line, ["input", "parts"]) else { return Line::Malformed };
    let Some(input) = input else { return Line::Other };
    let ours = parts.and_then(items).unwrap_or_default().iter().any(|p| {
        let Some([kind, url]) = fields(p, ["type", "url"]) else { return false };
        kind.and_then(text).as_deref() == Some("file") && url.and_then(text).is_some_and(|u| in_folder(&u, cwd))
    });
    if !ours {
        return Line::Elsewhere;
    }
    Line::Utterance(Utterance { speaker: Speaker::User, ts: "".into(), text: decode(input).into(), from_recall: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_is_this_projects_when_a_file_it_mentions_is_in_this_folder() {
        let prompt = |url: &str| format!(r#"{{"input":"fix @src/a.rs","mode":"normal","parts":[{{"type":"file","mime":"text/plain","filename":"src/a.rs","url":"{url}","source":{{"type":"file","path":"src/a.rs","text":{{"start":4,"end":13,"value":"@src/a.rs"}}}}}}]}}"#);
        let ours = Line::Utterance(Utterance { speaker: Speaker::User, ts: "".into(), text: "fix @src/a.rs".into(), from_recall: false });
        assert_eq!(read(&prompt("file:///w/app/src/a.rs"), "/w/app"), ours);
        assert_eq!(read(&prompt("file:///w/my%20app/src/a.rs?start=3"), "/w/my app"), ours);
        assert_eq!(read(&prompt("file:///w/app2/src/a.rs"), "/w/app"), Line::Elsewhere);
        assert_eq!(read(r#"{"input":"hi","parts":[],"mode":"normal"}"#, "/w/app"), Line::Elsewhere, "no folder named");
        assert_eq!(read(r#"{"input":"hi","parts":[{"type":"agent","name":"build"}]}"#, "/w/app"), Line::Elsewhere);
        assert_eq!(read("{", "/w/app"), Line::Malformed);
    }
}
