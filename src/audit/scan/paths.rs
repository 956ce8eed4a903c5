//! Paths: which pieces of a word name a file or a directory.

use super::MAX_IDENT_BYTES;
use super::bytes::{class, PATH};

pub(crate) fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '~' | '@' | '+')
}

/// Where a piece of text was read, which decides whether a relative path without an extension
/// counts: in prose `and/or` is not a file, in a tool's `path` argument anything is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Words of a text: an extensionless relative path needs two slashes or a first component
    /// that is a common root (`bin/server`, `cmd/api`, `.github/workflows`).
    Prose,
    /// A tool's path argument (`file_path`, `path`, `notebook_path`).
    Argument,
    /// Only what cannot be anything but a file: absolute, `~/`, `./`, or with an extension. A
    /// branch named `feature/a/b` is not a path.
    File,
}

/// First components that name a project's own tree: `src/components`, `bin/server`.
const ROOTS: [&str; 22] = [
    "src", "bin", "cmd", "internal", "pkg", "lib", "crates", "packages", "apps", "app", "scripts", "target", "tests",
    "test", "docker", "deploy", "docs", "examples", "tools", "include", "build", "config",
];

/// The path a piece of a word names, if it names one: absolute (two components
/// or a file name), `~/…`, `./…`, `../…`, or relative with a slash and an
/// extension (or, without one, as [`Place`] allows). A `:line:col` suffix is
/// dropped: the file is the identifier.
pub(crate) fn as_path(piece: &str) -> Option<&str> {
    as_path_in(piece, Place::Prose)
}

pub(crate) fn as_path_in(piece: &str, place: Place) -> Option<&str> {
    let p = trim_end_ascii(piece, |c| matches!(c, b'.' | b',' | b':' | b';' | b'!' | b'?'));
    let p = trim_end_ascii(strip_line_suffix(p), |c| c == b'/');
    if p.len() < 3 || p.len() > MAX_IDENT_BYTES {
        return None;
    }
    // One pass: only path characters, no `//`, and where the last `/` is.
    let mut last_slash = None;
    let mut slashes = 0;
    let mut ascii = true;
    let mut prev = 0u8;
    for (i, &c) in p.as_bytes().iter().enumerate() {
        if c == b'/' {
            if prev == b'/' {
                return None;
            }
            last_slash = Some(i);
            slashes += 1;
        } else if c >= 0x80 {
            ascii = false;
        } else if class(c) & PATH == 0 {
            return None;
        }
        prev = c;
    }
    if !ascii && !p.chars().all(is_path_char) {
        return None;
    }
    let last = last_slash.map_or(p, |i| p.get(i + 1..).unwrap_or(""));
    let named = p.bytes().skip_while(|&c| matches!(c, b'.' | b'/' | b'~')).any(|b| b.is_ascii_alphanumeric());
    if !named || last.is_empty() || is_member(last) {
        return None;
    }
    if p.starts_with("~/") || p.starts_with("./") || p.starts_with("../") {
        return Some(p);
    }
    // `514M/1.42G`, `2024/01/02`, `v1.2/v1.3`: amounts and versions; `/r/a`: a literal.
    let components = || p.split('/').filter(|c| !c.is_empty());
    if components().all(is_amount) || components().all(|c| c.len() <= 2) {
        return None;
    }
    if let Some(abs) = p.strip_prefix('/') {
        let first = abs.chars().next()?;
        // No `//` and no trailing `/`: two components when a `/` follows the first.
        let components_2 = last_slash.is_some_and(|i| i > 0);
        let ok_start = first.is_alphanumeric() || matches!(first, '_' | '.' | '@');
        return (ok_start && (components_2 || has_extension(last))).then_some(p);
    }
    let first = p.chars().next()?;
    let ok_start = first.is_alphanumeric() || matches!(first, '_' | '@' | '.');
    let dir = p.get(..last_slash?)?;
    // `e.g./i.e` is prose: no directory name ends with a dot.
    let dotted_dir = || dir.split('/').any(|c| c.ends_with('.') && !c.trim_matches('.').is_empty());
    if !ok_start || dotted_dir() {
        return None;
    }
    if has_extension(last) {
        return Some(p);
    }
    let root = dir.split('/').next().unwrap_or("");
    // `s/old/new/g` is sed's, `TestX/with_y/z` a Go sub-test's name.
    if root == "s" || is_test_name(root) {
        return None;
    }
    let extensionless = match place {
        Place::Prose => is_root(root) || (slashes >= 2 && components().any(|c| is_root(c) || looks_named(c))),
        Place::Argument => true,
        Place::File => false,
    };
    extensionless.then_some(p)
}

/// `src`, `cmd`, `.github`: a folder a project's tree starts with.
fn is_root(c: &str) -> bool {
    let dot_dir = c.len() > 1 && c.starts_with('.') && c.as_bytes().get(1).is_some_and(u8::is_ascii_alphanumeric);
    dot_dir || ROOTS.contains(&c)
}

