//! Properties of the core that must hold for any input (issue 6, "Prove it fails
//! open"): outputs are whole text, budgets hold, nothing the person said or did is
//! dropped, and the hook machine ends whatever the host answers.
//!
//! Inputs come from `fuzz/src/gen.rs`, the generator the fuzz targets use, fed
//! with proptest's bytes, so a failure here shrinks to a small plain input and a
//! crash found by the fuzzer replays here. The case count is small (64) so CI
//! stays fast; `scripts/fuzz` runs the same shapes a million times each.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/src/gen.rs"]
#[allow(dead_code)]
mod gen;
#[path = "../fuzz/src/player.rs"]
#[allow(dead_code)]
mod player;
#[path = "../fuzz/src/check.rs"]
mod check;

use compact_plus::compaction::{handoff, history, verbatim};
use compact_plus::compat::{self, instructions};
use compact_plus::hooks::{Core, Options};
use compact_plus::message::{parse_messages, Messages};
use compact_plus::text;
use compact_plus::text::stamp;
use gen::{Source, Tape};
use player::{Ending, Fault};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use unicode_segmentation::UnicodeSegmentation;

const CASES: u32 = 64;

/// The same cases on every run, so CI is repeatable; `PROPTEST_RNG_SEED=<n>` and
/// `PROPTEST_CASES=<n>` explore further.
const SEED: u64 = 6;

fn config() -> ProptestConfig {
    let from_env = ProptestConfig::default();
    let set = |name: &str| std::env::var_os(name).is_some();
    ProptestConfig {
        cases: if set("PROPTEST_CASES") { from_env.cases } else { CASES },
        rng_seed: if set("PROPTEST_RNG_SEED") { from_env.rng_seed } else { RngSeed::Fixed(SEED) },
        failure_persistence: None,
        ..from_env
    }
}

fn tape() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..384)
}

// ---- reference models, written from the JS semantics, not from the crate ----

/// JS `slice`'s relative index: truncate, negative from the end, clamp.
fn js_index(x: f64, len: usize) -> usize {
    if x.is_nan() {
        return 0;
    }
    let i = x.trunc();
    if i < 0.0 {
        (len as f64 + i).max(0.0) as usize
    } else {
        i.min(len as f64) as usize
    }
}

/// Grapheme boundaries of `s`, as (UTF-16 offset, byte offset), both ends included.
fn boundaries(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut units = 0;
    let mut last = 0;
    for (byte, g) in s.grapheme_indices(true) {
        units += s[last..byte].encode_utf16().count();
        last = byte;
        out.push((units, byte));
        let _ = g;
    }
    units += s[last..].encode_utf16().count();
    out.push((units, s.len()));
    out
}

fn note_line(cut: &str, note: &str) -> String {
    format!("\n[... {cut} characters cut; {note} ...]\n")
}

/// What `cut_middle` must give: the reference's cut points, each moved to the
/// nearest grapheme boundary that keeps less, never more.
fn expected_cut(s: &str, max: f64, note: &str) -> String {
    let len = s.encode_utf16().count();
    if len as f64 <= max {
        return s.to_owned();
    }
    let head_units = (max * 0.7).floor();
    let want_head = js_index(head_units, len);
    let want_tail = js_index(len as f64 - (max - head_units), len);
    let bounds = boundaries(s);
    let (head_u, head_b) = bounds.iter().copied().rfind(|(u, _)| *u <= want_head).unwrap_or((0, 0));
    let (tail_u, tail_b) = bounds.iter().copied().find(|(u, _)| *u >= want_tail).unwrap_or((len, s.len()));
    let cut = if head_u == want_head && tail_u == want_tail {
        text::number_to_string(len as f64 - max)
    } else {
        (len - head_u - (len - tail_u)).to_string()
    };
    format!("{}{}{}", &s[..head_b], note_line(&cut, note), &s[tail_b..])
}

