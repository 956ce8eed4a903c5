//! `turn.complete`, and the turn-end compaction it may start: after a turn that
//! left the context near the auto-compact threshold, a `/compact` queued for
//! when the session is idle, known again by its marker when it comes through.

use serde::Deserialize;
use std::rc::Rc;

use super::protocol::{self, Call, Done, Host, Job};
use super::history_folder::history_dir;
use super::host::{error_text, now};
use super::session_log::{json_number, json_str, log};
use super::state::{Queued, Session};
use crate::engine;
use crate::message::JsVal;

/// The auto-compact threshold changes only with the model or settings.
const THRESHOLD_CACHE_MS: f64 = 600_000.0;
/// How long after a turn ends its turn-end compaction is queued: a person who
/// types on at once is not made to wait for it.
const TURN_END_DELAY_MS: u64 = 1500;

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct TurnEvent {
    #[serde(rename = "agentId")]
    agent_id: JsVal,
    reason: JsVal,
}

pub(super) async fn turn_complete(host: Host, session: Rc<Session>, e: TurnEvent) -> Done {
    // `next` with the event as it came, started by the shim (`NEXT_FIRST`);
    // a turn whose `next` rejected starts no job.
    let _ = host.call(Call::NextResult).await;
    if host.rejection().is_some() {
        return Done::PassThrough;
    }
    let armed = session.carried().turn_end_armed;
    if session.options.turn_end_percent > 0.0 && armed && !e.agent_id.truthy() && e.reason.as_str() == Some("answer") {
        return Done::Spawn { job: Job::TurnEnd };
    }
    Done::PassThrough
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
    window: JsVal,
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
    let usage: Usage = protocol::value(&host.call(Call::Usage { breakdown: Some("summary") }).await)?;
    let context = usage.context.ok_or("usage has no context")?;
    let value = match context.breakdown {
        Some(b) if b.enabled.truthy() && b.threshold.truthy() => b.threshold.number_or(0.0),
        _ => 0.0,
    };
    session.carried_mut().threshold = Some((value, now));
    Ok(value)
}

async fn is_near_threshold(host: &Host, session: &Session) -> Result<bool, String> {
    let usage: Usage = protocol::value(&host.call(Call::Usage { breakdown: None }).await)?;
    let context = usage.context.ok_or("usage has no context")?;
    let tokens = context.tokens.number_or(0.0);
    if context.tokens.truthy() {
        session.carried_mut().usage = Some((tokens, context.window.number_or(0.0)));
    }
    let threshold = if context.tokens.truthy() { auto_compact_threshold(host, session).await? } else { 0.0 };
    Ok(threshold > 0.0 && tokens >= threshold * session.options.turn_end_percent / 100.0)
}

pub(super) async fn turn_end(host: Host, session: Rc<Session>) -> Done {
    // The compactions as the turn ended, before any call gives the engine a turn:
    // one that comes after this makes the turn-end compaction moot.
    let seen = session.carried().compactions;
    session.carried_mut().turn_end_armed = false;
    let near = is_near_threshold(&host, &session).await.unwrap_or(false);
    if !near {
        session.carried_mut().turn_end_armed = true;
        return Done::PassThrough;
    }
    let Ok(dir) = history_dir(&host).await else { return Done::PassThrough };
    let percent = json_number(session.options.turn_end_percent);
    if let Some(dir) = &dir {
        log(&host, &session, dir, &[("event", json_str("turn-end-compact")), ("percent", percent)]).await;
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
            log(&host, &session, dir, &[("event", json_str("turn-end-compact-skipped")), ("reason", json_str("compacted meanwhile"))]).await;
        }
        return Done::PassThrough;
    }
    // A queued `/compact` reaches our own session.compact hook in every host
    // (`$.session.compact()` from here would skip it in the terminal, and is
    // refused headless). It resolves only after that compaction ran, so what
    // recognises it is set first.
    let token = marker::token(now(&host).await.unwrap_or(f64::NAN));
    session.carried_mut().queued = Some(Queued { token: token.clone(), seen });
    let queued = host.call(Call::Command { command: engine::channels::COMPACT_COMMAND.into(), args: marker::marker(&token) }).await;
    if let Err(err) = queued {
        {
            let mut carried = session.carried_mut();
            carried.queued.take_if(|q| q.token == token);
            carried.turn_end_armed = true;
        }
        if let Some(dir) = &dir {
            let entry = [("event", json_str("turn-end-compact-failed")), ("error", json_str(&session.clean(&error_text(&err))))];
            log(&host, &session, dir, &entry).await;
        }
    }
    Done::PassThrough
}