/// A component no word of prose has: `mise-tasks`, `quokka_42_engine`, `github.com`. Two
/// slashes alone are prose often enough (`attack/sustain/release`, `modified/new/deleted`).
fn looks_named(c: &str) -> bool {
    c.bytes().any(|b| matches!(b, b'.' | b'_' | b'-') || b.is_ascii_digit())
}

/// `TestParse`, `Test_parse`, `BenchmarkX`: a Go test, whose sub-tests print as `TestX/a/b`.
fn is_test_name(c: &str) -> bool {
    ["Test", "Benchmark", "Fuzz", "Example"].iter().any(|p| {
        c.strip_prefix(p).and_then(|r| r.bytes().next()).is_some_and(|b| b.is_ascii_uppercase() || b == b'_')
    })
}

/// The path a piece names as the audit lists it: git diff's `a/` and `b/` folded into the
/// path, and nothing under a device, proc or temp folder, a placeholder or a vendored tree.
pub(crate) fn listed_path(piece: &str, place: Place) -> Option<&str> {
    let p = as_path_in(piece, place)?;
    let p = match p.strip_prefix("a/").or_else(|| p.strip_prefix("b/")) {
        Some(rest) => as_path_in(rest, place)?,
        None => p,
    };
    (!stop_listed(p)).then_some(p)
}

/// Paths that are never the project's: devices, `/proc`, temp folders, placeholders, and the
/// trees package managers fill (a stack frame in `node_modules` names no file anyone edits).
fn stop_listed(p: &str) -> bool {
    const PREFIXES: [&str; 10] = [
        "/dev/", "/proc/", "/sys/", "/tmp/", "/private/tmp/", "/private/var/folders/", "/var/folders/", "/var/tmp/",
        "/path/to/", "/rustc/",
    ];
    const COMPONENTS: [&str; 6] = ["node_modules", "site-packages", "dist-packages", ".venv", "__pycache__", "bower_components"];
    const INSIDE: [&str; 4] = [".cargo/registry", ".cargo/git/", "go/pkg/mod/", ".rustup/toolchains/"];
    PREFIXES.iter().any(|x| p.starts_with(x))
        || p.starts_with("path/to/")
        || p.split('/').any(|c| COMPONENTS.contains(&c))
        || INSIDE.iter().any(|x| p.contains(x))
}

/// `Command` in `os/exec.Command`, `Strategy` in `pkg/strategy.Strategy`: a member of a
/// package, not a file's extension (those are lower case, or all upper: `.PL`, `.R`).
fn is_member(name: &str) -> bool {
    let Some((_, ext)) = name.rsplit_once('.') else { return false };
    ext.len() >= 4
        && ext.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && ext.bytes().any(|b| b.is_ascii_lowercase())
}

/// `514M`, `1.42G`, `2024`, `v1.2`, `3,5`: a number with at most a short unit.
fn is_amount(c: &str) -> bool {
    let b = c.as_bytes();
    let b = b.strip_prefix(b"v").unwrap_or(b);
    let unit = b.iter().rev().take_while(|x| x.is_ascii_alphabetic()).count();
    let digits = b.get(..b.len() - unit).unwrap_or(&[]);
    unit <= 3 && digits.first().is_some_and(u8::is_ascii_digit) && digits.iter().all(|&x| x.is_ascii_digit() || x == b'.' || x == b',')
}

/// `s.trim_end_matches(…)` for a set of ASCII characters, byte by byte: no
/// byte of a multi-byte character is ASCII, so the cut is a char boundary.
fn trim_end_ascii(s: &str, strip: impl Fn(u8) -> bool) -> &str {
    let keep = s.as_bytes().iter().rposition(|&c| !strip(c)).map_or(0, |p| p + 1);
    s.get(..keep).unwrap_or(s)
}

/// `name.ext` with a short extension holding a letter (`.rs`, `.d.ts`, `.env`),
/// so `1/2.5` and `v1.2/v1.3` are not files.
fn has_extension(name: &str) -> bool {
    let Some((_, ext)) = name.rsplit_once('.') else { return false };
    (1..=10).contains(&ext.len())
        && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        && ext.bytes().any(|b| b.is_ascii_alphabetic())
}

