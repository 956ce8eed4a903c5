//! The one engine that reads the provider table (`formats`): at a prefix, it reads the row's
//! lead, parts and padding, then judges the random part (not a mask or a filler, the checksum
//! or the entropy the row asks for). Context rows (`Standing::AfterContext`) are matched here
//! too, against a value the key-value reader has already cut out.

use super::checksum::{base58check_holds, bech32_holds, strkey_holds, BITCOIN, RIPPLE};
use super::continued_key::continued;
use super::entropy::bits_per_char;
use super::format::{Body, Check, Class, Format, Need, Piece, Reveal, Standing, Sum};
use super::formats::formats;
use super::hit::Hit;
use super::not_secret::is_name;
use super::private_key::private_key_block;
use super::shape::{is_b64url, is_mask, literal_at};

/// The token of row `format` whose prefix is at `pos`, if it is one.
pub(crate) fn token_hit(text: &str, pos: usize, format: &Format) -> Option<Hit> {
    let after_prefix = format
        .prefixes()
        .find(|p| literal_at(text.as_bytes(), pos, p.as_bytes(), format.any_case))
        .map(|p| pos + p.len())?;
    token_after(text, pos, after_prefix, format)
}

/// As [`token_hit`], where the scan has matched one of the row's prefixes already: it ends
/// at `after_prefix`.
pub(crate) fn token_after(
    text: &str,
    pos: usize,
    after_prefix: usize,
    format: &Format,
) -> Option<Hit> {
    let b = text.as_bytes();
    let start = match format.lead {
        None => pos,
        Some(lead) => {
            let n = b
                .get(..pos)?
                .iter()
                .rev()
                .take(usize::from(lead.max) + 1)
                .take_while(|c| lead.class.contains(**c))
                .count();
            if n < usize::from(lead.min) || n > usize::from(lead.max) {
                return None;
            }
            pos - n
        }
    };
    let end = body_end(b, after_prefix, &format.body)?;
    if b.get(end).is_some_and(|c| is_word_byte(*c)) || inside_base64(b, start, end) {
        return None;
    }
    let random = b.get(after_prefix..end)?;
    let lead = b.get(start..pos)?;
    let whole = b.get(pos..end)?;
    if !reads_random(lead, random, whole, format.check) {
        return None;
    }
    let secret_start = match format.reveal {
        Reveal::Nothing => start,
        Reveal::Prefix => after_prefix,
    };
    Some(Hit {
        end,
        secret_start,
        secret_end: end,
        kind: format.kind,
    })
}

/// The provider token that starts exactly at `pos`, if any (a value a header or key holds).
pub(crate) fn token_at(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    if b.get(pos..).is_some_and(|t| t.starts_with(b"-----BEGIN")) {
        return private_key_block(text, pos);
    }
    let first = *b.get(pos)?;
    formats()
        .iter()
        .filter(|f| f.standing == Standing::Alone && f.lead.is_none())
        .filter(|f| {
            f.prefixes().any(|p| {
                p.as_bytes()
                    .first()
                    .is_some_and(|c| c.eq_ignore_ascii_case(&first))
            })
        })
        .find_map(|f| token_hit(text, pos, f))
        .filter(|h| h.secret_start == pos)
        .or_else(|| led_token_at(text, pos))
}

/// A token whose prefix comes after a lead (Mailchimp's `<key>-us12`, Telegram's
/// `<id>:AA…`) starting at `pos`: its prefix is looked for in the next 64 bytes.
fn led_token_at(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let window = b.get(pos..(pos + 64).min(b.len()))?;
    formats()
        .iter()
        .filter(|f| f.standing == Standing::Alone && f.lead.is_some())
        .find_map(|f| {
            f.prefixes().find_map(|p| {
                let at = window.windows(p.len()).position(|w| w == p.as_bytes())?;
                token_hit(text, pos + at, f).filter(|h| h.secret_start == pos)
            })
        })
}

/// If the value at `s..e` is itself a provider token, report that kind.
pub(crate) fn prefer_token(text: &str, s: usize, e: usize, end: usize, kind: &'static str) -> Hit {
    match token_at(text, s) {
        Some(token) if token.secret_end >= e => token,
        Some(token) => Hit {
            end: end.max(token.end),
            secret_start: s,
            secret_end: e.max(token.secret_end),
            kind: token.kind,
        },
        None => Hit {
            end,
            secret_start: s,
            secret_end: e,
            kind,
        },
    }
}

