//! A key and its value separated by a blank, as services' own configuration syntaxes and
//! SQL write a password: a directive alone on its line (msmtp's `password x`, isync's
//! `Pass x`, Redis's `requirepass x`, OpenLDAP's `rootpw x`, nslcd's `bindpw x`,
//! keepalived's `auth_pass x`, collectd's and fetchmail's `Password "x"`), strongSwan's
//! `: PSK "x"`, SQL's `CREATE USER u WITH PASSWORD 'x'` and MySQL's `IDENTIFIED BY 'x'`.
//! Only where the line says so: a blank after a key word is prose everywhere else
//! ("the password is"). Which values are secrets stays `generic`'s judgement. Here too:
//! Dovecot's and OpenLDAP's clear-text password schemes (`{PLAIN}x`, `{CLEARTEXT}x`), and
//! two positional files: PostgreSQL's `.pgpass` and pppd's `chap-secrets`. A password
//! directive that follows its block's user (`login daniel` / `password qwerty`) takes a
//! bare value of one word; a TSIG key's `secret` takes its base64 bare (ISC dhcpd).

use super::block::ini_setting;
use super::fwknop::{is_base64_key, names_a_base64_key};
use super::hit::Hit;
use super::not_secret::{is_placeholder, names_itself};
use super::shape::{line_before, name_start, quoted};

/// Is the name that ends at or holds the key word at `key_start` the first word of its line
/// (after indentation, and after a `#` or `;` that comments a sample directive out)?
pub(crate) fn starts_line(text: &str, key_start: usize) -> bool {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let i = name_start(text, key_start).min(head.len());
    let blanks_back = |mut at: usize| {
        while at > 0 && head.get(at - 1).is_some_and(|c| *c == b' ' || *c == b'\t') {
            at -= 1;
        }
        at
    };
    let mut j = blanks_back(i);
    if j > 0 && head.get(j - 1).is_some_and(|c| *c == b'#' || *c == b';') {
        j = blanks_back(j - 1);
    }
    j == 0 || head.get(j - 1) == Some(&b'\n')
}

/// Directives whose documented value is a password written bare (msmtp's `password`,
/// isync's `Pass`, Redis's `requirepass` and `masterauth`, OpenLDAP's `rootpw`, nslcd's
/// `bindpw`, keepalived's `auth_pass`); any other name ending in a password word counts
/// only with its value quoted (collectd's `Password "…"`, `SMTPPassword "…"`).
const BARE_DIRECTIVES: &[&str] = &["requirepass", "masterauth", "rootpw", "bindpw", "auth_pass"];

/// The plain words among them (msmtp's `password`, isync's `Pass`) also open lines of prose,
/// code and other syntaxes: their bare value must read as a password, letters and digits.
/// radsecproxy's `secret` (radsecproxy.conf(5): a `client` or `server` block's shared RADIUS
/// secret) is written so too.
const BARE_WORDS: &[&str] = &["password", "pass", "passphrase", "secret"];

/// May the directive whose key word starts at `key_start` and whose name ends at `name_end`
/// take `value` unquoted?
pub(crate) fn takes_bare_value(text: &str, key_start: usize, name_end: usize, value: &str) -> bool {
    let Some(name) = text.get(name_start(text, key_start)..name_end) else {
        return false;
    };
    let mixed = value.len() >= 6
        && value.bytes().any(|c| c.is_ascii_digit())
        && value.bytes().any(|c| c.is_ascii_alphabetic());
    BARE_DIRECTIVES.iter().any(|d| name.eq_ignore_ascii_case(d))
        || (mixed && BARE_WORDS.iter().any(|d| name.eq_ignore_ascii_case(d)))
        || (name.eq_ignore_ascii_case("secret") && is_tsig_secret(value))
        || (names_a_base64_key(name) && is_base64_key(value))
        || stated_password(text, key_start, name_end, value)
}

