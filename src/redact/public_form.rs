//! Values whose format, as its specification writes it, says what they are, and that is no
//! credential, wherever they stand (`token=`, `secret = "…"`, `password:`, `key:`): an AWS
//! resource's name (where a secret is kept, not the secret), an SSH public key or its
//! algorithm's name, a digest labelled with its algorithm and of exactly its size, Stripe's
//! publishable key, and a cache key as GitHub Actions builds it. Found by generating each
//! format from its specification and setting it where a credential would stand
//! (docs/redaction.md, "Eighth round"). A leaf: asked by `lookalike`.

/// Is `v`, or the word after it (`after`: the text after the value), one of the formats
/// below?
pub(crate) fn is_public_form(v: &str, after: &str) -> bool {
    is_arn(v)
        || is_ssh_public_blob(v)
        || names_an_ssh_key(after)
        || is_labelled_digest(v)
        || is_publishable_key(v)
        || is_cache_key(v)
        || is_extended_public_key(v)
}

/// A BIP-32 extended public key (`xpub`, `tpub`, SLIP-0132's `ypub`, `zpub`, `Ypub`, `Zpub`,
/// `upub`, `vpub`): 111 characters of Base58Check, the public half of an `xprv`.
fn is_extended_public_key(v: &str) -> bool {
    v.len() == 111
        && v.get(1..4) == Some("pub")
        && v.starts_with(['x', 't', 'y', 'z', 'Y', 'Z', 'u', 'v'])
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() && !b"0OIl".contains(&c))
}

/// `arn:partition:service:region:account-id:resource` (AWS IAM User Guide, "Amazon Resource
/// Names (ARNs)"): a resource's name. Under a secret's name it says where the secret is kept
/// (`DB_PASSWORD=arn:aws:ssm:…:parameter/prod/db`, Secrets Manager's `…:secret:name-AbCdEf`).
/// The account is 12 digits, `aws` (AWS's managed policies) or none (S3's buckets).
fn is_arn(v: &str) -> bool {
    let mut parts = v.split(':');
    let mut part = || parts.next().unwrap_or("");
    let (arn, partition, service, _region, account, resource) =
        (part(), part(), part(), part(), part(), part());
    arn == "arn"
        && partition.starts_with("aws")
        && !service.is_empty()
        && (account.is_empty()
            || account == "aws"
            || (account.len() == 12 && account.bytes().all(|c| c.is_ascii_digit())))
        && !resource.is_empty()
}

/// An SSH public key's base64 (RFC 4253 §6.6): a 32-bit length, then the algorithm's name
/// (`ssh-rsa`, `ssh-ed25519`, `ecdsa-sha2-nistp256`, `sk-ssh-ed25519@openssh.com`, their
/// `-cert-v01@openssh.com` forms), which base64 writes `AAAA`, one character of the length,
/// then `NzaC1` (`sh-`), `VjZHNh` (`cdsa-sh`) or `NrLX`/`NrLW` (`k-s`, `k-e`). A private key
/// in OpenSSH's format starts `b3BlbnNzaC1rZXktdjE` (`openssh-key-v1`), PuTTY's private
/// lines with an integer's length: neither reads so.
fn is_ssh_public_blob(v: &str) -> bool {
    v.len() >= 40
        && v.starts_with("AAAA")
        && v.get(6..).is_some_and(|t| {
            ["NzaC1", "VjZHNh", "NrLX", "NrLW"]
                .iter()
                .any(|p| t.starts_with(p))
        })
}

/// The algorithm's field of a public key's line (`key: ecdsa-sha2-nistp256 AAAAE2Vj…`,
/// sshd(8)'s AUTHORIZED_KEYS FILE FORMAT) or of ssh's log (`Server host key:
/// ecdsa-sha2-nistp256 SHA256:…`): the next word is the key or its fingerprint.
fn names_an_ssh_key(after: &str) -> bool {
    after
        .strip_prefix(' ')
        .is_some_and(|next| is_ssh_public_blob(next) || next.starts_with("SHA256:"))
}

/// A digest with its algorithm's name before it, of exactly that algorithm's size: OCI's
/// `sha256:<64 hex>` (image-spec, "Digests"), Subresource Integrity's `sha384-<base64>` (W3C
/// SRI §3.1, npm's `integrity`), Go's `h1:<base64>` (go.sum, SHA-256), OpenSSH's
/// `SHA256:<base64>` fingerprint (ssh-keygen(1) `-l`), Nix's `sha256:<52 base32>`.
fn is_labelled_digest(v: &str) -> bool {
    const SIZES: &[(&str, usize)] = &[
        ("md5", 16),
        ("sha1", 20),
        ("sha224", 28),
        ("sha256", 32),
        ("h1", 32),
        ("sha384", 48),
        ("sha512", 64),
    ];
    let Some(cut) = v.find(':').or_else(|| v.find('-')) else {
        return false;
    };
    let (alg, enc) = (v.get(..cut).unwrap_or(""), v.get(cut + 1..).unwrap_or(""));
    let Some(&(_, size)) = SIZES.iter().find(|(a, _)| alg.eq_ignore_ascii_case(a)) else {
        return false;
    };
    let n = enc.len();
    // Hex; base64 (or base64url), padded or not; Nix's base32.
    let lengths = [
        2 * size,
        (4 * size).div_ceil(3),
        size.div_ceil(3) * 4,
        (8 * size).div_ceil(5),
    ];
    lengths.contains(&n)
        && enc
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"+/_-=".contains(&c))
}

