//! The one pass (see "One pass, no regex engine" in [`crate::redact`]): a table of the byte
//! pairs a trigger starts with, and the scan that runs a reader only where one may start,
//! writing `[REDACTED:<kind>]` over what it matched.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::format::{Reveal, Standing};
use super::formats::formats;
use super::directive::glued_key_at;
use super::hit::{Boundary, Hit};
use super::rules::{Rule, AFTER_FORMATS, BEFORE_FORMATS};
use super::shape::literal_at;
use super::tokens::token_after;

static MATCHER: OnceLock<Option<Matcher>> = OnceLock::new();

pub(crate) fn matcher() -> Option<&'static Matcher> {
    MATCHER.get_or_init(Matcher::build).as_ref()
}

/// What reads at a trigger.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Reading {
    Rule(Rule),
    /// A row of the provider table, by index.
    Format(usize),
}

/// One leading literal of one source. Triggers are made in priority order (the rules
/// before the table, its rows, the rules after it), and each bucket keeps that order.
#[derive(Clone, Copy)]
struct Trigger {
    literal: &'static [u8],
    any_case: bool,
    boundary: Boundary,
    source: Reading,
}

pub(crate) struct Matcher {
    /// Byte pair `(a << 8) | b` to a bucket number; 0 means nothing starts there.
    bucket_of: Vec<u16>,
    /// Quick reject on the first byte alone before looking at the pair.
    first_byte: [bool; 256],
    /// Bucket 0 is empty; triggers inside a bucket are in priority order.
    buckets: Vec<Vec<Trigger>>,
    /// Per bucket, what a byte pair must have around it before any trigger is tried.
    gates: Vec<Gate>,
}

/// A bucket's quick tests, together: the scan asks them of most byte pairs that begin a
/// trigger.
struct Gate {
    /// The bytes a trigger's third and fourth bytes may be (all, where a trigger is
    /// shorter): most byte pairs that begin a trigger begin ordinary words too (`git`
    /// against `github_pat_`, `create` against `credential`).
    third: [u64; 4],
    fourth: [u64; 4],
    /// The boundary all its triggers share, if they do: checked before any of them is
    /// tried (`NT` inside `CONTENT` starts no token).
    boundary: Option<Boundary>,
}

