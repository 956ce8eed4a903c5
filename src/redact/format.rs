//! The vocabulary of the provider table (`formats`) and the reading of its rows: how one
//! credential format is written down as data — the literals it starts with, the characters
//! and lengths of its parts, a checksum where the provider publishes one, and whether it
//! stands alone or only after a key naming the provider.
//!
//! A row is one line of text (compact: the table ships inside two .wasm modules):
//!
//! ```text
//! <kind> <prefixes> <body> [flags…]
//! ```
//!
//! * `kind` names the `[REDACTED:<kind>]`; `"` repeats the row above's.
//! * `prefixes`: literals separated by `|` (`ghp_|gho_`); or `@word|word` for a context row,
//!   whose value follows a key naming one of the words (`@twilio`), optionally `=lit|lit`
//!   after them for literals the value starts with (`@gocardless=live_`).
//! * `body`: parts, each an optional separator byte, a class letter and a length
//!   `{n}`, `{min,max}` or `{min,}` (`D{1,}-M{8,}`); `jwt` for a JSON Web Token; `-` for none.
//!   The class letters are [`Class`]'s; a row with an unknown one does not read.
//! * flags: `crc` (GitHub's and npm's base62 CRC32 in the last 6 characters), `e38` (the body
//!   must read as random: 3.8 bits a character), `ci` (prefixes in any case), `keep` (the
//!   prefix stays: a URL's host and path), `<B{4}` (a lead: characters right before the
//!   prefix that belong to the token, as Telegram's bot id before `:AA`).
//! * the checksum column: `sum!:<sum>` for a shape with no distinctive prefix (a seed that
//!   starts `s`, a key that starts `5H`): the checksum of the whole token, prefix included,
//!   must hold, or it is no token; `sum:<sum>` for a row whose prefix says enough already:
//!   a token whose checksum holds is taken even where it looks like a mask or a filler, one
//!   whose checksum fails (a test's made-up key) is still taken on its shape. `<sum>` is a
//!   [`Sum`]'s name: `b58`, `xrp58`, `strkey`, `bech32`.

/// A character class of a token's part (its letter in a row in brackets).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// `D`
    Digit,
    /// `h`: `[0-9a-f]`
    LowerHex,
    /// `H`: `[0-9a-fA-F]`
    Hex,
    /// `U`: `[A-Z0-9]`
    UpperAlnum,
    /// `l`: `[a-z0-9]`
    LowerAlnum,
    /// `L`: `[A-Za-z]`
    Letters,
    /// `w`: `[a-z]`
    Lower,
    /// `A`: `[A-Za-z0-9]`
    Alnum,
    /// `W`: `[A-Za-z0-9_]`
    Word,
    /// `B`: `[A-Za-z0-9_-]`, base64url
    Base64Url,
    /// `P`: base64url and `=`
    Base64UrlPad,
    /// `O`: base64url, `=` and `.`
    Base64UrlDot,
    /// `b`: `[A-Za-z0-9+/]`, base64 (its `=` padding is read after the last part)
    Base64,
    /// `T`: `[A-Za-z0-9_.~-]`, Azure AD client secrets
    Tilde,
    /// `M`: `[A-Za-z0-9-]`
    AlnumDash,
    /// `E`: bech32's upper-case alphabet (age keys)
    Bech32,
    /// `F`: `[A-Za-z0-9@/-]`, a webhook's path
    Path,
    /// `Q`: base64 as a URL query carries it, `[A-Za-z0-9%+/=]` (an Azure SAS signature)
    UrlBase64,
    /// `J`: Django's get_random_secret_key alphabet, `[a-z0-9!@#$%^&*(-_=+)]`
    Django,
}