/// The kind of the context row a key's `value` fits: the key's whole `name` holds one of
/// the row's context words (compared without case, `_`, `-` or `.`), and the value is the
/// row's shape exactly.
pub(crate) fn context_kind(name: &str, value: &[u8]) -> Option<&'static str> {
    // No context row's shape is shorter than 15 characters (Dropbox's app key) or holds a
    // blank; most values a key names are, and this is asked of every one.
    if value.len() < 15 || value.len() > 256 || value.iter().any(u8::is_ascii_whitespace) {
        return None;
    }
    let squeezed: Vec<u8> = name
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    formats()
        .iter()
        .filter(|f| f.standing == Standing::AfterContext)
        .filter(|f| {
            f.context_words().any(|w| {
                squeezed
                    .windows(w.len())
                    .any(|window| window.eq_ignore_ascii_case(w.as_bytes()))
            })
        })
        .find(|f| fits(value, f))
        .map(|f| f.kind)
}

fn fits(value: &[u8], format: &Format) -> bool {
    let start = if format.prefixes.is_empty() {
        Some(0)
    } else {
        format
            .prefixes()
            .find(|p| literal_at(value, 0, p.as_bytes(), format.any_case))
            .map(|p| p.len())
    };
    let Some(start) = start else { return false };
    match body_end(value, start, &format.body) {
        Some(end) if end == value.len() => value
            .get(start..)
            .is_some_and(|random| reads_random(&[], random, value, format.check)),
        _ => false,
    }
}

/// A run cut out of a longer base64 text (an image, a key, a blob): `+` or `/` glued to it
/// on either side. Tokens stand apart from what surrounds them.
fn inside_base64(b: &[u8], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).and_then(|i| b.get(i));
    let after = b.get(end);
    before.is_some_and(|c| *c == b'+')
        || after.is_some_and(|c| *c == b'+')
        || (before == Some(&b'/') && after == Some(&b'/'))
}

fn is_word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Where the body that starts at `at` ends.
fn body_end(b: &[u8], at: usize, body: &Body) -> Option<usize> {
    match body {
        Body::Jwt => jwt_end(b, at),
        Body::Parts(parts) => {
            let mut i = at;
            for part in parts {
                match part_end(b, i, part) {
                    Some(j) => i = j,
                    None if part.min == 0 => {}
                    None => return None,
                }
            }
            if parts.last().is_some_and(|p| p.class == Class::Base64) {
                i += b
                    .get(i..)
                    .map_or(0, |t| t.iter().take(3).take_while(|c| **c == b'=').count());
            }
            Some(i)
        }
    }
}

/// One part: its separator, then the longest run of its class up to `max` (a part of
/// length `{0}` is its separator alone: k3s's `::`).
fn part_end(b: &[u8], at: usize, part: &Piece) -> Option<usize> {
    let start = match part.sep {
        Some(sep) => (b.get(at) == Some(&sep)).then_some(at + 1)?,
        None => at,
    };
    let n = b.get(start..).map_or(0, |t| {
        t.iter()
            .take(usize::from(part.max))
            .take_while(|c| Class::holds(part.bytes, **c))
            .count()
    });
    (n >= usize::from(part.min) && (n > 0 || part.sep.is_none() || part.max == 0))
        .then_some(start + n)
}

/// After `eyJ`: the rest of the header, then `.ey…` claims with an optional `.signature`
/// (an unsigned token has none, or an empty one), or the four parts of an encrypted token
/// (JWE: key, which `dir` leaves empty, IV, ciphertext, tag).
fn jwt_end(b: &[u8], at: usize) -> Option<usize> {
    let run = |i: usize| {
        i + b
            .get(i..)
            .map_or(0, |t| t.iter().take_while(|c| is_b64url(**c)).count())
    };
    // A continuation after a dot goes on in the next line (`continued`).
    let dot = |i: usize| (b.get(i) == Some(&b'.')).then(|| continued(b, i + 1));
    let header = run(at);
    if header - at < 8 {
        return None;
    }
    let second = dot(header)?;
    let second_end = run(second);
    if literal_at(b, second, b"ey", false) && second_end - second >= 10 {
        return Some(match dot(second_end) {
            Some(sig) => run(sig),
            None => second_end,
        });
    }
    // JWE: exactly four more parts, the last three non-empty.
    let mut i = second_end;
    for min in [16, 8, 8] {
        let s = dot(i)?;
        i = run(s);
        if i - s < min {
            return None;
        }
    }
    (b.get(i) != Some(&b'.')).then_some(i)
}

