//! The walk's `$` calls, one step at a time, as the core's step protocol has
//! them (`compact_plus::hooks::protocol`: `{"calls":[…]}` out, `[{"ok"}|{"err"}]`
//! back), with the four calls the walk makes written here: the core's own
//! `Call` would bring every call's serializer into this module.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use serde_json::{json, Value};

pub type Answer = Result<Value, String>;

/// `$.fs.list(path)`.
pub fn list(path: &str) -> Value {
    json!({ "op": "list", "path": path })
}

/// `$.fs.stat(path)`.
pub fn stat(path: &str) -> Value {
    json!({ "op": "stat", "path": path, "resolve": false })
}

/// `$.fs.read(path, { offset, length })`.
pub fn read_range(path: &str, offset: u64, length: u64) -> Value {
    json!({ "op": "read", "path": path, "offset": offset, "length": length })
}

/// `$.session.cwd()`.
pub fn cwd() -> Value {
    json!({ "op": "cwd" })
}

#[derive(Default)]
struct Exchange {
    asked: Vec<Value>,
    answers: Option<Vec<Answer>>,
}

#[derive(Clone, Default)]
pub struct Host {
    exchange: Rc<RefCell<Exchange>>,
}

impl Host {
    pub fn ask(&self, calls: Vec<Value>) -> Ask {
        Ask { host: self.clone(), calls: Some(calls) }
    }

    pub async fn call(&self, call: Value) -> Answer {
        self.ask(vec![call]).await.into_iter().next().unwrap_or_else(|| Err("no answer".into()))
    }
}

pub struct Ask {
    host: Host,
    calls: Option<Vec<Value>>,
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

/// The walk in progress.
pub struct Machine {
    future: Pin<Box<dyn Future<Output = String>>>,
    host: Host,
    asked: usize,
}

impl Machine {
    pub fn new<F, Fut>(walk: F) -> Self
    where
        F: FnOnce(Host) -> Fut,
        Fut: Future<Output = String> + 'static,
    {
        let host = Host::default();
        Machine { future: Box::pin(walk(host.clone())), host, asked: 0 }
    }

    /// Runs to the next calls (`Err`) or the end (`Ok`). `answers` is the JSON
    /// the shim sends back; one missing or unreadable is an error answer.
    pub fn step(&mut self, answers: Option<&str>) -> Result<String, Vec<Value>> {
        if let Some(json) = answers {
            let wire: Vec<Value> = serde_json::from_str(json).unwrap_or_default();
            let mut got: Vec<Answer> = wire
                .into_iter()
                .map(|w| match (w.get("ok"), w.get("err")) {
                    (_, Some(err)) => Err(err.as_str().unwrap_or("error").to_owned()),
                    (Some(ok), None) => Ok(ok.clone()),
                    (None, None) => Ok(Value::Null),
                })
                .collect();
            got.resize_with(self.asked.max(got.len()), || Err("no answer".into()));
            got.truncate(self.asked);
            self.host.exchange.borrow_mut().answers = Some(got);
        }
        let mut cx = Context::from_waker(Waker::noop());
        match self.future.as_mut().poll(&mut cx) {
            Poll::Ready(done) => Ok(done),
            Poll::Pending => {
                let asked = std::mem::take(&mut self.host.exchange.borrow_mut().asked);
                self.asked = asked.len();
                Err(asked)
            }
        }
    }
}