impl Class {
    fn from_letter(c: u8) -> Option<Class> {
        Some(match c {
            b'D' => Class::Digit,
            b'h' => Class::LowerHex,
            b'H' => Class::Hex,
            b'U' => Class::UpperAlnum,
            b'l' => Class::LowerAlnum,
            b'L' => Class::Letters,
            b'w' => Class::Lower,
            b'A' => Class::Alnum,
            b'W' => Class::Word,
            b'B' => Class::Base64Url,
            b'P' => Class::Base64UrlPad,
            b'O' => Class::Base64UrlDot,
            b'b' => Class::Base64,
            b'T' => Class::Tilde,
            b'M' => Class::AlnumDash,
            b'E' => Class::Bech32,
            b'F' => Class::Path,
            b'Q' => Class::UrlBase64,
            b'J' => Class::Django,
            _ => return None,
        })
    }

    fn bytes(self) -> u128 {
        (0..128u8)
            .filter(|c| self.contains(*c))
            .fold(0, |set, c| set | 1 << c)
    }

    /// Whether `set` (a class's [`Class::bytes`]) holds `c`.
    #[inline(always)]
    pub(crate) fn holds(set: u128, c: u8) -> bool {
        c < 128 && set & (1 << c) != 0
    }

    pub(crate) fn contains(self, c: u8) -> bool {
        let alnum = c.is_ascii_alphanumeric();
        match self {
            Class::Digit => c.is_ascii_digit(),
            Class::LowerHex => c.is_ascii_digit() || (b'a'..=b'f').contains(&c),
            Class::Hex => c.is_ascii_hexdigit(),
            Class::UpperAlnum => c.is_ascii_uppercase() || c.is_ascii_digit(),
            Class::LowerAlnum => c.is_ascii_lowercase() || c.is_ascii_digit(),
            Class::Letters => c.is_ascii_alphabetic(),
            Class::Lower => c.is_ascii_lowercase(),
            Class::Alnum => alnum,
            Class::Word => alnum || c == b'_',
            Class::Base64Url => alnum || c == b'_' || c == b'-',
            Class::Base64UrlPad => alnum || b"_-=".contains(&c),
            Class::Base64UrlDot => alnum || b"_-=.".contains(&c),
            Class::Base64 => alnum || c == b'+' || c == b'/',
            Class::Tilde => alnum || b"_.~-".contains(&c),
            Class::AlnumDash => alnum || c == b'-',
            Class::Bech32 => b"QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".contains(&c),
            Class::Path => alnum || b"@/-".contains(&c),
            Class::UrlBase64 => alnum || b"%+/=".contains(&c),
            Class::Django => {
                c.is_ascii_lowercase() || c.is_ascii_digit() || b"!@#$%^&*(-_=+)".contains(&c)
            }
        }
    }
}

/// One part of a token: an optional separator byte, then `min..=max` characters of
/// `class` (the longest run up to `max`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece {
    pub(crate) sep: Option<u8>,
    pub(crate) class: Class,
    /// The class's bytes as a bit set (all ASCII), asked of every byte a body is read over.
    pub(crate) bytes: u128,
    pub(crate) min: u16,
    pub(crate) max: u16,
}

/// The shape after the prefix.
#[derive(Clone, Debug)]
pub(crate) enum Body {
    Parts(Vec<Piece>),
    /// A JSON Web Token (or JWE): `eyJ…` header, then `.ey…` claims and an optional
    /// signature, or the four parts of an encrypted token.
    Jwt,
}

/// What proves a token beyond its shape.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Check {
    /// Nothing but the shape (and the guard against masks and fillers).
    Shape,
    /// The last 6 characters are the base62 CRC32 of the rest of the body (GitHub's and
    /// npm's tokens). A token that verifies is taken whatever it looks like; one that does
    /// not (documentation and test values) is still taken when it reads as random.
    Crc32Base62,
    /// The body must read as random: at least this many tenths of a bit per character, and
    /// be no name (for prefixes short or common enough to begin ordinary words).
    Entropy(u8),
    /// The checksum the encoding carries, and how much it decides.
    Sum(Sum, Need),
}

