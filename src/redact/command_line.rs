//! Passwords on a command line: `curl -u user:pass` (and `wget`, `http`), `mysql -p<password>`
//! glued as the MySQL clients take it (and 7-Zip's `-p<password>`), `sshpass -p <password>`,
//! `docker login -p <password>` (and the other registry and cloud logins), `mongosh -p
//! <password>`, and the flags each client's manual gives its password: `redis-cli -a`,
//! OpenLDAP's `ldapsearch -w`, SQL Server's `sqlcmd -P`, macOS's `security
//! add-generic-password -w`, IPMI's `ipmitool -P` and FreeIPMI's `ipmi-sensors -p`, Info-ZIP's
//! `zip -P`, Samba's `smbclient -U user%password`; the positional password of `htpasswd -b
//! file user password` and Windows' `net user name password`; and what `echo` pipes into a
//! command that reads its password from standard input (`docker login --password-stdin`,
//! `chpasswd`, `gh auth login --with-token`). The command on the line decides: `ssh -p 2222`,
//! `docker run -p 80:80`, `mkdir -p`, `-pthread`, `grep -w`, `scp -P 2222` and `docker run -u
//! 1000:1000` stay.

use super::hit::Hit;
use super::not_secret::{is_placeholder, names_itself};
use super::shape::{blanks, chars_until, line_before, lit, lit_ci, quoted, run};

/// The password of `curl -u user:pass`: `(?:-u|--user)(?:[ \t]+|=)["']?`
/// `[A-Za-z0-9._%+@-]*:(?P<s>[^\s'"\[]+)`, on the line of an HTTP client.
pub(crate) fn curl_user(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"-u").or_else(|| lit(b, pos, b"--user"))?;
    let j = blanks(b, i);
    let i = if j > i { j } else { lit(b, i, b"=")? };
    let i = i + usize::from(matches!(b.get(i), Some(b'"' | b'\'')));
    let i = run(b, i, |c| {
        c.is_ascii_alphanumeric() || b"._%+@-".contains(&c)
    });
    let s = lit(b, i, b":")?;
    let e = chars_until(text, s, |c| c.is_whitespace() || "'\"[".contains(c));
    if e <= s {
        return None;
    }
    let pass = text.get(s..e)?;
    let colon = s.checked_sub(1)?;
    let user = text
        .get(..colon)
        .and_then(|h| h.rsplit([' ', '\t', '=', '"', '\'']).next());
    let line = line_before(text, pos);
    let client = line.contains("curl") || line.contains("wget") || line.contains("http");
    // `docker run -u 1000:1000`, `-u www-data:www-data`: user and group.
    if !client
        || is_placeholder(pass)
        || pass.bytes().all(|c| c.is_ascii_digit())
        || user.is_some_and(|u| u == pass)
    {
        return None;
    }
    Some(Hit::span(s, e, "password-assignment"))
}

/// Clients that read a password glued to `-p` (`-p` alone prompts): MySQL's, 7-Zip.
#[rustfmt::skip]
const MYSQL_CLIENTS: &[&str] = &[
    "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlpump",
    "mariadb", "mariadb-dump", "mariadb-admin",
    // 7-Zip's switches are glued too: `7z a -pSecret archive.7z`.
    "7z", "7za", "7zr",
];

/// MongoDB's shell and tools: `-p <password>` (`-p` alone prompts).
#[rustfmt::skip]
const MONGO_CLIENTS: &[&str] = &[
    "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat",
    "mongotop", "mongofiles",
];

/// Commands whose `-p <password>` logs in to a registry (their documentation warns of it).
#[rustfmt::skip]
const REGISTRY_LOGINS: &[&str] = &[
    "docker login", "podman login", "buildah login", "nerdctl login", "skopeo login",
    "helm registry login", "oras login",
    // And the cloud CLIs' logins: Azure's service principal, OpenShift, Cloud Foundry.
    "az login", "oc login", "cf login",
];

/// Clients whose manual gives a flag and a blank before the password, and that flag.
#[rustfmt::skip]
const CLIENT_FLAGS: &[(&str, &[&str])] = &[
    ("-a", &["redis-cli"]),
    ("-w", &[
        "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldappasswd",
        "ldapcompare", "ldapmodrdn", "ldapexop",
    ]),
    ("-P", &["sqlcmd", "bcp", "osql"]),
    ("-w", &["security"]),
    // IPMI: ipmitool's `-P`, FreeIPMI's `-p` (their manuals: "Remote session password").
    ("-P", &["ipmitool"]),
    ("-p", &[
        "ipmi-sensors", "ipmi-sel", "ipmi-raw", "ipmi-pet", "ipmi-fru", "ipmi-dcmi",
        "ipmi-chassis", "ipmi-config", "ipmi-oem", "ipmiconsole", "ipmipower", "bmc-info",
        "bmc-device", "ipmimonitoring", "ipmi-sensors-config", "ipmi-pef-config",
    ]),
    // Info-ZIP's `-P password` encrypts or decrypts entries.
    ("-P", &["zip", "unzip", "zipcloak", "funzip"]),
];

