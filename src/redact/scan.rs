//! The one pass (see "One pass, no regex engine" in [`crate::redact`]): a table of the byte
//! pairs a rule's leading literal starts with, and the scan that runs a rule only where one
//! may start, writing `[REDACTED:<kind>]` over what it matched.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::rules::{Rule, RULES};
use super::shape::literal_at;

static MATCHER: OnceLock<Option<Matcher>> = OnceLock::new();

pub(crate) fn matcher() -> Option<&'static Matcher> {
    MATCHER.get_or_init(Matcher::build).as_ref()
}

/// What must precede a rule's leading literal for it to count as a start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Boundary {
    /// Anything (the literal itself is distinctive: `-----BEGIN`, `://`).
    Any,
    /// Not an ASCII word byte: a token is not the tail of a longer word
    /// (keeps base64 blobs and `task-sk-1` out).
    Word,
    /// A new name segment: not alphanumeric (so `DB_PASSWORD`, `x-api-key`
    /// count) or a camelCase hump (`dbPassword`); `bypass`, `compass` do not.
    /// An upper-case `PASSWORD` or `PASSWD` glued to an upper-case name counts
    /// too (`PGPASSWORD`, `MYSQLPASSWORD`): environment names run words together.
    Segment,
}

/// One leading literal of one rule.
struct Trigger {
    literal: &'static [u8],
    ignore_case: bool,
    boundary: Boundary,
    rule: Rule,
}

/// A credential found at the scan position: the rule read up to `end` (where
/// the scan resumes), and `secret_start..secret_end` is the part replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) end: usize,
    pub(crate) secret_start: usize,
    pub(crate) secret_end: usize,
    pub(crate) kind: &'static str,
}

pub(crate) struct Matcher {
    /// Byte pair `(a << 8) | b` to a bucket number; 0 means no rule starts there.
    bucket_of: Vec<u8>,
    /// Quick reject on the first byte alone before looking at the pair.
    first_byte: [bool; 256],
    /// Bucket 0 is empty; triggers inside a bucket are in rule priority order.
    buckets: Vec<Vec<Trigger>>,
}

impl Matcher {
    fn build() -> Option<Matcher> {
        let mut bucket_of = vec![0u8; 1 << 16];
        let mut first_byte = [false; 256];
        let mut buckets: Vec<Vec<Trigger>> = vec![Vec::new()];
        for rule in RULES {
            let ignore_case = rule.triggers_ignore_case();
            let cases = |c: u8| {
                if ignore_case {
                    [c.to_ascii_lowercase(), c.to_ascii_uppercase()]
                } else {
                    [c, c]
                }
            };
            for literal in rule.triggers() {
                let [a, b, ..] = literal.as_bytes() else {
                    return None;
                };
                for x in cases(*a) {
                    for y in cases(*b) {
                        let slot = bucket_of.get_mut((usize::from(x) << 8) | usize::from(y))?;
                        if *slot == 0 {
                            *slot = u8::try_from(buckets.len()).ok()?;
                            buckets.push(Vec::new());
                        }
                        let bucket = buckets.get_mut(usize::from(*slot))?;
                        if !bucket
                            .iter()
                            .any(|t| t.rule == rule && t.literal == literal.as_bytes())
                        {
                            bucket.push(Trigger {
                                literal: literal.as_bytes(),
                                ignore_case,
                                boundary: rule.boundary(),
                                rule,
                            });
                        }
                        *first_byte.get_mut(usize::from(x))? = true;
                    }
                }
            }
        }
        // RULES are visited in priority order, so buckets already are; the
        // sort is stable and keeps that order explicit.
        for bucket in &mut buckets {
            bucket.sort_by_key(|t| t.rule.index());
        }
        Some(Matcher {
            bucket_of,
            first_byte,
            buckets,
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

    /// The one forward pass: every credential in `text`, in order, none
    /// overlapping the one before it.
    pub(crate) fn each_hit(&self, text: &str, mut found: impl FnMut(Hit)) {
        let bytes = text.as_bytes();
        let mut copied = 0;
        let mut i = 0;
        while let (Some(&a), Some(&b)) = (bytes.get(i), bytes.get(i + 1)) {
            if !self.may_start(a, b) {
                i += 1;
                continue;
            }
            // Every offset comes from an ASCII byte or a run of whole
            // characters, so this holds; the check keeps a slip from ever
            // dropping text.
            let hit = self.hit_at(text, i, false).filter(|h| {
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

    /// The hot loop's test, one per byte: can a rule's literal start with
    /// this byte pair? The 256-entry first-byte table answers most bytes.
    fn may_start(&self, a: u8, b: u8) -> bool {
        self.first_byte
            .get(usize::from(a))
            .copied()
            .unwrap_or(false)
            && self
                .bucket_of
                .get((usize::from(a) << 8) | usize::from(b))
                .is_some_and(|bucket| *bucket != 0)
    }

    /// The first rule that matches at `pos`, if any. With `tokens_only`, only
    /// provider-token rules are tried (used to classify a value).
    pub(crate) fn hit_at(&self, text: &str, pos: usize, tokens_only: bool) -> Option<Hit> {
        let bytes = text.as_bytes();
        let a = *bytes.get(pos)?;
        let b = *bytes.get(pos + 1)?;
        let bucket = usize::from(*self.bucket_of.get((usize::from(a) << 8) | usize::from(b))?);
        if bucket == 0 {
            return None;
        }
        let mut tried: Option<Rule> = None;
        for trigger in self.buckets.get(bucket)? {
            if tried == Some(trigger.rule) {
                continue;
            }
            if tokens_only && trigger.rule.token_kind().is_none() {
                continue;
            }
            if !literal_at(bytes, pos, trigger.literal, trigger.ignore_case)
                || !boundary_ok(bytes, pos, trigger.boundary)
            {
                continue;
            }
            tried = Some(trigger.rule);
            if let Some(hit) = self.try_rule(text, pos, trigger.rule) {
                return Some(hit);
            }
        }
        None
    }
}

fn boundary_ok(bytes: &[u8], pos: usize, boundary: Boundary) -> bool {
    let before = match pos.checked_sub(1).and_then(|p| bytes.get(p)) {
        Some(&c) => c,
        None => return true,
    };
    match boundary {
        Boundary::Any => true,
        Boundary::Word => !(before.is_ascii_alphanumeric() || before == b'_'),
        Boundary::Segment => {
            let hump = before.is_ascii_lowercase()
                && bytes.get(pos).is_some_and(|c| c.is_ascii_uppercase());
            let glued = before.is_ascii_uppercase()
                && (literal_at(bytes, pos, b"PASSWORD", false)
                    || literal_at(bytes, pos, b"PASSWD", false));
            !before.is_ascii_alphanumeric() || hump || glued
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