/// A checksum an encoding carries over the whole token (`checksum` computes each).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Sum {
    /// `b58`: Base58Check with Bitcoin's alphabet (WIF keys, BIP-32 extended keys, BIP-38).
    Base58Check,
    /// `xrp58`: Base58Check with the XRP Ledger's alphabet (family seeds).
    XrpBase58Check,
    /// `strkey`: base32 ending in a CRC16-XModem (Stellar's StrKey, NATS' nkeys).
    StrKey,
    /// `bech32`: BIP-173's checksum (Nostr's `nsec`, age's keys).
    Bech32,
}

impl Sum {
    fn from_name(name: &str) -> Option<Sum> {
        Some(match name {
            "b58" => Sum::Base58Check,
            "xrp58" => Sum::XrpBase58Check,
            "strkey" => Sum::StrKey,
            "bech32" => Sum::Bech32,
            _ => return None,
        })
    }
}

/// How much a row's checksum decides.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Need {
    /// `sum!:`: no token unless it holds (the shape alone is too plain).
    Holds,
    /// `sum:`: a token that holds is taken whatever it looks like; one that fails is judged
    /// on its shape (the prefix is distinctive: a test's key with a made-up checksum is
    /// still a credential to us).
    Confirms,
}

/// Where a format is recognised.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Standing {
    /// By its prefix, anywhere, pasted alone.
    Alone,
    /// Only as the value of a key whose name holds one of the format's context words
    /// (`TWILIO_AUTH_TOKEN=…`): the value alone is too plain to tell.
    AfterContext,
}

/// What of a match is replaced.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reveal {
    /// The whole token.
    Nothing,
    /// The prefix stays (a webhook's host and path name where the secret path follows).
    Prefix,
}

/// One credential format of one provider: a row of the table, read.
#[derive(Clone, Debug)]
pub(crate) struct Format {
    pub(crate) kind: &'static str,
    pub(crate) standing: Standing,
    /// `|`-separated literals the token starts with (after the lead, if any); for a context
    /// row, those its value starts with (may be empty).
    pub(crate) prefixes: &'static str,
    /// Whether the prefixes match in any case.
    pub(crate) any_case: bool,
    /// `|`-separated words of the key name a context row's value follows.
    pub(crate) context: &'static str,
    /// Characters right before the prefix that belong to the token.
    pub(crate) lead: Option<Piece>,
    pub(crate) body: Body,
    pub(crate) check: Check,
    pub(crate) reveal: Reveal,
}

impl Format {
    pub(crate) fn prefixes(&self) -> impl Iterator<Item = &'static str> {
        self.prefixes.split('|').filter(|p| !p.is_empty())
    }

    pub(crate) fn context_words(&self) -> impl Iterator<Item = &'static str> {
        self.context.split('|').filter(|w| !w.is_empty())
    }

    /// Reads one row (see the module docs); `previous_kind` is the row above's, for `"`.
    pub(crate) fn parse(row: &'static str, previous_kind: &'static str) -> Option<Format> {
        let mut fields = row.split(' ');
        let kind = match fields.next()? {
            "\"" => previous_kind,
            kind => kind,
        };
        let second = fields.next()?;
        let (standing, prefixes, context) = match second.strip_prefix('@') {
            Some(words) => {
                let (context, starts) = words.split_once('=').unwrap_or((words, ""));
                (Standing::AfterContext, starts, context)
            }
            None => (Standing::Alone, second, ""),
        };
        let body = match fields.next()? {
            "jwt" => Body::Jwt,
            "-" => Body::Parts(Vec::new()),
            parts => Body::Parts(parse_parts(parts)?),
        };
        let mut format = Format {
            kind,
            standing,
            prefixes,
            any_case: false,
            context,
            lead: None,
            body,
            check: Check::Shape,
            reveal: Reveal::Nothing,
        };
        for flag in fields {
            match flag {
                "crc" => format.check = Check::Crc32Base62,
                "ci" => format.any_case = true,
                "keep" => format.reveal = Reveal::Prefix,
                _ => {
                    if let Some(name) = flag.strip_prefix("sum!:") {
                        format.check = Check::Sum(Sum::from_name(name)?, Need::Holds);
                    } else if let Some(name) = flag.strip_prefix("sum:") {
                        format.check = Check::Sum(Sum::from_name(name)?, Need::Confirms);
                    } else if let Some(tenths) = flag.strip_prefix('e') {
                        format.check = Check::Entropy(u8::try_from(number(tenths)?).ok()?);
                    } else {
                        format.lead = Some(*parse_parts(flag.strip_prefix('<')?)?.first()?);
                    }
                }
            }
        }
        Some(format)
    }
}

