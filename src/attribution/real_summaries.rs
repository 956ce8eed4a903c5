//! The check on the summaries Claude really wrote (`../shared/real-transcripts`, read at test
//! time): every passage they attribute to the person, checked against the messages the hook
//! would have been given, and the same summaries seeded with invented and inverted requests.
//!
//! `cargo test attribution::real_summaries -- --nocapture` prints the figures.

use super::{check, said, Checked};
use crate::transcripts::{transcripts, windows, DIR};

/// Compactions frozen before the check was written (bench/continuation.mjs `HELD_OUT`).
const HELD_OUT: [&str; 3] = ["c8-946606a339", "ee-7e610ffc3f", "9b-04c3d92e38"];

struct Real {
    id: String,
    jsonl: String,
    summary: String,
    messages: crate::message::Messages,
}

fn reals() -> Option<Vec<Real>> {
    let files = transcripts()?;
    let mut out = Vec::new();
    for path in &files {
        let Ok(jsonl) = std::fs::read_to_string(path) else { continue };
        let name: String = path.file_name().map(|n| n.to_string_lossy().chars().take(13).collect()).unwrap_or_default();
        for (k, w) in windows(&jsonl).into_iter().enumerate() {
            let Some(row) = w.summary else { continue };
            // The summarizer's reply: the row without the engine's first paragraph and its tail.
            let body = row.split_once("\n\n").map_or(row.as_str(), |(_, b)| b);
            let body = body.split("\n\nIf you need specific details").next().unwrap_or(body);
            let summary = body.split_once("Summary:\n").map_or(body, |(_, s)| s).to_owned();
            out.push(Real { id: format!("{name}#{}", k + 1), jsonl: jsonl.clone(), summary, messages: w.messages });
        }
    }
    Some(out)
}

/// Messages the person typed while the model worked: the transcript holds them only as
/// `queue-operation` rows, which a resumed engine does not load, so no hook is given them.
fn queued(jsonl: &str) -> Vec<String> {
    jsonl
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|r| r.get("type").and_then(|t| t.as_str()) == Some("queue-operation"))
        .filter_map(|r| r.get("content").and_then(|c| c.as_str()).map(str::to_owned))
        .collect()
}

fn fold(s: &str) -> String {
    super::matching::fold(s)
}

/// Words that turn a request, and what they become.
const FLIPS: [(&str, &str); 14] = [
    ("don't", "do"), ("do not", "do"), ("never", "always"), ("always", "never"), ("must not", "must"),
    ("must", "must not"), ("shouldn't", "should"), ("should", "should not"), ("can't", "can"), ("won't", "will"),
    ("didn't", "did"), ("isn't", "is"), ("not", ""), ("no", "yes"),
];
const IMPERATIVES: [&str; 14] =
    ["look", "commit", "review", "make", "write", "run", "add", "remove", "use", "fix", "implement", "create", "update", "delete"];

/// A request turned into its opposite, as the benchmark turns them (bench/continuation.mjs `invert`).
fn invert(m: &str) -> Option<String> {
    let words: Vec<&str> = m.split(' ').collect();
    for (from, to) in FLIPS {
        let n = from.split(' ').count();
        let Some(at) = words.windows(n).position(|w| w.join(" ").to_lowercase().trim_end_matches([',', '.', '?', '!']) == from) else {
            continue;
        };
        let mut out: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
        out.splice(at..at + n, [to.to_owned()]);
        return Some(out.into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" "));
    }
    if let Some(rest) = m.strip_prefix("let's ") {
        return Some(format!("let's not {rest}"));
    }
    let head = words.first()?;
    let first = head.to_lowercase();
    IMPERATIVES.contains(&first.as_str()).then(|| format!("Don't {}{}", first, m.get(head.len()..).unwrap_or("")))
}

