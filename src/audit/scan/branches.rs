//! Branch names: what a `git` command names, `origin/…`, and distinctive names after the
//! word "branch" in prose.

use super::bytes::find_bytes;
use super::paths::{as_path_in, Place};
use super::shas::looks_like_sha;

pub(crate) fn is_branch_word(w: &str) -> bool {
    matches!(w, "branch" | "Branch" | "branches")
}

/// Where a `git` command is, word by word, on one line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Git {
    Idle,
    /// After `git`; `-C dir` and `-c k=v` take one more word.
    Started { skip_next: bool },
    /// After a subcommand that names a branch; `remote` when a remote comes first.
    Command { remote: bool },
}

impl Git {
    /// Feeds one (trimmed) word; returns the branch it names, if any.
    pub(crate) fn feed<'a>(&mut self, w: &'a str) -> Option<&'a str> {
        if w == "&&" || w == "||" || w == ";" || w == "|" {
            *self = Git::Idle;
            return None;
        }
        match *self {
            Git::Idle => {
                if w == "git" {
                    *self = Git::Started { skip_next: false };
                }
                None
            }
            Git::Started { skip_next: true } => {
                *self = Git::Started { skip_next: false };
                None
            }
            Git::Started { skip_next: false } => {
                *self = match w {
                    "checkout" | "switch" | "branch" | "merge" | "rebase" => Git::Command { remote: false },
                    "push" | "pull" | "fetch" => Git::Command { remote: true },
                    "-C" | "-c" => Git::Started { skip_next: true },
                    _ if w.starts_with('-') => Git::Started { skip_next: false },
                    _ => Git::Idle,
                };
                None
            }
            Git::Command { remote } => {
                if w == "--" {
                    *self = Git::Idle;
                    return None;
                }
                if w.starts_with('-') {
                    return None;
                }
                if remote {
                    *self = Git::Command { remote: false };
                    return None;
                }
                *self = Git::Idle;
                // `origin/x` is read by the `origin/` rule; a refspec names its target.
                if w.starts_with("origin/") {
                    return None;
                }
                Some(w.rsplit_once(':').map_or(w, |(_, to)| to))
            }
        }
    }
}

pub(crate) fn after_origin(w: &str) -> Option<&str> {
    let at = find_bytes(w.as_bytes(), b"origin/")?;
    let before_ok = at == 0 || w.as_bytes().get(at - 1) == Some(&b'/');
    before_ok.then(|| w.get(at + "origin/".len()..)).flatten()
}

/// A ref name as git allows it, and not something else a command may name.
pub(crate) fn is_branch_name(n: &str) -> bool {
    let Some(first) = n.bytes().next() else { return false };
    (2..=100).contains(&n.len())
        && first.is_ascii_alphanumeric()
        && n.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/'))
        && !n.contains("..")
        && !n.ends_with(['/', '.'])
        && !n.ends_with(".lock")
        && n != "HEAD"
        && !looks_like_sha(n)
        && as_path_in(n, Place::File).is_none()
}

/// The branches most repositories have, which a `git` command in prose may name.
pub(crate) fn is_trunk(w: &str) -> bool {
    matches!(w, "main" | "master" | "develop" | "development" | "dev" | "trunk" | "staging" | "production" | "release")
}

/// After the word "branch" in prose only names that cannot be an ordinary word.
pub(crate) fn distinctive_branch(w: &str) -> bool {
    w.bytes().any(|b| matches!(b, b'-' | b'/' | b'_') || b.is_ascii_digit())
}
