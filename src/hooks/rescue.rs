//! Where the engine's compaction failed and left the conversation
//! uncompacted: compact-plus's own, answered in its place
//! (`Done::Compacted`). Tier 1 asks the rescue model for a summary of the
//! history text (a long one in parts asked at once); tier 2, when no model
//! answers within the bounds, is a digest with no model. The texts and the
//! rules are `compaction::rescue`'s; which rejections get here is
//! `session_compact`'s (`engine::rejection`).

use serde::Deserialize;

use super::saved::{save_summary, Saved};
use super::protocol::{self, Answer, Call, Compaction, Done, Host, InPlaceOf};
use super::host::{debug, now, session_id};
use super::session_log::{json_number, json_str, log};
use super::waiting::{keep_pending, keep_words};
use super::state::Session;
use crate::engine::rejection::Cause;
use crate::compaction::rescue::cool_down::CoolDown;
use crate::compaction::rescue::row::{self, Tier};
use crate::compaction::rescue::{digest, tier1};
use crate::compaction::{handoff, history, verbatim};
use crate::message::{Message, Messages};
use crate::steer::{
    self,
    receipt::{Author, Rescue as ReceiptRescue},
};
use crate::text::stamp;
use crate::{attribution, audit, record};

/// How much of the tier-2 row the work record may take, in UTF-16 units.
const RECORD_IN_DIGEST: usize = 8_000;

/// Why compact-plus compacts in the engine's place.
pub(super) enum Why {
    /// `next` rejected with a failure the engine was measured to write.
    Failed { cause: Cause, message: String },
    /// `next` resolved to a summary row that holds no summary.
    NoSummary(&'static str),
    /// A failure of `cause` was rescued `ago_ms` ago and its cool-down holds:
    /// `next` was not asked.
    CoolingDown { cause: Cause, ago_ms: f64 },
}

impl Why {
    /// The cause as the header and `log.jsonl` name it.
    fn name(&self) -> &'static str {
        match self {
            Why::Failed { cause, .. } => cause.name(),
            Why::NoSummary(_) => "no summary",
            Why::CoolingDown { .. } => "summarizer failing (cool-down)",
        }
    }

    /// What happened, in the engine's words where it said any.
    fn detail(&self) -> String {
        match self {
            Why::Failed { message, .. } => message.clone(),
            Why::NoSummary(why) => (*why).to_owned(),
            // `ago_ms` is within the cool-down (`CoolDown::holds`: from 0 to minutes), so its
            // seconds are a small whole number: as an integer, not a float's `{}` (which
            // brings core's float printer, 20 KB of the .wasm).
            Why::CoolingDown { cause, ago_ms } => format!(
                "the engine's summarizer failed ({}) {} s ago and compact-plus answered; within the cool-down it is not asked again",
                cause.name(),
                (ago_ms / 1000.0).round() as u64
            ),
        }
    }
}

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

/// Each call's timeout: its own bound, and no more than what is left of the
/// rescue's time; `None` when too little is left (or the clock answered none).
async fn time_left(host: &Host, started: f64) -> Option<u64> {
    let left = tier1::TOTAL_MS - (now(host).await.unwrap_or(f64::NAN) - started);
    // NaN too: a clock that answered nothing leaves no time.
    (left >= 1000.0).then(|| tier1::CALL_TIMEOUT_MS.min(left as u64))
}

fn call(session: &Session, prompt: String, timeout_ms: u64) -> Call {
    Call::Complete {
        model: session.options.rescue_model.clone(),
        prompt,
        system: tier1::SYSTEM.into(),
        max_tokens: tier1::SUMMARY_MAX_TOKENS,
        timeout_ms,
    }
}

/// A completion's summary, or why there is none.
fn summary_of(answer: &Answer) -> Result<String, String> {
    let c: Completion = protocol::value(answer)?;
    match c.text {
        Some(t) if c.is_answered && tier1::usable(&t) => Ok(t),
        Some(_) if c.is_answered => Err("the reply held no summary".into()),
        _ => Err(c.reason.unwrap_or_else(|| "no reply".into())),
    }
}

/// One call, bounded by its own timeout and by what is left of the rescue's time.
async fn complete(host: &Host, session: &Session, prompt: String, started: f64, calls: &mut usize) -> Result<String, String> {
    let Some(timeout_ms) = time_left(host, started).await else { return Err("out of time".into()) };
    *calls += 1;
    summary_of(&host.call(call(session, prompt, timeout_ms)).await)
}

