//! Secrets named by what comes before them: `password=`, `secret:`, `token=` style
//! assignments (the key stays, the value goes), `ENCRYPTION_KEY=` and the other
//! `<what>_KEY` names, `--password x`, `.netrc` lines, `curl -u user:pass`,
//! `mysql -p<password>`, `sshpass -p <password>`, and AWS secret keys after their
//! key name.

use super::not_secret::{is_expression, is_name, is_placeholder, is_reference, looks_like_code};
use super::scan::{Hit, Matcher};
use super::shape::{blanks, chars_until, exactly, lit, lit_ci, literal_at, one_of, quote_opt, run};

/// Key words of assignments, longest first so `password` wins over `pass`.
#[rustfmt::skip]
const ASSIGNMENT_KEYWORDS: &[&str] = &[
    "passphrase", "credentials", "private_key", "private-key", "privatekey", "access_key",
    "access-key", "accesskey", "credential", "password", "api_key", "api-key", "passwd", "secret",
    "apikey", "token", "pass", "auth", "pwd",
];

/// Words that name a key when `key` follows them, with or without a `_`, `-` or
/// `.` between (`ENCRYPTION_KEY`, `signingKey`, `AccountKey`): alone they are
/// common words (`master`, `account`), so the `key` is required.
const KEY_OWNERS: &[&str] = &["encryption", "signing", "master", "storage", "account"];

/// Name parts that may follow a key word (`secret_access_key`,
/// `passwordHash`); anything else (`tokens`, `token_type`, `tokenizer`,
/// `secret_name`) means the name is not a credential's.
#[rustfmt::skip]
const ASSIGNMENT_SUFFIXES: &[&str] = &[
    "confirmation", "plaintext", "password", "private", "confirm", "access", "secret", "client",
    "master", "string", "phrase", "token", "admin", "plain", "value", "auth", "root", "user",
    "hash", "word", "base", "key", "api", "app", "str", "db",
];

impl Matcher {
    /// Judges `key = value`: see the module docs for which values survive.
    pub(crate) fn assignment(&self, text: &str, pos: usize) -> Option<Hit> {
        if !separator_follows(text, pos) {
            return None;
        }
        let KeySep {
            key,
            key_quoted,
            sep,
            spaced,
            end,
        } = assignment_key(text, pos)?;
        let value = value_at(text, end)?;
        let quote = value.quote;
        if sep.is_none() && !(spaced && (is_cli_flag(text, pos) || is_netrc(text, pos, key))) {
            return None;
        }
        // `"core.askPass=" + x`: the key sits inside a string whose closing
        // quote comes after the separator; what follows is not its value.
        if quote.is_some() && !key_quoted && quote == quote_before_name(text, pos) {
            return None;
        }
        // `${DB_PASSWORD:-x}`, `${TOKEN:?unset}`: a shell parameter
        // expansion names the variable; what follows its `:` is an operator.
        if in_parameter_expansion(text, pos) {
            return None;
        }
        let v = text.get(value.start..value.end)?;
        // `PASSWORD=password=[REDACTED:…]`: the earlier pass already took
        // this value; a second pass must change nothing.
        if text
            .get(value.consumed..)
            .is_some_and(|t| t.starts_with("[REDACTED:"))
        {
            return None;
        }
        let lower_key = key.to_ascii_lowercase();
        let kind = if lower_key.contains("pass") || lower_key.contains("pwd") {
            "password-assignment"
        } else if lower_key.starts_with("token") || lower_key.starts_with("auth") {
            "token-assignment"
        } else {
            "secret-assignment"
        };
        let password = kind == "password-assignment";
        // An ALL-CAPS key with `=` and no spaces is an environment or .env
        // line: its value is literal text, never code.
        let env_key = key.bytes().any(|c| c.is_ascii_alphabetic())
            && !key.bytes().any(|c| c.is_ascii_lowercase());
        let env_line = env_key && sep == Some("=") && !spaced;
        let next = text.as_bytes().get(value.end).copied();
        let name = is_name(v);
        // `pass` and `pwd` are also words: `"pass": "fail"`, and alone (not
        // the end of `DB_PASS`, `MYSQL_PWD`) `--- PASS: TestX/y`, `pass: I'll`,
        // `PASS=120`, jq's `pass: .pass`. Their values must look like one.
        let weak = lower_key == "pass" || lower_key == "pwd";
        let alone = !pos
            .checked_sub(1)
            .and_then(|p| text.as_bytes().get(p))
            .is_some_and(|c| c.is_ascii_alphanumeric() || b"_-".contains(c));
        let weak_survives = weak
            && ((name && !env_line)
                || (alone
                    && (v.bytes().all(|c| c.is_ascii_digit())
                        || (key == "PASS" && sep == Some(":"))
                        || (quote.is_none() && !v.bytes().any(|c| c.is_ascii_digit())))));
        // In a `.env` line a secret is literal text, and a long single word is
        // one (`JWT_SECRET=mysupersecretvalue`); names with separators
        // (`lm-studio`, `not-needed`) stay names.
        let env_word = env_line && v.len() >= 8 && v.bytes().all(|c| c.is_ascii_alphabetic());
        // `storageKey`, `accountKey`, `masterKey` also name object keys and
        // settings (`'app_settings_v2'`, `"avatars/u-12.png"`): key material
        // is long and random, 16 characters at least, letters and digits.
        let owned = KEY_OWNERS.iter().any(|w| lower_key.starts_with(w));
        let weak_material = owned
            && (v.chars().count() < 16
                || !v.bytes().any(|c| c.is_ascii_digit())
                || !v.bytes().any(|c| c.is_ascii_alphabetic())
                || (v.contains(['/', '.'])
                    && !v
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))));
        let survives = v.chars().count() < if password { 3 } else { 6 }
            || is_placeholder(v)
            || v.eq_ignore_ascii_case(key)
            || v.starts_with(char::is_whitespace)
            || v.ends_with(char::is_whitespace)
            || is_expression(v)
            // Counts, ids, versions: a token or secret has letters.
            || (!password && !v.chars().any(char::is_alphabetic))
            || (password && !env_line && v.bytes().all(|c| c.is_ascii_digit()))
            // Keys, tokens and secrets are single words; passwords may be
            // passphrases, but not sentences.
            || (!password && v.chars().any(char::is_whitespace))
            || v.chars().filter(|c| c.is_whitespace()).count() >= 4
            // `"token": "github_webhook"`, `"apiKeyHelper"`: names, not secrets.
            || (!password && name && !env_word)
            // `auth=fifo:/run/fifo`, `secret=env:NAME`: a reference.
            || (!password && is_reference(v))
            // `"pass": "fail"`, `pwd: "Get-Location"`, test statuses, prose.
            || weak_survives
            || weak_material
            || (quote.is_none()
                && !env_line
                && (looks_like_code(v, next) || (name && (spaced || sep == Some(":")))));
        if survives {
            return None;
        }
        Some(self.prefer_token(text, value.start, value.end, value.consumed, kind))
    }
}

