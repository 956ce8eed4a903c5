//! The rules' shapes, read by hand: the small readers every shape is written with.
//!
//! Each reader is anchored at the trigger position and returns where its
//! shape ends (and, for context rules, the secret's span), or None. The doc
//! comment of each gives the shape as a regex, for reference only: the
//! crate does not use `regex`. Where a shape could match in more than one
//! way, the reader returns the match a leftmost-first (Perl-style) engine
//! would: greedy runs take all they can, the first alternative that leads to
//! a match wins. Every class is ASCII except the negated ones of URLs and
//! `curl -u`, which stop at Unicode white space and are read by `char`, so
//! every offset returned lies on a character boundary.

use std::cell::Cell;

/// Inlined at every caller: outlined (as a change elsewhere in the crate once left it), the
/// call from the key-value reader alone cost the scan 4 % of its instructions on the real
/// transcripts (`bench/redact/run.sh`).
#[inline(always)]
pub(crate) fn literal_at(bytes: &[u8], pos: usize, literal: &[u8], ignore_case: bool) -> bool {
    match bytes.get(pos..pos + literal.len()) {
        Some(found) if ignore_case => found.eq_ignore_ascii_case(literal),
        Some(found) => found == literal,
        None => false,
    }
}

pub(crate) fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `[A-Za-z0-9_-]`: base64url, and most providers' token alphabet.
pub(crate) fn is_b64url(c: u8) -> bool {
    is_word(c) || c == b'-'
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// `literal` at `at`, byte for byte; the offset after it.
pub(crate) fn lit(b: &[u8], at: usize, literal: &[u8]) -> Option<usize> {
    literal_at(b, at, literal, false).then_some(at + literal.len())
}

/// As `lit`, ASCII case-insensitive (`(?i-u:…)`).
pub(crate) fn lit_ci(b: &[u8], at: usize, literal: &[u8]) -> Option<usize> {
    literal_at(b, at, literal, true).then_some(at + literal.len())
}

/// The first of `literals` found at `at` (an alternation of literals).
pub(crate) fn one_of(b: &[u8], at: usize, literals: &[&[u8]]) -> Option<usize> {
    literals.iter().find_map(|l| lit(b, at, l))
}

/// One byte of `class` (`[…]`).
pub(crate) fn one(b: &[u8], at: usize, class: fn(u8) -> bool) -> Option<usize> {
    b.get(at).is_some_and(|c| class(*c)).then_some(at + 1)
}

/// The end of the longest run of `class` from `at` (`[…]*`).
pub(crate) fn run(b: &[u8], at: usize, class: fn(u8) -> bool) -> usize {
    at + b
        .get(at..)
        .map_or(0, |t| t.iter().take_while(|c| class(**c)).count())
}

/// How far a reader a trigger starts reads a name, a type or a call: no key's name is
/// longer, and a long run holding a trigger many times (`KeypairKeypair…`, `priv:priv:…`) is
/// then read in bounded steps per trigger, not to its end each time (200 KB of `Keypair`
/// took the raw key's reader 22 s so).
pub(crate) const NAME_REACH: usize = 64;

/// `[…]{0,max}`: the longest run, at most `max` long; for readers a trigger starts, so that
/// a long run holding the trigger many times is not read to its end once per trigger.
pub(crate) fn run_within(b: &[u8], at: usize, max: usize, class: fn(u8) -> bool) -> usize {
    at + b
        .get(at..)
        .map_or(0, |t| t.iter().take(max).take_while(|c| class(**c)).count())
}

/// Where an unquoted value from `at` ends: before Unicode white space, a quote, a bracket,
/// `\\`, `&`, `,`, `;` or `|`, or a `:` or `=` standing first. `None` when a character `max`
/// bytes or more from `at` is still in it, or `at` is inside a character. Every trigger of a
/// long run (`key=key=…`, `pass:pass:…`) reads such a value, up to `max` bytes: inside the
/// pass's text (`Pass`), a read starts where the last one found no end.
pub(crate) fn unquoted_end(text: &str, at: usize, max: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    let b = rest.as_bytes();
    let mut k = 0;
    while let Some(&c) = b.get(k) {
        let width = if c.is_ascii() {
            let stop = matches!(c, b'\t'..=b'\r' | b' ' | b'"' | b'\'' | b'`' | b'\\' | b'&' | b'<' | b'>')
                || matches!(c, b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b';' | b'|')
                || (k == 0 && matches!(c, b':' | b'='));
            if stop {
                break;
            }
            1
        } else {
            let ch = rest.get(k..).and_then(|t| t.chars().next())?;
            if ch.is_whitespace() {
                break;
            }
            ch.len_utf8()
        };
        if k >= max {
            remember_open(text, at, at + k + width);
            return None;
        }
        k += width;
        if k == width {
            // Past the first character (where `:` and `=` stop), a stretch read before holds
            // no end: go on from where it stops, at most to `max`.
            let mut skip = open_until(text, at).map_or(0, |to| (to - at).min(max));
            while skip > k && !rest.is_char_boundary(skip) {
                skip -= 1;
            }
            k = k.max(skip);
        }
    }
    remember_open(text, at, at + k);
    Some(at + k)
}

thread_local! {
    /// The pass's text (address, length) and a stretch `[from, to)` of it an unquoted value
    /// was read through without its end.
    static PASS: Cell<Option<(usize, usize, usize, usize)>> = const { Cell::new(None) };
}

/// Set while the matcher's pass reads `text` (`scan::each_hit`), which stays borrowed so long,
/// so unchanged and in place: what `unquoted_end` remembers holds for that text alone, and
/// another text at the same address later is never taken for it.
pub(crate) struct Pass {
    outer: Option<(usize, usize, usize, usize)>,
}

impl Pass {
    pub(crate) fn enter(text: &str) -> Pass {
        Pass { outer: PASS.replace(Some((text.as_ptr() as usize, text.len(), 0, 0))) }
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        PASS.set(self.outer);
    }
}

/// The end of the stretch holding `at` that is known to hold no value's end, if the pass's
/// text is `text`.
fn open_until(text: &str, at: usize) -> Option<usize> {
    match PASS.get() {
        Some((addr, len, from, to)) if (addr, len) == (text.as_ptr() as usize, text.len()) && from <= at && at < to => {
            Some(to)
        }
        _ => None,
    }
}

fn remember_open(text: &str, from: usize, to: usize) {
    if let Some((addr, len, _, _)) = PASS.get().filter(|p| (p.0, p.1) == (text.as_ptr() as usize, text.len())) {
        PASS.set(Some((addr, len, from, to)));
    }
}

/// `[…]{min,}`: the longest run, if it is long enough.
pub(crate) fn at_least(b: &[u8], at: usize, class: fn(u8) -> bool, min: usize) -> Option<usize> {
    let end = run(b, at, class);
    (end - at >= min).then_some(end)
}

/// Where `needle` first starts within the `reach` bytes from `at`, if it does.
pub(crate) fn find_within(b: &[u8], at: usize, reach: usize, needle: &[u8]) -> Option<usize> {
    let hay = b.get(at..b.len().min(at + reach))?;
    hay.windows(needle.len())
        .position(|w| w == needle)
        .map(|i| at + i)
}

pub(crate) fn blanks(b: &[u8], at: usize) -> usize {
    run(b, at, is_blank)
}

/// `(["'])([^\n]{0,max}?)\1`: the inside of a quoted literal at `at`, closed on its line.
pub(crate) fn quoted(b: &[u8], at: usize, max: usize) -> Option<(usize, usize)> {
    let q = *b.get(at)?;
    if !matches!(q, b'"' | b'\'') {
        return None;
    }
    let s = at + 1;
    let len = b.get(s..)?.iter().take(max).position(|c| *c == q || *c == b'\n')?;
    (b.get(s + len) == Some(&q)).then_some((s, s + len))
}

/// `(?:\\*["'])?`: a closing or opening quote, JSON-escaped or not. Where
/// the quote is absent, nothing is taken (the backslashes stay).
pub(crate) fn quote_opt(b: &[u8], at: usize) -> usize {
    let i = run(b, at, |c| c == b'\\');
    match b.get(i) {
        Some(b'"' | b'\'') => i + 1,
        _ => at,
    }
}

/// The end of the longest run of characters from `at` that `stop` does not
/// end (`[^…]*` with Unicode `\s`); `at` must be a character boundary.
pub(crate) fn chars_until(text: &str, at: usize, stop: fn(char) -> bool) -> usize {
    let rest = text.get(at..).unwrap_or("");
    at + rest.find(stop).unwrap_or(rest.len())
}

/// The length of a Python string or bytes prefix at `at` (`b`, `r`, `u`, `br`, `rb`, any
/// case) that a quote follows; 0 if none. Not `f`: an f-string's value is code.
pub(crate) fn string_prefix(b: &[u8], at: usize) -> usize {
    let letter = |i: usize| b.get(i).is_some_and(|c| b"bBrRuU".contains(c));
    let quote = |i: usize| matches!(b.get(i), Some(b'"' | b'\''));
    if letter(at) && quote(at + 1) {
        1
    } else if letter(at) && letter(at + 1) && quote(at + 2) {
        2
    } else {
        0
    }
}

/// The opening quote of a quoted name (`"siptrace"`, `'db'`) whose closing quote is at
/// `close`: a name of letters, digits, `_`, `.` or `-`.
pub(crate) fn name_quoted_before(b: &[u8], close: usize) -> Option<usize> {
    let quote = *b.get(close).filter(|c| matches!(c, b'"' | b'\''))?;
    let name = b.get(close.saturating_sub(64)..close)?;
    let len = name
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || b"_.-".contains(c))
        .count();
    let open = close.checked_sub(len + 1)?;
    (b.get(open) == Some(&quote)).then_some(open)
}

