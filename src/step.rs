//! The step protocol: how a sans-IO machine of this crate or of the recall
//! module talks to the shim, whatever calls it makes.
//!
//! A machine is an `async fn` over a [`Host`]; awaiting a host call suspends it
//! and hands the shim the calls to perform, each with the [`Wait`] the shim
//! gives it. The shim performs exactly those, passes the answers back (`{ok}`,
//! `{err}`, or `{text}` for a text it hands beside the JSON), and the machine
//! goes on, until it ends. No I/O and no clock here, so a native test can play
//! the host. The hooks' calls are `hooks::protocol::Call`; the recall module
//! has its own, so neither carries the other's serializers.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

/// How long the shim waits for a call's answer before it answers an error in
/// its place. Decided here: the shim has no bounds of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// Not a `$` call the shim bounds: `next`, a timer, a queued command.
    Untimed,
    /// This many ms from the call's start.
    Within(u64),
    /// Every call naming `deadline` in one run of the machine shares one
    /// timer of `ms`, started with the first of them: a bound on a whole walk
    /// or on all the reads of a search, however many steps they take.
    Shared { deadline: &'static str, ms: u64 },
}

/// A call a machine asks the shim for.
pub trait ShimCall: Serialize {
    fn wait(&self) -> Wait;
    /// A text answer comes beside the answers' JSON, as one string: a file's
    /// text is neither escaped into JSON nor parsed back out of it.
    fn text_beside(&self) -> bool {
        false
    }
}

/// A call as the shim gets it: its own fields, then `waitMs`, `deadline` and
/// `beside` as its [`ShimCall`] says.
#[derive(Serialize)]
pub struct OnWire<'a, C> {
    #[serde(flatten)]
    call: &'a C,
    #[serde(rename = "waitMs", skip_serializing_if = "Option::is_none")]
    wait_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    beside: bool,
}

/// The calls of one step, ready to serialize.
pub fn on_wire<C: ShimCall>(calls: &[C]) -> Vec<OnWire<'_, C>> {
    calls
        .iter()
        .map(|call| {
            let (wait_ms, deadline) = match call.wait() {
                Wait::Untimed => (None, None),
                Wait::Within(ms) => (Some(ms), None),
                Wait::Shared { deadline, ms } => (Some(ms), Some(deadline)),
            };
            OnWire { call, wait_ms, deadline, beside: call.text_beside() }
        })
        .collect()
}

/// What a call came back with: its value as JSON text, or the error's message.
pub type Answer = Result<Box<RawValue>, String>;