impl Matcher {
    fn build() -> Option<Matcher> {
        let mut triggers = Vec::new();
        let add_rules = |rules: &[Rule], triggers: &mut Vec<Trigger>| {
            for rule in rules {
                let spec = rule.spec();
                for literal in spec.triggers {
                    triggers.push(Trigger {
                        literal: literal.as_bytes(),
                        any_case: spec.any_case,
                        boundary: spec.boundary,
                        source: Reading::Rule(*rule),
                    });
                }
            }
        };
        add_rules(BEFORE_FORMATS, &mut triggers);
        for (index, format) in formats().iter().enumerate() {
            if format.standing != Standing::Alone {
                continue;
            }
            for prefix in format.prefixes() {
                // A prefix that is the middle of its token (`:AA`, `-us`) or a URL's path
                // (`hooks.slack.com/…`) may follow anything.
                let glued = format.lead.is_some()
                    || format.reveal == Reveal::Prefix
                    || !prefix
                        .bytes()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphanumeric());
                triggers.push(Trigger {
                    literal: prefix.as_bytes(),
                    any_case: format.any_case,
                    boundary: if glued { Boundary::Any } else { Boundary::Word },
                    source: Reading::Format(index),
                });
            }
        }
        add_rules(AFTER_FORMATS, &mut triggers);
        let mut bucket_of = vec![0u16; 1 << 16];
        let mut first_byte = [false; 256];
        let mut buckets: Vec<Vec<Trigger>> = vec![Vec::new()];
        for trigger in triggers {
            let [a, b, ..] = *trigger.literal else {
                return None;
            };
            let cases = |c: u8| {
                if trigger.any_case {
                    [c.to_ascii_lowercase(), c.to_ascii_uppercase()]
                } else {
                    [c, c]
                }
            };
            let mut slots: Vec<usize> = Vec::new();
            for x in cases(a) {
                for y in cases(b) {
                    let pair = (usize::from(x) << 8) | usize::from(y);
                    if !slots.contains(&pair) {
                        slots.push(pair);
                    }
                    *first_byte.get_mut(usize::from(x))? = true;
                }
            }
            for pair in slots {
                let slot = bucket_of.get_mut(pair)?;
                if *slot == 0 {
                    *slot = u16::try_from(buckets.len()).ok()?;
                    buckets.push(Vec::new());
                }
                buckets.get_mut(usize::from(*slot))?.push(trigger);
            }
        }
        // No sort: a bucket holds its triggers in the order they were made, which is their
        // priority (a stable sort by a rank counted in that order changed nothing, and was
        // 3 KB of each .wasm).
        let mut gates = Vec::with_capacity(buckets.len());
        for bucket in &buckets {
            let first = bucket.first().map(|t| t.boundary);
            gates.push(Gate {
                third: allowed_at(bucket, 2)?,
                fourth: allowed_at(bucket, 3)?,
                boundary: first.filter(|b| bucket.iter().all(|t| t.boundary == *b)),
            });
        }
        Some(Matcher {
            bucket_of,
            first_byte,
            buckets,
            gates,
        })
    }

    pub(crate) fn redact<'t>(&self, text: &'t str) -> (Cow<'t, str>, usize) {
        let mut out: Option<String> = None;
        let mut copied = 0;
        let mut count = 0;
        self.each_hit(text, |hit| {
            let buf = out.get_or_insert_with(|| String::with_capacity(text.len()));
            buf.push_str(text.get(copied..hit.secret_start).unwrap_or(""));
            buf.push_str("[REDACTED:");
            buf.push_str(hit.kind);
            buf.push(']');
            copied = hit.secret_end;
            count += 1;
        });
        match out {
            Some(mut buf) => {
                buf.push_str(text.get(copied..).unwrap_or(""));
                (Cow::Owned(buf), count)
            }
            None => (Cow::Borrowed(text), 0),
        }
    }

    /// The one forward pass: every credential in `text`, in order, none overlapping the one
    /// before it.
    pub(crate) fn each_hit(&self, text: &str, mut found: impl FnMut(Hit)) {
        let _pass = super::shape::Pass::enter(text);
        let bytes = text.as_bytes();
        let mut copied = 0;
        let mut i = 0;
        while let (Some(&a), Some(&b)) = (bytes.get(i), bytes.get(i + 1)) {
            let bucket = self.bucket(a, b);
            if bucket == 0 || !self.may_go_on(bytes, i, bucket) {
                i += 1;
                continue;
            }
            // Every offset comes from an ASCII byte or a run of whole characters, so this
            // holds; the check keeps a slip from ever dropping text.
            let hit = self.hit_at(text, i).filter(|h| {
                h.secret_start >= copied
                    && h.secret_start <= h.secret_end
                    && text.is_char_boundary(h.secret_start)
                    && text.is_char_boundary(h.secret_end)
            });
            match hit {
                Some(hit) => {
                    found(hit);
                    copied = hit.secret_end;
                    i = hit.end.max(hit.secret_end).max(i + 1);
                }
                None => i += 1,
            }
        }
    }

    /// The hot loop's test, one per byte: the bucket of triggers this byte pair may start
    /// (0: none). The 256-entry first-byte table answers most bytes.
    #[inline(always)]
    fn bucket(&self, a: u8, b: u8) -> usize {
        if !self
            .first_byte
            .get(usize::from(a))
            .copied()
            .unwrap_or(false)
        {
            return 0;
        }
        usize::from(
            self.bucket_of
                .get((usize::from(a) << 8) | usize::from(b))
                .copied()
                .unwrap_or(0),
        )
    }

    /// For a byte pair that begins a trigger at `i`: may one go on with the next two bytes
    /// and follow the byte before?
    #[inline(always)]
    fn may_go_on(&self, bytes: &[u8], i: usize, bucket: usize) -> bool {
        let Some(gate) = self.gates.get(bucket) else {
            return false;
        };
        let allows = |allowed: &[u64; 4], at: usize| match bytes.get(at) {
            Some(&c) => allowed
                .get(usize::from(c >> 6))
                .is_some_and(|bits| bits & (1 << (c & 63)) != 0),
            None => allowed.iter().all(|bits| *bits == u64::MAX),
        };
        allows(&gate.third, i + 2)
            && allows(&gate.fourth, i + 3)
            && match gate.boundary {
                Some(Boundary::Word) => at_word_start(bytes, i),
                Some(shared) => boundary_ok(bytes, i, shared),
                None => true,
            }
    }

    /// The first source that matches at `pos`, if any. Out of line: most candidates fail
    /// on their literal, and with the readers inlined the loop spilled registers.
    #[inline(never)]
    fn hit_at(&self, text: &str, pos: usize) -> Option<Hit> {
        let bytes = text.as_bytes();
        let a = *bytes.get(pos)?;
        let b = *bytes.get(pos + 1)?;
        let bucket = usize::from(*self.bucket_of.get((usize::from(a) << 8) | usize::from(b))?);
        if bucket == 0 {
            return None;
        }
        // A boundary the whole bucket shares was asked by `may_go_on` already.
        let shared = self.gates.get(bucket).is_some_and(|g| g.boundary.is_some());
        let mut tried: Option<Reading> = None;
        for trigger in self.buckets.get(bucket)? {
            let found = bytes.get(pos..pos + trigger.literal.len());
            let literal = found.is_some_and(|f| {
                if trigger.any_case {
                    f.eq_ignore_ascii_case(trigger.literal)
                } else {
                    f == trigger.literal
                }
            });
            if tried == Some(trigger.source)
                || !literal
                || (!shared && !boundary_ok(bytes, pos, trigger.boundary))
            {
                continue;
            }
            tried = Some(trigger.source);
            let hit = match trigger.source {
                Reading::Rule(rule) => (rule.spec().read)(text, pos),
                Reading::Format(index) => {
                    formats()
                        .get(index)
                        .and_then(|f| token_after(text, pos, pos + trigger.literal.len(), f))
                }
            };
            if hit.is_some() {
                return hit;
            }
        }
        None
    }
}