/// `xxxxxxxx`, `00000000`, `abababab`: documentation fillers, not keys (at most three
/// distinct characters).
pub(crate) fn is_mask(body: &str) -> bool {
    let mut seen: Vec<char> = Vec::new();
    for c in body.chars() {
        if !seen.contains(&c) {
            seen.push(c);
            if seen.len() > 3 {
                return false;
            }
        }
    }
    true
}

/// Calls that decode the literal they are given into bytes, each as its language documents
/// it: Python's `binascii.a2b_base64`, `a2b_hex`, `unhexlify`, `base64.b64decode` and its
/// kin, `bytes.fromhex`; Rust's `hex!` (the hex-literal crate); the web's `atob`; noble's
/// `hexToBytes` and the `decode_hex` of Rust's crypto crates' tests. A key's value so written is the
/// literal: `pb._encryption_key = a2b_base64("1sW2…")`.
const DECODERS: &[&[u8]] = &[
    b"a2b_base64",
    b"a2b_hex",
    b"unhexlify",
    b"b64decode",
    b"standard_b64decode",
    b"urlsafe_b64decode",
    b"b32decode",
    b"b16decode",
    b"fromhex",
    b"hex!",
    b"atob",
    b"decode_hex",
    b"hexToBytes",
];

/// `(?:[\w.:]+[.:])?DECODER\(\s*` then a quote (or a Python prefix and one): where the literal
/// a decoding call at `at` is given starts, if one is.
pub(crate) fn decoded_literal(b: &[u8], at: usize) -> Option<usize> {
    let end = run_within(b, at, NAME_REACH, |c| {
        is_word(c) || matches!(c, b'.' | b':' | b'!')
    });
    let path = b.get(at..end)?;
    let name = path.rsplit(|c| matches!(c, b'.' | b':')).next()?;
    // The `hex` crate's `hex::decode`, named by its module (a bare `decode(…)` is any call).
    let module = path.ends_with(b"hex::decode");
    if b.get(end) != Some(&b'(') || !(DECODERS.contains(&name) || module) {
        return None;
    }
    let i = blanks(b, end + 1);
    let quote = i + string_prefix(b, i);
    matches!(b.get(quote), Some(b'"' | b'\'' | b'`')).then_some(i)
}

