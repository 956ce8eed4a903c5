//! Secrets named by the key before them: `password=`, `secret:`, `token=` style assignments
//! in every form `pair` reads (the key stays, the value goes), `ENCRYPTION_KEY=` and the other
//! `<what>_KEY` names, and a value whose key names a provider of the table and which has that
//! provider's shape (`TWILIO_AUTH_TOKEN=…`, `AWS_SECRET_ACCESS_KEY=…`): then the provider's
//! kind is written, whatever the generic judgement would have said. The judgement of which values stand where a
//! secret would and are none is `not_secret`'s; the randomness measure, `entropy`'s.

use super::block::{block_statement, names_code};
use super::command_line::command_goes_on;
use super::directive::{
    config_setter, ends_line, fetchmail_poll, glued_key, insecure_password, is_tsig_secret,
    one_word_password, psk_entry, sql_password, starts_line, stated_password, takes_bare_value,
    user_line_above,
};
use super::entropy::bits_per_char;
use super::fwknop::names_a_base64_key;
use super::{declared_value::declared_literal, hit::Hit};
use super::key_material::{hex_key_bytes, not_key_material, pam_module_key, vector_entry_key};
use super::lookalike::{is_lookalike, Seen};
use super::not_secret::{
    declaration, is_call_expression, is_constant, is_expression, is_hex_digest,
    is_identifier_words, is_name, is_placeholder, is_reference, is_type_name, is_version,
    looks_like_code, names_a_password,
};
use super::pair::{
    call_value, flag_before, in_parameter_expansion, is_cli_flag, is_netrc, key_sep,
    quote_before_name, separator_follows, value_at, whole_name, Separator,
};
use super::env_default::env_default;
use super::shape::{any_of, decoded_literal, is_b64_digest, is_word, literal_at, name_start};
use super::tokens::{context_kind, prefer_token};
use super::z85::with_z85;

/// Key words of assignments, longest first so `password` wins over `pass`. `pskc`: Thread's
/// commissioning credential (OTBR's dataset); `privkey`: Net::SNMP's `-privkey` (snmpkey(1p)).
#[rustfmt::skip]
pub(crate) const ASSIGNMENT_KEYWORDS: &[&str] = &[
    "passphrase", "credentials", "private_key", "private-key", "privatekey", "privkey",
    "access_key", "access-key", "accesskey", "credential", "password", "api_key", "api-key",
    "passwd", "secret", "apikey", "token", "creds", "pass", "auth", "pwd", "pskc", "skey", "psk",
    "key",
];

/// Words that name a key when `key` follows them, with or without a `_`, `-` or `.` between
/// (`ENCRYPTION_KEY`, `signingKey`, `AccountKey`): alone they are common words (`master`,
/// `account`), so the `key` is required.
pub(crate) const KEY_OWNERS: &[&str] = &["encryption", "signing", "master", "storage", "account"];

/// Name parts that may follow a key word (`secret_access_key`, `passwordHash`, uuid-apikey's
/// `apiKeyNoDashes`); else (`tokens`, `token_type`, `secret_name`) the name is no credential's.
#[rustfmt::skip]
const ASSIGNMENT_SUFFIXES: &[&str] = &[
    "confirmation", "plaintext", "password", "private", "confirm", "access", "secret", "client",
    "master", "string", "phrase", "token", "admin", "plain", "value", "auth", "root", "user",
    "hash", "word", "base64", "base", "key", "api", "app", "str", "tok", "db", "nodashes",
];

/// Words of a name that say a `key` is no credential: an id, a position, a public half.
#[rustfmt::skip]
const NOT_SECRET_KEY_NAMES: &[&str] = &[
    "public", "primary", "foreign", "sort", "partition", "policy", "cache", "idempotency", "site",
    "index", "publishable", "lookup", "row", "hot", "map", "dedup", "unique", "object", "bucket",
    "react", "i18n", "translation", "message", "label", "query", "group", "result", "limit", "websocket",
];

