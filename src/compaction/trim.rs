//! The trim before the engine's summarizer: when the conversation is over what
//! the summarizer can take, the largest tool results of the older messages are
//! cut on the way down, so that one request fits instead of the engine's rounds
//! of dropping the oldest turns (measured on 2.1.328: 236,749 B refused, then
//! 7 requests; cut on the way down, 52,772 B in one: e2e-kit failures/README.md
//! section 3). The history is written from the messages as the engine sent
//! them: the trim costs it nothing.
//!
//! A cut message loses its handle (the engine builds it from role, text and tool
//! blocks) and with it the prompt cache from that message on (section 4): so
//! nothing is cut unless the request would not fit, the newest messages are
//! never cut, and every other message goes down as the engine sent it.

use serde::Serialize;

use crate::message::{Message, Messages};
use crate::text;

/// Tokens the summarizer needs beside the conversation: its prompt and its
/// reply (the engine keeps 20,000 of the window for the summary: its effective
/// window is the window less that, e2e-kit failures/README.md).
pub const SUMMARY_ROOM_TOKENS: f64 = 20_000.0;
/// How much of what the summarizer can take a trimmed conversation aims at:
/// the engine's token counts are estimates.
const AIM: f64 = 0.8;
/// After a prompt-too-long in this session with no figures that say so: what
/// is left of the conversation's characters.
pub const AFTER_PTL: f64 = 0.5;
/// A tool result this long or shorter is never cut (the probe's measured cut).
const FLOOR_CHARS: usize = 2_000;
/// What a cut result keeps of its head.
const HEAD_UNITS: usize = 1_000;
/// The newest messages kept whole: at least these many ...
const NEWEST_MESSAGES: usize = 2;
/// ... and as many more as fit in this share of the budget.
const NEWEST_SHARE: f64 = 0.25;
/// The passes over the results, largest first: each cuts, oldest first, those
/// over its size until the conversation fits.
const PASSES: [usize; 4] = [64_000, 16_000, 4_000, FLOOR_CHARS];

/// One message to send down changed: its tool results by position, each a new
/// text or `None` for one left as it is. The shim builds the message from its
/// role, text and tool blocks with these texts, without its handle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cut {
    pub index: usize,
    pub results: Vec<Option<String>>,
}

/// What share of the conversation's characters the summarizer can take, when
/// that is less than all: from the engine's own figures (the last response's
/// input tokens and the window), and after a prompt-too-long seen this session.
/// `None`: the request goes down as the engine made it.
pub fn share(usage: Option<(f64, f64)>, ptl_seen: bool) -> Option<f64> {
    let by_figures = usage.and_then(|(tokens, window)| {
        let room = window - SUMMARY_ROOM_TOKENS;
        (tokens > 0.0 && room > 0.0 && tokens > room).then(|| room * AIM / tokens)
    });
    match (by_figures, ptl_seen) {
        (Some(s), true) => Some(s.min(AFTER_PTL)),
        (Some(s), false) => Some(s),
        (None, true) => Some(AFTER_PTL),
        (None, false) => None,
    }
}

/// A message's size as the summarizer reads it: its text, its tool inputs and
/// its tool results.
fn size(m: &Message) -> usize {
    let inputs: usize = m.tool_uses.0.iter().map(|u| u.input.as_ref().map_or(0, |i| i.get().len())).sum();
    let results: usize = m.result_texts.iter().map(|r| r.as_ref().map_or(0, String::len)).sum();
    m.text().len() + inputs + results
}

/// The text a cut result goes down as.
fn cut_text(result: &str) -> String {
    let head = text::head(result, HEAD_UNITS);
    let gone = result.len() - head.len();
    format!("{head}\n[compact-plus cut {gone} bytes of this tool result for the summarizer; the history file has more of it, the transcript all]")
}

