//! The scanners, one per kind of identifier: byte loops, linear in the text even for one huge
//! line, that skip what cannot start anything (see the module docs of [`crate::audit`]).

mod branches;
mod bytes;
mod errors;
mod paths;
mod quotes;
mod shas;
mod urls;
mod words;

pub(crate) use bytes::{find_bytes, is_word_byte};
pub(crate) use errors::scan_errors;
pub(crate) use paths::{listed_path, Place};
pub(crate) use shas::{scan_shas, SHA_MIN};
pub(crate) use words::scan_words;

use super::mention::Mentions;
use crate::text::strip_ansi;
use std::borrow::Cow;
use quotes::scan_quotes;

pub(crate) const MAX_IDENT_BYTES: usize = 300;

/// What a text is scanned for, by where it came from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scan {
    /// Error lines: not in file bodies and search listings, where `error:` is code.
    pub(crate) errors: bool,
    /// Quoted terms: the person's only; quotes in tool output are code.
    pub(crate) quotes: bool,
    /// Prose (the person's or the assistant's words), where "git checkout failed" names no
    /// branch: a `git` command there yields only a name no word could be (`fix-1`) or a usual
    /// trunk (`main`).
    pub(crate) prose: bool,
}

/// Past this size a text with colour codes is scanned as it is, codes and all: the check
/// that each identifier is verbatim in it would cost its length per identifier. Only the
/// person's or the assistant's own text can be that long (the history keeps 12,000 units of a
/// tool's output), and an identifier a code touches is then simply not found.
const VERIFIED_BYTES: usize = 64 * 1024;

pub(crate) fn scan_text(found: &mut Mentions, s: &str, scan: Scan) {
    if s.is_empty() {
        return;
    }
    let stripped = strip_ansi(s);
    let Cow::Owned(plain) = &stripped else {
        scan_plain(found, s, scan);
        return;
    };
    if s.len() > VERIFIED_BYTES {
        scan_plain(found, s, scan);
        return;
    }
    // The history keeps the codes: an identifier they cut through (`ESC[1merrorESC[0m:`) would
    // be listed as text nobody can find.
    let gated = found.only_within(s);
    scan_plain(found, plain, scan);
    if gated {
        found.any_text();
    }
}

fn scan_plain(found: &mut Mentions, s: &str, scan: Scan) {
    if scan.errors {
        scan_errors(found, s);
    }
    scan_shas(found, s);
    scan_words(found, s, scan.prose);
    if scan.quotes {
        scan_quotes(found, s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Kind;

    /// The skipping scanners at the edges of their windows: a text that is one
    /// commit or one marker, cues at the very start and end, a cue split from its word.
    #[test]
    fn scanners_at_text_edges() {
        let scan = |t: &str| {
            let mut m = Mentions::default();
            scan_text(&mut m, t, Scan { errors: true, quotes: true, prose: true });
            let mut all: Vec<(Kind, String)> = m.ranked().into_iter().map(|x| (x.kind, x.text)).collect();
            all.sort();
            all
        };
        let one = |k: Kind, t: &str| vec![(k, t.to_owned())];
        assert_eq!(scan("a1b2c3d"), one(Kind::Sha, "a1b2c3d"));
        assert_eq!(scan("x a1b2c3d"), one(Kind::Sha, "a1b2c3d"));
        assert_eq!(scan("a1b2c3"), vec![]);
        assert_eq!(scan("dead6ee f00d 0123456789abcdef0123456789abcdef012345678"), one(Kind::Sha, "dead6ee"));
        assert_eq!(scan("ERROR!"), one(Kind::Error, "ERROR!"));
        assert_eq!(scan("ERROR"), vec![]);
        assert_eq!(scan("fatal: bad"), one(Kind::Error, "fatal: bad"));
        assert_eq!(scan("ok\nno fatal: here\n  fatal: there"), one(Kind::Error, "fatal: there"));
        assert_eq!(scan("/srv/b"), one(Kind::Path, "/srv/b"));
        assert_eq!(scan("git"), vec![]);
        assert_eq!(scan("prose digit git-free (git switch feat-9)"), one(Kind::Branch, "feat-9"));
        // In prose a `git` command names only what no word could be, or a trunk.
        assert_eq!(scan("the git checkout failed, so git switch main"), one(Kind::Branch, "main"));
        assert_eq!(scan("git\ncheckout feat-9"), vec![]);
        assert_eq!(scan("the Branch rel_2 and branches v2/x"), vec![(Kind::Branch, "rel_2".to_owned()), (Kind::Branch, "v2/x".to_owned())]);
        assert_eq!(scan("\u{1b}[1mgit\u{1b}[0m checkout fix-1 \u{201c}a b\u{201d}"), vec![(Kind::Branch, "fix-1".to_owned()), (Kind::Quoted, "a b".to_owned())]);
    }
}