/// Names of tokens that are no credentials: the handles APIs page, order, deduplicate and
/// version with (AWS's `NextToken`, `--starting-token`, `ClientRequestToken`; Google's
/// `nextPageToken`; Azure's `continuationToken`; Square's `version_token`, for optimistic
/// concurrency), compared without case or separators.
#[rustfmt::skip]
const NOT_SECRET_TOKEN_NAMES: &[&str] = &[
    "nexttoken", "pagetoken", "continuationtoken", "startingtoken", "paginationtoken",
    "sequencetoken", "idempotencytoken", "clientrequesttoken", "changetoken", "synctoken",
    "locktoken", "actiontoken", "forwardtoken", "backwardtoken", "versiontoken",
];

/// The end of the key name at `pos` (a key word and up to three name parts), if one starts
/// there.
fn key_name_end(text: &str, pos: usize) -> Option<usize> {
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
        // `rootpw`, `bindpw`: read from their `pw` (see `glued_key`).
        None if starts(pos, "pw") && glued_key(text, pos) => pos + 2,
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
    // `ed_secret_key_a`, `_b`: the two parties' keys of a key exchange's test, lettered as
    // digits number them. Not C's and POSIX's `_t` of a type (`key_t`).
    let party = bytes.get(i) == Some(&b'_')
        && bytes.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic() && *c != b't')
        && !bytes.get(i + 2).is_some_and(|c| is_word(*c));
    Some(if party { i + 2 } else { i })
}