/// An answer as the shim sends it: `{ "ok": value }`, `{ "err": "message" }`,
/// or `{ "text": n }`, a text of `n` UTF-8 bytes handed beside the JSON (the
/// texts of one step one after the other, in the order of their calls).
#[derive(Debug, Deserialize)]
struct WireAnswer {
    #[serde(default)]
    ok: Option<Box<RawValue>>,
    #[serde(default)]
    err: Option<String>,
    #[serde(default)]
    text: Option<usize>,
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

/// One step's answers as read from the shim: one per call asked, the
/// rejection of `next` one of them carried (out of band: only the shim's
/// `rejected: true` says an error was `next`'s own), and the texts handed
/// beside, by the call they answer.
#[derive(Debug, Default)]
pub struct Answers {
    pub answers: Vec<Answer>,
    pub rejection: Option<Rejection>,
    pub texts: Vec<Option<String>>,
}

fn null() -> Box<RawValue> {
    RawValue::from_string("null".into()).unwrap_or_else(|_| Box::<RawValue>::default())
}

/// Reads the shim's answers to `asked` calls, and the texts handed beside
/// them (UTF-8, one after the other). `undefined` (a `write`'s) comes as
/// `{}`: null. Unreadable or missing answers are errors, one per call asked,
/// so nothing waits forever.
pub fn read_answers(json: &str, asked: usize, beside: Vec<u8>) -> Answers {
    let wire: Vec<WireAnswer> = serde_json::from_str(&crate::text::well_formed_json(json)).unwrap_or_default();
    let rejection = wire.iter().take(asked).find(|w| w.rejected).map(|w| Rejection {
        message: w.err.clone().unwrap_or_default(),
        aborted: w.aborted,
    });
    let wire: Vec<WireAnswer> = wire.into_iter().take(asked).collect();
    let mut texts = split_texts(&wire, beside);
    texts.resize_with(asked, || None);
    let mut answers: Vec<Answer> = Vec::with_capacity(asked);
    for w in wire {
        answers.push(match (w.ok, w.err, w.text) {
            (_, Some(err), _) => Err(err),
            (Some(ok), None, _) => Ok(ok),
            (None, None, _) => Ok(null()),
        });
    }
    answers.resize_with(asked, || Err("no answer".into()));
    Answers { answers, rejection, texts }
}

/// The texts beside the answers, by call. One that is all of `beside` is
/// moved, not copied: a read a step is the common case.
fn split_texts(wire: &[WireAnswer], beside: Vec<u8>) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = wire.iter().map(|_| None).collect();
    let with_text: Vec<(usize, usize)> = wire.iter().enumerate().filter_map(|(i, w)| Some((i, w.text?))).collect();
    if let [(i, n)] = with_text[..] {
        if n == beside.len() {
            if let Some(slot) = out.get_mut(i) {
                *slot = Some(String::from_utf8(beside).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
            }
            return out;
        }
    }
    let mut at = 0;
    for (i, n) in with_text {
        let Some(bytes) = beside.get(at..at + n) else { break };
        at += n;
        if let Some(slot) = out.get_mut(i) {
            *slot = Some(String::from_utf8_lossy(bytes).into_owned());
        }
    }
    out
}

/// The answers alone (see [`read_answers`]).
pub fn parse_answers(json: &str, asked: usize) -> Vec<Answer> {
    read_answers(json, asked, Vec::new()).answers
}

/// The answers and the rejection of `next` they carried (see [`read_answers`]).
pub fn parse_wire(json: &str, asked: usize) -> (Vec<Answer>, Option<Rejection>) {
    let a = read_answers(json, asked, Vec::new());
    (a.answers, a.rejection)
}

struct Exchange<C> {
    asked: Vec<C>,
    answers: Option<Vec<Answer>>,
    /// The rejection of `next` that came with the last answers.
    rejection: Option<Rejection>,
    /// The texts that came beside the last answers, by call.
    texts: Vec<Option<String>>,
}

impl<C> Default for Exchange<C> {
    fn default() -> Self {
        Exchange { asked: Vec::new(), answers: None, rejection: None, texts: Vec::new() }
    }
}

/// The machine's side of the exchange.
pub struct Host<C> {
    exchange: Rc<RefCell<Exchange<C>>>,
}

impl<C> Clone for Host<C> {
    fn clone(&self) -> Self {
        Host { exchange: self.exchange.clone() }
    }
}

impl<C> Default for Host<C> {
    fn default() -> Self {
        Host { exchange: Rc::default() }
    }
}

impl<C> Host<C> {
    /// Asks for several calls at once (the shim runs them together).
    pub fn ask(&self, calls: Vec<C>) -> Ask<C> {
        Ask { host: self.clone(), calls: Some(calls) }
    }

    pub async fn call(&self, call: C) -> Answer {
        self.ask(vec![call]).await.into_iter().next().unwrap_or_else(|| Err("no answer".into()))
    }

    /// Whether the answers just received carried `next`'s rejection (a
    /// `nextResult`'s), and what it was.
    pub fn rejection(&self) -> Option<Rejection> {
        self.exchange.borrow().rejection.clone()
    }

    /// The text handed beside the answer to call `i` of the last ask, once.
    pub fn text(&self, i: usize) -> Option<String> {
        self.exchange.borrow_mut().texts.get_mut(i).and_then(Option::take)
    }
}

/// A pending batch of calls.
pub struct Ask<C> {
    host: Host<C>,
    calls: Option<Vec<C>>,
}

// An `Ask` holds no self-reference: moving it is fine whatever `C` is.
impl<C> Unpin for Ask<C> {}

impl<C> Future for Ask<C> {
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

/// Where a machine stands after a step.
#[derive(Debug)]
pub enum Step<C, T> {
    /// Perform these and call back with the answers, in order.
    Ask(Vec<C>),
    Done(T),
    /// Waiting, with nothing asked: no answer can ever resume it. A bug in the
    /// machine; its driver answers that it stopped short.
    Stalled,
}

/// A running machine.
pub struct Machine<C, T> {
    future: Pin<Box<dyn Future<Output = T>>>,
    host: Host<C>,
    asked: usize,
}

impl<C: 'static, T: 'static> Machine<C, T> {
    pub fn new<F, Fut>(machine: F) -> Self
    where
        F: FnOnce(Host<C>) -> Fut,
        Fut: Future<Output = T> + 'static,
    {
        let host = Host::default();
        Machine { future: Box::pin(machine(host.clone())), host, asked: 0 }
    }

    /// Runs the machine to its next calls, with the answers to the last ones.
    pub fn step(&mut self, answers: Option<Vec<Answer>>) -> Step<C, T> {
        self.step_with(answers, None)
    }

