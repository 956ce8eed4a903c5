//! Private key blocks (PEM, OpenSSH, PGP) and OpenVPN's static keys: `-----BEGIN … PRIVATE
//! KEY-----` (or `OpenVPN Static key V1`) through its END line, or to the end of its paragraph
//! when there is none. And PuTTY's key files (`.ppk`), whose private half has no armor: the
//! lines its `Private-Lines: N` header counts.

use super::hit::Hit;
use super::shape::{run_within, string_prefix};

/// The private key block whose `-----BEGIN` is at `pos`, if its body holds key material.
pub(crate) fn private_key_block(text: &str, pos: usize) -> Option<Hit> {
    let end = key_block_end(text, pos)?;
    // `MIIEvQIBADANBg...`, `jO1O1v2ftXMsawM90tnX..JZNUgYYw`: the body's run stopped at an
    // elision (base64, RFC 4648 §4, has no `.`: two of them are a manual's cut).
    let closed = text.get(..end).is_some_and(|b| b.ends_with("-----"));
    let elided = !closed
        && text
            .get(end..)
            .is_some_and(|t| t.starts_with("..") || t.starts_with('…'));
    (!elided && has_key_material(text.get(pos..end)?)).then_some(Hit::span(pos, end, "private-key"))
}

/// The private half of a PuTTY key file, whose `Private-Lines:` header is at `pos`: the PuTTY
/// manual's appendix on the PPK format writes it as `Private-Lines: N` and then N lines of
/// base64 (encrypted or not), the public half (`Public-Lines:`) before it and the MAC after.
pub(crate) fn putty_private_lines(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut i = pos + PUTTY_PRIVATE_LINES.len();
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    let mut lines = 0;
    while let Some(d) = b.get(i).filter(|c| c.is_ascii_digit() && lines < 1000) {
        lines = lines * 10 + usize::from(d - b'0');
        i += 1;
    }
    let (mut start, mut longest) = (None, 0);
    for _ in 0..lines {
        // Each line on a line of its own (a real or a JSON-escaped break), not after blanks.
        let j = one_separator(b, i)
            .filter(|j| b.get(i..*j).is_some_and(|t| t.iter().any(|c| b"\n\\".contains(c))))?;
        let run = b.get(j..).map_or(0, |t| {
            t.iter()
                .take_while(|c| c.is_ascii_alphanumeric() || b"+/=".contains(c))
                .count()
        });
        if run == 0 {
            return None;
        }
        start.get_or_insert(j);
        longest = longest.max(run);
        i = j + run;
    }
    // `Private-Lines: 14` and `...`: a manual's elision, not a key.
    let elided = b.get(i..).is_some_and(|t| t.starts_with(b"..."));
    (longest >= 20 && !elided).then_some(Hit::span(start?, i, "private-key"))
}

/// The header of a PuTTY key file's private half.
pub(crate) const PUTTY_PRIVATE_LINES: &str = "Private-Lines:";

/// The end of the private key block whose `-----BEGIN` is at `pos`: the
/// header line, armor headers (`Proc-Type: 4,ENCRYPTED`), base64 tokens one
/// separator apart (blank lines only before the first: PGP puts one there),
/// and the END line if it follows. Without an END line the block stops at a
/// blank line or at the first token that is not base64.
fn key_block_end(text: &str, pos: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = key_block_marker(b, pos, b"-----BEGIN")?;
    // Armor headers: `Name-Part: value` to the end of the line.
    while let Some(j) = one_separator(b, i) {
        let name = b.get(j..).map_or(0, |t| {
            t.iter()
                .take_while(|c| c.is_ascii_alphabetic() || **c == b'-')
                .count()
        });
        let starts_alpha = b.get(j).is_some_and(u8::is_ascii_alphabetic);
        if !(starts_alpha
            && b.get(j + name) == Some(&b':')
            && matches!(b.get(j + name + 1), Some(b' ' | b'\t')))
        {
            break;
        }
        i = j + name + 2;
        while b
            .get(i)
            .is_some_and(|c| !matches!(c, b'\r' | b'\n' | b'\\'))
        {
            i += 1;
        }
    }
    let base64_run = |at: usize| {
        b.get(at..).map_or(0, |t| {
            t.iter()
                .take_while(|c| c.is_ascii_alphanumeric() || b"+/=".contains(c))
                .count()
        })
    };
    let mut first = true;
    loop {
        let next = if first {
            separators(b, i)
        } else {
            one_separator(b, i)
        };
        let Some(j) = next else { break };
        let run = base64_run(j);
        if run == 0 {
            break;
        }
        i = j + run;
        first = false;
    }
    if let Some(end) = separators(b, i).and_then(|j| key_block_marker(b, j, b"-----END")) {
        i = end;
    }
    Some(i)
}