/// Byte sets for the look-alike guards: a `[char; N]` pattern is code of its own for each N
/// and each method in the wasm, a byte slice is one.
pub(crate) fn any_of(v: &str, set: &[u8]) -> bool {
    v.bytes().any(|c| set.contains(&c))
}

pub(crate) fn first_of(v: &str, set: &[u8]) -> bool {
    v.bytes().next().is_some_and(|c| set.contains(&c))
}

pub(crate) fn last_of(v: &str, set: &[u8]) -> bool {
    v.bytes().last().is_some_and(|c| set.contains(&c))
}

/// A digest in base64: SHA-1's 28 characters, SHA-256's 44, SHA-512's 88, padded.
pub(crate) fn is_b64_digest(v: &str) -> bool {
    [28, 44, 88].contains(&v.len())
        && v.ends_with('=')
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))
}

pub(crate) fn is_uuid(v: &str) -> bool {
    v.len() == 36
        && v.bytes().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// The current line up to `pos`, at most its last 512 bytes (minified code has megabyte
/// lines; context further back says nothing about a flag).
pub(crate) fn line_before(text: &str, pos: usize) -> &str {
    let mut start = pos.saturating_sub(512);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let head = text.get(start..pos).unwrap_or("");
    head.rsplit('\n').next().unwrap_or(head)
}

/// Where the name that the key word at `key_start` ends or sits in begins: back over at
/// most 64 name characters (`DB_` of `DB_PASSWORD`, `auth_` of `auth_pass`).
pub(crate) fn name_start(text: &str, key_start: usize) -> usize {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let before = head
        .iter()
        .rev()
        .take(64)
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'-')
        .count();
    key_start - before
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;
    use super::*;

    /// Inside a pass, a read that starts in a stretch read before ends where a read of its own
    /// ends: at every offset, in any order, over white space of one and three bytes, `:` and
    /// `=` first and inside, values at and past `max`.
    #[test]
    fn a_value_read_inside_a_pass_ends_where_it_ends_alone() {
        let frags = ["key", "=", ":", " ", "é", "\u{3000}", "\u{85}", "\"", "x", "ab", "日本", "(", "\n"];
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..400 {
            let n = 1 + next() % 60;
            let text: String = (0..n).map(|_| frags[(next() % frags.len() as u64) as usize]).collect();
            let max = [4, 12, 40][round % 3];
            let mut order: Vec<usize> = (0..=text.len()).collect();
            if round % 2 == 1 {
                for i in (1..order.len()).rev() {
                    order.swap(i, (next() % (i as u64 + 1)) as usize);
                }
            }
            let alone: Vec<Option<usize>> = order.iter().map(|&at| unquoted_end(&text, at, max)).collect();
            let _pass = Pass::enter(&text);
            for (&at, want) in order.iter().zip(alone) {
                assert_eq!(unquoted_end(&text, at, max), want, "{text:?} at {at}, max {max}");
            }
        }
    }

    /// A long run of a key and its separator (`key=key=…`) reads each value once, not up to
    /// 4 KB per key (200 KB of `key=` took 1.4 s, of `pass:` 0.6 s; the speed is the
    /// benchmark's to show, this pins what comes out): as before, nothing, or the value
    /// ending the run.
    #[test]
    fn a_long_run_of_assignments_comes_out_as_before() {
        for (unit, tail, want) in [
            ("token:", "tok", Some((4095, "token-assignment"))),
            ("passwd=", "pas", Some((3, "password-assignment"))),
            ("key=", " password=hunter2", Some((7, "password-assignment"))),
            ("pass:", "pass: s3cr3tW0rd", Some((10, "password-assignment"))),
            ("api_key=", "ab", None),
            ("Password=", "Pass", None),
            ("secret=", "\n", None),
            ("pwd=", "x y", None),
        ] {
            let text = unit.repeat(100_000 / unit.len()) + tail;
            let (out, n) = redact_counted(&text);
            match want {
                Some((len, kind)) => {
                    assert_eq!(n, 1, "{unit}");
                    assert_eq!(out, format!("{}[REDACTED:{kind}]", &text[..text.len() - len]), "{unit}");
                }
                None => assert_eq!((n, out.as_ref()), (0, text.as_str()), "{unit}"),
            }
        }
    }
}
