//! The four hooks, decided here and performed by the shim.
//!
//! Each hook is an `async fn` over a [`Host`]: it reads like the reference
//! `index.js`, but every `$` call is a [`Call`] the shim performs. Errors are
//! values: a failed call costs what depended on it, and whatever happens the
//! hook ends in a [`Done`] that lets the engine's own result through.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::compaction::{handoff, history, terminal, verbatim};
use crate::host::{self, Answer, Call, Host, Machine, Step};
use crate::message::{self, JsVal, ListOrNot, Message, Messages};
use crate::{audit, instructions_engine, prune, recall_tool, stamp, text};

/// The auto-compact threshold changes only with the model or settings.
const THRESHOLD_CACHE_MS: f64 = 600_000.0;
/// How long after a turn ends its turn-end compaction is queued: a person who
/// types on at once is not made to wait for it.
const TURN_END_DELAY_MS: u64 = 1500;
const STALE_TURN_END: &str =
    "compact-plus: the context compacted after this turn-end compaction was queued, so it is not needed";
/// The name of the `prompt.context` block that carries the blocks where no
/// summary row is appended through a hook (the terminal's `/compact`).
const CONTEXT_BLOCK: &str = "compact-plus";
/// Compactions of one trigger within one second that get a file each.
const MAX_SAME_SECOND: usize = 50;
/// Texts longer than this go through the outbox instead of the step's JSON.
const OUTBOX_MIN: usize = 4096;
/// At most this many hooks in flight; an older one was abandoned by its shim.
const MAX_MACHINES: usize = 64;

/// The mod's options, as `register(on, options)` receives them.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub turn_end_percent: f64,
    pub verbatim_tokens: f64,
    pub keep_days: f64,
    pub redact: bool,
    pub recall_tool: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { turn_end_percent: 90.0, verbatim_tokens: 8000.0, keep_days: prune::KEEP_DAYS, redact: true, recall_tool: true }
    }
}

/// `Number(v ?? fallback)`.
fn number_or(v: &JsVal, fallback: f64) -> f64 {
    match v {
        JsVal::Undefined | JsVal::Null => fallback,
        JsVal::Num(n) => *n,
        JsVal::Bool(b) => f64::from(u8::from(*b)),
        JsVal::Str(s) => {
            let t = text::trim(s);
            if t.is_empty() {
                0.0
            } else {
                t.parse().unwrap_or(f64::NAN)
            }
        }
        JsVal::Array(_) | JsVal::Object => f64::NAN,
    }
}

impl Options {
    pub fn from_json(json: &str) -> Options {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Raw {
            #[serde(rename = "turnEndPercent")]
            turn_end_percent: JsVal,
            #[serde(rename = "verbatimUserTokens")]
            verbatim_tokens: JsVal,
            #[serde(rename = "keepDays")]
            keep_days: JsVal,
            #[serde(rename = "redactSecrets")]
            redact: JsVal,
            #[serde(rename = "recallTool")]
            recall_tool: JsVal,
        }
        let raw = serde_json::from_str::<message::Lenient<Raw>>(json).ok().and_then(|l| l.0).unwrap_or_default();
        let d = Options::default();
        let keep_days = number_or(&raw.keep_days, d.keep_days);
        Options {
            turn_end_percent: number_or(&raw.turn_end_percent, d.turn_end_percent),
            verbatim_tokens: number_or(&raw.verbatim_tokens, d.verbatim_tokens),
            // A keep period that is no number keeps everything rather than nothing;
            // under a day it would prune folders of sessions live in other terminals.
            keep_days: if keep_days.is_nan() { f64::INFINITY } else { keep_days.max(prune::MIN_KEEP_DAYS) },
            // Only an explicit `false` turns redaction off.
            redact: raw.redact != JsVal::Bool(false),
            recall_tool: raw.recall_tool != JsVal::Bool(false),
        }
    }
}

/// Per-session state. A module reload starts it over; a rebuilt instance gets
/// the part that must outlive it back ([`Carried`]).
#[derive(Debug, Default)]
pub struct State {
    pub carried: Carried,
    /// The UTF-8 texts that came with the last `pack` answer (`resume_packed`).
    pub inbox: Option<Vec<u8>>,
    /// Compactions of the main conversation under way (their hooks started, not
    /// ended). Not carried: a rebuild loses those hooks, so none is under way.
    pub compacting: usize,
}

/// What the shim keeps for the core while it rebuilds the instance (after a
/// trap, or to hand a large compaction's memory back): the session's state
/// outside any one hook. The core sends it whenever it changes (`carry`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Carried {
    /// Blocks of the last compaction of the main conversation, until they reach
    /// the model (summary row or `prompt.context`, whichever comes first).
    pub pending: Option<Vec<String>>,
    /// The pending blocks wait for the summary row alone: after an automatic
    /// compaction the engine computes the context again in the middle of the
    /// turn, before it appends the row, and sends no block of ours from it
    /// (measured headless on 2.1.328); the row's door fires there, in the
    /// terminal too (e2e-kit/tui README item 1).
    pub row_only: bool,
    /// One turn-end compaction per context window.
    pub turn_end_armed: bool,
    /// The auto-compact threshold and when it was asked for.
    pub threshold: Option<(f64, f64)>,
    pub pruned: bool,
    /// Compactions seen; a turn-end compaction queued before one is moot.
    pub compactions: u64,
    /// Our turn-end `/compact`, queued and not yet come through.
    pub queued: Option<Queued>,
    /// A precompute's summary, made with the handoff, waits to be installed.
    pub precomputed: bool,
    /// This process has looked for blocks an earlier one kept on disk (or made
    /// its own, which take their place).
    pub disk_read: bool,
}

