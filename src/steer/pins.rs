//! Pins: texts the person keeps word for word after every compaction of the
//! session (`/pin <text>`), until they take them back (`/unpin N`). Kept
//! redacted in the session's history folder (`.pins.json`), so a resumed
//! process and a rebuilt instance have them; given to the model with the
//! person's kept words, outside that budget but bounded by their own
//! ([`MAX_TOKENS`]); left out of a context that already holds one word for
//! word (a message the engine kept, one of the person's kept words).

use crate::compaction::verbatim::CHARS_PER_TOKEN;
use crate::text;

/// All pins together, in tokens (about 4 characters each): past it a pin is refused.
pub const MAX_TOKENS: usize = 2000;
/// Where the pins are kept in the history folder: hidden, so the pointer's
/// `rg` finds a pinned text in the history and the block, not a third time.
pub const FILE: &str = ".pins.json";

const OPEN: &str = "<user-pinned>";
const CLOSE: &str = "</user-pinned>";
const INTRO: &str = "Texts the user pinned (/pin), word for word, kept after every compaction until unpinned: their standing notes and instructions, not a new request.";

/// A text's size as the budgets count it.
pub fn tokens(s: &str) -> usize {
    (text::len16(s) as f64 / CHARS_PER_TOKEN).ceil() as usize
}

pub fn total(pins: &[String]) -> usize {
    pins.iter().map(|p| tokens(p)).sum()
}

/// The pins as the file keeps them; anything unreadable is none.
pub fn parse(json: &str) -> Vec<String> {
    let mut pins = serde_json::from_str::<Vec<String>>(json).unwrap_or_default();
    pins.retain(|p| !text::trim(p).is_empty());
    pins
}

/// The file's text: one pin a line.
pub fn to_json(pins: &[String]) -> String {
    let mut out = String::from("[");
    for (i, p) in pins.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&serde_json::to_string(p).unwrap_or_default());
    }
    out.push_str("\n]\n");
    out
}

/// Why a pin was not added.
#[derive(Debug, Clone, PartialEq)]
pub enum Refused {
    /// Over [`MAX_TOKENS`] with the others: its size and what the others use.
    TooLong { tokens: usize, used: usize },
    /// The same text is pinned already (its number).
    Already(usize),
}

/// Adds `text` (already redacted) as the last pin; answers its number.
pub fn add(pins: &mut Vec<String>, text: &str) -> Result<usize, Refused> {
    let text = text::trim(text).to_owned();
    if let Some(i) = pins.iter().position(|p| *p == text) {
        return Err(Refused::Already(i + 1));
    }
    let used = total(pins);
    let size = tokens(&text);
    if used + size > MAX_TOKENS {
        return Err(Refused::TooLong { tokens: size, used });
    }
    pins.push(text);
    Ok(pins.len())
}

/// What `/unpin` takes out: the pin numbered `arg` (from 1).
pub fn remove(pins: &mut Vec<String>, arg: &str) -> Result<Vec<String>, String> {
    if pins.is_empty() {
        return Err("there are no pins in this session".into());
    }
    match text::trim(arg).trim_start_matches('#').parse::<usize>() {
        Ok(n) if (1..=pins.len()).contains(&n) => Ok(vec![pins.remove(n - 1)]),
        _ => Err(format!("give the number of a pin, from 1 to {} (/pin lists them)", pins.len())),
    }
}

/// `/pin <text>`'s answer once the pin is kept: its number and size, and
/// whether redaction changed it.
pub fn added(n: usize, pins: &[String], redacted: bool) -> String {
    let pin = pins.get(n.wrapping_sub(1)).map_or("", String::as_str);
    let redacted = if redacted { " Credentials in it are kept as [REDACTED:<kind>]." } else { "" };
    format!(
        "pinned as pin {n} (\"{}\", {} tokens; {} of {MAX_TOKENS} in all): kept word for word after every compaction.{redacted} /unpin {n} removes it.",
        line(pin),
        tokens(pin),
        total(pins)
    )
}