/// Tier 1: one request when the history fits the rescue model, else seed
/// 004's streaming compression: the parts compressed each by a call of its
/// own, all asked at once (they are independent, and a call that runs late
/// must not cost the summaries already paid for), then what came back
/// merged. At most `tier1::MAX_CALLS` calls, each bounded by
/// `tier1::CALL_TIMEOUT_MS` and by what is left of `tier1::TOTAL_MS`.
async fn tier1(host: &Host, session: &Session, messages: &Messages, meta: &history::Meta, handoff_text: &str, started: f64) -> Tier1 {
    let text = history::parts(messages, meta, usize::MAX, &|t| session.clean(t)).concat();
    let mut t = Tier1 { summary: None, calls: 0, why_not: String::new() };
    if text.len() <= tier1::CHUNK_CHARS {
        match complete(host, session, tier1::prompt(&text, handoff_text), started, &mut t.calls).await {
            Ok(s) => t.summary = Some(s),
            Err(e) => t.why_not = e,
        }
        return t;
    }
    let plan = tier1::plan(&text);
    // An ask of nothing would never be answered.
    if plan.parts.is_empty() {
        t.why_not = "no part to ask".into();
        return t;
    }
    let Some(timeout_ms) = time_left(host, started).await else {
        t.why_not = "out of time".into();
        return t;
    };
    let asks = plan.parts.iter().map(|(k, chunk)| call(session, tier1::chunk_prompt(*k, plan.total, chunk), timeout_ms)).collect();
    t.calls += plan.parts.len();
    let answers = host.ask(asks).await;
    let mut parts = Vec::new();
    let mut missing = Vec::new();
    for ((k, _), answer) in plan.parts.iter().zip(&answers) {
        match summary_of(answer) {
            Ok(s) => parts.push((*k, s)),
            Err(e) => {
                missing.push(*k);
                t.why_not = e;
            }
        }
    }
    if parts.is_empty() {
        return t;
    }
    let body = match complete(host, session, tier1::merge_prompt(&parts, handoff_text), started, &mut t.calls).await {
        Ok(merged) => merged,
        Err(e) => {
            debug(host, &format!("compact-plus: the rescue model's merge of the parts did not come ({e}); the parts stand as they came")).await;
            tier1::unmerged(&parts, plan.total)
        }
    };
    t.summary = Some(match tier1::gaps(plan.total, plan.skipped(), &missing) {
        Some(note) => format!("{note}\n\n{body}"),
        None => body,
    });
    t
}

/// The compaction that failed, as session.compact had it.
pub(super) struct Failed<'a> {
    pub(super) messages: &'a Messages,
    pub(super) saved: Saved,
    pub(super) trigger: &'a str,
    pub(super) person_instructions: Option<&'a str>,
    /// The messages came with their texts (a rescue without them keeps nothing after its row).
    pub(super) whole: bool,
}

