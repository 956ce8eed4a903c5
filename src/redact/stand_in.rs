//! Values that say they are stand-ins: a test's, a sample's or a manual's value written as
//! words saying it is a test value, a fake or a dummy (`testsecret`, `testpass`, `sk-test`,
//! `test-password`), as words naming what it stands for glued (`usertoken123`,
//! `clientsecret`), as a placeholder in capitals with blanks (`MY NETWORK PASSWORD`), or
//! under a name saying its value is a dummy (`DUMMY_CLIENT_SECRET`). The held-out sets' truth
//! rules count these as look-alikes; a test's concrete password however regular
//! (`abcdefgh`, `fakesupersecret`, `hunter2-fake`) is no stand-in: only a value read whole
//! as the words below (and digits after them) is one.
//!
//! A leaf: imports nothing of its neighbours.

/// Words that say a value is no real one.
#[rustfmt::skip]
const STAND_IN_WORDS: &[&str] = &[
    "test", "fake", "dummy", "mock", "sample", "example", "demo", "bogus", "placeholder",
    "notreal",
];

/// The words a credential is named with.
#[rustfmt::skip]
const CREDENTIAL_WORDS: &[&str] = &[
    "passphrase", "password", "passwd", "pass", "pwd", "secret", "token", "apikey", "key",
    "credentials", "credential",
];

/// Words that say whose or which credential a value stands for (`usertoken`,
/// `myclientsecret`). Not `admin` or `root`: `adminpass` is how a weak password is written.
#[rustfmt::skip]
const WHOSE_WORDS: &[&str] = &[
    "your", "user", "client", "access", "refresh", "session", "app", "api",
    "consumer", "bearer", "auth", "oauth",
];

/// What parts of a name are separated by.
const SEPARATORS: &[u8] = b"-_.";

/// What the words of a value were, read so far.
#[derive(Clone, Copy, Default)]
struct Words {
    count: usize,
    stand_in: bool,
    whose: bool,
    /// The last word read was a credential's.
    credential_last: bool,
}

/// Does the value say it is a stand-in, read whole as words: a stand-in word with others of
/// the lists (`testsecret`, `test-password`, `testpass`), a provider's short prefix then
/// stand-in words (`sk-test`, `xoxb-test`), or words naming whose credential it is glued to
/// the credential's word (`usertoken123`, `clientsecret`)? Digits may close it (five at
/// most) after two words or more; base32 and base64 padding is left out (`TESTPASS====`).
pub(crate) fn says_it_is_a_stand_in(v: &str) -> bool {
    // `test!`: one stand-in word and marks after it, nothing else (a test's value).
    let bare = v.trim_end_matches(['!', '?']);
    if bare.len() < v.len() && STAND_IN_WORDS.iter().any(|w| bare.eq_ignore_ascii_case(w)) {
        return true;
    }
    // `'fake password'` (a client's test): two words of the lists with a blank between them
    // read as the same words joined; more blanks make a phrase (`very secret passphrase`).
    let one_blank = v.find(' ').is_some() && v.find(' ') == v.rfind(' ');
    let blank = |c: &u8| SEPARATORS.contains(c) || (*c == b' ' && one_blank);
    let b = strip_padding(v).as_bytes();
    let words_end = b.iter().rposition(|c| !c.is_ascii_digit()).map_or(0, |i| i + 1);
    let digits = b.len() - words_end;
    let separated = b.get(..words_end).unwrap_or(&[]);
    let end = separated.iter().rposition(|c| !blank(c)).map_or(0, |i| i + 1);
    let v = separated.get(..end).unwrap_or(&[]);
    if digits > 5
        || v.len() < 4
        || v.len() > 64
        || !v.iter().all(|c| c.is_ascii_alphabetic() || blank(c))
    {
        return false;
    }
    let mut words = Words::default();
    let mut prefix = false;
    for (n, part) in v.split(blank).enumerate() {
        match read_words(part, words) {
            Some(w) if w.count > words.count => words = w,
            // `sk-test`: a prefix of two to four letters, only before another part.
            _ if n == 0 && (2..=4).contains(&part.len()) && v.len() > part.len() => prefix = true,
            _ => return false,
        }
    }
    // `test123`, `demo1234`: one word with a number is how a weak password is written;
    // `sk_test_123`: a provider's test key with a number is a key of its format.
    if words.count + usize::from(prefix) < 2 || (prefix && digits > 0) {
        return false;
    }
    let whose_then_credential =
        !prefix && !words.stand_in && words.whose && words.credential_last;
    words.stand_in || whose_then_credential
}

/// Padding left out (`=` and its percent-encoding `%3D`).
fn strip_padding(v: &str) -> &str {
    let mut v = v;
    loop {
        if let Some(rest) = v.strip_suffix('=') {
            v = rest;
        } else if let Some(rest) = v.strip_suffix("%3D").or_else(|| v.strip_suffix("%3d")) {
            v = rest;
        } else {
            return v;
        }
    }
}

