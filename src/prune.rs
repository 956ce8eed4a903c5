//! Which history folders may go, and how.
//!
//! `$.fs` has no delete, so pruning runs a command (`rm -rf`; on Windows .NET's
//! `Directory.Delete` through PowerShell): the one call in compact-plus that can
//! destroy a person's files. Every rule here narrows what it may touch: a direct
//! child of the resolved history root, named like a session id, not a link,
//! holding a `log.jsonl` older than the keep period, never this session's.

use serde::Deserialize;

pub const KEEP_DAYS: f64 = 30.0;
/// The shortest keep period: a day, so no live session's folder goes.
pub const MIN_KEEP_DAYS: f64 = 1.0;
pub const DAY_MS: f64 = 86_400_000.0;
pub const REMOVE_TIMEOUT_MS: u64 = 20_000;

/// `$.fs.list`'s entries.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(default)]
pub struct FolderEntry {
    pub name: String,
    pub kind: String,
    #[serde(rename = "isLink")]
    pub is_link: bool,
    /// A file's last change (0 for a folder: `$.fs.list` reads no other's).
    #[serde(rename = "mtimeMs")]
    pub mtime_ms: f64,
}

/// `$.fs.stat`'s answer.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(default)]
pub struct Stat {
    pub kind: String,
    #[serde(rename = "mtimeMs")]
    pub mtime_ms: f64,
    #[serde(rename = "isLink")]
    pub is_link: bool,
    #[serde(rename = "realPath")]
    pub real_path: Option<String>,
}

/// A session id as the engine makes them: a lowercase UUID, 8-4-4-4-12.
pub fn is_session_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_digit() || (b'a'..=b'f').contains(c),
        })
}

/// The folders of `root` worth a closer look: plain directories with session
/// names, other than the current session's.
pub fn candidates<'a>(entries: &'a [FolderEntry], current: &str) -> Vec<&'a str> {
    entries
        .iter()
        .filter(|e| e.kind == "dir" && !e.is_link && is_session_name(&e.name) && e.name != current)
        .map(|e| e.name.as_str())
        .collect()
}

/// A folder goes when it is still the real folder it claims to be and its log is
/// older than the cutoff.
pub fn expired(folder: &Stat, expected_real: &str, log: &Stat, cutoff_ms: f64, windows: bool) -> bool {
    folder.kind == "dir"
        && !folder.is_link
        && folder.real_path.as_deref().is_some_and(|real| same_path(real, expected_real, windows))
        && log.kind == "file"
        && !log.is_link
        && log.mtime_ms < cutoff_ms
}

/// Whether two paths name the same place as the file system spells it: on
/// Windows `realPath` answers with `\` where the core joins with `/`, and
/// names (drive letters too) compare without case.
pub fn same_path(a: &str, b: &str, windows: bool) -> bool {
    if !windows {
        return a == b;
    }
    let norm = |p: &str| {
        let p = p.replace('\\', "/").to_ascii_lowercase();
        p.trim_end_matches('/').to_owned()
    };
    norm(a) == norm(b)
}

/// The variable the Windows removal reads the folder's path from.
pub const PATH_VARIABLE: &str = "COMPACT_PLUS_PRUNE_PATH";

/// On Windows: PowerShell runs this constant text, which reads the path from
/// `PATH_VARIABLE`, so the path is a value and never code. `Directory.Delete`
/// does not recurse through a junction or link inside the folder (it removes
/// the link alone), as `rd /s` does not; `Remove-Item -Recurse` of Windows
/// PowerShell 5.1 is documented to follow some.
pub const WINDOWS_DELETE: &str = "[System.IO.Directory]::Delete($env:COMPACT_PLUS_PRUNE_PATH, $true)";

/// How a folder is removed: a command by its argument vector (`$.process.run`
/// starts it with no shell, d.ts `process.run`) and the variables it is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Removal {
    pub argv: Vec<String>,
    /// Each name once.
    pub env: Vec<(String, String)>,
}

