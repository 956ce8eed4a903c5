//! Look-alikes told by what stands around a value: the key's whole name, the line before the
//! key, what follows the value. Each guard is a class found by sweeping text no corpus holds
//! (docs/redaction.md, "Sweeps") and pinned by `tests/fixtures/secrets/negatives.txt`: prose
//! (a word after a flag), code around the value (`->`, concatenation, a format string, a pattern, a block's parameter), a value that
//! names what it stands for (`some_password`, asked of `naming`), and a key that is no key
//! (`Test2::Pass`). The judgement of the value alone is `not_secret`'s.

use super::acme_challenge::is_challenge_token;
use super::der_key::decode_head;
use super::filler::{is_alphabet, one_letter_repeated};
use super::jose_header::is_jose_header;
use super::naming::{
    is_prompt, named_as_its_user, names_its_credential, names_its_form, qualifies_its_key,
    spells_its_key,
};
use super::not_secret::{is_name, is_placeholder, is_type_name};
use super::pair::Separator;
use super::shape::{any_of, first_of, is_b64url, last_of, line_before};
use super::prose::{field_list, instruction, scheme_and_word};
use super::public_form::is_public_form;
use super::reference::{is_uref, npm_auth_setting};
use super::slot::numbered_pair;
use super::stand_in::{
    mine_numbered, named_a_dummy, names_a_test, placeholder_in_capitals, says_it_is_a_stand_in,
    says_it_is_wrong, short_otp_key,
};
use super::stored_hash::is_stored_hash;

/// A value as the generic rule reads it, with what stands around it.
pub(crate) struct Seen<'t> {
    pub(crate) text: &'t str,
    /// Where the key word starts.
    pub(crate) key_start: usize,
    /// The whole name the key word sits in, lowercase (`apihelp-login-param-password`).
    pub(crate) name: &'t str,
    pub(crate) sep: Separator,
    pub(crate) value: &'t str,
    pub(crate) quote: Option<u8>,
    /// Where what the value took ends (its closing quote included).
    pub(crate) after: usize,
    pub(crate) password: bool,
    /// The key was closed by a quote (`"password": …`, `<entry key="db.password">`).
    pub(crate) key_quoted: bool,
}

/// Does the value stand where a secret would and is none, by what stands around it?
pub(crate) fn is_lookalike(s: &Seen) -> bool {
    no_key(s)
        || code_around(s)
        || address(s)
        || markup_elsewhere(s)
        || names_what_it_is(s)
        || method_with_options(s.value)
        || is_stored_hash(s.value)
        || is_public_form(s.value, s.text.get(s.after..).unwrap_or(""))
        || says_it_is_a_stand_in(s.value)
        || placeholder_in_capitals(s.value)
        || named_a_dummy(s.name)
        || short_otp_key(s.text.get(..s.key_start).unwrap_or(""), s.value)
        || pattern_or_words(s)
        || muttrc_command(s)
        || radius_hash_attribute(s.name)
        || jose_header_alone(s.value)
        || is_challenge_token(s.text, s.key_start, s.after, s.name)
}

/// A JOSE header alone (`jose_header`): base64url, `eyJ` (`{"`) first, 512 characters at
/// most, its whole groups of four decoded by `der_key`'s reader.
fn jose_header_alone(v: &str) -> bool {
    let mut json = [0u8; 384];
    let n = v.len() / 4 * 3;
    v.starts_with("eyJ")
        && v.len() <= 512
        && v.bytes().all(is_b64url)
        && json.get_mut(..n).is_some_and(|out| decode_head(v.as_bytes(), 0, out).is_some())
        && json.get(..n).is_some_and(is_jose_header)
}

/// FreeRADIUS's password attributes named by their hash (rlm_pap: `SSHA-Password`,
/// `NT-Password`, `Crypt-Password`, …): a hash of the password, where only
/// `Cleartext-Password` holds it.
fn radius_hash_attribute(name: &str) -> bool {
    // The hash's name, alone or with its size (`SHA2-512`, `SSHA2-256`): not `Shared-`.
    let named = |h: &str, p: &str| {
        let sized = |r: &str| r.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        h.strip_prefix(p).is_some_and(|r| r.is_empty() || sized(r))
    };
    name.strip_suffix("-password").is_some_and(|h| {
        ["ssha", "smd5", "sha", "pbkdf2", "crypt", "md5", "nt", "lm", "ns-mta-md5"]
            .iter()
            .any(|p| named(h, p))
    })
}

