//! The grammar of `key <separator> value`, in every form a credential is written in: shell and
//! `.env` lines, JSON, YAML (also the value on the line after its key), TOML and INI, code
//! (`x = "…"`, `password == "…"`, PHP `$cfg['db_password'] = '…'`, `define('DB_PASSWORD',
//! '…')`, the default of `getenv("PASSWORD", "…")`, a call's literal: `setPassword("…")`,
//! `HTTPBasicAuth("u", "…")`, `auth=("u", "…")`), XML elements (`<password>…</password>`,
//! Java's `<entry key="db.password">…</entry>`) and .NET's `<add key="Password" value="…"/>`,
//! command-line flags (`--password x`) and `.netrc` lines.
//! Only reading: which values are secrets is `generic`'s judgement.

use super::directive::{
    config_setter, fetchmail_poll, insecure_password, psk_entry, sql_password, starts_line,
};
use super::roff::roff_quoted;
use super::shape::{
    line_before, literal_at, name_quoted_before, name_start, quoted, string_prefix, unquoted_end,
};

/// How a key meets its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Separator {
    /// `=`, `:`, `:=` or `=>`; or `==`, `===` (a comparison with a literal, as
    /// `if password == "root"`).
    Sign(&'static str),
    /// The first argument of a call, the value its second: `define('K', 'v')`.
    Argument,
    /// `<password>value</password>` or `key="Password" value="…"`.
    Markup,
    /// A call whose quoted argument is the value: `setPassword("…")`, `.password("…")`,
    /// and the second of two for a user and password (`HTTPBasicAuth("u", "…")`,
    /// `NetworkCredential("u", "…")`, `auth=("u", "…")`).
    Call,
    /// A blank: `--password x`, `.netrc`'s `password x`.
    Blank,
}

/// An assignment's key and separator.
pub(crate) struct KeySep<'t> {
    pub(crate) key: &'t str,
    /// The key was closed by a quote (`"password": …`).
    pub(crate) key_quoted: bool,
    pub(crate) sep: Separator,
    /// Blanks around the separator.
    pub(crate) spaced: bool,
    /// Where the value starts.
    pub(crate) end: usize,
}

/// Reads `<key name> [closing quote] [blanks] <separator> [blanks]` from `pos` (where the
/// key word starts) to `name_end` (where the name ends), or the blank after it.
pub(crate) fn key_sep(text: &str, pos: usize, name_end: usize) -> Option<KeySep<'_>> {
    let bytes = text.as_bytes();
    let key = text.get(pos..name_end)?;
    let mut i = name_end;
    let mut j = i;
    while bytes.get(j) == Some(&b'\\') {
        j += 1;
    }
    let key_quoted = matches!(bytes.get(j), Some(b'"' | b'\''));
    if key_quoted {
        i = j + 1;
        // `$cfg['db_password'] = …`, `params["token"] = …`
        if bytes.get(i) == Some(&b']') {
            i += 1;
        }
    }
    let blanks = |mut at: usize| {
        while bytes.get(at).is_some_and(|c| *c == b' ' || *c == b'\t') {
            at += 1;
        }
        at
    };
    // `<password>…</password>`, and `<entry key="db.password">…</entry>` (Java's XML
    // properties): the element's text is the value.
    if bytes.get(i) == Some(&b'>')
        && ((key_quoted && attribute_is_key(bytes, pos))
            || (!key_quoted && element_opens(bytes, pos)))
    {
        return Some(KeySep {
            key,
            key_quoted,
            sep: Separator::Markup,
            spaced: false,
            end: i + 1,
        });
    }
    if !key_quoted && bytes.get(i) == Some(&b'(') {
        return call_value(bytes, i).map(|end| KeySep {
            key,
            key_quoted,
            sep: Separator::Call,
            spaced: false,
            end,
        });
    }
    let after_ws1 = blanks(i);
    if key_quoted {
        if let Some(v) = literal_ci(bytes, after_ws1, b"value=").filter(|_| after_ws1 > i) {
            return Some(KeySep {
                key,
                key_quoted,
                sep: Separator::Markup,
                spaced: false,
                end: v,
            });
        }
        if bytes.get(after_ws1) == Some(&b',') && opens_call(bytes, pos) {
            return Some(KeySep {
                key,
                key_quoted,
                sep: Separator::Argument,
                spaced: true,
                end: blanks(after_ws1 + 1),
            });
        }
    }
    let sep = [":=", "=>", "===", "==", "=", ":"]
        .into_iter()
        .find(|s| literal_at(bytes, after_ws1, s.as_bytes(), false));
    match sep {
        Some(s) => {
            let end = blanks(after_ws1 + s.len());
            Some(KeySep {
                key,
                key_quoted,
                sep: Separator::Sign(s),
                spaced: after_ws1 > i || end > after_ws1 + s.len(),
                end,
            })
        }
        None if after_ws1 > i => Some(KeySep {
            key,
            key_quoted,
            sep: Separator::Blank,
            spaced: true,
            end: after_ws1,
        }),
        None => None,
    }
}

