//! `session.compact`: the history saved while the summarizer works, the
//! handoff instructions handed down, and the blocks that follow the summary
//! (the verbatim block, the pointer to the history, and what the summary lost:
//! its misattributed quotes, the work record, the identifiers it dropped), kept
//! until a channel takes them.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::rc::Rc;

use super::saved::{save_summary, Saved};
use super::protocol::{self, Call, Done, Host};
use super::rescue::{self, Failed, Why};
use super::history_folder::history_dir;
use super::host::{debug, env, error_text, now, session_id, unexpected};
use super::session_log::{json_number, json_str, log};
use super::waiting::{carried_words, keep_pending, keep_words};
use super::state::{Channel, Pending, Session};
use super::turn_end::marker;
use crate::engine::rejection::{self, Cause, Verdict};
use crate::engine::{summary_row, Unexpected};
use crate::compaction::{handoff, history, terminal, trim, verbatim};
use crate::message::{self, JsVal, ListOrNot, Message, Messages};
use crate::text::stamp;
use crate::{attribution, audit, prune, record, steer};
use std::cell::RefCell;

/// Why a precompute is not asked of a summarizer within its cool-down.
const PRECOMPUTE_COOLING: &str =
    "compact-plus: the engine's summarizer failed a short while ago; it is not asked again ahead of time";
const STALE_TURN_END: &str =
    "compact-plus: the context compacted after this turn-end compaction was queued, so it is not needed";
/// Compactions of one trigger within one second that get a file each.
const MAX_SAME_SECOND: usize = 50;

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct CompactEvent {
    trigger: JsVal,
    #[serde(rename = "agentId")]
    agent_id: JsVal,
    #[serde(deserialize_with = "message::lenient_string")]
    instructions: Option<String>,
    messages: ListOrNot<Message>,
    /// The shim sent each message's role and handle alone, to hand the rest over
    /// once `next` has started: the texts the verbatim block needs by
    /// `Call::Texts`, the whole event by `Call::Pack`.
    #[serde(rename = "textsDeferred")]
    texts_deferred: JsVal,
}

/// The answer to `Call::Pack`: the event with each text replaced by its number;
/// the texts come beside it as UTF-8 (`Core::resume_packed`).
#[derive(Deserialize)]
struct Packed {
    lens: Vec<usize>,
    event: Box<RawValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CompactResult {
    messages: Option<Box<RawValue>>,
    #[serde(rename = "tokensBefore", deserialize_with = "message::raw_present")]
    tokens_before: Option<Box<RawValue>>,
    #[serde(rename = "tokensAfter", deserialize_with = "message::raw_present")]
    tokens_after: Option<Box<RawValue>>,
}

/// Before `next`: the history folder and the verbatim block, which the handoff
/// instructions name. Only the person's own messages are read here; everything
/// else waits until the summarizer is at work (`write_history`).
async fn gather(host: &Host, session: &Session, e: &mut CompactEvent) -> Saved {
    // No readable home costs the history alone, not the verbatim block or handoff.
    let dir = match history_dir(host).await {
        Ok(dir) => dir,
        Err(err) => {
            debug(host, &format!("compact-plus: no history folder: {}", error_text(&err))).await;
            None
        }
    };
    if e.texts_deferred.truthy() {
        fill_person_texts(host, &mut e.messages.0).await;
    }
    let previous = carried_words(host, session, dir.as_deref()).await;
    let considered = verbatim::considered(previous.as_deref(), &e.messages.0);
    let verbatim = verbatim::select(previous, &e.messages.0, session.options.verbatim_tokens);
    Saved { dir, file: None, parts: 0, verbatim, considered, mentions: None, record: None, bytes: 0, redacted: RefCell::default() }
}

/// The texts of the user rows, where the verbatim block comes from. A failed
/// answer leaves them empty: no verbatim block, nothing else lost.
async fn fill_person_texts(host: &Host, messages: &mut Messages) {
    let wanted: Vec<usize> =
        messages.iter().enumerate().filter(|(_, m)| m.as_ref().is_some_and(Message::is_user)).map(|(i, _)| i).collect();
    if wanted.is_empty() {
        return;
    }
    let texts: Vec<Option<String>> =
        protocol::value(&host.call(Call::Texts { messages: wanted.clone() }).await).unwrap_or_default();
    for (i, text) in wanted.into_iter().zip(texts) {
        if let Some(m) = messages.get_mut(i).and_then(Option::as_mut) {
            m.text = text;
        }
    }
}

/// Which of the event's texts the core asks for when the shim deferred them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Texts {
    /// Every message's text and tool blocks: the history's.
    Messages,
    /// Those, and each user message's tool-result texts: the trim's.
    WithToolResults,
}