/// The commands on `line`, as words without a path (`/usr/bin/ldapsearch`).
fn commands(line: &str) -> impl Iterator<Item = &str> {
    line.split_whitespace().map(|w| {
        let w = w.trim_start_matches(['(', '`', '"', '\'']);
        w.rsplit('/').next().unwrap_or(w)
    })
}

/// The password after a client's flag and a blank: `redis-cli -a <password>`, `ldapsearch
/// -w <password>`, `sqlcmd -P <password>`, quoted or not.
pub(crate) fn client_password(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = pos + 2;
    if !matches!(b.get(i), Some(b' ' | b'\t')) {
        return None;
    }
    let line = line_before(text, pos);
    let flag = b.get(pos..i)?;
    // The client of this command: `… -w $(… | base64 -w 0)` gives `-w` to base64. Cut only
    // once a client is on the line: this is asked of every `-p` in every transcript.
    let client = |clients: &[&str]| {
        clients.iter().any(|c| line.contains(c)) && {
            let command = line.rsplit(['|', ';', '(', '`']).next().unwrap_or("");
            commands(command).any(|w| clients.contains(&w))
        }
    };
    if !CLIENT_FLAGS
        .iter()
        .any(|(f, clients)| f.as_bytes() == flag && client(clients))
    {
        return None;
    }
    let (s, e) = word_at(text, blanks(b, i))?;
    let pass = text.get(s..e)?;
    // `security find-generic-password -w -s svc`: `-w` alone asks to print it. A manual's
    // `-p mypassword` names what it stands for.
    (!is_placeholder(pass) && !pass.starts_with('-') && !names_itself(pass))
        .then_some(Hit::span(s, e, "password-assignment"))
}

/// The word at `at`, quoted (without its quotes) or up to a blank or a shell operator.
fn word_at(text: &str, at: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    match b.get(at) {
        Some(b'"' | b'\'') => quoted(b, at, 512).filter(|(s, e)| e > s),
        _ => {
            let e = chars_until(text, at, |c| c.is_whitespace() || "'\";|&)`<>".contains(c));
            (e > at).then_some((at, e))
        }
    }
}

/// Samba's clients: `-U user%password` (and `--user=`).
const SAMBA_CLIENTS: &[&str] = &["smbclient", "rpcclient", "smbcacls", "smbget", "smbmap", "net"];

/// The password of Samba's `-U [DOMAIN\\]user%password`.
pub(crate) fn samba_user(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"-U").or_else(|| lit(b, pos, b"--user="))?;
    let line = line_before(text, pos);
    if !SAMBA_CLIENTS.iter().any(|c| line.contains(c))
        || !commands(line).any(|w| SAMBA_CLIENTS.contains(&w))
    {
        return None;
    }
    let (s, e) = word_at(text, blanks(b, i))?;
    let user = text.get(s..e)?;
    let cut = user.find('%')?;
    let pass = user.get(cut + 1..)?;
    (!pass.is_empty() && !is_placeholder(pass)).then_some(Hit::span(s + cut + 1, e, "password-assignment"))
}

/// Commands that read a password (or `user:password` lines) from their standard input.
const STDIN_READERS: &[&str] = &["--password-stdin", "chpasswd", "--with-token"];

/// `echo '<password>' | docker login --password-stdin`, `echo 'user:<password>' | chpasswd`,
/// `echo <token> | gh auth login --with-token`: the echoed word; `pos` is at the reader.
pub(crate) fn echoed_password(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let reader = STDIN_READERS.iter().find(|r| lit(b, pos, r.as_bytes()).is_some())?;
    let line = line_before(text, pos);
    let line_start = pos - line.len();
    let pipe = line.rfind('|')?;
    let echo = line.get(..pipe)?.rfind("echo ")?;
    let mut at = line_start + echo + "echo ".len();
    while let Some((s, e)) = word_at(text, blanks(b, at)) {
        let word = text.get(s..e)?;
        if !word.starts_with('-') {
            let (s, word) = match *reader {
                "chpasswd" => {
                    let cut = word.find(':')?;
                    (s + cut + 1, word.get(cut + 1..)?)
                }
                _ => (s, word),
            };
            // Nothing but blanks between the word and the pipe: one argument echoed.
            let rest = text.get(e..line_start + pipe)?;
            let closed = rest.trim_start_matches(['"', '\'']).trim().is_empty();
            return (closed && !word.is_empty() && !is_placeholder(word))
                .then_some(Hit::span(s, e, "password-assignment"));
        }
        at = e;
    }
    None
}

