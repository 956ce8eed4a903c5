//! What a block of configuration says about the password in it: a statement of a block
//! grammar ended by `;` (vtund.conf(5)'s `passwd <password>;` inside a host's `name { … }`
//! section; named.conf(5), dhcpd.conf(5) and nginx write every statement so: a keyword,
//! blanks, one value, `;`), and the user a block names before its password in INI's
//! `name = value` (weex's `.weexrc`: `LoginName = gm` then `Password = gmkun`), as a
//! directive block's `login daniel` does (`directive::user_line_above`). Only the syntax
//! is read here; whether the value is a password stays `generic`'s judgement.

/// The names such a statement's password goes by: the whole name, or its end after a
/// qualifier (`auth-password`). Not `pass`, the end of nginx's `proxy_pass`, `fastcgi_pass`,
/// whose values are addresses.
const STATEMENT_WORDS: &[&str] = &["password", "passwd", "passphrase"];

/// How far back a statement's block may open: lines, and bytes in all.
const BLOCK_LINES: usize = 64;
const BLOCK_BYTES: usize = 4096;

/// Is the key whose name runs `name_start..name_end` a password statement of a block
/// grammar: blanks, one bare value, `;` ending the line (a `#` comment may follow), inside a
/// block a `{` above opens and no `}` has closed? The caller checks that the name opens its
/// line. Where the value ends: at its `;`.
pub(crate) fn block_statement(text: &str, name_start: usize, name_end: usize) -> Option<usize> {
    let b = text.as_bytes();
    let named = text.get(name_start..name_end).is_some_and(|n| {
        let n = n.to_ascii_lowercase();
        STATEMENT_WORDS.iter().any(|w| n.ends_with(w))
    });
    if !named {
        return None;
    }
    let rest = b.get(name_end..).unwrap_or(&[]);
    let blanks = rest
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    let value = rest
        .get(blanks..)
        .unwrap_or(&[])
        .iter()
        .take_while(|c| !c.is_ascii_whitespace() && !matches!(c, b';' | b'"' | b'\''))
        .count();
    let semi = blanks + value;
    if blanks == 0 || value == 0 || rest.get(semi) != Some(&b';') {
        return None;
    }
    let after = rest.get(semi + 1..).unwrap_or(&[]);
    let gap = after
        .iter()
        .take_while(|c| matches!(c, b' ' | b'\t'))
        .count();
    let line_ends = match after.get(gap) {
        None | Some(b'\n' | b'\r') => true,
        Some(b'#') => gap > 0,
        _ => false,
    };
    (line_ends && inside_block(text, name_start)).then_some(name_end + semi)
}

/// Does an unclosed `{` open the block the line at `line_at` sits in? Read back line by
/// line (comments after `#` left out), counting the blocks closed on the way.
fn inside_block(text: &str, line_at: usize) -> bool {
    let mut from = line_at.saturating_sub(BLOCK_BYTES);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let head = text.get(from..line_at).unwrap_or("");
    let head = head.rsplit_once('\n').map_or("", |(above, _)| above);
    let mut closed = 0usize;
    for line in head.lines().rev().take(BLOCK_LINES) {
        let code = line.split('#').next().unwrap_or("");
        for c in code.bytes().rev() {
            match c {
                b'}' => closed += 1,
                b'{' if closed == 0 => return true,
                b'{' => closed -= 1,
                _ => {}
            }
        }
    }
    false
}

/// The name and value of an INI setting (`LoginName = gm`, `user=gm`), the `=` spaced or
/// not: the line's one `=`, a name of one word before it, a value of one word after it.
pub(crate) fn ini_setting(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once('=')?;
    let (name, value) = (name.trim(), value.trim());
    let word = |w: &str| !w.is_empty() && !w.contains(char::is_whitespace);
    (word(name) && word(value) && !value.starts_with('=')).then_some((name, value))
}