/// The quoted argument a call at `open` (its `(`) passes its value in: the only one, or the
/// second of two (a user, then a password). Both are quoted literals; anything else is code.
pub(crate) fn call_value(b: &[u8], open: usize) -> Option<usize> {
    let blanks = |mut at: usize| {
        while b.get(at).is_some_and(|c| *c == b' ' || *c == b'\t') {
            at += 1;
        }
        at
    };
    let literal = |at: usize| quoted(b, at, 512).map(|(_, end)| end + 1);
    let first = blanks(open + 1);
    let after_first = blanks(literal(first)?);
    match b.get(after_first) {
        Some(b')') => Some(first),
        Some(b',') => {
            let second = blanks(after_first + 1);
            let after_second = blanks(literal(second)?);
            (b.get(after_second) == Some(&b')')).then_some(second)
        }
        _ => None,
    }
}

fn literal_ci(b: &[u8], at: usize, literal: &[u8]) -> Option<usize> {
    literal_at(b, at, literal, true).then_some(at + literal.len())
}

/// `<password>`, `<db:password>`, `<admin-password>`, `<adminPassword>`: the key name ends
/// the name of an element that opens.
fn element_opens(b: &[u8], key_start: usize) -> bool {
    let full = b.get(..key_start).unwrap_or(&[]);
    let prefix = full
        .iter()
        .rev()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric() || b"_-".contains(c))
        .count();
    let head = full.get(..full.len() - prefix).unwrap_or(&[]);
    match head.last() {
        Some(b'<') => true,
        Some(b':') => {
            let ns = head
                .iter()
                .rev()
                .skip(1)
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
            head.len() > ns + 1 && head.get(head.len() - ns - 2) == Some(&b'<')
        }
        _ => false,
    }
}

/// `key="…password"`: the quoted name is the value of an attribute called `key`.
fn attribute_is_key(b: &[u8], key_start: usize) -> bool {
    let head = b.get(..key_start).unwrap_or(&[]);
    let name_start = head
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || b"_.-".contains(c)))
        .unwrap_or(0);
    head.get(..name_start).is_some_and(|h| {
        h.len() >= 4
            && h.get(h.len() - 4..)
                .is_some_and(|t| t.eq_ignore_ascii_case(b"key="))
    })
}

/// Functions that take a password and something else that is no secret of it (a salt, a
/// hash to compare with): `hash_password("pw", "salt")`, `verify(pw, hash)`.
#[rustfmt::skip]
const PASSWORD_CONSUMERS: &[&str] = &[
    "hash", "verify", "check", "compare", "crypt", "encode", "digest", "derive", "kdf", "pbkdf",
    "argon",
];

