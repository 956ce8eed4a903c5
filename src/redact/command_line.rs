//! Passwords on a command line: `curl -u user:pass` (and `wget`, `http`), `mysql -p<password>`
//! glued as the MySQL clients take it, `sshpass -p <password>`, `docker login -p <password>`
//! (and the other registry logins), `redis-cli -a <password>`. The command on the line
//! decides: `ssh -p 2222`, `docker run -p 80:80`, `mkdir -p`, `-pthread` and `docker run -u
//! 1000:1000` stay.

use super::hit::Hit;
use super::not_secret::is_placeholder;
use super::pair::line_before;
use super::shape::{blanks, chars_until, lit, run};

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

/// MySQL clients read a password glued to `-p` (`-p` alone prompts).
#[rustfmt::skip]
const MYSQL_CLIENTS: &[&str] = &[
    "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlpump",
    "mariadb", "mariadb-dump", "mariadb-admin",
];

/// Commands whose `-p <password>` logs in to a registry (their documentation warns of it).
#[rustfmt::skip]
const REGISTRY_LOGINS: &[&str] = &[
    "docker login", "podman login", "buildah login", "nerdctl login", "skopeo login",
    "helm registry login", "oras login",
];

/// The password of `redis-cli … -a <password>`.
pub(crate) fn redis_password(text: &str, pos: usize) -> Option<Hit> {
    let b = text.as_bytes();
    let i = lit(b, pos, b"-a")?;
    if !matches!(b.get(i), Some(b' ' | b'\t')) || !line_before(text, pos).contains("redis-cli") {
        return None;
    }
    let s = blanks(b, i);
    let e = chars_until(text, s, |c| c.is_whitespace() || "'\";|&)`".contains(c));
    let pass = text.get(s..e)?;
    (e > s && !is_placeholder(pass)).then_some(Hit::span(s, e, "password-assignment"))
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
            let login = REGISTRY_LOGINS.iter().any(|l| line.contains(l));
            if command(last) != "sshpass" && !login {
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
        Some(q @ (b'"' | b'\'')) => {
            let s = start + 1;
            let len = b
                .get(s..)?
                .iter()
                .take(512)
                .position(|c| c == q || *c == b'\n')?;
            (len > 0 && b.get(s + len) == Some(q)).then_some((s, s + len))?
        }
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