/// The random part of a token reads as one: not a mask (`xxxx`, `0000`), not a filler whose
/// every segment repeats one or two characters (Slack's `T00000000/B00000000/XXXX…`), and
/// as random as the row asks. A row with a checksum asks it of the `whole` token (prefix
/// and body): one that holds is the encoding, whatever it looks like.
fn reads_random(lead: &[u8], random: &[u8], whole: &[u8], check: Check) -> bool {
    if let Check::Sum(sum, need) = check {
        if sum_holds(sum, whole) {
            return true;
        }
        if need == Need::Holds {
            return false;
        }
    }
    // A row whose body is short or empty (Mailchimp's `…-us12`, MaxMind's `…_mmk`): the
    // lead is the secret.
    let random = if random.len() < 8 && lead.len() > random.len() {
        lead
    } else {
        random
    };
    let text = std::str::from_utf8(random).unwrap_or("");
    // `AKIAIOSFODNN7EXAMPLE`: the documentation's example keys say so.
    if is_mask(text) || is_filler(random) || contains_ignoring_case(random, b"example") {
        return false;
    }
    match check {
        Check::Shape => true,
        // `s.writeFinalTaskCheckpoint`: a name after a short prefix is code, however varied.
        Check::Entropy(tenths) => {
            bits_per_char(random) * 10.0 >= f32::from(tenths) && !is_name(text)
        }
        Check::Crc32Base62 => crc_verifies(random) || bits_per_char(random) >= 3.0,
        Check::Sum(..) => true,
    }
}

fn sum_holds(sum: Sum, whole: &[u8]) -> bool {
    match sum {
        Sum::Base58Check => base58check_holds(whole, BITCOIN),
        Sum::XrpBase58Check => base58check_holds(whole, RIPPLE),
        Sum::StrKey => strkey_holds(whole),
        Sum::Bech32 => bech32_holds(whole),
    }
}

fn contains_ignoring_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Every segment of 4 or more characters (split at non-alphanumerics) holds at most two
/// distinct characters: `T00000000/B00000000/XXXXXXXX`, `1111-2222`.
pub(crate) fn is_filler(v: &[u8]) -> bool {
    let mut any = false;
    for segment in v.split(|c| !c.is_ascii_alphanumeric()) {
        if segment.len() < 4 {
            continue;
        }
        any = true;
        let first = segment.first().copied();
        let other = segment.iter().find(|c| Some(**c) != first).copied();
        if segment
            .iter()
            .any(|c| Some(*c) != first && Some(*c) != other)
        {
            return false;
        }
    }
    any
}