/// `define('K'`, `getenv("K"`, `.get('k'`: the quoted key is a call's first argument (not
/// that of a call consuming a password: `hash_password("pw", "salt")`).
fn opens_call(b: &[u8], key_start: usize) -> bool {
    let head = b.get(..key_start).unwrap_or(&[]);
    let name_start = head
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || b"_.-".contains(c)))
        .unwrap_or(0);
    let before_quote = head.get(..name_start).unwrap_or(&[]);
    let blanks_back = |end: usize| {
        before_quote
            .get(..end)
            .and_then(|h| h.iter().rposition(|c| !matches!(c, b' ' | b'\t')))
    };
    let mut trimmed = blanks_back(before_quote.len());
    // `modparam("siptrace", "auth_key", "…")` (Kamailio's), `config.set("db", "password",
    // "…")` (Python's configparser): the key is the second argument, after a section's or
    // a module's quoted name.
    if let Some(comma) = trimmed.filter(|i| before_quote.get(*i) == Some(&b',')) {
        let open = blanks_back(comma).and_then(|close| name_quoted_before(before_quote, close));
        trimmed = open.and_then(blanks_back);
    }
    let Some(open) = trimmed.filter(|i| before_quote.get(*i) == Some(&b'(')) else {
        return false;
    };
    // `.merge(("secret_key", "…"))`: a call's one argument a (name, value) tuple (Figment's).
    let callee = before_quote.get(..open).map_or(&[][..], |c| c.strip_suffix(b"(").unwrap_or(c));
    // `('AUTH', 'SELECTED')`: a tuple, not a call, when no name stands before the `(`.
    if !callee.last().is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        return false;
    }
    // The callee with its path and generics (`hash_password::<Sha512>`).
    let len = callee
        .iter()
        .rev()
        .take(48)
        .take_while(|c| c.is_ascii_alphanumeric() || b"_:<>.".contains(c))
        .count();
    let name = callee
        .get(callee.len() - len..)
        .unwrap_or(&[])
        .to_ascii_lowercase();
    !PASSWORD_CONSUMERS
        .iter()
        .any(|f| name.windows(f.len()).any(|w| w == f.as_bytes()))
}

/// The value after an assignment's separator, as byte offsets into the text.
pub(crate) struct Value {
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// End of what the value took, closing quote included.
    pub(crate) consumed: usize,
    pub(crate) quote: Option<u8>,
    /// The value stood on the line after its key (YAML).
    pub(crate) next_line: bool,
}

/// Longest value read; a longer run is a blob, not a credential.
const MAX_VALUE: usize = 4096;

/// Reads the value at `at`: quoted (`"…"`, `'…'`, `` `…` ``, JSON-escaped `\"…\"`; it must
/// close on the same line), the text of an element up to `</`, or unquoted (up to blanks,
/// quotes, brackets, `&`, `,`, `;`, `|`). After a `:` that ends its line (or a YAML block
/// indicator), the value is the next line's, when that line is indented and holds one word.
pub(crate) fn value_at(text: &str, at: usize, sep: Separator) -> Option<Value> {
    let bytes = text.as_bytes();
    if sep == Separator::Markup && bytes.get(at).is_some_and(|c| !matches!(c, b'"' | b'\'')) {
        let rest = bytes.get(at..)?;
        let len = rest
            .iter()
            .take(MAX_VALUE)
            .position(|c| matches!(c, b'<' | b'\n' | b'\r'))?;
        return (rest.get(len..len + 2) == Some(b"</") && len > 0).then_some(Value {
            start: at,
            end: at + len,
            consumed: at + len,
            quote: None,
            next_line: false,
        });
    }
    if sep == Separator::Sign(":") {
        if let Some(v) = next_line_value(text, at) {
            return Some(v);
        }
    }
    if let Some((start, end, consumed)) = roff_quoted(bytes, at) {
        return Some(Value { start, end, consumed, quote: Some(b'\''), next_line: false });
    }
    let mut i = at;
    while bytes.get(i) == Some(&b'\\') {
        i += 1;
    }
    // `b"…"`, `rb'…'`: Python's string and bytes prefixes (its lexical analysis lists them);
    // the literal after them is the value, escapes and all.
    let prefixed = string_prefix(bytes, at);
    if prefixed > 0 {
        i = at + prefixed;
    }
    match bytes.get(i).copied() {
        Some(q @ (b'"' | b'\'' | b'`')) if i == at || q == b'"' || prefixed > 0 => {
            let start = i + 1;
            let escaped_quotes = i > at && prefixed == 0;
            let mut k = start;
            let end = loop {
                let c = *bytes.get(k)?;
                if k - start >= MAX_VALUE || c == b'\r' || c == b'\n' {
                    return None;
                }
                if c == q {
                    break k;
                }
                if c == b'\\' {
                    // `\"` closes a value opened by `\"`; elsewhere a backslash escapes
                    // the next character (JSON, most languages).
                    let slashes = bytes
                        .get(k..)
                        .map_or(0, |t| t.iter().take_while(|c| **c == b'\\').count());
                    if escaped_quotes && bytes.get(k + slashes) == Some(&q) {
                        break k;
                    }
                    if escaped_quotes || (q != b'"' && prefixed == 0) {
                        return None;
                    }
                    k += 2;
                    continue;
                }
                k += 1;
            };
            let mut close = end;
            while bytes.get(close) == Some(&b'\\') {
                close += 1;
            }
            (bytes.get(close) == Some(&q)).then_some(Value {
                start,
                end,
                consumed: close + 1,
                quote: Some(q),
                next_line: false,
            })
        }
        Some(_) if i > at || prefixed > 0 => None,
        Some(_) => {
            let end = unquoted_end(text, at, MAX_VALUE)?;
            (end > at).then_some(Value {
                start: at,
                end,
                consumed: end,
                quote: None,
                next_line: false,
            })
        }
        None => None,
    }
}

