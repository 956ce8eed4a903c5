//! A template's slots: a user and a password written as the words that say what goes there,
//! the way a manual or a test writes a URL or a query to fill in
//! (`rdp://username:encrypted-password@server`, remmina(1)), or numbered slots of one pair
//! (`username1:password1@…`, `sentinelUsername=username2&sentinelPassword=password2`). A
//! credential is text no one reads; a pair whose user is the word `username` and whose
//! password names its own kind, or both numbered alike, is written to be read.
//!
//! Kept to pairs: a password word with a number alone (`password2`, `password1234`) is how
//! weak real passwords are written too (the earlier rounds' reasons, docs/redaction.md), and
//! a named password (`encrypted-password`) after a real user (`alice`) may be a real one.

use super::naming::{from_line_before, names_its_credential};

/// The words a user's slot is written with.
const USER_WORDS: &[&str] = &["username", "user", "login"];

/// The words a password's slot is written with.
const PASSWORD_WORDS: &[&str] = &["password", "passwd", "pass"];

/// `word` and one or two digits after it (none for `None`), `word` one of `words` in any
/// case: the slot's number, empty for none.
fn numbered<'v>(v: &'v str, words: &[&str]) -> Option<&'v str> {
    let word = v.trim_end_matches(|c: char| c.is_ascii_digit());
    let number = v.get(word.len()..)?;
    (number.len() <= 2 && words.iter().any(|w| w.eq_ignore_ascii_case(word))).then_some(number)
}

/// A URL's `user:password` that are a template's slots: the user the word `username` (or
/// `user`, `login`) and the password a name of its kind (`encrypted-password`), or both
/// numbered alike (`username1:password1`).
pub(crate) fn url_slots(user: &str, pass: &str) -> bool {
    numbered(user, USER_WORDS).is_some_and(|n| {
        (n.is_empty() && names_its_credential(pass))
            || (!n.is_empty() && numbered(pass, PASSWORD_WORDS) == Some(n))
    })
}

/// `sql_user:sql_pass` (ruby-mysql2's README: `mysql2://sql_user:sql_pass@sql_host_name:port/
/// sql_db_name`), `db-login:db-password`: a user's slot and a password's named with one
/// qualifier, what the pair is for, as `sql_host_name` names the host's. A password named
/// as its user is, beside it, is the pair's second slot (`naming::named_as_its_user` reads
/// the same in a call's arguments).
pub(crate) fn qualified_pair(user: &str, pass: &str) -> bool {
    /// The qualifier and the word after its last `_` or `-`.
    fn split(v: &str) -> Option<(&str, &str)> {
        let at = v.bytes().rposition(|c| c == b'_' || c == b'-')?;
        Some((v.get(..at)?, v.get(at + 1..)?))
    }
    let (Some((owner, u)), Some((same, p))) = (split(user), split(pass)) else {
        return false;
    };
    !owner.is_empty()
        && owner.eq_ignore_ascii_case(same)
        && owner.bytes().all(|c| c.is_ascii_alphanumeric())
        && numbered(u, USER_WORDS) == Some("")
        && numbered(p, PASSWORD_WORDS) == Some("")
}