/// Judges `key = value` at the key word at `pos`: see "Choices" in [`crate::redact`] for
/// which values survive.
pub(crate) fn assignment(text: &str, pos: usize) -> Option<Hit> {
    if !separator_follows(text, pos) {
        return None;
    }
    let name_end = key_name_end(text, pos)?;
    // `Keyword("move")`, `keywords: [...]`: a language's keywords, not a key.
    if text
        .get(pos..name_end)
        .and_then(|k| k.get(..7))
        .is_some_and(|k| k.eq_ignore_ascii_case("keyword"))
    {
        return None;
    }
    let ks = key_sep(text, pos, name_end)?;
    let (key, sep, spaced) = (ks.key, ks.sep, ks.spaced);
    // A blank separates a key from its value on a command line, in `.netrc`, in a
    // directive alone on its line, in SQL and in strongSwan's secrets; elsewhere it is prose.
    let lower_key = key.to_ascii_lowercase();
    // `requirepass`, `masterauth`, `rootpw`: a glued name's key word is its end.
    let glued = glued_key(text, pos);
    let password = password_key(&lower_key) || (glued && lower_key == "auth");
    // vtund's `passwd Ma&^TU;` in a host's `{ }` block: a statement, not the command.
    let statement = (sep == Separator::Blank)
        .then(|| block_statement(text, name_start(text, pos), name_end))
        .flatten();
    // `.fwknoprc`'s `KEY_BASE64 <base64>`: a key's variable and its value.
    let fwknop_key = text.get(name_start(text, pos)..name_end).is_some_and(names_a_base64_key);
    let blank = match sep {
        Separator::Blank
            if is_cli_flag(text, pos)
                || is_netrc(text, pos, key)
                || config_setter(text, pos)
                || insecure_password(text, pos) =>
        {
            Some(Blank::Flag)
        }
        // `passwd alice` is the command that changes a password.
        Separator::Blank
            if (password || lower_key == "secret" || fwknop_key)
                && (lower_key != "passwd" || statement.is_some())
                && starts_line(text, pos) =>
        {
            Some(Blank::Directive)
        }
        Separator::Blank if lower_key == "password" && sql_password(text, pos) => Some(Blank::Sql),
        Separator::Blank if password && fetchmail_poll(text, pos) => Some(Blank::Sql),
        Separator::Blank if lower_key == "psk" && psk_entry(text, pos) => Some(Blank::Sql),
        Separator::Blank => return None,
        _ => None,
    };
    let bytes = text.as_bytes();
    // `arn:aws:secretsmanager:…:secret:prod/db`: a part of an ARN, not a key; also glued to
    // its own key (`SecretId=arn:…`, `--secret-id=arn:…`, `(arn:…`).
    if pos
        .checked_sub(1)
        .and_then(|p| bytes.get(p))
        .is_some_and(|c| *c == b':')
        && super::shape::line_before(text, pos)
            .rsplit([' ', '"', '\'', '=', '(', '\t'])
            .next()
            .is_some_and(|t| t.starts_with("arn:"))
    {
        return None;
    }
    // `--password= https://…`, `PASSWORD= cmd`: in a shell, `=` with nothing glued after it
    // sets an empty value; what follows the blank is another word.
    if sep == Separator::Sign("=")
        && !bytes
            .get(name_end)
            .is_some_and(|c| *c == b' ' || *c == b'\t')
        && bytes
            .get(ks.end.checked_sub(1)?)
            .is_some_and(|c| *c == b' ' || *c == b'\t')
        && !ks.key_quoted
    {
        return None;
    }
    if sep == Separator::Blank {
        // `wget --ask-password URL`, `--no-password`: a switch, not a flag with a value.
        let flag = flag_before(text, pos).unwrap_or("");
        if [
            "--ask-",
            "--no-",
            "--prompt-",
            "--use-",
            "--with-",
            "--require-",
        ]
        .iter()
        .any(|p| flag.starts_with(p))
        {
            return None;
        }
    }
    // `auth = ("user", "…")`: a tuple of user and password.
    let (sep, value_start) = match (sep, bytes.get(ks.end)) {
        (Separator::Sign("="), Some(b'(')) => (Separator::Call, call_value(bytes, ks.end)?),
        // `static S: &str = "…"`, `X =` then a literal on the next line, `s: str = "…"` (PEP 526).
        _ => match matches!(sep, Separator::Sign(":" | "="))
            .then(|| declared_literal(bytes, ks.end, sep == Separator::Sign(":")))
            .flatten()
            .filter(|_| declaration(text, pos) || starts_line(text, pos))
        {
            Some(at) => (Separator::Sign("="), at),
            None => {
                let literal = decoded_literal(bytes, ks.end).or_else(|| env_default(bytes, ks.end));
                (sep, literal.unwrap_or(ks.end))
            }
        },
    };
    let mut value = value_at(text, value_start, sep)?;
    // A statement's value is all its `;` ends (`Ma&^TU;`).
    if let Some(semi) = statement {
        (value.end, value.consumed) = (semi, semi);
    }
    let quote = value.quote;
    // `if password == "root"`: a password compared with a literal is that password; any
    // other comparison (`key == "Enter"`, `token == other`) is code.
    let comparison = matches!(sep, Separator::Sign("==" | "==="));
    if comparison && !(quote.is_some() && key.to_ascii_lowercase().contains("pass")) {
        return None;
    }
    // `"core.askPass=" + x`: the key sits inside a string whose closing quote comes after
    // the separator; what follows is not its value.
    if quote.is_some() && !ks.key_quoted && quote == quote_before_name(text, pos) {
        return None;
    }
    // `${DB_PASSWORD:-x}`, `${TOKEN:?unset}`: a shell parameter expansion names the
    // variable; what follows its `:` is an operator.
    if in_parameter_expansion(text, pos) {
        return None;
    }
    let v = text.get(value.start..value.end)?;
    // A directive's value is the last word of its line; SQL's and strongSwan's are quoted.
    // Unquoted, a directive's value is a word, not a path (`auth-user-pass up/login.txt`),
    // and `PASS`, `pwd` or `secret` alone open too many other lines (test runners' `PASS
    // TestX`, the shell's `pwd`).
    let bare = quote.is_none()
        && ((v.contains('/') && !fwknop_key)
            || key == "PASS"
            || !(statement.is_some() || takes_bare_value(text, pos, name_end, v)));
    let closed = quote.is_some() || is_tsig_secret(v) || statement.is_some();
    match blank {
        Some(Blank::Directive) if bare || !ends_line(text, value.consumed, closed) => return None,
        Some(Blank::Sql) if quote.is_none() => return None,
        // OpenSSL's `-passin env:VAR`, `file:path`, `fd:3`: where to read the password.
        Some(Blank::Flag) if ["env:", "file:", "fd:"].iter().any(|p| v.starts_with(p)) => {
            return None
        }
        _ => {}
    }
    // `PASSWORD=password=[REDACTED:…]`: the earlier pass already took this value; a second
    // pass must change nothing. Nor where it took a token inside a value it left, a name
    // (`123-sk-ant-…_secret_access_key` became `123-[REDACTED:anthropic-key]`).
    if text
        .get(value.consumed..)
        .is_some_and(|t| t.starts_with("[REDACTED:"))
        || text
            .get(value.start..value.end)
            .is_some_and(|v| v.contains("[REDACTED:"))
    {
        return None;
    }
    let user_and_password = sep == Separator::Call && !password;
    let kind = if password || user_and_password {
        "password-assignment"
    } else if lower_key.starts_with("token") || lower_key.starts_with("auth") {
        "token-assignment"
    } else {
        "secret-assignment"
    };
    let password = kind == "password-assignment";
    let directive = blank == Some(Blank::Directive);
    let name = whole_name(text, pos, name_end).to_ascii_lowercase();
    // A call passes a credential when it sets one (`setPassword("…")`, `withToken("…")`,
    // `.password("…")`) or takes a user and a password (`HTTPBasicAuth("u", "…")`,
    // `NetworkCredential("u", "…")`); `hash_password("…")`, `t("password")` and the like are
    // other calls.
    if sep == Separator::Call {
        // `signer.get_auth('service', 'region')`: a getter sets nothing.
        let setter = (name == lower_key
            || name.starts_with("set")
            || name.starts_with("with")
            || name.ends_with("auth")
            || name.ends_with("credential"))
            && !name.starts_with("get");
        if !setter || quote.is_none() {
            return None;
        }
    }
    // An ALL-CAPS key with `=` and no spaces is an environment or .env line: its value is
    // literal text, never code.
    let env_key = key.bytes().any(|c| c.is_ascii_alphabetic())
        && !key.bytes().any(|c| c.is_ascii_lowercase());
    let env_line = env_key && sep == Separator::Sign("=") && !spaced;
    // `pub const X_PASSWORD: BINDSTRING = 6;`, `pub credentials: MI_Credentials,`, `let
    // token: Token = …`: a declaration, whose value after `:` is a type.
    let declared = sep == Separator::Sign(":") && quote.is_none() && declaration(text, pos);
    // What follows the value, for telling code (`getpass(`); an element's `</` says
    // nothing.
    let next = match sep {
        Separator::Markup => None,
        _ => bytes.get(value.consumed).copied(),
    };
    // `"_RSAPrivateKey"`: a private class's name (Python's annotations quote them).
    let private = v.trim_start_matches('_');
    let is_name_value =
        is_name(v) || is_name(private) || (private.len() < v.len() && is_type_name(private));
    // `pass` and `pwd` are also words: `"pass": "fail"`, and alone (not the end of
    // `DB_PASS`, `MYSQL_PWD`) `--- PASS: TestX/y`, `pass: I'll`, `PASS=120`, jq's
    // `pass: .pass`. Their values must look like one, except in a connection string
    // (`Uid=sa;Pwd=…`).
    let weak = lower_key == "pass" || lower_key == "pwd";
    let connection_string = weak
        && sep == Separator::Sign("=")
        && super::shape::line_before(text, pos)
            .trim_end()
            .ends_with(';')
        && {
            let line = super::shape::line_before(text, pos).to_ascii_lowercase();
            [";uid=", "user id=", "server=", "driver=", "data source="]
                .iter()
                .any(|w| line.contains(w))
        };
    let alone = !pos
        .checked_sub(1)
        .and_then(|p| bytes.get(p))
        .is_some_and(|c| c.is_ascii_alphanumeric() || b"_-".contains(c));
    let weak_survives = weak
        && !connection_string
        && ((is_name_value && !env_line)
            || (alone
                && (v.bytes().all(|c| c.is_ascii_digit())
                    || (key == "PASS" && sep == Separator::Sign(":"))
                    || (quote.is_none() && !v.bytes().any(|c| c.is_ascii_digit())))));
    // In a `.env` line a secret is literal text, and a long single word is one
    // (`JWT_SECRET=mysupersecretvalue`); names with separators (`lm-studio`, `not-needed`)
    // stay names.
    let env_word = env_line && v.len() >= 8 && v.bytes().all(|c| c.is_ascii_alphabetic());
    // `storageKey`, `accountKey`, `masterKey` also name object keys and settings
    // (`'app_settings_v2'`, `"avatars/u-12.png"`): key material is long and random, 16
    // characters at least, letters and digits.
    let owned = KEY_OWNERS.iter().any(|w| lower_key.starts_with(w));
    let weak_material = owned
        && (v.chars().count() < 16
            || !v.bytes().any(|c| c.is_ascii_digit())
            || !v.bytes().any(|c| c.is_ascii_alphabetic())
            || (v.contains(['/', '.'])
                && !v
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))));
    // `key` alone names ids and positions as often as secrets (`"key": "Enter"`,
    // `sort_key`): its value must be key material that reads as random, as gitleaks'
    // generic rule asks (3.5 bits a character).
    // `key1 = "hll-pfcount01"`: numbered keys are keys too.
    let plain_key = lower_key.trim_end_matches(|c: char| c.is_ascii_digit()) == "key"
        || lower_key.starts_with("key_")
        || lower_key == "creds";
    let weak_key = plain_key
        && (NOT_SECRET_KEY_NAMES.iter().any(|w| name.contains(w))
            || (!env_line
                && not_key_material(v)
                && !hex_key_bytes(bytes, v, value_start != ks.end, value.consumed)
                && !vector_entry_key(bytes, pos, v, value.consumed)
                && !pam_module_key(super::shape::line_before(text, pos), v)));
    // Asked last, and only of tokens: it allocates.
    let handle = || {
        let squeezed: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
        NOT_SECRET_TOKEN_NAMES.iter().any(|w| squeezed.contains(w))
    };
    // A value alone on the line after its key is a guess from indentation: it must read
    // as random.
    let loose = value.next_line && bits_per_char(v.as_bytes()) < 3.0;
    // `hashed_secret`, `password_sha256`: a digest named as one; `password_hash:
    // pbkdf2_sha256$…`, `$2b$12$…`: crypt(3)'s and Django's formats.
    let digest = [
        "hash",
        "digest",
        "sha1",
        "sha256",
        "sha512",
        "md5",
        "checksum",
        "fingerprint",
        "cache",
        "etag",
    ]
    .iter()
    .any(|w| name.contains(w))
        && (is_hex_digest(v) || name.contains("hashed") || v.contains('$') || is_b64_digest(v));
    // git's `user.signingkey`: the ID or fingerprint of a public key (8, 16 or 40 hex).
    let signing_key_id = name.ends_with("signingkey")
        && matches!(v.len(), 8 | 16 | 40)
        && v.bytes().all(|c| c.is_ascii_hexdigit());
    // A value of the shape a provider the key names issues (`TWILIO_AUTH_TOKEN=<32 hex>`).
    if !is_placeholder(v) && !value.next_line {
        if let Some(kind) = context_kind(&name, v.as_bytes()) {
            return Some(Hit {
                end: value.consumed,
                secret_start: value.start,
                secret_end: value.end,
                kind,
            });
        }
    }
    let survives = v.chars().count() < if password { 3 } else { 6 }
        || is_placeholder(v)
        || v.eq_ignore_ascii_case(key)
        || v.starts_with(char::is_whitespace)
        || v.ends_with(char::is_whitespace)
        || is_expression(v)
        // Counts, ids, versions: a token or secret has letters, unless its digits are
        // written as text (`"1231231231"`, `1234-5678-91000`).
        || (!password && !v.chars().any(char::is_alphabetic) && !is_digit_credential(v, quote))
        || (password
            && !env_line
            && !connection_string
            && (!directive || v.len() < 4)
            && v.bytes().all(|c| c.is_ascii_digit())
            && !is_digit_credential(v, quote))
        // Keys, tokens and secrets are single words; passwords may be passphrases, but not
        // sentences.
        || (!password && v.chars().any(char::is_whitespace))
        || v.chars().filter(|c| c.is_whitespace()).count() >= 4
        // A call's second argument is a default only when it is one word.
        || (sep == Separator::Argument && (quote.is_none() || v.contains(char::is_whitespace)))
        // `"token": "github_webhook"`, `"apiKeyHelper"`: names, not secrets.
        || (!password && is_name_value && !env_word && !word_secret(&name, &lower_key, v, quote))

        // `auth=fifo:/run/fifo`, `secret=env:NAME`: a reference.
        || (!password && is_reference(v) && !auth_pair(&lower_key, v))
        // `"pass": "fail"`, `pwd: "Get-Location"`, test statuses, prose.
        || weak_survives
        || weak_material
        || weak_key
        || loose
        || digest
        || signing_key_id
        || declared
        // trybuild's `t.pass("tests/ui/*.rs")`, `base.pass("g:h", "g:h")`: a path or a
        // test's pair, not a password.
        || (weak && sep == Separator::Call && v.contains(['/', '*', ':']))
        || query_filler(text, pos, v)
        // `"obj.aFunctionCall()"`: code in a string.
        || is_call_expression(v)
        // `privateKey: Uint8Array;`: a type annotation.
        || (quote.is_none() && is_type_name(v) && next.is_some_and(|c| b";,)|>[]={<?".contains(&c)))
        // A URL after a blank-separated flag is the command's next argument.
        || (sep == Separator::Blank && (v.contains("://") || v.starts_with('-')))
        || (quote.is_none()
            && !env_line
            && !connection_string
            && (looks_like_code(v, next)
                || (is_name_value
                    && (spaced || sep == Separator::Sign(":"))
                    // `login daniel` / `password qwerty`: a block's password, one word; in
                    // YAML (`username: postgres` / `password: zalando`) only after its user.
                    && !(password
                        && (directive
                            || is_netrc(text, pos, key)
                            || (matches!(sep, Separator::Sign(":" | "="))
                                && !(sep == Separator::Sign("=") && names_code(v))
                                && user_line_above(text, pos)))
                        && stated_password(text, pos, name_end, v))
                    // `tgtadm … --password deadbeaf`: a client's password flag says it too,
                    // on a command line: the value ends it or another flag follows (in prose,
                    // `--password command switches`, words do), and it is no short word of
                    // prose (`--http-passwd and --proxy-passwd`): 6 characters at least, as
                    // the bare directives' own rule asks.
                    && !(password
                        && blank == Some(Blank::Flag)
                        && flag_before(text, pos).is_some_and(|f| f.starts_with("--"))
                        && v.len() >= 6
                        && one_word_password(v)
                        && command_goes_on(bytes, value.consumed)))))
        // A quoted name of words with numbers must show a separator unless a `key` names it:
        // random text reads as one now and then (1 in 2,000 base62 tokens).
        || (!password
            && is_identifier_words(v)
            && (quote.is_none() || plain_key || any_of(v, b".-_$")))
        || is_constant(v, !password)
        || is_version(v)
        || is_lookalike(&Seen {
            text,
            key_start: pos,
            name: &name,
            sep,
            value: v,
            quote,
            after: value.consumed,
            password,
            key_quoted: ks.key_quoted,
        });
    if survives || (kind == "token-assignment" && handle()) {
        return None;
    }
    // zmq_curve(7)'s key in hex, then the same in Z85 on the next line.
    let hit = prefer_token(text, value.start, value.end, value.consumed, kind);
    Some(with_z85(bytes, hit))
}