/// muttrc(5)'s command substitution: a `set` whose value is in backticks runs the command
/// and takes its output (`set imap_pass=\`pass show mail\``), the way its manual keeps a
/// password out of the file.
fn muttrc_command(s: &Seen) -> bool {
    s.quote == Some(b'`') && line_before(s.text, s.key_start).trim_start().starts_with("set ")
}

/// A filler by its pattern (`yyyyy`, an encoding's alphabet), prose where a value stands (a
/// docstring's field, an instruction, `Bearer token`), a value spelling its key's name, and
/// values whose words say they are the wrong one, a test's or a numbered sample's (found in
/// the beyond set, [15]'s seventh round).
fn pattern_or_words(s: &Seen) -> bool {
    let v = s.value;
    one_letter_repeated(v)
        || is_alphabet(v)
        || field_list(line_before(s.text, s.key_start))
        || scheme_and_word(v)
        || instruction(v)
        || spells_its_key(v, s.name)
        || says_it_is_wrong(v)
        || names_a_test(v)
        || mine_numbered(v)
        || npm_auth_setting(v)
        || is_uref(v)
        || qualifies_its_key(v, s.name)
        || (s.password && numbered_pair(v, s.text.get(..s.key_start).unwrap_or("")))
}

/// ocserv's `auth = "plain[passwd=/etc/ocserv/passwd]"`, `"radius[config=…,groupconfig=true]"`,
/// `"pam[gid-min=1000]"`: an authentication method and its options, each a path, a number or
/// a switch; a credential among them (`plain[pass=…]`) is no option of this shape.
fn method_with_options(v: &str) -> bool {
    let Some((method, options)) = v.split_once('[') else {
        return false;
    };
    let word = |w: &str| !w.is_empty() && w.bytes().all(|c| c.is_ascii_lowercase() || c == b'-');
    word(method)
        && options.strip_suffix(']').is_some_and(|options| {
            options.split(',').all(|option| {
                option.split_once('=').is_some_and(|(name, value)| {
                    word(name)
                        && (first_of(value, b"/.")
                            || (!value.is_empty() && value.bytes().all(|c| c.is_ascii_digit()))
                            || ["true", "false", "yes", "no"].contains(&value))
                })
            })
        })
}

/// A name holding the word for what it stands for (`some_password`, `oauth2_secret`,
/// `PGPpassword`, `db_passwd`, `newpassword`) or the form it is kept in
/// (`StronglyEncryptedHash`), a password named as its user is (`explicit_user` /
/// `explicit_pass`), or a prompt (`"ssword"`, `password=ask`): see `naming`.
fn names_what_it_is(s: &Seen) -> bool {
    names_its_credential(s.value)
        || names_its_form(s.value)
        || (s.password
            && (is_prompt(s.value)
                || named_as_its_user(s.value, s.text.get(..s.after).unwrap_or(""))))
}

/// An element that is none: `forward<NullaryToken>(token))</tt>` (a type's argument in
/// prose: the element that closes is another), `"<password>".concat(x, "</password>")` (the
/// tags are strings in code).
fn markup_elsewhere(s: &Seen) -> bool {
    if s.sep != Separator::Markup || s.key_quoted {
        return false;
    }
    let b = s.text.as_bytes();
    let Some(open) = b
        .get(..s.key_start)
        .and_then(|h| h.iter().rposition(|c| *c == b'<'))
    else {
        return false;
    };
    let element = b.get(open + 1..).map_or(&[][..], |t| {
        let len = t
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || b"_-:.".contains(c))
            .count();
        t.get(..len).unwrap_or(&[])
    });
    let closes = b.get(s.after..).is_some_and(|t| {
        t.get(2..2 + element.len())
            .is_some_and(|name| t.starts_with(b"</") && name.eq_ignore_ascii_case(element))
    });
    let in_string = s.quote.is_some() && open > 0 && b.get(open - 1) == s.quote.as_ref();
    !closes || in_string
}