/// `password:` (or `password: |`) ending its line, and the next line indented deeper than
/// the key's, holding one word: that word is the value.
fn next_line_value(text: &str, at: usize) -> Option<Value> {
    let bytes = text.as_bytes();
    let mut i = at;
    if matches!(bytes.get(i), Some(b'|' | b'>')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
    }
    while bytes.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
    }
    let line_start = match bytes.get(i) {
        Some(b'\n') => i + 1,
        Some(b'\r') if bytes.get(i + 1) == Some(&b'\n') => i + 2,
        _ => return None,
    };
    let key_line = line_before(text, at);
    let key_indent = key_line.len() - key_line.trim_start_matches([' ', '\t']).len();
    let line = text.get(line_start..)?;
    let line = line.split(['\n', '\r']).next()?;
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    let word = line.trim();
    let simple = !word.is_empty()
        && !word.contains(char::is_whitespace)
        && !word.starts_with(['-', '#', '"', '\''])
        && !word.ends_with(':')
        && !word.contains(": ");
    (indent > key_indent && simple).then(|| {
        let start = line_start + indent;
        Value {
            start,
            end: start + word.len(),
            consumed: start + word.len(),
            quote: None,
            next_line: true,
        }
    })
}

/// Cheap test before reading an assignment (`token`, `secret`, `pass` are common words):
/// after the key name, its closing quote (and a `]`) and blanks, is there a `:` or `=`, a
/// `,` after a call's quoted first argument, the `>` of an element, `value=` after a quoted
/// key, or a blank after a `--flag` or a `.netrc` keyword? Prose such as "the token is"
/// stops here.
pub(crate) fn separator_follows(text: &str, key_start: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = key_start;
    let name_end = key_start + 48;
    while i < name_end
        && bytes
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || b"_.-".contains(c))
    {
        i += 1;
    }
    let name = i;
    while bytes.get(i).is_some_and(|c| b"\\\"'".contains(c)) {
        i += 1;
    }
    let quoted = i > name;
    if quoted && bytes.get(i) == Some(&b']') {
        i += 1;
    }
    let blank_start = i;
    while bytes.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b':' | b'=') => true,
        Some(b'(') => !quoted && i == name,
        Some(b',') => quoted,
        Some(b'>') => {
            i == blank_start
                && if quoted {
                    attribute_is_key(bytes, key_start)
                } else {
                    element_opens(bytes, key_start)
                }
        }
        Some(b'v' | b'V') => quoted && i > blank_start,
        Some(c) if i > blank_start => {
            let key = text.get(key_start..blank_start).unwrap_or("");
            is_cli_flag(text, key_start)
                || is_netrc(text, key_start, key.trim_end_matches(['"', '\'', '\\']))
                || (!quoted && starts_line(text, key_start))
                || (bytes.get(key_start.wrapping_sub(1)) == Some(&b'-')
                    && insecure_password(text, key_start))
                || config_setter(text, key_start)
                || (matches!(c, b'\'' | b'"')
                    && (sql_password(text, key_start)
                        || psk_entry(text, key_start)
                        || fetchmail_poll(text, key_start)))
        }
        _ => false,
    }
}

