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
    let name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let rest = head.trim_end_matches(name).trim_end_matches(' ');
    // `:param str api_key:`, `:param list[str] keys:`: a type between.
    let untyped = rest.rsplit_once(' ').map(|(field, _)| field.trim_end_matches(' '));
    [Some(rest), untyped].into_iter().flatten().any(|field| {
        let field = field.trim_start_matches([' ', '\t', '*', '#', '/', '"', '\'']);
        let marked = field.strip_prefix(':').or_else(|| field.strip_prefix('@'));
        marked.is_some_and(|f| FIELDS.contains(&f))
    })
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
    v.split_once(' ').is_some_and(|(scheme, word)| {
        ["bearer", "basic", "digest", "token"].iter().any(|s| scheme.eq_ignore_ascii_case(s))
            && CREDENTIAL_WORDS.iter().any(|w| word.eq_ignore_ascii_case(w))
    })
}

/// `put your password here`, `enter your API key`: words with blanks, one of them `your`
/// and a credential's word after it: the reader is told what to write there.
pub(crate) fn instruction(v: &str) -> bool {
    let mut words = v.split(' ');
    words.any(|w| w.eq_ignore_ascii_case("your"))
        && words.any(|w| {
            CREDENTIAL_WORDS
                .iter()
                .any(|c| w.trim_end_matches(['.', ',']).eq_ignore_ascii_case(c))
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