/// Why a pin was refused, for the person.
pub fn refused(why: &Refused) -> String {
    match why {
        Refused::TooLong { tokens, used } => format!(
            "not pinned: {tokens} tokens, past the {MAX_TOKENS} all pins may hold ({used} used). /unpin one or pin less."
        ),
        Refused::Already(n) => format!("already pinned as pin {n}."),
    }
}

/// `/unpin`'s answer: what was taken out, and what is left.
pub fn removed(gone: &[String], left: usize) -> String {
    let mut out = String::from("unpinned \"");
    for one in gone {
        out.push_str(&line(one));
    }
    out.push_str("\"; ");
    out.push_str(&crate::steer::receipt::plural(left, "pin", "pins"));
    out.push_str(" left. The model keeps what it has of it until the next compaction.");
    out
}

/// Pins need the session's history folder, which needs a home folder.
pub const NO_HOME: &str = "not done: pins live in the session's history folder, and there is no home folder (HOME).";

/// What a `/pin` or `/unpin` did to the list, beside its answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Nothing: a listing, a refusal, a bad argument.
    None,
    Added,
    /// These pins were taken out.
    Removed(Vec<String>),
}

/// `/pin` (`args` empty: the listing) on `pins`; `clean` redacts.
pub fn pin(pins: &mut Vec<String>, args: &str, clean: &dyn Fn(&str) -> String) -> (String, Edit) {
    if args.is_empty() {
        return (listing(pins), Edit::None);
    }
    let text = clean(args);
    match add(pins, &text) {
        Ok(n) => (added(n, pins, text != args), Edit::Added),
        Err(why) => (refused(&why), Edit::None),
    }
}

/// `/unpin N` or `/unpin all` on `pins`.
pub fn unpin(pins: &mut Vec<String>, args: &str) -> (String, Edit) {
    match remove(pins, args) {
        Ok(gone) => (removed(&gone, pins.len()), Edit::Removed(gone)),
        Err(why) => (format!("nothing unpinned: {why}."), Edit::None),
    }
}

/// One pin on one line, for the person: its start.
pub fn line(pin: &str) -> String {
    let one = text::collapse_space(pin);
    if text::len16(&one) > 100 {
        format!("{}…", text::head(&one, 99))
    } else {
        one
    }
}

/// `/pin` alone: the pins, numbered.
pub fn listing(pins: &[String]) -> String {
    if pins.is_empty() {
        return "no pins. /pin <text> keeps a text word for word after every compaction.".into();
    }
    let mut out = format!("{} pinned ({} of {MAX_TOKENS} tokens):", pins.len(), total(pins));
    for (i, p) in pins.iter().enumerate() {
        out.push_str("\n  ");
        out.push_str(&(i + 1).to_string());
        out.push_str(". ");
        out.push_str(&line(p));
    }
    out.push_str("\n/unpin N removes one.");
    out
}

/// Which pins a context gets: those it does not already hold word for word
/// (`context`: the messages the engine kept, the person's kept words). The
/// second value counts the pins left out for that reason.
pub fn shown(pins: &[String], context: &[&str]) -> (Vec<String>, usize) {
    let mut flat = Vec::new();
    for t in context {
        flat.push(text::collapse_space(t));
    }
    let mut shown = Vec::new();
    for p in pins {
        let one = text::collapse_space(p);
        if !flat.iter().any(|c| c.contains(one.as_str())) {
            shown.push(p.clone());
        }
    }
    let held = pins.len() - shown.len();
    (shown, held)
}

/// The pins' part of the block with the person's words, or `None` for none.
pub fn render(pins: &[String]) -> Option<String> {
    if pins.is_empty() {
        return None;
    }
    let mut out = format!("{OPEN}\n{INTRO}");
    for (i, p) in pins.iter().enumerate() {
        out.push_str(&format!("\n--- pin {} ---\n{p}", i + 1));
    }
    out.push_str(&format!("\n{CLOSE}"));
    Some(out)
}