/// `len16` of the reference's own output, surrogate halves and all.
fn reference_cut_len(s: &str, max: f64, note: &str) -> usize {
    let len = s.encode_utf16().count();
    if len as f64 <= max {
        return len;
    }
    let head_units = (max * 0.7).floor();
    let head = js_index(head_units, len);
    let tail = len - js_index(len as f64 - (max - head_units), len);
    head + tail + note_line(&text::number_to_string(len as f64 - max), note).encode_utf16().count()
}

fn a_max(s: &mut Tape, len: usize) -> f64 {
    match s.byte() % 6 {
        0 => len as f64,
        1 => gen::below(s, len + 2) as f64,
        2 => gen::below(s, len + 2) as f64 + f64::from(s.byte()) / 256.0,
        3 => len as f64 - 1.0,
        _ => gen::number(s),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn cut_middle_keeps_graphemes_and_the_reference_length(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let input = gen::text(s);
        let max = a_max(s, text::len16(&input));
        let note = if gen::flag(s) { verbatim::CUT_NOTE.to_owned() } else { gen::text(s) };
        let out = text::cut_middle(&input, max, &note);
        if text::len16(&input) as f64 <= max {
            prop_assert_eq!(&out, &input);
        }
        prop_assert!(text::len16(&out) <= reference_cut_len(&input, max, &note));
        prop_assert_eq!(out, expected_cut(&input, max, &note), "max {}", max);
    }

    #[test]
    fn head_and_tail_end_on_grapheme_boundaries(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let input = gen::text(s);
        let at = gen::below(s, text::len16(&input) + 2);
        let bytes_at: Vec<usize> = boundaries(&input).iter().map(|b| b.1).collect();
        let head = text::head(&input, at);
        let tail = text::tail(&input, at);
        prop_assert!(bytes_at.contains(&head.len()));
        prop_assert!(bytes_at.contains(&(input.len() - tail.len())));
        prop_assert!(text::len16(head) <= at);
        prop_assert!(text::len16(tail) <= text::len16(&input).saturating_sub(at));
    }

    #[test]
    fn person_text_is_trimmed_and_never_machine_text(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let input = gen::text(s);
        let out = verbatim::person_text(&input);
        prop_assert_eq!(text::trim(&out), out.as_str());
        for p in ["<system-reminder>", "<command-", "Caveat:", "[Request interrupted", compact_plus::engine::summary_row::HEAD] {
            prop_assert!(!out.starts_with(p), "{:?}", out);
        }
        let trimmed = text::trim(&input);
        if !input.contains('<') && !trimmed.starts_with("Caveat:") && !trimmed.starts_with("[Request interrupted")
            && !trimmed.starts_with(compact_plus::engine::summary_row::HEAD)
        {
            prop_assert_eq!(out.as_str(), trimmed);
        }
    }

    #[test]
    fn select_keeps_order_and_budget(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let json = gen::messages(s).to_string();
        let budget = match s.byte() % 3 {
            0 => gen::below(s, 3000) as f64,
            1 => gen::below(s, 3000) as f64 + f64::from(s.byte()) / 100.0,
            _ => gen::number(s),
        };
        let msgs = parse_messages(&json);
        check_select(&msgs, budget)?;
    }

    #[test]
    fn the_verbatim_block_gives_back_every_entry(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let msgs = parse_messages(&gen::messages(s).to_string());
        let chosen = compat::verbatim::select(&msgs, 4000.0);
        // A message that itself holds the block's markers (with the line ends
        // around it) reads back split, as in the reference.
        prop_assume!(chosen.iter().all(|e| {
            let framed = format!("\n{}\n", e.text);
            [verbatim::VERBATIM_SEP, verbatim::VERBATIM_OPEN, verbatim::VERBATIM_CLOSE].iter().all(|m| !framed.contains(m))
        }));
        let block = compat::verbatim::render(&chosen);
        let row = serde_json::json!([{ "role": "user", "text": format!("summary\n{block}") }]).to_string();
        let back = compat::verbatim::carried_messages(&parse_messages(&row));
        let want: Vec<&str> = chosen.iter().map(|e| text::trim(&e.text)).collect();
        prop_assert_eq!(back, want);
    }

    #[test]
    fn history_has_a_heading_for_every_message_with_content(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let msgs = parse_messages(&gen::messages(s).to_string());
        let meta = history::Meta { session_id: "s".into(), at: "t".into(), trigger: "auto".into() };
        let out = compat::history::render(&msgs, &meta);
        for (i, m) in msgs.iter().enumerate() {
            let Some(m) = m else { continue };
            let body = text::trim(m.text());
            let uses = &m.tool_uses.0;
            // The reference leaves out a user row that only carries tool results:
            // those results are shown under the assistant's tool call.
            let tool_results_only = m.is_user() && body.is_empty() && m.tool_results > 0;
            if tool_results_only || (body.is_empty() && uses.is_empty()) {
                continue;
            }
            let heading = format!("## [{i}] {}\n\n", m.role.to_js_string());
            prop_assert!(out.contains(&heading), "message {} dropped", i);
            prop_assert!(out.contains(body));
            for u in uses {
                let tool = format!("### tool {}", u.tool.to_js_string());
                prop_assert!(out.contains(&tool));
            }
        }
    }

    #[test]
    fn history_parts_fit_and_hold_everything(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let msgs = parse_messages(&gen::messages(s).to_string());
        let limit = 3072 + gen::below(s, 60_000);
        let redact = gen::flag(s);
        check_parts(&msgs, limit, redact)?;
    }

    #[test]
    fn history_paths_stay_in_the_folder(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let home = gen::text(s);
        let id = gen::text(s);
        if let Some(dir) = history::folder(&home, &id) {
            let (root, seg) = dir.rsplit_once('/').unwrap();
            prop_assert!(root.ends_with("/.claude/compact-history"));
            prop_assert!(!seg.is_empty() && !seg.starts_with('.') && !seg.contains('\\'));
            prop_assert!(seg.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')));
        }
        let trigger = gen::text(s);
        let (n, k) = (gen::below(s, 4), gen::below(s, 5));
        let file = history::part_file("/d", "S", &trigger, n, k);
        let name = file.strip_prefix("/d/").unwrap();
        prop_assert!(!name.contains('/') && !name.contains('\\') && !name.starts_with('.'));
    }

    #[test]
    fn iso_agrees_with_a_day_by_day_calendar(bytes in tape(), frac in 0.0f64..1.0) {
        let s = &mut Tape::new(&bytes);
        let ms = match s.byte() % 4 {
            0 => (gen::raw_f64(s) % 8.64e15).trunc() + frac,
            1 => gen::below(s, 1 << 16) as f64 * 86_400_000.0 * if gen::flag(s) { 1.0 } else { -1.0 } - frac,
            2 => gen::number(s),
            _ => (gen::below(s, 1 << 16) as f64 - 32768.0) * 1e11 + frac,
        };
        let want = reference_iso(ms);
        prop_assert_eq!(stamp::iso(ms), want.clone(), "ms {}", ms);
        let want_stamp = want.map(|w| {
            let w = w.replace(':', "");
            format!("{}Z", &w[..w.rfind('.').unwrap()])
        });
        prop_assert_eq!(stamp::stamp(ms), want_stamp);
    }

    #[test]
    fn instruction_text_comparisons(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let raw = gen::instruction_text(s);
        let stripped = instructions::strip_instruction_text(&raw);
        prop_assert!(instructions::same_text(&stripped, &stripped));
        // Windows line ends, trailing blanks on lines, blank lines around: the same text.
        let noisy = format!("\n \n{}  \r\n\t", stripped.replace('\n', " \r\n"));
        let noisy = noisy.replace("\r\r\n", "\r\n");
        if !stripped.contains('\r') {
            prop_assert!(instructions::same_text(&noisy, &stripped), "{:?}", stripped);
        }
        let _ = instructions::has_import_line(&raw);
        let _ = compat::handoff::handoff_instructions(Some(&raw));
        let joined = handoff::join_instructions(Some(&raw), "X");
        prop_assert!(joined.ends_with('X'));
    }

    #[test]
    fn every_hook_ends_whatever_the_host_answers(bytes in tape(), which in 0..gen::HOOKS.len()) {
        let s = &mut Tape::new(&bytes);
        let hook = gen::HOOKS[which];
        let mut core = Core::new(Options::from_json(&player::options(s)));
        let event = gen::event(s, hook);
        let ending = player::play(&mut core, hook, &event, s, player::MAX_STEPS);
        prop_assert!(matches!(ending, Ok(Ending::Done(serde_json::Value::Object(_)))), "{:?}", ending);
    }

    #[test]
    fn a_session_of_hooks_ends(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let endings = player::session(s, 6);
        prop_assert!(matches!(&endings, Ok(e) if e.iter().all(|e| matches!(e, Ending::Done(_)))), "{:?}", endings);
    }

    #[test]
    fn hooks_in_flight_together_end(bytes in tape()) {
        let s = &mut Tape::new(&bytes);
        let endings = player::interleaved(s, 8);
        // None is let go of: far fewer than 64 are in flight.
        prop_assert!(matches!(&endings, Ok(e) if e.len() == 8 && e.iter().all(|e| matches!(e, Ending::Done(_)))), "{:?}", endings);
    }

    #[test]
    fn start_with_any_text_never_panics(hook in "[a-z.-]{0,20}", event in any::<String>(), which in 0..=gen::HOOKS.len()) {
        let mut core = Core::new(Options::default());
        let hook = gen::HOOKS.get(which).copied().unwrap_or(hook.as_str());
        let zeros = &mut Tape::new(&[]);
        let ending = player::play(&mut core, hook, &event, zeros, player::MAX_STEPS);
        if gen::HOOKS.contains(&hook) {
            prop_assert!(matches!(ending, Ok(Ending::Done(_))), "{:?}", ending);
        } else {
            prop_assert!(matches!(ending, Ok(Ending::Lost)), "{:?}", ending);
        }
    }
}

fn check_select(msgs: &Messages, budget: f64) -> Result<(), TestCaseError> {
    let chosen = compat::verbatim::select(msgs, budget);
    if budget.is_nan() || budget <= 0.0 {
        prop_assert!(chosen.is_empty());
        return Ok(());
    }
    // The candidates, oldest first: carried from an earlier block, then this window's.
    let mut candidates: Vec<(String, Option<String>)> =
        compat::verbatim::carried_messages(msgs).into_iter().map(|t| (t, None)).collect();
    for m in msgs.iter().flatten().filter(|m| m.is_user()) {
        let t = verbatim::person_text(m.text());
        if !t.is_empty() {
            candidates.push((t, m.handle.as_ref().map(|h| h.get().to_owned())));
        }
    }
    prop_assert!(chosen.len() <= candidates.len());
    // The newest candidates, in order, each whole or cut.
    let newest = &candidates[candidates.len() - chosen.len()..];
    let sep = text::len16(verbatim::VERBATIM_SEP) as f64;
    let fixed_note = text::len16(&note_line("", verbatim::CUT_NOTE)) as f64;
    let mut room = budget * verbatim::CHARS_PER_TOKEN;
    let mut used = 0.0;
    for (entry, (want, handle)) in chosen.iter().zip(newest).rev() {
        prop_assert!(room > 200.0, "an entry past the budget");
        let cap = room.min(8000.0);
        let got = text::len16(&entry.text) as f64;
        if entry.text == *want {
            prop_assert!(text::len16(want) as f64 <= cap);
        } else {
            // The reference's cut at this point in the loop, its note included.
            prop_assert_eq!(&entry.text, &text::cut_middle(want, cap, verbatim::CUT_NOTE));
            let count = text::len16(&text::number_to_string(text::len16(want) as f64 - cap)) as f64;
            prop_assert!(got <= cap.ceil() + fixed_note + count);
        }
        prop_assert_eq!(entry.handle.as_ref().map(|h| h.get().to_owned()), handle.clone());
        room -= got + sep;
        used += got + sep;
    }
    // It stops only when the room is spent or nothing is left.
    prop_assert!(chosen.len() == candidates.len() || room <= 200.0);
    // Over the whole budget only by the last entry: its cut note (the count is
    // at most 25 units, a JS number), its separator, and the fraction of a unit
    // a fractional budget rounds up to.
    prop_assert!(used <= budget * verbatim::CHARS_PER_TOKEN + fixed_note + 25.0 + sep + 1.0, "used {} of {}", used, budget);
    Ok(())
}

fn check_parts(msgs: &Messages, limit: usize, redact: bool) -> Result<(), TestCaseError> {
    let meta = history::Meta { session_id: "3e771ee8".into(), at: "2026-01-01T00:00:00.000Z".into(), trigger: "auto".into() };
    let clean = |t: &str| if redact { t.replace("word", "[REDACTED:word]") } else { t.to_owned() };
    let whole = history::parts(msgs, &meta, usize::MAX, &clean);
    prop_assert_eq!(whole.len(), 1);
    // The messages shown numbered 1, 2, 3 … in order, the header counting them (issue [13]); a
    // user row with tool results alone and an empty row are not shown (a message's own text may
    // hold a line that looks like a heading, so the numbers are looked for in order).
    let shown = msgs
        .iter()
        .flatten()
        .filter(|m| {
            let body = text::trim(m.text());
            let results_only = m.is_user() && body.is_empty() && m.tool_results > 0;
            let nothing = body.is_empty() && m.tool_uses.0.is_empty();
            !results_only && !nothing
        })
        .count();
    let counted = format!(", {shown} messages. ");
    prop_assert!(whole[0].contains(&counted), "the header does not say {}", counted);
    let mut from = 0;
    for n in 1..=shown {
        let heading = format!("\n## [{n}] ");
        let at = whole[0].get(from..).and_then(|t| t.find(&heading));
        prop_assert!(at.is_some(), "no heading {} after byte {}", n, from);
        from += at.unwrap_or(0) + heading.len();
    }
    if !redact {
        // The reference's text but for the numbers: its headings are the event's places, gaps and all.
        let unnumbered = |t: &str| {
            t.lines()
                .map(|l| match l.strip_prefix("## [").and_then(|r| r.split_once("] ")) {
                    Some((n, rest)) if n.bytes().all(|b| b.is_ascii_digit()) => format!("## [] {rest}"),
                    _ => l.to_owned(),
                })
                .skip(3)
                .collect::<Vec<_>>()
                .join("\n")
        };
        prop_assert_eq!(unnumbered(&whole[0]), unnumbered(&compat::history::render(msgs, &meta)));
    }
    let parts = history::parts(msgs, &meta, limit, &clean);
    if whole[0].len() <= limit {
        prop_assert_eq!(&parts, &whole);
        return Ok(());
    }
    let n = parts.len();
    let mut bodies = String::new();
    for (k, p) in parts.iter().enumerate() {
        prop_assert!(p.len() <= limit, "part {} of {}: {} bytes over {}", k + 1, n, p.len(), limit);
        let title = format!("# Conversation before compaction, part {} of {n}\n", k + 1);
        prop_assert!(p.starts_with(&title));
        let body = p.splitn(6, '\n').nth(5).unwrap_or("");
        bodies.push_str(check::strip_continued(body, msgs));
    }
    let want = whole[0].splitn(6, '\n').nth(5).unwrap_or("");
    // Parts break between messages or at a line end (which goes) or inside a line.
    prop_assert!(bodies.replace('\n', "") == want.replace('\n', ""), "a part lost or changed text");
    Ok(())
}

fn reference_iso(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms.abs() > 8.64e15 {
        return None;
    }
    let ms = ms.trunc() as i64;
    let mut days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    // 400 years are 146097 days; walk the rest a year, then a month, at a time.
    let mut year = 1970 + 400 * days.div_euclid(146_097);
    days = days.rem_euclid(146_097);
    loop {
        let len = if leap(year) { 366 } else { 365 };
        if days < len {
            break;
        }
        days -= len;
        year += 1;
    }
    let months = [31, if leap(year) { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 0;
    while days >= months[month] {
        days -= months[month];
        month += 1;
    }
    let y = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else {
        format!("{}{:06}", if year < 0 { '-' } else { '+' }, year.abs())
    };
    Some(format!(
        "{y}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        month + 1,
        days + 1,
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    ))
}

// ---- found by these properties ----

/// A continued part repeats the message's heading. When that heading (its role
/// is host data) takes nearly all of a part's room, the room left is a few bytes
/// or none: the split lands inside a multi-byte character (a panic, a trap in
/// wasm), or each part carries one byte under a heading of thousands, so the
/// parts grow with text size times heading size and each exceeds its limit.
#[test]
fn a_long_role_cannot_break_the_parts() {
    let limit = 4096; // room 2048
    for role_len in (2000..2048).chain([2100, 3000]) {
        for unit in ["é", "a"] {
            let text = unit.repeat(3000);
            let json = serde_json::json!([{ "role": "r".repeat(role_len), "text": text }]).to_string();
            let msgs = parse_messages(&json);
            let parts = std::panic::catch_unwind(|| {
                history::parts(&msgs, &history::Meta::default(), limit, &|t| t.to_owned())
            });
            let Ok(parts) = parts else { panic!("parts panicked: role of {role_len} bytes, text of {unit:?}") };
            let total: usize = parts.iter().map(String::len).sum();
            assert!(parts.iter().all(|p| p.len() <= limit), "a part over the limit: role of {role_len} bytes");
            assert!(total <= 4 * (text.len() + role_len) + limit, "{} parts, {total} bytes: role of {role_len} bytes", parts.len());
        }
    }
}

/// The Markdown lexer port (the engine's copy of an instruction file) recurses
/// once per nested blockquote or list, so a CLAUDE.md of deeply nested `>` (or
/// `- ` with an `@` import) overflows the stack: a trap in wasm, whose stack is
/// 1 MiB. Natively, in a 1 MiB thread: ~800 levels of `>`, ~1600 of `- `.
/// A stack overflow aborts the whole test binary, not just this test.
#[test]
fn deep_nesting_cannot_overflow_the_instruction_lexer() {
    let texts = [format!("<!-- c -->\n{}x\n", ">".repeat(5000)), format!("{}@x.md\n", "- ".repeat(5000))];
    for text in texts {
        let ran = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                use compact_plus::instructions as engine;
                engine::engine_content(&text).len() + engine::import_paths(&text).len()
            })
            .map(|t| t.join().is_ok());
        assert!(matches!(ran, Ok(true)));
    }
}

/// JSON.stringify writes a lone surrogate as `\udXXX`, which serde_json refuses:
/// it must cost that one character, not the whole list.
#[test]
fn a_lone_surrogate_costs_at_most_its_message() {
    let json = r#"[{"role":"user","text":"keep me"},{"role":"user","text":"half an emoji \ud83d"}]"#;
    let msgs = parse_messages(json);
    assert!(msgs.len() == 2 && msgs[0].as_ref().is_some_and(|m| m.text() == "keep me"), "{msgs:?}");
    assert_eq!(msgs[1].as_ref().map(|m| m.text()), Some("half an emoji \u{fffd}"));
}

/// The fuzz player's own sanity: a lost or endless run is reported, not hidden.
#[test]
fn the_player_reports_unknown_hooks_as_lost() {
    let mut core = Core::new(Options::default());
    let ending = player::play(&mut core, "no.such.hook", "{}", &mut Tape::new(&[]), 10);
    assert!(matches!(ending, Ok(Ending::Lost)));
    assert!(!matches!(ending, Err(Fault::Endless(_))));
}