/// `Test2::Event::Pass`, `Linker::accesskey(…)`: a name in a path of code; `imap://;AUTH=…`:
/// a URL's mechanism (RFC 5092); `{|val| options["passwd"]=val}`: a block's parameter.
fn no_key(s: &Seen) -> bool {
    let head = s.text.get(..s.key_start).unwrap_or("");
    let path = head
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
        .ends_with("::");
    let mechanism = head.ends_with(';') && s.name == "auth";
    let line = line_before(s.text, s.key_start);
    let v = s.value;
    let bound = s.quote.is_none()
        && !v.is_empty()
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && line.as_bytes().windows(v.len() + 2).any(|w| {
            w.get(1..=v.len()) == Some(v.as_bytes())
                && w.first().is_some_and(|c| b"|( ".contains(c))
                && w.last().is_some_and(|c| b"|),".contains(c))
        });
    // `clientToken="token123"`: AWS's idempotency handle (Vault's `client_token` is none).
    let handle = head.ends_with("lient")
        && s.text
            .get(s.key_start..)
            .is_some_and(|t| t.starts_with("Token"));
    // `Credential=AKID/20150830/us-east-1/service/aws4_request`: a signature's scope.
    // Google's is `…%2Fgoog4_request`.
    let scope = v.ends_with("4_request");
    // `alias pwd="pwd -W"`, `passwd root`: the command the key names.
    let command = v
        .split_once(' ')
        .is_some_and(|(first, _)| s.name.rsplit(' ').next() == Some(first));
    path || mechanism || bound || command || handle || scope
}

/// Code around the value: `state->secret`, `"MFA token: " + s`, `"?token=" + t`,
/// `'.$accesskey.'`, `array('password', '_caution' => …)`, `"Name:%s"`, `'#^[a-z0-9]+$#i'`,
/// `"{$row->user_password}"`, a type after `:` (`apiKey: SensitiveString2048;`), and in
/// prose a word after a flag (`--password options.`).
fn code_around(s: &Seen) -> bool {
    let v = s.value;
    let rest = s.text.get(s.after..).unwrap_or("");
    let next = rest.trim_start_matches([' ', '\t']);
    let arrow = v.ends_with('-') && rest.starts_with('>');
    let quoted = s.quote.is_some();
    let concatenated = quoted
        && ((first_of(v, b"+.") && (any_of(v, b" (){},") || v.ends_with('+')))
            || v.starts_with("'.")
            || v.starts_with("\".")
            || v.ends_with(".'")
            || v.ends_with(".\""));
    let prefix = quoted && next.starts_with('+') && last_of(v, b"=:/?&. -_");
    // `array('password', '_caution' => …)`: the next key; `.set('Credentials', 's3_host',
    // v)`: the option a setting call names, the value is the third argument.
    let next_key = quoted
        && (next.starts_with("=>") || (s.sep == Separator::Argument && next.starts_with(',')));
    // `KEY=projects/${ID}/…`: a shell expansion cut the value short.
    let expanded = v.ends_with('$') && rest.starts_with('{');
    // A format string (`"Name:%s"`), a pattern (`'#^[a-z0-9+/-]+$#i'`, `qr/^SELECT/i`),
    // interpolation (`{$row->pw}`, `#{pw}`), a name built from a pattern's groups
    // (`keyword.$0`), a JMESPath (`Shards[-1].ShardId`).
    #[rustfmt::skip]
    const MARKERS: &[&str] = &[
        "%s", "%d", "%(", "{0}", "{}", "%v", "[a-z", "[A-Z", "[0-9", "[^", "\\d", "\\w", "\\s",
        "(?:", ".*", "{$", "#{", ".$", "-$", "].",
    ];
    let code = v.starts_with("qr/")
        || (v.starts_with('^') && v.ends_with('$'))
        || MARKERS.iter().any(|m| v.contains(m));
    // `DATA_API_KEY = '.data-api'`: an event namespace or a selector;
    // `~azure.core.credentials.TokenCredential` (Sphinx): a reference to code.
    let selector = v.strip_prefix('.').is_some_and(is_name)
        || v.strip_prefix('~')
            .is_some_and(|p| p.split('.').all(|w| is_name(w) || is_type_name(w)));
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let type_after_colon = s.sep == Separator::Sign(":")
        && !quoted
        && v.bytes().all(ident)
        && v.bytes()
            .any(|c| c.is_ascii_uppercase() || c == b'_' || c == b'$')
        && (first_of(next, b";|&")
            || next.starts_with("[]")
            // `credentials: HTTPBasicCredentials = Depends(security)`
            || (is_type_name(v) && first_of(next, b"=),")));
    let prose_word = s.sep == Separator::Blank
        && last_of(v, b".,")
        && v.trim_end_matches(['.', ','])
            .bytes()
            .all(|c| c.is_ascii_lowercase());
    arrow
        || concatenated
        || prefix
        || next_key
        || expanded
        || code
        || selector
        || type_after_colon
        || prose_word
}

