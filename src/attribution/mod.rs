//! The summary checked against the source: what it says the person said, against what the
//! person said.
//!
//! A summary quotes the person ("the user asked …", its "All user messages" list) from memory:
//! it cuts messages, re-quotes them, rewords them, and now and then puts words in the person's
//! mouth or turns a "don't" into a "do". Each passage it attributes to the person
//! ([`passages`]) is compared with every message the person wrote in the conversation ([`said`]);
//! one that matches none of them, even loosely ([`matching`]: cut at `[…]` or an ellipsis,
//! re-quoted, re-cased, or reworded with most of the same words in one stretch of the message,
//! but never with a negation added or dropped), is flagged to the model in one line, with the
//! number of the nearest message (its `## [n]` in the history file). It promises:
//!
//! - deterministic and bounded: at most `passages::MAX_PASSAGES` passages, [`MAX_SAID`]
//!   messages of [`SAID_CHARS`] each, [`MAX_FLAGS`] lines;
//! - passages of the list that come before the one quoting the conversation's first message
//!   are not checked when no earlier summary is in the conversation: they are from before the
//!   messages the hook was given (a transcript that starts mid-session), and are counted apart;
//! - a quote of words the person gave when rejecting a tool call, or of a command they typed
//!   (`/model`), is the person's; an earlier summary in the conversation is read for the
//!   passages that quote it word for word (it paraphrases too), and never anchors the list.
//!
//! Quotes in prose without a cue ("I proposed: …") are the summary's own and not checked; nor
//! is a paraphrase without quotes ("the user asked what triggers GC", a list item "Asked about
//! X").

mod matching;
mod passages;
// Native only: the real summaries are files.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod real_summaries;

pub use matching::LOOSE;
pub use passages::{passages, Passage, PassagePlace};

use crate::compaction::verbatim;
use crate::engine::rows;
use crate::message::Messages;
use crate::text;
use matching::{fragments, score, Score, Text};

/// At most this many of the person's messages are compared, the newest.
pub const MAX_SAID: usize = 2000;
/// Each message is compared by its first this many UTF-16 units.
pub const SAID_CHARS: usize = 20_000;
/// At most this many flags are shown; the rest are counted.
pub const MAX_FLAGS: usize = 8;
/// A list item quoting the conversation's first message anchors the list when this share of its
/// content words is in that message (its sense aside: a turned quote still anchors it).
const ANCHOR: f64 = 0.6;

/// The words a person's rejection of a tool call carries (the engine's result text).
const REJECTED: &str = "To tell you how to proceed, the user said:\n";

/// Where something the person may be quoted from comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The person's own message, a command they typed, or their words rejecting a tool call.
    Person,
    /// An earlier summary in the conversation: passages may quote what it quoted.
    Earlier,
}

/// Something the person said, by the number of the message it is in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    pub number: usize,
    pub text: String,
    pub origin: Origin,
}

/// What the person said in a conversation, oldest first, at most [`MAX_SAID`] (the newest).
pub fn said(messages: &Messages) -> Vec<Said> {
    let mut out = Vec::new();
    for (number, m) in messages.iter().enumerate() {
        let Some(m) = m else { continue };
        let cap = |s: &str| text::head(s, SAID_CHARS).to_owned();
        if m.is_user() {
            let t = text::trim(m.text());
            if t.starts_with(crate::engine::summary_row::HEAD) {
                out.push(Said { number, text: cap(t), origin: Origin::Earlier });
            } else if let Some(command) = typed_command(t) {
                out.push(Said { number, text: command, origin: Origin::Person });
            } else {
                let person = verbatim::person_text(t);
                if !person.is_empty() {
                    out.push(Said { number, text: cap(&person), origin: Origin::Person });
                }
            }
        }
        for u in &m.tool_uses.0 {
            let Some(words) = u.text.as_deref().and_then(|r| r.split_once(REJECTED)).map(|(_, w)| text::trim(w)) else { continue };
            if !words.is_empty() {
                out.push(Said { number, text: cap(words), origin: Origin::Person });
            }
        }
    }
    let cut = out.len().saturating_sub(MAX_SAID);
    out.drain(..cut);
    out
}