    /// `step`, with the rejection of `next` the answers carried ([`parse_wire`]).
    pub fn step_with(&mut self, answers: Option<Vec<Answer>>, rejection: Option<Rejection>) -> Step<C, T> {
        let answers = answers.map(|answers| Answers { answers, rejection, texts: Vec::new() });
        self.resume(answers)
    }

    /// Runs the machine on, with everything the shim answered ([`read_answers`]).
    pub fn resume(&mut self, answers: Option<Answers>) -> Step<C, T> {
        if let Some(mut a) = answers {
            a.answers.resize_with(self.asked, || Err("no answer".into()));
            let mut exchange = self.host.exchange.borrow_mut();
            exchange.answers = Some(a.answers);
            exchange.rejection = a.rejection;
            exchange.texts = a.texts;
        }
        let mut cx = Context::from_waker(Waker::noop());
        match self.future.as_mut().poll(&mut cx) {
            Poll::Ready(done) => Step::Done(done),
            Poll::Pending => {
                let asked = std::mem::take(&mut self.host.exchange.borrow_mut().asked);
                self.asked = asked.len();
                if asked.is_empty() {
                    Step::Stalled
                } else {
                    Step::Ask(asked)
                }
            }
        }
    }

    /// How many calls the last step asked.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Serialize)]
    #[serde(tag = "op", rename_all = "camelCase")]
    enum Probe {
        Now,
        Read { path: String },
    }

    impl ShimCall for Probe {
        fn wait(&self) -> Wait {
            match self {
                Probe::Now => Wait::Within(7),
                Probe::Read { .. } => Wait::Shared { deadline: "reads", ms: 50 },
            }
        }
        fn text_beside(&self) -> bool {
            matches!(self, Probe::Read { .. })
        }
    }

    #[test]
    fn calls_carry_their_wait_and_whether_their_text_comes_beside() {
        let calls = [Probe::Now, Probe::Read { path: "/a".into() }];
        let json = serde_json::to_string(&on_wire(&calls)).unwrap();
        assert_eq!(json, r#"[{"op":"now","waitMs":7},{"op":"read","path":"/a","waitMs":50,"deadline":"reads","beside":true}]"#);
    }

    #[test]
    fn a_machine_asks_and_resumes_with_texts_beside() {
        let mut m = Machine::new(|host: Host<Probe>| async move {
            let a = host.call(Probe::Now).await;
            let both = host.ask(vec![Probe::Read { path: "/a".into() }, Probe::Read { path: "/b".into() }]).await;
            (value::<f64>(&a), both.len(), host.text(0), host.text(1), host.text(0), value::<String>(&both[1]))
        });
        assert!(matches!(m.step(None), Step::Ask(ref c) if c == &vec![Probe::Now]));
        let Step::Ask(calls) = m.resume(Some(read_answers(r#"[{"ok":5}]"#, 1, Vec::new()))) else { panic!() };
        assert_eq!(calls.len(), 2);
        let answers = read_answers(r#"[{"text":8},{"err":"EACCES"}]"#, 2, b"the file".to_vec());
        let Step::Done((now, n, a, b, again, err)) = m.resume(Some(answers)) else { panic!() };
        assert_eq!((now, n), (Ok(5.0), 2));
        assert_eq!((a.as_deref(), b, again), (Some("the file"), None, None), "a text is taken once");
        assert_eq!(err, Err("EACCES".into()));
    }

    #[test]
    fn short_or_garbled_answers_are_errors_not_hangs() {
        assert_eq!(parse_answers("garbage", 2).len(), 2);
        assert!(parse_answers("[]", 1)[0].is_err());
        let a = parse_answers("[{}]", 1);
        assert_eq!(a[0].as_ref().unwrap().get(), "null");
        // A text longer than what came beside it is an answer without a text.
        let a = read_answers(r#"[{"text":3}]"#, 1, Vec::new());
        assert_eq!((a.answers.len(), a.texts[0].is_none()), (1, true));
        // Several texts, one after the other; bytes that are no UTF-8 are U+FFFD.
        let a = read_answers(r#"[{"text":2},{"ok":1},{"text":3}]"#, 3, b"h\xffabc".to_vec());
        assert_eq!(a.texts, [Some("h\u{fffd}".to_owned()), None, Some("abc".to_owned())]);
    }

    #[test]
    fn a_machine_that_asks_nothing_says_so() {
        let mut m: Machine<Probe, ()> = Machine::new(|_host| std::future::pending());
        assert!(matches!(m.step(None), Step::Stalled));
    }
}
