//! Paths: which pieces of a word name a file or a directory.

use super::MAX_IDENT_BYTES;
use super::bytes::{class, PATH};

pub(crate) fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '~' | '@' | '+')
}

/// The path a piece of a word names, if it names one: absolute (two components
/// or a file name), `~/…`, `./…`, `../…`, or relative with a slash and an
/// extension. A `:line:col` suffix is dropped: the file is the identifier.
pub(crate) fn as_path(piece: &str) -> Option<&str> {
    let p = trim_end_ascii(piece, |c| matches!(c, b'.' | b',' | b':' | b';' | b'!' | b'?'));
    let p = trim_end_ascii(strip_line_suffix(p), |c| c == b'/');
    if p.len() < 3 || p.len() > MAX_IDENT_BYTES {
        return None;
    }
    // One pass: only path characters, no `//`, and where the last `/` is.
    let mut last_slash = None;
    let mut ascii = true;
    let mut prev = 0u8;
    for (i, &c) in p.as_bytes().iter().enumerate() {
        if c == b'/' {
            if prev == b'/' {
                return None;
            }
            last_slash = Some(i);
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
    if !named || last.is_empty() {
        return None;
    }
    if p.starts_with("~/") || p.starts_with("./") || p.starts_with("../") {
        return Some(p);
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
    (ok_start && has_extension(last) && !dotted_dir()).then_some(p)
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
/// first `:<digit>`.
fn strip_line_suffix(p: &str) -> &str {
    let b = p.as_bytes();
    let cut = b.windows(2).position(|w| w.first() == Some(&b':') && w.get(1).is_some_and(u8::is_ascii_digit));
    cut.and_then(|c| p.get(..c)).unwrap_or(p)
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
}
