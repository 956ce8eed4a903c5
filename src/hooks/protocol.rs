//! The hooks' side of the step protocol ([`crate::step`]): the calls a hook
//! asks the shim for, how long the shim waits for each, and how a hook ends.
//!
//! A hook is an `async fn` over a [`Host`]; awaiting a host call suspends it and
//! hands the shim a list of [`Call`]s to perform. The shim performs exactly those
//! (`$` calls, or the hook's `next`), passes the answers back, and the hook goes
//! on, until it ends in a [`Done`]: what the shim makes of the engine's result.

use serde::Serialize;
use std::collections::BTreeMap;

use crate::recall_tool;
use crate::step::{ShimCall, Wait};

pub use crate::step::{parse_answers, parse_wire, value, Answer, Rejection};

/// The hooks' host, machine and step: the step protocol over [`Call`].
pub type Host = crate::step::Host<Call>;
pub type Ask = crate::step::Ask<Call>;
pub type Machine<T> = crate::step::Machine<Call, T>;
pub type Step<T> = crate::step::Step<Call, T>;

/// How long the shim waits for a `$` call a hook asks: a hung one must not
/// hang the compaction (the hook's budget stops while a `$` call is in flight).
pub const CALL_WAIT_MS: u64 = 30_000;

/// One thing the shim does for the core.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Call {
    /// `$.env.get(name)`; the shim spells each allowed name as a literal.
    Env { name: &'static str },
    SessionId,
    Now,
    Exists { path: String },
    Read { path: String },
    Write { path: String, text: String },
    /// A `Write` whose text waits in the core's outbox (`takeText(textRef)`), so a
    /// long text crosses the boundary as one string, not escaped inside the JSON.
    #[serde(rename = "write")]
    WriteRef {
        path: String,
        #[serde(rename = "textRef")]
        text_ref: usize,
    },
    List { path: String },
    Stat {
        path: String,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        resolve: bool,
    },
    Usage {
        #[serde(skip_serializing_if = "Option::is_none")]
        breakdown: Option<&'static str>,
    },
    Run {
        argv: Vec<String>,
        /// Variables set over the host's environment (`$.process.run`'s `env`).
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        env: BTreeMap<String, String>,
        #[serde(rename = "timeoutMs")]
        timeout_ms: u64,
    },
    /// One line to the debug log.
    Debug { text: String },
    /// The hook's `next`: the event as received, with these changes.
    Next {
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<String>,
        /// Text blocks appended to `e.message.content` (session.append).
        #[serde(skip_serializing_if = "Option::is_none")]
        append: Option<Vec<String>>,
    },
    /// The hook's `next` with the row's text blocks replaced by these
    /// (`session.append`: `next({ ...e, message: { ...e.message, content } })`).
    #[serde(rename = "next")]
    NextRow { content: Vec<String> },
    /// The hook's `next`, started but not awaited: the shim calls it and answers
    /// at once, so the core works while the summarizer does (the engine sends
    /// the summary request in the turns the core's later calls give it).
    /// [`Call::NextResult`] waits for its result.
    StartNext {
        #[serde(skip_serializing_if = "Option::is_none")]
        instructions: Option<String>,
        /// Messages sent down changed (`next({ ...e, messages })`): each listed
        /// one built from its role, text and tool blocks with these tool-result
        /// texts, without its handle; every other one as the engine sent it.
        #[serde(skip_serializing_if = "Option::is_none")]
        cut: Option<Vec<crate::compaction::trim::Cut>>,
    },
    /// The result of the `next` that [`Call::StartNext`] started. A rejection
    /// comes back as a value (`{err, rejected: true}`, read by [`Host::rejection`]):
    /// the hook may answer a compaction of its own in its place ([`Done::compacted`]);
    /// any other end passes the very rejection up.
    NextResult,
    /// `$.model.complete({ model, prompt, system, maxTokens, timeoutMs }, { signal: next.signal })`:
    /// one completion on a model of our choosing, bounded by `timeoutMs`.
    /// The answer is the engine's `ModelCompleteResult`.
    Complete {
        model: String,
        prompt: String,
        system: String,
        #[serde(rename = "maxTokens")]
        max_tokens: u32,
        #[serde(rename = "timeoutMs")]
        timeout_ms: u64,
    },
    /// The `text` of these messages of the event (`null` for a non-string), for
    /// an event sent without them (`textsDeferred`).
    Texts { messages: Vec<usize> },
    /// The whole of such an event: the answer is `{lens, event}` with each text
    /// numbered in `event` and its UTF-8 byte length in `lens`; the texts come
    /// beside the answer (`resumePacked`).
    Pack {
        /// Each user message's tool-result texts too (`resultTexts`), for the trim.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        results: bool,
    },
    /// Resolves after `ms` (`$.clock.after`).
    After { ms: u64 },
    /// `$.session.messages({ last })`: the newest rows of the main conversation.
    Messages { last: u32 },
    /// The recall module's search, as the recall tool runs it (`Done::search`);
    /// the answer is its text.
    Search { search: recall_tool::Recall },
    /// `$.session.cwd()`: the project's folder (the brief's earlier sessions).
    Cwd,
    /// `$.command.run({ command, args })`: queued until the session is idle; it
    /// resolves only after the queued command has run (measured on 2.1.328).
    Command { command: String, args: String },
}