/// An address where a password stands: anonymous FTP's convention is the user's e-mail
/// (`password: apache-proxy@`, `-anonymous@`, `login anonymous password user@site`);
/// OpenSSL's `-password pass:foo` with a filler after `pass:`.
fn address(s: &Seen) -> bool {
    let v = s.value;
    let email = v.split_once('@').is_some_and(|(local, domain)| {
        let local = local.trim_start_matches('-');
        let plain = |p: &str| {
            p.bytes()
                .all(|c| c.is_ascii_lowercase() || b".-".contains(&c))
        };
        local.len() >= 3 && plain(local) && plain(domain) && !domain.contains('@')
    });
    let anonymous = s.password
        && (v.contains("anonymous") || line_before(s.text, s.key_start).contains("anonymous"));
    let openssl = v.strip_prefix("pass:").is_some_and(is_placeholder);
    // `credential: "sa@project.iam.gserviceaccount.com"`: an account, not its secret.
    let account = !s.password
        && v.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.contains('@')
        });
    // `"burnToken": "0xaf88…5831"`: an Ethereum account's or contract's address, the last 20
    // bytes of a key's Keccak-256 hash in hex (the Yellow Paper's §4.1; EIP-55 checksums it
    // in letter case), never a private key's 32. Not under a name that says secret:
    // hCaptcha's secret key is `0x` and 40 hex digits too (`let secret = "0x1234…"`), and so
    // is an SNMPv3 key localized with SHA-1 (snmpkey(1p): Net::SNMP's `-authkey`).
    let secret = s.password || ["secret", "priv", "authkey"].iter().any(|w| s.name.contains(w));
    let ethereum = !secret
        && v.strip_prefix("0x")
            .is_some_and(|h| h.len() == 40 && h.bytes().all(|c| c.is_ascii_hexdigit()));
    (s.password && email) || anonymous || openssl || account || ethereum
}

#[cfg(test)]
mod tests {
    use super::super::naming::{
        is_prompt, named_as_its_user, names_its_credential, names_its_form,
    };
    use super::super::not_secret::{is_constant, is_identifier_words, is_version};
    use super::super::redact_counted;
    use super::method_with_options;
    use super::super::naming::qualifies_its_key;
    use super::super::reference::{is_uref, npm_auth_setting};
    use super::super::slot::{numbered_pair, qualified_pair, url_slots};
    use super::super::filler::{is_alphabet, one_letter_repeated};
    use super::super::prose::{instruction, scheme_and_word};
    use super::super::stand_in::{
        mine_numbered, names_a_test, placeholder_in_capitals, says_it_is_a_stand_in,
        says_it_is_wrong,
    };

    /// `pattern_or_words`' guards of the value alone, asked of generated values beside the others
    /// (the second half's with the context that lets them read: a `password` key, a user's
    /// slot beside the value).
    fn value_pattern_or_words(v: &str) -> bool {
        npm_auth_setting(v)
            || is_uref(v)
            || qualifies_its_key(v, "password")
            || numbered_pair(v, "username=username7&")
            || url_slots("username", v)
            || url_slots("username7", v)
            || one_letter_repeated(v)
            || is_alphabet(v)
            || scheme_and_word(v)
            || instruction(v)
            || says_it_is_wrong(v)
            || names_a_test(v)
            || mine_numbered(v)
            || qualified_pair("app_user", v)
            || super::jose_header_alone(v)
    }

