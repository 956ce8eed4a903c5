//! The hooks' side of the step protocol ([`crate::step`]): the calls a hook
//! asks the shim for, how long the shim waits for each, and how a hook ends.
//!
//! A hook is an `async fn` over a [`Host`]; awaiting a host call suspends it and
//! hands the shim a list of [`Call`]s to perform. The shim performs exactly those
//! (`$` calls, or the hook's `next`), passes the answers back, and the hook goes
//! on, until it ends in a [`Done`]: what the shim makes of the engine's result.

use serde::{Serialize, Serializer};

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
        /// Variables set over the host's environment (`$.process.run`'s `env`), an object on
        /// the wire.
        #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "as_object")]
        env: Vec<(String, String)>,
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
    /// the hook may answer a compaction of its own in its place ([`Done::Compacted`]);
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
    /// The recall module's search, as the recall tool runs it ([`Done::Search`]);
    /// the answer is its text (the person's `/recall`, which searches twice).
    Search { request: recall_tool::Recall },
    /// `$.session.cwd()`: the project's folder (the brief's earlier sessions).
    Cwd,
    /// `$.command.run({ command, args })`: queued until the session is idle; it
    /// resolves only after the queued command has run (measured on 2.1.328).
    Command { command: String, args: String },
}

/// `env` as a JSON object. (A `BTreeMap` of the variables was 4.8 KB of the .wasm: they are
/// one at most, the folder a Windows removal is given.)
fn as_object<S: Serializer>(env: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(env.iter().map(|(name, value)| (name, value)))
}

impl ShimCall for Call {
    fn wait(&self) -> Wait {
        match self {
            // Handled by the shim itself: `next` and the event's texts.
            Call::Next { .. } | Call::StartNext { .. } | Call::NextResult | Call::Texts { .. } | Call::Pack { .. } => Wait::Untimed,
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

/// How a hook ends: what the shim hands the engine. One variant per way, so no
/// two endings can be written at once. Whatever the end, `next` is called at
/// most once: an end that passes the engine's result through takes `next`'s
/// (the shim calls `next` itself where the hook did not).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "end", rename_all = "camelCase")]
pub enum Done {
    /// The engine's own result as it came.
    PassThrough,
    /// The engine's own result as it came, and lines for the person (below).
    Told { notice: Notice },
    /// The engine's result as it came, and a job the shim starts once the hook
    /// has returned, without waiting for it (`turn.complete`'s turn-end job).
    Spawn { job: Job },
    /// The engine's result with the core's changes (prompt.context); at least
    /// one is set ([`Done::amended`]).
    Amended {
        /// Replaces `instructionFiles` in `next`'s result.
        #[serde(rename = "instructionFiles", skip_serializing_if = "Option::is_none")]
        instruction_files: Option<serde_json::Value>,
        /// A block added to `next`'s `blocks`: the blocks of a compaction whose
        /// summary row no hook could reach.
        #[serde(rename = "contextBlock", skip_serializing_if = "Option::is_none")]
        context_block: Option<ContextBlock>,
        /// Lines for the person (a new session's brief says it was given).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        notice: Notice,
    },
    /// `{ skip: reason }`, without `next`: the compaction does not happen.
    Skip { reason: String },
    /// The recall tool's answer, without `next` (tool.call).
    Answer { text: String },
    /// The recall tool's answer is what the recall module finds (its own
    /// machine, which the shim runs), without `next`.
    Search { request: recall_tool::Recall },
    /// A compaction of compact-plus's own, answered in the engine's place.
    Compacted(Compaction),
    /// A slash command's answer, without `next` (`command.run`): shown to the
    /// person alone (`{ text, isTextDisplayOnly: true }`), never sent to the
    /// model, no model turn spent.
    Reply { text: String },
    /// `next` on the event with its row's text blocks replaced by these
    /// (`session.append` at door `command`: a command's row rewritten).
    Rewritten { content: Vec<String> },
}

/// Lines for the person's transcript (`$.ui.log`, `ui_log` headless), never
/// the model's, logged by the shim once the hook has returned: logged inside a
/// `session.compact` hook the terminal draws them above the `/compact` line,
/// after it they come below its `Compacted` (measured on 2.1.328,
/// tests/HOST.md).
pub type Notice = Vec<String>;

/// A job the core runs apart from any hook, started by a hook's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Job {
    /// After a turn: a `/compact` queued once the context is near the
    /// auto-compact threshold (`turn_end`).
    #[serde(rename = "turn-end")]
    TurnEnd,
}

impl Job {
    /// The name the shim starts it by (`start(name, "{}")`).
    pub const fn name(self) -> &'static str {
        match self {
            Job::TurnEnd => "turn-end",
        }
    }
}

/// A compaction of compact-plus's own: the summary, a user row, and the
/// messages kept after it by their place in the event. The shim hands each
/// kept one up built from its role, text and tool blocks, without its handle:
/// kept by handle, the engine writes a copy that keeps the original's message
/// id and tool links, and `--resume` then merges the copies with the
/// originals and walks back past the boundary (tests/HOST.md, "What
/// `--resume` rebuilds after a hook's compaction").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Compaction {
    pub summary: String,
    pub keep: Vec<usize>,
    #[serde(rename = "inPlaceOf")]
    pub in_place_of: InPlaceOf,
    /// The receipt of the rescue, for the person.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notice: Notice,
}

