//! Credential redaction: every credential in a text becomes `[REDACTED:<kind>]` before the
//! text reaches the history file, `log.jsonl`, the verbatim block or the model (the hooks and
//! the recall module call [`redact`] on every line they keep or hand over).
//!
//! # What is redacted
//!
//! * Provider credentials, by their shape alone wherever they stand: every row of the
//!   provider table (`formats`, 282 rows: AWS, GitHub, GitLab, Slack, Stripe, Square, Shopify,
//!   Telegram, age, Grafana, Vercel, Anthropic, OpenAI and the rest, with GitHub's
//!   and npm's checksums verified; Bitcoin, Stellar and XRP Ledger keys by their checksums,
//!   `checksum`) and JSON Web Tokens; the table's context rows take a
//!   value of a provider's shape after a key naming the provider (`TWILIO_AUTH_TOKEN=…`).
//! * Private key blocks (PEM, MultiversX's `… for erd1…`, OpenSSH, PGP) and OpenVPN static
//!   keys, whole; PuTTY key files' private lines; JSON Web Keys' private and symmetric
//!   members (`jwk`: `"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`, `"k"`, and `"key"` beside
//!   `"kty": "oct"`).
//! * Values named by their key (`generic`): `password` / `secret` / `token` / `api_key` /
//!   `credentials` / `<what>_KEY` and the like, in every form `pair` reads — shell and
//!   `.env` lines, JSON, YAML (also the value on the line after its key), INI and TOML, code,
//!   PHP arrays and `define`, a key a call names after a section or module (`config.set("s",
//!   "password", "…")`, Kamailio's `modparam`), Python's `b"…"` literals, the default of
//!   `getenv`/`get` and of `process.env.X ||` (`env_default`), a call's literal
//!   (`setPassword("…")`, `HTTPBasicAuth("u", "…")`), `password == "…"`, XML elements
//!   (`<password>`, `<admin-password>`), .NET's `<add key=… value=…/>`, `.netrc`, `--password
//!   x`, `-storepass x`, `aws configure set <name> x` — and `key` alone when its value reads
//!   as random (3.5 bits a character, as gitleaks' generic rule), or 48 or 64 hex digits, a
//!   192- or 256-bit key (`key_material`; not a public point as SEC 1 writes it, `04…`), or
//!   32 opening a test vector's entry (`{ key: '…',` alone on its line).
//! * Passwords in services' own syntaxes (`directive`): a directive alone on its line
//!   (`requirepass x`, `rootpw x`, `bindpw x`, `auth_pass x`, `Password "x"`, BIND's `secret
//!   "x";`), SQL's `PASSWORD '…'` and `IDENTIFIED BY '…'`, strongSwan's `: PSK "…"`,
//!   fetchmail's `password "…"`, HAProxy's `stats auth u:x` and `insecure-password x`,
//!   Dovecot's `{PLAIN}x`, `.pgpass` lines, `chap-secrets` lines; a one-word password where
//!   the line says it is one (after its block's `login`/`user` line, or after a setting's own
//!   name: `mqtt_broker_password Crocus`), a TSIG key's bare `secret <base64>;`; a block
//!   grammar's `passwd x;` statement and an INI password after its section's user (`block`).
//! * A password in a positional field of a service's line or command (`service_field`: NUT's
//!   `MONITOR`, `SQLConnectInfo`, `createUser`, Cisco's `password 7 <hex>`, `/msg NickServ
//!   IDENTIFY`, `rabbitmqctl add_user`, a transcript's `> PASS`), a reversible encoding by
//!   its prefix (`obfuscated`: `OBF:`, `$9$`, `{xor}`).
//! * A credential a test asserts (`assertion`): `assertEqual(creds.password, "…")`.
//! * Secrets named by their use, read by their standard's format (`otp_and_pkce`): a
//!   one-time password's base32 seed handed to its generator (`TOTP.generate("…")`) or its
//!   secret type (`OTPAuth.Secret.fromBase32("…")`) and an OAuth PKCE code verifier
//!   (`PkceCodeVerifier::new("…")`, `code_verifier=…`).
//! * Raw private keys in code (`raw_key`): a private key's documented size in hex under a
//!   name that says private (`sk`, `alice_priv`, `privateKeyHex`, `seed`, `OPENSSL_SK`,
//!   `SECRET_KEY: [u8; 32] =`) or handed to a key's type (`"…".parse::<LocalWallet>()`,
//!   `SigningKey::from_bytes(&hex!("…"))`, `Keypair::from_protobuf_encoding`, `Key::<64>::
//!   try_from`), in padded base64 of 32 or 64 bytes, a compressed key's `…01`, never a public
//!   key's, a digest's or a nonce's; and a BIP-39 recovery phrase under a mnemonic's name
//!   (`seed_phrase`: `.mnemonic("abstract vacuum … puzzle")`). Also its bytes listed
//!   (`[0xa5, …]`), a byte string of its declared size, RFC 6238's test seeds, a private
//!   integer in decimal (`key_integer`: `"d": int("…" "…")`), a key's hex a test asserts
//!   (`asserted_key`), and a CURVE key's Z85 beside its hex (`z85`); any coin's WIF under
//!   `wif`, a secret exponent in decimal; a COSE key's `k` and `d` (`cose_key`), a key an
//!   account's constructor takes (`account_key`), a BIP-39 test vector's row (`bip39_vector`).
//! * A private key's DER in base64 without PEM armour, read alone (`der_key`: PKCS#8, SEC 1,
//!   PKCS#1 by their fixed fields); an extended private key split over source lines
//!   (`continued_key`); a keystore's password handed to its decrypting call (`keystore`).
//! * Key files read by their documented layouts: minisign's and signify's unencrypted secret
//!   keys and Tor's onion and client keys (rows of `formats`), a PEM private key in base64
//!   (`encoded_pem`: kubeconfig's `client-key-data`), a DNSSEC key file's private fields and
//!   a TSIG key's secret (`dns_key`), a Tink keyset's secret key data (`tink_keyset`), a
//!   Docker `config.json` in base64 holding a credential (`docker_config`), Aptos' AIP-80
//!   private keys (a row of `formats`), fwknop's `KEY_BASE64` and `HMAC_KEY_BASE64`
//!   (`fwknop`), Duo's `skey`.
//! * `Authorization:` and `Bearer` credentials, `curl -u user:pass`, `mysql -p<password>`,
//!   `sshpass -p`, `docker login -p` (and `az`/`oc`/`cf login`), `mongosh -p`, `redis-cli
//!   -a`, `ldapsearch -w`, `sqlcmd -P`, `ipmitool -P`, `zip -P`, `7z -px`, `smbclient -U
//!   u%x`, `htpasswd -b`, `net user u x`, `echo x | … --password-stdin`, and connection
//!   strings: `scheme://user:pass@host`, Go's `user:pass@tcp(host)`, Oracle's
//!   `user/pass@host`, `Password=` / `Pwd=` in ADO.NET and ODBC strings.
//!
//! Only the secret part is replaced: an assignment keeps its key, a URL its scheme and host,
//! a header its name and scheme word, a webhook its host and path name. When the value of an
//! assignment or header is itself a provider token, the provider's kind wins
//! (`GITHUB_TOKEN=[REDACTED:github-token]`).
//!
//! # What never is
//!
//! Values that stand where a secret would and are none (`not_secret`; the corpus tests pin
//! each): empty values, references (`$X`, `${X}`, `$(cmd)`, `!Ref`, `env(…)`, `@file`,
//! `secrets.X`), placeholders (`<your-password>`, `{{var}}`, `changeme`, `your_…`,
//! `…_here`, `REPLACE_WITH_…`), masks and fillers (`****`, `xxxx`, `sk_test_XXXX`, Slack's
//! `T00000000/B00000000/XXXX…`), elisions (`ghp_...`), code (`self.password`,
//! `obj.aFunctionCall()`, `a?.b`, snake_case and camelCase names, `getpass(`), type
//! annotations (`password: string`, `privateKey: Uint8Array;`), hashes named as hashes
//! (`"hashed_secret": "<sha1>"`), ids and positions named `key` (`sort_key`, UUIDs), API
//! paging and idempotency handles (`NextToken`, `nextPageToken`, `--starting-token`), a
//! value equal to its key, a shell `=` with nothing after it (`--password= https://…`),
//! switches (`--ask-password`), port mappings (`-p3306:3306`), user and group ids
//! (`-u 1000:1000`), test statuses (`--- PASS: TestX`, jest's `PASS src/a.test.js`), hashes in
//! crypt(3)'s and Django's formats, declarations whose value is a type (`pub const
//! X_PASSWORD: T = 6`), authentication methods (`auth: oauth2`), template slots
//! (`__DB_PASSWORD__`), colours, numbered fillers (`value2`), a URL password of one or two
//! letters or a placeholder percent-encoded (`pass%20word`), what a tool printed elided
//! (`p...9`), a hashed password as Django stores it under `password` (`stored_hash`), values
//! that say they are stand-ins (`testsecret`, `sk-test`, `usertoken123`, `MY NETWORK
//! PASSWORD`, a `DUMMY_` name's value, `auth_change_test`, `mysecret2`, `stand_in`) or the
//! wrong one (`not-treq`, `http://wrong:info@…`), a manual's key block cut by `..`, a mask of
//! one letter (`yyyyy`) and an encoding's alphabet (`filler`), a docstring's field list
//! (`:param api_key: …`), an instruction (`put your password here`) and `Bearer token` as
//! words (`prose`), a value spelling its key's name (`key_password="keyfile_password"`) or
//! its key's word after whose it is (`"password": "airplay_password"`), an Ethereum address
//! (`0x` and 40 hex digits, not under a secret's name: hCaptcha's secret has that shape), a
//! URL's or a query's user and password written as a template's slots (`username:encrypted-
//! password@`, `slot`), an npm auth setting's name (`':_authToken'`) and Casper's URef
//! (`uref-…-007`, `reference`); an IV, a wrapped key, a COSE key's `x`; an ARN, an SSH public
//! key or its algorithm's name before it, a digest labelled with its algorithm
//! (`sha256:<hex>`, `sha384-<base64>`, `h1:…`), Stripe's publishable key and an Actions cache
//! key (`public_form`); Werkzeug's and PostgreSQL's stored passwords (`stored_hash`).
//!
//! # One pass, no regex engine
//!
//! The core ships as WebAssembly with a size budget, and a regex engine would be most of it;
//! the shapes are simple enough to read by hand, and the provider formats are data. The
//! single pass is a byte loop: a table indexed by each pair of adjacent bytes says whether a
//! trigger may start there (a rule's leading literal, a provider prefix, a context word).
//! Only there do that trigger's readers run, anchored at that byte, in priority order; each
//! stops as soon as its shape cannot match. After a match the scan resumes past it: no rule
//! ever rescans the text, and the cost is linear in the text. The replacement holds no quote
//! or backslash, so JSON stays valid, and a second pass over redacted text changes nothing.
//! Never panics: slices are taken with `get`, and if the trigger table could not be built (a
//! unit test proves it is) the text is returned unchanged.
//!
//! # Parts
//!
//! Vocabulary (leaves, importing nothing of their neighbours): `hit` (what a rule reports,
//! where it may start), `format` (how a provider format is written as data), `shape` (the
//! byte readers), `entropy`, `checksum` (the checksums credential encodings carry). Data: `formats` (the provider table). Logic: `scan` (the one
//! pass) runs `rules` (the rules read by hand, one match) and `tokens` (the one engine of the
//! table); the rules are `private_key`, `jwk`, `headers`, `urls`, `command_line`, `directive`
//! (services' own syntaxes), `assertion` (tests' asserted credentials), `otp_and_pkce`
//! (one-time password seeds and PKCE verifiers), `raw_key` (private keys' hex, with
//! `seed_phrase`'s recovery phrases and `key_integer`'s integers; `assertion` asks
//! `asserted_key`), `cose_key`, `account_key`, `bip39_vector`, `der_key`, `continued_key`,
//! `keystore` and `generic` (values named by their key), which reads with `pair` (the
//! key-value grammar, with `directive`'s line tests and `block`'s statements and sections)
//! and judges with `key_material` (what `key` alone may hold), `not_secret` (the value alone),
//! `naming` (a value that names what it stands for: `some_password`), `stored_hash` (a
//! password's stored form), `stand_in` (a value saying it is a test's or a dummy), `filler`
//! (masks and alphabets as patterns), `prose` (words where a value stands), `slot` (a
//! template's user and password), `reference` (a setting's name, an address), `public_form`
//! (formats whose specification says they are public: ARNs, SSH public keys, labelled
//! digests) and `lookalike` (the value with what stands around it), and extends a hit over
//! its key's Z85 line (`z85`); `roff` reads a man page's quotes (`\*(Aq`) for `pair`.

