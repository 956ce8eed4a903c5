//! The conversation between the core and the shim.
//!
//! A hook is an `async fn` over a [`Host`]; awaiting a host call suspends it and
//! hands the shim a list of [`Call`]s to perform. The shim performs exactly those
//! (`$` calls, or the hook's `next`), passes the answers back, and the hook goes
//! on, until it ends in a [`Done`]: what the shim makes of the engine's result.
//! No I/O happens here, so a native test can play the host.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::recall_tool;

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
    /// `$.fs.read(path, { offset, length })`: one range of a file, at most 4 MiB.
    #[serde(rename = "read")]
    ReadRange { path: String, offset: u64, length: u64 },
    /// `$.session.cwd()`: the project's folder.
    Cwd,
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
    Search { search: Search },
    /// `$.command.run({ command, args })`: queued until the session is idle; it
    /// resolves only after the queued command has run (measured on 2.1.328).
    Command { command: String, args: String },
}

impl Call {
    pub fn next() -> Call {
        Call::Next { instructions: None, append: None }
    }
}

/// What a call came back with: its value as JSON text, or the error's message.
pub type Answer = Result<Box<RawValue>, String>;

/// An answer as the shim sends it: `{ "ok": value }` or `{ "err": "message" }`.
#[derive(Debug, Deserialize)]
struct WireAnswer {
    #[serde(default)]
    ok: Option<Box<RawValue>>,
    #[serde(default)]
    err: Option<String>,
    /// The error is `next`'s own rejection (only a `nextResult` answer says so).
    #[serde(default)]
    rejected: bool,
    /// `next.signal` had aborted when it rejected: the person pressed Esc.
    #[serde(default)]
    aborted: bool,
}

/// `next` rejected: its message, and whether the person aborted the compaction.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    pub message: String,
    pub aborted: bool,
}

fn null() -> Box<RawValue> {
    RawValue::from_string("null".into()).unwrap_or_else(|_| Box::<RawValue>::default())
}

/// Reads the shim's answers. `undefined` (a `write`'s) comes as `{}`: null.
/// Unreadable answers are errors, one per call asked, so nothing waits forever.
pub fn parse_answers(json: &str, asked: usize) -> Vec<Answer> {
    parse_wire(json, asked).0
}

/// The answers, and the rejection of `next` one of them carried (out of band:
/// only the shim's `rejected: true` says an error was `next`'s own).
pub fn parse_wire(json: &str, asked: usize) -> (Vec<Answer>, Option<Rejection>) {
    let wire: Vec<WireAnswer> = serde_json::from_str(&crate::text::well_formed_json(json)).unwrap_or_default();
    let rejection = wire.iter().take(asked).find(|w| w.rejected).map(|w| Rejection {
        message: w.err.clone().unwrap_or_default(),
        aborted: w.aborted,
    });
    let mut answers: Vec<Answer> = wire
        .into_iter()
        .map(|w| match (w.ok, w.err) {
            (_, Some(err)) => Err(err),
            (Some(ok), None) => Ok(ok),
            (None, None) => Ok(null()),
        })
        .collect();
    answers.resize_with(asked.max(answers.len()), || Err("no answer".into()));
    answers.truncate(asked);
    (answers, rejection)
}

#[derive(Default)]
struct Exchange {
    asked: Vec<Call>,
    answers: Option<Vec<Answer>>,
    /// The rejection of `next` that came with the last answers.
    rejection: Option<Rejection>,
}

/// The hook's side of the exchange.
#[derive(Clone, Default)]
pub struct Host {
    exchange: Rc<RefCell<Exchange>>,
}

impl Host {
    /// Asks for several calls at once (the shim runs them together).
    pub fn ask(&self, calls: Vec<Call>) -> Ask {
        Ask { host: self.clone(), calls: Some(calls) }
    }

    pub async fn call(&self, call: Call) -> Answer {
        self.ask(vec![call]).await.into_iter().next().unwrap_or_else(|| Err("no answer".into()))
    }

    /// Whether the answers just received carried `next`'s rejection (a
    /// [`Call::NextResult`]'s), and what it was.
    pub fn rejection(&self) -> Option<Rejection> {
        self.exchange.borrow().rejection.clone()
    }
}

