//! The audit on real Claude Code sessions: the transcripts other people committed to public
//! repositories, in `../shared/real-transcripts/` (read at test time, never copied into this
//! repository; the test says so and passes when they are absent).
//!
//! Each transcript is cut into the windows its compactions saw (rows after one
//! `compact_boundary` up to the next; the last window is what a `/compact` on the resumed
//! session would get), each window turned into the event's messages as the engine builds them,
//! and the audit run against the summary the session really got (the `isCompactSummary` row
//! after the boundary; none for the last window) and the verbatim block. Printed per window: entries listed, how many
//! the history file holds by their exact text, how many are in a noise shape. An entry the
//! history does not hold fails the test: the recall tool would answer "no hits" for it.

use super::{collect, dropped, Kind, Mention};
use super::what_is_listed::history_text;
use crate::compaction::{terminal, verbatim};
use crate::transcripts::{transcripts, windows, Window, DIR};

// Noise shapes: what the issue found listed on real sessions that names nothing the next
// model needs. Each is judged on the entry alone.

/// `514M/1.42G`, `12.5MB/40MB`: a download's progress.
pub(super) fn progress_counter(m: &Mention) -> bool {
    let amount = |s: &str| {
        let digits = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let unit = s.get(digits.len()..).unwrap_or("");
        !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && digits.bytes().any(|b| b.is_ascii_digit())
            && unit.len() <= 3
    };
    m.text.split_once('/').is_some_and(|(a, b)| amount(a) && amount(b))
}

/// `/dev/null`, `/proc/self/…`, `/tmp/…`: no file of the project.
pub(super) fn device_proc_temp(m: &Mention) -> bool {
    m.kind == Kind::Path
        && ["/dev/", "/proc/", "/sys/", "/tmp/", "/private/tmp/", "/var/tmp/", "/var/folders/"]
            .iter()
            .any(|p| m.text.starts_with(p) || m.text == p.trim_end_matches('/'))
}

/// Inside `node_modules`, `site-packages`, a virtualenv or the cargo registry.
pub(super) fn vendored(m: &Mention) -> bool {
    let t = m.text.as_str();
    m.kind == Kind::Path
        && (["node_modules", "site-packages", "dist-packages", ".cargo/registry", ".cargo/git/"].iter().any(|v| t.contains(v))
            || t.starts_with(".venv/")
            || t.contains("/.venv/")
            || t.starts_with("venv/")
            || t.contains("/venv/"))
}

/// `a/src/x.rs`, `b/src/x.rs`: git diff's prefixes.
pub(super) fn diff_prefix(m: &Mention) -> bool {
    m.kind == Kind::Path && (m.text.starts_with("a/") || m.text.starts_with("b/"))
}

/// A package tarball or wheel on a registry.
pub(super) fn registry_tarball(m: &Mention) -> bool {
    let t = m.text.as_str();
    m.kind == Kind::Url
        && ((t.contains("/-/") && t.ends_with(".tgz"))
            || t.contains("files.pythonhosted.org/")
            || t.contains("registry.yarnpkg.com/")
            || t.ends_with(".whl"))
}

/// `/r/a`, `x/y.z`: every component one or two characters, a string literal, not a file.
pub(super) fn literal(m: &Mention) -> bool {
    m.kind == Kind::Path && m.text.split('/').filter(|c| !c.is_empty()).all(|c| c.len() <= 2)
}

/// `mode/m.test`, `s/x.replace`: a regex literal or a call read as a path.
pub(super) fn code_call(m: &Mention) -> bool {
    let last = m.text.rsplit('/').next().unwrap_or("");
    m.kind == Kind::Path
        && [".test", ".exec", ".match", ".replace", ".split", ".map", ".filter", ".join", ".push"]
            .iter()
            .any(|e| last.strip_suffix(e).is_some_and(|stem| stem.len() <= 2))
}

/// `strategy.go-185-`: a context line of `grep -C`, the line number glued to the file.
pub(super) fn grep_context(m: &Mention) -> bool {
    let t = m.text.strip_suffix('-').unwrap_or("");
    let digits = t.bytes().rev().take_while(u8::is_ascii_digit).count();
    m.kind == Kind::Path && digits > 0 && t.get(..t.len() - digits).is_some_and(|h| h.ends_with('-'))
}