/// `b` read as a run of the lists' words, case left out (`TESTPASS`, `testPassword`), after
/// `so_far`. Tries each word and backs off (`password` before `pass`).
fn read_words(b: &[u8], so_far: Words) -> Option<Words> {
    if b.is_empty() {
        return Some(so_far);
    }
    let lists = [STAND_IN_WORDS, CREDENTIAL_WORDS, WHOSE_WORDS];
    for (k, list) in lists.iter().enumerate() {
        for w in list.iter() {
            let Some(head) = b.get(..w.len()) else { continue };
            if !head.eq_ignore_ascii_case(w.as_bytes()) {
                continue;
            }
            let next = Words {
                count: so_far.count + 1,
                stand_in: so_far.stand_in || k == 0,
                whose: so_far.whose || k == 2,
                credential_last: k == 1,
            };
            if let Some(done) = read_words(b.get(w.len()..).unwrap_or(&[]), next) {
                return Some(done);
            }
        }
    }
    None
}

/// `MY NETWORK PASSWORD`, `YOUR API KEY`: words in capitals with blanks between them, one a
/// credential's word: a placeholder as manuals write one for the reader to fill in.
pub(crate) fn placeholder_in_capitals(v: &str) -> bool {
    let words = || v.as_bytes().split(|c| *c == b' ');
    v.contains(' ')
        && words().all(|w| !w.is_empty() && w.iter().all(u8::is_ascii_uppercase))
        && words().any(|w| CREDENTIAL_WORDS.iter().any(|c| w.eq_ignore_ascii_case(c.as_bytes())))
}

/// `DUMMY_CLIENT_SECRET`, `fake_api_key`: the key's name (lower case) says its value is a
/// dummy. Not `mock` (`MockApplicationSecret` holds a test's real-shaped secret) nor `test`
/// (a test's concrete password counts as one).
pub(crate) fn named_a_dummy(name: &str) -> bool {
    name.as_bytes()
        .split(|c| !c.is_ascii_alphanumeric())
        .any(|p| [&b"dummy"[..], b"fake", b"bogus"].iter().any(|w| p.starts_with(w)))
}

/// `otpauth://totp/…?secret=TEST%3D%3D%3D%3D`: a key URI's secret of fewer than 16 base32
/// characters, padding left out. RFC 4226 §4 asks for 128 bits at least, and the shortest
/// in use (Google Authenticator's Key Uri Format example) is 80 bits, 16 characters: fewer
/// is a word standing for a key. `head` is the text before the key's name.
pub(crate) fn short_otp_key(head: &str, v: &str) -> bool {
    let line = head.rfind('\n').and_then(|i| head.get(i..)).unwrap_or(head);
    line.contains("otpauth://") && strip_padding(v).len() < 16
}

/// Is `c` one of `SEPARATORS`?
fn separator(c: &u8) -> bool {
    SEPARATORS.contains(c)
}

/// Words that say a value is the wrong one: a test's credential that must be refused.
const WRONG_WORDS: &[&str] = &["not", "wrong", "invalid", "incorrect", "bad"];

/// The word of `WRONG_WORDS` `b` begins with, case left out.
fn wrong_word(b: &[u8]) -> Option<usize> {
    WRONG_WORDS
        .iter()
        .find(|w| b.get(..w.len()).is_some_and(|h| h.eq_ignore_ascii_case(w.as_bytes())))
        .map(|w| w.len())
}

/// `not-treq`, `wrong-password`, `invalidToken`, `wrong` (a URL's user `wrong:info`): a value
/// whose first word says it is the wrong one, a test's credential that must be refused. After
/// a separator the rest is lower-case words (`not-treq`, `bad_secret`); glued by a hump only a
/// credential's word (`invalidToken`, `badPassword`): `NotMyDog` or `BadWolf` is how a person
/// writes a password, so it stays one.
pub(crate) fn says_it_is_wrong(v: &str) -> bool {
    let b = v.as_bytes();
    wrong_word(b).is_some_and(|n| match b.get(n..).unwrap_or(&[]) {
        [] => true,
        rest @ [first, _, ..] if separator(first) => {
            rest.iter().all(|c| c.is_ascii_lowercase() || separator(c))
        }
        rest @ [first, ..] if first.is_ascii_uppercase() => {
            CREDENTIAL_WORDS.iter().any(|w| w.as_bytes().eq_ignore_ascii_case(rest))
        }
        _ => false,
    })
}

