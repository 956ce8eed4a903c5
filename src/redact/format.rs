//! The vocabulary of the provider table (`formats`): how one credential format is written down
//! as data — the literal it starts with, the characters and lengths of its parts, a checksum
//! where the provider publishes one, and whether it stands alone or only after a context word.

/// A character class of a token's part.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    Digit,
    /// `[0-9a-f]`
    LowerHex,
    /// `[0-9a-fA-F]`
    Hex,
    /// `[A-Z0-9]`
    UpperAlnum,
    /// `[a-z0-9]`
    LowerAlnum,
    /// `[A-Za-z]`
    Letters,
    /// `[a-z]`
    Lower,
    /// `[A-Za-z0-9]`
    Alnum,
    /// `[A-Za-z0-9_]`
    Word,
    /// `[A-Za-z0-9_-]`: base64url.
    Base64Url,
    /// `[A-Za-z0-9_=-]`
    Base64UrlPad,
    /// `[A-Za-z0-9_.=-]`
    Base64UrlDot,
    /// `[A-Za-z0-9+/]`: base64 (padding is read after the last part).
    Base64,
    /// `[A-Za-z0-9_.~-]`: Azure AD client secrets.
    Tilde,
    /// `[A-Za-z0-9-]`
    AlnumDash,
    /// Bech32's upper-case alphabet (age keys).
    Bech32,
    /// `[A-Za-z0-9@/-]`: a webhook's path.
    Path,
}

impl Class {
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
        }
    }
}

/// One part of a token after its prefix: an optional separator byte, then `min..=max`
/// characters of `class` (the run is read whole: a longer run is no match).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Part {
    pub(crate) sep: Option<u8>,
    pub(crate) class: Class,
    pub(crate) min: u16,
    pub(crate) max: u16,
}

/// The shape after the prefix.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Body {
    Parts(&'static [Part]),
    /// A JSON Web Token (or JWE): `eyJ…` header, then `.ey…` claims and an optional
    /// signature, or the four parts of an encrypted token.
    Jwt,
}

/// What proves a token beyond its shape.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Check {
    /// Nothing but the shape (and the guard against masks).
    Shape,
    /// The last 6 characters are the base62 CRC32 of the rest of the body (GitHub's and
    /// npm's tokens). A token that verifies is taken whatever it looks like; one that does
    /// not (documentation and test values) is still taken when it reads as random.
    Crc32Base62,
    /// The body must read as random: at least this many tenths of a bit per character
    /// (for prefixes short or common enough to begin ordinary words).
    Entropy(u8),
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

/// Characters that must come right before the prefix, read backwards (Telegram's bot id
/// before `:AA…`, Mailchimp's key before `-us12`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lead {
    pub(crate) class: Class,
    pub(crate) min: u16,
    pub(crate) max: u16,
}

/// What of a match is replaced.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reveal {
    /// The whole token.
    Nothing,
    /// The prefix stays (a webhook's host and path name where the secret path follows).
    Prefix,
}

/// One credential format of one provider.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Format {
    /// Written as `[REDACTED:<kind>]`.
    pub(crate) kind: &'static str,
    pub(crate) standing: Standing,
    /// Literals the token starts with (after the lead, if any). Empty for a context row
    /// whose value has no fixed start.
    pub(crate) prefixes: &'static [&'static str],
    /// Whether the prefixes match in any case.
    pub(crate) prefix_any_case: bool,
    pub(crate) lead: Option<Lead>,
    pub(crate) body: Body,
    pub(crate) check: Check,
    pub(crate) reveal: Reveal,
    /// Words of the key name a value of this format may follow (required with
    /// `Standing::AfterContext`), matched in any case.
    pub(crate) context: &'static [&'static str],
}

/// `n` characters of `class`, no separator.
pub(crate) const fn run(class: Class, min: u16, max: u16) -> Part {
    Part {
        sep: None,
        class,
        min,
        max,
    }
}

/// `sep` then `min..=max` characters of `class`.
pub(crate) const fn then(sep: u8, class: Class, min: u16, max: u16) -> Part {
    Part {
        sep: Some(sep),
        class,
        min,
        max,
    }
}

/// An open-ended length.
pub(crate) const MANY: u16 = 4096;

/// A token recognised alone by its prefix.
pub(crate) const fn token(
    kind: &'static str,
    prefixes: &'static [&'static str],
    parts: &'static [Part],
) -> Format {
    Format {
        kind,
        standing: Standing::Alone,
        prefixes,
        prefix_any_case: false,
        lead: None,
        body: Body::Parts(parts),
        check: Check::Shape,
        reveal: Reveal::Nothing,
        context: &[],
    }
}

/// A value recognised after a key naming one of `words`.
pub(crate) const fn after(
    kind: &'static str,
    words: &'static [&'static str],
    parts: &'static [Part],
) -> Format {
    Format {
        kind,
        standing: Standing::AfterContext,
        prefixes: &[],
        prefix_any_case: false,
        lead: None,
        body: Body::Parts(parts),
        check: Check::Shape,
        reveal: Reveal::Nothing,
        context: words,
    }
}

impl Format {
    pub(crate) const fn checked(mut self, check: Check) -> Format {
        self.check = check;
        self
    }
    pub(crate) const fn any_case(mut self) -> Format {
        self.prefix_any_case = true;
        self
    }
    pub(crate) const fn led_by(mut self, class: Class, min: u16, max: u16) -> Format {
        self.lead = Some(Lead { class, min, max });
        self
    }
    pub(crate) const fn keeping_prefix(mut self) -> Format {
        self.reveal = Reveal::Prefix;
        self
    }
    /// An `after` row whose value starts with a literal (`live_…`, `key-…`).
    pub(crate) const fn starting(mut self, prefixes: &'static [&'static str]) -> Format {
        self.prefixes = prefixes;
        self
    }
}
