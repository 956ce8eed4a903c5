//! Where a summary attributes words to the person: the items of its "All user messages" list,
//! and the quotes that follow "the user asked", "User said", "the user's request" and the like.

use crate::text;

/// At most this many passages are read from one summary.
pub const MAX_PASSAGES: usize = 200;
/// A quote in prose is checked when it has at least this many words: a shorter one is a term
/// (`"Linked docs"`), not a request.
const PROSE_MIN_WORDS: usize = 3;

/// Where a passage was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassagePlace {
    /// An item of the summary's list of the person's messages, in the list's order.
    List,
    /// A quote after an attribution in the summary's prose.
    Prose,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passage {
    pub text: String,
    pub place: PassagePlace,
}

/// Words that, after "user" (within a few words), say the summary is about to quote the person.
const CUES: &str = "asked asks ask said says say wants wanted requested requests request told instructed stated specified wrote noted clarified pushed interrupted corrected correction insisted mentioned added prefers preferred directed chose confirmed reported revealed replied responded answered message messages feedback words typed explained emphasized";
/// How many words may stand between "user" and its cue ("the user's last substantive message").
const CUE_GAP: usize = 4;

/// The passages of a summary, in its order, at most [`MAX_PASSAGES`].
pub fn passages(summary: &str) -> Vec<Passage> {
    let mut out = Vec::new();
    let mut list_indent: Option<usize> = None;
    for line in summary.lines() {
        let indent = line.len() - line.trim_start().len();
        if is_list_heading(line) {
            list_indent = Some(indent);
            continue;
        }
        if let Some(at) = list_indent {
            if ends_list(line, indent, at) {
                list_indent = None;
            }
        }
        // In the list every quote is the person's; elsewhere those after a cue, each cue's up to
        // the next cue or to where the summary speaks for someone else.
        let starts = if list_indent.is_some() { vec![0] } else { cues(line) };
        for (k, at) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(line.len());
            let mut from = *at;
            for (a, b) in quotes(line.get(..end).unwrap_or(""), *at) {
                let q = line.get(a..b).unwrap_or("");
                if list_indent.is_some() {
                    out.push(Passage { text: q.to_owned(), place: PassagePlace::List });
                    continue;
                }
                if from > *at && other_speaker(line.get(from..a).unwrap_or("")) {
                    break;
                }
                from = b;
                if q.split_whitespace().count() >= PROSE_MIN_WORDS {
                    out.push(Passage { text: q.to_owned(), place: PassagePlace::Prose });
                }
            }
        }
        if out.len() >= MAX_PASSAGES {
            out.truncate(MAX_PASSAGES);
            break;
        }
    }
    out
}

/// `6. All user messages:`, `## All User Messages`, `**All user messages**:`.
fn is_list_heading(line: &str) -> bool {
    let t = line.trim().trim_start_matches('#').trim_start();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit());
    let t = t.strip_prefix('.').unwrap_or(t).trim_start().trim_start_matches('*').trim_start();
    let lower = t.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("all user messages") else { return false };
    let rest = rest.trim_start_matches(heading_mark);
    // A parenthesis may follow ("(verbatim)"); a sentence may not.
    rest.is_empty() || rest.starts_with('(')
}

/// `**`, `:` and spaces around a heading's words.
fn heading_mark(c: char) -> bool {
    c == '*' || c == ':' || c == ' '
}

/// The list ends at the next heading or numbered section no deeper than its own heading.
fn ends_list(line: &str, indent: usize, heading_indent: usize) -> bool {
    let t = line.trim_start();
    if t.is_empty() || indent > heading_indent {
        return false;
    }
    let numbered = t.chars().take_while(char::is_ascii_digit).count();
    t.starts_with('#') || (numbered > 0 && t.get(numbered..).is_some_and(|r| r.starts_with(". ")))
}