/// All the event's texts, when the shim deferred them; the event as it was if
/// they do not come.
async fn unpack_event(host: &Host, session: &Session, e: &mut CompactEvent) -> Result<(), String> {
    unpack_with(host, session, e, Texts::Messages).await
}

/// `unpack_event`, with the texts `which` names.
async fn unpack_with(host: &Host, session: &Session, e: &mut CompactEvent, which: Texts) -> Result<(), String> {
    if !e.texts_deferred.truthy() {
        return Ok(());
    }
    let answer = host.call(Call::Pack { results: which == Texts::WithToolResults }).await;
    let bytes = session.state.borrow_mut().inbox.take().unwrap_or_default();
    let packed: Packed = protocol::value(&answer)?;
    let texts = message::unpack(&packed.lens, &bytes);
    drop(bytes);
    let full: CompactEvent = message::with_packed(texts, || message::parse_event(packed.event.get()));
    e.messages = full.messages;
    e.texts_deferred = JsVal::Undefined;
    Ok(())
}

/// While the summarizer works: the history file, and the identifiers the audit
/// will look for in the summary.
async fn write_history(
    host: &Host,
    session: &Session,
    e: &mut CompactEvent,
    trigger: String,
    saved: &mut Saved,
) -> Result<(), String> {
    let Some(dir) = &saved.dir else { return Ok(()) };
    let now = now(host).await?;
    let at = stamp::iso(now).ok_or("the clock answered no time")?;
    let stamp = stamp::stamp(now).unwrap_or_default();
    let meta = history::Meta { session_id: session_id(host).await?.to_js_string(), at, trigger };
    // These round trips come first: the file system's answer gives the engine
    // its turns to send the summary request before the long work below.
    let mut n = 1;
    while n < MAX_SAME_SECOND {
        let first = history::part_file(dir, &stamp, &meta.trigger, n, 1);
        match protocol::value::<bool>(&host.call(Call::Exists { path: first }).await) {
            Ok(true) => n += 1,
            _ => break,
        }
    }
    unpack_event(host, session, e).await?;
    terminal::tidy(&mut e.messages.0);
    let messages = &e.messages.0;
    let mut texts = history::parts(messages, &meta, history::WRITE_LIMIT, &|t| session.clean_counted(t, &saved.redacted));
    // The work record, all of it, at the history's end: the block after the summary names the rest there.
    let work = record::read(messages, &|t| session.clean(t));
    record::into_history(&mut texts, &work, history::WRITE_LIMIT, &|t| session.clean(t));
    saved.record = Some(work);
    let names: Vec<String> =
        (1..=texts.len()).map(|k| history::part_file(dir, &stamp, &meta.trigger, n, k)).collect();
    let sizes: Vec<usize> = texts.iter().map(String::len).collect();
    let writes = names.iter().zip(texts).map(|(path, text)| Call::Write { path: path.clone(), text }).collect();
    // A failed write (over the limit, a full disk) costs that part alone.
    let results = host.ask(writes).await;
    for (name, result) in names.iter().zip(&results) {
        if let Err(err) = result {
            debug(host, &format!("compact-plus: the history part {name} was not written: {}", error_text(err))).await;
        }
    }
    saved.file = names.iter().zip(&results).find(|(_, r)| r.is_ok()).map(|(n, _)| n.clone());
    saved.parts = names.len();
    saved.bytes = sizes.iter().zip(&results).filter(|(_, r)| r.is_ok()).map(|(n, _)| n).sum();
    if saved.file.is_some() {
        saved.mentions = Some(audit::collect(messages));
    }
    Ok(())
}