mod account_key;
mod acme_challenge;
mod asserted_key;
mod assertion;
mod bip39_vector;
mod block;
mod checksum;
mod command_line;
mod continued_key;
mod cose_key;
mod declared_value;
mod der_key;
mod directive;
mod dns_key;
mod docker_config;
mod encoded_pem;
mod entropy;
mod env_default;
mod filler;
mod format;
mod formats;
mod fwknop;
mod generic;
mod headers;
mod hit;
mod jose_header;
mod jwk;
mod keystore;
mod key_integer;
mod key_material;
mod lookalike;
mod naming;
mod not_secret;
mod obfuscated;
mod otp_and_pkce;
mod pair;
mod private_key;
mod prose;
mod public_form;
mod raw_key;
mod reference;
mod roff;
mod rules;
mod scan;
mod seed_phrase;
mod service_field;
mod shape;
mod slot;
mod stand_in;
mod stored_hash;
mod tink_keyset;
mod tokens;
mod urls;
mod z85;

use std::borrow::Cow;
use std::sync::OnceLock;

use scan::matcher;

/// Kinds written by the rules read by hand (the provider table's rows name their own).
const RULE_KINDS: &[&str] = &[
    "private-key",
    "slack-webhook",
    "authorization",
    "url-credentials",
    "password-assignment",
    "secret-assignment",
    "token-assignment",
    "tink-key",
];

