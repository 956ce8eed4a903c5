//! fwknop's client configuration, `.fwknoprc` (fwknop(8), "FWKNOPRC FILE"): a variable and
//! its value separated by blanks, one a line, the Rijndael and HMAC keys in base64 under
//! `KEY_BASE64` and `HMAC_KEY_BASE64` (as `fwknop --key-gen` prints them). The generic rule
//! takes a blank-separated value only after a password word; these two names say a key.
//! A leaf.

/// Is `name` one of the two key variables?
pub(crate) fn names_a_base64_key(name: &str) -> bool {
    name.eq_ignore_ascii_case("key_base64") || name.eq_ignore_ascii_case("hmac_key_base64")
}

/// Base64 of 16 bytes and more (fwknop's keys are 32 and 64).
pub(crate) fn is_base64_key(value: &str) -> bool {
    value.len() >= 24
        && value
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c))
}

#[cfg(test)]
mod tests {
    use crate::redact::redact;

    #[test]
    fn the_keys_go_and_other_variables_stay() {
        let rc = "[default]\nKEY_BASE64          Q2g7k9Vb0XcLm4Rt8YsNp1Ze5WaJu3HoFi6Dq0Kx+7M=\nHMAC_KEY_BASE64     c8Vt2Lm9Qx4Rb7Ns1Kp0Zf3Wj6Hy5Ga8Ud2Eo4Ti9Rq/Mn7Bv1Xc6Lz3Ks0Pw5Yh8Fj2Dg4Ae9Ur7Iq1So3Wk==\nSPA_SERVER          203.0.113.7\n";
        let out = redact(rc);
        assert!(
            !out.contains("Q2g7k9Vb0X") && !out.contains("c8Vt2Lm9Qx"),
            "{out}"
        );
        assert!(out.contains("SPA_SERVER          203.0.113.7"), "{out}");
        let prose = "KEY_BASE64 is the variable's name";
        assert_eq!(redact(prose), prose);
    }

    #[test]
    fn a_long_run_of_the_name_is_read_once() {
        let text = "KEY_BASE64 ".repeat(200_000 / 11);
        let _ = redact(&text);
    }
}