/// The cool-down that holds for this conversation now, with how long ago its
/// failure was (ms); an expired one, or another conversation's, is dropped.
async fn cooling_down(host: &Host, session: &Session) -> Option<(Cause, f64)> {
    if !session.options.rescue {
        return None;
    }
    let cool_down = session.carried().cool_down.clone()?;
    let conversation = session_id(host).await.ok()?.to_js_string();
    let at = now(host).await.ok()?;
    let holds = cool_down.holds(&conversation, at);
    if holds.is_none() {
        session.carried_mut().cool_down = None;
    }
    holds.map(|ago| (cool_down.cause, ago))
}

/// The cuts on the way down, when the conversation is over what the summarizer
/// can take (the engine's figures at the last turn's end, or a prompt-too-long
/// seen this session); `None` otherwise, and the request is the engine's own,
/// byte for byte (its cache prefix). The texts are fetched only then.
async fn trim_down(host: &Host, session: &Session, e: &mut CompactEvent) -> Option<Vec<trim::Cut>> {
    let share = {
        let carried = session.carried();
        trim::share(carried.usage, carried.ptl_seen)?
    };
    if let Err(err) = unpack_with(host, session, e, Texts::WithToolResults).await {
        debug(host, &format!("compact-plus: no trim before the summarizer, the texts did not come: {}", error_text(&err))).await;
        return None;
    }
    let cuts = trim::plan(&e.messages.0, share);
    if cuts.is_empty() {
        return None;
    }
    debug(
        host,
        &format!("compact-plus: the conversation is over what the summarizer can take; {} messages' tool results cut on the way down", cuts.len()),
    )
    .await;
    Some(cuts)
}

/// Deletes this mod's history folders for sessions that last compacted over the
/// keep period ago, once per session. See `prune` for the rules.
async fn prune_old(host: &Host, session: &Session, dir: &str) -> Result<(), String> {
    if session.carried().pruned {
        return Ok(());
    }
    session.carried_mut().pruned = true;
    let Some((root, current)) = dir.rsplit_once('/') else { return Ok(()) };
    let root_stat: prune::Stat = protocol::value(&host.call(Call::Stat { path: root.into(), resolve: true }).await)?;
    if root_stat.kind != "dir" || root_stat.is_link {
        return Ok(());
    }
    let real_root = root_stat.real_path.unwrap_or_else(|| root.to_owned());
    let cutoff = now(host).await? - session.options.keep_days * prune::DAY_MS;
    let windows = env(host, "OS").await?.as_deref() == Some("Windows_NT");
    let entries: Vec<prune::FolderEntry> = protocol::value(&host.call(Call::List { path: real_root.clone() }).await)?;
    for name in prune::candidates(&entries, current) {
        let folder = format!("{real_root}/{name}");
        let stats = host
            .ask(vec![
                Call::Stat { path: folder.clone(), resolve: true },
                Call::Stat { path: format!("{folder}/log.jsonl"), resolve: false },
            ])
            .await;
        let (Ok(f), Ok(l)) = (protocol::value::<prune::Stat>(&stats[0]), protocol::value::<prune::Stat>(&stats[1])) else {
            continue;
        };
        if prune::expired(&f, &folder, &l, cutoff, windows) {
            let prune::Removal { argv, env } = prune::removal(&folder, windows);
            let _ = host.call(Call::Run { argv, env, timeout_ms: prune::REMOVE_TIMEOUT_MS }).await;
        }
    }
    Ok(())
}

fn raw_or_skip<'a>(name: &'a str, raw: &Option<Box<RawValue>>) -> Option<(&'a str, String)> {
    raw.as_ref().map(|r| (name, r.get().to_owned()))
}