/// Is `v` a name as code writes one, in snake_case or camelCase (`form_value`, `pwdValue`)?
/// After `password =`, code assigns a variable; an INI file's password is a word.
pub(crate) fn names_code(v: &str) -> bool {
    let b = v.as_bytes();
    v.contains('_')
        || b.windows(2).any(
            |w| matches!(w, [low, high] if low.is_ascii_lowercase() && high.is_ascii_uppercase()),
        )
}

#[cfg(test)]
mod tests {
    use super::super::redact_counted;
    use super::*;

    fn red(text: &str) -> String {
        redact_counted(text).0.into_owned()
    }

    /// vtund.conf(5)'s host sections; weex's `.weexrc` sections.
    #[test]
    fn a_blocks_password_statement_and_an_ini_password_after_its_user() {
        for (text, gone) in [
            ("cobra {\n  passwd  Ma&^TU;\t# Password\n}", "Ma&^TU"),
            ("viper {\t\n  type tun;\n  passwd  TTT$bio;\n}", "TTT$bio"),
            (
                "[deodeo]\nHostName\t= www.enjoy.ne.jp\nLoginName\t= gm\nPassword\t= gmkun",
                "gmkun",
            ),
            (
                "[nifty]\nLoginName\t= gm\n#Password\t= nifgm\t\t# if not specified",
                "nifgm",
            ),
            ("[mirror]\nUser = deploy\nPassword = hollyhock", "hollyhock"),
        ] {
            assert!(!red(text).contains(gone), "{text}");
        }
        for text in [
            "passwd  Ma&^TU;",
            "cobra {\n  passwd  password;\n}",
            "location / {\n  fastcgi_pass 127.0.0.1:9000;\n}",
            "location / {\n  proxy_pass backend;\n}",
            "[deodeo]\nLoginName\t= gm\nPassword\t= prompt",
            "[deodeo]\nHostName\t= www.enjoy.ne.jp\nPassword\t= gmkun",
            "username = request.user\npassword = request.form",
            "username = user\npassword = form_value",
            "login = args.login\npassword = pwdValue",
            "user:\n  name: bob\npassword: hunter",
        ] {
            assert_eq!(redact_counted(text).1, 0, "{text}");
        }
    }

    fn statement(text: &str) -> bool {
        let at = text
            .find("passwd")
            .or_else(|| text.find("password"))
            .unwrap_or(0);
        let end = at + text[at..].find([' ', '\t']).unwrap_or(0);
        let start = text[..at].rfind(['\n', ' ']).map_or(0, |i| i + 1);
        block_statement(text, start, end).is_some()
    }

    #[test]
    fn a_password_statement_of_a_block_grammar() {
        assert!(statement("cobra {\n  passwd  Ma&^TU;\t# Password\n}"));
        assert!(statement(
            "host {\n  type tun;\n  up { ifconfig \"x\"; };\n  passwd k3y;\n"
        ));
        assert!(statement("a {\n  auth-password s3cr;"));
        // Outside a block, without its `;`, with more than one value, or under another name.
        assert!(!statement("passwd  Ma&^TU;\n"));
        assert!(!statement("a { }\npasswd  Ma&^TU;"));
        assert!(!statement("cobra {\n  passwd  Ma&^TU\n"));
        assert!(!statement("cobra {\n  passwd alice bob;\n"));
        assert!(!statement("cobra {\n  passwd x; y\n"));
        assert!(!statement("cobra {\n  passwd \"x\";\n"));
        let nginx = "location / {\n  fastcgi_pass 127.0.0.1:9000;\n";
        let at = nginx.find("fastcgi").unwrap_or(0);
        assert_eq!(block_statement(nginx, at, at + "fastcgi_pass".len()), None);
    }

    #[test]
    fn an_ini_setting_is_one_word_each_side_of_its_sign() {
        assert_eq!(ini_setting("LoginName\t= gm"), Some(("LoginName", "gm")));
        assert_eq!(ini_setting("user=gm"), Some(("user", "gm")));
        assert_eq!(ini_setting("user = get_user(a, b)"), None);
        assert_eq!(ini_setting("user == gm"), None);
        assert_eq!(ini_setting("the user = gm"), None);
        assert_eq!(ini_setting("user ="), None);
    }
}
