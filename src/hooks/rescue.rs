//! After the engine's compaction failed (`next` rejected): compact-plus's own,
//! answered in its place (`Done::compacted`). Tier 1 asks the rescue model for
//! a summary of the history text; tier 2, when no model answers within the
//! bounds, is a digest with no model. The texts are `compaction::rescue`'s.

use serde::Deserialize;

use super::protocol::{self, Call, Compacted, Done, Host, Rejection};
use super::session_compact::Gathered;
use super::shared::{debug, json_str, keep_pending, keep_words, log, now};
use super::state::Session;
use crate::audit;
use crate::steer::{
    self,
    receipt::{Author, Receipt, Rescue as ReceiptRescue},
};
use crate::compaction::{handoff, history, rescue, verbatim};
use crate::message::{Message, Messages};

/// `$.model.complete`'s result, the arms we read (ModelCompleteResult, d.ts).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Completion {
    #[serde(rename = "isAnswered")]
    is_answered: bool,
    text: Option<String>,
    reason: Option<String>,
}

/// What tier 1 did: its summary if it made one, and the calls it spent.
struct Tier1 {
    summary: Option<String>,
    calls: usize,
    why_not: String,
}

/// One call, bounded by its own timeout and by what is left of the rescue's time.
/// `calls` counts the calls made.
async fn complete(host: &Host, session: &Session, prompt: String, started: f64, calls: &mut usize) -> Result<String, String> {
    let left = rescue::TOTAL_MS - (now(host).await.unwrap_or(f64::NAN) - started);
    // NaN too: a clock that answered nothing leaves no time.
    if left.is_nan() || left < 1000.0 {
        return Err("out of time".into());
    }
    *calls += 1;
    let call = Call::Complete {
        model: session.options.rescue_model.clone(),
        prompt,
        system: rescue::SYSTEM.into(),
        max_tokens: rescue::SUMMARY_MAX_TOKENS,
        timeout_ms: rescue::CALL_TIMEOUT_MS.min(left as u64),
    };
    let c: Completion = protocol::value(&host.call(call).await)?;
    match c.text {
        Some(t) if c.is_answered && rescue::usable(&t) => Ok(t),
        Some(_) if c.is_answered => Err("the reply held no summary".into()),
        _ => Err(c.reason.unwrap_or_else(|| "no reply".into())),
    }
}

/// Tier 1: one request when the history fits the rescue model, else seed 004's
/// streaming compression: the newest chunks compressed one by one, then merged.
/// At most `rescue::MAX_CALLS` calls, each bounded by `rescue::CALL_TIMEOUT_MS`
/// and by what is left of `rescue::TOTAL_MS`: the whole within it.
async fn tier1(host: &Host, session: &Session, messages: &Messages, handoff_text: &str, started: f64) -> Tier1 {
    let meta = history::Meta { session_id: String::new(), at: String::new(), trigger: "rescue".into() };
    let text = history::parts(messages, &meta, usize::MAX, &|t| session.clean(t)).concat();
    let mut t = Tier1 { summary: None, calls: 0, why_not: String::new() };
    if text.len() <= rescue::CHUNK_CHARS {
        match complete(host, session, rescue::prompt(&text, handoff_text), started, &mut t.calls).await {
            Ok(s) => t.summary = Some(s),
            Err(e) => t.why_not = e,
        }
        return t;
    }
    let mut chunks = rescue::chunks(&text);
    // The newest chunks first to go in: the calls are bounded, and what the
    // next turn needs is at the end (the history file has the rest).
    let room = rescue::MAX_CALLS - 1;
    let skipped = chunks.len().saturating_sub(room);
    chunks.drain(..skipped);
    let n = chunks.len();
    let mut parts = Vec::new();
    for (k, chunk) in chunks.iter().enumerate() {
        match complete(host, session, rescue::chunk_prompt(k + 1 + skipped, n + skipped, chunk), started, &mut t.calls).await {
            Ok(s) => parts.push(s),
            Err(e) => {
                t.why_not = e;
                return t;
            }
        }
    }
    match complete(host, session, rescue::merge_prompt(&parts, handoff_text), started, &mut t.calls).await {
        Ok(s) if skipped > 0 => {
            t.summary = Some(format!("(The {skipped} oldest parts of the conversation are in the history file alone.)\n\n{s}"))
        }
        Ok(s) => t.summary = Some(s),
        Err(e) => t.why_not = e,
    }
    t
}

/// The compaction that failed, as session.compact had it.
pub(super) struct Failed<'a> {
    pub(super) messages: &'a Messages,
    pub(super) gathered: Gathered,
    pub(super) trigger: &'a str,
    pub(super) person_instructions: Option<&'a str>,
    /// The messages came with their texts (a rescue without them keeps nothing after its row).
    pub(super) whole: bool,
}