pub(super) async fn session_compact(host: Host, session: Rc<Session>, e: CompactEvent) -> Done {
    // A subagent's or fork's own compaction: the handoff instructions alone.
    if e.agent_id.truthy() {
        let down = handoff::join_instructions(e.instructions.as_deref(), &handoff::instructions(None, None));
        let _ = host.call(Call::Next { instructions: Some(down), append: None }).await;
        return Done::PassThrough;
    }

    // Our own queued turn-end `/compact` is known by the marker it carries as its
    // instructions, never by counts (a person's `/compact` is never refused). It
    // is moot when the context compacted after it was queued.
    let own = e.instructions.as_deref().and_then(marker::token_of).map(str::to_owned);
    if let Some(token) = &own {
        let mut carried = session.carried_mut();
        let queued = carried.queued.take_if(|q| &q.token == token);
        if queued.is_some_and(|q| q.seen != carried.compactions) {
            return Done::Skip { reason: STALE_TURN_END.into() };
        }
    }
    let trigger = if own.is_some() { marker::TRIGGER.to_owned() } else { e.trigger.to_js_string() };
    let person_instructions = if own.is_some() { None } else { e.instructions.clone() };

    // A precompute installs nothing: its summary is kept for a later compaction,
    // which gets the full treatment when it installs it. So the summarizer gets
    // the handoff, and nothing is written, logged, counted or pending for it.
    if e.trigger.as_str() == Some("precompute") {
        // Ahead of time, within a cool-down, the failing summarizer is not
        // asked: the precompute is vetoed (nothing computed, no notice).
        if cooling_down(&host, &session).await.is_some() {
            return Done::Skip { reason: PRECOMPUTE_COOLING.into() };
        }
        let mut e = e;
        let saved = gather(&host, &session, &mut e).await;
        let first = saved.verbatim.first().map(|v| v.text.as_str());
        let instructions =
            handoff::join_instructions(person_instructions.as_deref(), &handoff::instructions(first, saved.dir.as_deref()));
        let answer = host.call(Call::Next { instructions: Some(instructions), append: None }).await;
        let made = protocol::value::<CompactResult>(&answer).is_ok_and(|r| r.messages.is_some_and(|m| m.get().starts_with('[')));
        if made {
            session.carried_mut().precomputed = true;
        }
        return Done::PassThrough;
    }

    let _compacting = CompactingGuard::new(&session);
    let mut e = e;
    let mut saved = gather(&host, &session, &mut e).await;
    // "Saved" is a promise made before the history is written: a write that
    // then fails costs the pointer, and the summary says nothing it could miss.
    let first = saved.verbatim.first().map(|v| v.text.as_str());
    let instructions =
        handoff::join_instructions(person_instructions.as_deref(), &handoff::instructions(first, saved.dir.as_deref()));
    // The engine installs a precomputed summary only for a dispatch whose
    // instructions are as it sent them; changed, it discards that summary and
    // asks the summarizer again (measured on 2.1.328). The precompute's own
    // request carried the handoff, so leave these be.
    let installs_precomputed = session.carried().precomputed && e.instructions.is_none();
    let down = (!installs_precomputed).then_some(instructions);
    // Within a cool-down (`compaction::rescue::cool_down`), an automatic
    // compaction (the threshold's, another plugin's, our own turn-end
    // `/compact`) would ask the summarizer that just failed: 2-12 failing
    // requests, each a wait, at every turn. The rescue answers in its place. A
    // person's `/compact` always asks the engine.
    let automatic = own.is_some() || matches!(e.trigger.as_str(), Some("auto" | "plugin"));
    if automatic {
        if let Some((cause, ago_ms)) = cooling_down(&host, &session).await {
            if let Err(err) = write_history(&host, &session, &mut e, trigger.clone(), &mut saved).await {
                debug(&host, &format!("compact-plus: the history was not written: {}", error_text(&err))).await;
            }
            let whole = !e.texts_deferred.truthy();
            let failed = Failed { messages: &e.messages.0, saved, trigger: &trigger, person_instructions: person_instructions.as_deref(), whole };
            return rescue::rescue(&host, &session, failed, Why::CoolingDown { cause, ago_ms }).await;
        }
    }
    let cut = trim_down(&host, &session, &mut e).await;
    if host.call(Call::StartNext { instructions: down, cut }).await.is_err() {
        return Done::PassThrough;
    }
    if let Err(err) = write_history(&host, &session, &mut e, trigger.clone(), &mut saved).await {
        debug(&host, &format!("compact-plus: the history was not written: {}", error_text(&err))).await;
    }
    let answer = host.call(Call::NextResult).await;
    if let Some(rejection) = host.rejection() {
        if !session.options.rescue {
            return Done::PassThrough;
        }
        // Only a failure that left the conversation uncompacted is rescued: a
        // refusal (too few messages, an Esc) or a text the engine was not
        // measured to write passes up as it came, the engine's own result.
        let cause = match rejection::verdict(&rejection.message) {
            Verdict::Failed(cause) if !rejection.aborted => cause,
            Verdict::Refused(_) => {
                let text = error_text(&rejection.message);
                debug(&host, &format!("compact-plus: the engine declined to compact ({text}); its result stands")).await;
                return Done::PassThrough;
            }
            Verdict::Failed(_) => return Done::PassThrough,
            Verdict::Unknown => {
                unexpected(&host, &session, Unexpected::Rejection, &rejection.message).await;
                return Done::PassThrough;
            }
        };
        // The rescue reads the whole conversation: the texts, if the history
        // did not fetch them (no home); without them, the digest is thinner.
        if e.texts_deferred.truthy() {
            match unpack_event(&host, &session, &mut e).await {
                Ok(()) => terminal::tidy(&mut e.messages.0),
                Err(err) => debug(&host, &format!("compact-plus: the rescue has no texts: {}", error_text(&err))).await,
            }
        }
        let whole = !e.texts_deferred.truthy();
        let failed = Failed { messages: &e.messages.0, saved, trigger: &trigger, person_instructions: person_instructions.as_deref(), whole };
        return rescue::rescue(&host, &session, failed, Why::Failed { cause, message: rejection.message }).await;
    }
    // An error here that is no rejection is unreadable JSON.
    let Ok(result) = protocol::value::<CompactResult>(&answer) else { return Done::PassThrough };
    let Some(out) = result.messages.as_ref().filter(|m| m.get().starts_with('[')) else { return Done::PassThrough };
    let out: Messages = message::parse_messages(out.get());
    // A summary row that is no summary: compact-plus's own in its place. One
    // that does not open as the engine's is not judged at all.
    let row_text = out.first().and_then(Option::as_ref).map_or("", Message::text);
    if !out.is_empty() && !row_text.starts_with(summary_row::HEAD) {
        unexpected(&host, &session, Unexpected::SummaryRow, row_text).await;
    }
    if let Some(why) = summary_row::no_summary(row_text).filter(|_| session.options.rescue) {
        debug(&host, &format!("compact-plus: {why}; compacting in its place")).await;
        if e.texts_deferred.truthy() {
            if let Err(err) = unpack_event(&host, &session, &mut e).await {
                debug(&host, &format!("compact-plus: the rescue has no texts: {}", error_text(&err))).await;
            }
        }
        let whole = !e.texts_deferred.truthy();
        let failed = Failed { messages: &e.messages.0, saved, trigger: &trigger, person_instructions: person_instructions.as_deref(), whole };
        return rescue::rescue(&host, &session, failed, Why::NoSummary(why)).await;
    }

    {
        let mut carried = session.carried_mut();
        carried.turn_end_armed = true;
        carried.compactions += 1;
        carried.precomputed = false;
        // The engine's summarizer answers again: no more cool-down.
        carried.cool_down = None;
    }
    let kept: Vec<&Message> = out.iter().flatten().collect();
    // Chosen for the block: in it, or kept by the engine after the summary.
    let chosen = saved.verbatim.len();
    let verbatim = verbatim::not_kept(std::mem::take(&mut saved.verbatim), &kept);
    let mut pending = Pending {
        words: verbatim.iter().map(|v| session.clean_counted(&v.text, &saved.redacted)).collect(),
        mark: verbatim::row_mark(e.trigger.as_str(), &kept),
        blocks: Vec::new(),
        pins: Vec::new(),
    };
    // The person's pins, in the block with their words, where the context does
    // not hold them word for word already.
    let held = {
        let mut context: Vec<&str> = kept.iter().map(|m| m.text()).collect();
        context.extend(pending.words.iter().map(String::as_str));
        let (shown, held) = saved.pins(&host, &context).await;
        pending.pins = shown;
        held
    };
    let mut listed = 0;
    if let (Some(file), Some(dir)) = (&saved.file, &saved.dir) {
        let mut pointer = handoff::pointer(file, dir, saved.parts, session.options.recall);
        // What the summary lost: passages it puts in the person's mouth that match none of
        // their messages, the work it does not say, identifiers that neither the summary, the
        // kept messages nor the verbatim block carry.
        let block = pending.render(Channel::SummaryRow);
        let mut kept_texts: Vec<&str> = kept.iter().map(|m| m.text()).collect();
        kept_texts.extend(block.iter().map(String::as_str));
        let flags = attribution::check(row_text, &attribution::said(&e.messages.0)).flags;
        let lost = audit::Lost { record: saved.record.as_ref(), mentions: saved.mentions.as_ref(), flags: &flags, clean: &|t| session.clean(t) };
        if let Some(block) = audit::block(&lost, &kept_texts) {
            listed = steer::receipt::listed(&block);
            pointer = format!("{pointer}\n\n{}", session.clean(&block));
        }
        pending.blocks.push(pointer);
    }
    // These blocks belong to this compaction: any an earlier one left undelivered
    // described a context this one has just summarized. Its words are what the
    // next compaction carries on, whichever channel delivers them.
    let words = pending.words.clone();
    let pending = (!pending.is_empty()).then_some(pending);
    {
        let mut carried = session.carried_mut();
        carried.pending = pending.clone();
        carried.row_only = e.trigger.as_str() == Some("auto");
        carried.disk_read = true;
        carried.verbatim = Some(words.clone());
    }

    // The summary row's text beside the history, so a later session's project
    // recall finds what this one concluded.
    if let (Some(file), Some(summary)) = (&saved.file, out.iter().flatten().next()) {
        save_summary(&host, &session, file, summary.text()).await;
    }
    if let Some(dir) = &saved.dir {
        keep_pending(&host, dir, pending.as_ref()).await;
        keep_words(&host, dir, &words).await;
        let _ = prune_old(&host, &session, dir).await;
        let mut entry = vec![("event", json_str("compact"))];
        let logged_trigger = if own.is_some() { Some(json_str(&trigger)) } else { e.trigger.to_json() };
        entry.extend(logged_trigger.map(|t| ("trigger", t)));
        entry.extend([
            ("messages", e.messages.0.len().to_string()),
            ("kept", json_number(out.len() as f64 - 1.0)),
            ("verbatim", verbatim.len().to_string()),
        ]);
        entry.extend(raw_or_skip("tokensBefore", &result.tokens_before));
        entry.extend(raw_or_skip("tokensAfter", &result.tokens_after));
        entry.push(("file", saved.file.as_deref().map_or("null".into(), json_str)));
        log(&host, &session, dir, &entry).await;
    }
    let pins = pending.as_ref().map_or(0, |p| p.pins.len()) + held;
    Done::told(saved.receipt(&session, chosen, listed, pins, None))
}

/// Counts a compaction in `State::compacting` for as long as the guard lives: its
/// hook ending, failing or let go of drops it alike, so a turn-end compaction
/// waking meanwhile knows one is under way and leaves it be.
struct CompactingGuard(Rc<Session>);

impl CompactingGuard {
    fn new(session: &Rc<Session>) -> CompactingGuard {
        session.state.borrow_mut().compacting += 1;
        CompactingGuard(session.clone())
    }
}

impl Drop for CompactingGuard {
    fn drop(&mut self) {
        let mut state = self.0.state.borrow_mut();
        state.compacting = state.compacting.saturating_sub(1);
    }
}
