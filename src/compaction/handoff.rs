//! What compact-plus tells the summarizer, and what it leaves for the next model.

use crate::recall_tool::{Reach, TOOL_NAME};
use crate::text;

/// compact-plus's pointer: names the history file (its first part when it is
/// split), and the recall tool first where it reaches, `rg` second.
pub fn pointer(file: &str, dir: &str, parts: usize, reach: Reach) -> String {
    let split = if parts > 1 {
        format!(" It is long, so it is in {parts} parts: this is part 1, and the rest are named like it with .part2.md to .part{parts}.md.")
    } else {
        String::new()
    };
    let how = if reach != Reach::Off {
        format!("call the recall tool ({TOOL_NAME}) with the words to find, or run: rg -n \"<term>\" \"{dir}\"")
    } else {
        format!("rg -n \"<term>\" \"{dir}\"")
    };
    let earlier = if reach == Reach::Project {
        "\nEarlier sessions of this project (Claude Code, Codex, OpenCode) are searchable too: the recall tool with scope \"project\" (no query lists them, newest first)."
    } else {
        ""
    };
    format!(
        "compact-plus saved the conversation from before this compaction as searchable text: \"{file}\".{split}\nEarlier parts of this session are in the same folder. For exact wording, paths, commands, errors or tool output the summary left out, search there before asking the user or redoing work: {how}{earlier}"
    )
}

/// The first 80 units of a message, on one line, never cut inside a character.
pub(crate) fn opening(first_verbatim: &str) -> String {
    let one_line = text::collapse_space(first_verbatim);
    text::head(&one_line, 80).to_owned()
}

const HANDOFF: [&str; 9] = [
    "From the compact-plus mod:",
    "- Write a handoff for a model that has nothing but your summary. Open section 1 with the current goal and where it stands, in two or three sentences.",
    "- Keep exact identifiers: file paths, commands that worked, commit hashes, branch names, URLs, ids, error text, numbers, configuration values.",
    "- Label what you state: Verified (tests run, output checked), Decided (with its reason), Assumed (untested), Open. Keep the user's corrections and preferences in their words.",
    "- End with an \"Open Questions\" section, even if it says \"none\": what waits on the user, what you promised, background work still running and how to check on it.",
    "- If space is short, drop progress narration and dead ends first; never drop decisions with reasons, configuration values, exact identifiers or open questions.",
    "- State that the summary never overrides the current files: re-check before acting.",
    "- Do not restate CLAUDE.md, AGENTS.md, the memory index or the system prompt; they are sent again.",
    "- The newest messages may be kept verbatim after your summary. In \"Current Work\", describe the last state you can see and word the next step so it still holds if those messages already started it.",
];

/// compact-plus's handoff instructions: the reference's
/// (`compat::handoff::handoff_instructions`), with evidence labels, a priority
/// for short space, and what came of each request kept word for word.
/// `history_dir`: the folder the conversation is saved in, where the next
/// model can search it (`None`: it is not saved).
pub fn instructions(first_verbatim: Option<&str>, history_dir: Option<&str>) -> String {
    let mut lines: Vec<String> = HANDOFF.iter().map(|s| (*s).to_owned()).collect();
    if history_dir.is_some() {
        lines.push("- Don't copy long outputs: the full conversation is saved and exact details can be recalled.".into());
    }
    if let Some(first) = first_verbatim.filter(|f| !f.is_empty()) {
        lines.push(format!(
            "- The user's messages from the one beginning \"{}\" onward follow your summary word for word, each answered unless you say otherwise. In section 6 give each one short line with its outcome; say if the last is still being worked on.",
            opening(first)
        ));
    }
    lines.join("\n")
}

/// The person's own instructions first, then ours.
pub fn join_instructions(own: Option<&str>, extra: &str) -> String {
    match own.map(text::trim) {
        Some(own) if !own.is_empty() => format!("{own}\n\n{extra}"),
        _ => extra.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_own_first() {
        assert_eq!(join_instructions(Some("  keep KIWI \n"), "X"), "keep KIWI\n\nX");
        assert_eq!(join_instructions(Some(" \u{a0}\n"), "X"), "X");
        assert_eq!(join_instructions(None, "X"), "X");
    }

    #[test]
    fn instructions_carry_the_rules_and_stay_short() {
        let longest = instructions(Some(&"w".repeat(500)), Some("/d"));
        assert!(text::len16(&longest) <= 1600, "{}", text::len16(&longest));
        for needle in ["Verified", "Decided", "Assumed", "Open Questions", "never overrides the current files", "still being worked on", "drop progress narration"] {
            assert!(longest.contains(needle), "{needle}");
        }
        assert!(!instructions(None, None).contains("still being worked on"));
        assert!(!instructions(None, None).contains("recalled"));
    }

    #[test]
    fn pointer_names_the_tool_first_and_the_parts() {
        let p = pointer("/d/a.md", "/d", 1, Reach::Project);
        assert!(p.starts_with("compact-plus saved the conversation from before this compaction as searchable text: \"/d/a.md\".\n"));
        let tool = p.find("(compact_plus_recall)").unwrap();
        assert!(tool < p.find("rg -n").unwrap());
        assert!(!pointer("/d/a.md", "/d", 1, Reach::Off).contains("recall"));
        // One part is the reference's pointer exactly, when the tool is off.
        assert_eq!(pointer("/d/a.md", "/d", 1, Reach::Off), crate::compat::handoff::pointer_text("/d/a.md", "/d"));
        assert!(pointer("/d/a.md", "/d", 3, Reach::Off).contains("in 3 parts: this is part 1"));
        assert!(p.contains("Earlier sessions of this project") && p.contains("scope \"project\""));
        // recallScope "session": this session's history alone.
        assert!(!pointer("/d/a.md", "/d", 1, Reach::Session).contains("Earlier sessions"));
    }
}
