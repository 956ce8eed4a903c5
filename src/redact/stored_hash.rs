//! A password as its store keeps it, in a documented hash format, is no password: Django's
//! `<algorithm>$<iterations>$<salt>$<hash>` ("Password management in Django", the
//! `PASSWORD_HASHERS` algorithms), which its user model keeps under `password` itself
//! (`"password": "pbkdf2_sha256$10000$19ed…"`). Read from its start, so a hash a literal
//! continues on the next line (Python's adjacent literals) is one too. Names holding the
//! word `hash` are `generic`'s (`password_hash: pbkdf2_sha256$…`). Werkzeug's and PostgreSQL's
//! stored forms are read here too.

/// Django's hashers' algorithm names, as its hashed passwords begin; Werkzeug's
/// `generate_password_hash` ("Utilities", `werkzeug.security`) writes `method$salt$hash`,
/// the method `pbkdf2:sha256:600000`, `scrypt:32768:8:1` or (before 2.3) a hashlib name, read
/// to its first `:`.
#[rustfmt::skip]
const ALGORITHMS: &[&str] = &[
    "pbkdf2_sha256", "pbkdf2_sha1", "argon2", "bcrypt_sha256", "bcrypt", "scrypt", "md5",
    "sha1", "unsalted_md5", "unsalted_sha1", "crypt", "pbkdf2", "sha256", "sha512",
];

/// Does `v` begin as Django or Werkzeug keep a hashed password: an algorithm's name, `$`,
/// and at least two more parts (iterations or options, a salt), 24 characters in all? Or is
/// it PostgreSQL's MD5 form?
pub(crate) fn is_stored_hash(v: &str) -> bool {
    let django = v.len() >= 24
        && v.split_once('$').is_some_and(|(method, rest)| {
            ALGORITHMS.contains(&method.split(':').next().unwrap_or(method))
                && rest.contains('$')
                && rest.bytes().all(|c| c.is_ascii_graphic())
        });
    django || postgres_md5(v)
}

/// PostgreSQL's MD5 form of a role's password (its docs, "Password Authentication",
/// `pg_authid.rolpassword`): `md5` and 32 lowercase hex digits. Its SCRAM form
/// (`SCRAM-SHA-256$4096:…`) reads as no password already.
fn postgres_md5(v: &str) -> bool {
    v.len() == 35
        && v.strip_prefix("md5").is_some_and(|h| {
            h.bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
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

    /// Werkzeug's forms (its docs' methods), PostgreSQL's MD5 form under `PASSWORD '…'`; a
    /// password near each (a method and a word, `md5` and a word) still goes.
    #[test]
    fn werkzeug_and_postgres_forms_stay() {
        let hex = "3f5a7c9e1b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a";
        for text in [
            format!("\"password\": \"pbkdf2:sha256:600000$Vq2xJdKp7gT1YhRs${hex}\""),
            format!("password = 'scrypt:32768:8:1$kQ9vZ2mX7pL4tR8w${hex}{hex}'"),
            format!("PASSWORD = \"sha256$Ke8X2r9a${hex}\""),
            "ALTER ROLE app WITH LOGIN PASSWORD 'md5a3556571e93b0d20722ba62be61e8c2d';".into(),
        ] {
            assert_eq!(redact_counted(&text).1, 0, "{text}");
        }
        for text in [
            "password = 'pbkdf2:sha256:600000 Tr0ub4dor&3'",
            "password = 'scrypt:hunter2$abc'",
            "ALTER ROLE app PASSWORD 'md5Tr0ub4dor&3';",
            "password: md5a3556571e93b0d20722ba62be61e8c2",
        ] {
            assert_eq!(redact_counted(text).1, 1, "{text}");
        }
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
