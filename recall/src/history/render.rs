//! The answer to a search of this session's history: the true totals, naming
//! the compactions the hits are in, then the best excerpts within the answer's
//! bound.

use compact_plus::recall_tool::MAX_LIMIT;

use super::scan::{Found, HistoryScan};
use crate::text::{clip, plural, Budget, MAX_ANSWER};

/// Room kept for the closing line after the excerpts.
const FOOTER_ROOM: usize = 200;

/// The directory of a path, with its separator; empty for a bare name.
fn dir_of(path: &str) -> &str {
    match path.rfind(['/', '\\']) {
        Some(i) => path.get(..=i).unwrap_or(""),
        None => "",
    }
}

/// `2026-11-29T232701Z-manual` as `2026-11-29 23:27:01Z (manual)`; a key of
/// another shape as it is.
fn stamp_label(key: &str) -> String {
    let Some((stamp, trigger)) = key.split_once("Z-") else { return key.to_owned() };
    let pretty = match stamp.split_once('T') {
        Some((date, time)) if time.len() == 6 && time.bytes().all(|b| b.is_ascii_digit()) => format!(
            "{date} {}:{}:{}Z",
            time.get(0..2).unwrap_or(""),
            time.get(2..4).unwrap_or(""),
            time.get(4..6).unwrap_or("")
        ),
        _ => format!("{stamp}Z"),
    };
    format!("{pretty} ({trigger})")
}

/// Which compactions the hits are in: the one, or the oldest and newest.
fn which(scan: &HistoryScan) -> String {
    let label = |c: &usize| scan.compactions.get(*c).map_or(String::new(), |k| stamp_label(k));
    let (Some(first), Some(last)) = (scan.hit_compactions.iter().min(), scan.hit_compactions.iter().max()) else {
        return String::new();
    };
    if first == last {
        format!(" ({})", label(first))
    } else {
        format!(" ({} to {})", label(first), label(last))
    }
}

/// The answer to a scan of every part.
pub(super) fn answer(scan: HistoryScan) -> String {
    let role = scan.query.role.map_or(String::new(), |r| format!(", role {}", r.as_str()));
    if scan.parts.is_empty() {
        return "recall: no history files to search yet: nothing of this session has been compacted away.".into();
    }
    let unread = if scan.unread > 0 {
        format!(" ({} file{} could not be read.)", scan.unread, plural(scan.unread))
    } else {
        String::new()
    };
    if scan.messages == 0 {
        return format!(
            "recall: no hits for {}{role} in {} file{} of {} compaction{}.{unread} Try other or fewer words, a regex (regex: true), or no role.",
            scan.terms.describe(),
            scan.parts.len(),
            plural(scan.parts.len()),
            scan.compactions.len(),
            plural(scan.compactions.len()),
        );
    }
    let mut out = Budget::default();
    let in_compactions = scan.hit_compactions.len();
    out.push(&format!(
        "recall: {} hit{} in {} message{} of {} compaction{}{} for {}{role}.{unread}",
        scan.hits,
        plural(scan.hits),
        scan.messages,
        plural(scan.messages),
        in_compactions,
        plural(in_compactions),
        which(&scan),
        scan.terms.describe(),
    ));
    let last = "a hit in the recall tool's own earlier calls last";
    if scan.terms.terms.len() > 1 {
        out.push(&format!(" {} of them hold every term; more terms rank first, then more hits, then newer ({last}).", scan.every));
    } else {
        out.push(&format!(" More hits rank first, then newer ({last})."));
    }
    let common = scan.parts.first().map(|p| dir_of(&p.path)).filter(|d| scan.parts.iter().all(|p| dir_of(&p.path) == *d));
    let short_names = common.is_some_and(|d| !d.is_empty());
    match common {
        Some(dir) if !dir.is_empty() => {
            out.push(&format!("\nThe files are in {dir} (Read one at the line shown, or rg -n there, for more).\n"))
        }
        _ => out.push("\nRead a file at the line shown (or rg -n it) for more.\n"),
    }
    let limit = scan.query.limit.clamp(1, MAX_LIMIT);
    let mut shown = 0;
    let mut capped = false;
    let messages = scan.messages;
    for msg in scan.best.into_items() {
        let Some(text) = excerpt(&scan.parts, &scan.compactions, &msg, &scan.terms, short_names) else { continue };
        if !out.fits(&text, FOOTER_ROOM) {
            capped = true;
            break;
        }
        out.push(&text);
        shown += 1;
    }
    let rest = messages - shown;
    if rest > 0 {
        let why = if capped { format!("the answer stops at {MAX_ANSWER} characters") } else { format!("limit {limit}") };
        out.push(&format!(
            "\n{rest} more message{} with hits not shown ({why}); narrow the query (more words, a role, a regex) or raise limit.",
            plural(rest)
        ));
    }
    out.finish()
}

fn excerpt(
    parts: &[super::scan::Part],
    compactions: &[String],
    msg: &Found,
    terms: &crate::terms::Terms,
    short_names: bool,
) -> Option<String> {
    let best = msg.best.as_ref()?;
    let part = parts.get(best.file)?;
    let file_label = if short_names { part.name.as_str() } else { part.path.as_str() };
    let mut out = String::new();
    let tool = best.tool.as_ref().map_or(String::new(), |t| format!(" · tool {t}"));
    let compaction = compactions.get(msg.compaction).map_or("", String::as_str);
    out.push_str(&format!(
        "\n── {file_label}:{} · compaction {} · [{}] {}{tool} · {} hit{}\n",
        best.line,
        stamp_label(compaction),
        msg.n,
        msg.role,
        msg.hits,
        plural(msg.hits),
    ));
    for (k, (_, line)) in best.window.iter().enumerate() {
        let hit = terms.first_hit(line);
        let mark = if hit.is_some() { '>' } else { ' ' };
        out.push_str(&format!("{mark}{:>6} | {}\n", best.first_line + k, clip(line, hit)));
    }
    let others: Vec<String> = msg
        .others
        .iter()
        .filter(|(f, l)| !(*f == best.file && l.abs_diff(best.line) <= super::scan::CONTEXT_LINES))
        .map(|(f, l)| match parts.get(*f) {
            Some(p) if *f != best.file => format!("{}:{l}", p.name),
            _ => l.to_string(),
        })
        .collect();
    let unlisted = msg.hit_lines.saturating_sub(1 + msg.others.len());
    if !others.is_empty() || unlisted > 0 {
        let more = if unlisted > 0 { format!(" (+{unlisted} more)") } else { String::new() };
        let list = match others.len() {
            0 => String::new(),
            1 => format!(" at line {}", others.join("")),
            _ => format!(" at lines {}", others.join(", ")),
        };
        out.push_str(&format!("  more hits in this message{list}{more}\n"));
    }
    Some(out)
}
