//! Passwords in positional fields of services' own lines and commands, each read from its
//! manual (issue [15], eighth round): the field a line's grammar gives the password, where
//! no key names it. One table, one reader: a row is the literal that opens the fields,
//! which field is the password, how many fields the line may have, and what else the
//! line must show.
//!
//! * NUT's upsmon.conf(5): `MONITOR <system> <powervalue> <username> <password> <type>`.
//! * ProFTPD's mod_sql: `SQLConnectInfo <connection-info> <username> <password>`.
//! * net-snmp's snmpd.conf(5): `createUser <user> (MD5|SHA) <authpassphrase> [AES
//!   <privpassphrase>]`.
//! * Debian's interfaces(5) for wpa_supplicant (wpasupplicant's README): `wpa-psk <value>`.
//! * Cisco IOS's `password 7 <hex>` (and `key 7`, `key-string 7`): type 7 is a reversible
//!   Vigenère encoding of the password, not a hash (types 5, 8, 9 are, and their lines are no
//!   rows here); `password 0 <text>`, type 0 the text itself.
//! * IRC services (Atheme's and Anope's NickServ help): `/msg NickServ IDENTIFY [account]
//!   <password>`.
//! * Redis's `AUTH [username] <password>` at redis-cli's prompt (`127.0.0.1:6379>`).
//! * Oracle's `IDENTIFIED BY <password>` unquoted (its SQL Reference, CREATE USER; not `BY
//!   VALUES '<hash>'`: a word of capitals is a keyword).
//! * rabbitmqctl(8)'s `add_user|change_password <user> <password>`, mosquitto_passwd(1)'s
//!   `-b <file> <user> <password>`, wpa_passphrase(8)'s `<ssid> <passphrase>`.
//! * A client's `PASS` (FTP, POP3) and SMTP's `AUTH PLAIN` / `AUTH XOAUTH2` initial response
//!   in a session's transcript (`> PASS x` as `curl -v` prints it, an RFC's `C: PASS x`).
//!
//! Each reads at most a line's first 256 bytes from its trigger.

use super::hit::Hit;
use super::not_secret::{is_placeholder, names_itself};
use super::shape::{is_word, line_before};

/// The line opens with the row's literal (after blanks).
const OPENS: u8 = 1;
/// The password is hex (Cisco's type 7).
const HEX: u8 = 2;
/// The password is the line's last field.
const LAST: u8 = 4;

/// Rows: the literal, the password's field after it (or [`LAST`]), the most fields, flags.
const ROWS: &[(&str, u8, u8, u8)] = &[
    ("MONITOR ", 3, 5, OPENS),
    ("SQLConnectInfo ", 2, 3, OPENS),
    ("createUser ", 2, 5, OPENS),
    ("wpa-psk ", 0, 1, OPENS),
    ("password 7 ", 0, 1, HEX),
    ("key 7 ", 0, 1, HEX),
    ("key-string 7 ", 0, 1, HEX),
    ("password 0 ", 0, 1, 0),
    ("NickServ IDENTIFY ", 0, 2, LAST),
    ("nickserv identify ", 0, 2, LAST),
    ("6379> AUTH ", 0, 2, LAST),
    ("IDENTIFIED BY ", 0, 9, 0),
    ("rabbitmqctl add_user ", 1, 2, 0),
    ("rabbitmqctl change_password ", 1, 2, 0),
    ("mosquitto_passwd -b ", 2, 3, 0),
    ("wpa_passphrase ", 1, 2, 0),
    // A client's command in a session's transcript (`curl -v`'s `> `, an RFC's `C: `): FTP's
    // and POP3's `PASS` (RFC 959 §4.1.1, RFC 1939 §7), SMTP's `AUTH PLAIN` initial response
    // (RFC 4954 §4, RFC 4616: base64 of the user and the password) and `AUTH XOAUTH2`'s,
    // which carries a bearer token.
    ("> PASS ", 0, 1, OPENS),
    ("C: PASS ", 0, 1, OPENS),
    ("AUTH PLAIN ", 0, 1, 0),
    ("AUTH XOAUTH2 ", 0, 1, 0),
];

/// The rows' literals, as the rule's triggers (in the rows' order).
pub(crate) const SERVICE_FIELDS: &[&str] = &{
    let mut all = [""; ROWS.len()];
    let mut i = 0;
    while i < ROWS.len() {
        all[i] = ROWS[i].0;
        i += 1;
    }
    all
};

/// The blank-separated words of the line from `at`, within 256 bytes, up to a shell
/// operator or a comment (`|`, `&`, `;`, `>`, `#`).
pub(crate) fn line_words(b: &[u8], mut at: usize) -> Vec<(usize, usize)> {
    let stop = (at + 256).min(b.len());
    let mut out = Vec::new();
    while at < stop {
        match b.get(at) {
            Some(b' ' | b'\t') => at += 1,
            Some(b'\n' | b'\r' | b'|' | b'&' | b';' | b'>' | b'#') | None => break,
            Some(_) => {
                let s = at;
                while at < stop && b.get(at).is_some_and(|c| !c.is_ascii_whitespace()) {
                    at += 1;
                }
                out.push((s, at));
            }
        }
    }
    out
}