/// Where the texts between pairs of double quotes (straight or curly) are on a line, from
/// byte `from`: each trimmed, and holding a letter or a digit.
fn quotes(line: &str, from: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(usize, char)> = None;
    for (i, ch) in line.char_indices().skip_while(|(i, _)| *i < from) {
        match open {
            None if ch == '"' || ch == '\u{201c}' => open = Some((i + ch.len_utf8(), if ch == '"' { '"' } else { '\u{201d}' })),
            Some((start, close)) if ch == close => {
                let q = line.get(start..i).unwrap_or("");
                let lead = q.len() - q.trim_start().len();
                if q.chars().any(char::is_alphanumeric) {
                    out.push((start + lead, start + lead + q.trim().len()));
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

/// Words by which the summary speaks for someone other than the person.
fn other_speaker(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric() && c != '\'').any(|w| {
        matches!(w, "I" | "I'm" | "I've" | "I'll" | "I'd" | "Claude" | "assistant" | "Assistant" | "proposed" | "suggested")
    })
}

/// Where the quotes attributed to the person may start on a line: after each "user" (or
/// "user's") followed within [`CUE_GAP`] words by a cue word.
fn cues(line: &str) -> Vec<usize> {
    let lower = line.to_ascii_lowercase();
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut start = None;
    for (i, ch) in lower.char_indices().chain([(lower.len(), ' ')]) {
        let inside = ch.is_alphanumeric() || ch == '\'';
        match (start, inside) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                words.push((s, lower.get(s..i).unwrap_or("")));
                start = None;
            }
            _ => {}
        }
    }
    let mut out: Vec<usize> = Vec::new();
    for (k, (at, w)) in words.iter().enumerate() {
        // Within the scope of the cue before: "the user asked the user…" is one cue.
        let fresh = out.last().is_none_or(|&l| *at >= l);
        if fresh && matches!(*w, "user" | "user's" | "users") {
            if let Some((c, cue)) = words.iter().skip(k + 1).take(CUE_GAP + 1).find(|(_, c)| text::one_of(CUES, c)) {
                out.push(c + cue.len());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<(PassagePlace, String)> {
        passages(s).into_iter().map(|p| (p.place, p.text)).collect()
    }

    #[test]
    fn the_list_and_the_attributed_quotes() {
        let s = "1. Primary Request and Intent:\n   The user asked to implement a plan titled \"Use ComputeTranscriptPath in Log Restoration\". User interrupted: \"Write the plan to a file, don't commit.\"\n   This was proposed: \"Want me to do that?\" — but the user hasn't confirmed.\n\n6. All user messages:\n   - \"okay, let's continue\"\n   - **Message 2**: \"/model\" (CLI command)\n   - \"uh oh - it happened\" / \"I did a git read-tree HEAD\"\n   - [Next day] \"ah okay, so we fixed the 'don't attach' case\" followed by questions\n   - Asked about blob reuse\n\n7. Pending Tasks:\n   - \"not a person's\"\n";
        assert_eq!(
            texts(s),
            vec![
                (PassagePlace::Prose, "Use ComputeTranscriptPath in Log Restoration".into()),
                (PassagePlace::Prose, "Write the plan to a file, don't commit.".into()),
                (PassagePlace::List, "okay, let's continue".into()),
                (PassagePlace::List, "/model".into()),
                (PassagePlace::List, "uh oh - it happened".into()),
                (PassagePlace::List, "I did a git read-tree HEAD".into()),
                (PassagePlace::List, "ah okay, so we fixed the 'don't attach' case".into()),
            ]
        );
    }

    #[test]
    fn headings_in_their_shapes() {
        for h in ["6. All user messages:", "## All User Messages", "**All user messages**:", "6. All User Messages (verbatim):"] {
            assert!(is_list_heading(h), "{h}");
        }
        for h in ["All user messages were answered.", "6. Pending Tasks:", "the user messages"] {
            assert!(!is_list_heading(h), "{h}");
        }
    }

    #[test]
    fn no_cue_no_passage_and_quotes_of_others_stop() {
        assert_eq!(texts("Continue without asking the user any further questions. \"a b c\""), vec![]);
        assert_eq!(texts("The user's last substantive message was \"that was a while back\""), vec![(PassagePlace::Prose, "that was a while back".into())]);
        assert_eq!(texts("User said \"keep it small please\"; I replied \"will do right away\""), vec![(PassagePlace::Prose, "keep it small please".into())]);
        assert_eq!(texts("User asked to rename \"Linked\" to \"Linked docs\""), vec![]);
    }

    #[test]
    fn bounded_and_odd_text() {
        let many: String = (0..500).map(|i| format!("- \"message number {i}\"\n")).collect();
        assert_eq!(passages(&format!("6. All user messages:\n{many}")).len(), MAX_PASSAGES);
        assert!(passages("\"\"\"\u{201c}").is_empty());
        assert!(passages("user asked \"unclosed").is_empty());
        assert!(passages("").is_empty());
    }
}