/// The cuts that bring the conversation to `share` of its size, the newest
/// messages left whole; none when it is already there. Each cut is one
/// message, listed once, in order.
pub fn plan(messages: &Messages, share: f64) -> Vec<Cut> {
    let sizes: Vec<usize> = messages.iter().map(|m| m.as_ref().map_or(0, size)).collect();
    let total: usize = sizes.iter().sum();
    let budget = (total as f64 * share.clamp(0.0, 1.0)) as usize;
    if total <= budget {
        return Vec::new();
    }
    // The newest messages, whole.
    let mut newest_from = messages.len().saturating_sub(NEWEST_MESSAGES);
    let mut newest: usize = sizes.get(newest_from..).map_or(0, |s| s.iter().sum());
    let newest_room = (budget as f64 * NEWEST_SHARE) as usize;
    while newest_from > 0 {
        let next = sizes.get(newest_from - 1).copied().unwrap_or(0);
        if newest + next > newest_room {
            break;
        }
        newest += next;
        newest_from -= 1;
    }

    let mut cuts: Vec<Cut> = Vec::new();
    let mut now = total;
    'passes: for over in PASSES {
        for (index, m) in messages.iter().enumerate().take(newest_from) {
            let Some(m) = m else { continue };
            if !m.is_user() {
                continue;
            }
            for (k, r) in m.result_texts.iter().enumerate() {
                let Some(r) = r else { continue };
                let already = cuts.iter().any(|c| c.index == index && c.results.get(k).is_some_and(Option::is_some));
                if already || r.len() <= over {
                    continue;
                }
                let new = cut_text(r);
                now = now - r.len() + new.len();
                // The cuts are kept in message order as they are made (a later pass may cut an
                // earlier message): no sort at the end, and no sort's code in the .wasm.
                let at = cuts.partition_point(|c| c.index < index);
                if cuts.get(at).is_none_or(|c| c.index != index) {
                    cuts.insert(at, Cut { index, results: vec![None; m.result_texts.len()] });
                }
                if let Some(slot) = cuts.get_mut(at).and_then(|c| c.results.get_mut(k)) {
                    *slot = Some(new);
                }
                if now <= budget {
                    break 'passes;
                }
            }
        }
    }
    cuts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;
    use serde_json::json;

    /// A tool loop: a prompt, then `n` rounds of one Bash call whose result is
    /// `result_len` characters, then a final answer and the newest prompt.
    fn session(n: usize, result_len: usize) -> Messages {
        let mut v = vec![json!({"role": "user", "text": "please look", "handle": "h0", "toolUses": []})];
        for k in 0..n {
            v.push(json!({"role": "assistant", "text": "", "handle": format!("a{k}"),
                "toolUses": [{"tool": "Bash", "input": {"command": format!("seq {k}")}, "text": "x".repeat(result_len)}]}));
            v.push(json!({"role": "user", "text": "", "handle": format!("u{k}"), "toolUses": [],
                "toolResults": [{"text": "x".repeat(result_len)}], "resultTexts": ["r".repeat(result_len + k)]}));
        }
        v.push(json!({"role": "assistant", "text": "done", "handle": "last-a", "toolUses": []}));
        v.push(json!({"role": "user", "text": "now the next step", "handle": "last-u", "toolUses": [],
            "toolResults": [{"text": "y".repeat(50_000)}], "resultTexts": ["y".repeat(50_000)]}));
        parse_messages(&serde_json::Value::Array(v).to_string())
    }

    #[test]
    fn under_the_limit_nothing_is_cut() {
        assert_eq!(share(Some((150_000.0, 200_000.0)), false), None);
        assert_eq!(share(None, false), None);
        assert_eq!(share(Some((0.0, 200_000.0)), false), None);
        assert!(plan(&session(5, 30_000), 1.0).is_empty());
        // Already within the share asked for.
        assert!(plan(&session(1, 10), 0.99).is_empty());
    }

    #[test]
    fn the_share_comes_from_the_engines_figures_and_a_prompt_too_long() {
        let s = share(Some((195_000.0, 200_000.0)), false).unwrap_or(0.0);
        assert!((s - 180_000.0 * 0.8 / 195_000.0).abs() < 1e-9, "{s}");
        assert_eq!(share(None, true), Some(AFTER_PTL));
        assert_eq!(share(Some((100_000.0, 200_000.0)), true), Some(AFTER_PTL));
        assert!(share(Some((400_000.0, 200_000.0)), true).unwrap_or(1.0) < AFTER_PTL);
    }

    #[test]
    fn the_newest_messages_and_every_kept_handle_stay_untouched() {
        let messages = session(8, 30_000);
        let cuts = plan(&messages, 0.4);
        assert!(!cuts.is_empty());
        let last = messages.len() - 1;
        // The newest two (the final answer, the newest prompt with its big result) whole.
        assert!(cuts.iter().all(|c| c.index < last - 1), "{cuts:?}");
        // Only user messages with results are cut; every other message (its
        // handle) goes down as the engine sent it.
        for c in &cuts {
            let m = messages[c.index].as_ref().unwrap();
            assert!(m.is_user() && !m.result_texts.is_empty());
            assert_eq!(c.results.len(), m.result_texts.len());
        }
        // Oldest first: the cut ones are the oldest results.
        let indices: Vec<usize> = cuts.iter().map(|c| c.index).collect();
        let expected: Vec<usize> = (0..indices.len()).map(|k| 2 + 2 * k).collect();
        assert_eq!(indices, expected);
        // A cut keeps the result's head and says where the whole is.
        let text = cuts[0].results[0].as_deref().unwrap();
        assert!(text.starts_with(&"r".repeat(1000)) && text.contains("the history file has more of it"));
        assert!(text.len() < 1200);
    }

    #[test]
    fn it_cuts_until_the_conversation_fits() {
        let messages = session(8, 30_000);
        let total: usize = messages.iter().flatten().map(size).sum();
        let cuts = plan(&messages, 0.4);
        let saved: usize = cuts
            .iter()
            .flat_map(|c| {
                let m = messages[c.index].as_ref().unwrap();
                c.results.iter().zip(&m.result_texts).filter_map(|(new, old)| Some(old.as_ref()?.len() - new.as_ref()?.len()))
            })
            .sum();
        assert!(total - saved <= (total as f64 * 0.4) as usize, "{} > {}", total - saved, total * 4 / 10);
        // No more than needed: one cut fewer would not fit.
        assert!(cuts.len() < 8);
    }

    #[test]
    fn the_largest_go_first() {
        // An old small-ish result and a later huge one: the huge one is cut, the small one kept.
        let v = json!([
            {"role": "user", "text": "go", "handle": "h0", "toolUses": []},
            {"role": "user", "text": "", "handle": "u0", "toolUses": [], "toolResults": [{}], "resultTexts": ["s".repeat(5_000)]},
            {"role": "user", "text": "", "handle": "u1", "toolUses": [], "toolResults": [{}], "resultTexts": ["b".repeat(200_000)]},
            {"role": "assistant", "text": "ok", "handle": "a", "toolUses": []},
            {"role": "user", "text": "next", "handle": "n", "toolUses": []},
        ]);
        let messages = parse_messages(&v.to_string());
        let cuts = plan(&messages, 0.5);
        assert_eq!(cuts.iter().map(|c| c.index).collect::<Vec<_>>(), [2]);
    }

    /// A later pass cuts an earlier message than the first pass did: the cuts still come in
    /// message order (the shim numbers them so), each message once.
    #[test]
    fn cuts_come_in_message_order_whichever_pass_made_them() {
        let v = json!([
            {"role": "user", "text": "go", "handle": "h0", "toolUses": []},
            {"role": "user", "text": "", "handle": "u0", "toolUses": [], "toolResults": [{}, {}], "resultTexts": ["s".repeat(20_000), "t".repeat(20_000)]},
            {"role": "user", "text": "", "handle": "u1", "toolUses": [], "toolResults": [{}], "resultTexts": ["b".repeat(200_000)]},
            {"role": "assistant", "text": "ok", "handle": "a", "toolUses": []},
            {"role": "user", "text": "next", "handle": "n", "toolUses": []},
        ]);
        let messages = parse_messages(&v.to_string());
        let cuts = plan(&messages, 0.05);
        assert_eq!(cuts.iter().map(|c| c.index).collect::<Vec<_>>(), [1, 2], "{cuts:?}");
        assert!(cuts[0].results.iter().all(Option::is_some), "both of the earlier message's results are cut");
    }

    #[test]
    fn odd_messages_cost_nothing() {
        let v = json!([null, 5, {"role": "user", "resultTexts": [null, 7, "z"]}, {"role": "user", "resultTexts": "no"}]);
        let messages = parse_messages(&v.to_string());
        assert!(plan(&messages, 0.1).is_empty());
        assert!(plan(&Vec::new(), 0.0).is_empty());
    }
}
