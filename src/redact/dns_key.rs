//! DNS keys in BIND's own files: a DNSSEC private key file's secret fields and a TSIG key's
//! secret after its algorithm.
//!
//! `dnssec-keygen` writes `K<zone>+<alg>+<tag>.private` in "Private-key-format: v1.3" (the
//! ldns and Net::DNS::SEC::Private manuals read it; one `Name: <base64>` a line): an RSA
//! key's `Modulus` and `PublicExponent` are public, its `PrivateExponent`, `Prime1`,
//! `Prime2`, `Exponent1`, `Exponent2` and `Coefficient` the private key (RFC 8017 §3.2);
//! a DSA or Diffie-Hellman key's `Private_value(x)`; ECDSA's and EdDSA's `PrivateKey` (read
//! by the generic rule already), GOST's `GostAsn1`. Each name opens its line.
//!
//! named.conf(5)'s and dhcpd.conf(5)'s `key` statement, as `tsig-keygen` and `rndc-confgen`
//! write it: `key "name" { algorithm hmac-sha256; secret "<base64>"; };`, one statement a
//! line or all on one; dhcpd writes the secret bare. The secret follows its algorithm, so
//! it is read from `algorithm hmac-`, whatever its layout (a bare secret holding `/` reads
//! as a path to the directive rule).

use super::hit::Hit;
use super::shape::{blanks, lit, run, run_within};

/// The private fields, each opening its line, and the TSIG algorithm's statement.
#[rustfmt::skip]
pub(crate) const DNS_KEY_TRIGGERS: &[&str] = &[
    "PrivateExponent: ", "Prime1: ", "Prime2: ", "Exponent1: ", "Exponent2: ", "Coefficient: ",
    "Private_value(x): ", "GostAsn1: ", "algorithm hmac-",
];

/// The shortest secret read: an HMAC-MD5 key of 16 bytes, 22 characters of base64 unpadded.
const MIN_CHARS: usize = 20;

fn is_b64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'+' || c == b'/'
}

/// The secret of the field or key statement at `pos`.
pub(crate) fn dns_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let trigger = DNS_KEY_TRIGGERS
        .iter()
        .find(|t| b.get(pos..pos + t.len()) == Some(t.as_bytes()))?;
    let tsig = *trigger == "algorithm hmac-";
    let start = if tsig {
        // `algorithm hmac-sha256;`, blanks and line breaks, `secret`, an optional quote.
        let mut i = run(b, pos + trigger.len(), |c| {
            c.is_ascii_alphanumeric() || c == b'-'
        });
        i = lit(b, i, b";")?;
        i = run_within(b, i, 80, |c| c.is_ascii_whitespace());
        i = lit(b, i, b"secret")?;
        let i = blanks(b, i);
        i + usize::from(b.get(i) == Some(&b'"'))
    } else {
        // The field opens its line.
        if pos
            .checked_sub(1)
            .and_then(|p| b.get(p))
            .is_some_and(|c| *c != b'\n')
        {
            return None;
        }
        pos + trigger.len()
    };
    let end = run_within(b, start, 4096, is_b64);
    let end = run_within(b, end, 2, |c| c == b'=');
    let body = b.get(start..end)?;
    let varied = body.iter().any(u8::is_ascii_digit)
        && body.iter().any(u8::is_ascii_uppercase)
        && body.iter().any(u8::is_ascii_lowercase);
    let closed = matches!(b.get(end), None | Some(b'\n' | b'\r' | b'"' | b';'));
    // A TSIG secret is named as the directive rule names it where it reads one.
    let kind = if tsig {
        "secret-assignment"
    } else {
        "private-key"
    };
    (end - start >= MIN_CHARS && varied && closed).then_some(Hit::span(start, end, kind))
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    /// An RSA key file as dnssec-keygen writes it: the private fields go, the modulus and
    /// public exponent stay.
    #[test]
    fn a_dnssec_private_key_files_private_fields_go() {
        let text = "Private-key-format: v1.3\nAlgorithm: 8 (RSASHA256)\nModulus: 0cYvXkQz3M5wN8aRp2LtJ7hB4gUe6VfKsYdC1oTn9Hq=\nPublicExponent: AQAB\nPrivateExponent: Zq8T2mXv9LpW4nK7sYd3Rf6GhJ1cBa5E0uQo==\nPrime1: 7Hk2Lm9Pq4Rs6Tv8Wx0Yz1Ab3Cd5Ef7Gh9Ij==\nPrime2: Kl2Mn4Op6Qr8St0Uv2Wx4Yz6Ab8Cd0Ef2Gh4==\nExponent1: Ij6Kl8Mn0Op2Qr4St6Uv8Wx0Yz2Ab4Cd6Ef8==\nExponent2: Gh0Ij2Kl4Mn6Op8Qr0St2Uv4Wx6Yz8Ab0Cd2==\nCoefficient: Ef4Gh6Ij8Kl0Mn2Op4Qr6St8Uv0Wx2Yz4Ab6==\nCreated: 20240101000000";
        let (out, n) = redact_counted(text);
        assert_eq!(n, 6, "{out}");
        assert!(out.contains("Modulus: 0cYvXkQz3M5wN8aRp2LtJ7hB4gUe6VfKsYdC1oTn9Hq="));
        assert!(out.contains("Prime1: [REDACTED:private-key]\n"));
    }

    /// The three layouts of a TSIG key statement; its algorithm and name stay.
    #[test]
    fn a_tsig_keys_secret_goes_in_each_layout() {
        for text in [
            "key tsig-key { algorithm hmac-sha256; secret \"KqQpEzWA589/jDhz6FX/wnNtI4wxPhcsV44XUT1eQs8=\"; };",
            "key \"rndc-key\" {\n        algorithm hmac-sha256;\n        secret kTPjBb/eaWJpvoY1YEVWwA9/R5P3XCCvgIehytzZNxc=;\n};",
            "key DHCP_UPDATER {\n  algorithm hmac-md5;\n  secret \"pRP5FapFoJ95JEL06sv4PQ==\";\n}",
        ] {
            let out = redact(text);
            assert!(out.contains("[REDACTED:secret-assignment]") && out.contains("algorithm hmac-"), "{out}");
        }
    }

    /// A field in prose, a placeholder, a key file's name and a DNSKEY record stay.
    #[test]
    fn prose_placeholders_and_public_records_stay() {
        for text in [
            "the field Prime1: holds the first prime",
            "key \"k\" { algorithm hmac-sha256; secret \"<base64-secret>\"; };",
            "key \"k\" { algorithm hmac-sha256; secret \"/etc/bind/k.key\"; };",
            "example.com. 3600 IN DNSKEY 257 3 13 ReU/Ymalcm70T9nQ3/cFIAhstcPlzXn3ln0AEmTu7e3T",
            "Prime1: Zq8T2mXv9LpW4nK7sYd3Rf6GhJ1cBa5E0uQo==...",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    #[test]
    fn a_long_run_of_triggers_is_read_once() {
        for unit in ["algorithm hmac-sha256; ", "\nPrime1: Zq8T2mXv9LpW4nK7"] {
            let text = unit.repeat(200_000 / unit.len());
            let _ = redact_counted(&text);
        }
    }
}