/// `--password value`: the key is part of a command-line flag.
pub(crate) fn is_cli_flag(text: &str, key_start: usize) -> bool {
    flag_before(text, key_start).is_some()
}

/// The flag that ends with the key word at `key_start` (`--db-password`), up to the key.
pub(crate) fn flag_before(text: &str, key_start: usize) -> Option<&str> {
    let head = text.get(key_start.saturating_sub(64)..key_start)?;
    let flag_len = head
        .bytes()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
        .count();
    let flag = head.get(head.len() - flag_len..)?;
    // `--password x`; Java's keytool and OpenSSL take one dash (`-storepass x`, `-password
    // pass:x`), after a blank.
    let single = flag.starts_with('-')
        && head
            .get(..head.len() - flag_len)
            .is_some_and(|h| (h.is_empty() && head.len() < 64) || h.ends_with([' ', '\t']));
    (flag.starts_with("--") || single).then_some(flag)
}

/// `machine host login me password secret`: a `.netrc` entry, on one line or with its
/// `machine` (or `default`) line a few lines above.
pub(crate) fn is_netrc(text: &str, key_start: usize, key: &str) -> bool {
    if !key.eq_ignore_ascii_case("password") {
        return false;
    }
    let head = text
        .get(key_start.saturating_sub(512)..key_start)
        .or_else(|| text.get(..key_start))
        .unwrap_or("");
    let entry = head.rsplitn(5, '\n').collect::<Vec<_>>();
    let line = line_before(text, key_start);
    let on_line =
        (line.contains("machine ") || line.contains("default ")) && line.contains("login ");
    let above = line.trim().is_empty()
        && entry.iter().any(|l| {
            let l = l.trim_start();
            l.starts_with("machine ") || l.starts_with("default")
        });
    on_line || above
}

/// The quote that opens the string a key name sits in, if any: the byte before the run of
/// name characters that ends at `key_start`.
pub(crate) fn quote_before_name(text: &str, key_start: usize) -> Option<u8> {
    let head = text.as_bytes().get(..key_start)?;
    let name_start = head
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || b"_.-".contains(c)))?;
    head.get(name_start)
        .copied()
        .filter(|c| b"\"'`".contains(c))
}

/// The whole name the key word at `key_start` ends or sits in (`hashed_secret`,
/// `DB_PASSWORD`), up to `name_end`.
pub(crate) fn whole_name(text: &str, key_start: usize, name_end: usize) -> &str {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let start = name_start(text, key_start);
    // `public key:`, `Sort Key =`: the word before a blank names the key too.
    let word = head
        .get(..start)
        .and_then(|h| h.strip_suffix(b" "))
        .map_or(0, |h| {
            h.iter()
                .rev()
                .take(32)
                .take_while(|c| c.is_ascii_alphanumeric())
                .count()
                + 1
        });
    text.get(start - word.min(start)..name_end)
        .or_else(|| text.get(start..name_end))
        .unwrap_or("")
}

/// `${NAME…`: the key at `key_start` ends a variable name that a shell parameter expansion
/// opened.
pub(crate) fn in_parameter_expansion(text: &str, key_start: usize) -> bool {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let name_len = head
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    head.get(..head.len() - name_len)
        .is_some_and(|h| h.ends_with(b"${"))
}