/// A pending batch of calls.
pub struct Ask {
    host: Host,
    calls: Option<Vec<Call>>,
}

impl Future for Ask {
    type Output = Vec<Answer>;
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Vec<Answer>> {
        if let Some(calls) = self.calls.take() {
            self.host.exchange.borrow_mut().asked = calls;
            return Poll::Pending;
        }
        match self.host.exchange.borrow_mut().answers.take() {
            Some(answers) => Poll::Ready(answers),
            None => Poll::Pending,
        }
    }
}

/// Where a hook stands after a step.
#[derive(Debug)]
pub enum Step<T> {
    /// Perform these and call back with the answers, in order.
    Ask(Vec<Call>),
    Done(T),
    /// Waiting, with nothing asked: no answer can ever resume it. A bug in a
    /// hook; the core answers `stuck` and the shim lets the engine's result through.
    AskedNothing,
}

/// A running hook.
pub struct Machine<T> {
    future: Pin<Box<dyn Future<Output = T>>>,
    host: Host,
    asked: usize,
}

impl<T: 'static> Machine<T> {
    pub fn new<F, Fut>(hook: F) -> Self
    where
        F: FnOnce(Host) -> Fut,
        Fut: Future<Output = T> + 'static,
    {
        let host = Host::default();
        Machine { future: Box::pin(hook(host.clone())), host, asked: 0 }
    }

    /// Runs the hook to its next call, with the answers to the last ones.
    pub fn step(&mut self, answers: Option<Vec<Answer>>) -> Step<T> {
        self.step_with(answers, None)
    }

    /// `step`, with the rejection of `next` the answers carried ([`parse_wire`]).
    pub fn step_with(&mut self, answers: Option<Vec<Answer>>, rejection: Option<Rejection>) -> Step<T> {
        if let Some(mut answers) = answers {
            answers.resize_with(self.asked, || Err("no answer".into()));
            let mut exchange = self.host.exchange.borrow_mut();
            exchange.answers = Some(answers);
            exchange.rejection = rejection;
        }
        let mut cx = Context::from_waker(Waker::noop());
        match self.future.as_mut().poll(&mut cx) {
            Poll::Ready(done) => Step::Done(done),
            Poll::Pending => {
                let asked = std::mem::take(&mut self.host.exchange.borrow_mut().asked);
                self.asked = asked.len();
                if asked.is_empty() {
                    Step::AskedNothing
                } else {
                    Step::Ask(asked)
                }
            }
        }
    }

    pub fn asked(&self) -> usize {
        self.asked
    }
}

/// Reads an answer's value as `T`, or says why not.
pub fn value<T: for<'de> Deserialize<'de>>(answer: &Answer) -> Result<T, String> {
    match answer {
        Ok(raw) => serde_json::from_str(raw.get()).map_err(|e| e.to_string()),
        Err(e) => Err(e.clone()),
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

/// The recall tool's search: the files to read, and the query to run on them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Search {
    pub paths: Vec<String>,
    pub query: recall_tool::Query,
    /// Scope `project`: the recall module's walk to run (`paths` is then
    /// empty and `query` unused).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<Project>,
}

/// A project recall: the recall module walks this project's earlier sessions
/// (`recall/src/walk.rs`) from the tool's `input` as the model gave it and this
/// session's history folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Project {
    pub input: String,
    #[serde(rename = "historyDir")]
    pub history_dir: String,
}

/// One file of a project recall, as the recall module's walk names it for the shim to read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    /// `claude`, `codex`, `opencode-prompts` or `summary`.
    pub kind: &'static str,
    pub session: String,
    pub path: String,
    #[serde(rename = "mtimeMs")]
    pub mtime_ms: f64,
    pub size: u64,
    pub reads: Vec<Range>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Range {
    pub offset: u64,
    pub length: u64,
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
    fn short_or_garbled_answers_are_errors_not_hangs() {
        assert_eq!(parse_answers("garbage", 2).len(), 2);
        assert!(parse_answers("[]", 1)[0].is_err());
        let a = parse_answers("[{}]", 1);
        assert_eq!(a[0].as_ref().unwrap().get(), "null");
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
