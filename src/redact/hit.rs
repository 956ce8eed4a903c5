//! What a rule reports and where it may start: the vocabulary the scan and every rule share.

/// A credential found at a scan position: the rule read up to `end` (where the scan resumes),
/// and `secret_start..secret_end` is the part replaced by `[REDACTED:<kind>]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) end: usize,
    pub(crate) secret_start: usize,
    pub(crate) secret_end: usize,
    pub(crate) kind: &'static str,
}

impl Hit {
    /// A hit whose replaced part is all it read.
    pub(crate) fn span(start: usize, end: usize, kind: &'static str) -> Hit {
        Hit {
            end,
            secret_start: start,
            secret_end: end,
            kind,
        }
    }
}

/// What must precede a trigger's literal for it to count as a start.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Boundary {
    /// Anything (the literal itself is distinctive: `-----BEGIN`, `://`).
    Any,
    /// Not an ASCII word byte, nor base64 text (`+`, a `/` inside a run): a token is not the
    /// tail of a longer word or blob (`task-sk-1`, an image's bytes).
    Word,
    /// A new name segment: not alphanumeric (so `DB_PASSWORD`, `x-api-key`
    /// count) or a camelCase hump (`dbPassword`); `bypass`, `compass` do not.
    /// An upper-case `PASSWORD` or `PASSWD` glued to an upper-case name counts
    /// too (`PGPASSWORD`, `MYSQLPASSWORD`): environment names run words together.
    Segment,
    /// A blank, a quote, `(` or the start of the text: a command-line flag
    /// (`-p` of `mysql -pS3cret`, not the `-p` inside `--password`).
    Flag,
    /// A quote: the name of a quoted member (`"d":` of a JSON Web Key), read from its first
    /// letter, since a trigger at the quote itself would stop the scan at every quote of a
    /// transcript's JSON.
    Quote,
}