/// The 40-character secret after an AWS secret key's name:
/// `(?i-u:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)`
/// `(?:\\*["'])?[ \t]*(?::=|=>|=|:)[ \t]*(?:\\*["'])?(?P<s>[A-Za-z0-9/+]{40})`.
pub(crate) fn aws_secret_key(b: &[u8], pos: usize) -> Option<(usize, usize)> {
    let sep = |at: usize| run(b, at, |c| b"_.-".contains(&c)).min(at + 1);
    let name_end = match lit_ci(b, pos, b"aws") {
        Some(i) => {
            let i = sep(lit_ci(b, sep(i), b"secret")?);
            let i = lit_ci(b, i, b"access").map_or(i, sep);
            lit_ci(b, i, b"key")?
        }
        None => {
            let i = lit_ci(b, sep(lit_ci(b, pos, b"secret")?), b"access")?;
            lit_ci(b, sep(i), b"key")?
        }
    };
    let i = blanks(b, quote_opt(b, name_end));
    // `:=` and `=>` first; falling back to their first byte could not match,
    // as `=` and `>` may not start the value.
    let i = one_of(b, i, &[b":=", b"=>", b"=", b":"])?;
    let s = quote_opt(b, blanks(b, i));
    let e = exactly(
        b,
        s,
        |c| c.is_ascii_alphanumeric() || c == b'/' || c == b'+',
        40,
    )?;
    Some((s, e))
}

/// The password of `curl -u user:pass`: `(?:-u|--user)(?:[ \t]+|=)["']?`
/// `[A-Za-z0-9._%+@-]*:(?P<s>[^\s'"\[]+)`.
pub(crate) fn curl_user_password(text: &str, pos: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"-u").or_else(|| lit(b, pos, b"--user"))?;
    let j = blanks(b, i);
    let i = if j > i { j } else { lit(b, i, b"=")? };
    let i = i + usize::from(matches!(b.get(i), Some(b'"' | b'\'')));
    let i = run(b, i, |c| {
        c.is_ascii_alphanumeric() || b"._%+@-".contains(&c)
    });
    let s = lit(b, i, b":")?;
    let e = chars_until(text, s, |c| c.is_whitespace() || "'\"[".contains(c));
    (e > s).then_some((s, e))
}

/// MySQL clients read a password glued to `-p` (`-p` alone prompts).
#[rustfmt::skip]
const MYSQL_CLIENTS: &[&str] = &[
    "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlpump",
    "mariadb", "mariadb-dump", "mariadb-admin",
];