impl Default for Carried {
    fn default() -> Self {
        Carried {
            pending: None,
            row_only: false,
            turn_end_armed: true,
            threshold: None,
            pruned: false,
            compactions: 0,
            queued: None,
            precomputed: false,
            disk_read: false,
        }
    }
}

/// A turn-end `/compact` in the engine's queue: its marker's token, and the
/// compactions seen when it was queued.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Queued {
    pub token: String,
    pub seen: u64,
}

pub struct Session {
    pub options: Options,
    pub state: RefCell<State>,
}

impl Session {
    pub fn carried(&self) -> std::cell::Ref<'_, Carried> {
        std::cell::Ref::map(self.state.borrow(), |s| &s.carried)
    }

    pub fn carried_mut(&self) -> std::cell::RefMut<'_, Carried> {
        std::cell::RefMut::map(self.state.borrow_mut(), |s| &mut s.carried)
    }

    /// Text on its way to disk or into the summary row.
    pub fn clean(&self, text: &str) -> String {
        if self.options.redact {
            crate::redact::redact(text).into_owned()
        } else {
            text.to_owned()
        }
    }
}

/// How a hook ends. The engine's own result always comes through: `next`'s.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Done {
    /// Replaces `instructionFiles` in `next`'s result (prompt.context).
    #[serde(rename = "instructionFiles", skip_serializing_if = "Option::is_none")]
    pub instruction_files: Option<serde_json::Value>,
    /// A block added to `next`'s `blocks` (prompt.context): the blocks of a
    /// compaction whose summary row no hook could reach.
    #[serde(rename = "contextBlock", skip_serializing_if = "Option::is_none")]
    pub context_block: Option<ContextBlock>,
    /// A job the shim starts after returning, without waiting for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spawn: Option<&'static str>,
    /// Answer `{ skip }` without `next`: the compaction does not happen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip: Option<String>,
    /// The recall tool's answer, without `next` (tool.call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
    /// Read these history files and answer the recall tool with the search of
    /// them (the search is the recall wasm's), without `next`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<Search>,
}

/// One `prompt.context` block, as the engine takes them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextBlock {
    pub name: &'static str,
    pub text: String,
}

/// The recall tool's search: the files to read, and the query to run on them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Search {
    pub paths: Vec<String>,
    pub query: recall_tool::Query,
}

impl Done {
    fn next() -> Done {
        Done { instruction_files: None, context_block: None, spawn: None, skip: None, answer: None, search: None }
    }

    fn answer(text: &str) -> Done {
        Done { answer: Some(text.to_owned()), ..Done::next() }
    }
}

// ---- host calls the hooks share ----

async fn env(host: &Host, name: &'static str) -> Result<Option<String>, String> {
    host::value::<Option<String>>(&host.call(Call::Env { name }).await)
}

async fn now(host: &Host) -> Result<f64, String> {
    host::value::<f64>(&host.call(Call::Now).await)
}

async fn session_id(host: &Host) -> Result<JsVal, String> {
    host::value::<JsVal>(&host.call(Call::SessionId).await)
}

/// `<home>/.claude/compact-history/<session id>`, or `None` with no home.
/// The home is `HOME`, as the engine's own `~/.claude` is, except on Windows
/// (`OS=Windows_NT`), where it is `USERPROFILE`: WSL can share `USERPROFILE`
/// into Linux as a `/mnt/c/…` path that is not this home.
async fn history_dir(host: &Host) -> Result<Option<String>, String> {
    let windows = env(host, "OS").await?.as_deref() == Some("Windows_NT");
    let (first, second) = if windows { ("USERPROFILE", "HOME") } else { ("HOME", "USERPROFILE") };
    // `??`: an empty value is a home that is not there, not a reason to look further.
    let home = match env(host, first).await? {
        Some(h) => Some(h),
        None => env(host, second).await?,
    };
    let Some(home) = home.filter(|h| !h.is_empty()) else { return Ok(None) };
    let id = session_id(host).await?;
    Ok(history::folder(&home, &id.to_js_string()))
}