    /// Random tokens of letters and digits: a quoted one is always redacted, under a secret's
    /// key or a password's (the guards above cost no generated credential), almost none reads
    /// as a name of words with numbers, a constant or a version (those guards apply to
    /// unquoted values and `key`s), and none as a name holding a credential's word.
    #[test]
    fn random_tokens_are_no_names() {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        let (mut named, mut naming) = (0, 0);
        for i in 0..20000 {
            let len = 16 + (i % 25);
            let mut token: String = (0..len)
                .map(|_| char::from(ALPHABET[(next() % ALPHABET.len() as u64) as usize]))
                .collect();
            // A digit, so that no token is a name of letters alone (`is_name`'s, as before).
            token.push('7');
            if is_identifier_words(&token) || is_constant(&token, true) || is_version(&token) {
                named += 1;
            }
            if names_its_credential(&token)
                || says_it_is_a_stand_in(&token)
                || value_pattern_or_words(&token)
            {
                naming += 1;
            }
            for line in [
                format!("api_secret = \"{token}\""),
                format!("db_password = \"{token}\""),
            ] {
                assert_eq!(redact_counted(&line).1, 1, "{line}");
            }
        }
        // `cargo test --lib redact::lookalike -- --nocapture` prints the figures.
        println!("of 20000 random tokens: {named} read as names, {naming} as naming a credential");
        assert!(named < 20, "{named} of 20000 random tokens read as names");
        assert_eq!(
            naming, 0,
            "{naming} of 20000 random tokens read as naming a credential"
        );
    }

    /// Real-shaped passwords the second half's guards could mistake: a short qualifier before
    /// random text (`db_X9fk2Lq`), random text with a password's punctuation
    /// (`k[3=/x,Q`), and passphrases of capitalised words (`KobaRetimaLu`). None reads as a
    /// stand-in, a form, a prompt, a user's twin or a method's options, and the first and
    /// last stay redacted quoted under a password's key.
    #[test]
    fn real_shaped_passwords_are_no_stand_ins() {
        const BASE62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        const PUNCTUATED: &[u8] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.[]=/,!@#$%";
        const CONSONANTS: &[u8] = b"bdfgklmnprstvz";
        const VOWELS: &[u8] = b"aeiou";
        let mut rng = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        let mut next = move |n: usize| (rng() % n as u64) as usize;
        let mut pick = |set: &[u8], n: usize| -> String {
            (0..n).map(|_| char::from(set[next(set.len())])).collect()
        };
        let (mut read, mut redacted, mut punctuated) = (0, 0, 0);
        for i in 0..20000 {
            let qualified = format!(
                "{}_{}7",
                pick(CONSONANTS, 1 + i % 2),
                pick(BASE62, 6 + i % 15)
            );
            let phrase: String = (0..2 + i % 3)
                .map(|_| {
                    let word = pick(CONSONANTS, 1).to_ascii_uppercase() + &pick(VOWELS, 1);
                    (0..1 + i % 3).fold(word, |w, _| w + &pick(CONSONANTS, 1) + &pick(VOWELS, 1))
                })
                .collect();
            let marked = pick(PUNCTUATED, 8 + i % 25);
            for v in [&qualified, &phrase, &marked] {
                let head = format!("Auth(\"{}_user\", \"{v}", v.split('_').next().unwrap_or(""));
                if names_its_credential(v)
                    || names_its_form(v)
                    || is_prompt(v)
                    || named_as_its_user(v, &head)
                    || method_with_options(v)
                    || says_it_is_a_stand_in(v)
                    || placeholder_in_capitals(v)
                    || value_pattern_or_words(v)
                {
                    read += 1;
                }
            }
            for v in [&qualified, &phrase] {
                for line in [
                    format!("password = \"{v}\""),
                    format!("\"passwd\": \"{v}\","),
                ] {
                    assert_eq!(redact_counted(&line).1, 1, "{line}");
                    redacted += 1;
                }
            }
            punctuated += redact_counted(&format!("password = \"{marked}\"")).1;
        }
        // `cargo test --lib redact::lookalike -- --nocapture` prints the figures.
        println!(
            "of 60000 real-shaped passwords: {read} read by the second half's guards; \
             {redacted} of 80000 qualified and phrase lines redacted; {punctuated} of 20000 \
             punctuated ones (other guards judge punctuation: `$`, `%`, `{{`)"
        );
        assert_eq!(read, 0, "{read} real-shaped passwords read as look-alikes");
    }

