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

/// Which of the lists a word of the value came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    StandIn,
    Credential,
    Whose,
}

/// Does the value say it is a stand-in, read whole as words: a stand-in word with others of
/// the lists (`testsecret`, `test-password`, `testpass`), a provider's short prefix
/// then stand-in words (`sk-test`, `xoxb-test`), or words naming whose credential it is
/// glued to the credential's word (`usertoken123`, `clientsecret`)? Digits may close it (five
/// at most); base32 and base64 padding is left out (`TEST====`, `TEST%3D%3D`).
pub(crate) fn says_it_is_a_stand_in(v: &str) -> bool {
    let v = strip_padding(v);
    let words_end = v.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = v.len() - words_end.len();
    if digits > 5 {
        return false;
    }
    let v = words_end.trim_end_matches(['-', '_', '.']);
    if v.len() < 4
        || v.len() > 64
        || !v
            .bytes()
            .all(|c| c.is_ascii_alphabetic() || b"-_.".contains(&c))
    {
        return false;
    }
    let mut parts = v.split(['-', '_', '.']);
    let mut words: Vec<Word> = Vec::new();
    let mut prefix = false;
    let first = parts.next().unwrap_or("");
    match read_words(first) {
        Some(w) => words.extend(w),
        // `sk-test`: a prefix of two to four letters, only before another part.
        None if (2..=4).contains(&first.len())
            && first.bytes().all(|c| c.is_ascii_alphabetic())
            && v.len() > first.len() =>
        {
            prefix = true
        }
        None => return false,
    }
    for part in parts {
        match read_words(part) {
            Some(w) => words.extend(w),
            None => return false,
        }
    }
    let stand_in = words.contains(&Word::StandIn);
    let whose_then_credential = words.len() >= 2
        && words.last() == Some(&Word::Credential)
        && words.iter().all(|w| *w != Word::StandIn)
        && words.contains(&Word::Whose);
    // `test123`, `demo1234`: one word with a number is how a weak password is written.
    let one_word = words.len() + usize::from(prefix) < 2;
    // `sk_test_123`: a provider's test key with a number is a key of its format.
    if one_word || (prefix && digits > 0) {
        return false;
    }
    stand_in || (!prefix && whose_then_credential)
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

/// The part read as words of the lists, case left out (`TESTPASS`, `testPassword`).
fn read_words(part: &str) -> Option<Vec<Word>> {
    let lower = part.to_ascii_lowercase();
    let mut out = Vec::new();
    split_words(lower.as_bytes(), &mut out).then_some(out)
}

/// Whether `b` is a run of the lists' words; `out` gets them. Tries the longest word
/// first and backs off (`password` before `pass`, `a` + `test` + `token`).
fn split_words(b: &[u8], out: &mut Vec<Word>) -> bool {
    if b.is_empty() {
        return !out.is_empty();
    }
    let lists = [
        (STAND_IN_WORDS, Word::StandIn),
        (CREDENTIAL_WORDS, Word::Credential),
        (WHOSE_WORDS, Word::Whose),
    ];
    for (list, kind) in lists {
        for w in list.iter() {
            if let Some(rest) = b.strip_prefix(w.as_bytes()) {
                out.push(kind);
                if split_words(rest, out) {
                    return true;
                }
                out.pop();
            }
        }
    }
    false
}

/// `MY NETWORK PASSWORD`, `YOUR API KEY`: words in capitals with blanks between them, one a
/// credential's word: a placeholder as manuals write one for the reader to fill in.
pub(crate) fn placeholder_in_capitals(v: &str) -> bool {
    let words: Vec<&str> = v.split(' ').collect();
    words.len() >= 2
        && words
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(|c| c.is_ascii_uppercase()))
        && words
            .iter()
            .any(|w| CREDENTIAL_WORDS.iter().any(|c| w.eq_ignore_ascii_case(c)))
}

/// `DUMMY_CLIENT_SECRET`, `fake_api_key`: the key's name (lower case) says its value is a
/// dummy. Not `mock` (`MockApplicationSecret` holds a test's real-shaped secret) nor `test`
/// (a test's concrete password counts as one).
pub(crate) fn named_a_dummy(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|p| ["dummy", "fake", "bogus"].iter().any(|w| p.starts_with(w)))
}

/// `otpauth://totp/…?secret=TEST%3D%3D%3D%3D`: a key URI's secret of fewer than 16 base32
/// characters, padding left out. RFC 4226 §4 asks for 128 bits at least, and the shortest
/// in use (Google Authenticator's Key Uri Format example) is 80 bits, 16 characters: fewer
/// is a word standing for a key. `head` is the text before the key's name.
pub(crate) fn short_otp_key(head: &str, v: &str) -> bool {
    let line = head.rsplit('\n').next().unwrap_or(head);
    line.contains("otpauth://") && strip_padding(v).len() < 16
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
        ] {
            assert!(!says_it_is_a_stand_in(v), "{v}");
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