/// The positional password of `htpasswd -b[c] file user password` (`-nb user password`)
/// and of Windows' `net user name password`; `pos` is at the command.
pub(crate) fn positional_password(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let mut words = Vec::new();
    let (net, mut at) = match lit(b, pos, b"htpasswd") {
        Some(i) => (false, i),
        None => (true, lit_ci(b, pos, b"net user")?),
    };
    // The command's words up to the end of the command (a few are enough).
    while words.len() < 8 {
        let s = blanks(b, at);
        if s == at {
            break;
        }
        let Some((ws, we)) = word_at(text, s) else {
            break;
        };
        words.push((ws, we));
        at = we + usize::from(ws > s);
    }
    let word = |k: &(usize, usize)| text.get(k.0..k.1).unwrap_or("");
    let (flags, args): (Vec<_>, Vec<_>) = words.iter().partition(|w| word(w).starts_with('-'));
    let at = if net {
        // `net user name /add`, `net user name *` (it prompts): no password given.
        let pass = args.get(1)?;
        (!word(pass).starts_with('/') && word(pass) != "*").then_some(pass)?
    } else {
        // `-b`: the password is an argument; `-n`: no file, the hash is printed.
        let batch = flags.iter().any(|f| word(f).contains('b'));
        let no_file = flags.iter().any(|f| word(f).contains('n'));
        let pass = args.get(if no_file { 1 } else { 2 })?;
        batch.then_some(pass)?
    };
    (!is_placeholder(word(at))).then_some(Hit::span(at.0, at.1, "password-assignment"))
}

/// The password of `mysql … -p<password>` (glued, as the MySQL clients take it) or of
/// `sshpass -p <password>`, quoted or not.
pub(crate) fn cli_password(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"-p")?;
    let line = line_before(text, pos);
    let command = |w: &'_ str| {
        let w = w.trim_start_matches(['(', '`', '"', '\'']);
        w.rsplit('/').next().unwrap_or(w).to_string()
    };
    let glued = match b.get(i) {
        // sshpass's own flags may come between it and `-p`; `docker login -u me -p …`.
        Some(b' ' | b'\t') => {
            let last = line
                .split_whitespace()
                .rev()
                .find(|w| !w.starts_with('-'))?;
            let login = line.contains("login") && REGISTRY_LOGINS.iter().any(|l| line.contains(l));
            let mongo = || {
                line.contains("mongo") && commands(line).any(|w| MONGO_CLIENTS.contains(&w))
            };
            if command(last) != "sshpass" && !login && !mongo() {
                return None;
            }
            false
        }
        Some(_)
            if line
                .split_whitespace()
                .any(|w| MYSQL_CLIENTS.contains(&command(w).as_str())) =>
        {
            true
        }
        _ => return None,
    };
    let start = blanks(b, i);
    let (s, e) = match b.get(start) {
        Some(b'"' | b'\'') => quoted(b, start, 512).filter(|(s, e)| e > s)?,
        _ => {
            let e = chars_until(text, start, |c| c.is_whitespace() || "'\";|&)`".contains(c));
            (e > start).then_some((start, e))?
        }
    };
    // `-p3306:3306` on a `docker run --name mysql` line: a port mapping.
    let port = b
        .get(s..e)
        .is_some_and(|v| v.iter().all(|c| c.is_ascii_digit() || *c == b':'));
    let pass = text.get(s..e)?;
    if (glued && port) || is_placeholder(pass) {
        return None;
    }
    Some(Hit::span(s, e, "password-assignment"))
}

/// Does a command line end at `at`, or go on with another flag, a pipe, a list or a
/// redirection (blanks first)? Then the word before `at` was a flag's value, not prose.
pub(crate) fn command_goes_on(b: &[u8], at: usize) -> bool {
    let i = at
        + b.get(at..)
            .map_or(0, |t| t.iter().take_while(|c| **c == b' ' || **c == b'\t').count());
    matches!(
        b.get(i),
        None | Some(b'\n' | b'\r' | b'-' | b'\\' | b'|' | b';' | b'&' | b'>')
    )
}
