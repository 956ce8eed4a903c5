//! Tier 1: the rescue model's summary of compact-plus's own rendering of the
//! conversation (the history text), with the handoff instructions and seed
//! 004's five sections and P1–P4 priorities. A conversation over one
//! request's [`CHUNK_CHARS`] goes in parts ([`plan`]), each compressed by a
//! call of its own, all asked at once, then merged; parts that got no summary
//! are named in the row ([`gaps`]), and where the merge fails the parts'
//! summaries stand as they came ([`unmerged`]). The calls' bounds are here;
//! the hook makes them (`hooks::rescue`).

use crate::text;

const CHUNK_CUT_NOTE: &str = "\n[… cut by compact-plus …]\n";

/// The rescue model's window for one request, in characters of input: a
/// conversation over this goes in chunks (seed 004's streaming compression).
pub const CHUNK_CHARS: usize = 240_000;
/// Exchanges (a person's message and what followed it) per chunk, at most.
pub const CHUNK_EXCHANGES: usize = 25;
/// At most this many model calls for one rescue; past them, tier 2.
pub const MAX_CALLS: usize = 8;
/// Each call's own bound, and the whole rescue's.
pub const CALL_TIMEOUT_MS: u64 = 60_000;
pub const TOTAL_MS: f64 = 150_000.0;
pub const SUMMARY_MAX_TOKENS: u32 = 4_000;

pub const SYSTEM: &str = "You write the summary a coding assistant continues from after its context was compacted. The engine's own summarizer failed; you are the rescue. Answer with the summary alone.";

/// Seed 004's priorities, in the order they go when room runs out.
pub const PRIORITIES: &str = "Priorities (keep P1 and P2 always, P3 if there is room, drop P4 first): \
P1 technology choices, breaking changes, security decisions, configuration values (env vars, ports, URLs, flags), the person's current request; \
P2 bug root causes and fixes, architecture decisions, schema and API contract changes; \
P3 files modified, testing decisions, tooling setup; \
P4 progress updates, exploratory discussion. \
Open questions and blockers are always kept, each as `question → what it blocks`; if none, say `No open questions.`";

/// The sections every summary has (seed 004's five).
pub const SECTIONS: &str = "Write these markdown sections, bullet fragments, no preamble: ## Decisions (each with its rationale and rejected alternatives), ## Files Changed (sorted by path), ## Current State (one line), ## Next Steps (numbered, by dependency), ## Open Questions.";

/// The one request for a conversation that fits: its rendering and the handoff.
pub fn prompt(history: &str, handoff: &str) -> String {
    format!("{SECTIONS}\n{PRIORITIES}\n\n{handoff}\n\n<conversation>\n{history}\n</conversation>")
}

/// A chunk's own request: compress it alone, keep what the later chunks need.
pub fn chunk_prompt(k: usize, n: usize, chunk: &str) -> String {
    format!(
        "This is part {k} of {n} of a long conversation, compressed part by part. {SECTIONS}\n{PRIORITIES}\nStay under 60 lines.\n\n<conversation-part>\n{chunk}\n</conversation-part>"
    )
}

/// The merge of the parts' summaries (each with its part's number): later
/// decisions win over earlier ones, duplicates go, open questions stay (seed
/// 004's multi-session merge).
pub fn merge_prompt(parts: &[(usize, String)], handoff: &str) -> String {
    let body: Vec<String> = parts.iter().map(|(k, p)| format!("<part n=\"{k}\">\n{p}\n</part>")).collect();
    format!(
        "Merge these summaries of consecutive parts of one conversation, oldest first, into one. Where a later part changes a decision, keep the later one; drop duplicates; carry every open question not answered later. {SECTIONS}\n{PRIORITIES}\n\n{handoff}\n\n{}",
        body.join("\n")
    )
}

