//! The block after the summary: the best ranked identifiers the kept text lacks, each thing
//! once, within the caps, and how each reads.

use crate::text;
use super::coverage::{needles, Haystack};
use super::mention::{Kind, Mention, Mentions};
use super::{INTRO, MAX_LISTED, MAX_LISTED_CHARS};

/// Two listed identifiers that are one: the same text as two kinds, a short and a full
/// commit, or a path and the same path written from further up.
fn same_thing(a: &Mention, b: &Mention) -> bool {
    let (x, y) = (a.text.as_str(), b.text.as_str());
    // `entire/checkpoints/v1` read as a branch by `git checkout` and as a path elsewhere.
    if x == y {
        return true;
    }
    if a.kind != b.kind {
        return false;
    }
    match a.kind {
        Kind::Sha => x.starts_with(y) || y.starts_with(x),
        Kind::Path => {
            let ends = |long: &str, short: &str| {
                long.len() > short.len()
                    && long.ends_with(short.trim_start_matches("./"))
                    && long.as_bytes().get(long.len() - short.trim_start_matches("./").len() - 1) == Some(&b'/')
            };
            ends(x, y) || ends(y, x)
        }
        _ => false,
    }
}

/// The identifiers found in none of the kept texts, best ranked first, within
/// [`MAX_LISTED`] entries and [`MAX_LISTED_CHARS`] rendered characters.
pub fn dropped(mentions: &Mentions, kept: &[&str]) -> Vec<Mention> {
    dropped_within(mentions, kept, MAX_LISTED_CHARS)
}

/// [`dropped`], its rendered block within `chars` (UTF-16 units, intro included).
pub fn dropped_within(mentions: &Mentions, kept: &[&str], chars: usize) -> Vec<Mention> {
    if mentions.is_empty() {
        return Vec::new();
    }
    let hay = Haystack::new(kept);
    let mut room = chars.min(MAX_LISTED_CHARS).saturating_sub(text::len16(INTRO));
    let mut out: Vec<Mention> = Vec::new();
    for m in mentions.ranked() {
        if out.len() >= MAX_LISTED || room < 16 {
            break;
        }
        let line = entry_line(&m);
        let cost = text::len16(&line) + 1;
        if cost > room {
            continue;
        }
        if needles(&m).iter().any(|n| hay.contains(n)) || out.iter().any(|o| same_thing(o, &m)) {
            continue;
        }
        room -= cost;
        out.push(m);
    }
    out
}

fn entry_line(m: &Mention) -> String {
    format!("- {}: {} (×{})", m.kind.as_str(), m.text, m.count)
}

/// The block appended after the summary, or `None` when the summary kept everything.
pub fn render(dropped: &[Mention]) -> Option<String> {
    if dropped.is_empty() {
        return None;
    }
    let mut out = String::from(INTRO);
    for m in dropped {
        out.push('\n');
        out.push_str(&entry_line(m));
    }
    Some(out)
}