/// The password of `mysql … -p<password>` (glued, as the MySQL clients
/// take it) or of `sshpass -p <password>`, quoted or not. Every other `-p`
/// (`ssh -p 2222`, `docker run -p 8080:80`, `mkdir -p`, `-pthread`) is not
/// one: the command on the line decides.
pub(crate) fn cli_password(text: &str, pos: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"-p")?;
    let line = line_before(text, pos);
    let command = |w: &'_ str| {
        let w = w.trim_start_matches(['(', '`', '"', '\'']);
        w.rsplit('/').next().unwrap_or(w).to_string()
    };
    let glued = match b.get(i) {
        // sshpass's own flags may come between it and `-p`.
        Some(b' ' | b'\t') => {
            let last = line
                .split_whitespace()
                .rev()
                .find(|w| !w.starts_with('-'))?;
            if command(last) != "sshpass" {
                return None;
            }
            false
        }
        Some(_)
            if line
                .split_whitespace()
                .any(|w| MYSQL_CLIENTS.contains(&command(w).as_str())) =>
        {
            true
        }
        _ => return None,
    };
    let start = blanks(b, i);
    let (s, e) = match b.get(start) {
        Some(q @ (b'"' | b'\'')) => {
            let s = start + 1;
            let len = b
                .get(s..)?
                .iter()
                .take(512)
                .position(|c| c == q || *c == b'\n')?;
            (len > 0 && b.get(s + len) == Some(q)).then_some((s, s + len))?
        }
        _ => {
            let e = chars_until(text, start, |c| c.is_whitespace() || "'\";|&)`".contains(c));
            (e > start).then_some((start, e))?
        }
    };
    // `-p3306:3306` on a `docker run --name mysql` line: a port mapping.
    let port = b
        .get(s..e)
        .is_some_and(|v| v.iter().all(|c| c.is_ascii_digit() || *c == b':'));
    (!(glued && port)).then_some((s, e))
}

/// `${NAME…`: the key at `key_start` ends a variable name that a shell
/// parameter expansion opened.
fn in_parameter_expansion(text: &str, key_start: usize) -> bool {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let name_len = head
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    head.get(..head.len() - name_len)
        .is_some_and(|h| h.ends_with(b"${"))
}

/// `--password value`: the key is part of a command-line flag.
fn is_cli_flag(text: &str, key_start: usize) -> bool {
    let head = text
        .as_bytes()
        .get(key_start.saturating_sub(64)..key_start)
        .unwrap_or(&[]);
    let flag_len = head
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-' || **c == b'_')
        .count();
    head.get(head.len() - flag_len..)
        .is_some_and(|flag| flag.starts_with(b"--"))
}

/// Cheap test before reading an assignment or an AWS secret key
/// (`token`, `secret`, `pass` are common words): after the key name, its
/// closing quote and blanks, is there a `:` or `=` (or a blank after a
/// `--flag` or in a `.netrc` line)? Prose such as "the token is" stops here.
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
    while bytes.get(i).is_some_and(|c| b"\\\"'".contains(c)) {
        i += 1;
    }
    let blank_start = i;
    while bytes.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b':' | b'=') => true,
        Some(_) if i > blank_start => {
            let key = text.get(key_start..blank_start).unwrap_or("");
            is_cli_flag(text, key_start)
                || is_netrc(text, key_start, key.trim_end_matches(['"', '\'', '\\']))
        }
        _ => false,
    }
}

/// An assignment's key and separator.
struct KeySep<'t> {
    key: &'t str,
    /// The key was closed by a quote (`"password": …`).
    key_quoted: bool,
    /// `=`, `:`, `:=` or `=>`; None for a blank (`--password x`).
    sep: Option<&'static str>,
    /// Blanks around the separator.
    spaced: bool,
    /// Where the value starts.
    end: usize,
}

