//! Provider tokens: fixed prefixes whose shape alone says what they are (AWS key ids,
//! GitHub, GitLab, Slack, Stripe, Anthropic, OpenRouter, OpenAI, Google API keys and OAuth
//! access tokens, Hugging Face, SendGrid, DigitalOcean, npm, PyPI, JWTs), and the masks
//! documentation fills them with. Lengths and alphabets are the public scanners' (gitleaks,
//! trufflehog, Nosey Parker), not guesses.

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
        // sk-or-v1-[0-9a-f]{64} (trufflehog's openrouter detector)
        Rule::OpenRouter => exactly(b, lit(b, pos, b"sk-or-v1-")?, lower_hex, 64),
        // AIza[A-Za-z0-9_-]{35}
        Rule::Google => exactly(b, lit(b, pos, b"AIza")?, is_b64url, 35),
        // ya29\.[0-9A-Za-z_-]{20,1024} (Nosey Parker np.google.4); a longer
        // run is some other blob.
        Rule::GoogleOauth => {
            let i = lit(b, pos, b"ya29.")?;
            let end = at_least(b, i, is_b64url, 20)?;
            (end - i <= 1024).then_some(end)
        }
        // hf_[A-Za-z]{34} (gitleaks, trufflehog, Nosey Parker)
        // Issued tokens mix cases; a 34-letter identifier in one case is a name.
        Rule::HuggingFace => {
            let i = lit(b, pos, b"hf_")?;
            let end = exactly(b, i, |c| c.is_ascii_alphabetic(), 34)?;
            let body = b.get(i..end)?;
            (body.iter().any(u8::is_ascii_uppercase) && body.iter().any(u8::is_ascii_lowercase))
                .then_some(end)
        }
        // SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{39,50} (trufflehog; issued
        // keys are 22 and 43)
        Rule::SendGrid => {
            let i = lit(b, pos, b"SG.")?;
            let id = run(b, i, is_b64url);
            if !(20..=24).contains(&(id - i)) {
                return None;
            }
            let j = lit(b, id, b".")?;
            let end = run(b, j, is_b64url);
            (39..=50).contains(&(end - j)).then_some(end)
        }
        // do[opr]_v1_[a-f0-9]{64}: personal, OAuth and refresh tokens
        Rule::DigitalOcean => {
            let i = one_of(b, pos, &[b"dop_v1_", b"doo_v1_", b"dor_v1_"])?;
            exactly(b, i, lower_hex, 64)
        }
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
        | Rule::CliPassword
        | Rule::Assignment => None,
    }
}

fn lower_hex(c: u8) -> bool {
    c.is_ascii_digit() || (b'a'..=b'f').contains(&c)
}

/// The random part of a prefixed token (after its last `_` or `-` prefix separator
/// within the first 12 bytes; a SendGrid key's secret after its last `.`, a Google
/// token's after `ya29.`), for the mask check.
pub(crate) fn token_body(token: &str) -> &str {
    if let Some(rest) = token.strip_prefix("SG.") {
        return rest.rsplit('.').next().unwrap_or(rest);
    }
    if let Some(rest) = token.strip_prefix("ya29.") {
        return rest;
    }
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
