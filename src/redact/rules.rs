//! The rules, in priority order: each one's leading literals, what must precede them, and
//! what a match at a trigger becomes (a provider token's kind wins over the header or key that
//! holds it).

use super::assignment::{
    aws_secret_key, cli_password, curl_user_password, line_before, separator_follows,
};
use super::headers::{authorization_header, bearer_header, is_scheme_word};
use super::not_secret::{is_expression, is_name, is_placeholder, looks_like_code};
use super::private_key::{has_key_material, key_block_end};
use super::scan::{Boundary, Hit, Matcher};
use super::shape::{is_b64url, is_word};
use super::tokens::{is_mask, token_body, token_end};
use super::urls::{slack_webhook, url_credentials};

/// The rules, in priority order: at one position the first that matches wins.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Rule {
    PrivateKey,
    AwsAccessKeyId,
    AwsSecretKey,
    Github,
    Gitlab,
    SlackToken,
    SlackWebhook,
    Stripe,
    Anthropic,
    OpenRouter,
    OpenAi,
    Google,
    GoogleOauth,
    HuggingFace,
    SendGrid,
    DigitalOcean,
    Npm,
    Pypi,
    Jwt,
    Authorization,
    Bearer,
    UrlCredentials,
    CurlUser,
    CliPassword,
    Assignment,
}

pub(crate) const RULES: [Rule; 25] = [
    Rule::PrivateKey,
    Rule::AwsAccessKeyId,
    Rule::AwsSecretKey,
    Rule::Github,
    Rule::Gitlab,
    Rule::SlackToken,
    Rule::SlackWebhook,
    Rule::Stripe,
    Rule::Anthropic,
    Rule::OpenRouter,
    Rule::OpenAi,
    Rule::Google,
    Rule::GoogleOauth,
    Rule::HuggingFace,
    Rule::SendGrid,
    Rule::DigitalOcean,
    Rule::Npm,
    Rule::Pypi,
    Rule::Jwt,
    Rule::Authorization,
    Rule::Bearer,
    Rule::UrlCredentials,
    Rule::CurlUser,
    Rule::CliPassword,
    Rule::Assignment,
];

impl Rule {
    pub(crate) fn index(self) -> usize {
        RULES.iter().position(|r| *r == self).unwrap_or(0)
    }

    /// Leading literals; the byte-pair table is built from their first two bytes.
    pub(crate) fn triggers(self) -> &'static [&'static str] {
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
            Rule::OpenRouter => &["sk-or-v1-"],
            Rule::OpenAi => &["sk-"],
            Rule::Google => &["AIza"],
            Rule::GoogleOauth => &["ya29."],
            Rule::HuggingFace => &["hf_"],
            Rule::SendGrid => &["SG."],
            Rule::DigitalOcean => &["dop_v1_", "doo_v1_", "dor_v1_"],
            Rule::Npm => &["npm_"],
            Rule::Pypi => &["pypi-AgE"],
            Rule::Jwt => &["eyJ"],
            Rule::Authorization => &["authorization"],
            Rule::Bearer => &["Bearer"],
            Rule::UrlCredentials => &["://"],
            Rule::CurlUser => &["-u", "--user"],
            Rule::CliPassword => &["-p"],
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
                "encryption",
                "signing",
                "master",
                "storage",
                "account",
            ],
        }
    }

    pub(crate) fn triggers_ignore_case(self) -> bool {
        matches!(
            self,
            Rule::AwsSecretKey | Rule::SlackWebhook | Rule::Authorization | Rule::Assignment
        )
    }

    pub(crate) fn boundary(self) -> Boundary {
        match self {
            Rule::PrivateKey | Rule::SlackWebhook | Rule::UrlCredentials => Boundary::Any,
            Rule::AwsSecretKey | Rule::Authorization | Rule::Assignment => Boundary::Segment,
            _ => Boundary::Word,
        }
    }

    /// Kind of a provider token: one whose shape alone says what it is, and
    /// which therefore wins over the header or key that holds it.
    pub(crate) fn token_kind(self) -> Option<&'static str> {
        match self {
            Rule::PrivateKey => Some("private-key"),
            Rule::AwsAccessKeyId => Some("aws-access-key-id"),
            Rule::Github => Some("github-token"),
            Rule::Gitlab => Some("gitlab-token"),
            Rule::SlackToken => Some("slack-token"),
            Rule::Stripe => Some("stripe-key"),
            Rule::Anthropic => Some("anthropic-key"),
            Rule::OpenRouter => Some("openrouter-key"),
            Rule::OpenAi => Some("openai-key"),
            Rule::Google => Some("google-api-key"),
            Rule::GoogleOauth => Some("google-oauth-token"),
            Rule::HuggingFace => Some("huggingface-token"),
            Rule::SendGrid => Some("sendgrid-key"),
            Rule::DigitalOcean => Some("digitalocean-token"),
            Rule::Npm => Some("npm-token"),
            Rule::Pypi => Some("pypi-token"),
            Rule::Jwt => Some("jwt"),
            Rule::AwsSecretKey
            | Rule::SlackWebhook
            | Rule::Authorization
            | Rule::Bearer
            | Rule::UrlCredentials
            | Rule::CurlUser
            | Rule::CliPassword
            | Rule::Assignment => None,
        }
    }
}

impl Matcher {
    /// Out of line: `hit_at` runs at every candidate and most candidates
    /// fail on their literal; with the readers inlined it spilled registers
    /// on every call and the scan ran a fifth slower.
    #[inline(never)]
    pub(crate) fn try_rule(&self, text: &str, pos: usize, rule: Rule) -> Option<Hit> {
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
                Rule::AwsAccessKeyId
                | Rule::Github
                | Rule::Stripe
                | Rule::OpenAi
                | Rule::Npm
                | Rule::OpenRouter
                | Rule::HuggingFace
                | Rule::DigitalOcean => !bytes.get(end).is_some_and(|c| is_word(*c)),
                Rule::GoogleOauth | Rule::SendGrid => {
                    !bytes.get(end).is_some_and(|c| is_b64url(*c))
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
            Rule::CliPassword => {
                let (s, e) = cli_password(text, pos)?;
                let pass = text.get(s..e)?;
                (!is_placeholder(pass)).then_some(Hit {
                    end: e,
                    secret_start: s,
                    secret_end: e,
                    kind: "password-assignment",
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

    /// If the value at `s..e` is itself a provider token, report that kind.
    pub(crate) fn prefer_token(
        &self,
        text: &str,
        s: usize,
        e: usize,
        end: usize,
        kind: &'static str,
    ) -> Hit {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::kinds;

    #[test]
    fn rule_kinds_are_listed_in_kinds() {
        for rule in RULES {
            if let Some(kind) = rule.token_kind() {
                assert!(kinds().contains(&kind), "{kind}");
            }
        }
    }
}