/// A length of a row: decimal digits (by hand: `str::parse` costs the .wasm a few hundred
/// bytes for nothing).
fn number(digits: &str) -> Option<u16> {
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    digits.bytes().try_fold(0u16, |n, c| {
        c.is_ascii_digit().then(|| n * 10 + u16::from(c - b'0'))
    })
}

/// `D{1,}-M{8,}` into its parts.
fn parse_parts(spec: &str) -> Option<Vec<Piece>> {
    let mut parts = Vec::new();
    let mut rest = spec.as_bytes();
    while let [first, tail @ ..] = rest {
        let (sep, class, tail) = if first.is_ascii_alphabetic() {
            (None, *first, tail)
        } else {
            let (class, tail) = tail.split_first()?;
            (Some(*first), *class, tail)
        };
        let close = tail.iter().position(|c| *c == b'}')?;
        let range = std::str::from_utf8(tail.get(1..close)?).ok()?;
        let (min, max) = match range.split_once(',') {
            Some((min, "")) => (number(min)?, 4096),
            Some((min, max)) => (number(min)?, number(max)?),
            None => (number(range)?, number(range)?),
        };
        let class = Class::from_letter(class)?;
        parts.push(Piece {
            sep,
            class,
            bytes: class.bytes(),
            min,
            max,
        });
        rest = tail.get(close + 1..)?;
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_reads_into_its_format() {
        let f = Format::parse("slack-token xoxb-|xoxp- D{1,}-M{8,} e30", "").unwrap();
        assert_eq!(f.kind, "slack-token");
        assert_eq!(f.prefixes().collect::<Vec<_>>(), ["xoxb-", "xoxp-"]);
        assert_eq!(f.check, Check::Entropy(30));
        let Body::Parts(parts) = &f.body else { panic!() };
        assert_eq!(parts.len(), 2);
        assert_eq!((parts[1].sep, parts[1].min, parts[1].max), (Some(b'-'), 8, 4096));
        let c = Format::parse("\" @gocardless|gc=live_ P{40} <h{3,5}", "gocardless-token").unwrap();
        assert_eq!(c.kind, "gocardless-token");
        assert_eq!(c.standing, Standing::AfterContext);
        assert_eq!(c.context_words().collect::<Vec<_>>(), ["gocardless", "gc"]);
        assert_eq!(c.prefixes().collect::<Vec<_>>(), ["live_"]);
        assert_eq!(c.lead.map(|l| (l.min, l.max)), Some((3, 5)));
        assert!(Format::parse("broken ghp_ A{36", "").is_none());
        assert!(Format::parse("unknown-class ghp_ Z{36}", "").is_none());
        let seed = Format::parse("xrp-seed sp|sa A{27} sum!:xrp58", "").unwrap();
        assert_eq!(seed.check, Check::Sum(Sum::XrpBase58Check, Need::Holds));
        let age = Format::parse("age AGE-SECRET-KEY-1 E{58} sum:bech32", "").unwrap();
        assert_eq!(age.check, Check::Sum(Sum::Bech32, Need::Confirms));
        assert!(Format::parse("unknown-sum sp A{27} sum!:crc64", "").is_none());
    }
}