/// What a compaction of compact-plus's own stands in for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum InPlaceOf {
    /// `next`'s rejection: the engine's compaction failed. The shim answers it
    /// only where `next` did reject; anywhere else the engine's result stands.
    Rejection,
    /// `next`'s result: a summary row that is no summary, or a summarizer not
    /// asked at all (it failed within the cool-down).
    Result,
}

/// One `prompt.context` block, as the engine takes them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContextBlock {
    pub name: &'static str,
    pub text: String,
}

impl Done {
    pub(super) fn answer(text: &str) -> Done {
        Done::Answer { text: text.to_owned() }
    }

    /// The engine's result with these changes, or as it came with none.
    pub(super) fn amended(instruction_files: Option<serde_json::Value>, context_block: Option<ContextBlock>, notice: Notice) -> Done {
        if instruction_files.is_none() && context_block.is_none() {
            return Done::told(notice);
        }
        Done::Amended { instruction_files, context_block, notice }
    }

    /// The engine's result as it came, and these lines for the person; as it
    /// came alone with none.
    pub(super) fn told(notice: Vec<String>) -> Done {
        if notice.is_empty() {
            return Done::PassThrough;
        }
        Done::Told { notice }
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
        for untimed in [Call::Next { instructions: None, append: None }, Call::NextResult, Call::Command { command: "compact".into(), args: String::new() }] {
            assert_eq!(untimed.wait(), Wait::Untimed, "{untimed:?}");
        }
    }

    #[test]
    fn each_end_is_one_shape_the_shim_reads_by_its_name() {
        let j = |d: &Done| serde_json::to_string(d).unwrap();
        assert_eq!(j(&Done::PassThrough), r#"{"end":"passThrough"}"#);
        assert_eq!(j(&Done::Spawn { job: Job::TurnEnd }), r#"{"end":"spawn","job":"turn-end"}"#);
        assert_eq!(Job::TurnEnd.name(), "turn-end");
        assert_eq!(j(&Done::amended(None, None, Vec::new())), r#"{"end":"passThrough"}"#, "no change is no amendment");
        assert_eq!(j(&Done::told(Vec::new())), r#"{"end":"passThrough"}"#, "no line is nothing told");
        assert_eq!(j(&Done::amended(None, None, vec!["l".into()])), r#"{"end":"told","notice":["l"]}"#);
        let block = ContextBlock { name: "compact-plus", text: "t".into() };
        assert_eq!(j(&Done::amended(None, Some(block.clone()), Vec::new())), r#"{"end":"amended","contextBlock":{"name":"compact-plus","text":"t"}}"#);
        assert_eq!(
            j(&Done::amended(None, Some(block), vec!["l".into()])),
            r#"{"end":"amended","contextBlock":{"name":"compact-plus","text":"t"},"notice":["l"]}"#
        );
        assert_eq!(j(&Done::Reply { text: "r".into() }), r#"{"end":"reply","text":"r"}"#);
        assert_eq!(j(&Done::Rewritten { content: vec!["t".into()] }), r#"{"end":"rewritten","content":["t"]}"#);
        assert_eq!(j(&Done::Skip { reason: "r".into() }), r#"{"end":"skip","reason":"r"}"#);
        assert_eq!(j(&Done::answer("a")), r#"{"end":"answer","text":"a"}"#);
        let c = Compaction { summary: "s".into(), keep: vec![2], in_place_of: InPlaceOf::Rejection, notice: Vec::new() };
        assert_eq!(j(&Done::Compacted(c.clone())), r#"{"end":"compacted","summary":"s","keep":[2],"inPlaceOf":"rejection"}"#);
        let c = Compaction { notice: vec!["l".into()], ..c };
        assert_eq!(j(&Done::Compacted(c)), r#"{"end":"compacted","summary":"s","keep":[2],"inPlaceOf":"rejection","notice":["l"]}"#);
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
        assert_eq!(serde_json::to_string(&Call::Messages { last: 1 }).unwrap(), r#"{"op":"messages","last":1}"#);
        let c = Call::Complete { model: "haiku".into(), prompt: "p".into(), system: "s".into(), max_tokens: 8, timeout_ms: 9 };
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            r#"{"op":"complete","model":"haiku","prompt":"p","system":"s","maxTokens":8,"timeoutMs":9}"#
        );
    }
}
