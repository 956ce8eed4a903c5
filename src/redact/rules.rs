//! The rules that are not rows of the provider table, in priority order, each with its
//! leading literals, what must precede them, and its reader — one match for all of it.

use super::assertion::{asserted_credential, ASSERTIONS};
use super::command_line::{
    cli_password, client_password, curl_user, echoed_password, positional_password, samba_user,
};
use super::account_key::{account_key, ACCOUNT_FROM};
use super::bip39_vector::{bip39_vector, EXTENDED_PRIVATE};
use super::continued_key::{continued_key, EXTENDED_KEY_PREFIXES};
use super::cose_key::{cose_key, COSE_KEY_TRIGGERS};
use super::der_key::{der_key, DER_KEY_TRIGGERS};
use super::dns_key::{dns_key, DNS_KEY_TRIGGERS};
use super::docker_config::{docker_config, DOCKER_CONFIG};
use super::encoded_pem::{encoded_pem, ENCODED_PEM};
use super::directive::{
    clear_text_scheme, identified_by, pgpass_line, ppp_secret, stats_auth, tcp_md5_signature,
};
use super::generic::{assignment, ASSIGNMENT_KEYWORDS, KEY_OWNERS};
use super::headers::{authorization, bearer};
use super::hit::{Boundary, Hit};
use super::jwk::{jwk_member, JWK_MEMBERS};
use super::keystore::{keystore_password, KEYSTORE_DECRYPTS};
use super::obfuscated::{obfuscated, OBFUSCATED_PREFIXES};
use super::otp_and_pkce::{code_verifier, otp_seed, CODE_VERIFIERS, OTP_GENERATORS};
use super::private_key::{private_key_block, putty_private_lines, PUTTY_PRIVATE_LINES};
use super::raw_key::{raw_key_or_phrase, RAW_KEY_TRIGGERS, SECRET_NAME_TRIGGERS};
use super::service_field::{service_field, SERVICE_FIELDS};
use super::tink_keyset::{tink_key, TINK_KEY_DATA};
use super::urls::{go_dsn, oracle_login, slack_webhook, url_credentials};

/// A rule read by hand (the provider tokens are rows of `formats` instead).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Rule {
    PrivateKey,
    PuttyKey,
    Bip39Vector,
    SlackWebhook,
    Authorization,
    Bearer,
    UrlCredentials,
    GoDsn,
    OracleLogin,
    CurlUser,
    CliPassword,
    ClientPassword,
    SambaUser,
    PositionalPassword,
    EchoedPassword,
    SqlIdentified,
    ClearTextScheme,
    StatsAuth,
    TcpMd5Signature,
    PgpassLine,
    PppSecret,
    ServiceField,
    Obfuscated,
    AssertedCredential,
    KeystorePassword,
    JwkMember,
    OtpSeed,
    CodeVerifier,
    CoseKey,
    AccountKey,
    RawKey,
    DerKey,
    EncodedPem,
    DnsKey,
    TinkKey,
    DockerConfig,
    ContinuedKey,
    Assignment,
    SecretKeyMaterial,
}

/// Where the provider table's rows go in the order: after the private key blocks, before
/// every rule that reads a key or a header (whose value may be a provider token).
pub(crate) const BEFORE_FORMATS: &[Rule] = &[Rule::PrivateKey, Rule::PuttyKey, Rule::Bip39Vector];

pub(crate) const AFTER_FORMATS: &[Rule] = &[
    Rule::SlackWebhook,
    Rule::Authorization,
    Rule::Bearer,
    Rule::UrlCredentials,
    Rule::GoDsn,
    Rule::OracleLogin,
    Rule::CurlUser,
    Rule::CliPassword,
    Rule::ClientPassword,
    Rule::SambaUser,
    Rule::PositionalPassword,
    Rule::EchoedPassword,
    Rule::SqlIdentified,
    Rule::ClearTextScheme,
    Rule::StatsAuth,
    Rule::TcpMd5Signature,
    Rule::PgpassLine,
    Rule::PppSecret,
    Rule::ServiceField,
    Rule::Obfuscated,
    Rule::AssertedCredential,
    Rule::KeystorePassword,
    Rule::JwkMember,
    Rule::OtpSeed,
    Rule::CodeVerifier,
    Rule::CoseKey,
    Rule::AccountKey,
    Rule::RawKey,
    Rule::DerKey,
    Rule::EncodedPem,
    Rule::DnsKey,
    Rule::TinkKey,
    Rule::DockerConfig,
    Rule::ContinuedKey,
    Rule::Assignment,
    Rule::SecretKeyMaterial,
];

/// What a rule starts with and how it reads.
pub(crate) struct Spec {
    /// Leading literals; the scan's byte-pair table is built from their first two bytes.
    pub(crate) triggers: &'static [&'static str],
    pub(crate) any_case: bool,
    pub(crate) boundary: Boundary,
    pub(crate) read: fn(&str, usize) -> Option<Hit>,
}