impl Call {
    pub fn next() -> Call {
        Call::Next { instructions: None, append: None }
    }
}

impl ShimCall for Call {
    fn wait(&self) -> Wait {
        match self {
            // Handled by the shim itself: `next` and the event's texts.
            Call::Next { .. } | Call::NextRow { .. } | Call::StartNext { .. } | Call::NextResult | Call::Texts { .. } | Call::Pack { .. } => Wait::Untimed,
            // The recall module's own machine: its calls carry their own bounds.
            Call::Search { .. } => Wait::Untimed,
            // A timer, and the queued command (it resolves once it has run,
            // however long the compaction takes).
            Call::After { .. } | Call::Command { .. } => Wait::Untimed,
            // `timeoutMs` bounds the completion itself; this only backs it up.
            Call::Complete { timeout_ms, .. } => Wait::Within(timeout_ms.saturating_add(CALL_WAIT_MS)),
            _ => Wait::Within(CALL_WAIT_MS),
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
    /// Answer the recall tool with what the recall module finds (its own
    /// machine, run by the shim), without `next`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<recall_tool::Recall>,
    /// Lines for the person's transcript (`$.ui.log`, `ui_log` headless), never
    /// the model's, logged once the hook has returned: logged inside a
    /// `session.compact` hook the terminal draws them above the `/compact` line,
    /// after it they come below its `Compacted` (measured on 2.1.328).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notice: Vec<String>,
    /// A slash command's answer, without `next`: shown to the person alone
    /// (`{ text, isTextDisplayOnly: true }`), never sent to the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply: Option<String>,
    /// After `next` rejected: answer this compaction in the engine's place, as
    /// `{ messages: [summary row, ...the event's messages at these indices] }`
    /// (each kept one as the engine handed it, handle and all). Only then: a
    /// `next` that resolved is always the hook's result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compacted: Option<Compacted>,
}

/// A compaction of compact-plus's own: the summary, a user row, and the
/// messages kept after it by their place in the event. The shim hands each
/// kept one up built from its role, text and tool blocks, without its handle:
/// kept by handle, the engine writes a copy that keeps the original's message
/// id and tool links, and `--resume` then merges the copies with the
/// originals and walks back past the boundary (tests/HOST.md, "What
/// `--resume` rebuilds after a hook's compaction").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Compacted {
    pub summary: String,
    pub keep: Vec<usize>,
    /// It stands where `next` did not reject: in place of a compaction `next`
    /// resolved to (a summary row that is no summary), or of one `next` was not
    /// asked for (the summarizer failed within the cool-down).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replaces: bool,
}

/// One `prompt.context` block, as the engine takes them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextBlock {
    pub name: &'static str,
    pub text: String,
}

impl Done {
    /// The end that changes nothing: the shim lets the engine's result through
    /// as it came, `next`'s (calling `next` itself where the hook did not). Every
    /// other end is this with one field set.
    pub(super) fn pass_through() -> Done {
        Done {
            instruction_files: None,
            context_block: None,
            spawn: None,
            skip: None,
            answer: None,
            search: None,
            notice: Vec::new(),
            reply: None,
            compacted: None,
        }
    }

    pub(super) fn answer(text: &str) -> Done {
        Done { answer: Some(text.to_owned()), ..Done::pass_through() }
    }