/// The bytes the triggers of `bucket` may have at `index` (every byte where one is shorter).
fn allowed_at(bucket: &[Trigger], index: usize) -> Option<[u64; 4]> {
    let mut allowed = [0u64; 4];
    for trigger in bucket {
        let Some(&c) = trigger.literal.get(index) else {
            return Some([u64::MAX; 4]);
        };
        for c in [c.to_ascii_lowercase(), c.to_ascii_uppercase()]
            .into_iter()
            .filter(|x| trigger.any_case || *x == c)
        {
            *allowed.get_mut(usize::from(c >> 6))? |= 1 << (c & 63);
        }
    }
    Some(allowed)
}

/// Not glued to a word, nor cut out of base64 text (`+`, or a `/` inside a run): an image's
/// base64 holds every two-letter prefix; a URL's `//ghp_…` still counts. Apart from
/// `boundary_ok` and small: the scan asks it of most byte pairs that begin a trigger.
#[inline(never)]
fn at_word_start(bytes: &[u8], pos: usize) -> bool {
    let Some(&before) = pos.checked_sub(1).and_then(|p| bytes.get(p)) else {
        return true;
    };
    if before.is_ascii_alphanumeric() || before == b'_' || before == b'+' {
        return false;
    }
    !(before == b'/'
        && pos
            .checked_sub(2)
            .and_then(|p| bytes.get(p))
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'+'))
}

fn boundary_ok(bytes: &[u8], pos: usize, boundary: Boundary) -> bool {
    let before = match pos.checked_sub(1).and_then(|p| bytes.get(p)) {
        Some(&c) => c,
        None => return true,
    };
    match boundary {
        Boundary::Any => true,
        Boundary::Word => at_word_start(bytes, pos),
        Boundary::Flag => matches!(before, b' ' | b'\t' | b'\n' | b'"' | b'\'' | b'(' | b'`'),
        Boundary::Quote => matches!(before, b'"' | b'\''),
        Boundary::Segment => {
            let hump = before.is_ascii_lowercase()
                && bytes.get(pos).is_some_and(|c| c.is_ascii_uppercase());
            // `SMTPPassword`, `DBPassword`: a hump after an acronym.
            let glued = before.is_ascii_uppercase()
                && (literal_at(bytes, pos, b"PASSWORD", false)
                    || literal_at(bytes, pos, b"PASSWD", false)
                    || literal_at(bytes, pos, b"Pass", false));
            // `requirepass`, `masterauth`, `rootpw`: names glued from two words, from
            // servers' documentation.
            !before.is_ascii_alphanumeric() || hump || glued || glued_key_at(bytes, pos)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matcher_builds() {
        assert!(matcher().is_some());
    }
}
