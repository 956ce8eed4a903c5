//! Credential redaction: every credential in a text becomes `[REDACTED:<kind>]`
//! before the text reaches the history file, `log.jsonl` or the verbatim block.
//!
//! # Shapes
//!
//! The shapes follow gitleaks' rule set: provider tokens with fixed prefixes
//! (AWS key ids, GitHub, GitLab, Slack, Stripe, Anthropic, OpenAI, Google, npm,
//! PyPI), JWTs and PEM/OpenSSH/PGP private key blocks; then context rules:
//! AWS secret keys after their key name, `Authorization:` headers, `password=`
//! / `secret:` / `token=` style assignments (also `--password x`, `.netrc`,
//! `curl -u user:pass`) and `scheme://user:pass@host`. Only the secret part is
//! replaced: an assignment keeps its key, a URL its scheme and host, a header
//! its name and scheme word (`Authorization: Bearer [REDACTED:authorization]`).
//! When the value of an assignment or header is itself a provider token, the
//! provider's kind wins (`GITHUB_TOKEN=[REDACTED:github-token]`).
//!
//! # One pass, no regex engine
//!
//! The core ships as WebAssembly with a size budget, and a regex engine
//! would be most of it; the shapes are simple enough to read by hand. The
//! single pass is a byte loop: a 64 KiB table indexed by each pair of
//! adjacent bytes says whether a rule's leading literal may start there
//! (`AK`, `gh`, `sk`, `ey`, `--`, `:/`, `pa`, `to`, …). Only there does that
//! rule's reader run, anchored at that byte; it stops as soon as the shape
//! cannot match. Each reader's doc gives its shape as a regex, and it
//! returns what a leftmost-first engine would for it. After a match the
//! scan resumes past it: no rule ever rescans the text.
//!
//! # Choices (the corpus tests pin them)
//!
//! * Private key blocks (`-----BEGIN … PRIVATE KEY-----`) go whole, BEGIN line
//!   through END line. Without an END line a block ends with its paragraph:
//!   it takes the armor headers (`Proc-Type: …`) and the base64 tokens that
//!   follow one line break or blank apart, and stops at a blank line or at
//!   the first token that is not base64. A header with no base64 run of 20+
//!   characters after it (documentation, `...` bodies) is left alone.
//!   JSON-escaped line breaks (`\n`) count as line breaks.
//! * Placeholders survive: empty values, `$VAR`, `${VAR}`, `$(cmd)`, `%s`,
//!   `{{var}}`, `<your-password>`, `[REDACTED…]`, masks (`****`, `xxxx`,
//!   `sk_test_XXXXXXXX`), elisions (`ghp_...`), words such as `password`,
//!   `changeme`, `example`, `null`, `true`, type names (`string`, `usize`),
//!   values starting with `your` or holding `_here`, paths (`PWD=/work`),
//!   setting names (`"OPENAI_API_KEY"`), and a value equal to its key
//!   (`password=password`, a keyword argument).
//! * Code is not a credential: unquoted values that are calls, paths
//!   (`ec::Seed`), dotted names (`self.password`), expressions (`a?.b`,
//!   `x ?? y`, `n=null`), snake_case or camelCase names, and letters-only
//!   words after a spaced separator (`password: string`) survive, unless
//!   the line is an environment assignment (`ALL_CAPS=value`, no blanks),
//!   whose value is always literal. Consequence: YAML `password: hunter`
//!   (lowercase key, one letters-only word) is not caught; `hunter2` is.
//! * `token`/`secret`/`key` values need 6+ characters, letters, no blanks,
//!   and must not be a plain name (`"token": "github_webhook"`); passwords
//!   need 3+ characters and may be passphrases, not sentences.
//! * The replacement holds no quote or backslash, so JSON stays valid, and a
//!   second pass over redacted text changes nothing.
//!
//! Never panics: slices are taken with `get`, and if the trigger table could
//! not be built (a unit test proves it is) the text is returned unchanged.

use std::borrow::Cow;
use std::sync::OnceLock;

/// Every kind that can appear in `[REDACTED:<kind>]`.
const KINDS: &[&str] = &[
    "private-key",
    "aws-access-key-id",
    "aws-secret-key",
    "github-token",
    "gitlab-token",
    "slack-token",
    "slack-webhook",
    "stripe-key",
    "anthropic-key",
    "openai-key",
    "google-api-key",
    "npm-token",
    "pypi-token",
    "jwt",
    "authorization",
    "url-credentials",
    "password-assignment",
    "secret-assignment",
    "token-assignment",
];

/// The kinds `redact` may write, for callers that summarise or test.
pub fn kinds() -> &'static [&'static str] {
    KINDS
}

/// Replaces every credential in `text` by `[REDACTED:<kind>]`.
/// Borrowed when nothing matched (the common case allocates nothing).
pub fn redact(text: &str) -> Cow<'_, str> {
    redact_counted(text).0
}

/// As `redact`, also returning how many credentials were replaced.
pub fn redact_counted(text: &str) -> (Cow<'_, str>, usize) {
    match matcher() {
        Some(m) => m.redact(text),
        None => (Cow::Borrowed(text), 0),
    }
}

static MATCHER: OnceLock<Option<Matcher>> = OnceLock::new();

fn matcher() -> Option<&'static Matcher> {
    MATCHER.get_or_init(Matcher::build).as_ref()
}

/// What must precede a rule's leading literal for it to count as a start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Boundary {
    /// Anything (the literal itself is distinctive: `-----BEGIN`, `://`).
    Any,
    /// Not an ASCII word byte: a token is not the tail of a longer word
    /// (keeps base64 blobs and `task-sk-1` out).
    Word,
    /// A new name segment: not alphanumeric (so `DB_PASSWORD`, `x-api-key`
    /// count) or a camelCase hump (`dbPassword`); `bypass`, `compass` do not.
    Segment,
}

/// The rules, in priority order: at one position the first that matches wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rule {
    PrivateKey,
    AwsAccessKeyId,
    AwsSecretKey,
    Github,
    Gitlab,
    SlackToken,
    SlackWebhook,
    Stripe,
    Anthropic,
    OpenAi,
    Google,
    Npm,
    Pypi,
    Jwt,
    Authorization,
    Bearer,
    UrlCredentials,
    CurlUser,
    Assignment,
}

const RULES: [Rule; 19] = [
    Rule::PrivateKey,
    Rule::AwsAccessKeyId,
    Rule::AwsSecretKey,
    Rule::Github,
    Rule::Gitlab,
    Rule::SlackToken,
    Rule::SlackWebhook,
    Rule::Stripe,
    Rule::Anthropic,
    Rule::OpenAi,
    Rule::Google,
    Rule::Npm,
    Rule::Pypi,
    Rule::Jwt,
    Rule::Authorization,
    Rule::Bearer,
    Rule::UrlCredentials,
    Rule::CurlUser,
    Rule::Assignment,
];

