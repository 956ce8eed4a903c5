//! The key handed to oathtool(1) on its command line: `oathtool [OPTIONS]... KEY [OTP]`, the
//! KEY in hex, or in base32 after `-b`/`--base32` (where "the tool ignores whitespace in
//! base32 data", so a key is often written in groups: `--totp "gr6d 5br7 25s6 vnck"`). Read
//! as its manual gives the options: those taking a value (`-c`, `-d`, `-w`, `-s`, `-S`,
//! `-N` and their long names) take the next word unless it is attached; `--totp[=MODE]`
//! takes none. A man page's `\-` is roff's hyphen. The KEY must be 16 characters or more
//! (64 bits; the manual's own examples are RFC 4226's 20-byte key), hex or base32 as the
//! options say.

use super::hit::Hit;

/// The command's name; its options and KEY follow on the line.
pub(crate) const OATHTOOL: &[&str] = &["oathtool"];

/// Options that take the next word as their value when none is attached.
const VALUED: &[&str] = &[
    "-c", "-d", "-w", "-s", "-S", "-N", "--counter", "--digits", "--window",
    "--time-step-size", "--start-time", "--now",
];

/// The KEY of the `oathtool` command at `pos`.
pub(crate) fn oathtool_key(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut i = pos + "oathtool".len();
    let (mut base32, mut skip_next) = (false, false);
    loop {
        while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
            i += 1;
        }
        let c = *b.get(i)?;
        if c == b'\n' || c == b'\r' || c == b'|' || c == b';' {
            return None;
        }
        if matches!(c, b'"' | b'\'') {
            let len = b.get(i + 1..)?.iter().take(256).position(|q| *q == c)?;
            let (start, end) = (i + 1, i + 1 + len);
            if skip_next {
                skip_next = false;
                i = end + 1;
                continue;
            }
            return judged(b, start, end, base32);
        }
        let len = b
            .get(i..)?
            .iter()
            .take(256)
            .take_while(|c| !c.is_ascii_whitespace() && !b"|;\"'".contains(c))
            .count();
        let (start, end) = (i, i + len);
        let word = b.get(start..end)?;
        i = end;
        if skip_next {
            skip_next = false;
        } else if word.iter().find(|c| **c != b'\\') == Some(&b'-') {
            let name_len = word.iter().position(|c| *c == b'=').unwrap_or(word.len());
            let name = word.get(..name_len)?;
            base32 |= is_option(name, "-b") || is_option(name, "--base32");
            skip_next = name_len == word.len() && VALUED.iter().any(|o| is_option(name, o));
        } else {
            return judged(b, start, end, base32);
        }
    }
}

/// Is `name` the option `option`, a man page's `\-` read as `-`?
fn is_option(name: &[u8], option: &str) -> bool {
    name.iter().filter(|c| **c != b'\\').eq(option.as_bytes())
}

/// The KEY at `start..end` if it is one: 16 characters or more, hex or (after `--base32`)
/// base32 with blanks between groups.
fn judged(b: &[u8], start: usize, end: usize, base32: bool) -> Option<Hit> {
    let key = b.get(start..end)?;
    let chars = key.iter().filter(|c| **c != b' ').count();
    let alphabet = |c: &u8| {
        if base32 {
            c.is_ascii_alphabetic() || (b'2'..=b'7').contains(c) || *c == b' ' || *c == b'='
        } else {
            c.is_ascii_hexdigit()
        }
    };
    (chars >= 16 && key.iter().all(alphabet)).then_some(Hit::span(start, end, "secret-assignment"))
}

#[cfg(test)]
mod tests {
    use super::super::redact;

    #[test]
    fn oathtools_key_goes_its_options_stay() {
        for (text, left) in [
            (
                "   $ oathtool \\-\\-base32 \\-\\-totp \"gr6d 5br7 25s6 vnck v4vl hlao re\"",
                "   $ oathtool \\-\\-base32 \\-\\-totp \"[REDACTED:secret-assignment]\"",
            ),
            (
                "$ oathtool --totp -d 8 -v 3132333435363738393031323334353637383930",
                "$ oathtool --totp -d 8 -v [REDACTED:secret-assignment]",
            ),
            (
                "oathtool -b --totp=sha256 --now \"2008-04-23 17:42:17 UTC\" JBSWY3DPEHPK3PXP 123456",
                "oathtool -b --totp=sha256 --now \"2008-04-23 17:42:17 UTC\" [REDACTED:secret-assignment] 123456",
            ),
        ] {
            assert_eq!(redact(text), left, "{text}");
        }
        for kept in [
            "$ oathtool 00",
            "oathtool --totp \"gr6d 5br7 25s6 vnck\"",
            "oathtool --base32 --totp $SECRET",
            "the oathtool command reads KEY from its arguments",
            "oathtool --help",
        ] {
            assert_eq!(redact(kept), kept, "{kept}");
        }
    }
}