/// OpenVPN's shared secret (`openvpn --genkey`, `tls-auth`, `--secret`): hex lines between
/// these markers, as its manual documents.
const OPENVPN_STATIC_KEY: &[u8] = b" OpenVPN Static key V1-----";

/// `-----BEGIN` or `-----END`, then ` WORD`s ending in ` PRIVATE KEY` or
/// ` PRIVATE KEY BLOCK`, then `-----` (or OpenVPN's static key label); returns the offset
/// after it.
fn key_block_marker(b: &[u8], pos: usize, marker: &[u8]) -> Option<usize> {
    let at = pos + marker.len();
    if b.get(pos..at) != Some(marker) {
        return None;
    }
    if b.get(at..at + OPENVPN_STATIC_KEY.len()) == Some(OPENVPN_STATIC_KEY) {
        return Some(at + OPENVPN_STATIC_KEY.len());
    }
    let words = b
        .get(at..)?
        .iter()
        .take(64)
        .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || **c == b' ')
        .count();
    let mut label = b.get(at..at + words)?;
    // The blank before MultiversX's ` for <address>`.
    let owner = label.ends_with(b" ") && owner_suffix(b, at + words - 1) > 0;
    if owner {
        label = label.get(..words - 1)?;
    }
    let ok = label.first() == Some(&b' ')
        && (label.ends_with(b" PRIVATE KEY") || label.ends_with(b" PRIVATE KEY BLOCK"))
        && !label.windows(2).any(|w| w == b"  ");
    let words = label.len() + owner_suffix(b, at + label.len());
    let end = at + words + 5;
    (ok && b.get(at + words..end) == Some(b"-----")).then_some(end)
}

/// `-----BEGIN PRIVATE KEY for erd1…-----`: MultiversX's wallet PEM files (mxpy's `wallet
/// convert --out-format=pem`, its SDKs' `UserPem`) name the key's owner after the label, a
/// bech32 address (BIP-173: lower-case letters and digits, a prefix, `1` and data; 8 or more
/// read). The length of ` for <address>` at `at`, or 0.
fn owner_suffix(b: &[u8], at: usize) -> usize {
    let address = run_within(b, at + 5, 90, |c| c.is_ascii_lowercase() || c.is_ascii_digit());
    if b.get(at..at + 5) == Some(b" for ") && address >= at + 13 {
        address - at
    } else {
        0
    }
}

