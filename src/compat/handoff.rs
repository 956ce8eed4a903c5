//! The reference's handoff instructions and pointer. compact-plus's own
//! ([`crate::compaction::handoff`]) add evidence labels, a priority for short
//! space, the current request, the recall tool and history in parts.

use crate::compaction::handoff::opening;

// The reference's, which the product uses as it is.
pub use crate::compaction::handoff::join_instructions;

/// The summary row's pointer to the history file.
pub fn pointer_text(file: &str, dir: &str) -> String {
    [
        format!("compact-plus saved the conversation from before this compaction as searchable text: \"{file}\"."),
        format!("Earlier parts of this session are in the same folder. For exact wording, paths, commands, errors or tool output the summary left out, search there before asking the user or redoing work: rg -n \"<term>\" \"{dir}\""),
    ]
    .join("\n")
}

const HANDOFF: [&str; 8] = [
    "Extra instructions from the compact-plus mod:",
    "- Write this as a handoff to another model that will continue the work with nothing but your summary. Open section 1 with the current goal and where it stands, in two or three sentences.",
    "- Keep exact identifiers: file paths, commands that worked, commit hashes, branch names, URLs, session and task ids, error text and numbers.",
    "- Record each decision with its reason, and the user's corrections and preferences in the user's own words.",
    "- Say what was verified (tests run, output checked) and what is assumed or untested.",
    "- List open promises: what you said you would do, what waits on the user, and background work still running (subagents, other sessions, background commands) with how to check on it.",
    "- Do not restate instruction files (CLAUDE.md, AGENTS.md, the memory index) or the system prompt; they are sent again after compaction.",
    "- The most recent messages may be kept verbatim after your summary, and you may not see them. In \"Current Work\", describe the last state you can see, and word the next step so it still holds if those messages already started it.",
];

/// The reference's handoff instructions. `first_verbatim`: the oldest message
/// kept word for word, if any (an empty one counts as none, as in JS).
pub fn handoff_instructions(first_verbatim: Option<&str>) -> String {
    let mut lines: Vec<String> = HANDOFF.iter().map(|s| (*s).to_owned()).collect();
    if let Some(first) = first_verbatim.filter(|f| !f.is_empty()) {
        lines.push(format!(
            "- The user's messages from the one beginning \"{}\" onward are attached word for word after your summary. In section 6, give each of those one short line with its outcome instead of restating it.",
            opening(first)
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handoff_names_the_first_kept_message() {
        assert!(!handoff_instructions(None).contains("onward"));
        assert!(!handoff_instructions(Some("")).contains("onward"));
        let long = format!("fix   the\n\nbug {}", "x".repeat(200));
        let h = handoff_instructions(Some(&long));
        let want = format!("beginning \"fix the bug {}\" onward", "x".repeat(80 - 12));
        assert!(h.contains(&want), "{h}");
        // 79 ASCII units then an emoji: the pair would be split at 80, so it goes.
        let emoji = format!("{}😀tail", "a".repeat(79));
        assert!(handoff_instructions(Some(&emoji)).contains(&format!("\"{}\" onward", "a".repeat(79))));
    }

    #[test]
    fn pointer_names_file_and_folder() {
        let p = pointer_text("/h/.claude/compact-history/s/f.md", "/h/.claude/compact-history/s");
        assert!(p.contains("searchable text: \"/h/.claude/compact-history/s/f.md\"."));
        assert!(p.ends_with("rg -n \"<term>\" \"/h/.claude/compact-history/s\""));
    }
}