/// `<command-name>/model</command-name>…<command-args>x</command-args>` → `/model x`.
fn typed_command(t: &str) -> Option<String> {
    let between = |open: &str, close: &str| t.split_once(open).and_then(|(_, r)| r.split_once(close)).map(|(v, _)| text::trim(v));
    let (name_open, name_close) = rows::tags(rows::COMMAND_NAME);
    let (args_open, args_close) = rows::tags(rows::COMMAND_ARGS);
    let name = between(&name_open, &name_close)?;
    let args = between(&args_open, &args_close).unwrap_or("");
    Some(if args.is_empty() { name.to_owned() } else { format!("{name} {args}") })
}

/// A passage that matches none of the person's messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Flag {
    pub passage: String,
    /// The nearest message: its number and its text.
    pub nearest: Option<(usize, String)>,
}

/// What a check found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// Passages compared with the person's messages.
    pub passages: usize,
    /// List items before the conversation's first message, not checked.
    pub before: usize,
    pub flags: Vec<Flag>,
}

/// Every passage the summary attributes to the person, against what the person said.
pub fn check(summary: &str, said: &[Said]) -> Checked {
    let texts: Vec<Text> = said.iter().map(|s| Text::new(&s.text)).collect();
    let first = said.iter().position(|s| s.origin == Origin::Person);
    let mut scored = Vec::new();
    for p in passages(summary) {
        let pt = Text::new(&p.text);
        let frags = fragments(&pt.folded);
        let scores: Vec<Score> = texts.iter().map(|t| score(&pt, &frags, t)).collect();
        scored.push((p, scores));
    }
    // The list item that quotes the first message: what the list has before it is older than
    // the conversation, unless an earlier summary in it holds what came before.
    let earlier = said.iter().any(|s| s.origin == Origin::Earlier);
    let anchor = first.filter(|_| !earlier).and_then(|f| {
        scored
            .iter()
            .position(|(p, s)| p.place == PassagePlace::List && s.get(f).is_some_and(|x| x.exact || x.words >= ANCHOR))
    });
    let mut out = Checked::default();
    let mut seen: Vec<String> = Vec::new();
    for (i, (p, scores)) in scored.into_iter().enumerate() {
        if p.place == PassagePlace::List && anchor.is_some_and(|a| i < a) {
            out.before += 1;
            continue;
        }
        out.passages += 1;
        // An earlier summary paraphrases too: only word for word does a passage match it.
        let matched = said.iter().zip(&scores).any(|(s, x)| if s.origin == Origin::Person { x.matches() } else { x.exact });
        if matched {
            continue;
        }
        let folded = matching::fold(&p.text).trim_end_matches(['.', '!', '?', ' ']).to_owned();
        if seen.contains(&folded) {
            continue;
        }
        seen.push(folded);
        // The nearest of the person's messages: word for word first, then the most words.
        let mut nearest: Option<(usize, String)> = None;
        let mut best = -1.0;
        for (s, x) in said.iter().zip(&scores) {
            if s.origin == Origin::Person && x.weight() > best {
                best = x.weight();
                nearest = Some((s.number, s.text.clone()));
            }
        }
        out.flags.push(Flag { passage: p.text, nearest });
    }
    out
}

/// The first line of the flags (the benchmark finds them by it).
pub const HEAD: &str = "compact-plus: words the summary above gives the user that match none of the user's messages, even loosely; go by the user's own words (the history file has each message under its number):";
const PASSAGE_CHARS: usize = 160;
const NEAREST_CHARS: usize = 80;

/// The flags as the model reads them, one line each, or `None` when there are none. `clean`
/// redacts each quoted text before it is cut (a credential cut in two is not known as one).
pub fn render(flags: &[Flag], clean: &dyn Fn(&str) -> String) -> Option<String> {
    if flags.is_empty() {
        return None;
    }
    let mut out = String::from(HEAD);
    for f in flags.iter().take(MAX_FLAGS) {
        let passage = text::one_line(&clean(&f.passage), PASSAGE_CHARS);
        let nearest = match &f.nearest {
            Some((n, t)) => format!("nearest: [{n}] \"{}\"", text::one_line(&clean(t), NEAREST_CHARS)),
            None => "no message of the user's".into(),
        };
        out.push_str(&format!("\n- \"{passage}\" ({nearest})"));
    }
    if flags.len() > MAX_FLAGS {
        out.push_str(&format!("\n- … and {} more", flags.len() - MAX_FLAGS));
    }
    Some(out)
}


#[cfg(test)]
mod tests;