/// One JSON object with its keys in this order (serde_json's map would sort them).
fn ordered_json(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", serde_json::to_string(k).unwrap_or_default()))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// `JSON.stringify(n)`: a number that is not finite is `null`.
fn json_number(n: f64) -> String {
    if n.is_finite() {
        text::js_number(n)
    } else {
        "null".into()
    }
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// One line to the debug log; nothing to do if it fails.
async fn debug(host: &Host, text: &str) {
    let _ = host.call(Call::Debug { text: text.to_owned() }).await;
}

/// Appends one line to the session's `log.jsonl`. A failure costs the line, and
/// says so in the debug log.
async fn log(host: &Host, dir: &str, entry: &[(&str, String)]) {
    if let Err(err) = try_log(host, dir, entry).await {
        debug(host, &format!("compact-plus: a log.jsonl line was lost: {}", error_text(&err))).await;
    }
}

async fn try_log(host: &Host, dir: &str, entry: &[(&str, String)]) -> Result<(), String> {
    let file = format!("{dir}/log.jsonl");
    let at = stamp::iso(now(host).await?).ok_or("the clock answered no time")?;
    let prior = if host::value::<bool>(&host.call(Call::Exists { path: file.clone() }).await)? {
        host::value::<String>(&host.call(Call::Read { path: file.clone() }).await)?
    } else {
        String::new()
    };
    let mut fields = vec![("at", json_str(&at))];
    fields.extend(entry.iter().cloned());
    let text = format!("{prior}{}\n", ordered_json(&fields));
    host.call(Call::Write { path: file, text }).await.map(|_| ())
}

// ---- session.compact ----

#[derive(Deserialize, Default)]
#[serde(default)]
struct CompactEvent {
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

/// What session.compact prepared before `next`, and wrote while it ran.
struct Prep {
    dir: Option<String>,
    /// The first history part that was written.
    file: Option<String>,
    parts: usize,
    verbatim: Vec<verbatim::Entry>,
    /// The conversation's identifiers, collected while the summarizer works.
    mentions: Option<audit::Mentions>,
}

/// Before `next`: the history folder and the verbatim block, which the handoff
/// instructions name. Only the person's own messages are read here; everything
/// else waits until the summarizer is at work (`write_history`).
async fn prepare(host: &Host, session: &Session, e: &mut CompactEvent) -> Prep {
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
    let verbatim = verbatim::select(&e.messages.0, session.options.verbatim_tokens);
    Prep { dir, file: None, parts: 0, verbatim, mentions: None }
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
        host::value(&host.call(Call::Texts { messages: wanted.clone() }).await).unwrap_or_default();
    for (i, text) in wanted.into_iter().zip(texts) {
        if let Some(m) = messages.get_mut(i).and_then(Option::as_mut) {
            m.text = text;
        }
    }
}

/// All the event's texts, when the shim deferred them; the event as it was if
/// they do not come.
async fn unpack_event(host: &Host, session: &Session, e: &mut CompactEvent) -> Result<(), String> {
    if !e.texts_deferred.truthy() {
        return Ok(());
    }
    let answer = host.call(Call::Pack).await;
    let bytes = session.state.borrow_mut().inbox.take().unwrap_or_default();
    let packed: Packed = host::value(&answer)?;
    let texts = message::unpack(&packed.lens, &bytes);
    drop(bytes);
    let full: CompactEvent = message::with_packed(texts, || parse_event(packed.event.get()));
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
    prep: &mut Prep,
) -> Result<(), String> {
    let Some(dir) = &prep.dir else { return Ok(()) };
    let now = now(host).await?;
    let at = stamp::iso(now).ok_or("the clock answered no time")?;
    let stamp = stamp::stamp(now).unwrap_or_default();
    let meta = history::Meta { session_id: session_id(host).await?.to_js_string(), at, trigger };
    // These round trips come first: the file system's answer gives the engine
    // its turns to send the summary request before the long work below.
    let mut n = 1;
    while n < MAX_SAME_SECOND {
        let first = history::part_file(dir, &stamp, &meta.trigger, n, 1);
        match host::value::<bool>(&host.call(Call::Exists { path: first }).await) {
            Ok(true) => n += 1,
            _ => break,
        }
    }
    unpack_event(host, session, e).await?;
    terminal::tidy(&mut e.messages.0);
    let messages = &e.messages.0;
    let texts = history::parts(messages, &meta, history::WRITE_LIMIT, &|t| session.clean(t));
    let names: Vec<String> =
        (1..=texts.len()).map(|k| history::part_file(dir, &stamp, &meta.trigger, n, k)).collect();
    let writes = names.iter().zip(texts).map(|(path, text)| Call::Write { path: path.clone(), text }).collect();
    // A failed write (over the limit, a full disk) costs that part alone.
    let results = host.ask(writes).await;
    for (name, result) in names.iter().zip(&results) {
        if let Err(err) = result {
            debug(host, &format!("compact-plus: the history part {name} was not written: {}", error_text(err))).await;
        }
    }
    prep.file = names.iter().zip(&results).find(|(_, r)| r.is_ok()).map(|(n, _)| n.clone());
    prep.parts = names.len();
    if prep.file.is_some() {
        prep.mentions = Some(audit::collect(messages));
    }
    Ok(())
}

/// Deletes this mod's history folders for sessions that last compacted over the
/// keep period ago, once per session. See `prune` for the rules.
async fn prune_old(host: &Host, session: &Session, dir: &str) -> Result<(), String> {
    if session.carried().pruned {
        return Ok(());
    }
    session.carried_mut().pruned = true;
    let Some((root, current)) = dir.rsplit_once('/') else { return Ok(()) };
    let root_stat: prune::Stat = host::value(&host.call(Call::Stat { path: root.into(), resolve: true }).await)?;
    if root_stat.kind != "dir" || root_stat.is_link {
        return Ok(());
    }
    let real_root = root_stat.real_path.unwrap_or_else(|| root.to_owned());
    let cutoff = now(host).await? - session.options.keep_days * prune::DAY_MS;
    let windows = env(host, "OS").await?.as_deref() == Some("Windows_NT");
    let entries: Vec<prune::Entry> = host::value(&host.call(Call::List { path: real_root.clone() }).await)?;
    for name in prune::candidates(&entries, current) {
        let folder = format!("{real_root}/{name}");
        let stats = host
            .ask(vec![
                Call::Stat { path: folder.clone(), resolve: true },
                Call::Stat { path: format!("{folder}/log.jsonl"), resolve: false },
            ])
            .await;
        let (Ok(f), Ok(l)) = (host::value::<prune::Stat>(&stats[0]), host::value::<prune::Stat>(&stats[1])) else {
            continue;
        };
        if prune::expired(&f, &folder, &l, cutoff, windows) {
            let _ = host
                .call(Call::Run { argv: prune::remove_argv(&folder, windows), timeout_ms: prune::REMOVE_TIMEOUT_MS })
                .await;
        }
    }
    Ok(())
}

fn raw_or_skip<'a>(name: &'a str, raw: &Option<Box<RawValue>>) -> Option<(&'a str, String)> {
    raw.as_ref().map(|r| (name, r.get().to_owned()))
}

async fn session_compact(host: Host, session: Rc<Session>, e: CompactEvent) -> Done {
    // A subagent's or fork's own compaction: the handoff instructions alone.
    if e.agent_id.truthy() {
        let down = handoff::join_instructions(e.instructions.as_deref(), &handoff::instructions(None, false));
        let _ = host.call(Call::Next { instructions: Some(down), append: None }).await;
        return Done::next();
    }

    // Our own queued turn-end `/compact` is known by the marker it carries as its
    // instructions, never by counts (a person's `/compact` is never refused). It
    // is moot when the context compacted after it was queued.
    let own = e.instructions.as_deref().and_then(turn_end::token_of).map(str::to_owned);
    if let Some(token) = &own {
        let mut carried = session.carried_mut();
        let queued = carried.queued.take_if(|q| &q.token == token);
        if queued.is_some_and(|q| q.seen != carried.compactions) {
            return Done { skip: Some(STALE_TURN_END.into()), ..Done::next() };
        }
    }
    let trigger = if own.is_some() { turn_end::TRIGGER.to_owned() } else { e.trigger.to_js_string() };
    let person_instructions = if own.is_some() { None } else { e.instructions.clone() };

    // A precompute installs nothing: its summary is kept for a later compaction,
    // which gets the full treatment when it installs it. So the summarizer gets
    // the handoff, and nothing is written, logged, counted or pending for it.
    if e.trigger.as_str() == Some("precompute") {
        let mut e = e;
        let prep = prepare(&host, &session, &mut e).await;
        let first = prep.verbatim.first().map(|v| v.text.as_str());
        let instructions =
            handoff::join_instructions(person_instructions.as_deref(), &handoff::instructions(first, prep.dir.is_some()));
        let answer = host.call(Call::Next { instructions: Some(instructions), append: None }).await;
        let made = host::value::<CompactResult>(&answer).is_ok_and(|r| r.messages.is_some_and(|m| m.get().starts_with('[')));
        if made {
            session.carried_mut().precomputed = true;
        }
        return Done::next();
    }

    let _under_way = UnderWay::new(&session);
    let mut e = e;
    let mut prep = prepare(&host, &session, &mut e).await;
    // "Saved" is a promise made before the history is written: a write that
    // then fails costs the pointer, and the summary says nothing it could miss.
    let first = prep.verbatim.first().map(|v| v.text.as_str());
    let instructions =
        handoff::join_instructions(person_instructions.as_deref(), &handoff::instructions(first, prep.dir.is_some()));
    // The engine installs a precomputed summary only for a dispatch whose
    // instructions are as it sent them; changed, it discards that summary and
    // asks the summarizer again (measured on 2.1.328). The precompute's own
    // request carried the handoff, so leave these be.
    let installs_precomputed = session.carried().precomputed && e.instructions.is_none();
    let down = (!installs_precomputed).then_some(instructions);
    if host.call(Call::StartNext { instructions: down }).await.is_err() {
        return Done::next();
    }
    if let Err(err) = write_history(&host, &session, &mut e, trigger.clone(), &mut prep).await {
        debug(&host, &format!("compact-plus: the history was not written: {}", error_text(&err))).await;
    }
    let answer = host.call(Call::NextResult).await;
    // The shim passes a rejected `next` straight up; an error here is unreadable JSON.
    let Ok(result) = host::value::<CompactResult>(&answer) else { return Done::next() };
    let Some(out) = result.messages.as_ref().filter(|m| m.get().starts_with('[')) else { return Done::next() };
    let out: Messages = message::parse_messages(out.get());

    {
        let mut carried = session.carried_mut();
        carried.turn_end_armed = true;
        carried.compactions += 1;
        carried.precomputed = false;
    }
    let kept: Vec<&Message> = out.iter().flatten().collect();
    let verbatim = verbatim::not_kept(prep.verbatim, &kept);
    // The engine may keep the newest prompt itself after the summary: then that,
    // not the last entry of our block, is the current request.
    let current_kept = kept.iter().any(|m| m.is_user() && !verbatim::person_text(m.text()).is_empty());
    let mut blocks = Vec::new();
    if !verbatim.is_empty() {
        blocks.push(session.clean(&verbatim::render(&verbatim, current_kept)));
    }
    if let (Some(file), Some(dir)) = (&prep.file, &prep.dir) {
        let mut pointer = handoff::pointer(file, dir, prep.parts, session.options.recall_tool);
        // What the summary dropped: identifiers from before that neither the
        // summary, the kept messages nor the verbatim block carry.
        let mut kept_texts: Vec<&str> = kept.iter().map(|m| m.text()).collect();
        kept_texts.extend(blocks.iter().map(String::as_str));
        let dropped = prep.mentions.as_ref().map(|m| audit::dropped(m, &kept_texts)).unwrap_or_default();
        if let Some(audit) = audit::render(&dropped) {
            pointer = format!("{pointer}\n\n{}", session.clean(&audit));
        }
        blocks.push(pointer);
    }
    // These blocks belong to this compaction: any an earlier one left undelivered
    // described a context this one has just summarized.
    let pending = (!blocks.is_empty()).then_some(blocks);
    {
        let mut carried = session.carried_mut();
        carried.pending = pending.clone();
        carried.row_only = e.trigger.as_str() == Some("auto");
        carried.disk_read = true;
    }

    if let Some(dir) = &prep.dir {
        keep_pending(&host, dir, pending.as_deref()).await;
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
        entry.push(("file", prep.file.as_deref().map_or("null".into(), json_str)));
        log(&host, dir, &entry).await;
    }
    Done::next()
}

/// Counts a compaction as under way while its hook runs (ended, failed or let go
/// of alike), so a turn-end compaction waking meanwhile leaves it be.
struct UnderWay(Rc<Session>);

impl UnderWay {
    fn new(session: &Rc<Session>) -> UnderWay {
        session.state.borrow_mut().compacting += 1;
        UnderWay(session.clone())
    }
}

impl Drop for UnderWay {
    fn drop(&mut self) {
        let mut state = self.0.state.borrow_mut();
        state.compacting = state.compacting.saturating_sub(1);
    }
}

// ---- session.append (door: compaction) ----

#[derive(Deserialize, Default)]
#[serde(default)]
struct AppendEvent {
    #[serde(rename = "agentId")]
    agent_id: JsVal,
    message: message::Lenient<AppendMessage>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct AppendMessage {
    #[serde(rename = "type")]
    kind: JsVal,
    role: JsVal,
}

async fn session_append(host: Host, session: Rc<Session>, e: AppendEvent) -> Done {
    let is_summary_row = e.message.0.as_ref().is_some_and(|m| m.kind.as_str() == Some("user") && m.role.as_str() == Some("user"));
    let pending = session.carried().pending.is_some();
    if !pending || e.agent_id.truthy() || !is_summary_row {
        return Done::next();
    }
    let blocks = session.carried_mut().pending.take();
    let _ = host.call(Call::Next { instructions: None, append: blocks }).await;
    if let Ok(Some(dir)) = history_dir(&host).await {
        keep_pending(&host, &dir, None).await;
    }
    Done::next()
}

/// Where a compaction's blocks wait on disk until they reach the model: after a
/// terminal `/compact` nothing carries them but the next prompt's context, and a
/// person who leaves right after it resumes in a new process (`--resume`).
const PENDING_FILE: &str = "pending-blocks.json";

/// Keeps `blocks` (or, with `None`, that nothing waits) in the session's folder.
/// A failed write costs the blocks a later process could have delivered.
async fn keep_pending(host: &Host, dir: &str, blocks: Option<&[String]>) {
    let text = blocks.map(|b| serde_json::to_string(b).unwrap_or_default()).unwrap_or_default();
    if let Err(err) = host.call(Call::Write { path: format!("{dir}/{PENDING_FILE}"), text }).await {
        debug(host, &format!("compact-plus: {PENDING_FILE} was not written: {}", error_text(&err))).await;
    }
}

/// The blocks an earlier process of this session kept and did not deliver.
async fn pending_on_disk(host: &Host) -> Option<(String, Vec<String>)> {
    let dir = history_dir(host).await.ok()??;
    let path = format!("{dir}/{PENDING_FILE}");
    if !host::value::<bool>(&host.call(Call::Exists { path: path.clone() }).await).unwrap_or(false) {
        return None;
    }
    let text: String = host::value(&host.call(Call::Read { path }).await).ok()?;
    let blocks: Vec<String> = serde_json::from_str(&text).ok()?;
    (!blocks.is_empty()).then_some((dir, blocks))
}

// ---- prompt.context ----

#[derive(Deserialize, Default)]
#[serde(default)]
struct ContextFiles {
    #[serde(rename = "instructionFiles")]
    instruction_files: Option<Vec<serde_json::Value>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct InstructionFile {
    path: JsVal,
    kind: JsVal,
    content: JsVal,
}

/// What to do with one file: keep the engine's copy (`None`), or swap in the
/// disk text as the engine itself would load it (`Some`; `Some(None)`: the file
/// is empty now, and the engine would leave it out).
fn refreshed_text(file: &InstructionFile, disk: &Answer) -> Option<Option<String>> {
    let raw: String = host::value(disk).ok()?;
    // Imports are entries of their own, a swap could not add or drop them; and a
    // file nested deeper than the port lexes cannot be judged: both stay as they are.
    if instructions_engine::too_deep(&raw) || instructions_engine::has_imports(&raw) {
        return None;
    }
    let content = instructions_engine::engine_content(&raw);
    if file.content.as_str()? == content {
        return None;
    }
    Some(instructions_engine::engine_loads(&content).then_some(content))
}

/// The engine computes the context blocks again after every compaction, and
/// sends a block of a name it does not route in one copy, made when the
/// conversation holds none: the one channel that reaches the model after a
/// terminal `/compact`, where no `session.append` at door `compaction` fires.
async fn prompt_context(host: Host, session: Rc<Session>, e: ContextFiles) -> Done {
    let answer = host.call(Call::next()).await;
    let Ok(result) = host::value::<ContextFiles>(&answer) else { return Done::next() };
    // Taken only once `next` answered: a rejected `next` leaves them for the summary row.
    let mut pending = {
        let mut carried = session.carried_mut();
        if carried.row_only { None } else { carried.pending.take() }
    };
    let first_look = !std::mem::replace(&mut session.carried_mut().disk_read, true);
    if pending.is_some() {
        if let Ok(Some(dir)) = history_dir(&host).await {
            keep_pending(&host, &dir, None).await;
        }
    } else if first_look {
        if let Some((dir, blocks)) = pending_on_disk(&host).await {
            keep_pending(&host, &dir, None).await;
            pending = Some(blocks);
        }
    }
    let done = Done {
        context_block: pending.map(|blocks| ContextBlock { name: CONTEXT_BLOCK, text: blocks.join("\n\n") }),
        ..Done::next()
    };
    let Some(mut files) = result.instruction_files.or(e.instruction_files).filter(|f| !f.is_empty()) else {
        return done;
    };
    let parsed: Vec<InstructionFile> =
        files.iter().map(|f| serde_json::from_value(f.clone()).unwrap_or_default()).collect();
    let to_read: Vec<(usize, Call)> = parsed
        .iter()
        .enumerate()
        .filter(|(_, f)| !matches!(f.kind.as_str(), Some("memory" | "managed")))
        .map(|(i, f)| (i, Call::Read { path: f.path.to_js_string() }))
        .collect();
    if to_read.is_empty() {
        return done;
    }
    let answers = host.ask(to_read.iter().map(|(_, c)| c.clone()).collect()).await;
    let mut refreshed = Vec::new();
    let mut emptied = Vec::new();
    for ((i, _), disk) in to_read.iter().zip(&answers) {
        let (Some(file), Some(slot)) = (parsed.get(*i), files.get_mut(*i)) else { continue };
        match refreshed_text(file, disk) {
            Some(Some(text)) => {
                if let Some(obj) = slot.as_object_mut() {
                    obj.insert("content".into(), serde_json::Value::String(text));
                    refreshed.push(file.path.to_js_string());
                }
            }
            Some(None) => {
                emptied.push(*i);
                refreshed.push(file.path.to_js_string());
            }
            None => {}
        }
    }
    if refreshed.is_empty() {
        return done;
    }
    let mut index = 0;
    files.retain(|_| {
        index += 1;
        !emptied.contains(&(index - 1))
    });
    if let Ok(Some(dir)) = history_dir(&host).await {
        let list = serde_json::to_string(&refreshed).unwrap_or_default();
        log(&host, &dir, &[("event", json_str("instructions-refreshed")), ("files", list)]).await;
    }
    Done { instruction_files: Some(serde_json::Value::Array(files)), ..done }
}

// ---- turn.complete, and the turn-end compaction it starts ----

#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnEvent {
    #[serde(rename = "agentId")]
    agent_id: JsVal,
    reason: JsVal,
}

async fn turn_complete(host: Host, session: Rc<Session>, e: TurnEvent) -> Done {
    let _ = host.call(Call::next()).await;
    let armed = session.carried().turn_end_armed;
    if session.options.turn_end_percent > 0.0 && armed && !e.agent_id.truthy() && e.reason.as_str() == Some("answer") {
        return Done { spawn: Some("turn-end"), ..Done::next() };
    }
    Done::next()
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Usage {
    context: Option<UsageContext>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct UsageContext {
    tokens: JsVal,
    breakdown: Option<Breakdown>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Breakdown {
    #[serde(rename = "isAutoCompactEnabled")]
    enabled: JsVal,
    #[serde(rename = "autoCompactThreshold")]
    threshold: JsVal,
}

async fn auto_compact_threshold(host: &Host, session: &Session) -> Result<f64, String> {
    let now = now(host).await?;
    if let Some((value, at)) = session.carried().threshold {
        if now - at < THRESHOLD_CACHE_MS {
            return Ok(value);
        }
    }
    let usage: Usage = host::value(&host.call(Call::Usage { breakdown: Some("summary") }).await)?;
    let context = usage.context.ok_or("usage has no context")?;
    let value = match context.breakdown {
        Some(b) if b.enabled.truthy() && b.threshold.truthy() => number_or(&b.threshold, 0.0),
        _ => 0.0,
    };
    session.carried_mut().threshold = Some((value, now));
    Ok(value)
}

async fn is_near_threshold(host: &Host, session: &Session) -> Result<bool, String> {
    let usage: Usage = host::value(&host.call(Call::Usage { breakdown: None }).await)?;
    let context = usage.context.ok_or("usage has no context")?;
    let tokens = number_or(&context.tokens, 0.0);
    let threshold = if context.tokens.truthy() { auto_compact_threshold(host, session).await? } else { 0.0 };
    Ok(threshold > 0.0 && tokens >= threshold * session.options.turn_end_percent / 100.0)
}

/// The first 300 units of an error's message, for the log.
fn error_text(err: &str) -> String {
    text::head(err, 300).to_owned()
}

async fn turn_end(host: Host, session: Rc<Session>) -> Done {
    // The compactions as the turn ended, before any call gives the engine a turn:
    // one that comes after this makes the turn-end compaction moot.
    let seen = session.carried().compactions;
    session.carried_mut().turn_end_armed = false;
    let near = is_near_threshold(&host, &session).await.unwrap_or(false);
    if !near {
        session.carried_mut().turn_end_armed = true;
        return Done::next();
    }
    let Ok(dir) = history_dir(&host).await else { return Done::next() };
    let percent = json_number(session.options.turn_end_percent);
    if let Some(dir) = &dir {
        log(&host, dir, &[("event", json_str("turn-end-compact")), ("percent", percent)]).await;
    }
    let _ = host.call(Call::After { ms: TURN_END_DELAY_MS }).await;
    // The context compacted meanwhile, or is compacting now (the next prompt
    // crossed the threshold): compacting the fresh context again would only lose it.
    let meanwhile = {
        let state = session.state.borrow();
        state.carried.compactions != seen || state.compacting > 0
    };
    if meanwhile {
        if let Some(dir) = &dir {
            log(&host, dir, &[("event", json_str("turn-end-compact-skipped")), ("reason", json_str("compacted meanwhile"))]).await;
        }
        return Done::next();
    }
    // A queued `/compact` reaches our own session.compact hook in every host
    // (`$.session.compact()` from here would skip it in the terminal, and is
    // refused headless). It resolves only after that compaction ran, so what
    // recognises it is set first.
    let token = turn_end::token(now(&host).await.unwrap_or(0.0), seen);
    session.carried_mut().queued = Some(Queued { token: token.clone(), seen });
    let queued = host.call(Call::Command { command: "compact".into(), args: turn_end::marker(&token) }).await;
    if let Err(err) = queued {
        {
            let mut carried = session.carried_mut();
            carried.queued.take_if(|q| q.token == token);
            carried.turn_end_armed = true;
        }
        if let Some(dir) = &dir {
            let entry = [("event", json_str("turn-end-compact-failed")), ("error", json_str(&session.clean(&error_text(&err))))];
            log(&host, dir, &entry).await;
        }
    }
    Done::next()
}

/// The turn-end compaction's `/compact`: the marker its instructions carry.
mod turn_end {
    /// The trigger its history file and log line name.
    pub const TRIGGER: &str = "turn-end";
    const HEAD: &str = "compact-plus: compacting between turns, the context is near the auto-compact threshold (#";

    /// A token no other queued `/compact` of this session has: the clock, and
    /// the compactions seen.
    pub fn token(now: f64, seen: u64) -> String {
        // The clock's last minutes in base 36: short on screen, and no two
        // queued in one session alike (`seen` differs when the clock repeats).
        let mut ms = if now.is_finite() && now >= 0.0 { (now as u64) % 36u64.pow(5) } else { 0 };
        let mut digits = Vec::new();
        loop {
            digits.push(char::from_digit((ms % 36) as u32, 36).unwrap_or('0'));
            ms /= 36;
            if ms == 0 {
                break;
            }
        }
        let clock: String = digits.iter().rev().collect();
        format!("{clock}-{seen}")
    }

    /// What the person sees as the queued command's arguments.
    pub fn marker(token: &str) -> String {
        format!("{HEAD}{token})")
    }

    /// The token of a marker, or `None` for any other instructions.
    pub fn token_of(instructions: &str) -> Option<&str> {
        let token = instructions.trim().strip_prefix(HEAD)?.strip_suffix(')')?;
        let well_formed = !token.is_empty() && token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        well_formed.then_some(token)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_marker_gives_its_token_back_and_nothing_else_is_one() {
            for (now, seen) in [(1_796_115_389_325.0, 1), (0.0, 0), (f64::NAN, 7), (-5.0, 2), (1e300, 3)] {
                let t = token(now, seen);
                assert!(t.len() <= 5 + 1 + 20, "{t}");
                assert_eq!(token_of(&marker(&t)), Some(t.as_str()));
                assert_eq!(token_of(&format!("  {}\n", marker(&t))), Some(t.as_str()), "as the engine may trim it");
            }
            assert_ne!(token(1_796_115_389_325.0, 1), token(1_796_115_389_325.0, 2));
            for other in ["", "keep the parser", "compact-plus: compacting between turns", &format!("{HEAD})"), &format!("{HEAD}a b)"), &format!("{HEAD}x) and more")] {
                assert_eq!(token_of(other), None, "{other}");
            }
        }
    }
}

// ---- the recall tool ----

const NOTHING_SAVED: &str = "recall: nothing has been saved in this session yet: the history is written at each compaction, and this session has not compacted (or has no home folder to write to).";

/// Which files the recall tool searches (this session's history parts, oldest
/// first), and for what; a bad input is answered here.
async fn recall_files(host: Host, session: Rc<Session>, input: String) -> Done {
    if !session.options.recall_tool {
        return Done::answer("recall: the recall tool is turned off (option recallTool).");
    }
    let query = match recall_tool::parse_query(&input) {
        Ok(q) => q,
        Err(why) => return Done::answer(&why),
    };
    let Ok(Some(dir)) = history_dir(&host).await else { return Done::answer(NOTHING_SAVED) };
    let Ok(entries) = host::value::<Vec<prune::Entry>>(&host.call(Call::List { path: dir.clone() }).await) else {
        return Done::answer(NOTHING_SAVED);
    };
    let mut names: Vec<&str> = entries
        .iter()
        .filter(|e| e.kind == "file" && recall_tool::is_history_file(&e.name))
        .map(|e| e.name.as_str())
        .collect();
    if names.is_empty() {
        return Done::answer(NOTHING_SAVED);
    }
    names.sort_unstable();
    let paths = names.iter().map(|n| format!("{dir}/{n}")).collect();
    Done { search: Some(Search { paths, query }), ..Done::next() }
}

// ---- the driver the shim talks to ----

/// The hooks of one loaded module: options, session state, hooks in flight.
pub struct Core {
    /// Long texts of the last step's writes, taken by the shim one by one.
    outbox: Vec<Option<String>>,
    session: Rc<Session>,
    machines: BTreeMap<u32, Machine<Done>>,
    next_id: u32,
    /// The carried state as the shim last got it (`carry`), to send it again
    /// only when it changed.
    sent: Option<Carried>,
}

/// One step's answer to the shim, as JSON. `carry` is the session state to keep
/// across a rebuild, present when it changed since the last step.
#[derive(Serialize)]
#[serde(untagged)]
enum Wire<'a> {
    Ask {
        id: u32,
        calls: &'a [Call],
        #[serde(skip_serializing_if = "Option::is_none")]
        carry: Option<&'a Carried>,
    },
    Done {
        done: &'a Done,
        #[serde(skip_serializing_if = "Option::is_none")]
        carry: Option<&'a Carried>,
    },
    Stuck {
        stuck: bool,
    },
}

fn parse_event<T: for<'de> Deserialize<'de> + Default>(json: &str) -> T {
    let json = text::well_formed_json(json);
    serde_json::from_str::<message::Lenient<T>>(&json).ok().and_then(|l| l.0).unwrap_or_default()
}

impl Core {
    pub fn new(options: Options) -> Core {
        Core::rebuilt(options, "", 1)
    }

    /// A core that goes on where a lost instance stopped: its carried state (the
    /// JSON of a `carry`; anything unreadable starts the state over), and ids
    /// from `first_id` on, so no answer meant for a lost hook reaches a new one.
    pub fn rebuilt(options: Options, carried_json: &str, first_id: u32) -> Core {
        let carried = serde_json::from_str::<Carried>(carried_json).unwrap_or_default();
        // What the shim holds is this state (`""` stands for the default one).
        let sent = Some(carried.clone());
        let state = State { carried, ..State::default() };
        Core {
            outbox: Vec::new(),
            session: Rc::new(Session { options, state: RefCell::new(state) }),
            machines: BTreeMap::new(),
            next_id: first_id.max(1),
            sent,
        }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    fn machine(&self, hook: &str, event: &str) -> Option<Machine<Done>> {
        let s = self.session.clone();
        Some(match hook {
            "session.compact" => {
                let e: CompactEvent = parse_event(event);
                Machine::new(move |h| session_compact(h, s, e))
            }
            "session.append" => {
                let e = parse_event(event);
                Machine::new(move |h| session_append(h, s, e))
            }
            "prompt.context" => {
                let e = parse_event(event);
                Machine::new(move |h| prompt_context(h, s, e))
            }
            "turn.complete" => {
                let e = parse_event(event);
                Machine::new(move |h| turn_complete(h, s, e))
            }
            "turn-end" => Machine::new(move |h| turn_end(h, s)),
            "tool.call" => {
                let input = event.to_owned();
                Machine::new(move |h| recall_files(h, s, input))
            }
            _ => return None,
        })
    }

    /// Starts a hook on its event (JSON); answers the first step (JSON).
    pub fn start(&mut self, hook: &str, event: &str) -> String {
        match self.machine(hook, event) {
            Some(m) => {
                let id = self.next_id;
                self.next_id = self.next_id.wrapping_add(1).max(1);
                self.run(id, m, None)
            }
            None => wire(&Wire::Stuck { stuck: true }),
        }
    }

    /// Resumes hook `id` with the answers (JSON) to its last calls.
    pub fn resume(&mut self, id: u32, answers: &str) -> String {
        match self.machines.remove(&id) {
            Some(m) => {
                let answers = host::parse_answers(answers, m.asked());
                self.run(id, m, Some(answers))
            }
            None => wire(&Wire::Stuck { stuck: true }),
        }
    }

    /// `resume`, with the UTF-8 texts a `pack` call answers beside its JSON.
    pub fn resume_packed(&mut self, id: u32, answers: &str, texts: Vec<u8>) -> String {
        self.session.state.borrow_mut().inbox = Some(texts);
        let out = self.resume(id, answers);
        self.session.state.borrow_mut().inbox = None;
        out
    }

    /// The text of a `write` call's `textRef`, once; `""` for any other number.
    pub fn take_text(&mut self, text_ref: usize) -> String {
        self.outbox.get_mut(text_ref).and_then(Option::take).unwrap_or_default()
    }

    /// Forgets hook `id` (its `next` rejected, or the shim gave up on it).
    pub fn cancel(&mut self, id: u32) {
        self.machines.remove(&id);
    }

    fn run(&mut self, id: u32, mut m: Machine<Done>, answers: Option<Vec<Answer>>) -> String {
        self.outbox.clear();
        let step = m.step(answers);
        let carried = self.session.carried().clone();
        let carry = (self.sent.as_ref() != Some(&carried)).then_some(&carried);
        let (out, carried_out) = match step {
            Step::Ask(mut calls) => {
                for call in calls.iter_mut() {
                    if let Call::Write { path, text } = call {
                        if text.len() > OUTBOX_MIN {
                            let text_ref = self.outbox.len();
                            self.outbox.push(Some(std::mem::take(text)));
                            *call = Call::WriteRef { path: std::mem::take(path), text_ref };
                        }
                    }
                }
                let out = wire(&Wire::Ask { id, calls: &calls, carry });
                if self.machines.len() >= MAX_MACHINES {
                    self.machines.pop_first();
                }
                self.machines.insert(id, m);
                (out, carry.is_some())
            }
            Step::Done(done) => (wire(&Wire::Done { done: &done, carry }), carry.is_some()),
            Step::Stuck => (wire(&Wire::Stuck { stuck: true }), false),
        };
        if carried_out {
            self.sent = Some(carried);
        }
        out
    }
}

fn wire(w: &Wire) -> String {
    serde_json::to_string(w).unwrap_or_else(|_| r#"{"stuck":true}"#.into())
}
