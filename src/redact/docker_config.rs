//! A Docker `config.json` written in base64, as a Kubernetes Secret of type
//! `kubernetes.io/dockerconfigjson` holds it (`.dockerconfigjson: eyJhdXRocyI6…`, the
//! Kubernetes documentation's "Secrets"; `{"auths":` in base64): its credentials are out of
//! every key rule's sight. It is a secret where the decoded JSON holds one (docker/cli's
//! `AuthConfig`: `"auth"`, base64 of `user:password`, `"password"`, `"identitytoken"`,
//! `"registrytoken"`, with a value); `{"auths":{}}` or a credential store's name alone
//! (`"credsStore"`) is none, and stays.

use super::der_key::{decode_head, wrapped_run};
use super::hit::Hit;
use super::shape::{blanks, find_within};

/// `{"auths":` in base64, from a value's first byte.
pub(crate) const DOCKER_CONFIG: &str = "eyJhdXRocyI6";

/// The longest encoded config read: a few registries' entries.
const DECODED: usize = 3072;

/// Does `json` hold member `name` (with its quotes and `:`) with a value that is not empty?
fn holds(json: &[u8], name: &[u8]) -> bool {
    let mut at = 0;
    while let Some(i) = find_within(json, at, DECODED, name) {
        let v = blanks(json, i + name.len());
        if json.get(v) == Some(&b'"') && json.get(v + 1).is_some_and(|c| *c != b'"') {
            return true;
        }
        at = i + 1;
    }
    false
}

/// The encoded config at `pos`, if it holds a credential.
pub(crate) fn docker_config(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let end = wrapped_run(b, pos);
    let unpadded = end
        - b.get(..end)?
            .iter()
            .rev()
            .take_while(|c| **c == b'=')
            .count();
    let mut json = [0u8; DECODED];
    let json = json.get_mut(..((unpadded - pos) / 4 * 3).min(DECODED))?;
    decode_head(b, pos, json)?;
    let names: [&[u8]; 4] = [
        b"\"auth\":",
        b"\"password\":",
        b"\"identitytoken\":",
        b"\"registrytoken\":",
    ];
    names
        .iter()
        .any(|n| holds(json, n))
        .then_some(Hit::span(pos, end, "secret-assignment"))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    #[test]
    fn an_encoded_config_holding_a_credential_goes() {
        for (text, gone) in [
            ("  .dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6eyJhdXRoIjoiYW1SdlpUcFlhekk1ZGt4dGNUZFVlZz09In19fQ==", "eyJhdXRocyI6eyJy"),
            // Written with blanks, a password member.
            ("\".dockerconfigjson\": \"eyJhdXRocyI6IHsici5leGFtcGxlLmNvbSI6IHsidXNlcm5hbWUiOiAidSIsICJwYXNzd29yZCI6ICJ0N1JxMkxtOXhLdjQifX19\"", "eyJhdXRocyI6IHsi"),
        ] {
            let out = redact(text);
            assert!(out.contains("[REDACTED:") && !out.contains(gone), "{out}");
        }
    }

    /// A config naming its credential store, and one with an empty `auth`, stay.
    #[test]
    fn a_config_without_a_credential_stays() {
        for text in [
            "  .dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6e319LCJjcmVkc1N0b3JlIjoiZGVza3RvcCJ9",
            "  .dockerconfigjson: eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6eyJhdXRoIjoiIn19fQ==",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    #[test]
    fn a_long_run_of_triggers_is_read_once() {
        for unit in [
            "eyJhdXRocyI6eyJyZWdpc3RyeS5leGFtcGxlLmNvbSI6e319 ",
            "eyJhdXRocyI6\n",
        ] {
            let text = unit.repeat(200_000 / unit.len());
            let _ = redact_counted(&text);
        }
    }
}