    /// The beyond set's look-alikes (promoted in the seventh round), one line of each, and
    /// what stands beside each class and stays a secret.
    #[test]
    fn patterns_and_words_that_are_no_credential_stay() {
        for s in [
            "\\&      <password>yyyyy</password>",
            "    proxy_password=\"proxy_password\",",
            "        key_password=\"keyfile_password\"",
            "    assert parse_auth('Bearer token').authtype == 'Bearer'",
            "            \"/basic-auth/treq/treq\", auth=(\"not-treq\", \"not-treq\")",
            "            networkString(\"http://wrong:info@127.0.0.1:%d/\" % (self.port,)),",
            "                    \"burnToken\": \"0xaf88d065e77c8cC2239327C5EDb3A432268e5831\",",
            "    :param api_key: TronGRID API Key in str, or list of str.",
            "    :param jw_token: TronGRID JWT Credentials in str.",
            "        WITH LOGIN SUPERUSER\n        PASSWORD 'auth_change_test'",
            "  password: 'mysecret2'",
            "  password: 'put your password here'",
            "const _keyStr = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';",
        ] {
            assert_eq!(redact_counted(s).1, 0, "{s}");
        }
        for s in [
            "<password>abcdefgh</password>",
            "key_password=\"keyfile_Passw0rd\"",
            "parse_auth('Bearer mF_9.B5f-4.1JqM')",
            "auth=(\"treq\", \"nothing-to-hide\")",
            "\"privateKey\": \"0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318\"",
            "api_key: 7Fq2LmZx9RtV3Kp8",
            "PASSWORD 'correct_horse_staple'",
            "it(\"connects with a password\", () => {\n  c.password = \"asfafwerwrwsdfsfd\";",
            "  password: 'mysecret123'",
            "  password: 'all of your base'",
            "client_secret=\"0123456789012345678901234567890123456789\"",
        ] {
            assert_eq!(redact_counted(s).1, 1, "{s}");
        }
    }

    #[test]
    fn a_method_and_its_options_are_no_credential() {
        for s in [
            "auth = \"plain[passwd=/etc/ocserv/passwd]\"",
            "auth = \"radius[config=/etc/radiusclient/radiusclient.conf,groupconfig=true]\"",
            "auth = \"pam[gid-min=1000]\"",
        ] {
            assert_eq!(redact_counted(s).1, 0, "{s}");
        }
        for s in [
            "auth = \"plain[pass=hunter2]\"",
            "auth = \"plain[passwd=swordfish]\"",
            "password = \"x[a=b]Kq8zLmvw\"",
            "password = \"pass[word]\"",
        ] {
            assert_eq!(redact_counted(s).1, 1, "{s}");
        }
    }

    /// SNMPv3 localized keys (snmpkey(1p): Net::SNMP's `-authkey`, `-privkey`, `0x` and a
    /// digest's hex, SHA-1's 40 as an address is long), made up; an address stays.
    #[test]
    fn snmp_localized_keys_are_no_addresses() {
        for (text, secret) in [
            ("  -authkey => '0x7e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b',", "7e1f2a3b4c5d"),
            ("    privkey=>'0x0b1c2d3e4f5061728394a5b6c7d8e9f0'", "0b1c2d3e4f50"),
        ] {
            assert!(!redact_counted(text).0.contains(secret), "{text}");
        }
        let address = "\"burnToken\": \"0x7e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b\"";
        assert_eq!(redact_counted(address).1, 0);
    }

    #[test]
    fn phrases_holding_a_credential_word_stay_passphrases() {
        for s in [
            "psk=\"very secret passphrase\"",
            "password: \"Correct Horse Battery Staple\"",
            "secret: IamARADIUSsecRET",
            "DB_PASSWORD=mysupersecretpassword",
            "password = \"password1\"",
        ] {
            assert_eq!(redact_counted(s).1, 1, "{s}");
        }
    }
}