/// Is a password directive's bare value a password even when it is one word? When the line
/// says so beyond its key word: the directive follows its block's user (`login daniel` /
/// `password qwerty`), or its name is a setting's own, a password word ending a longer
/// name (`mqtt_broker_password Crocus`, `smtp-password x`), not a
/// sentence's first word. Not a switch's word (`…_Password No`), nor a value naming
/// itself (`mypassword`).
pub(crate) fn stated_password(text: &str, key_start: usize, name_end: usize, value: &str) -> bool {
    let Some(name) = text.get(name_start(text, key_start)..name_end) else {
        return false;
    };
    // `--password value` is a flag's: `Blank::Flag` reads those.
    if name.starts_with('-') {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    let Some(word) = PASSWORD_ENDS.iter().find(|w| lower.ends_with(*w)) else {
        return false;
    };
    let head = name.as_bytes().get(..name.len() - word.len()).unwrap_or(&[]);
    let hump = name.as_bytes().get(name.len() - word.len()).is_some_and(u8::is_ascii_uppercase)
        && head.last().is_some_and(u8::is_ascii_lowercase);
    let compound = head.last().is_some_and(|c| b"_-.".contains(c)) || hump;
    one_word_password(value) && (compound || user_line_above(text, key_start))
}

/// May `value`, one word, be a password where its line says one stands there? Not a
/// sentence's word (`x.`, `x:`), code (`f(`, `{`), a path, a switch's word, nor a value
/// naming itself (`mypassword`).
pub(crate) fn one_word_password(value: &str) -> bool {
    let first = value.bytes().next();
    first.is_some_and(|c| c.is_ascii_alphanumeric())
        && !value.ends_with(['.', ',', ':', ')'])
        && !value.contains(['(', '{', '|', '/'])
        && !SWITCH_WORDS.iter().any(|w| value.eq_ignore_ascii_case(w))
        && !names_itself(value)
}

/// The password words a directive's name may end in.
const PASSWORD_ENDS: &[&str] = &["password", "passwd", "passphrase", "pass", "pw"];

/// A setting's words for "on", "off" and "unset": no password.
#[rustfmt::skip]
const SWITCH_WORDS: &[&str] = &[
    "yes", "no", "on", "off", "true", "false", "none", "null", "nil", "default", "required",
    "optional", "prompt", "ask", "empty", "unset", "disabled", "enabled",
];

/// Directives that name the user of the block a password directive belongs to: `.netrc`'s
/// `login`, msmtp's and mpop's `user`, FreeIPMI's `Username`, weex's `LoginName`.
const USER_DIRECTIVES: &[&str] = &["user", "username", "login", "user_name", "loginname"];

/// Does the directive whose key word is at `key_start` follow its block's user, one of the
/// two directives above it (comment lines skipped)? Then its value is a password even when
/// it is one word (`login daniel` / `password qwerty`, YAML's `username: postgres` /
/// `password: zalando`): the block says so, not the word.
pub(crate) fn user_line_above(text: &str, key_start: usize) -> bool {
    let line_start = key_start - line_before(text, key_start).len();
    let mut from = line_start.saturating_sub(1024);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let head = text.get(from..line_start).unwrap_or("");
    let mut directives = 0;
    for line in head.lines().rev().take(6) {
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        let mut words = line.split_whitespace();
        // INI writes it as a setting (weex's `LoginName = gm`).
        let setting = ini_setting(line).map(|(n, v)| (Some(n), Some(v), None));
        if let (Some(name), Some(value), None) =
            setting.unwrap_or_else(|| (words.next(), words.next(), words.next()))
        {
            // YAML writes the block's user as a mapping's key (`username: postgres`).
            let name = name.strip_suffix(':').unwrap_or(name);
            if USER_DIRECTIVES.iter().any(|d| name.eq_ignore_ascii_case(d))
                && !value.starts_with(['=', ':'])
            {
                return true;
            }
        }
        directives += 1;
        if directives == 2 {
            break;
        }
    }
    false
}

/// A TSIG key's `secret` as ISC dhcpd's `key` blocks write it unquoted (`secret
/// pRP5FapFoJ95JEL06sv4PQ==;`): base64 of 15 bytes or more, mixing cases and digits; its
/// statement's `;` may end it as after a quoted value.
pub(crate) fn is_tsig_secret(value: &str) -> bool {
    let body = value.trim_end_matches('=');
    body.len() >= 20
        && body.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
        && body.bytes().any(|c| c.is_ascii_digit())
        && body.bytes().any(|c| c.is_ascii_uppercase())
        && body.bytes().any(|c| c.is_ascii_lowercase())
}

/// Does the line end at `at` (blanks, then the end of the line or a `#` comment)? A quoted
/// value may close its statement with a `;` first (BIND's `secret "…";`).
pub(crate) fn ends_line(text: &str, at: usize, quoted: bool) -> bool {
    let mut rest = text.as_bytes().get(at..).unwrap_or(&[]);
    if quoted && rest.first() == Some(&b';') {
        rest = rest.get(1..).unwrap_or(&[]);
    }
    let blanks = rest
        .iter()
        .take_while(|c| **c == b' ' || **c == b'\t')
        .count();
    match rest.get(blanks) {
        None | Some(b'\n' | b'\r') => true,
        Some(b'#') => blanks > 0,
        _ => false,
    }
}

/// `CREATE USER app WITH PASSWORD '…'`, `ALTER ROLE r PASSWORD '…'`: the word before the
/// key at `key_start` is SQL's, on a line that creates or alters a user or role.
pub(crate) fn sql_password(text: &str, key_start: usize) -> bool {
    let head = text
        .get(key_start.saturating_sub(160)..key_start)
        .unwrap_or("");
    let line = head
        .rsplit('\n')
        .next()
        .unwrap_or(head)
        .to_ascii_lowercase();
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(last) = words.last() else {
        return false;
    };
    let statement = words
        .windows(2)
        .any(|w| matches!(w, ["create" | "alter", "user" | "role"]));
    statement || (matches!(*last, "with" | "encrypted" | "unencrypted") && words.len() >= 3)
}

/// `aws configure set aws_secret_access_key …`, `npm config set _authToken …`: a tool's
/// setter, whose next word is the setting's value.
pub(crate) fn config_setter(text: &str, key_start: usize) -> bool {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let name_len = head
        .iter()
        .rev()
        .take(96)
        .take_while(|c| c.is_ascii_alphanumeric() || b"_-.:/".contains(c))
        .count();
    let before = head.get(..head.len() - name_len).unwrap_or(&[]);
    let blanks = before.iter().rev().take_while(|c| **c == b' ').count();
    let before = before.get(..before.len() - blanks).unwrap_or(&[]);
    let ends = |w: &[u8]| {
        before.len() >= w.len()
            && before.get(before.len() - w.len()..).is_some_and(|t| t.eq_ignore_ascii_case(w))
    };
    blanks > 0 && (ends(b"config set") || ends(b"configure set") || ends(b"/set"))
}

/// fetchmail's `poll <server> … user "<name>" … password "<password>"` (and `skip`,
/// `defaults`): the password keyword stands mid-line.
pub(crate) fn fetchmail_poll(text: &str, key_start: usize) -> bool {
    let head = text.get(key_start.saturating_sub(256)..key_start).unwrap_or("");
    let line = head.rsplit('\n').next().unwrap_or(head).trim_start();
    ["poll ", "skip ", "defaults "].iter().any(|w| line.starts_with(w))
        && (line.contains(" user ") || line.contains(" username "))
}

/// HAProxy's `stats auth <user>:<password>`; `pos` is at `auth` (the scan's trigger: `stats`
/// begins too many words).
pub(crate) fn stats_auth(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = pos + "auth".len();
    let stats = pos.checked_sub(6).and_then(|s| b.get(s..pos));
    if stats != Some(b"stats ".as_slice()) || b.get(pos..i) != Some(b"auth".as_slice()) {
        return None;
    }
    let s = i + b.get(i..)?.iter().take_while(|c| **c == b' ' || **c == b'\t').count();
    if s == i {
        return None;
    }
    let len = b.get(s..)?.iter().take(256).take_while(|c| !c.is_ascii_whitespace()).count();
    let pair = text.get(s..s + len)?;
    let (_, pass) = pair.split_once(':')?;
    let start = s + len - pass.len();
    (!pass.is_empty() && !is_placeholder(pass)).then_some(Hit::span(start, s + len, "password-assignment"))
}

/// OpenBGPD's TCP MD5 signature with a peer (RFC 2385), as bgpd.conf(5) writes it inside a
/// neighbor or group block: `tcp md5sig password <secret>` or `tcp md5sig key <hex>`, the
/// key word mid-line, where no directive rule looks. `pos` is at `md5sig`.
pub(crate) fn tcp_md5_signature(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let blanks = |at: usize| {
        at + b.get(at..).map_or(0, |t| {
            t.iter().take_while(|c| matches!(c, b' ' | b'\t')).count()
        })
    };
    if pos.checked_sub(4).and_then(|s| b.get(s..pos)) != Some(b"tcp ".as_slice()) {
        return None;
    }
    let i = blanks(pos + "md5sig".len());
    let (word_end, hex) = match b.get(i..) {
        Some(t) if t.starts_with(b"password") => (i + "password".len(), false),
        Some(t) if t.starts_with(b"key") => (i + "key".len(), true),
        _ => return None,
    };
    let s = blanks(word_end);
    if s == word_end || i == pos + "md5sig".len() {
        return None;
    }
    let (s, e, close) = match quoted(b, s, 256) {
        Some((s, e)) => (s, e, e + 1),
        None => {
            let len = b.get(s..).map_or(0, |t| {
                t.iter()
                    .take(256)
                    .take_while(|c| !c.is_ascii_whitespace())
                    .count()
            });
            (s, s + len, s + len)
        }
    };
    // A statement ends its line; more words after it are the manual's markup (`password Ar
    // secret`) or prose.
    if !ends_line(text, close, false) {
        return None;
    }
    let value = text.get(s..e)?;
    // The manual's own `password secret` names itself; a key is hexadecimal digits.
    let secret = if hex {
        value.bytes().all(|c| c.is_ascii_hexdigit())
    } else {
        !is_placeholder(value) && !names_itself(value)
    };
    let kind = if hex {
        "secret-assignment"
    } else {
        "password-assignment"
    };
    (!value.is_empty() && secret).then_some(Hit::span(s, e, kind))
}

/// Names that run a password word into the word before it, each from a server's
/// documentation: Redis's `requirepass` and `masterauth`, keytool's `-storepass` and
/// `-keypass`, OpenLDAP's `rootpw`, nslcd's `bindpw`, offlineimap's `remotepass`.
const GLUED_NAMES: &[&str] =
    &["requirepass", "storepass", "keypass", "masterauth", "rootpw", "bindpw", "remotepass"];

/// Is the key word at `pos` (`pass`, `auth`, `pw`) the end of one of [`GLUED_NAMES`], standing
/// alone as a name (`requirepass`, not `xrequirepass`)? The scan reads these from the key
/// word: their own first letters begin too many words.
pub(crate) fn glued_key(text: &str, pos: usize) -> bool {
    glued_key_at(text.as_bytes(), pos)
}

/// [`glued_key`] on bytes, for the scan's boundary test.
pub(crate) fn glued_key_at(b: &[u8], pos: usize) -> bool {
    // The owners end in `e`, `y`, `r`, `t` or `d`: most key words follow none of them.
    let before = pos.checked_sub(1).and_then(|p| b.get(p));
    if !before.is_some_and(|c| b"eyrtd".contains(c)) {
        return false;
    }
    GLUED_NAMES.iter().any(|name| {
        let word = if name.ends_with("pw") { 2 } else { 4 };
        let start = pos.checked_sub(name.len() - word);
        start.is_some_and(|s| {
            b.get(s..s + name.len()) == Some(name.as_bytes())
                && !s
                    .checked_sub(1)
                    .and_then(|p| b.get(p))
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        })
    })
}

/// HAProxy's `user <name> insecure-password <password>` (its `password` takes a hash).
pub(crate) fn insecure_password(text: &str, key_start: usize) -> bool {
    text.get(key_start.saturating_sub(9)..key_start) == Some("insecure-")
}

/// `: PSK "…"` in strongSwan's `ipsec.secrets`: the key follows the selectors' colon.
pub(crate) fn psk_entry(text: &str, key_start: usize) -> bool {
    let head = text.as_bytes().get(..key_start).unwrap_or(&[]);
    let trimmed = head
        .iter()
        .rev()
        .skip_while(|c| **c == b' ' || **c == b'\t')
        .copied()
        .next();
    trimmed == Some(b':') && head.last().is_some_and(|c| *c == b' ' || *c == b'\t')
}

/// MySQL's `IDENTIFIED BY '…'` (and `IDENTIFIED WITH <plugin> BY '…'`): the quoted
/// literal is the password. `pos` is at `IDENTIFIED`.
pub(crate) fn identified_by(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let word = |at: usize, w: &[u8]| {
        b.get(at..at + w.len())
            .is_some_and(|t| t.eq_ignore_ascii_case(w))
            .then_some(at + w.len())
    };
    let blanks = |mut at: usize| {
        let from = at;
        while b.get(at).is_some_and(|c| *c == b' ' || *c == b'\t') {
            at += 1;
        }
        (at > from).then_some(at)
    };
    let mut i = blanks(word(pos, b"identified")?)?;
    if let Some(with) = word(i, b"with") {
        // The plugin's name: `mysql_native_password`, `caching_sha2_password`.
        let plugin = blanks(with)?;
        let len = b
            .get(plugin..)?
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        i = blanks(plugin + len)?;
    }
    let (start, end) = quoted(b, blanks(word(i, b"by")?)?, 256)?;
    // `IDENTIFIED BY ''`, `IDENTIFIED BY '<password>'`, `'${PW}'`: no password here.
    if is_placeholder(text.get(start..end)?) {
        return None;
    }
    Some(Hit::span(start, end, "password-assignment"))
}

/// The password after a clear-text scheme: Dovecot's `user:{PLAIN}password:…` and
/// `{CLEARTEXT}`, `{CLEAR}`, in capitals as their documentation writes them (hashed schemes,
/// `{SSHA}…`, `{BLF-CRYPT}…`, stay: hashes named as
/// hashes). `pos` is at the scheme's name (the scan's trigger: `{` opens too much JSON).
pub(crate) fn clear_text_scheme(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    if b.get(pos.checked_sub(1)?) != Some(&b'{') {
        return None;
    }
    let close = b.get(pos..)?.iter().take(12).position(|c| *c == b'}')?;
    let scheme = text.get(pos..pos + close)?;
    if !["PLAIN", "CLEARTEXT", "CLEAR", "PLAIN-TRUNC"].contains(&scheme) {
        return None;
    }
    let start = pos + close + 1;
    let len = b
        .get(start..)?
        .iter()
        .take(256)
        .take_while(|c| !c.is_ascii_whitespace() && !b":\"'<>,;".contains(c))
        .count();
    let v = text.get(start..start + len)?;
    (len > 0 && !is_placeholder(v)).then_some(Hit::span(start, start + len, "password-assignment"))
}

/// PostgreSQL's `.pgpass` line, `hostname:port:database:username:password` (each of the
/// first four may be `*`): the fifth field. `pos` is at the `:` before the port (`:5432:`)
/// or at a `:*:` (the scan's triggers).
pub(crate) fn pgpass_line(text: &str, pos: usize) -> Option<Hit> {
    let line_start = pos - line_before(text, pos).len();
    let rest = text.get(line_start..)?;
    let line = rest.split(['\n', '\r']).next()?;
    let fields: Vec<&str> = line.split(':').collect();
    let [host, port, db, user, pass] = fields.as_slice() else {
        return None;
    };
    let port_ok = *port == "*" || (!port.is_empty() && port.bytes().all(|c| c.is_ascii_digit()));
    let plain = |f: &str| !f.is_empty() && !f.contains(char::is_whitespace);
    if !(port_ok && plain(host) && plain(db) && plain(user) && plain(pass)) || is_placeholder(pass) {
        return None;
    }
    // The line's `:` after which the password starts is where the scan stands or after it.
    let start = line_start + line.len() - pass.len();
    (start > pos).then_some(Hit::span(start, line_start + line.len(), "password-assignment"))
}

/// pppd's `chap-secrets` and `pap-secrets`: `client<blank>*<blank>"secret"[<blank>addresses]`.
/// `pos` is at the `*` (the server field).
pub(crate) fn ppp_secret(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let head = line_before(text, pos);
    // One field, the client, then blanks: `jacco\t\t*`, `"user@isp" *`.
    let client = head.trim_end_matches([' ', '\t']);
    if client.len() == head.len() || client.is_empty() || client.contains([' ', '\t']) {
        return None;
    }
    let q = pos + 1 + b.get(pos + 1..)?.iter().take_while(|c| **c == b' ' || **c == b'\t').count();
    if b.get(q) != Some(&b'"') {
        return None;
    }
    let len = b.get(q + 1..)?.iter().take(256).position(|c| *c == b'"' || *c == b'\n')?;
    let (start, end) = (q + 1, q + 1 + len);
    let v = text.get(start..end)?;
    let after = text.get(end + 1..)?.split('\n').next()?.trim();
    // Then nothing, or the addresses: `*`, `-`, IPs and networks.
    let addresses = after
        .split_whitespace()
        .all(|w| w.bytes().all(|c| c.is_ascii_hexdigit() || b".:/*-".contains(&c)));
    (b.get(end) == Some(&b'"') && addresses && !v.is_empty() && !is_placeholder(v))
        .then_some(Hit::span(start, end, "password-assignment"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openbgpd_tcp_md5_signatures() {
        // bgpd.conf(5): a password or a hexadecimal key; the manual's syntax line stays.
        for (text, left) in [
            (
                "\ttcp md5sig password mekmitasdigoat",
                "\ttcp md5sig password [REDACTED:password-assignment]",
            ),
            (
                "tcp md5sig key deadbeef",
                "tcp md5sig key [REDACTED:secret-assignment]",
            ),
            (
                "tcp md5sig password \"a b c\"\n}",
                "tcp md5sig password \"[REDACTED:password-assignment]\"\n}",
            ),
        ] {
            assert_eq!(crate::redact::redact(text), left);
        }
        for text in [
            ".It Ic tcp md5sig password Ar secret",
            "tcp md5sig password x y",
            "tcp md5sig password secret",
            "tcp md5sig key secret",
            "tcp md5sig",
            "md5sig key deadbeef",
            "tcp md5sig password",
        ] {
            assert_eq!(crate::redact::redact(text), text);
        }
    }

    #[test]
    fn a_yaml_password_of_one_word_counts_after_its_user() {
        let red = |t: &str| crate::redact::redact(t).into_owned();
        assert_eq!(
            red("superuser:\n  username: postgres\n  password: zalando"),
            "superuser:\n  username: postgres\n  password: [REDACTED:password-assignment]"
        );
        for text in [
            "password: zalando",
            "mode: strict\npassword: zalando",
            "username: rewind_user\npassword: rewind_password",
            "user: app\npassword: enabled",
            "username: postgres\npassword: mypassword",
        ] {
            assert_eq!(red(text), text);
        }
    }

    #[test]
    fn a_directive_opens_its_line_and_its_value_ends_it() {
        let text = "x\n  # rootpw s3cr3t # old\nbindpw";
        let at = text.find("rootpw").unwrap_or(0);
        assert!(starts_line(text, at));
        assert!(ends_line(text, text.find(" # old").unwrap_or(0), false));
        assert!(ends_line("x\";\n", 2, true) && !ends_line("x;\n", 1, false));
        assert!(starts_line(text, text.len() - 6));
        assert!(!starts_line("set rootpw x", 4));
        assert!(!ends_line("x#y", 1, false));
        // Edges of the text never panic.
        for i in 0..=text.len() + 1 {
            let _ = (starts_line(text, i), ends_line(text, i, true), identified_by(text, i));
            let _ = (fetchmail_poll(text, i), stats_auth(text, i), clear_text_scheme(text, i));
            let _ = (glued_key(text, i), config_setter(text, i), sql_password(text, i));
            let _ = (pgpass_line(text, i), ppp_secret(text, i), user_line_above(text, i));
            let _ = stated_password(text, i, i + 6, "x");
        }
    }

    #[test]
    fn a_one_word_password_counts_where_its_line_says_so() {
        let stated = |t: &str, v: &str| {
            let at = t.rfind("pass").unwrap_or(0);
            let end = at + t.get(at..).map_or(0, |r| r.find([' ', '\t']).unwrap_or(0));
            stated_password(t, at, end, v)
        };
        assert!(stated("machine h\nlogin daniel\npassword qwerty", "qwerty"));
        assert!(stated("Username u2\n## Give password\nPassword hunter", "hunter"));
        assert!(stated("#mqtt_broker_password\tCrocus", "Crocus"));
        assert!(stated("#smtp-password Kq8zLmvw", "Kq8zLmvw"));
        assert!(stated("smtpPassword kq8", "kq8"));
        // Not a block's user, not a setting's name, a switch, a value naming itself.
        assert!(!stated("x y\nz w\nuser u\na b\nc d\npassword qwerty", "qwerty"));
        assert!(!stated("password qwerty", "qwerty"));
        assert!(!stated("kpasswd 464", "464/tcp"));
        assert!(!stated("Admin_Straight_Password No", "No"));
        assert!(!stated("user u\npassword userpass", "userpass"));
        assert!(!stated("--password options", "options"));
        assert!(!stated("use_323_passwd (false)", "(false)"));
    }

    #[test]
    fn a_tsig_secret_is_base64_of_sixteen_bytes_or_more() {
        assert!(is_tsig_secret("pRP5FapFoJ95JEL06sv4PQ=="));
        assert!(!is_tsig_secret("pRP5FapFoJ95JEL06sv"));
        assert!(!is_tsig_secret("abcdefghijklmnopqrstuvwx"));
        assert!(!is_tsig_secret("/etc/bind/rndc.key.file1"));
    }

    #[test]
    fn identified_by_takes_the_quoted_literal_only() {
        let hit = |t: &str| {
            identified_by(t, 0).and_then(|h| t.get(h.secret_start..h.secret_end).map(str::to_owned))
        };
        assert_eq!(
            hit("IDENTIFIED BY 'Tq7wb3Rn';").as_deref(),
            Some("Tq7wb3Rn")
        );
        assert_eq!(
            hit("identified with caching_sha2_password by \"Mn7vb2Xq\"").as_deref(),
            Some("Mn7vb2Xq")
        );
        for t in [
            "IDENTIFIED BY ''",
            "IDENTIFIED BY PASSWORD '*6BB4'",
            "IDENTIFIED BY 'unclosed",
            "IDENTIFIEDBY 'x'",
        ] {
            assert_eq!(hit(t), None, "{t}");
        }
    }
}
