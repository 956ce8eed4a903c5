//! Provider tokens: fixed prefixes whose shape alone says what they are (AWS key ids,
//! GitHub, GitLab, Slack, Stripe, Anthropic, OpenAI, Google, npm, PyPI, JWTs), and the masks
//! documentation fills them with.

use super::rules::Rule;
use super::shape::{at_least, exactly, is_b64url, is_word, lit, one, one_of, run};

/// Where the provider token at `pos` ends, by its rule's shape.
pub(crate) fn token_end(b: &[u8], pos: usize, rule: Rule) -> Option<usize> {
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

/// The random part of a prefixed token (after its last `_` or `-` prefix separator
/// within the first 12 bytes), for the mask check.
pub(crate) fn token_body(token: &str) -> &str {
    let head = token.get(..12.min(token.len())).unwrap_or(token);
    match head.rfind(['_', '-']) {
        Some(i) => token.get(i + 1..).unwrap_or(token),
        None => token,
    }
}

/// `xxxxxxxx`, `00000000`, `abababab`: documentation fillers, not keys.
pub(crate) fn is_mask(body: &str) -> bool {
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