/// Every kind that can appear in `[REDACTED:<kind>]`, for callers that summarise or test.
pub fn kinds() -> &'static [&'static str] {
    static KINDS: OnceLock<Vec<&'static str>> = OnceLock::new();
    KINDS.get_or_init(|| {
        let mut all: Vec<&'static str> = RULE_KINDS.to_vec();
        for format in formats::formats() {
            if !all.contains(&format.kind) {
                all.push(format.kind);
            }
        }
        all
    })
}

/// The kinds of the rules read by hand, each of which the co-developed corpus exercises
/// (the provider table's are exercised by `tests/fixtures/secrets/formats.txt`).
pub fn rule_kinds() -> &'static [&'static str] {
    RULE_KINDS
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

/// One credential `redact` replaces: `text[start..end]` becomes
/// `[REDACTED:<kind>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redaction {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

/// Where `redact` would replace what, in text order: for reports that show
/// each redaction in its context (a person judging whether it was a secret).
pub fn redactions(text: &str) -> Vec<Redaction> {
    let mut found = Vec::new();
    if let Some(m) = matcher() {
        m.each_hit(text, |hit| {
            found.push(Redaction {
                start: hit.secret_start,
                end: hit.secret_end,
                kind: hit.kind,
            });
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red(s: &str) -> String {
        redact(s).into_owned()
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
    fn redactions_are_the_spans_redact_replaces() {
        let text = "a password=hunter2 b https://u:p4ss@h.example c AKIAFAKE0123456789AB";
        let spans = redactions(text);
        assert_eq!(spans.len(), redact_counted(text).1);
        let mut rebuilt = String::new();
        let mut at = 0;
        for r in &spans {
            rebuilt.push_str(&text[at..r.start]);
            rebuilt.push_str(&format!("[REDACTED:{}]", r.kind));
            at = r.end;
        }
        rebuilt.push_str(&text[at..]);
        assert_eq!(rebuilt, red(text));
        assert!(redactions("nothing here").is_empty());
    }

    /// The fifth round's readers: each shape caught, and what stands beside it left.
    #[test]
    fn prefixed_literals_digits_words_and_second_arguments() {
        for (text, gone) in [
            ("SECRET = b\"Kah3choteereethiejeimaeziecumi\"", "Kah3chot"),
            ("app.secret_key = b'_5#y2L\"F4Q8z\\n\\xec]/'", "_5#y2L"),
            ("client_secret=\"0123456789012345678901234567890123456789\",", "0123456789"),
            ("SERVER_API_TOKEN=1234-5678-91000", "1234-5678"),
            ("\"refresh_token\": \"alabalaportocala\",", "alabala"),
            ("modparam(\"siptrace\", \"auth_key\", \"spoihepuirthpeuia\")", "spoihep"),
            ("config.set('db', 'password', 'Tr0ub4dor')", "Tr0ub4dor"),
            ("#AdminAuth: mooma:moopa", "moopa"),
            ("\tsecret testing123", "testing123"),
        ] {
            assert!(!red(text).contains(gone), "{text}");
        }
        for text in [
            "token = f\"{prefix}abc\"",
            "\"token\": 1700000000",
            "\"secret\": \"2023-01-01\"",
            "api_key = \"00000000\"",
            "\"token\": \"authentication\"",
            "\"client_secret\": \"clientsecretvalue\"",
            "modparam(\"auth_db\", \"password_column\", \"password\")",
            "auth=fifo:/run/fifo",
            "auth: env:API_TOKEN",
            "secret yes",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    /// The fifth round's second half: a client's password flag of one word on a command
    /// line, and not in prose about the flag.
    #[test]
    fn a_password_flag_of_one_word_on_a_command_line() {
        for (text, gone) in [
            ("tgtadm --op new --mode account --user hoge --password deadbeaf", "deadbeaf"),
            ("tool --password corncob --verbose", "corncob"),
            ("tool --password corncob | tee log", "corncob"),
        ] {
            assert!(!red(text).contains(gone), "{text}");
        }
        for text in [
            "--password command switches to set username and password",
            "The --http-passwd and --proxy-passwd command switches",
            "tgtadm --user ronnie --password password",
            "tool --password ask",
            "tool -p corncob",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    /// A credential's key whose value is a literal handed to a decoding call.
    #[test]
    fn a_literal_a_decoder_is_given_under_a_credentials_key() {
        for (text, gone) in [
            ("pb._encryption_key = a2b_base64(\"1sW28zp7CWv5TtGjlQpDHHG4Cbr9v36fG5o4f74LsKg=\")", "1sW28zp7"),
            ("let secret_key = hex!(\"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60\");", "9d61b19d"),
            ("secret = base64.b64decode(b'c2VjcmV0IGtleSBvZiB0ZXN0cyBtYWRlIHVw')", "c2VjcmV0"),
            ("const apiKey = atob(\"NGI3ZTE1MTYyOGFlZDJhNmFiZjcxNTg4MDljZjRmM2M=\");", "NGI3ZTE1"),
        ] {
            assert!(!red(text).contains(gone), "{text}");
        }
        // Lettered as parties: `_a`, `_b`; `key_t` is a type's name.
        let pair = "let ed_secret_key_b = hex!(\"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb\");";
        assert!(!red(pair).contains("4ccd089b"), "{pair}");
        for text in [
            "secret_key_t = \"4ccd089b28ff96da9db6c346ec114e0f\"",
            "secret_key_ab = \"4ccd089b28ff96da9db6c346ec114e0f\"",
            "secret_key = bytes.fromhex(key_hex)",
            "token = decode(\"abcdefABCDEF0123456789\")",
            "key_id = a2b_hex(\"00112233445566778899aabbccddeeff\")",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    /// Figment's provider of one value, a `(name, value)` tuple a call is handed; a tuple
    /// of labels stays.
    #[test]
    fn a_name_and_value_tuple_handed_to_a_call() {
        let text = "let f = Config::figment().merge((\"secret_key\", \"hPRYyVRiMyxpw5sBB1XeCMN1kFsDCqKvBi2QJxBVHQk=\"));";
        assert!(!red(text).contains("hPRYyVRi"), "{text}");
        for text in [
            "choices = ((\"password\", \"Password\"), (\"token\", \"Token\"))",
            "f.merge((\"secret_key\", \"your-secret-key-here\"))",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
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
            "<password>", "</password>", "key=\"db.password\">", ":AA", "-us1", "0123456789",
            "glsa_", "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6", "==", "setPassword(", "auth=(", ",",
            "docker login -p ", "redis-cli -a ", "@tcp(", "jdbc:oracle:thin:", "/", "key",
            "TWILIO_", "AKIA", "EXAMPLE", "...", "xoxb-1-", "eyJhbGciOiJub25lIn0", "%",
        ];
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..6000 {
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
