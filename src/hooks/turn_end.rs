//! `turn.complete`, and the turn-end compaction it may start: after a turn that
//! left the context near the auto-compact threshold, a `/compact` queued for
//! when the session is idle, known again by its marker when it comes through.

use serde::Deserialize;
use std::rc::Rc;

use super::protocol::{self, Call, Done, Host};
use super::shared::{error_text, history_dir, json_number, json_str, log, now, number_or};
use super::state::{Queued, Session};
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
    let _ = host.call(Call::next()).await;
    let armed = session.carried().turn_end_armed;
    if session.options.turn_end_percent > 0.0 && armed && !e.agent_id.truthy() && e.reason.as_str() == Some("answer") {
        return Done { spawn: Some("turn-end"), ..Done::pass_through() };
    }
    Done::pass_through()
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
        Some(b) if b.enabled.truthy() && b.threshold.truthy() => number_or(&b.threshold, 0.0),
        _ => 0.0,
    };
    session.carried_mut().threshold = Some((value, now));
    Ok(value)
}

async fn is_near_threshold(host: &Host, session: &Session) -> Result<bool, String> {
    let usage: Usage = protocol::value(&host.call(Call::Usage { breakdown: None }).await)?;
    let context = usage.context.ok_or("usage has no context")?;
    let tokens = number_or(&context.tokens, 0.0);
    if context.tokens.truthy() {
        session.carried_mut().usage = Some((tokens, number_or(&context.window, 0.0)));
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
        return Done::pass_through();
    }
    let Ok(dir) = history_dir(&host).await else { return Done::pass_through() };
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
        return Done::pass_through();
    }
    // A queued `/compact` reaches our own session.compact hook in every host
    // (`$.session.compact()` from here would skip it in the terminal, and is
    // refused headless). It resolves only after that compaction ran, so what
    // recognises it is set first.
    let token = marker::token(now(&host).await.unwrap_or(0.0), seen);
    session.carried_mut().queued = Some(Queued { token: token.clone(), seen });
    let queued = host.call(Call::Command { command: "compact".into(), args: marker::marker(&token) }).await;
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
    Done::pass_through()
}

/// The turn-end compaction's `/compact`: the marker its instructions carry.
pub(super) mod marker {
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