/// A URL's query parameter that is no credential: `?key=value2#frag` (a numbered filler
/// before the fragment), a badge's public graph token (`badge.svg?token=…`, Codecov's
/// documentation calls it not sensitive).
fn query_filler(text: &str, pos: usize, v: &str) -> bool {
    let b = text.as_bytes();
    let head = b.get(..pos).unwrap_or(&[]);
    let name = head
        .iter()
        .rev()
        .take(32)
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    if !head
        .len()
        .checked_sub(name + 1)
        .and_then(|i| head.get(i))
        .is_some_and(|c| b"?&".contains(c))
    {
        return false;
    }
    let value = v.split('#').next().unwrap_or(v);
    (value.len() < v.len() && is_placeholder(value))
        || super::shape::line_before(text, pos).contains("badge")
}

/// Why a blank may stand between a key and its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Blank {
    /// `--password x`, `-storepass x`, `.netrc`'s `password x`.
    Flag,
    /// A directive alone on its line: `requirepass x`, `Password "x"`.
    Directive,
    /// A quoted literal after SQL's `PASSWORD`, strongSwan's `PSK` or fetchmail's `password`.
    Sql,
}

/// Does the key name a password (`DB_PASSWORD`, `pwd`, the `pw` of `rootpw`, a Wi-Fi `psk`)?
fn password_key(lower_key: &str) -> bool {
    lower_key.contains("pass")
        || lower_key.contains("pwd")
        || lower_key.ends_with("pw")
        || lower_key == "psk"
}