/// `src/main.rs:4:9` and grep's `src/lib.rs:12:// code` are the file before the
/// first `:<digit>`; grep's context line `src/lib.rs-12-code` the file before `-<digits>-`.
fn strip_line_suffix(p: &str) -> &str {
    let b = p.as_bytes();
    let colon = b.windows(2).position(|w| w.first() == Some(&b':') && w.get(1).is_some_and(u8::is_ascii_digit));
    let p = colon.and_then(|c| p.get(..c)).unwrap_or(p);
    let b = p.as_bytes();
    let context = b.iter().enumerate().position(|(i, &c)| {
        if c != b'-' {
            return false;
        }
        let digits = b.get(i + 1..).map_or(0, |r| r.iter().take_while(|d| d.is_ascii_digit()).count());
        digits > 0
            && b.get(i + 1 + digits) == Some(&b'-')
            && p.get(..i).is_some_and(|file| has_extension(file.rsplit('/').next().unwrap_or("")))
    });
    context.and_then(|c| p.get(..c)).unwrap_or(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        let ok = [
            ("/etc/hosts", "/etc/hosts"),
            ("/Cargo.toml", "/Cargo.toml"),
            ("src/lib.rs:42:5:", "src/lib.rs"),
            ("src/lexer.rs:12://", "src/lexer.rs"),
            ("~/notes/todo", "~/notes/todo"),
            ("./run.sh,", "./run.sh"),
            ("../x/y", "../x/y"),
            ("node_modules/@types/node/index.d.ts", "node_modules/@types/node/index.d.ts"),
            ("config/.env", "config/.env"),
            ("/work/main/", "/work/main"),
        ];
        for (piece, want) in ok {
            assert_eq!(as_path(piece), Some(want), "{piece}");
        }
        for piece in ["e.g./i.e.", "/tmp", "/compact", "and/or", "1/2.5", "v1.2/v1.3", "//", "/*", "src/**/*.rs", "application/json", "$HOME/x.rs", "a/b"] {
            assert_eq!(as_path(piece), None, "{piece}");
        }
    }

    /// The Go, Rust and C shapes: a relative path without an extension is a path when
    /// it starts at a common root, has two slashes and a name no prose word has, or is a
    /// tool's path argument; prose stays out.
    #[test]
    fn extensionless_relative_paths() {
        let listed = [
            "target/release/quokka_42_engine", "bin/server", "cmd/api", "internal/auth", "src/components/", "scripts/build",
            "docker/Dockerfile", ".github/workflows", "frontend/src/components", "mise-tasks/lint/go",
            "github.com/go-git/go-git/v5",
        ];
        for piece in listed {
            assert_eq!(as_path(piece), Some(piece.trim_end_matches('/')), "{piece}");
        }
        let prose = [
            "and/or", "client/server", "1/2", "read/write", "attack/sustain/release", "All/Active/Completed",
            "modified/new/deleted", "TCP/IP",
        ];
        for piece in prose {
            assert_eq!(as_path(piece), None, "{piece}");
        }
        // A tool's path argument is a path whatever it looks like; a branch check wants a file.
        assert_eq!(as_path_in("web/handlers", Place::Argument), Some("web/handlers"));
        assert_eq!(as_path_in("web/handlers", Place::Prose), None);
        assert_eq!(as_path_in("cmd/api", Place::File), None);
        assert_eq!(as_path_in("cmd/api/main.go", Place::File), Some("cmd/api/main.go"));
    }

    /// What the real sessions listed as paths that name no file (issue [9]).
    #[test]
    fn not_paths() {
        let cases = [
            "514M/1.42G",                                     // a download's progress
            "1.36M/1.36M",
            "2024/01/02",                                     // a date
            "v1.2/v1.3/v1.4",                                 // versions
            "/r/a",                                           // a string literal
            "x/y/z",
            "os/exec.Command",                                // Go package members
            "github.com/entireio/cli/cmd/entire/cli/strategy.Strategy",
            "s/132b2f66-ee5f/aaaaaaaa-1111/g",                // sed
            "TestRewind_DifferentSessions/auto_commit/auto-commit", // a Go sub-test
        ];
        for piece in cases {
            assert_eq!(as_path(piece), None, "{piece}");
        }
        // grep -C's context lines glue the line number to the file.
        assert_eq!(as_path("/w/cli/strategy.go-185-"), Some("/w/cli/strategy.go"));
        assert_eq!(as_path("src/lib.rs-12-fn"), Some("src/lib.rs"));
        assert_eq!(as_path("my-2-part/name.rs"), Some("my-2-part/name.rs"));
        // `.Rmd` and `.PL` are extensions.
        assert_eq!(as_path("docs/report.Rmd"), Some("docs/report.Rmd"));
        assert_eq!(as_path("perl/Makefile.PL"), Some("perl/Makefile.PL"));
    }

    #[test]
    fn listed_paths_fold_diff_prefixes_and_skip_stop_listed() {
        let prose = |p| listed_path(p, Place::Prose);
        assert_eq!(prose("a/cmd/entire/cli/wingman.go"), Some("cmd/entire/cli/wingman.go"));
        assert_eq!(prose("b/src/lib.rs"), Some("src/lib.rs"));
        // `a/auth.go` folds into a bare file name, which is no path.
        assert_eq!(prose("a/auth.go"), None);
        let stop = [
            "/dev/null",
            "/dev/tty",
            "/proc/self/status",
            "/tmp/missing_blobs.txt",
            "/private/var/folders/x/T/y.log",
            "/path/to/repo",
            "/Users/chip/anaconda3/lib/python3.11/site-packages/transformers/utils/generic.py",
            "frontend/node_modules/@chakra-ui/react/dist/esm/index.js",
            "/home/u/proj/.venv/lib/python3.12/site-packages/x.py",
            "~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.200/src/de/mod.rs",
            "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/panicking.rs",
            "/home/u/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go",
        ];
        for p in stop {
            assert_eq!(prose(p), None, "{p}");
        }
        assert_eq!(prose("/Users/alex/workspace/cli/.git/index"), Some("/Users/alex/workspace/cli/.git/index"));
    }
}