/// `auth_change_test`, `login-demo`: words as code names things, lower case joined by `_` or
/// `-`, one of them a stand-in word whole: a name of a test or a sample, not a password.
pub(crate) fn names_a_test(v: &str) -> bool {
    let (mut count, mut stand_in) = (0, false);
    for w in v.as_bytes().split(separator) {
        if w.len() < 2 || !w.iter().all(u8::is_ascii_lowercase) {
            return false;
        }
        count += 1;
        stand_in |= STAND_IN_WORDS.iter().any(|s| s.as_bytes() == w);
    }
    count >= 2 && stand_in
}

/// `mysecret2`, `mypassword1`: `my` glued to a credential's word and a number of one or two
/// digits, a sample's second or first credential as `mysecret` is its only one.
pub(crate) fn mine_numbered(v: &str) -> bool {
    let words = v.trim_end_matches(|c: char| c.is_ascii_digit());
    (1..=2).contains(&(v.len() - words.len()))
        && words.strip_prefix("my").is_some_and(|w| CREDENTIAL_WORDS.contains(&w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_whole_as_stand_in_words_say_they_are() {
        for v in [
            "testsecret",
            "testpass",
            "TESTPASSWORD",
            "test-password",
            "test-password-123",
            "sk-test",
            "xoxb-test",
            "TESTPASS====",
            "usertoken123",
            "clientsecret",
            "dummy_passwd",
            "fake-api-key",
            "fake password",
            "test token",
        ] {
            assert!(says_it_is_a_stand_in(v), "{v}");
        }
        for v in [
            "fakesupersecret",
            "hunter2-fake",
            "fake_gNR7AC5Vka",
            "abcdefgh",
            "testing123",
            "password1",
            "secret123",
            "adminpass",
            "sk-Fake38XzPR8EGGfUOcsdT3Blbk",
            "userpass!",
            "fake3IhqNkqyNJ",
            "tok",
            "Tr0ub4dor&3-fake",
            "sk-secret",
            "kd94hf93k423kf44",
            // One word alone, a number after one word or a provider's prefix: how weak
            // passwords and formats' test keys are written.
            "test",
            "test123",
            "sk_test_123",
            "mypass",
            // A blank before a word of no list, or a phrase of more words.
            "fake hunter",
            "very fake password",
            "fake  password",
            "fake password1234567",
        ] {
            assert!(!says_it_is_a_stand_in(v), "{v}");
        }
    }

    #[test]
    fn values_saying_they_are_wrong_tests_or_numbered_samples() {
        for v in [
            "not-treq", "wrong", "wrong-password", "invalidToken", "bad_secret", "WRONG", "badPassword",
        ] {
            assert!(says_it_is_wrong(v), "{v}");
        }
        for v in [
            "nothing", "notary-9", "badger", "wrongly", "not-", "not-2fa0", "bad_pa$$", "NotMyDog",
            "BadWolf", "Wrong-Horse", "invalidTokenX",
        ] {
            assert!(!says_it_is_wrong(v), "{v}");
        }
        for v in ["auth_change_test", "login-demo", "test_user"] {
            assert!(names_a_test(v), "{v}");
        }
        for v in ["auth_change", "testing_pass", "Test_user", "test", "a_test", "test_user1", "auth\u{12d}test"] {
            assert!(!names_a_test(v), "{v}");
        }
        for v in ["mysecret2", "mypassword1", "mytoken12"] {
            assert!(mine_numbered(v), "{v}");
        }
        for v in ["mysecret", "mysecret123", "mysupersecret2", "my2", "secret2", "myhunter2"] {
            assert!(!mine_numbered(v), "{v}");
        }
    }

    #[test]
    fn an_otp_key_uri_secret_under_80_bits_is_none() {
        let head = "otpauth://totp/test:lkj?";
        assert!(short_otp_key(head, "TEST%3D%3D%3D%3D"));
        assert!(!short_otp_key(head, "JBSWY3DPEHPK3PXP"));
        assert!(!short_otp_key("otpauth://totp/x?\nsecret=", "TEST"));
        assert!(!short_otp_key("url?", "TEST"));
    }

    #[test]
    fn a_placeholder_in_capitals_holds_a_credential_word() {
        assert!(placeholder_in_capitals("MY NETWORK PASSWORD"));
        assert!(placeholder_in_capitals("YOUR API KEY"));
        assert!(!placeholder_in_capitals("PASSWORD"));
        assert!(!placeholder_in_capitals("MY SSID"));
        assert!(!placeholder_in_capitals("CORRECT HORSE BATTERY STAPLE"));
        assert!(!placeholder_in_capitals("My Network Password"));
    }

    #[test]
    fn a_name_saying_dummy_names_a_dummy() {
        assert!(named_a_dummy("dummy_client_secret"));
        assert!(named_a_dummy("fake_api_key"));
        assert!(!named_a_dummy("mockapplicationsecret"));
        assert!(!named_a_dummy("test_password"));
        assert!(!named_a_dummy("client_secret"));
    }
}