/// `"client_secret": "drickyoughurt"`, `"refresh_token": "alabalaportocala"`: one long word of
/// lower-case letters, quoted under a compound credential's name (a qualifier and the key
/// word), is that credential however word-like; a name (`"github_webhook"`) has separators,
/// a label capitals, and a value naming what it stands for (`"clientsecret"`) stays.
fn word_secret(name: &str, lower_key: &str, v: &str, quote: Option<u8>) -> bool {
    quote.is_some()
        && (name.len() > lower_key.len() + 1 || lower_key.contains(['_', '-']))
        && v.len() >= 12
        && v.bytes().all(|c| c.is_ascii_lowercase())
        && !names_a_password(v)
}

/// apt-cacher-ng's `AdminAuth: mooma:moopa` (its manual: `username:password`): an `auth`
/// key's user and password, not a reference (`auth=fifo:/run/fifo`, `secret=env:NAME`).
fn auth_pair(lower_key: &str, v: &str) -> bool {
    // The references the guard was written for: `env:`, `file:`, `fifo:`, OpenSSL's `fd:`.
    const SCHEMES: &[&str] = &["env", "file", "fifo", "fd"];
    lower_key == "auth"
        && v.split_once(':').is_some_and(|(user, pw)| {
            !pw.is_empty()
                && !pw.starts_with('/')
                && !pw.contains(':')
                && !SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(user))
        })
}

/// Digits a credential's key holds as text, not as a number: quoted, 8 digits or more
/// (`api_key = "1231231231"`, `client_secret="0123…"`), or groups of digits joined by `-`, 10
/// or more in all (`API_TOKEN=1234-5678-91000`, `apikey: 12345-1234512345`), which no number,
/// date (8 digits) or version is. Not a filler of one or two digits (`"00000000"`).
pub(crate) fn is_digit_credential(v: &str, quote: Option<u8>) -> bool {
    let groups = v.split('-').count();
    let digits = v.bytes().filter(u8::is_ascii_digit).count();
    let all_digits = v.split('-').all(|g| !g.is_empty() && g.bytes().all(|c| c.is_ascii_digit()));
    let varied = (b'0'..=b'9').filter(|d| v.as_bytes().contains(d)).count() >= 3;
    all_digits
        && varied
        && ((groups == 1 && digits >= 8 && quote.is_some()) || (groups >= 2 && digits >= 10))
}