/// The compaction compact-plus answers after `next` rejected, or the
/// pass-through (the rejection goes up as it came) when the rescue is off or
/// the person aborted the compaction.
pub(super) async fn rescue(host: &Host, session: &Session, failed: Failed<'_>, rejection: &Rejection) -> Done {
    let Failed { messages, mut gathered, trigger, person_instructions, whole } = failed;
    if !session.options.rescue || rejection.aborted {
        return Done::pass_through();
    }
    let started = now(host).await.unwrap_or(f64::NAN);
    let cause = rescue::cause(&rejection.message);
    debug(host, &format!("compact-plus: the engine's compaction failed ({cause}); compacting in its place")).await;

    let first = gathered.verbatim.first().map(|v| v.text.as_str());
    let handoff_text =
        handoff::join_instructions(person_instructions, &handoff::instructions(first, gathered.dir.is_some()));
    let t1 = tier1(host, session, messages, &handoff_text, started).await;
    let (tier, body) = match t1.summary {
        Some(s) => (1, s),
        None => {
            debug(host, &format!("compact-plus: the rescue model gave no summary ({}); a digest instead", t1.why_not)).await;
            (2, rescue::render_digest(&rescue::digest(messages)))
        }
    };

    // Without the texts no size is known: nothing is kept after the row.
    let keep_at = if whole { rescue::keep_from(messages, rescue::KEEP_TOKENS) } else { None };
    let keep: Vec<usize> = keep_at.map_or(Vec::new(), |k| (k..messages.len()).collect());
    let kept: Vec<&Message> = keep.iter().filter_map(|&i| messages.get(i)?.as_ref()).collect();
    let chosen = gathered.verbatim.len();
    let entries = verbatim::not_kept(std::mem::take(&mut gathered.verbatim), &kept);
    let mark = super::session_compact::row_mark(Some(trigger), &kept);
    let words: Vec<String> = entries.iter().map(|e| session.clean_counted(&e.text, &gathered.redacted)).collect();
    // The person's pins with their words, where the context does not hold them already.
    let pinned = match &gathered.dir {
        Some(dir) => super::pins::load(host, dir).await,
        None => Vec::new(),
    };
    let mut context: Vec<&str> = kept.iter().map(|m| m.text()).collect();
    context.extend(entries.iter().map(|e| e.text.as_str()));
    let (pins, pins_held) = steer::pins::shown(&pinned, &context);
    let block = steer::pins::with_words(&pins, (!entries.is_empty()).then(|| verbatim::render(&entries, mark)));
    let mut listed = 0;
    let pointer = match (&gathered.file, &gathered.dir) {
        (Some(file), Some(dir)) => {
            let mut p = handoff::pointer(file, dir, gathered.parts, session.options.recall_tool, session.options.recall_project);
            let mentions = gathered.mentions.take().unwrap_or_else(|| audit::collect(messages));
            let mut kept_texts: Vec<&str> = kept.iter().map(|m| m.text()).collect();
            kept_texts.push(&body);
            kept_texts.extend(block.as_deref());
            let dropped = audit::dropped(&mentions, &kept_texts);
            listed = dropped.len();
            if let Some(a) = audit::render(&dropped) {
                p = format!("{p}\n\n{a}");
            }
            Some(p)
        }
        _ => None,
    };
    let clean = |t: &str| session.clean(t);
    let summary = rescue::row(&rescue::Row {
        header: rescue::header(tier, cause, &rejection.message),
        body,
        verbatim: block,
        pointer,
        clean: &clean,
    });

    {
        let mut carried = session.carried_mut();
        carried.turn_end_armed = true;
        carried.compactions += 1;
        carried.precomputed = false;
        // The row is ours: the blocks are in it, nothing waits for a channel.
        carried.pending = None;
        carried.verbatim = Some(words.clone());
        carried.disk_read = true;
        // Later compactions are trimmed on the way down (`compaction::trim`).
        carried.ptl_seen |= cause == "prompt too long";
        if rejection.from_next {
            carried.rescued_at = Some(started);
        }
    }
    // The rescue's summary is saved like the engine's, for project recall.
    if let Some(file) = &gathered.file {
        super::session_compact::save_summary(host, session, file, &summary).await;
    }
    if let Some(dir) = &gathered.dir {
        keep_pending(host, dir, None).await;
        keep_words(host, dir, &words).await;
        let ms = now(host).await.unwrap_or(f64::NAN) - started;
        let entry = vec![
            ("event", json_str("rescue")),
            ("trigger", json_str(trigger)),
            ("cause", json_str(cause)),
            ("error", json_str(&session.clean(crate::text::head(&rejection.message, 300)))),
            ("tier", tier.to_string()),
            ("modelCalls", t1.calls.to_string()),
            ("ms", super::shared::json_number(ms.round())),
            ("messages", messages.len().to_string()),
            ("kept", keep.len().to_string()),
            ("verbatim", entries.len().to_string()),
            ("file", gathered.file.as_deref().map_or("null".into(), json_str)),
        ];
        log(host, session, dir, &entry).await;
    }
    let notice = session.options.receipt.then(|| {
        let author = if tier == 1 { Author::Model(session.options.rescue_model.clone()) } else { Author::Digest { why: t1.why_not.clone() } };
        Receipt {
            saved: super::session_compact::saved(&gathered),
            words_kept: chosen,
            words_left_out: gathered.considered.saturating_sub(chosen),
            listed,
            redacted: gathered.redacted.take(),
            pins: pins.len(),
            pins_held,
            rescue: Some(ReceiptRescue { cause: cause.to_owned(), author }),
        }
        .lines(gathered.dir.as_deref())
    });
    Done {
        compacted: Some(Compacted { summary, keep, replaces: !rejection.from_next }),
        notice: notice.unwrap_or_default(),
        ..Done::pass_through()
    }
}
