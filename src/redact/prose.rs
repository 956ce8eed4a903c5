//! Prose where a credential's value would stand: a docstring's field list
//! (`:param api_key: TronGRID API Key in str`), an instruction to the reader (`'put your
//! password here'`), and an authentication scheme followed by the word for its credential
//! (`parse_auth('Bearer token')`). Each is words written to be read, not a value.
//!
//! A leaf: imports nothing of its neighbours.

/// The field names of Sphinx's info field lists (its Python domain: "Info field lists") and
/// their Epydoc and Javadoc spellings after `@`: `:param api_key: …` documents a parameter.
#[rustfmt::skip]
const FIELDS: &[&str] = &[
    "param", "parameter", "arg", "argument", "key", "keyword", "kwarg", "kwparam", "type",
    "var", "ivar", "cvar", "vartype",
];

/// Is the key a field list's name, `head` being its line up to the key word: a reST field
/// (`:param api_key:`, typed `:param str api_key:`) or an Epydoc or Javadoc one (`@param
/// api_key`, `@type api_key:`)? What follows is the parameter's description.
pub(crate) fn field_list(head: &str) -> bool {
    let b = head.as_bytes();
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_alphanumeric() && *c != b'_')
        .map_or(0, |i| i + 1);
    let line = b.get(..end).unwrap_or(&[]);
    let start = line.iter().position(|c| !b" \t*#/\"'".contains(c)).unwrap_or(line.len());
    let Some((mark, rest)) = line.get(start..).and_then(<[u8]>::split_first) else {
        return false;
    };
    // `:param str api_key:`, `:param list[str] keys:`: a type between.
    let mut parts = rest.split(blank).filter(|p| !p.is_empty());
    (*mark == b':' || *mark == b'@')
        && parts.next().is_some_and(|f| one_of(f, FIELDS))
        && parts.nth(1).is_none()
}

fn blank(c: &u8) -> bool {
    *c == b' '
}

/// Is `w` one of `list`, case left out?
fn one_of(w: &[u8], list: &[&str]) -> bool {
    list.iter().any(|l| w.eq_ignore_ascii_case(l.as_bytes()))
}

/// The words a credential is called by, as a sentence names it.
#[rustfmt::skip]
const CREDENTIAL_WORDS: &[&str] = &[
    "password", "passphrase", "passwd", "pass", "pin", "secret", "token", "key", "credentials",
    "credential",
];

/// `Bearer token`, `Basic credentials`: a scheme of HTTP authentication (RFC 9110 §11.1,
/// RFC 6750 §2.1) and the word for what would follow it, not a credential.
pub(crate) fn scheme_and_word(v: &str) -> bool {
    let mut words = v.as_bytes().split(blank);
    matches!(
        (words.next(), words.next(), words.next()),
        (Some(scheme), Some(word), None)
            if one_of(scheme, &["bearer", "basic", "digest", "token"])
                && one_of(word, CREDENTIAL_WORDS)
    )
}

/// `put your password here`, `enter your API key`: words with blanks, one of them `your`
/// and a credential's word after it: the reader is told what to write there.
pub(crate) fn instruction(v: &str) -> bool {
    let mut words = v.as_bytes().split(blank);
    words.any(|w| w.eq_ignore_ascii_case(b"your"))
        && words.any(|w| {
            let end = w.iter().rposition(|c| !b".,".contains(c)).map_or(0, |i| i + 1);
            one_of(w.get(..end).unwrap_or(&[]), CREDENTIAL_WORDS)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_lists_name_documents_a_parameter() {
        for head in [
            "    :param api_",
            "    :param jw_",
            ":param str api_",
            "    :type ",
            " * @param api",
            "    :keyword client_",
            ":param list[str] api_",
        ] {
            assert!(field_list(head), "{head:?}");
        }
        for head in ["    api_", "param api_", "x = foo(:param) + ", "    :paramx api_", "::", ""] {
            assert!(!field_list(head), "{head:?}");
        }
    }

    #[test]
    fn a_scheme_and_its_word_are_none() {
        assert!(scheme_and_word("Bearer token"));
        assert!(scheme_and_word("Basic credentials"));
        assert!(!scheme_and_word("Bearer mF_9.B5f-4.1JqM"));
        assert!(!scheme_and_word("Bearer token token"));
        assert!(!scheme_and_word("correct token"));
    }

    #[test]
    fn an_instruction_names_the_readers_credential() {
        assert!(instruction("put your password here"));
        assert!(instruction("enter your API key."));
        assert!(!instruction("all your base are belong to us"));
        assert!(!instruction("your-password"));
        assert!(!instruction("password your"));
    }
}