/// The history text cut into chunks for streaming compression: at message
/// headings (`## [i] role`, as `history::parts` writes them), a new chunk every
/// [`CHUNK_EXCHANGES`] person messages or [`CHUNK_CHARS`] characters, whichever
/// comes first; a single message over the size is cut in its middle.
pub fn chunks(history: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut exchanges = 0usize;
    for block in split_blocks(history) {
        let person = block.starts_with("## [") && block.lines().next().is_some_and(|l| l.ends_with("] user"));
        let starts_new = !cur.is_empty() && ((person && exchanges >= CHUNK_EXCHANGES) || cur.len() + block.len() > CHUNK_CHARS);
        if starts_new {
            out.push(std::mem::take(&mut cur));
            exchanges = 0;
        }
        if person {
            exchanges += 1;
        }
        if block.len() > CHUNK_CHARS {
            cur.push_str(&text::cut_middle(block, CHUNK_CHARS as f64, CHUNK_CUT_NOTE));
        } else {
            cur.push_str(block);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The text split before each `## [` heading at a line's start.
fn split_blocks(s: &str) -> Vec<&str> {
    let mut starts = vec![0];
    let mut at = 0;
    while let Some(i) = s.get(at..).and_then(|r| r.find("\n## [")) {
        starts.push(at + i + 1);
        at += i + 1;
    }
    starts.push(s.len());
    starts.windows(2).filter_map(|w| s.get(w[0]..w[1])).filter(|b| !b.is_empty()).collect()
}

/// A rescue model's reply that can stand as a summary: text with words in it.
pub fn usable(reply: &str) -> bool {
    text::trim(reply).chars().filter(|c| c.is_alphanumeric()).count() >= 20
}

/// The parts a long history is asked in: at most [`MAX_CALLS`] less the
/// merge's call, the newest kept (what the next turn needs is at the end; the
/// history file has the rest).
#[derive(Debug, PartialEq)]
pub struct PartsAsked {
    /// Each part asked, with its number among all the parts (1 the oldest).
    pub parts: Vec<(usize, String)>,
    /// How many parts there are in all.
    pub total: usize,
}

impl PartsAsked {
    /// The oldest parts left to the history file alone.
    pub fn skipped(&self) -> usize {
        self.total - self.parts.len()
    }
}

pub fn plan(history: &str) -> PartsAsked {
    let all = chunks(history);
    let total = all.len();
    let skipped = total.saturating_sub(MAX_CALLS - 1);
    let parts = all.into_iter().enumerate().skip(skipped).map(|(i, c)| (i + 1, c)).collect();
    PartsAsked { parts, total }
}

/// What the row says of the parts that are not in the summary: the oldest
/// ones never asked (`skipped`), and those asked that got no summary
/// (`missing`, by number). `None` when every part is in it.
pub fn gaps(total: usize, skipped: usize, missing: &[usize]) -> Option<String> {
    if skipped == 0 && missing.is_empty() {
        return None;
    }
    let mut lacking: Vec<String> = (1..=skipped).map(|k| k.to_string()).collect();
    lacking.extend(missing.iter().map(ToString::to_string));
    Some(format!(
        "(This long conversation went to the rescue model in {total} parts. Parts not in this summary, by number: {} ({skipped} oldest, never asked: at most {} are; {} that got no summary: the call failed or ran out of time). What they said is in the history file alone.)",
        lacking.join(", "),
        MAX_CALLS - 1,
        missing.len()
    ))
}

/// The parts' summaries as they came, oldest first, where the merge did not.
pub fn unmerged(parts: &[(usize, String)], total: usize) -> String {
    let mut out = String::from("(The rescue model summarized the conversation in parts; their merge did not come back, so here they are one by one, oldest first: where a later part differs, the later one holds.)");
    for (k, p) in parts {
        out.push_str(&format!("\n\n### Part {k} of {total}\n\n{p}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_follow_exchanges_and_size() {
        let mut h = String::from("# head\n");
        for i in 0..60 {
            h.push_str(&format!("## [{}] user\n\nq{i}\n## [{}] assistant\n\na{i}\n", 2 * i, 2 * i + 1));
        }
        let c = chunks(&h);
        assert_eq!(c.len(), 3, "60 exchanges in chunks of {CHUNK_EXCHANGES}");
        assert!(c[1].starts_with("## [50] user"), "{}", &c[1][..20]);
        assert_eq!(c.concat(), h, "nothing lost at the cuts");
        let huge = format!("## [0] user\n\n{}", "x".repeat(CHUNK_CHARS * 2));
        let c = chunks(&huge);
        assert!(c.iter().all(|p| p.len() <= CHUNK_CHARS + 200));
    }

    #[test]
    fn a_plan_asks_the_newest_parts_within_the_calls() {
        let mut h = String::from("# head\n");
        for i in 0..200 {
            h.push_str(&format!("## [{}] user\n\nq{i}\n## [{}] assistant\n\na{i}\n", 2 * i, 2 * i + 1));
        }
        let p = plan(&h);
        assert_eq!(p.total, 8);
        assert_eq!(p.parts.len(), MAX_CALLS - 1);
        assert_eq!(p.skipped(), 1);
        assert_eq!(p.parts.first().map(|(k, _)| *k), Some(2), "numbered among all the parts");
        assert!(p.parts.last().is_some_and(|(_, c)| c.contains("q199")), "the newest kept");
    }

    #[test]
    fn the_row_names_the_parts_it_lacks() {
        assert_eq!(gaps(3, 0, &[]), None);
        let g = gaps(7, 0, &[2]).unwrap();
        assert!(g.contains("in 7 parts. Parts not in this summary, by number: 2 (0 oldest, never asked: at most 7 are; 1 that got no summary"), "{g}");
        let g = gaps(9, 2, &[4, 6, 8]).unwrap();
        assert!(g.contains("in 9 parts. Parts not in this summary, by number: 1, 2, 4, 6, 8 (2 oldest, never asked"), "{g}");
        let u = unmerged(&[(1, "a".into()), (3, "c".into())], 3);
        assert!(u.contains("### Part 1 of 3\n\na") && u.contains("### Part 3 of 3\n\nc"), "{u}");
    }

    #[test]
    fn the_merge_numbers_the_parts_as_they_were_asked() {
        let m = merge_prompt(&[(2, "two".into()), (4, "four".into())], "HANDOFF");
        assert!(m.contains("<part n=\"2\">\ntwo\n</part>\n<part n=\"4\">\nfour\n</part>") && m.contains("HANDOFF"), "{m}");
    }
}