/// Key words of assignments, longest first so `password` wins over `pass`.
#[rustfmt::skip]
const ASSIGNMENT_KEYWORDS: &[&str] = &[
    "passphrase", "credentials", "private_key", "private-key", "privatekey", "access_key",
    "access-key", "accesskey", "credential", "password", "api_key", "api-key", "passwd", "secret",
    "apikey", "token", "pass", "auth", "pwd",
];

/// Name parts that may follow a key word (`secret_access_key`,
/// `passwordHash`); anything else (`tokens`, `token_type`, `tokenizer`,
/// `secret_name`) means the name is not a credential's.
#[rustfmt::skip]
const ASSIGNMENT_SUFFIXES: &[&str] = &[
    "confirmation", "plaintext", "password", "private", "confirm", "access", "secret", "client",
    "master", "string", "phrase", "token", "admin", "plain", "value", "auth", "root", "user",
    "hash", "word", "base", "key", "api", "app", "str", "db",
];

impl Rule {
    fn index(self) -> usize {
        RULES.iter().position(|r| *r == self).unwrap_or(0)
    }

    /// Leading literals; the byte-pair table is built from their first two bytes.
    fn triggers(self) -> &'static [&'static str] {
        match self {
            Rule::PrivateKey => &["-----BEGIN"],
            Rule::AwsAccessKeyId => &["A3T", "AKIA", "ASIA", "ABIA", "ACCA"],
            Rule::AwsSecretKey => &["aws", "secret"],
            Rule::Github => &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
            Rule::Gitlab => &["gl", "GR1348941"],
            Rule::SlackToken => &["xox", "xapp-"],
            Rule::SlackWebhook => &["hooks.slack.com/"],
            Rule::Stripe => &["sk_", "rk_"],
            Rule::Anthropic => &["sk-ant-"],
            Rule::OpenAi => &["sk-"],
            Rule::Google => &["AIza"],
            Rule::Npm => &["npm_"],
            Rule::Pypi => &["pypi-AgE"],
            Rule::Jwt => &["eyJ"],
            Rule::Authorization => &["authorization"],
            Rule::Bearer => &["Bearer"],
            Rule::UrlCredentials => &["://"],
            Rule::CurlUser => &["-u", "--user"],
            Rule::Assignment => &[
                "pass",
                "pwd",
                "secret",
                "token",
                "api_key",
                "api-key",
                "apikey",
                "access_key",
                "access-key",
                "accesskey",
                "auth",
                "credential",
                "private_key",
                "private-key",
                "privatekey",
            ],
        }
    }

    fn triggers_ignore_case(self) -> bool {
        matches!(
            self,
            Rule::AwsSecretKey | Rule::SlackWebhook | Rule::Authorization | Rule::Assignment
        )
    }

    fn boundary(self) -> Boundary {
        match self {
            Rule::PrivateKey | Rule::SlackWebhook | Rule::UrlCredentials => Boundary::Any,
            Rule::AwsSecretKey | Rule::Authorization | Rule::Assignment => Boundary::Segment,
            _ => Boundary::Word,
        }
    }

    /// Kind of a provider token: one whose shape alone says what it is, and
    /// which therefore wins over the header or key that holds it.
    fn token_kind(self) -> Option<&'static str> {
        match self {
            Rule::PrivateKey => Some("private-key"),
            Rule::AwsAccessKeyId => Some("aws-access-key-id"),
            Rule::Github => Some("github-token"),
            Rule::Gitlab => Some("gitlab-token"),
            Rule::SlackToken => Some("slack-token"),
            Rule::Stripe => Some("stripe-key"),
            Rule::Anthropic => Some("anthropic-key"),
            Rule::OpenAi => Some("openai-key"),
            Rule::Google => Some("google-api-key"),
            Rule::Npm => Some("npm-token"),
            Rule::Pypi => Some("pypi-token"),
            Rule::Jwt => Some("jwt"),
            Rule::AwsSecretKey
            | Rule::SlackWebhook
            | Rule::Authorization
            | Rule::Bearer
            | Rule::UrlCredentials
            | Rule::CurlUser
            | Rule::Assignment => None,
        }
    }
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
struct Hit {
    end: usize,
    secret_start: usize,
    secret_end: usize,
    kind: &'static str,
}

struct Matcher {
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