/// `sentinelPassword=password2` after `sentinelUsername=username2` on its line or the line
/// before: a password's numbered slot beside its user's slot of the same number. `head` is
/// the text before the password's key; at most 256 bytes of it are read.
pub(crate) fn numbered_pair(v: &str, head: &str) -> bool {
    let Some(n) = numbered(v, PASSWORD_WORDS).filter(|n| !n.is_empty()) else {
        return false;
    };
    let near = from_line_before(head);
    // Each run of letters and digits standing alone is a word the user's slot may be.
    near.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| numbered(w, USER_WORDS) == Some(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_s_user_and_password_slots_are_no_credentials() {
        for (user, pass) in [
            ("username", "encrypted-password"),
            ("user", "some_password"),
            ("username1", "password1"),
            ("USER2", "PASSWORD2"),
            ("login3", "pass3"),
        ] {
            assert!(url_slots(user, pass), "{user}:{pass}");
        }
        for (user, pass) in [
            // A real user's password stays, named or numbered.
            ("alice", "encrypted-password"),
            ("admin", "password1"),
            // Numbers that differ, or one slot numbered alone.
            ("username1", "password2"),
            ("username", "password1"),
            ("username1", "hunter2"),
            ("username", "hunter2"),
            ("username", "s3cr3t-p4ss"),
            ("username12", "password123"),
        ] {
            assert!(!url_slots(user, pass), "{user}:{pass}");
        }
    }

    #[test]
    fn a_user_and_a_password_named_alike_are_slots() {
        for (user, pass) in [
            ("sql_user", "sql_pass"),
            ("db-login", "db-password"),
            ("APP_USER", "APP_PASSWD"),
        ] {
            assert!(qualified_pair(user, pass), "{user}:{pass}");
        }
        for (user, pass) in [
            // Another qualifier, a real user, a real password, no qualifier, a path.
            ("sql_user", "db_pass"),
            ("alice", "sql_pass"),
            ("sql_user", "Xk9fq2Lm"),
            ("_user", "_pass"),
            ("user", "pass"),
            ("a/b_user", "a/b_pass"),
        ] {
            assert!(!qualified_pair(user, pass), "{user}:{pass}");
        }
    }

    #[test]
    fn a_numbered_password_beside_its_user_s_slot_is_one() {
        let line = "redis-sentinel://h?sentinelUsername=username2&";
        assert!(numbered_pair("password2", line));
        assert!(numbered_pair("passwd1", "user: user1\n"));
        // Another number, no user's slot, a user's word glued inside a word, too far back.
        assert!(!numbered_pair("password2", "sentinelUsername=username1&"));
        assert!(!numbered_pair("password2", "      "));
        assert!(!numbered_pair("password2", "superuser2: x\n"));
        assert!(!numbered_pair("password2", "user2\n\n\n"));
        assert!(!numbered_pair("password", "user=user&"));
        assert!(!numbered_pair("hunter2", "user=user2&"));
    }
}

#[cfg(test)]
mod promoted_cases {
    use super::super::redact_counted;

    /// The afar set's look-alikes (promoted in the seventh round's second half), one line of
    /// each, and what stands beside each class and stays a secret.
    #[test]
    fn the_afar_sets_look_alikes_stay() {
        for s in [
            "remmina -c rdp://username:encrypted-password@server",
            "  /// redis-sentinel://username1:password1@foo.com:26379/1?sentinelServiceName=fakename&sentinelUsername=username2&sentinelPassword=password2&node=bar.com:26379",
            "      \"password\": \"airplay_password\"",
            "const tokenKey = ':_authToken'\nconst legacyTokenKey = ':_auth'\nconst passwordKey = ':_password'",
            "          \"access_key\": \"uref-024d69e50a458f337817d3d11ba95bdbdd6258ba8f2dc980644c9efdbd64945d-007\",",
        ] {
            assert_eq!(redact_counted(s).1, 0, "{s}");
        }
        for s in [
            "remmina -c rdp://alice:encrypted-password@server",
            "redis://username1:hunter2x@foo.com:6379",
            "redis://username1:password2@foo.com:6379",
            "?sentinelUsername=alice&sentinelPassword=password2",
            "      \"password\": \"airplay_Passw0rd\"",
            "      \"password\": \"airplay_passwd\"",
            "//registry.npmjs.org/:_authToken=npm_FAKEYZgkzZRzguttbN67S5GAJU7ccBheAkHL",
            "\"access_key\": \"024d69e50a458f337817d3d11ba95bdbdd6258ba8f2dc980644c9efdbd64945d\"",
            "    let secret = \"0x123456789abcde0f123456789abcdef012345678\".to_string();",
        ] {
            assert_eq!(redact_counted(s).1, 1, "{s}");
        }
    }
}
