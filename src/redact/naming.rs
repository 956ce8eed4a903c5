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
//!
//! The fifth round's second half (the blind set's look-alikes) added a qualifier of one or
//! two letters (`db_passwd`, `p_password`), which one glued to the word (`newpassword`), a
//! password named as its user is (`explicit_user` / `explicit_pass`), the form a password is
//! kept in (`StronglyEncryptedHash`) and the word a setting prompts with (`password=ask`).

use super::not_secret::is_name;

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

/// The words a password is named with where a qualifier comes before it (`db_passwd`).
const PASSWORD_WORDS: &[&str] = &["password", "passwd", "pwd", "pass"];

/// Words that say which of a person's credentials a value stands for, glued to the word
/// (`newpassword`, `oldpassword`: tinynetrc's README sets `'newpassword'`), as `mypassword`
/// is (`not_secret`'s). A word glued otherwise (`mailerpassword`, `hunterpass`,
/// `mysupersecretpassword`) is how a weak password is written, and stays one.
const WHICH_ONE: &[&str] = &["new", "old", "current", "other", "some", "any"];

/// The credential's words `WHICH_ONE` is glued to.
#[rustfmt::skip]
const GLUED_WORDS: &[&[u8]] =
    &[b"password", b"passwd", b"pass", b"pwd", b"passphrase", b"secret", b"token"];

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
        let password_word = PASSWORD_WORDS.contains(&last);
        if password_word && !last.contains('_') && first.bytes().all(|c| c.is_ascii_lowercase()) {
            // `db_passwd`, `p_password`, `in_password`: one or two letters are an
            // abbreviation of what the password is for, no word to make a password of.
            // `old_password`: which one, as glued (`oldpassword`).
            return STAND_INS.contains(&first) || WHICH_ONE.contains(&first) || first.len() <= 2;
        }
    }
    // `newpassword`, `oldPassword`: which one, glued to the word.
    let glued = WHICH_ONE.iter().any(|q| {
        b.get(..q.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(q.as_bytes()))
            && b.get(q.len()..)
                .is_some_and(|w| GLUED_WORDS.iter().any(|g| w.eq_ignore_ascii_case(g)))
    });
    if glued {
        return true;
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

/// `proxy_password="proxy_password"`, `key_password="keyfile_password"`: a value that spells
/// its own key's name, word for word (each of the key's words begins the value's, the last
/// one whole): a sample naming the parameter it fills. `name` is the key's whole name in
/// lower case.
pub(crate) fn spells_its_key(v: &str, name: &str) -> bool {
    fn separated(c: &u8) -> bool {
        *c == b'_' || *c == b'-'
    }
    let name = name.as_bytes();
    // `self.proxy_password`, `opts["key_password"]`: the name's last part.
    let from = name
        .iter()
        .rposition(|c| !c.is_ascii_alphanumeric() && !separated(c))
        .map_or(0, |i| i + 1);
    let mut names = name.get(from..).unwrap_or(&[]).split(separated);
    let (mut count, mut last) = (0, false);
    for w in v.as_bytes().split(separated) {
        match names.next() {
            Some(n) if !n.is_empty() && w.starts_with(n) && w.iter().all(u8::is_ascii_lowercase) => {
                count += 1;
                last = w == n;
            }
            _ => return false,
        }
    }
    names.next().is_none() && count >= 2 && last
}

/// `"password": "airplay_password"` (pyatv's sample configuration): the key's own word after
/// one lower-case word saying whose it is, a field's name filling the field. Only under a key
/// that is the word alone (a configuration's field, a keyword argument): under an object's
/// attribute (`x.password`) or read anywhere as a name (`email_password`), it cost the
/// packages set a secret when measured again in the seventh round's second half. `name` is
/// the key's whole name in lower case.
pub(crate) fn qualifies_its_key(v: &str, name: &str) -> bool {
    v.split_once(['_', '-']).is_some_and(|(whose, word)| {
        word == name
            && PASSWORD_WORDS.contains(&word)
            && !whose.is_empty()
            && whose.bytes().all(|c| c.is_ascii_lowercase())
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

/// The end of `head` from the start of the line before its own, at most 256 bytes of it: where
/// a value's user or its slot stands (`user=alice` above `password=alice_password`).
pub(crate) fn from_line_before(head: &str) -> &str {
    let mut start = head.len().saturating_sub(256);
    while !head.is_char_boundary(start) {
        start += 1;
    }
    let near = head.get(start..).unwrap_or("");
    let from = near
        .rfind('\n')
        .and_then(|i| near.get(..i)?.rfind('\n'))
        .map_or(0, |i| i + 1);
    near.get(from..).unwrap_or(near)
}

/// `BasicAuth("explicit_user", "explicit_pass")`, `"p_login"` on the line before
/// `"p_password"`: a password named as its user is, the two stand-ins of one pair. `head` is
/// the text up to the value's end; only its line and the line before are read (at most 256
/// bytes).
pub(crate) fn named_as_its_user(v: &str, head: &str) -> bool {
    let Some((owner, word)) = v.split_once('_') else {
        return false;
    };
    if owner.is_empty()
        || !owner.bytes().all(|c| c.is_ascii_lowercase())
        || !PASSWORD_WORDS.contains(&word)
    {
        return false;
    }
    let near = from_line_before(head);
    near.match_indices(owner).any(|(at, _)| {
        let opens = at == 0
            || near
                .as_bytes()
                .get(at - 1)
                .is_some_and(|c| !c.is_ascii_alphanumeric());
        let rest = near.get(at + owner.len()..).unwrap_or("");
        opens && ["_user", "_login"].iter().any(|u| rest.starts_with(u))
    })
}

/// The words that say in what form a password is kept.
const FORM_WORDS: &[&[u8]] = &[b"encrypted", b"crypted", b"hashed", b"hash", b"digest"];

/// `<password>StronglyEncryptedHash</password>` (rsnapshot's sample config): a name of words
/// saying in what form the password is kept, where it stands. The word must stand as a word
/// of the name (a separator, a capital or an end either side) beside another.
pub(crate) fn names_its_form(v: &str) -> bool {
    let b = v.as_bytes();
    let separator = |k: usize| b.get(k).is_some_and(|c| b"-_.".contains(c));
    let hump = |k: usize| b.get(k).is_some_and(u8::is_ascii_uppercase);
    is_name(v)
        && (0..b.len()).any(|i| {
            FORM_WORDS.iter().any(|w| {
                let j = i + w.len();
                b.len() > w.len()
                    && b.get(i..j)
                        .is_some_and(|found| found.eq_ignore_ascii_case(w))
                    && (i == 0 || hump(i) || separator(i - 1))
                    && (j == b.len() || hump(j) || separator(j))
            })
        })
}

/// A prompt where a password stands: the word a setting asks for one with (xrdp's
/// `password=ask`), or `"ssword"`, `"assword:"`, the tail of the word a prompt ends in,
/// which code waits for (netmiko, pexpect; six letters at least, so that no short password
/// is taken for one).
pub(crate) fn is_prompt(v: &str) -> bool {
    if v.eq_ignore_ascii_case("ask") || v.eq_ignore_ascii_case("prompt") {
        return true;
    }
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
            "db_passwd",
            "p_password",
            "in_password",
            "newpassword",
            "oldPassword",
            "currentpass",
            "old_password",
            "new_passwd",
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
            "mailerpassword",
            "hunterpass",
            "explicit_pass",
            "newpassword1",
            "renewpassword",
            "db_Passw0rd",
        ] {
            assert!(!names_its_credential(v), "{v}");
        }
    }

    #[test]
    fn a_value_spelling_its_keys_name_names_it() {
        assert!(spells_its_key("proxy_password", "proxy_password"));
        assert!(spells_its_key("keyfile_password", "key_password"));
        assert!(spells_its_key("client-secret", "client-secret"));
        assert!(spells_its_key("proxy_password", "self.proxy_password"));
        for (v, name) in [
            ("email_password", "password"),
            ("keyfile_passwordx", "key_password"),
            ("proxy_password", "password"),
            ("password", "password"),
            ("proxy_Password", "proxy_password"),
            ("hunter2_password", "hunter_password"),
            ("proxy_secret", "proxy_password"),
        ] {
            assert!(!spells_its_key(v, name), "{v} under {name}");
        }
    }

    #[test]
    fn a_value_qualifying_its_key_s_word_names_it() {
        assert!(qualifies_its_key("airplay_password", "password"));
        assert!(qualifies_its_key("mqtt-passwd", "passwd"));
        for (v, name) in [
            // Under an attribute, another key, a word not the key's, or no qualifier.
            ("email_password", "self.password"),
            ("email_password", "pass"),
            ("email_secret", "secret"),
            ("_password", "password"),
            ("Email_password", "password"),
            ("hunter2_password", "password"),
            ("airplay_password2", "password"),
        ] {
            assert!(!qualifies_its_key(v, name), "{v} under {name}");
        }
    }

    #[test]
    fn a_password_named_as_its_user_is() {
        assert!(named_as_its_user(
            "explicit_pass",
            "auth=aiohttp.BasicAuth(\"explicit_user\", \"explicit_pass"
        ));
        assert!(named_as_its_user(
            "p_password",
            " 'proxy_login':     \"p_login\",\n 'proxy_password':  \"p_password"
        ));
        // Two lines up is too far, another user is another pair, a prefix is no user.
        assert!(!named_as_its_user(
            "p_password",
            "\"p_login\",\nx\n'pw': \"p_password"
        ));
        assert!(!named_as_its_user(
            "explicit_pass",
            "Auth(\"admin_user\", \"explicit_pass"
        ));
        assert!(!named_as_its_user(
            "it_pass",
            "Auth(\"edit_user\", \"it_pass"
        ));
        assert!(!named_as_its_user(
            "explicit_s3cr3t",
            "Auth(\"explicit_user\", \"explicit_s3cr3t"
        ));
    }

    #[test]
    fn a_name_saying_how_it_is_kept_names_its_form() {
        for v in [
            "StronglyEncryptedHash",
            "encrypted_password",
            "PasswordHash",
            "hashed-secret",
        ] {
            assert!(names_its_form(v), "{v}");
        }
        for v in [
            "Hash",
            "hashed",
            "Hashbrown",
            "thrashing",
            "Encrypted4Hash",
            "CorrectHorseBatteryStaple",
        ] {
            assert!(!names_its_form(v), "{v}");
        }
    }

    #[test]
    fn a_prompt_is_the_tail_of_its_word() {
        assert!(is_prompt("ssword"));
        assert!(is_prompt("assword:"));
        assert!(!is_prompt("password"));
        assert!(!is_prompt("sword"));
        assert!(!is_prompt("hunter2"));
        assert!(is_prompt("ask"));
        assert!(is_prompt("PROMPT"));
        assert!(!is_prompt("asks"));
    }
}