    pub(super) fn reply(text: String) -> Done {
        Done { reply: Some(text), ..Done::pass_through() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_asks_and_resumes() {
        let mut m = Machine::new(|host: Host| async move {
            let a = host.call(Call::Now).await;
            let both = host.ask(vec![Call::SessionId, Call::Env { name: "HOME" }]).await;
            (value::<f64>(&a), both.len(), value::<String>(&both[1]))
        });
        assert!(matches!(m.step(None), Step::Ask(ref c) if c == &vec![Call::Now]));
        let Step::Ask(calls) = m.step(Some(parse_answers(r#"[{"ok":5}]"#, 1))) else { panic!() };
        assert_eq!(calls.len(), 2);
        let Step::Done((now, n, home)) = m.step(Some(parse_answers(r#"[{"ok":"s"},{"err":"denied"}]"#, 2)))
        else {
            panic!()
        };
        assert_eq!(now, Ok(5.0));
        assert_eq!(n, 2);
        assert_eq!(home, Err("denied".into()));
    }

    #[test]
    fn a_rejection_of_next_is_told_apart_from_other_errors() {
        let mut m = Machine::new(|host: Host| async move {
            let a = host.call(Call::Now).await;
            let first = host.rejection();
            let b = host.call(Call::NextResult).await;
            (a.is_err(), first, b.is_err(), host.rejection())
        });
        assert!(matches!(m.step(None), Step::Ask(_)));
        let (answers, rejection) = parse_wire(r#"[{"err":"denied"}]"#, 1);
        assert_eq!(rejection, None);
        assert!(matches!(m.step_with(Some(answers), rejection), Step::Ask(_)));
        let (answers, rejection) = parse_wire(r#"[{"err":"prompt is too long","rejected":true,"aborted":false}]"#, 1);
        let Step::Done(got) = m.step_with(Some(answers), rejection) else { panic!() };
        let want = Rejection { message: "prompt is too long".into(), aborted: false };
        assert_eq!(got, (true, None, true, Some(want)));
    }

    #[test]
    fn each_call_carries_the_wait_the_shim_gives_it() {
        let j = serde_json::to_string(&crate::step::on_wire(&[Call::Now, Call::After { ms: 5 }])).unwrap();
        assert_eq!(j, r#"[{"op":"now","waitMs":30000},{"op":"after","ms":5}]"#);
        let c = Call::Complete { model: "haiku".into(), prompt: "p".into(), system: "s".into(), max_tokens: 8, timeout_ms: 9 };
        assert_eq!(c.wait(), Wait::Within(9 + CALL_WAIT_MS), "the completion's own bound, backed up");
        for untimed in [Call::next(), Call::NextResult, Call::Command { command: "compact".into(), args: String::new() }] {
            assert_eq!(untimed.wait(), Wait::Untimed, "{untimed:?}");
        }
    }

    #[test]
    fn calls_serialize_for_the_shim() {
        let j = serde_json::to_string(&Call::Next { instructions: Some("x".into()), append: None }).unwrap();
        assert_eq!(j, r#"{"op":"next","instructions":"x"}"#);
        let j = serde_json::to_string(&Call::Stat { path: "/a".into(), resolve: false }).unwrap();
        assert_eq!(j, r#"{"op":"stat","path":"/a"}"#);
        assert_eq!(serde_json::to_string(&Call::Now).unwrap(), r#"{"op":"now"}"#);
        let j = serde_json::to_string(&Call::StartNext { instructions: Some("x".into()), cut: None }).unwrap();
        assert_eq!(j, r#"{"op":"startNext","instructions":"x"}"#);
        assert_eq!(serde_json::to_string(&Call::NextResult).unwrap(), r#"{"op":"nextResult"}"#);
        assert_eq!(serde_json::to_string(&Call::Texts { messages: vec![0, 3] }).unwrap(), r#"{"op":"texts","messages":[0,3]}"#);
        assert_eq!(serde_json::to_string(&Call::Pack { results: false }).unwrap(), r#"{"op":"pack"}"#);
        assert_eq!(serde_json::to_string(&Call::NextRow { content: vec!["t".into()] }).unwrap(), r#"{"op":"next","content":["t"]}"#);
        assert_eq!(serde_json::to_string(&Call::Messages { last: 1 }).unwrap(), r#"{"op":"messages","last":1}"#);
        let c = Call::Complete { model: "haiku".into(), prompt: "p".into(), system: "s".into(), max_tokens: 8, timeout_ms: 9 };
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"op":"complete","model":"haiku","prompt":"p","system":"s","maxTokens":8,"timeoutMs":9}"#
        );
    }
}