/// Reads the password field of the row whose literal is at `pos`.
pub(crate) fn service_field(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let &(literal, field, most, flags) = ROWS
        .iter()
        .find(|r| b.get(pos..pos + r.0.len()) == Some(r.0.as_bytes()))?;
    let w = line_words(b, pos + literal.len());
    let n = w.len();
    let k = if flags & LAST != 0 {
        n.checked_sub(1)?
    } else {
        usize::from(field)
    };
    let (s, e) = *w.get(k)?;
    // Its quotes off, and SQL's `;` after it.
    let e = e - usize::from(b.get(e - 1) == Some(&b';'));
    let q = usize::from(e > s + 1 && matches!(b.get(s), Some(b'"' | b'\'')));
    let (s, e) = (s + q, e - q);
    let v = text.get(s..e)?;
    let head = line_before(text, pos);
    let opens = head.bytes().all(|c| c == b' ' || c == b'\t');
    // Cisco's type 7: hex pairs after a two-digit decimal salt index.
    let hex = v.len() >= 4
        && v.len() % 2 == 0
        && v.bytes().all(|c| c.is_ascii_hexdigit())
        && v.bytes().take(2).all(|c| c.is_ascii_digit());
    let ok = n <= usize::from(most)
        && (flags & OPENS == 0 || opens)
        && (flags & HEX == 0 || hex)
        // Redis's prompt is `host:6379>`; every other literal is a word.
        && (literal.starts_with('6') || !head.bytes().last().is_some_and(is_word))
        && v.len() >= 4
        && !v.bytes().all(|c| c.is_ascii_uppercase())
        && !is_placeholder(v)
        && !names_itself(v)
        && !v.starts_with('$');
    ok.then_some(Hit::span(s, e, "password-assignment"))
}

#[cfg(test)]
mod tests {
    use crate::redact::redact;

    #[test]
    fn positional_passwords_go_and_their_neighbours_stay() {
        for (text, gone, kept) in [
            (
                "MONITOR ups@host 1 monuser Kq7rTz2pX primary",
                "Kq7rTz2pX",
                "monuser",
            ),
            (
                "SQLConnectInfo ftp@db proftpd Zx9pLm2Qw",
                "Zx9pLm2Qw",
                "proftpd",
            ),
            (
                "createUser u SHA \"Ad7fGh2Jk9\" AES \"Pr5tYu8Io3\"",
                "Ad7fGh2Jk9",
                "SHA",
            ),
            ("    wpa-psk Ty6uIo9Pa", "Ty6uIo9Pa", "wpa-psk"),
            (
                " username u password 7 0822455D0A16",
                "0822455D0A16",
                "password 7",
            ),
            ("enable password 0 Bry4nt", "Bry4nt", "enable"),
            ("/msg NickServ IDENTIFY acct Qw3rTy7Ui", "Qw3rTy7Ui", "acct"),
            (
                "127.0.0.1:6379> AUTH default Nb6mVc3Xz",
                "Nb6mVc3Xz",
                "default",
            ),
            (
                "CREATE USER sidney IDENTIFIED BY out_standing1 DEFAULT",
                "out_standing1",
                "BY ",
            ),
            (
                "ALTER USER sidney IDENTIFIED BY second_2nd;",
                "second_2nd",
                ";",
            ),
            (
                "sudo rabbitmqctl add_user alice Gh7jKl2Mn",
                "Gh7jKl2Mn",
                "alice",
            ),
            (
                "mosquitto_passwd -b /etc/m/passwd alice Gh7jKl2Mn",
                "Gh7jKl2Mn",
                "alice",
            ),
            ("wpa_passphrase myssid Gh7jKl2Mn", "Gh7jKl2Mn", "myssid"),
            ("> USER alice\n> PASS Hj3kLp9Qz", "Hj3kLp9Qz", "> PASS "),
            (
                "-> AUTH PLAIN AGFsaWNlAEhqM2tMcDlReg==",
                "AGFsaWNl",
                "AUTH PLAIN ",
            ),
        ] {
            let out = redact(text);
            assert!(!out.contains(gone) && out.contains(kept), "{text} -> {out}");
        }
        for text in [
            "MONITOR ups@host 1 monuser",
            "# MONITOR ups@host 1 monuser pass primary",
            "enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
            "the password 7 characters",
            "/msg NickServ HELP IDENTIFY",
            "127.0.0.1:6379> AUTH",
            "ALTER USER u IDENTIFIED BY VALUES 'S:8F2D'",
            "rabbitmqctl add_user alice",
            "mosquitto_passwd -c /etc/m/passwd alice",
            "wpa-psk-file /etc/psk",
            "PASS src/app.test.js",
            "> AUTH PLAIN =",
            "C: PASS secret",
        ] {
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn a_repeated_trigger_is_read_through() {
        let text = "MONITOR x 1 u p primary\npassword 7 \nNickServ IDENTIFY \n".repeat(4000);
        let _ = redact(&text);
    }
}