/// `os/exec.Command`: a Go package member, not a file.
pub(super) fn member(m: &Mention) -> bool {
    let last = m.text.rsplit('/').next().unwrap_or("");
    let ext = last.rsplit_once('.').map_or("", |(_, e)| e);
    m.kind == Kind::Path && ext.len() >= 4 && ext.starts_with(|c: char| c.is_ascii_uppercase())
}

/// A noise shape: its name and whether an entry has it.
type Shape = (&'static str, fn(&Mention) -> bool);

pub(super) const NOISE: [Shape; 9] = [
    ("progress", progress_counter),
    ("device/temp", device_proc_temp),
    ("vendored", vendored),
    ("diff prefix", diff_prefix),
    ("tarball", registry_tarball),
    ("literal", literal),
    ("code call", code_call),
    ("grep context", grep_context),
    ("member", member),
];

pub(super) fn noise_shape(m: &Mention) -> Option<&'static str> {
    NOISE.iter().find(|(_, is)| is(m)).map(|(name, _)| *name)
}

/// One window's figures, printed under its file.
struct Figures {
    listed: usize,
    found: usize,
    noise: usize,
    lines: Vec<String>,
}

fn audit_window(w: Window, show: bool, unfindable: &mut Vec<String>, name: &str) -> Figures {
    let summary = w.summary;
    let mut messages = w.messages;
    // As the hooks do before the history and the audit.
    terminal::tidy(&mut messages);
    let history = history_text(&messages);
    // What the hooks check the list against: the summary and the verbatim block (at the hooks'
    // default budget, `Options::default`).
    let block = verbatim::render(&verbatim::select(None, &messages, 8000.0), verbatim::Mark::NewestCurrent);
    let kept: Vec<&str> = summary.as_deref().into_iter().chain([block.as_str()]).collect();
    let listed = dropped(&collect(&messages), &kept);
    let findable = |m: &Mention| history.contains(m.text.as_str());
    let found = listed.iter().filter(|m| findable(m)).count();
    let noise = listed.iter().filter(|m| noise_shape(m).is_some()).count();
    let mut lines = vec![format!(
        "  window of {} messages{}: {} listed, {found} findable, {noise} in a noise shape",
        messages.len(),
        if summary.is_some() { " (with its real summary)" } else { " (the last: no summary yet)" },
        listed.len()
    )];
    for m in &listed {
        let lost = !findable(m);
        if lost {
            unfindable.push(format!("{name}: {}", m.text));
        }
        if show || lost || noise_shape(m).is_some() {
            let tag = noise_shape(m).map(|n| format!(" [{n}]")).unwrap_or_default();
            let lost = if lost { " [NOT IN THE HISTORY]" } else { "" };
            lines.push(format!("      {}: {} (×{}, {:?}){tag}{lost}", m.kind.as_str(), m.text, m.count, m.source));
        }
    }
    Figures { listed: listed.len(), found, noise, lines }
}

/// Per file: entries listed, how many the rendered history holds, how many are in a noise
/// shape; every noisy or unfindable entry printed (`AUDIT_SHOW=1` prints them all). Fails on an
/// unfindable entry.
#[test]
fn real_transcripts() {
    let Some(files) = transcripts() else {
        println!("real_transcripts: skipped, {DIR} is absent (the real sessions are read from ../shared at test time)");
        return;
    };
    let show = std::env::var_os("AUDIT_SHOW").is_some();
    let mut unfindable = Vec::new();
    let (mut all_listed, mut all_found, mut all_noise, mut all_windows) = (0, 0, 0, 0);
    for path in &files {
        let Ok(jsonl) = std::fs::read_to_string(path) else { continue };
        let name = path.strip_prefix(DIR).unwrap_or(path).to_string_lossy().trim_start_matches('/').to_owned();
        let figures: Vec<Figures> = windows(&jsonl).into_iter().map(|w| audit_window(w, show, &mut unfindable, &name)).collect();
        let (listed, found, noise) = figures.iter().fold((0, 0, 0), |(l, f, n), x| (l + x.listed, f + x.found, n + x.noise));
        println!("{name}: {listed} listed, {found} findable in the history, {noise} in a noise shape");
        for line in figures.iter().flat_map(|f| &f.lines) {
            println!("{line}");
        }
        all_listed += listed;
        all_found += found;
        all_noise += noise;
        all_windows += figures.len();
    }
    println!(
        "real_transcripts: {} files, {all_windows} windows: {all_listed} listed, {all_found} findable, {all_noise} in a noise shape",
        files.len()
    );
    assert!(unfindable.is_empty(), "listed but not in the history file: {unfindable:#?}");
}