#[test]
fn real_summaries() {
    let Some(reals) = reals() else {
        println!("attribution real_summaries: skipped, {DIR} is absent");
        return;
    };
    let mut false_flags = Vec::new();
    let (mut passages, mut before, mut unseen) = (0, 0, 0);
    let mut caught = [0usize; 2];
    let mut seeded = [0usize; 2];
    for r in &reals {
        let s = said(&r.messages);
        let c: Checked = check(&r.summary, &s);
        let split = if HELD_OUT.iter().any(|h| r.id.starts_with(h)) { "held out" } else { "tuned" };
        println!("{} ({split}): {} passages checked, {} before the conversation, {} flagged", r.id, c.passages, c.before, c.flags.len());
        passages += c.passages;
        before += c.before;
        let q = queued(&r.jsonl);
        for f in &c.flags {
            let typed_while_working = q.iter().any(|m| fold(m).contains(&fold(&f.passage).trim_end_matches('.').to_owned()));
            println!("    flag{}: {:?} (nearest {:?})", if typed_while_working { " (a message the hook is never given: a queue-operation row)" } else { "" }, f.passage, f.nearest.as_ref().map(|n| n.0));
            if typed_while_working {
                unseen += 1;
            } else {
                false_flags.push(format!("{}: {}", r.id, f.passage));
            }
        }

        // Seeded: requests of the other sessions, and this one's turned.
        let own: Vec<&str> = s.iter().filter(|x| x.origin == super::Origin::Person).map(|x| x.text.as_str()).filter(|t| !t.contains('\n') && t.len() <= 300).collect();
        let key = r.id.split('#').next().unwrap_or("");
        let foreign: Vec<String> = reals
            .iter()
            .filter(|o| !o.id.starts_with(key))
            .flat_map(|o| said(&o.messages))
            .filter(|x| x.origin == super::Origin::Person && !x.text.contains('\n'))
            .map(|x| x.text.replace('"', "'"))
            .filter(|t| (6..=30).contains(&t.split_whitespace().count()) && !t.contains(['`', '{', '}', '<', '>']))
            .collect();
        let invented: Vec<&String> = foreign.iter().skip(r.id.len() % 5).step_by(7).take(3).collect();
        let inverted: Vec<(String, String)> = own.iter().filter_map(|m| invert(m).map(|i| ((*m).to_owned(), i))).rev().take(2).collect();
        // Quoted in the summary's list, a message's own double quotes are single, as summaries write them.
        let inverted: Vec<(String, String)> = inverted
            .into_iter()
            .map(|(from, to)| if r.summary.contains(from.as_str()) { (from, to) } else { (from, to.replace('"', "'")) })
            .collect();
        let mut summary = r.summary.clone();
        let mut items = Vec::new();
        for (from, to) in &inverted {
            if summary.contains(from.as_str()) {
                summary = summary.replace(from.as_str(), to);
            } else {
                items.push(to.clone());
            }
        }
        items.extend(invented.iter().take(2).map(|s| (*s).clone()));
        let list = items.iter().map(|t| format!("   - \"{t}\"")).collect::<Vec<_>>().join("\n");
        summary = match summary.find("\n7. ") {
            Some(at) => format!("{}\n{list}\n{}", summary.get(..at).unwrap_or(""), summary.get(at..).unwrap_or("")),
            None => format!("{summary}\n\n6. All user messages:\n{list}\n"),
        };
        if let Some(third) = invented.get(2) {
            summary = summary.replacen("1. Primary Request and Intent:\n", &format!("1. Primary Request and Intent:\n   The user also asked: \"{third}\".\n"), 1);
        }
        let c = check(&summary, &s);
        for (kind, seeds) in [(0, inverted.iter().map(|x| x.1.clone()).collect::<Vec<_>>()), (1, invented.iter().map(|s| (*s).clone()).collect())] {
            for seed in seeds {
                seeded[kind] += 1;
                let hit = c.flags.iter().any(|f| fold(&f.passage) == fold(&seed));
                caught[kind] += usize::from(hit);
                if !hit {
                    println!("    seed not caught ({}): {seed:?}", ["inverted", "invented"][kind]);
                }
            }
        }
    }
    println!(
        "real summaries: {} compactions, {passages} passages checked, {before} before the conversation; flags: {} false, {unseen} on messages the hook is never given",
        reals.len(),
        false_flags.len()
    );
    println!("seeded: inverted {}/{} caught, invented {}/{} caught", caught[0], seeded[0], caught[1], seeded[1]);
    assert!(false_flags.is_empty(), "{false_flags:#?}");
    let (c, n) = (caught[0] + caught[1], seeded[0] + seeded[1]);
    assert!(n == 0 || c * 10 >= n * 9, "{c}/{n} seeded requests caught");
}