impl Rule {
    /// Inlined: the scan asks each match for its reader alone.
    #[inline(always)]
    pub(crate) fn spec(self) -> Spec {
        let spec = |triggers, any_case, boundary, read| Spec {
            triggers,
            any_case,
            boundary,
            read,
        };
        match self {
            Rule::PrivateKey => spec(&["-----BEGIN"], false, Boundary::Any, private_key_block),
            Rule::PuttyKey => spec(&[PUTTY_PRIVATE_LINES], false, Boundary::Any, putty_private_lines),
            Rule::Bip39Vector => spec(EXTENDED_PRIVATE, false, Boundary::Word, bip39_vector),
            Rule::SlackWebhook => spec(&["hooks.slack.com/"], true, Boundary::Any, slack_webhook),
            Rule::Authorization => spec(&["authorization"], true, Boundary::Segment, authorization),
            Rule::Bearer => spec(&["Bearer"], false, Boundary::Word, bearer),
            Rule::UrlCredentials => spec(&["://"], false, Boundary::Any, url_credentials),
            Rule::GoDsn => spec(&["@tcp(", "@unix("], false, Boundary::Any, go_dsn),
            Rule::OracleLogin => spec(
                &["jdbc:oracle:thin:", "sqlplus"],
                false,
                Boundary::Word,
                oracle_login,
            ),
            Rule::CurlUser => spec(&["-u", "--user"], false, Boundary::Word, curl_user),
            Rule::CliPassword => spec(&["-p"], false, Boundary::Flag, cli_password),
            Rule::ClientPassword => {
                spec(&["-a", "-w", "-P", "-p"], false, Boundary::Flag, client_password)
            }
            Rule::SambaUser => spec(&["-U", "--user="], false, Boundary::Word, samba_user),
            Rule::PositionalPassword => spec(
                &["htpasswd", "net user", "NET USER"],
                false,
                Boundary::Word,
                positional_password,
            ),
            Rule::EchoedPassword => spec(
                &["--password-stdin", "--with-token", "chpasswd"],
                false,
                Boundary::Word,
                echoed_password,
            ),
            Rule::SqlIdentified => spec(
                &["IDENTIFIED"],
                false,
                Boundary::Word,
                identified_by,
            ),
            Rule::ClearTextScheme => spec(
                &["PLAIN", "CLEAR"],
                false,
                Boundary::Any,
                clear_text_scheme,
            ),
            Rule::StatsAuth => spec(&["auth"], false, Boundary::Segment, stats_auth),
            Rule::TcpMd5Signature => spec(&["md5sig"], false, Boundary::Word, tcp_md5_signature),
            Rule::PgpassLine => spec(&[":5432:", ":*:"], false, Boundary::Any, pgpass_line),
            Rule::PppSecret => spec(
                &["* \"", "*\t\"", "*\t\t\"", "*  \""],
                false,
                Boundary::Any,
                ppp_secret,
            ),
            Rule::ServiceField => spec(SERVICE_FIELDS, false, Boundary::Any, service_field),
            Rule::Obfuscated => spec(OBFUSCATED_PREFIXES, false, Boundary::Word, obfuscated),
            Rule::AssertedCredential => {
                spec(ASSERTIONS, false, Boundary::Any, asserted_credential)
            }
            Rule::KeystorePassword => {
                spec(KEYSTORE_DECRYPTS, false, Boundary::Any, keystore_password)
            }
            Rule::JwkMember => spec(JWK_MEMBERS, false, Boundary::Quote, jwk_member),
            Rule::OtpSeed => spec(OTP_GENERATORS, false, Boundary::Word, otp_seed),
            Rule::CodeVerifier => spec(CODE_VERIFIERS, false, Boundary::Any, code_verifier),
            Rule::CoseKey => spec(COSE_KEY_TRIGGERS, false, Boundary::Any, cose_key),
            Rule::AccountKey => spec(&[ACCOUNT_FROM], true, Boundary::Segment, account_key),
            Rule::RawKey => spec(RAW_KEY_TRIGGERS, true, Boundary::Segment, raw_key_or_phrase),
            Rule::DerKey => spec(DER_KEY_TRIGGERS, false, Boundary::Word, der_key),
            Rule::EncodedPem => spec(&[ENCODED_PEM], false, Boundary::Word, encoded_pem),
            Rule::DnsKey => spec(DNS_KEY_TRIGGERS, false, Boundary::Word, dns_key),
            Rule::TinkKey => spec(&[TINK_KEY_DATA], false, Boundary::Quote, tink_key),
            Rule::DockerConfig => spec(&[DOCKER_CONFIG], false, Boundary::Word, docker_config),
            Rule::ContinuedKey => {
                spec(EXTENDED_KEY_PREFIXES, false, Boundary::Word, continued_key)
            }
            Rule::Assignment => spec(ASSIGNMENT_TRIGGERS, true, Boundary::Segment, assignment),
            Rule::SecretKeyMaterial => {
                spec(SECRET_NAME_TRIGGERS, true, Boundary::Segment, raw_key_or_phrase)
            }
        }
    }
}

/// The key words, the `<what>_KEY` owners and the `pw` of `rootpw` (a key word only glued:
/// see `directive::glued_key`), as the assignment rule's triggers.
const ASSIGNMENT_TRIGGERS: &[&str] = &{
    let mut all = [""; ASSIGNMENT_KEYWORDS.len() + KEY_OWNERS.len() + 4];
    // With what follows it: `pw` alone begins too many words.
    all[ASSIGNMENT_KEYWORDS.len() + KEY_OWNERS.len()] = "pw ";
    all[ASSIGNMENT_KEYWORDS.len() + KEY_OWNERS.len() + 1] = "pw=";
    all[ASSIGNMENT_KEYWORDS.len() + KEY_OWNERS.len() + 2] = "pw:";
    all[ASSIGNMENT_KEYWORDS.len() + KEY_OWNERS.len() + 3] = "pw\t";
    let mut i = 0;
    while i < ASSIGNMENT_KEYWORDS.len() {
        all[i] = ASSIGNMENT_KEYWORDS[i];
        i += 1;
    }
    let mut j = 0;
    while j < KEY_OWNERS.len() {
        all[i + j] = KEY_OWNERS[j];
        j += 1;
    }
    all
};