/// The compaction compact-plus answers in the engine's place, or the
/// pass-through (the engine's own result: its rejection as it came) when the
/// rescue is off.
pub(super) async fn rescue(host: &Host, session: &Session, failed: Failed<'_>, why: Why) -> Done {
    let Failed { messages, mut saved, trigger, person_instructions, whole } = failed;
    if !session.options.rescue {
        return Done::PassThrough;
    }
    let started = now(host).await.unwrap_or(f64::NAN);
    let conversation = session_id(host).await.ok().map(|id| id.to_js_string());
    let cause = why.name();
    let detail = why.detail();
    debug(host, &format!("compact-plus: the engine's compaction failed ({cause}); compacting in its place")).await;

    let first = saved.verbatim.first().map(|v| v.text.as_str());
    let handoff_text =
        handoff::join_instructions(person_instructions, &handoff::instructions(first, saved.dir.as_deref()));
    // The history as the rescue model reads it: this session's, compacted now, by the rescue.
    let meta = history::Meta {
        session_id: conversation.clone().unwrap_or_default(),
        at: stamp::iso(started).unwrap_or_default(),
        trigger: "rescue".into(),
    };
    let t1 = tier1(host, session, messages, &meta, &handoff_text, started).await;
    let work = saved.record.take().unwrap_or_else(|| record::read(messages, &|t| session.clean(t)));
    let (tier, body) = match t1.summary {
        Some(s) => (Tier::Model, s),
        None => {
            debug(host, &format!("compact-plus: the rescue model gave no summary ({}); a digest instead", t1.why_not)).await;
            // The digest carries the work record whole, as the history's end does.
            let digest = digest::render_digest(&digest::digest(messages));
            (Tier::Digest, record::render_within(&work, RECORD_IN_DIGEST).map_or(digest.clone(), |r| format!("{r}

{digest}")))
        }
    };

    // Without the texts no size is known: nothing is kept after the row.
    let keep_at = if whole { row::keep_from(messages, row::KEEP_TOKENS) } else { None };
    let keep: Vec<usize> = keep_at.map_or(Vec::new(), |k| (k..messages.len()).collect());
    let kept: Vec<&Message> = keep.iter().filter_map(|&i| messages.get(i)?.as_ref()).collect();
    let chosen = saved.verbatim.len();
    let entries = verbatim::not_kept(std::mem::take(&mut saved.verbatim), &kept);
    let mark = verbatim::row_mark(Some(trigger), &kept);
    let words: Vec<String> = entries.iter().map(|e| session.clean_counted(&e.text, &saved.redacted)).collect();
    // The person's pins with their words, where the context does not hold them already.
    let mut context: Vec<&str> = kept.iter().map(|m| m.text()).collect();
    context.extend(entries.iter().map(|e| e.text.as_str()));
    let (pins, pins_held) = saved.pins(host, &context).await;
    let block = steer::pins::with_words(&pins, (!entries.is_empty()).then(|| verbatim::render(&entries, mark)));
    let mut listed = 0;
    let pointer = match (&saved.file, &saved.dir) {
        (Some(file), Some(dir)) => {
            let mut p = handoff::pointer(file, dir, saved.parts, session.options.recall);
            let mentions = saved.mentions.take().unwrap_or_else(|| audit::collect(messages));
            let mut kept_texts: Vec<&str> = kept.iter().map(|m| m.text()).collect();
            kept_texts.push(&body);
            kept_texts.extend(block.as_deref());
            let flags = if tier == Tier::Model { attribution::check(&body, &attribution::said(messages)).flags } else { Vec::new() };
            let lost = audit::Lost { record: Some(&work), mentions: Some(&mentions), flags: &flags, clean: &|t| session.clean(t) };
            if let Some(a) = audit::block(&lost, &kept_texts) {
                listed = steer::receipt::listed(&a);
                p = format!("{p}\n\n{a}");
            }
            Some(p)
        }
        _ => None,
    };
    let clean = |t: &str| session.clean(t);
    let summary =
        row::row(&row::Row { header: row::header(tier, cause, &detail), body, verbatim: block, pointer, clean: &clean });

    // A failure of the engine's starts this conversation's cool-down (by its cause).
    let cool_down = match &why {
        Why::Failed { cause, .. } => conversation.as_deref().and_then(|id| CoolDown::after(id, *cause, started)),
        Why::NoSummary(_) | Why::CoolingDown { .. } => None,
    };
    {
        let mut carried = session.carried_mut();
        carried.turn_end_armed = true;
        carried.compactions += 1;
        carried.precomputed = false;
        // The row is ours: the blocks are in it, nothing waits for a channel.
        carried.pending = None;
        carried.verbatim = Some(words.clone());
        carried.disk_read = true;
        if let Why::Failed { cause, .. } = &why {
            // Later compactions are trimmed on the way down (`compaction::trim`).
            carried.ptl_seen |= *cause == Cause::PromptTooLong;
            carried.cool_down = cool_down;
        }
    }
    // The rescue's summary is saved like the engine's, for project recall.
    if let Some(file) = &saved.file {
        save_summary(host, session, file, &summary).await;
    }
    if let Some(dir) = &saved.dir {
        keep_pending(host, dir, None).await;
        keep_words(host, dir, &words).await;
        let ms = now(host).await.unwrap_or(f64::NAN) - started;
        let entry = vec![
            ("event", json_str("rescue")),
            ("trigger", json_str(trigger)),
            ("cause", json_str(cause)),
            ("error", json_str(&session.clean(crate::text::head(&detail, 300)))),
            ("tier", tier.number().to_string()),
            ("modelCalls", t1.calls.to_string()),
            ("ms", json_number(ms.round())),
            ("messages", messages.len().to_string()),
            ("kept", keep.len().to_string()),
            ("verbatim", entries.len().to_string()),
            ("file", saved.file.as_deref().map_or("null".into(), json_str)),
        ];
        log(host, session, dir, &entry).await;
    }
    let author = match tier {
        Tier::Model => Author::Model(session.options.rescue_model.clone()),
        Tier::Digest => Author::Digest { why: t1.why_not.clone() },
    };
    let rescue = ReceiptRescue { cause: cause.to_owned(), author };
    let notice = saved.receipt(session, chosen, listed, pins.len() + pins_held, Some(rescue));
    let in_place_of = match why {
        Why::Failed { .. } => InPlaceOf::Rejection,
        Why::NoSummary(_) | Why::CoolingDown { .. } => InPlaceOf::Result,
    };
    Done::Compacted(Compaction { summary, keep, in_place_of, notice })
}