/// The turn-end compaction's `/compact`: the marker its instructions carry.
///
/// The terminal shows it as the queued command's arguments
/// (`❯ /compact compact-plus: compacting between turns, …`), so it says in words
/// what it is and when it was queued; the time is also what tells this queued
/// command from an earlier one of ours (a person's `/compact` never has this
/// exact text).
pub(super) mod marker {
    use crate::text::stamp;

    /// The trigger its history file and log line name.
    pub const TRIGGER: &str = "turn-end";
    const HEAD: &str = "compact-plus: compacting between turns, the context is near the auto-compact threshold (queued at ";
    const TAIL: &str = " UTC)";

    /// What tells this queued command from the others of the session: the time
    /// it was queued, to the second (`14:32:07`). Two turn-end compactions are
    /// never queued in one second: one waits for the compaction before the next
    /// can arm. A clock that gives no time gives `--:--:--`.
    pub fn token(now: f64) -> String {
        // `2026-11-29T14:32:07.000Z` -> `14:32:07`.
        stamp::iso(now).and_then(|iso| iso.get(11..19).map(str::to_owned)).unwrap_or_else(|| "--:--:--".into())
    }

    /// What the person sees as the queued command's arguments.
    pub fn marker(token: &str) -> String {
        format!("{HEAD}{token}{TAIL}")
    }

    /// The token of a marker, or `None` for any other instructions.
    pub fn token_of(instructions: &str) -> Option<&str> {
        let token = instructions.trim().strip_prefix(HEAD)?.strip_suffix(TAIL)?;
        let b = token.as_bytes();
        let well_formed = b.len() == 8
            && b.iter().enumerate().all(|(i, c)| if i == 2 || i == 5 { *c == b':' } else { c.is_ascii_digit() || *c == b'-' });
        well_formed.then_some(token)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_marker_gives_its_token_back_and_nothing_else_is_one() {
            for now in [1_796_115_389_325.0, 0.0, f64::NAN, -5.0, 1e300] {
                let t = token(now);
                assert_eq!(token_of(&marker(&t)), Some(t.as_str()));
                assert_eq!(token_of(&format!("  {}\n", marker(&t))), Some(t.as_str()), "as the engine may trim it");
            }
            assert_ne!(token(1_796_115_389_325.0), token(1_796_115_390_325.0));
            for other in [
                "",
                "keep the parser",
                "compact-plus: compacting between turns",
                &format!("{HEAD}{TAIL}"),
                &format!("{HEAD}12:00{TAIL}"),
                &format!("{HEAD}12:00:00{TAIL} and more"),
                &format!("{HEAD}ab:cd:ef{TAIL}"),
            ] {
                assert_eq!(token_of(other), None, "{other}");
            }
        }

        /// Issue [13] item 13: the line the terminal shows ends in words a person
        /// reads, not an internal token (`(#sp0bi-3)` before).
        #[test]
        fn the_marker_reads_as_words_and_a_time() {
            let m = marker(&token(1_764_425_527_000.0));
            assert_eq!(m, "compact-plus: compacting between turns, the context is near the auto-compact threshold (queued at 14:12:07 UTC)");
            assert!(!m.contains('#'));
        }
    }
}