/// The command that removes `folder` (already checked by the rules above).
///
/// Windows had `cmd /c rd /s /q <path>`: `cmd` parses its command line again,
/// so a home path with `&` ran the rest as a command of its own, `%NAME%`
/// expanded and `^` vanished. No argument here carries the path: it goes in the
/// environment, which no command line parses.
pub fn removal(folder: &str, windows: bool) -> Removal {
    let owned = |args: &[&str]| args.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    if windows {
        Removal {
            argv: owned(&["powershell.exe", "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", WINDOWS_DELETE]),
            env: vec![(PATH_VARIABLE.to_owned(), folder.replace('/', "\\"))],
        }
    } else {
        let mut argv = owned(&["rm", "-rf", "--"]);
        argv.push(folder.to_owned());
        Removal { argv, env: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, kind: &str, is_link: bool) -> FolderEntry {
        FolderEntry { name: name.into(), kind: kind.into(), is_link, mtime_ms: 0.0 }
    }

    #[test]
    fn names() {
        assert!(is_session_name("3e771ee8-7a5c-472f-8c77-3dfd1e6415f3"));
        for bad in [
            "3E771EE8-7A5C-472F-8C77-3DFD1E6415F3",
            "3e771ee8-7a5c-472f-8c77-3dfd1e6415f",
            "------------------------------------",
            "3e771ee8-7a5c-472f-8c77-3dfd1e6415f3x",
            "../../../../../../../../../../../etc",
            "3e771ee8/7a5c-472f-8c77-3dfd1e6415f3",
            "",
        ] {
            assert!(!is_session_name(bad), "{bad}");
        }
    }

    #[test]
    fn only_plain_session_folders_other_than_ours() {
        let ours = "00000000-0000-4000-8000-000000000000";
        let old = "11111111-1111-4111-8111-111111111111";
        let entries = vec![
            entry(ours, "dir", false),
            entry(old, "dir", false),
            entry("22222222-2222-4222-8222-222222222222", "other", true),
            entry("33333333-3333-4333-8333-333333333333", "file", false),
            entry("notes", "dir", false),
        ];
        assert_eq!(candidates(&entries, ours), vec![old]);
    }

    #[test]
    fn expiry() {
        let dir = Stat { kind: "dir".into(), real_path: Some("/r/a".into()), ..Default::default() };
        let log = Stat { kind: "file".into(), mtime_ms: 10.0, ..Default::default() };
        assert!(expired(&dir, "/r/a", &log, 11.0, false));
        assert!(!expired(&dir, "/r/a", &log, 10.0, false));
        assert!(!expired(&dir, "/elsewhere/a", &log, 11.0, false));
        let unresolved = Stat { real_path: None, ..dir.clone() };
        assert!(!expired(&unresolved, "/r/a", &log, 11.0, false));
        let linked = Stat { is_link: true, ..dir.clone() };
        assert!(!expired(&linked, "/r/a", &log, 11.0, false));
        let log_dir = Stat { kind: "dir".into(), ..log.clone() };
        assert!(!expired(&dir, "/r/a", &log_dir, 11.0, false));
    }

    /// `$.fs.stat(…, {resolve: true}).realPath` on Windows answers with `\` and
    /// whatever case the file system keeps; the core joins with `/`.
    #[test]
    fn expiry_on_windows_reads_backslashes_and_case() {
        let dir = Stat { kind: "dir".into(), real_path: Some(r"C:\Users\Ann\.claude\compact-history\a".into()), ..Default::default() };
        let log = Stat { kind: "file".into(), mtime_ms: 10.0, ..Default::default() };
        let joined = r"C:\Users\Ann\.claude\compact-history/a";
        assert!(expired(&dir, joined, &log, 11.0, true));
        assert!(expired(&dir, "c:/users/ann/.claude/compact-history/a/", &log, 11.0, true));
        assert!(!expired(&dir, r"C:\Users\Ann\.claude\compact-history/b", &log, 11.0, true));
        assert!(!expired(&dir, r"D:\Users\Ann\.claude\compact-history/a", &log, 11.0, true));
        // Elsewhere, the answer is compared as it is.
        assert!(!expired(&dir, joined, &log, 11.0, false));
        assert!(same_path("/r/a", "/r/a", false) && !same_path("/r/A", "/r/a", false));
    }

    #[test]
    fn argv() {
        let unix = removal("/h/x", false);
        assert_eq!(unix.argv, ["rm", "-rf", "--", "/h/x"]);
        assert!(unix.env.is_empty());
    }

    /// Issue [13] item 14: a Windows home path with the characters `cmd` reads as
    /// syntax (`&` runs a second command, `%NAME%` expands, `^` escapes) never
    /// reaches a command line: the argument vector is the same for every path,
    /// and the path is a variable's value, whole.
    #[test]
    fn windows_takes_the_path_as_a_value_not_as_command_text() {
        let path = "C:/Users/A&B %USERNAME% ^x (1)/.claude/compact-history/11111111-1111-4111-8111-111111111111";
        let r = removal(path, true);
        assert_eq!(r.argv, removal("C:/U/x", true).argv, "the argv does not depend on the path");
        assert!(r.argv.iter().all(|a| !a.contains("Users")), "{:?}", r.argv);
        assert_eq!(r.argv.first().map(String::as_str), Some("powershell.exe"));
        assert_ne!(r.argv.first().map(String::as_str), Some("cmd"));
        assert_eq!(r.env, [(PATH_VARIABLE.to_owned(), path.replace('/', "\\"))]);
        // The text PowerShell runs names the variable and nothing else from outside.
        assert!(WINDOWS_DELETE.contains(&format!("$env:{PATH_VARIABLE}")));
        assert_eq!(r.argv.last().map(String::as_str), Some(WINDOWS_DELETE));
    }
}
