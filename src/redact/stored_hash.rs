//! A password as its store keeps it, in a documented hash format, is no password: Django's
//! `<algorithm>$<iterations>$<salt>$<hash>` ("Password management in Django", the
//! `PASSWORD_HASHERS` algorithms), which its user model keeps under `password` itself
//! (`"password": "pbkdf2_sha256$10000$19ed…"`). Read from its start, so a hash a literal
//! continues on the next line (Python's adjacent literals) is one too. Names holding the
//! word `hash` are `generic`'s (`password_hash: pbkdf2_sha256$…`).

/// Django's hashers' algorithm names, as its hashed passwords begin.
#[rustfmt::skip]
const DJANGO_ALGORITHMS: &[&str] = &[
    "pbkdf2_sha256", "pbkdf2_sha1", "argon2", "bcrypt_sha256", "bcrypt", "scrypt", "md5",
    "sha1", "unsalted_md5", "unsalted_sha1", "crypt",
];

/// Does `v` begin as Django keeps a hashed password: an algorithm's name, `$`, and at least
/// two more parts (iterations or options, a salt), 24 characters in all?
pub(crate) fn is_stored_hash(v: &str) -> bool {
    v.len() >= 24
        && v.split_once('$').is_some_and(|(algorithm, rest)| {
            DJANGO_ALGORITHMS.contains(&algorithm)
                && rest.contains('$')
                && rest.bytes().all(|c| c.is_ascii_graphic())
        })
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;
    use super::*;

    #[test]
    fn a_django_hash_under_password_stays() {
        for text in [
            "\"password\": \"pbkdf2_sha256$10000$19ed2c0d6cbe0868a70be6\"\n\"446b93ed5b$c8\"",
            "password = 'argon2$argon2id$v=19$m=102400,t=2,p=8$c29tZXNhbHQ$ZXhhbXBsZWhhc2g'",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
        assert_eq!(redact_counted("password = 'md5$Tr0ub4dor$3xtra'").1, 1);
    }

    #[test]
    fn django_hashes_whole_or_begun() {
        for v in [
            "pbkdf2_sha256$10000$19ed2c0d6cbe0868a70be6",
            "pbkdf2_sha256$260000$Hw8bX$wb8+Vn0tD1aLpFy8Q0Ztcm1hbWVzYWx0",
            "argon2$argon2id$v=19$m=102400,t=2,p=8$c29tZXNhbHQ$ZXhhbXBsZWhhc2g",
            "bcrypt_sha256$$2b$12$LCvY3mUbhXIqRKd7ImYDdu",
        ] {
            assert!(is_stored_hash(v), "{v}");
        }
        for v in [
            "pbkdf2_sha256",
            "md5$ab$cd",
            "pbkdf2_sha256 is the default",
            "hunter2$hunter2$hunter2$hunter2",
            "Sha1$Tr0ub4dor$3xtra$l0ng3r",
        ] {
            assert!(!is_stored_hash(v), "{v}");
        }
    }
}