/// GitHub's and npm's token checksum: the last 6 characters are the CRC32 of the rest,
/// written in base62 (`0-9A-Za-z`) and padded with `0`.
fn crc_verifies(random: &[u8]) -> bool {
    let Some(split) = random.len().checked_sub(6) else {
        return false;
    };
    let (data, sum) = random.split_at(split);
    let mut crc: u32 = !0;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    let mut n = !crc;
    const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut expected = [b'0'; 6];
    for slot in expected.iter_mut().rev() {
        *slot = DIGITS.get((n % 62) as usize).copied().unwrap_or(b'0');
        n /= 62;
    }
    n == 0 && expected == sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tests/fixtures/secrets/formats.txt`: `<kind> TAB <secret> TAB <text>` lines.
    fn format_lines() -> Vec<(&'static str, &'static str, &'static str)> {
        include_str!("../../tests/fixtures/secrets/formats.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let mut f = l.splitn(3, '\t');
                let field = |f: &mut std::str::SplitN<'static, char>| f.next().unwrap_or("");
                (field(&mut f), field(&mut f), field(&mut f))
            })
            .collect()
    }

    /// Does row `format` itself find `secret` in `text`?
    fn row_finds(format: &Format, text: &str, secret: &str) -> bool {
        match format.standing {
            Standing::AfterContext => fits(secret.as_bytes(), format),
            Standing::Alone => (0..text.len()).any(|p| {
                token_hit(text, p, format)
                    .is_some_and(|h| text.get(h.secret_start..h.secret_end) == Some(secret))
            }),
        }
    }

    /// Every line of `formats.txt` comes out with its secret gone and its kind named, and
    /// every row of the table is the one that finds the secret of at least one line: a row
    /// without its test line fails here.
    #[test]
    fn every_format_row_has_a_line_and_every_line_is_redacted() {
        let lines = format_lines();
        assert!(lines.len() >= formats().len(), "{} lines", lines.len());
        for (kind, secret, text) in &lines {
            assert!(!secret.is_empty() && text.contains(secret), "{kind}: {text}");
            let out = crate::redact::redact(text);
            assert!(
                !out.contains(secret) && out.contains(&format!("[REDACTED:{kind}]")),
                "{kind}: {text}\n -> {out}"
            );
        }
        for (i, format) in formats().iter().enumerate() {
            assert!(
                lines
                    .iter()
                    .any(|(kind, secret, text)| *kind == format.kind
                        && row_finds(format, text, secret)),
                "row {i} ({}) finds none of its kind's lines in formats.txt",
                format.kind
            );
        }
    }

    /// A token made by GitHub's published scheme (30 random characters and their CRC32 in
    /// base62) verifies; one character changed does not.
    #[test]
    fn the_checksum_of_a_well_formed_token_verifies() {
        let random = b"aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1";
        let mut crc: u32 = !0;
        for &byte in random {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
            }
        }
        assert_eq!(!crc, crc32_reference(random));
        let mut n = !crc;
        let digits = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        let mut sum = [b'0'; 6];
        for slot in sum.iter_mut().rev() {
            *slot = digits[(n % 62) as usize];
            n /= 62;
        }
        let token = [&random[..], &sum[..]].concat();
        assert!(crc_verifies(&token));
        let mut bad = token.clone();
        bad[0] = b'Z';
        assert!(!crc_verifies(&bad));
    }

    /// CRC-32 (IEEE) of "123456789" is 0xCBF43926: the standard check value.
    fn crc32_reference(data: &[u8]) -> u32 {
        let mut crc: u32 = !0;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32_reference(b"123456789"), 0xCBF4_3926);
    }

    /// The sixth round's checksum column: a token of a weak prefix (`s`, `S`, `5H`, `Kx`) is
    /// taken pasted alone when its checksum holds and left when one character is changed;
    /// a row with a distinctive prefix (`xprv`, `nsec1`) takes it either way. The tokens are
    /// formats.txt's, made by each specification's encoding.
    #[test]
    fn a_weak_prefix_is_taken_only_when_its_checksum_holds() {
        let lines = format_lines();
        let alone = |kind: &str| {
            lines
                .iter()
                .filter(|(k, secret, text)| k == &kind && secret == text)
                .map(|(_, secret, _)| *secret)
                .collect::<Vec<_>>()
        };
        let changed = |token: &str| {
            // One character of the body, inside the alphabet, changed (base32 and base58
            // both have `B` and `C`, bech32 `q` and `p`).
            let at = token.len() - 5;
            let mut bytes = token.as_bytes().to_vec();
            let [one, other] = if token.starts_with("nsec") { *b"qp" } else { *b"BC" };
            bytes[at] = if bytes[at] == one { other } else { one };
            String::from_utf8(bytes).unwrap()
        };
        let mut weak = 0;
        for kind in ["xrp-seed", "stellar-secret-seed", "bitcoin-private-key"] {
            for token in alone(kind) {
                weak += 1;
                assert_eq!(
                    crate::redact::redact(token),
                    format!("[REDACTED:{kind}]"),
                    "{token}"
                );
                let bad = changed(token);
                assert_eq!(crate::redact::redact_counted(&bad).1, 0, "{bad}");
            }
        }
        assert!(weak >= 5, "{weak} weak-prefix tokens");
        for kind in ["extended-private-key", "nostr-secret-key"] {
            for token in alone(kind) {
                let bad = changed(token);
                assert_eq!(
                    crate::redact::redact(&bad),
                    format!("[REDACTED:{kind}]"),
                    "{bad}"
                );
            }
        }
    }

    #[test]
    fn fillers_are_not_random() {
        assert!(is_filler(b"T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"));
        assert!(!is_filler(b"T0FAKE000/B0FAKE000/abcdEFGHijklMNOPqrstUVWX"));
    }
}