/// One separator inside a key block: blanks, or one line break (real, or
/// JSON-escaped `\n`) with blanks around it. Never a blank line.
fn one_separator(b: &[u8], i: usize) -> Option<usize> {
    let blanks = |mut at: usize| {
        while matches!(b.get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        at
    };
    let j = blanks(i);
    let line_break = match b.get(j) {
        Some(b'\n') => Some(j + 1),
        Some(b'\r') if b.get(j + 1) == Some(&b'\n') => Some(j + 2),
        Some(b'\\') => {
            // `\n` or `\r\n`, each with any number of backslashes.
            let escaped = |at: usize, letter: u8| {
                let slashes = b
                    .get(at..)
                    .map_or(0, |t| t.iter().take_while(|c| **c == b'\\').count());
                (slashes > 0 && b.get(at + slashes) == Some(&letter)).then_some(at + slashes + 1)
            };
            escaped(j, b'n')
                .or_else(|| escaped(j, b'r').and_then(|k| escaped(k, b'n')))
                .map(|k| literal_continuation(b, k))
        }
        _ => None,
    };
    match line_break {
        Some(k) => Some(blanks(k)),
        None => (j > i).then_some(j),
    }
}

/// After a `\n` written in a string literal, where the key's next line goes on in the
/// source code that holds it: past a Rust or C string continuation (a `\` ending the line:
/// the Rust reference's "string continuation escape"), or past the literal's closing quote,
/// a concatenation (`+` in JavaScript, Java and C#, `.` in PHP, or none: C's and Python's
/// adjacent literals; Python's explicit line joining, a `\` ending the line, reference §2.1.5),
/// one line break and the next literal's opening quote, after its prefix if it has one
/// (Python's `b'…'`, `r'…'`: reference §2.4.1) (node-rsa's README: `'-----BEGIN RSA
/// PRIVATE KEY-----\n' +` then `'MIIBOQ…\n' +`). Elsewhere `at`.
fn literal_continuation(b: &[u8], at: usize) -> usize {
    // A line break, real or escaped as the JSON of a transcript writes it (`\n`); a `\`
    // before a real one joins lines in Python.
    let line_break = |i: usize| match b.get(i) {
        Some(b'\n') => Some(i + 1),
        Some(b'\r') if b.get(i + 1) == Some(&b'\n') => Some(i + 2),
        Some(b'\\') if b.get(i + 1) == Some(&b'\n') => Some(i + 2),
        _ => {
            let slashes = b.get(i..)?.iter().take_while(|c| **c == b'\\').count();
            (slashes > 0 && b.get(i + slashes) == Some(&b'n')).then_some(i + slashes + 1)
        }
    };
    let blanks = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let quote_at = |i: usize| {
        let slashes = b.get(i..).map_or(0, |t| t.iter().take_while(|c| **c == b'\\').count());
        b.get(i + slashes)
            .filter(|c| matches!(c, b'"' | b'\'' | b'`'))
            .map(|q| (*q, i + slashes + 1))
    };
    if let Some((quote, after)) = quote_at(at) {
        let concatenation = |i: usize| match b.get(i) {
            Some(b'+' | b'.') => blanks(i + 1),
            _ => i,
        };
        let next = line_break(concatenation(blanks(after)))
            .map(|i| concatenation(blanks(i)))
            .and_then(|i| quote_at(i + string_prefix(b, i)));
        return match next {
            Some((q, i)) if q == quote => i,
            _ => at,
        };
    }
    if b.get(at) == Some(&b'\\') {
        return line_break(at + 1).map_or(at, blanks);
    }
    at
}

/// One or more separators (blank lines allowed).
fn separators(b: &[u8], i: usize) -> Option<usize> {
    let mut j = one_separator(b, i)?;
    while let Some(k) = one_separator(b, j) {
        j = k;
    }
    Some(j)
}

/// A key block's body must hold a real base64 run, not `...` or nothing.
/// An elided body (`MIIEvQIBADANBg...`, `…`) is documentation, however long its start.
fn has_key_material(block: &str) -> bool {
    let body = block.get(10..).unwrap_or("");
    let body = body
        .find("-----")
        .and_then(|i| body.get(i + 5..))
        .unwrap_or("");
    if body.contains("...") || body.contains('…') {
        return false;
    }
    let mut run = 0;
    for c in body.bytes() {
        if c.is_ascii_alphanumeric() || c == b'+' || c == b'/' {
            run += 1;
            if run >= 20 {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::super::redact;

    #[test]
    fn a_key_written_as_string_literals_in_code_goes_whole() {
        let body = "MIIEpAIBAAKCAQEA6Z5Qqhw+oWfhtEiMHE32Ht94mwTBpAfjt3vPpX8M7DMCTwHs";
        // JavaScript's `+`, Rust's string continuation, C's adjacent literals, PHP's `.`.
        for (text, left) in [
            (format!("key: '-----BEGIN RSA PRIVATE KEY-----\\n' +\n    '{body}\\n' +\n    '1xcXvQ4lQ3rwreDTOWdoJeEEy7gMxXqH0jw0WfBx\\n' +\n    '-----END RSA PRIVATE KEY-----\\n',\nnext"), "key: '[REDACTED:private-key]\\n',\nnext"),
            (format!("const K: &str = \"-----BEGIN PRIVATE KEY-----\\n\\\n        {body}\\n\\\n        -----END PRIVATE KEY-----\";"), "const K: &str = \"[REDACTED:private-key]\";"),
            (format!("\"-----BEGIN EC PRIVATE KEY-----\\n\"\n\"{body}\\n\"\n;"), "\"[REDACTED:private-key]\\n\"\n;"),
            (format!("$k = '-----BEGIN PRIVATE KEY-----\\n' .\n  '{body}';"), "$k = '[REDACTED:private-key]';"),
            // Python's prefixed literals (`b'…'`) and explicit line joining (`"…"\`).
            (format!("k = (\n    b'-----BEGIN RSA PRIVATE KEY-----\\n'\n    b'{body}\\n'\n)"), "k = (\n    b'[REDACTED:private-key]\\n'\n)"),
            (format!("k = str(\n    \"-----BEGIN RSA PRIVATE KEY-----\\n\"\\\n    \"{body}\\n\"\\\n)"), "k = str(\n    \"[REDACTED:private-key]\\n\"\\\n)"),
            // The same, JSON-escaped in a transcript's line.
            (format!("\"key: '-----BEGIN RSA PRIVATE KEY-----\\\\n' +\\n    '{body}\\\\n' +\\n\""), "\"key: '[REDACTED:private-key]\\\\n' +\\n\""),
        ] {
            assert_eq!(redact(&text), left, "{text}");
        }
        // A certificate's lines so written stay, and a literal that is not the key's stays
        // (a certificate's own DER: a private key's, `MIIEpAIBAAK…`, is read alone, `der_key`).
        let body = "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ";
        let cert = format!("'-----BEGIN CERTIFICATE-----\\n' +\n  '{body}\\n' +");
        assert_eq!(redact(&cert), cert);
        let cert = format!("b'-----BEGIN CERTIFICATE-----\\n'\nb'{body}\\n'");
        assert_eq!(redact(&cert), cert);
        let after = format!("'-----BEGIN PRIVATE KEY-----\\n' +\n  '{body}\\n';\nlet x = 1;");
        assert_eq!(redact(&after), "'[REDACTED:private-key]\\n';\nlet x = 1;");
    }

    #[test]
    fn a_putty_key_files_private_lines_go_its_public_ones_stay() {
        let ppk = "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: test\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQABAAAAgQC7\nPrivate-Lines: 2\npU3KGCUwux1tEyze1iN7LtkeP3IfyxlxF0SU1kk8nVw0YL4xIB5p/tqg7ui5mX9c\nfCmZ/a/lkyU81lSvTfrXFCegrrP+6SMvivIhH57kkcWxC+y1Vjv8Hm+TQn7LyP4p\nPrivate-MAC: 0123abcd";
        assert_eq!(
            redact(ppk),
            "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nComment: test\nPublic-Lines: 1\nAAAAB3NzaC1yc2EAAAADAQABAAAAgQC7\nPrivate-Lines: 2\n[REDACTED:private-key]\nPrivate-MAC: 0123abcd"
        );
        let escaped = "\"Private-Lines: 1\\nVeXNjkbcjtS3wnZNKlpNdncG+F2GkAJK1r2jQBvpyMvMyTX2zR9hImrhUziuGjQA\\n\"";
        assert_eq!(redact(escaped), "\"Private-Lines: 1\\n[REDACTED:private-key]\\n\"");
        for manual in [
            "Private-Lines: 14\nAAAA...",
            "Private-Lines: 2\nshort\n",
            "the header Private-Lines: then the key",
        ] {
            assert_eq!(redact(manual), manual);
        }
    }

    /// MultiversX's wallet PEM: the label names the owner's bech32 address after ` for `.
    #[test]
    fn a_multiversx_pem_with_its_owner_goes_whole() {
        let owner = "erd1qyu5wthldzr8wx5c9ucg8kjagg0jfs53s8nr3zpz3hypefsdd8ssycr6th";
        let body = "NDEzZjQyNTc1ZjdmMjZmYWQzMzE3YTc3ODc3MTIxMmZkYjgwMjQ1ODUwOTgxZTQ4\nMWYyNGMyOTE4MWU2Mzg4ODIyOGRjODFjYTYwZDY5ZTE=";
        let pem = format!("-----BEGIN PRIVATE KEY for {owner}-----\n{body}\n-----END PRIVATE KEY for {owner}-----");
        assert_eq!(redact(&pem), "[REDACTED:private-key]");
        for kept in [
            pem.replace("PRIVATE", "PUBLIC"),
            format!("The file opens with -----BEGIN PRIVATE KEY for {owner}----- and the key."),
            pem.replace(" for erd1", " for ERD1"),
            format!("-----BEGIN PRIVATE KEY for x1-----\n{body}"),
        ] {
            assert_eq!(redact(&kept), kept);
        }
        let long = format!("-----BEGIN PRIVATE KEY for {owner}").repeat(3_000);
        assert_eq!(redact(&long), long);
    }

    /// A manual's key whose lines are cut by `..` in the middle (base64 has no `.`) is no
    /// key; a key whose line merely ends in `.` of prose after its END line is.
    #[test]
    fn a_key_cut_by_two_dots_is_a_manuals() {
        let cut = "-----BEGIN RSA PRIVATE KEY-----\njO1O1v2ftXMsawM90tnXwc6xhOAT1gDBC9S8DKeca..JZNUgYYwNS0dP2UK\ntmyN+XqVcAKw4HqVmChXy5b5msu8eIq3uc2NqNVtR..2ksSLukP8pxXcHyb";
        assert_eq!(redact(cut), cut);
        let whole = "-----BEGIN RSA PRIVATE KEY-----\njO1O1v2ftXMsawM90tnXwc6xhOAT1gDBC9S8DKecaJZNUgYYwNS0dP2UK\n-----END RSA PRIVATE KEY-----..";
        assert_eq!(redact(whole), "[REDACTED:private-key]..");
    }
}