/// Stripe's publishable key, `pk_live_…` / `pk_test_…` (Stripe's docs, "API keys": it
/// identifies the account in the page's own code; the secret and restricted keys are `sk_`
/// and `rk_`).
fn is_publishable_key(v: &str) -> bool {
    (v.starts_with("pk_live_") || v.starts_with("pk_test_"))
        && v.len() >= 24
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// A cache key as GitHub Actions' documentation builds it, `${{ runner.os }}-<names>-${{
/// hashFiles(…) }}`, as the log prints it (`Cache restored from key: Linux-node-3f5a…`): a
/// runner's system among its words and hashFiles' SHA-256 in hex last.
fn is_cache_key(v: &str) -> bool {
    let hex = v.len().saturating_sub(64);
    v.get(..hex).is_some_and(|head| head.ends_with('-'))
        && v.bytes().skip(hex).all(|c| c.is_ascii_hexdigit())
        && ["Linux-", "Windows-", "macOS-"]
            .iter()
            .any(|w| v.contains(w))
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;

    const HEX64: &str = "3f5a7c9e1b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a";

    #[test]
    fn each_format_where_a_credential_stands_stays() {
        let ed = "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl";
        let ec = "AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBEmKSENjQEezOmxkZMy7opKgwFB9nkt5YRrYMjNuG5N87uRgg6CLrbo5wAdT/y6v0mKV0U2w0WZ2YB/++Tpockg=";
        for text in [
            "DB_PASSWORD=arn:aws:ssm:us-east-1:123456789012:parameter/prod/db/password".into(),
            "secret = \"arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf\"".into(),
            "SecretId=arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf".into(),
            format!("host_key: {ed}"),
            format!("\"key\": \"{ed}\""),
            format!("key: ecdsa-sha2-nistp256 {ec}"),
            "debug1: Server host key: ecdsa-sha2-nistp256 SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8".into(),
            format!("token_hash: sha256:{HEX64}"),
            format!("token=sha256:{HEX64}"),
            "secret_hash = \"sha256-Wb4Ar14kAL/jOEy0jDN3ENJdrOsnC42HVNnWhNYU3ug=\"".into(),
            "password: h1:CacSL3c6UcH5L3GbJPnlgRGN1K6mFQrDlz1Vnxf/mE0=".into(),
            "token=SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8".into(),
            "token: sha256:0v6xs6x7b7rsm4kqj5x4bgw2b8p6i2ll1rq6xx2hhlz6kqq9fjmb".into(),
            "StripeCheckout.configure({ key: 'pk_test_TYooMQauvdEDq54NiTphI7jx' })".into(),
            format!("Cache restored from key: Linux-node-{HEX64}"),
            format!("Cache saved with key: node-cache-Linux-x64-npm-{HEX64}"),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
    }

    /// The same positions with a credential: a key word of the format's without its shape,
    /// another length, a secret key's prefix.
    #[test]
    fn a_credential_near_each_format_goes() {
        for text in [
            "DB_PASSWORD=arn:aws:ssm:us-east-1:12345:parameter/prod".into(),
            "secret = \"arnold:aws:s3cr3tV4lu3xyz\"".into(),
            "host_key: AAAAdGhpc2lzYXNlY3JldGtleXRoYXRpc2xvbmdlbm91Z2g1".into(),
            "key: ecdsa-sha2-nistp256 hunter2".into(),
            format!("token=sha256:{}", &HEX64[..60]),
            format!("token=sha384:{}", &HEX64[..60]),
            "password: h1:CacSL3c6UcH5L3GbJPnlgRGN1K6mFQrDlz1Vnxf/m".into(),
            "key: 'sk_test_TYooMQauvdEDq54NiTphI7jx'".into(),
            "key: 'pk-test-TYooMQauvdEDq54NiTphI7jx'".into(),
            format!("key: Linux-node-{}", &HEX64[..40]),
            format!("key: Lunix-node-{HEX64}"),
        ] {
            assert_eq!(redact_counted(&text).1, 1, "{text}");
        }
    }

    /// 200 KB of each format's opening, in one text and as one value, read once.
    #[test]
    fn a_long_run_of_formats_is_read_once() {
        for unit in [
            "token=arn:aws:",
            "key: AAAAC3NzaC1",
            "secret=sha256:",
            "key: Linux-",
        ] {
            let text = unit.repeat(200_000 / unit.len());
            let _ = redact_counted(&text);
        }
        let _ = redact_counted(&format!("token=sha256:{}", "ab".repeat(100_000)));
    }
}