    fn redact<'t>(&self, text: &'t str) -> (Cow<'t, str>, usize) {
        let bytes = text.as_bytes();
        let mut out: Option<String> = None;
        let mut copied = 0;
        let mut count = 0;
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
                    let buf = out.get_or_insert_with(|| String::with_capacity(text.len()));
                    buf.push_str(text.get(copied..hit.secret_start).unwrap_or(""));
                    buf.push_str("[REDACTED:");
                    buf.push_str(hit.kind);
                    buf.push(']');
                    copied = hit.secret_end;
                    count += 1;
                    i = hit.end.max(hit.secret_end).max(i + 1);
                }
                None => i += 1,
            }
        }
        match out {
            Some(mut buf) => {
                buf.push_str(text.get(copied..).unwrap_or(""));
                (Cow::Owned(buf), count)
            }
            None => (Cow::Borrowed(text), 0),
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
    fn hit_at(&self, text: &str, pos: usize, tokens_only: bool) -> Option<Hit> {
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

    /// Out of line: `hit_at` runs at every candidate and most candidates
    /// fail on their literal; with the readers inlined it spilled registers
    /// on every call and the scan ran a fifth slower.
    #[inline(never)]
    fn try_rule(&self, text: &str, pos: usize, rule: Rule) -> Option<Hit> {
        let bytes = text.as_bytes();
        match rule {
            Rule::Assignment => return self.assignment(text, pos),
            Rule::PrivateKey => {
                let end = key_block_end(text, pos)?;
                let block = text.get(pos..end)?;
                return has_key_material(block).then_some(Hit {
                    end,
                    secret_start: pos,
                    secret_end: end,
                    kind: "private-key",
                });
            }
            _ => {}
        }
        if let Some(kind) = rule.token_kind() {
            let end = token_end(bytes, pos, rule)?;
            let token = text.get(pos..end)?;
            // A token is a whole word: `AKIA…` followed by more letters, or
            // `npm_` + 36 characters + `_suffix`, is something else.
            let whole_word = match rule {
                Rule::AwsAccessKeyId | Rule::Github | Rule::Stripe | Rule::OpenAi | Rule::Npm => {
                    !bytes.get(end).is_some_and(|c| is_word(*c))
                }
                _ => true,
            };
            let random = match rule {
                Rule::Gitlab => !is_mask(token.rsplit('-').next().unwrap_or(token)),
                _ => !is_mask(token_body(token)),
            };
            return (whole_word && random).then_some(Hit {
                end,
                secret_start: pos,
                secret_end: end,
                kind,
            });
        }
        match rule {
            Rule::AwsSecretKey => {
                if !separator_follows(text, pos) {
                    return None;
                }
                let (s, e) = aws_secret_key(bytes, pos)?;
                let continues = bytes
                    .get(e)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || b"/+=".contains(c));
                (!continues).then_some(Hit {
                    end: e,
                    secret_start: s,
                    secret_end: e,
                    kind: "aws-secret-key",
                })
            }
            Rule::SlackWebhook => {
                let (s, e) = slack_webhook(bytes, pos)?;
                Some(Hit {
                    end: e,
                    secret_start: s,
                    secret_end: e,
                    kind: "slack-webhook",
                })
            }
            Rule::Authorization | Rule::Bearer => {
                // `scheme`: the header named its scheme (`Basic …`); only
                // the `Authorization` rule reads it.
                let (s, e, scheme) = match rule {
                    Rule::Authorization => authorization_header(bytes, pos)?,
                    _ => {
                        let (s, e) = bearer_header(bytes, pos)?;
                        (s, e, true)
                    }
                };
                let value = text.get(s..e)?;
                if value.len() < 8 || is_scheme_word(value) || is_placeholder(value) {
                    return None;
                }
                // `authorization = self.headers.get(...)` is code, not a header.
                let next = bytes.get(e).copied();
                let bare = value.trim_end_matches(['+', '-']);
                if rule == Rule::Authorization
                    && !scheme
                    && (looks_like_code(bare, next) || is_expression(value) || is_name(value))
                {
                    return None;
                }
                if rule == Rule::Bearer
                    && !(value.bytes().any(|c| c.is_ascii_digit())
                        && value.bytes().any(|c| c.is_ascii_alphabetic()))
                {
                    return None;
                }
                Some(self.prefer_token(text, s, e, e, "authorization"))
            }
            Rule::UrlCredentials => {
                let (s, e) = url_credentials(text, pos)?;
                let (user, pass) = text.get(s..e)?.split_once(':')?;
                let after = text.get(e + 1..).unwrap_or("");
                if is_placeholder(pass)
                    || (!user.is_empty() && is_placeholder(user) && pass.eq_ignore_ascii_case(user))
                    || after.starts_with("sha256:")
                    || after.starts_with("sha512:")
                {
                    return None;
                }
                // Resume at the `@`: the host's first character was only
                // looked at, and may start a token of its own.
                Some(Hit {
                    end: e,
                    secret_start: s,
                    secret_end: e,
                    kind: "url-credentials",
                })
            }
            Rule::CurlUser => {
                let (s, e) = curl_user_password(text, pos)?;
                let pass = text.get(s..e)?;
                let colon = s.checked_sub(1)?;
                let user = text
                    .get(..colon)
                    .and_then(|h| h.rsplit([' ', '\t', '=', '"', '\'']).next());
                let line = line_before(text, pos);
                let client =
                    line.contains("curl") || line.contains("wget") || line.contains("http");
                // `docker run -u 1000:1000`, `-u www-data:www-data`: user and group.
                if !client
                    || is_placeholder(pass)
                    || pass.bytes().all(|c| c.is_ascii_digit())
                    || user.is_some_and(|u| u == pass)
                {
                    return None;
                }
                Some(Hit {
                    end: e,
                    secret_start: s,
                    secret_end: e,
                    kind: "password-assignment",
                })
            }
            _ => None,
        }
    }

    /// Judges `key = value`: see the module docs for which values survive.
    fn assignment(&self, text: &str, pos: usize) -> Option<Hit> {
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
            || (!password && name)
            // `auth=fifo:/run/fifo`, `secret=env:NAME`: a reference.
            || (!password && is_reference(v))
            // `"pass": "fail"`, `pwd: "Get-Location"`: weak keys need a
            // value that is not a plain name.
            || ((lower_key == "pass" || lower_key == "pwd") && name && !env_line)
            || (quote.is_none()
                && !env_line
                && (looks_like_code(v, next) || (name && (spaced || sep == Some(":")))));
        if survives {
            return None;
        }
        Some(self.prefer_token(text, value.start, value.end, value.consumed, kind))
    }

    /// If the value at `s..e` is itself a provider token, report that kind.
    fn prefer_token(&self, text: &str, s: usize, e: usize, end: usize, kind: &'static str) -> Hit {
        match self.hit_at(text, s, true) {
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
}

fn literal_at(bytes: &[u8], pos: usize, literal: &[u8], ignore_case: bool) -> bool {
    match bytes.get(pos..pos + literal.len()) {
        Some(found) if ignore_case => found.eq_ignore_ascii_case(literal),
        Some(found) => found == literal,
        None => false,
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
            !before.is_ascii_alphanumeric() || hump
        }
    }
}

// ---- The rules' shapes, read by hand ----
//
// Each reader is anchored at the trigger position and returns where its
// shape ends (and, for context rules, the secret's span), or None. The doc
// comment of each gives the shape as a regex, for reference only: the
// crate does not use `regex`. Where a shape could match in more than one
// way, the reader returns the match a leftmost-first (Perl-style) engine
// would: greedy runs take all they can, the first alternative that leads to
// a match wins. Every class is ASCII except the negated ones of URLs and
// `curl -u`, which stop at Unicode white space and are read by `char`, so
// every offset returned lies on a character boundary.

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// `[A-Za-z0-9_-]`: base64url, and most providers' token alphabet.
fn is_b64url(c: u8) -> bool {
    is_word(c) || c == b'-'
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// `literal` at `at`, byte for byte; the offset after it.
fn lit(b: &[u8], at: usize, literal: &[u8]) -> Option<usize> {
    literal_at(b, at, literal, false).then_some(at + literal.len())
}

/// As `lit`, ASCII case-insensitive (`(?i-u:…)`).
fn lit_ci(b: &[u8], at: usize, literal: &[u8]) -> Option<usize> {
    literal_at(b, at, literal, true).then_some(at + literal.len())
}

/// The first of `literals` found at `at` (an alternation of literals).
fn one_of(b: &[u8], at: usize, literals: &[&[u8]]) -> Option<usize> {
    literals.iter().find_map(|l| lit(b, at, l))
}

/// One byte of `class` (`[…]`).
fn one(b: &[u8], at: usize, class: fn(u8) -> bool) -> Option<usize> {
    b.get(at).is_some_and(|c| class(*c)).then_some(at + 1)
}

/// The end of the longest run of `class` from `at` (`[…]*`).
fn run(b: &[u8], at: usize, class: fn(u8) -> bool) -> usize {
    at + b
        .get(at..)
        .map_or(0, |t| t.iter().take_while(|c| class(**c)).count())
}

/// `[…]{min,}`: the longest run, if it is long enough.
fn at_least(b: &[u8], at: usize, class: fn(u8) -> bool, min: usize) -> Option<usize> {
    let end = run(b, at, class);
    (end - at >= min).then_some(end)
}

/// `[…]{n}`: exactly `n` bytes of `class`, whatever follows.
fn exactly(b: &[u8], at: usize, class: fn(u8) -> bool, n: usize) -> Option<usize> {
    b.get(at..at + n)
        .is_some_and(|t| t.iter().all(|c| class(*c)))
        .then_some(at + n)
}

fn blanks(b: &[u8], at: usize) -> usize {
    run(b, at, is_blank)
}

/// `(?:\\*["'])?`: a closing or opening quote, JSON-escaped or not. Where
/// the quote is absent, nothing is taken (the backslashes stay).
fn quote_opt(b: &[u8], at: usize) -> usize {
    let i = run(b, at, |c| c == b'\\');
    match b.get(i) {
        Some(b'"' | b'\'') => i + 1,
        _ => at,
    }
}

/// The end of the longest run of characters from `at` that `stop` does not
/// end (`[^…]*` with Unicode `\s`); `at` must be a character boundary.
fn chars_until(text: &str, at: usize, stop: fn(char) -> bool) -> usize {
    let rest = text.get(at..).unwrap_or("");
    at + rest.find(stop).unwrap_or(rest.len())
}

/// Where the provider token at `pos` ends, by its rule's shape.
fn token_end(b: &[u8], pos: usize, rule: Rule) -> Option<usize> {
    let upper_digit = |c: u8| c.is_ascii_uppercase() || c.is_ascii_digit();
    let alnum = |c: u8| c.is_ascii_alphanumeric();
    let digit = |c: u8| c.is_ascii_digit();
    match rule {
        // (?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}
        Rule::AwsAccessKeyId => {
            let body = match lit(b, pos, b"A3T") {
                Some(i) => one(b, i, upper_digit)?,
                None => one_of(b, pos, &[b"AKIA", b"ASIA", b"ABIA", b"ACCA"])?,
            };
            exactly(b, body, upper_digit, 16)
        }
        // gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{70,}
        Rule::Github => one_of(b, pos, &[b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_"])
            .and_then(|i| at_least(b, i, alnum, 36))
            .or_else(|| at_least(b, lit(b, pos, b"github_pat_")?, is_word, 70)),
        // gl(?:pat|dt|ptt|rtr|rt|cbt|imt|soat|ffct|ft|agent|oas|wt)-[A-Za-z0-9_.-]{20,}
        // |GR1348941[A-Za-z0-9_-]{20,}
        Rule::Gitlab => {
            #[rustfmt::skip]
            const TYPES: &[&[u8]] = &[
                b"pat-", b"dt-", b"ptt-", b"rtr-", b"rt-", b"cbt-", b"imt-", b"soat-", b"ffct-",
                b"ft-", b"agent-", b"oas-", b"wt-",
            ];
            lit(b, pos, b"gl")
                .and_then(|i| one_of(b, i, TYPES))
                .and_then(|i| at_least(b, i, |c| is_b64url(c) || c == b'.', 20))
                .or_else(|| at_least(b, lit(b, pos, b"GR1348941")?, is_b64url, 20))
        }
        // xox[abeoprs]-[0-9]+-[A-Za-z0-9-]{8,}
        // |xoxe\.xox[bp]-[0-9]-[A-Za-z0-9]{20,}
        // |xapp-[0-9]-[A-Za-z0-9-]{10,}
        Rule::SlackToken => {
            let alnum_dash = |c: u8| c.is_ascii_alphanumeric() || c == b'-';
            let legacy = || {
                let i = one(b, lit(b, pos, b"xox")?, |c| b"abeoprs".contains(&c))?;
                let i = at_least(b, lit(b, i, b"-")?, digit, 1)?;
                at_least(b, lit(b, i, b"-")?, alnum_dash, 8)
            };
            let rotating = || {
                let i = one(b, lit(b, pos, b"xoxe.xox")?, |c| c == b'b' || c == b'p')?;
                let i = one(b, lit(b, i, b"-")?, digit)?;
                at_least(b, lit(b, i, b"-")?, alnum, 20)
            };
            let app = || {
                let i = one(b, lit(b, pos, b"xapp-")?, digit)?;
                at_least(b, lit(b, i, b"-")?, alnum_dash, 10)
            };
            legacy().or_else(rotating).or_else(app)
        }
        // [rs]k_(?:test|live|prod)_[A-Za-z0-9]{10,}
        Rule::Stripe => {
            let i = lit(b, one(b, pos, |c| c == b'r' || c == b's')?, b"k_")?;
            let i = one_of(b, i, &[b"test_", b"live_", b"prod_"])?;
            at_least(b, i, alnum, 10)
        }
        // sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_-]{20,}
        // The letters and digits do not overlap: the letter run is taken
        // whole, and more than 10 letters fail as in a backtracking engine.
        Rule::Anthropic => {
            let i = lit(b, pos, b"sk-ant-")?;
            let letters = run(b, i, |c| c.is_ascii_lowercase());
            if !(2..=10).contains(&(letters - i)) {
                return None;
            }
            let i = lit(b, exactly(b, letters, digit, 2)?, b"-")?;
            at_least(b, i, is_b64url, 20)
        }
        // sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{32,})
        Rule::OpenAi => {
            let i = lit(b, pos, b"sk-")?;
            one_of(b, i, &[b"proj-", b"svcacct-", b"admin-", b"None-"])
                .and_then(|j| at_least(b, j, is_b64url, 20))
                .or_else(|| at_least(b, i, alnum, 32))
        }
        // AIza[A-Za-z0-9_-]{35}
        Rule::Google => exactly(b, lit(b, pos, b"AIza")?, is_b64url, 35),
        // npm_[A-Za-z0-9]{36}
        Rule::Npm => exactly(b, lit(b, pos, b"npm_")?, alnum, 36),
        // pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}
        Rule::Pypi => {
            let i = lit(b, pos, b"pypi-AgE")?;
            let i = one_of(b, i, &[b"IcHlwaS5vcmc", b"NdGVzdC5weXBpLm9yZw"])?;
            at_least(b, i, is_b64url, 50)
        }
        // eyJ[A-Za-z0-9_-]{8,}\.ey[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*
        Rule::Jwt => {
            let i = at_least(b, lit(b, pos, b"eyJ")?, is_b64url, 8)?;
            let i = at_least(b, lit(b, i, b".ey")?, is_b64url, 8)?;
            Some(run(b, lit(b, i, b".")?, is_b64url))
        }
        Rule::PrivateKey
        | Rule::AwsSecretKey
        | Rule::SlackWebhook
        | Rule::Authorization
        | Rule::Bearer
        | Rule::UrlCredentials
        | Rule::CurlUser
        | Rule::Assignment => None,
    }
}

/// The 40-character secret after an AWS secret key's name:
/// `(?i-u:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)`
/// `(?:\\*["'])?[ \t]*(?::=|=>|=|:)[ \t]*(?:\\*["'])?(?P<s>[A-Za-z0-9/+]{40})`.
fn aws_secret_key(b: &[u8], pos: usize) -> Option<(usize, usize)> {
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

/// The secret path of a Slack webhook: `(?i-u:hooks\.slack\.com)/`
/// `(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/_-]{20,})`.
fn slack_webhook(b: &[u8], pos: usize) -> Option<(usize, usize)> {
    let i = lit(b, lit_ci(b, pos, b"hooks.slack.com")?, b"/")?;
    let s = one_of(b, i, &[b"services/", b"workflows/", b"triggers/"])?;
    let e = at_least(b, s, |c| is_b64url(c) || c == b'+' || c == b'/', 20)?;
    Some((s, e))
}

/// An `Authorization` header's credential, and whether a scheme word came
/// before it: `(?i-u:authorization)(?:\\*["'])?[ \t]*[:=][ \t]*(?:\\*["'])?[ \t]*`
/// `(?:(?P<scheme>(?i-u:bearer|basic|token|bot|apikey|sso-key|key))[ \t]+)?`
/// `(?P<s>[A-Za-z0-9_.~+/:-]+=*)`.
fn authorization_header(b: &[u8], pos: usize) -> Option<(usize, usize, bool)> {
    let i = blanks(b, quote_opt(b, lit_ci(b, pos, b"authorization")?));
    let i = one(b, i, |c| c == b':' || c == b'=')?;
    let i = blanks(b, quote_opt(b, blanks(b, i)));
    let value = |at: usize| {
        let end = run(b, at, |c| {
            c.is_ascii_alphanumeric() || b"_.~+/:-".contains(&c)
        });
        (end > at).then(|| run(b, end, |c| c == b'='))
    };
    // No two scheme words share a prefix, so at most one can be here.
    #[rustfmt::skip]
    const SCHEMES: &[&[u8]] =
        &[b"bearer", b"basic", b"token", b"bot", b"apikey", b"sso-key", b"key"];
    let after_scheme = SCHEMES
        .iter()
        .find_map(|w| lit_ci(b, i, w))
        .map(|j| (j, blanks(b, j)))
        .filter(|(j, k)| k > j)
        .and_then(|(_, k)| Some((k, value(k)?)));
    match after_scheme {
        Some((s, e)) => Some((s, e, true)),
        // Without a value after it, the scheme word is the value (and too
        // short to be kept), as a backtracking engine would have it.
        None => Some((i, value(i)?, false)),
    }
}

/// `Bearer[ \t]+(?P<s>[A-Za-z0-9_.~+/-]{20,}=*)`.
fn bearer_header(b: &[u8], pos: usize) -> Option<(usize, usize)> {
    let i = lit(b, pos, b"Bearer")?;
    let s = blanks(b, i);
    if s == i {
        return None;
    }
    let e = at_least(
        b,
        s,
        |c| c.is_ascii_alphanumeric() || b"_.~+/-".contains(&c),
        20,
    )?;
    Some((s, run(b, e, |c| c == b'=')))
}

/// `user:password` after a URL's `://`: `://(?P<s>[^\s/?#@:"'<>\\\[\]]*`
/// `:[^\s/?#"'<>\\]+)@[A-Za-z0-9\[]`. The password may hold `@` and `:`;
/// it ends at the last `@` of its run that a host follows, so
/// `u:p@ss@host` loses all of `p@ss`.
fn url_credentials(text: &str, pos: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let s = lit(b, pos, b"://")?;
    let user_end = chars_until(text, s, |c| {
        c.is_whitespace() || "/?#@:\"'<>\\[]".contains(c)
    });
    let pass_start = lit(b, user_end, b":")?;
    let pass_end = chars_until(text, pass_start, |c| {
        c.is_whitespace() || "/?#\"'<>\\".contains(c)
    });
    // The password takes one character at least; `@` is ASCII, so no byte
    // of a multibyte character is mistaken for it.
    let from = pass_start + 1;
    let at = b
        .get(from..pass_end)?
        .iter()
        .enumerate()
        .rev()
        .find_map(|(k, c)| {
            let host = b.get(from + k + 1);
            (*c == b'@' && host.is_some_and(|h| h.is_ascii_alphanumeric() || *h == b'['))
                .then_some(from + k)
        })?;
    Some((s, at))
}

/// The password of `curl -u user:pass`: `(?:-u|--user)(?:[ \t]+|=)["']?`
/// `[A-Za-z0-9._%+@-]*:(?P<s>[^\s'"\[]+)`.
fn curl_user_password(text: &str, pos: usize) -> Option<(usize, usize)> {
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
fn separator_follows(text: &str, key_start: usize) -> bool {
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
    let word = ASSIGNMENT_KEYWORDS.iter().find(|w| starts(pos, w))?;
    let mut i = pos + word.len();
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
fn line_before(text: &str, pos: usize) -> &str {
    let mut start = pos.saturating_sub(512);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let head = text.get(start..pos).unwrap_or("");
    head.rsplit('\n').next().unwrap_or(head)
}

/// The random part of a prefixed token (after its last `_` or `-` prefix separator
/// within the first 12 bytes), for the mask check.
fn token_body(token: &str) -> &str {
    let head = token.get(..12.min(token.len())).unwrap_or(token);
    match head.rfind(['_', '-']) {
        Some(i) => token.get(i + 1..).unwrap_or(token),
        None => token,
    }
}

/// `xxxxxxxx`, `00000000`, `abababab`: documentation fillers, not keys.
fn is_mask(body: &str) -> bool {
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

/// The end of the private key block whose `-----BEGIN` is at `pos`: the
/// header line, armor headers (`Proc-Type: 4,ENCRYPTED`), base64 tokens one
/// separator apart (blank lines only before the first: PGP puts one there),
/// and the END line if it follows. Without an END line the block stops at a
/// blank line or at the first token that is not base64.
fn key_block_end(text: &str, pos: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = key_block_marker(b, pos, b"-----BEGIN")?;
    // Armor headers: `Name-Part: value` to the end of the line.
    while let Some(j) = one_separator(b, i) {
        let name = b.get(j..).map_or(0, |t| {
            t.iter()
                .take_while(|c| c.is_ascii_alphabetic() || **c == b'-')
                .count()
        });
        let starts_alpha = b.get(j).is_some_and(u8::is_ascii_alphabetic);
        if !(starts_alpha
            && b.get(j + name) == Some(&b':')
            && matches!(b.get(j + name + 1), Some(b' ' | b'\t')))
        {
            break;
        }
        i = j + name + 2;
        while b
            .get(i)
            .is_some_and(|c| !matches!(c, b'\r' | b'\n' | b'\\'))
        {
            i += 1;
        }
    }
    let base64_run = |at: usize| {
        b.get(at..).map_or(0, |t| {
            t.iter()
                .take_while(|c| c.is_ascii_alphanumeric() || b"+/=".contains(c))
                .count()
        })
    };
    let mut first = true;
    loop {
        let next = if first {
            separators(b, i)
        } else {
            one_separator(b, i)
        };
        let Some(j) = next else { break };
        let run = base64_run(j);
        if run == 0 {
            break;
        }
        i = j + run;
        first = false;
    }
    if let Some(end) = separators(b, i).and_then(|j| key_block_marker(b, j, b"-----END")) {
        i = end;
    }
    Some(i)
}

/// `-----BEGIN` or `-----END`, then ` WORD`s ending in ` PRIVATE KEY` or
/// ` PRIVATE KEY BLOCK`, then `-----`; returns the offset after it.
fn key_block_marker(b: &[u8], pos: usize, marker: &[u8]) -> Option<usize> {
    let at = pos + marker.len();
    if b.get(pos..at) != Some(marker) {
        return None;
    }
    let words = b
        .get(at..)?
        .iter()
        .take(64)
        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || **c == b' ')
        .count();
    let label = b.get(at..at + words)?;
    let ok = label.first() == Some(&b' ')
        && (label.ends_with(b" PRIVATE KEY") || label.ends_with(b" PRIVATE KEY BLOCK"))
        && !label.windows(2).any(|w| w == b"  ");
    let end = at + words + 5;
    (ok && b.get(at + words..end) == Some(b"-----")).then_some(end)
}

/// One separator inside a key block: blanks, or one line break (real, or
/// JSON-escaped `\n`) with blanks around it. Never a blank line.
fn one_separator(b: &[u8], i: usize) -> Option<usize> {
    let blanks = |mut at: usize| {
        while matches!(b.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        at
    };
    let j = blanks(i);
    let line_break = match b.get(j) {
        Some(b'\n') => Some(j + 1),
        Some(b'\r') if b.get(j + 1) == Some(&b'\n') => Some(j + 2),
        Some(b'\\') => {
            // `\n` or `\r\n`, each with any number of backslashes.
            let escaped = |at: usize, letter: u8| {
                let slashes = b
                    .get(at..)
                    .map_or(0, |t| t.iter().take_while(|c| **c == b'\\').count());
                (slashes > 0 && b.get(at + slashes) == Some(&letter)).then_some(at + slashes + 1)
            };
            escaped(j, b'n').or_else(|| escaped(j, b'r').and_then(|k| escaped(k, b'n')))
        }
        _ => None,
    };
    match line_break {
        Some(k) => Some(blanks(k)),
        None => (j > i).then_some(j),
    }
}

/// One or more separators (blank lines allowed).
fn separators(b: &[u8], i: usize) -> Option<usize> {
    let mut j = one_separator(b, i)?;
    while let Some(k) = one_separator(b, j) {
        j = k;
    }
    Some(j)
}

/// A key block's body must hold a real base64 run, not `...` or nothing.
fn has_key_material(block: &str) -> bool {
    let body = block.get(10..).unwrap_or("");
    let body = body
        .find("-----")
        .and_then(|i| body.get(i + 5..))
        .unwrap_or("");
    let mut run = 0;
    for c in body.bytes() {
        if c.is_ascii_alphanumeric() || c == b'+' || c == b'/' {
            run += 1;
            if run >= 20 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

fn is_scheme_word(v: &str) -> bool {
    ["bearer", "basic", "token", "bot", "apikey", "key", "digest"]
        .iter()
        .any(|w| v.eq_ignore_ascii_case(w))
}

/// Values that stand for a secret without being one.
fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    let Some(first) = v.chars().next() else {
        return true;
    };
    if matches!(first, '$' | '%' | '{' | '<' | '[' | '*')
        || v.starts_with("#{")
        || v.starts_with("--")
    {
        return true;
    }
    if !v.chars().any(char::is_alphanumeric) {
        return true;
    }
    if v.chars()
        .all(|c| matches!(c, 'x' | 'X' | '*' | '.' | '-' | '_' | '•' | '…' | '#'))
    {
        return true;
    }
    // A path (`PWD=/work/main`), not a secret.
    if ["/", "~/", "./", "../"].iter().any(|p| v.starts_with(p)) {
        return true;
    }
    // A token shape whose random part is a mask: `sk_test_XXXXXXXXXXXX`.
    if v.rsplit(['_', '-'])
        .next()
        .is_some_and(|tail| tail.chars().count() >= 8 && is_mask(tail))
    {
        return true;
    }
    // The name of a variable or setting (`"OPENAI_API_KEY"`), not its value.
    let screaming = v.contains('_')
        && v.bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        && v.bytes().next().is_some_and(|c| c.is_ascii_uppercase());
    if screaming {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if v.ends_with("...") || v.ends_with('…') {
        return true;
    }
    #[rustfmt::skip]
    const INFIXES: &[&str] =
        &["your-", "your_", "-here", "_here", "example", "placeholder", "changeme", "changeit"];
    if INFIXES.iter().any(|i| lower.contains(i)) {
        return true;
    }
    #[rustfmt::skip]
    const WORDS: &[&str] = &[
        "password", "passwd", "pass", "pwd", "passphrase", "secret", "token", "apikey", "api_key",
        "api-key", "key", "changeme", "change_me", "change-me", "changeit", "example", "sample",
        "dummy", "fake", "test", "null", "nil", "none", "true", "false", "undefined", "redacted",
        "hidden", "masked", "placeholder", "string", "str", "number", "int", "integer", "bool",
        "boolean", "any", "unknown", "bytes", "object", "optional", "required", "await", "new",
        "this", "self", "value", "env", "todo", "tbd", "n/a", "secretstr", "secretstring",
        "credential", "credentials", "auth", "bearer", "basic", "usize", "isize", "u8", "u16",
        "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32", "f64", "char", "uint",
        "long", "float", "double", "void", "vec", "option", "result", "box",
    ];
    #[rustfmt::skip]
    const PREFIXES: &[&str] = &[
        "your", "my_", "my-", "insert", "replace", "enter_", "enter-", "process.env", "os.environ",
        "env.", "secrets.", "vault:", "op://", "enc[",
    ];
    WORDS.contains(&lower.as_str()) || PREFIXES.iter().any(|p| lower.starts_with(p))
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

/// Words joined by `-`, `_` or `.`, each lowercase, Capitalised, camelCase
/// humps or a short ACRONYM, no digits: `static_analysis`, `apiKeyHelper`,
/// `Get-AzAccessToken`. Random tokens almost never take this shape.
fn is_name(v: &str) -> bool {
    let word = |w: &str| {
        let b = w.as_bytes();
        if b.is_empty() || !b.iter().all(u8::is_ascii_alphabetic) {
            return false;
        }
        if b.iter().all(u8::is_ascii_uppercase) {
            return b.len() <= 5;
        }
        // First letter any case, then humps: every capital is followed by
        // a lowercase letter.
        b.windows(2).skip(1).all(|p| match p {
            [x, y] if x.is_ascii_uppercase() => y.is_ascii_lowercase(),
            _ => true,
        }) && !b
            .last()
            .is_some_and(|c| c.is_ascii_uppercase() && b.len() > 1)
    };
    v.split(['-', '_', '.']).all(word)
}

/// `scheme:rest` where the scheme is a lowercase word and the rest a path
/// or a name: `fifo:/tmp/x`, `env:API_TOKEN`, `file:secret.txt`.
fn is_reference(v: &str) -> bool {
    match v.split_once(':') {
        Some((scheme, rest)) => {
            !scheme.is_empty()
                && scheme.bytes().all(|c| c.is_ascii_lowercase())
                && (rest.starts_with('/')
                    || is_name(rest)
                    || is_name(rest.rsplit_once('.').map_or(rest, |(n, _)| n)))
        }
        None => false,
    }
}

/// Operators that no credential contains but code does: `a?.b`, `x ?? y`,
/// `a === b`, `${x}`, `i++`, `n=null`, `c ? d : e`, `a.b+c.d`.
fn is_expression(v: &str) -> bool {
    const MARKERS: &[&str] = &["?.", "??", "==", "!=", "=>", "${", "&&", "||", "++"];
    // Base64 padding (`dGVzdA==`) is not an operator; `h.auth===` still is.
    let core = v.trim_end_matches('=');
    if MARKERS.iter().any(|m| core.contains(m))
        || (core.len() < v.len() && core.contains('.') && looks_like_code(core, None))
    {
        return true;
    }
    let ident_len = v
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || b"_$#.".contains(c))
        .count();
    let starts_ident = v
        .bytes()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || b"_$".contains(&c));
    if starts_ident {
        let ident = v.get(..ident_len).unwrap_or("");
        let rest = v.get(ident_len + 1..).unwrap_or("");
        match v.as_bytes().get(ident_len) {
            // `n=null`, `v=-1`, `a=b=c`; not base64 padding (`dGVzdA==`).
            Some(b'=') if !rest.is_empty() && !rest.starts_with('=') => return true,
            // `x?y:z`, `k?void 0`, `this.withCredentials?`
            Some(b'?')
                if ident.contains('.')
                    || rest.contains(':')
                    || rest.starts_with("void")
                    || rest.starts_with("null") =>
            {
                return true
            }
            _ => {}
        }
    }
    const KEYWORDS: &[&str] = &[
        "return", "void", "typeof", "await", "new", "function", "yield",
    ];
    let first_word = v
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    if first_word.len() < v.len() && KEYWORDS.contains(&first_word) {
        return true;
    }
    let dotted = |p: &str| p.contains('.') && looks_like_code(p, None);
    let operands = v.trim_end_matches(['+', '-', '*', '/']);
    (operands.contains(['+', '-', '*', '/']) && operands.split(['+', '-', '*', '/']).all(dotted))
        || v.strip_prefix('!')
            .is_some_and(|rest| looks_like_code(rest.trim_start_matches('!'), None))
}

/// Unquoted values that read as code rather than as a literal: a call or
/// generic (`getpass(`, `Token![`, `Option<`), a path (`ec::Seed`), a dotted
/// name (`self.password`, `this.#key`), a number (`0x04`), a snake_case name
/// (`__u32`, `db_password`) or a camelCase one (`userPassword`).
fn looks_like_code(v: &str, next: Option<u8>) -> bool {
    if next.is_some_and(|c| b"([{<".contains(&c)) || v.contains("::") || v.ends_with('!') {
        return true;
    }
    if v.len() > 2
        && (v.starts_with("0x") || v.starts_with("0X"))
        && v.bytes().skip(2).all(|c| c.is_ascii_hexdigit())
    {
        return true;
    }
    let ident = |s: &str| {
        let mut chars = s.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '#')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    };
    if v.contains('.') {
        return v.split('.').count() > 1 && v.split('.').all(ident);
    }
    if !ident(v) {
        return false;
    }
    let snake = v.contains('_') && !v.bytes().any(|c| c.is_ascii_uppercase());
    let camel = v.bytes().next().is_some_and(|c| c.is_ascii_lowercase())
        && v.bytes().any(|c| c.is_ascii_uppercase())
        && is_name(v);
    snake || camel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red(s: &str) -> String {
        redact(s).into_owned()
    }

    #[test]
    fn the_matcher_builds() {
        assert!(matcher().is_some());
    }

    #[test]
    fn rule_kinds_are_listed_in_kinds() {
        for rule in RULES {
            if let Some(kind) = rule.token_kind() {
                assert!(kinds().contains(&kind), "{kind}");
            }
        }
    }

    #[test]
    fn clean_text_is_borrowed_and_uncounted() {
        let text = "commit 3f786850e387550fdab836ed7e6dc881de23001b\nuse sk-learn; task-sk-1";
        let (out, n) = redact_counted(text);
        assert!(matches!(out, Cow::Borrowed(_)));
        assert_eq!(n, 0);
        assert_eq!(out, text);
    }

    #[test]
    fn assignment_keeps_its_key_and_replaces_the_value() {
        assert_eq!(
            red("password=hunter2"),
            "password=[REDACTED:password-assignment]"
        );
        assert_eq!(
            red(r#"{"client_secret": "q8Fz2kLmN0pR"}"#),
            r#"{"client_secret": "[REDACTED:secret-assignment]"}"#
        );
        assert_eq!(
            red("export API_TOKEN=tok3nV4lue99"),
            "export API_TOKEN=[REDACTED:token-assignment]"
        );
    }

    #[test]
    fn placeholders_and_code_survive() {
        for s in [
            "password=",
            "password=${PASSWORD}",
            "password=<your-password>",
            "password: ****",
            "password: string",
            "token = await getToken()",
            "password=self.password",
            "connect(password=password)",
            "\"max_tokens\": 4096",
            "\"input_tokens\": 12, \"token_type\": \"bearer\"",
            "Authorization: Bearer $TOKEN",
        ] {
            assert_eq!(redact_counted(s).1, 0, "{s}");
        }
    }

    #[test]
    fn url_keeps_scheme_and_host() {
        assert_eq!(
            red("postgres://app:S3cr3t-pw@db.internal:5432/app"),
            "postgres://[REDACTED:url-credentials]@db.internal:5432/app"
        );
        assert_eq!(
            red("redis://:pa55word@cache:6379"),
            "redis://[REDACTED:url-credentials]@cache:6379"
        );
    }

    #[test]
    fn authorization_keeps_header_and_scheme() {
        assert_eq!(
            red("Authorization: Basic dXNlcjpwYXNzd29yZA=="),
            "Authorization: Basic [REDACTED:authorization]"
        );
    }

    #[test]
    fn provider_kind_wins_over_the_key_holding_it() {
        let tok = format!("ghp_{}", "a1B2c3D4e5".repeat(4));
        assert_eq!(
            red(&format!("GITHUB_TOKEN={tok}")),
            "GITHUB_TOKEN=[REDACTED:github-token]"
        );
        assert_eq!(
            red(&format!("Authorization: token {tok}")),
            "Authorization: token [REDACTED:github-token]"
        );
    }

    #[test]
    fn private_key_block_goes_whole_even_unterminated_or_json_escaped() {
        let body = "MIIEpAIBAAKCAQEA7fakeKEYmaterialONLYforTESTS0123456789abcdef";
        let block = format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{body}\nAAAA==\n-----END RSA PRIVATE KEY-----"
        );
        assert_eq!(
            red(&format!("a\n{block}\nb")),
            "a\n[REDACTED:private-key]\nb"
        );
        assert_eq!(
            red(&format!("-----BEGIN PRIVATE KEY-----\n{body}\n\nThe end.")),
            "[REDACTED:private-key]\n\nThe end."
        );
        let json = format!("{{\"k\":\"-----BEGIN EC PRIVATE KEY-----\\n{body}\\n-----END EC PRIVATE KEY-----\\n\"}}");
        assert_eq!(red(&json), "{\"k\":\"[REDACTED:private-key]\\n\"}");
        assert_eq!(
            redact_counted("-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----").1,
            0
        );
    }

    /// Edges of the hand-read shapes: lengths, case, scheme fallback, the
    /// last `@` of a password, Unicode white space ending a run. Expected
    /// outputs are those of the regex implementation this replaced.
    #[test]
    fn hand_read_shapes_stop_where_their_patterns_do() {
        let key = "AKIAABCDEFGHIJKLMNOP";
        let ant = format!("sk-ant-abcdefghij01-{}", "Zq8".repeat(8));
        let hook = "hooks.slack.com/services/T0FAKE000/B0FAKE000/abcdEFGHijklMNOPqrstUVWX";
        let redacted = [
            (
                format!("id {key} end"),
                "id [REDACTED:aws-access-key-id] end".to_string(),
            ),
            (ant.clone(), "[REDACTED:anthropic-key]".into()),
            (
                "https://u:p@ss@host/x".into(),
                "https://[REDACTED:url-credentials]@host/x".into(),
            ),
            (
                "https://ü:pässwörd@höst".into(),
                "https://[REDACTED:url-credentials]@höst".into(),
            ),
            (
                "Authorization: Bearerabc123def456".into(),
                "Authorization: [REDACTED:authorization]".into(),
            ),
            (
                "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.".into(),
                "[REDACTED:jwt]".into(),
            ),
            (
                "curl -u me:pa\u{3000}x https://h".into(),
                "curl -u me:[REDACTED:password-assignment]\u{3000}x https://h".into(),
            ),
            (
                format!("https://HOOKS.SLACK.COM{}", &hook[15..]),
                "https://HOOKS.SLACK.COM/services/[REDACTED:slack-webhook]".into(),
            ),
            ("xoxb-123-a1b2c3d4".into(), "[REDACTED:slack-token]".into()),
            (
                "glrtr-a1b2c3d4e5f6g7h8i9j0".into(),
                "[REDACTED:gitlab-token]".into(),
            ),
        ];
        for (text, want) in redacted {
            assert_eq!(red(&text), want, "{text:?}");
        }
        for text in [
            format!("id {} end", &key[..19]),
            format!("id {key}Q end"),
            format!("id {key}_x end"),
            ant.replace("abcdefghij", "abcdefghijk"),
            "https://u:@host/x".into(),
            "https://u:pa\u{a0}ss@host/x".into(),
            "authorization=key ".into(),
            "xoxb-123-a1b2c3d".into(),
            format!("https://{}", hook.replace("services", "Services")),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text:?}");
        }
    }

    #[test]
    fn redaction_is_idempotent() {
        let text = "password=hunter2 https://u:p4ss@h.example AKIAFAKE0123456789AB";
        let once = red(text);
        assert_eq!(redact_counted(&once).1, 0, "{once}");
    }

    /// Random texts built from credential fragments, seeded: never a panic,
    /// and a second pass never finds anything more.
    #[test]
    fn fragment_soup_is_redacted_idempotently() {
        #[rustfmt::skip]
        let frags = [
            "password", "PASSWORD", "=", ":", " ", "\"", "'", "`", "\\", "\\n", "\n",
            "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
            "MIIEpAIBAAKCAQEA7fakeKEYmaterial0123", "://", "@", "host", "p4ss", "Authorization",
            "Bearer ", "eyJhbGciOi", ".", "eyJzdWIi", "ghp_", "AKIA", "0123456789ABCDEF", "sk-",
            "sk-ant-api03-", "xoxb-", "123-", "é", "🙂", "token", "secret", "--", "-u", "curl",
            "aws_secret_access_key", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", "${X}", "<x>", "(",
            ")", "{", "[", "]", "=>", "machine ", "login ", "Pass", "_key", "?", "&",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let n = next() % 40;
            let text: String = (0..n)
                .map(|_| frags[(next() % frags.len() as u64) as usize])
                .collect();
            let once = red(&text);
            let (twice, more) = redact_counted(&once);
            assert_eq!(
                more, 0,
                "second pass changed:\n{text:?}\n{once:?}\n{twice:?}"
            );
        }
    }

    #[test]
    fn multibyte_text_around_triggers_does_not_panic() {
        let text = "é:ü//ñpassword=ß€ token:✓ -----BEGIN 🙂 sk-é AKIAé";
        let _ = redact_counted(text);
        for i in 0..text.len() {
            if let Some(t) = text.get(i..) {
                let _ = redact_counted(t);
            }
        }
    }
}