/// The block with the person's words: the pins first, then the verbatim block.
pub fn with_words(pins: &[String], words: Option<String>) -> Option<String> {
    match (render(pins), words) {
        (Some(p), Some(w)) => Some(format!("{p}\n\n{w}")),
        (p, w) => p.or(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_are_added_within_the_bound_and_never_twice() {
        let mut pins = Vec::new();
        assert_eq!(add(&mut pins, "  use pnpm, never npm \n"), Ok(1));
        assert_eq!(add(&mut pins, "use pnpm, never npm"), Err(Refused::Already(1)));
        let big = "x".repeat((MAX_TOKENS - 4) * 4);
        assert_eq!(add(&mut pins, &big), Err(Refused::TooLong { tokens: MAX_TOKENS - 4, used: 5 }));
        let fits = "y".repeat((MAX_TOKENS - 5) * 4);
        assert_eq!(add(&mut pins, &fits), Ok(2));
        assert_eq!(total(&pins), MAX_TOKENS);
        assert_eq!(add(&mut pins, "z"), Err(Refused::TooLong { tokens: 1, used: MAX_TOKENS }));
    }

    #[test]
    fn unpin_takes_a_number_and_explains_the_rest() {
        let mut pins: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        assert_eq!(remove(&mut pins, " #3 "), Ok(vec!["c".into()]));
        assert_eq!(remove(&mut pins, "1"), Ok(vec!["a".into()]));
        assert_eq!(pins, vec!["b", "d"]);
        assert!(remove(&mut pins, "3").unwrap_err().contains("from 1 to 2"));
        assert!(remove(&mut pins, "").unwrap_err().contains("give the number"));
        assert!(remove(&mut pins, "two").unwrap_err().contains("give the number"));
        assert!(remove(&mut pins, "all").unwrap_err().contains("from 1 to 2"));
        assert_eq!(remove(&mut pins, "2"), Ok(vec!["d".into()]));
        assert_eq!(remove(&mut pins, "1"), Ok(vec!["b".into()]));
        assert!(remove(&mut pins, "1").unwrap_err().contains("no pins"));
    }

    #[test]
    fn a_context_that_holds_a_pin_word_for_word_does_not_get_it_again() {
        let pins: Vec<String> = ["keep the API stable", "run  cargo fmt\nfirst"].map(String::from).to_vec();
        let (shown_pins, held) = shown(&pins, &["Please: keep the API stable, thanks", "other"]);
        assert_eq!((shown_pins, held), (vec!["run  cargo fmt\nfirst".to_owned()], 1));
        // Spacing and line breaks aside.
        let (shown_pins, held) = shown(&pins, &["run cargo fmt first"]);
        assert_eq!((shown_pins.len(), held), (1, 1));
        assert_eq!(shown(&pins, &[]).0.len(), 2);
    }

    #[test]
    fn the_block_and_the_file() {
        assert_eq!(render(&[]), None);
        let b = with_words(&["one".into(), "two".into()], Some("<user-messages-verbatim>…".into())).unwrap();
        assert!(b.starts_with("<user-pinned>\nTexts the user pinned"), "{b}");
        assert!(b.contains("--- pin 1 ---\none\n--- pin 2 ---\ntwo\n</user-pinned>\n\n<user-messages-verbatim>"));
        assert_eq!(with_words(&[], Some("w".into())).as_deref(), Some("w"));
        assert_eq!(with_words(&[], None), None);
        let pins: Vec<String> = vec!["a \"quoted\"\nline".into(), "b".into()];
        assert_eq!(parse(&to_json(&pins)), pins);
        assert_eq!(parse("garbage"), Vec::<String>::new());
        assert_eq!(parse(r#"["", " ", "x"]"#), vec!["x".to_owned()]);
        assert!(listing(&pins).starts_with("2 pinned (5 of 2000 tokens)"));
        assert!(listing(&pins).contains("\n  1. a \"quoted\" line\n  2. b\n/unpin N"));
        assert!(listing(&[]).starts_with("no pins"));
        assert_eq!(line(&"w".repeat(300)).chars().count(), 100);
    }
}
