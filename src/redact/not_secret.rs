//! Values that stand where a credential would and are not one: placeholders, names,
//! references and code (see "Choices" in [`crate::redact`]; the corpus tests pin them).

use super::shape::{any_of, is_mask};

/// Values that stand for a secret without being one.
pub(crate) fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    let Some(first) = v.chars().next() else {
        return true;
    };
    // `!Ref DbPassword`, `!Sub …`, `!vault |`, `!!python/…`: a YAML tag; the value is
    // elsewhere.
    if first == '!'
        && v.trim_start_matches('!').chars().next().is_some_and(|c| c.is_ascii_alphabetic())
    {
        return true;
    }
    // `@file` (curl, httpie, gh read the value from a file), `@e3` refs; not a password
    // that begins with `@` (`"@N&Ibl3!"`): a file's or a ref's name holds no `&`, `!`, `#`.
    let file_ref = first == '@' && !any_of(v, b"&!#%^*+=");
    if file_ref
        || matches!(first, '$' | '%' | '{' | '<' | '[' | '*')
        || v.starts_with("#{")
        || v.starts_with("--")
    {
        return true;
    }
    // `"\r\n\b\t\""`: escapes alone.
    if !v.chars().any(char::is_alphanumeric) || is_escapes(v) {
        return true;
    }
    // `NO PASSWORD*****`, `ab****yz`: a mask in part of the value.
    if v.chars()
        .all(|c| matches!(c, 'x' | 'X' | '*' | '.' | '-' | '_' | '•' | '…' | '#'))
        || v.contains("****")
    {
        return true;
    }
    // `'#dddddd'`: a colour (Pygments' styles map `Token` to them).
    if let Some(hex) = v.strip_prefix('#') {
        if matches!(hex.len(), 3 | 4 | 6 | 8) && hex.bytes().all(|c| c.is_ascii_hexdigit()) {
            return true;
        }
    }
    // A path (`PWD=/work/main`, `token='path/to/key.json'`), not a secret.
    let file = v.rsplit_once('.').is_some_and(|(path, ext)| {
        path.contains('/')
            && (2..=4).contains(&ext.len())
            && ext.bytes().all(|c| c.is_ascii_lowercase())
            && path
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"/-_.".contains(&c))
    });
    if file || ["/", "~/", "./", "../"].iter().any(|p| v.starts_with(p)) {
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
    // `_SSH_PRIVATE_KEY_TYPES`: a private constant too.
    let unprefixed = v.trim_start_matches('_');
    let screaming = v.contains('_')
        && v.bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        && unprefixed.bytes().next().is_some_and(|c| c.is_ascii_uppercase());
    if screaming {
        return true;
    }
    // `__DB_PASSWORD__`, `@DB_PASSWORD@`: a template's slot, filled at deploy time.
    if v.len() > 4
        && v.starts_with("__")
        && v.ends_with("__")
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
    {
        return true;
    }
    // `"sha256:" + digest`, `"Basic " + b64`: a prefix the code completes.
    if v.ends_with(':') && v.bytes().filter(|c| *c == b':').count() == 1 {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    // `ghp_...`, and `a...3`, `sk-…wxyz`: what a tool prints of a credential it elides.
    if v.contains("...") || v.contains('…') {
        return true;
    }
    // `hf_HubCITokenXXXXXXXXXXXXXXXXXXXX`, `AKIA****************`: a run of filler where the
    // random part would be.
    if has_filler_run(v) {
        return true;
    }
    #[rustfmt::skip]
    const INFIXES: &[&str] =
        &["your-", "your_", "-here", "_here", "example", "placeholder", "changeme", "changeit",
          "sample", "dummy", "goes here", "encoded"];
    if INFIXES.iter().any(|i| lower.contains(i)) {
        return true;
    }
    #[rustfmt::skip]
    const WORDS: &[&str] = &[
        "password", "passwd", "pass", "pwd", "passphrase", "secret", "token", "apikey", "api_key",
        "api-key", "key", "changeme", "change_me", "change-me", "changeit", "example", "sample",
        "dummy", "fake", "bogus", "test", "null", "nil", "none", "true", "false", "undefined",
        "redacted", "quux", "hidden", "masked", "placeholder", "string", "str", "number", "int", "integer", "bool",
        "boolean", "any", "unknown", "bytes", "object", "optional", "required", "await", "new",
        "this", "self", "value", "env", "todo", "tbd", "n/a", "secretstr", "secretstring",
        "credential", "credentials", "auth", "bearer", "basic", "usize", "isize", "u8", "u16",
        "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32", "f64", "char", "uint",
        "long", "float", "double", "void", "vec", "option", "result", "box", "disabled",
        "enabled", "enable", "disable", "empty", "unset", "notset", "unused",
        // Authentication methods (pg_hba.conf's, SASL's, HTTP's): what `auth:` names, not a
        // credential.
        "oauth", "oauth1", "oauth2", "xoauth2", "digest", "ntlm", "kerberos", "negotiate",
        "gssapi", "gss", "sspi", "scram-sha-256", "scram-sha-1", "md5", "cram-md5", "trust",
        "peer", "ident", "hmac", "jwt", "saml", "oidc", "sasl", "plain", "login", "xoauth",
        "anonymous", "external", "digest-md5", "tls", "ssl", "starttls", "whatever", "default", "yes", "off", "text", "arg", "random", "shift", "sha1", "sha256",
        "sha512", "base64", "hex", "utf8", "utf-8", "ascii", "binary",
    ];
    #[rustfmt::skip]
    const PREFIXES: &[&str] = &[
        "your", "my_", "my-", "insert", "replace", "enter_", "enter-", "process.env", "os.environ",
        "env.", "secrets.", "vault:", "op://", "enc[", "urn:",
    ];
    // `token = 1*tchar`: an ABNF rule (RFC 9110's grammar), not a value.
    let abnf = v.trim_start_matches(|c: char| c.is_ascii_digit());
    if abnf.len() < v.len()
        && abnf.strip_prefix('*').is_some_and(|r| {
            !r.is_empty() && r.bytes().all(|c| c.is_ascii_alphabetic() || c == b'-')
        })
    {
        return true;
    }
    // `KEY=VALUE.`, `:param token: REQUIRED.`: prose's punctuation is not the value's.
    let lower = lower.trim_end_matches(['.', ',', ';', '\u{201d}']);
    // `?string`, `String=`, `string[]`: a schema's or JSDoc's type, optional or a list.
    let typed = lower
        .trim_start_matches('?')
        .trim_end_matches(['=', '?'])
        .trim_end_matches("[]");
    // `anonymous:$FROM_EMAIL`, `…root:foo`: a user and a filler.
    let user_and_filler = v
        .rsplit_once(':')
        .is_some_and(|(user, filler)| {
            !user.is_empty() && !filler.starts_with('/') && is_placeholder(filler)
        });
    // `myPassword`, `myOAuthAccessToken`, `mypassword`: a filler written as a name.
    let mine = v.strip_prefix("my").is_some_and(|rest| {
        (rest.starts_with(|c: char| c.is_ascii_uppercase())
            && rest.bytes().all(|c| c.is_ascii_alphabetic()))
            || ["password", "passwd", "pass", "secret", "token", "key"]
                .iter()
                .any(|w| rest.eq_ignore_ascii_case(w))
    });
    // `value2`, `key4 = value4`, `foo1`: a numbered filler; `foobarbaz`: the fillers glued.
    let numbered = lower.trim_end_matches(|c: char| c.is_ascii_digit());
    const FILLERS: &[&str] = &["foo", "bar", "baz", "qux"];
    let mut glued = numbered;
    while let Some(rest) = FILLERS.iter().find_map(|f| glued.strip_prefix(f)) {
        glued = rest;
    }
    let filler = (glued.is_empty() && !numbered.is_empty())
        || (numbered.len() < lower.len() && ["value", "val"].contains(&numbered));
    filler
        || user_and_filler
        || mine
        || WORDS.contains(&lower)
        || WORDS.contains(&typed)
        || PREFIXES.iter().any(|p| lower.starts_with(p))
}

/// Backslash escapes and nothing else: `\r\n\t\"`.
fn is_escapes(v: &str) -> bool {
    let mut chars = v.chars();
    let mut any = false;
    while let Some(c) = chars.next() {
        if c != '\\' || chars.next().is_none() {
            return false;
        }
        any = true;
    }
    any
}

/// Eight or more of one filler character in a row (`x`, `X`, `*`, `#`, `0`, `.`), where the
/// random part would be: not an id's padding of zeros inside a token whose random part
/// follows it (Backblaze's `4_0022623512fc8f80000000001_…_acct_tH7VW03boebOXayIc43…`).
pub(crate) fn has_filler_run(v: &str) -> bool {
    let mut run = 0;
    let mut last = 0u8;
    for (i, c) in v.bytes().enumerate() {
        run = if c == last { run + 1 } else { 1 };
        last = c;
        if run >= 8 && b"xX*#0.".contains(&c) {
            let tail = v.as_bytes().get(i..).unwrap_or(&[]);
            let tail = tail.get(tail.iter().take_while(|d| **d == c).count()..).unwrap_or(&[]);
            let random_after = tail.len() > 24
                && tail.iter().any(u8::is_ascii_uppercase)
                && tail.iter().any(u8::is_ascii_lowercase)
                && tail.iter().any(|d| d.is_ascii_digit() && *d != b'0');
            return !random_after;
        }
    }
    false
}

/// Words joined by `-`, `_` or `.`, each lowercase, Capitalised, camelCase
/// humps or a short ACRONYM, no digits: `static_analysis`, `apiKeyHelper`,
/// `Get-AzAccessToken`. Random tokens almost never take this shape.
pub(crate) fn is_name(v: &str) -> bool {
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
pub(crate) fn is_reference(v: &str) -> bool {
    match v.split_once(':') {
        Some((scheme, rest)) => {
            !scheme.is_empty()
                && (scheme.bytes().all(|c| c.is_ascii_lowercase())
                    || scheme.bytes().all(|c| c.is_ascii_uppercase()))
                && (rest.starts_with('/')
                    || is_name(rest)
                    || is_name(rest.rsplit_once('.').map_or(rest, |(n, _)| n)))
        }
        None => false,
    }
}

/// Operators that no credential contains but code does: `a?.b`, `x ?? y`,
/// `a === b`, `${x}`, `i++`, `n=null`, `c ? d : e`, `a.b+c.d`.
pub(crate) fn is_expression(v: &str) -> bool {
    const MARKERS: &[&str] = &["?.", "??", "==", "!=", "=>", "${", "&&", "||", "++"];
    // A long base64 run (`…k+/2Fq++x==`, an account key) holds `++` and
    // `==` by chance; code this long has a name or a space in it.
    if is_base64_blob(v) {
        return false;
    }
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

/// 40 or more base64 characters (and padding), with digits and both cases.
fn is_base64_blob(v: &str) -> bool {
    let body = v.trim_end_matches('=');
    body.len() >= 40
        && v.len() - body.len() <= 2
        && body
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
        && body.bytes().any(|c| c.is_ascii_digit())
        && body.bytes().any(|c| c.is_ascii_uppercase())
        && body.bytes().any(|c| c.is_ascii_lowercase())
}

/// Unquoted values that read as code rather than as a literal: a call or
/// generic (`getpass(`, `Token![`, `Option<`), a path (`ec::Seed`), a dotted
/// name (`self.password`, `this.#key`), a number (`0x04`), a snake_case name
/// (`__u32`, `db_password`) or a camelCase one (`userPassword`).
pub(crate) fn looks_like_code(v: &str, next: Option<u8>) -> bool {
    // `vec!`, `todo!`: a macro's name (letters), not `netapp1!`, a password's last character.
    let mut parts = v.rsplitn(2, '!');
    let macro_name = parts.next() == Some("")
        && parts
            .next()
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_alphabetic() || c == b'_'));
    if next.is_some_and(|c| b"([{<".contains(&c)) || v.contains("::") || macro_name {
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
    // `.pass`, `.results`: a jq path.
    if let Some(path) = v.strip_prefix('.') {
        return !path.is_empty() && path.split('.').all(ident);
    }
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

/// `obj.aFunctionCall()`, `getpass()`, `env("DB_PASSWORD")`: a call written in a string.
pub(crate) fn is_call_expression(v: &str) -> bool {
    let Some(open) = v.find('(') else {
        return false;
    };
    let callee = v.get(..open).unwrap_or("");
    !callee.is_empty()
        && v.ends_with(')')
        && callee.split('.').all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
}

/// A hex digest: 32, 40, 56, 64, 96 or 128 hex digits (MD5, SHA-1, SHA-2).
pub(crate) fn is_hex_digest(v: &str) -> bool {
    [32, 40, 56, 64, 96, 128].contains(&v.len()) && v.bytes().all(|c| c.is_ascii_hexdigit())
}

/// A type's name: `Uint8Array`, `Float64Array`, `SecretStr`, `HTTPClient`, `Int32`. Starts
/// upper-case; letters in runs of words (no lone lower-case letter between capitals or
/// digits), digits only at the end of a word. `Passw0rd` and random tokens are none.
pub(crate) fn is_type_name(v: &str) -> bool {
    let b = v.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_uppercase)
        || b.len() > 40
        || !b.iter().all(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    let mut lower_run = 0;
    for (i, c) in b.iter().enumerate() {
        if c.is_ascii_lowercase() {
            lower_run += 1;
            continue;
        }
        if lower_run == 1 {
            return false;
        }
        lower_run = 0;
        // A digit ends a word: what follows is another digit, a capital or the end.
        if c.is_ascii_digit() && b.get(i + 1).is_some_and(|n| n.is_ascii_lowercase()) {
            return false;
        }
    }
    lower_run != 1 && b.iter().filter(|c| c.is_ascii_digit()).count() <= 3
}

/// Does the name that holds the key word at `pos` follow a declaration's keyword on its
/// line (`pub`, `const`, `let`, `static`, `var`, `val`, `readonly`)?
pub(crate) fn declaration(text: &str, pos: usize) -> bool {
    let head = text.get(pos.saturating_sub(256)..pos).unwrap_or("");
    let line = head.rsplit('\n').next().unwrap_or(head);
    let name_len = line
        .bytes()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    let head = line.get(..line.len() - name_len).unwrap_or("");
    let word = head.trim_end().rsplit([' ', '\t', '(']).next().unwrap_or("");
    head.ends_with([' ', '\t'])
        && [
            "pub",
            "pub(crate)",
            "const",
            "let",
            "static",
            "var",
            "val",
            "readonly",
            "mut",
        ]
        .contains(&word)
}

/// A name of words whose digits close a capitalised word or a camelCase one, or stand alone
/// between dots: `Ipv6CidrAssociations`, `oauth2Client`, `mapBulkV2Results`, `x-amz-…-MD5`,
/// `markup.heading.1`, `support.function.C99.c`. Two words of three letters at least. Test
/// values (`sk_test_abc123`, `token_1`) and random letters and digits (`abc123def456`, words
/// of one letter) are none.
pub(crate) fn is_identifier_words(v: &str) -> bool {
    let (mut long, mut short, mut words, mut unspoken) = (0, 0, 0, 0);
    let mut rest = v.trim_start_matches('_');
    while !rest.is_empty() {
        let part_len = rest.bytes().position(|c| b"-_.$".contains(&c)).unwrap_or(rest.len());
        let part = rest.get(..part_len).unwrap_or("");
        let dotted = rest.as_bytes().get(part_len) == Some(&b'.')
            || (v.len() > rest.len()
                && matches!(
                    v.as_bytes().get(v.len() - rest.len() - 1),
                    Some(b'.' | b'$')
                ));
        rest = rest.get(part_len + 1..).unwrap_or("");
        let b = part.as_bytes();
        if b.is_empty() {
            return false;
        }
        let run = |from: usize, f: fn(&u8) -> bool| {
            b.get(from..)
                .map_or(0, |t| t.iter().take_while(|c| f(c)).count())
        };
        let (mut i, mut acronyms, mut after_digits) = (0, 0, false);
        while i < b.len() {
            let start = i;
            let mut upper = run(i, u8::is_ascii_uppercase);
            let mut lower = run(i + upper, u8::is_ascii_lowercase);
            // `HTTPClient`: the last capital of a run opens the next word.
            if upper > 1 && lower > 0 {
                upper -= 1;
                lower = 0;
            }
            let digits = run(i + upper + lower, u8::is_ascii_digit);
            i += upper + lower + digits;
            let letters = upper + lower;
            let whole = start == 0 && i == b.len();
            let camel_next = b.get(i).is_some_and(u8::is_ascii_uppercase);
            let word = upper <= 5
                && match (letters, digits) {
                    (0, d) => whole && dotted && d <= 3,
                    (1, 0) => whole,
                    (_, 0) => true,
                    (_, d) => d <= 3 && (upper > 0 || camel_next),
                };
            // One run of capitals a part (`SSECustomerKey`); random text has several.
            acronyms += usize::from(upper >= 2 && lower == 0);
            // `abc123def456`: a lower-case word after digits.
            if i == start || !word || acronyms > 1 || (after_digits && upper == 0) {
                return false;
            }
            after_digits = digits > 0;
            let vowel = b
                .get(start..start + letters)
                .is_some_and(|w| w.iter().any(|c| b"aeiouyAEIOUY".contains(c)));
            unspoken += usize::from(letters >= 3 && !vowel);
            long += usize::from(letters >= 3);
            short += usize::from(letters <= 2 && !whole);
            words += 1;
        }
    }
    // Random text breaks into many words of one or two letters (`Yi0`, `tn`, `C8`).
    // and words no one could say (`prph`, `Vbjv`). A name of letters alone is `is_name`'s;
    // these carry one or two numbers.
    let numbers = v
        .as_bytes()
        .windows(2)
        .filter(|p| matches!(p, [a, b] if !a.is_ascii_digit() && b.is_ascii_digit()))
        .count()
        + usize::from(v.starts_with(|c: char| c.is_ascii_digit()));
    long >= 2 && short * 3 <= words && unspoken <= 1 && (1..=2).contains(&numbers)
}

/// A constant's name or a type where no secret is written: `REMOVED`, `USERNAME`, `CARD32`,
/// `BASE64` (capitals, then at most three digits), and lists of capitals and numbers
/// (`PRIVATE-KEY-BASE-64-DATA`, `HOSTNAME:PORT:USERNAME:PASSWORD`, OpenSSL's cipher list
/// `-PSK:HIGH`). `one_word` admits the single word, which a password may be.
pub(crate) fn is_constant(v: &str, one_word: bool) -> bool {
    let letters = v.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = v.len() - letters;
    // `ABCDEFGHIJ`: the alphabet is a documentation's example token, not a constant.
    let alphabet = v
        .as_bytes()
        .windows(2)
        .take(4)
        .all(|p| matches!(p, [a, b] if a.wrapping_add(1) == *b));
    if one_word
        && (3..=12).contains(&letters)
        && digits <= 3
        && !alphabet
        && v.bytes().skip(letters).all(|c| c.is_ascii_digit())
    {
        return true;
    }
    // Each part capitals closed by at most three digits (`RC4`, `MD5`), or a small number;
    // a licence key's parts mix them (`3OFV9-NKT0I`).
    let (mut parts, mut caps_word) = (0, false);
    for p in v.split(['-', '_', ':', '|']) {
        let p = p.trim_start_matches(['!', '+']);
        let caps = p.bytes().take_while(u8::is_ascii_uppercase).count();
        let digits = p.len() - caps;
        let ok = (caps > 0 && digits <= 3 && p.bytes().skip(caps).all(|c| c.is_ascii_digit()))
            || (caps == 0 && digits <= 2 && p.bytes().all(|c| c.is_ascii_digit()));
        if !ok {
            return false;
        }
        parts += usize::from(!p.is_empty());
        caps_word |= caps >= 3 && digits == 0;
    }
    parts >= 2 && caps_word
}

/// A version or a version range: `1.302103`, `^1.2.1`, `v2.0`.
pub(crate) fn is_version(v: &str) -> bool {
    let core = v.trim_start_matches(['^', '~', '=', '>', '<', 'v']);
    core.contains('.')
        && core
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
}

/// Does a password name what it stands for (`mypassword`, `userpass`, `secret_string`)? A
/// manual's or a sample's placeholder, not a password. Broader than `naming`'s judgement:
/// only for one-word values a line has already vouched for (directives, client flags,
/// assertions).
pub(crate) fn names_itself(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    ["password", "passwd", "passphrase", "secret"]
        .iter()
        .any(|w| lower.contains(w))
        || lower.ends_with("pass")
}

/// A name where a credential stands: letters, `-` and `_` holding the word for what they
/// stand for (`Bearer fake-token`, `passwd-on-proxy`, `application_key`).
pub(crate) fn names_a_password(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    v.bytes()
        .all(|c| c.is_ascii_alphabetic() || c == b'-' || c == b'_')
        && ["pass", "pwd", "secret", "token", "key"]
            .iter()
            .any(|w| lower.contains(w))
}