/// Reads `<key word><name parts> [closing quote] [blanks] <separator> [blanks]`
/// at `pos`, or `<key word><name parts><blanks>` (separator None).
fn assignment_key(text: &str, pos: usize) -> Option<KeySep<'_>> {
    let bytes = text.as_bytes();
    let starts = |at: usize, w: &str| literal_at(bytes, at, w.as_bytes(), true);
    let owned_key = || {
        let owner = KEY_OWNERS.iter().find(|w| starts(pos, w))?;
        let i = pos + owner.len();
        let i = i + usize::from(bytes.get(i).is_some_and(|c| b"_.-".contains(c)));
        starts(i, "key").then_some(i + 3)
    };
    let mut i = match ASSIGNMENT_KEYWORDS.iter().find(|w| starts(pos, w)) {
        Some(word) => pos + word.len(),
        None => owned_key()?,
    };
    for _ in 0..3 {
        let j = i + usize::from(bytes.get(i).is_some_and(|c| b"_.-".contains(c)));
        let digits = bytes.get(j..).map_or(0, |t| {
            t.iter().take(2).take_while(|c| c.is_ascii_digit()).count()
        });
        if digits > 0 {
            i = j + digits;
        } else if let Some(part) = ASSIGNMENT_SUFFIXES.iter().find(|w| starts(j, w)) {
            i = j + part.len();
        } else {
            break;
        }
    }
    let key = text.get(pos..i)?;
    let mut j = i;
    while bytes.get(j) == Some(&b'\\') {
        j += 1;
    }
    let key_quoted = matches!(bytes.get(j), Some(b'"' | b'\''));
    if key_quoted {
        i = j + 1;
    }
    let blanks = |mut at: usize| {
        while bytes.get(at).is_some_and(|c| *c == b' ' || *c == b'\t') {
            at += 1;
        }
        at
    };
    let after_ws1 = blanks(i);
    let sep = [":=", "=>", "=", ":"]
        .into_iter()
        .find(|s| literal_at(bytes, after_ws1, s.as_bytes(), false));
    match sep {
        Some(s) => {
            let end = blanks(after_ws1 + s.len());
            Some(KeySep {
                key,
                key_quoted,
                sep: Some(s),
                spaced: after_ws1 > i || end > after_ws1 + s.len(),
                end,
            })
        }
        None if after_ws1 > i => Some(KeySep {
            key,
            key_quoted,
            sep: None,
            spaced: true,
            end: after_ws1,
        }),
        None => None,
    }
}

/// The value after an assignment's separator, as byte offsets into the text.
struct Value {
    start: usize,
    end: usize,
    /// End of what the value took, closing quote included.
    consumed: usize,
    quote: Option<u8>,
}

/// Longest value read; a longer run is a blob, not a credential.
const MAX_VALUE: usize = 4096;

/// Reads a quoted value (`"…"`, `'…'`, `` `…` ``, or JSON-escaped `\"…\"`,
/// which must close on the same line) or an unquoted one (up to blanks,
/// quotes, brackets, `&`, `,`, `;`, `|`).
fn value_at(text: &str, at: usize) -> Option<Value> {
    let bytes = text.as_bytes();
    let mut i = at;
    while bytes.get(i) == Some(&b'\\') {
        i += 1;
    }
    match bytes.get(i).copied() {
        Some(q @ (b'"' | b'\'' | b'`')) if i == at || q == b'"' => {
            let start = i + 1;
            let window = bytes.get(start..)?;
            let len = window
                .iter()
                .take(MAX_VALUE)
                .position(|&c| c == q || c == b'\\' || c == b'\r' || c == b'\n')?;
            let end = start + len;
            let mut close = end;
            while bytes.get(close) == Some(&b'\\') {
                close += 1;
            }
            (bytes.get(close) == Some(&q)).then_some(Value {
                start,
                end,
                consumed: close + 1,
                quote: Some(q),
            })
        }
        Some(_) if i > at => None,
        Some(_) => {
            let rest = text.get(at..)?;
            let mut end = at;
            for (k, c) in rest.char_indices() {
                let stop = c.is_whitespace()
                    || "\"'`\\&<>()[]{},;|".contains(c)
                    || (k == 0 && (c == ':' || c == '='));
                if stop {
                    break;
                }
                if k >= MAX_VALUE {
                    return None;
                }
                end = at + k + c.len_utf8();
            }
            (end > at).then_some(Value {
                start: at,
                end,
                consumed: end,
                quote: None,
            })
        }
        None => None,
    }
}

/// `machine host login me password secret`: a `.netrc` line.
fn is_netrc(text: &str, key_start: usize, key: &str) -> bool {
    if !key.eq_ignore_ascii_case("password") {
        return false;
    }
    let line = line_before(text, key_start);
    (line.contains("machine ") || line.contains("default ")) && line.contains("login ")
}

/// The current line up to `pos`, at most its last 512 bytes (minified code
/// has megabyte lines; context further back says nothing about a flag).
pub(crate) fn line_before(text: &str, pos: usize) -> &str {
    let mut start = pos.saturating_sub(512);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let head = text.get(start..pos).unwrap_or("");
    head.rsplit('\n').next().unwrap_or(head)
}

/// The quote that opens the string a key name sits in, if any: the byte
/// before the run of name characters that ends at `key_start`.
fn quote_before_name(text: &str, key_start: usize) -> Option<u8> {
    let head = text.as_bytes().get(..key_start)?;
    let name_start = head
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || b"_.-".contains(c)))?;
    head.get(name_start)
        .copied()
        .filter(|c| b"\"'`".contains(c))
}
