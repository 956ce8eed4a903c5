//! Shell commands as the record reads them: the core a run is known by, whether a command only
//! looks, the words of a simple command, and the line that says how a failed run failed.

use crate::text;

/// Commands that only look: their failing says nothing about the work (a `grep` with no match,
/// an `ls` of a file that is not there). A pipeline is a look-up when every stage is one.
const LOOKUPS: [&str; 64] = [
    "ls", "ll", "grep", "egrep", "fgrep", "rg", "ag", "find", "fd", "cat", "bat", "head", "tail", "less", "more", "wc",
    "file", "stat", "which", "whereis", "type", "command", "echo", "printf", "pwd", "env", "printenv", "tree", "du",
    "df", "ps", "pgrep", "lsof", "diff", "cmp", "test", "[", "id", "whoami", "date", "uname", "readlink", "realpath",
    "basename", "dirname", "jq", "sort", "uniq", "cut", "awk", "sed", "xxd", "od", "md5", "md5sum", "shasum",
    "sha256sum", "true", "sleep", "cd", "nl", "column", "strings", "hexdump",
];

/// `git` subcommands that only look.
const GIT_LOOKUPS: [&str; 29] = [
    "status", "log", "diff", "show", "ls-files", "ls-tree", "rev-parse", "remote", "cat-file", "grep", "blame",
    "reflog", "describe", "config", "count-objects", "for-each-ref", "show-ref", "shortlog", "rev-list",
    "merge-base", "name-rev", "check-ignore", "fsck", "verify-pack", "help", "version", "whatchanged",
    "cherry", "range-diff",
];

/// Output filters a command is run through to keep its output short: not part of what ran.
const FILTERS: [&str; 10] = ["tail", "head", "grep", "rg", "less", "cat", "tee", "sort", "uniq", "wc"];

/// What a run is known by: whitespace collapsed, `cd <dir> &&` (or `;`) in front and output
/// filters behind (`2>&1`, `2>/dev/null`, `| tail -30`, `| head`, `| grep x`) dropped. Two runs
/// with one core are the same command run twice.
pub fn core(command: &str) -> String {
    let mut c = command.split_whitespace().collect::<Vec<_>>().join(" ");
    while let Some(end) = c.strip_prefix("cd ").and_then(first_separator) {
        let rest = c.get(3..).unwrap_or("");
        let after = rest.get(end..).unwrap_or("");
        let after = after.strip_prefix("&&").or_else(|| after.strip_prefix(';')).unwrap_or(after);
        c = text::trim(after).to_owned();
    }
    loop {
        let before = c.clone();
        for suffix in [" 2>&1", " 2>/dev/null"] {
            if let Some(s) = c.strip_suffix(suffix) {
                c = s.to_owned();
            }
        }
        if let Some(bar) = c.rfind('|') {
            let stage = text::trim(c.get(bar + 1..).unwrap_or(""));
            let first = stage.split(' ').next().unwrap_or("");
            let is_or = c.get(..bar).is_some_and(|h| h.ends_with('|'));
            if !is_or && FILTERS.contains(&first) {
                c = text::trim(c.get(..bar).unwrap_or("")).to_owned();
            }
        }
        if c == before {
            return c;
        }
    }
}

/// Where a `cd`'s argument ends (its quotes kept together), at the `&&` or `;` after it.
fn first_separator(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, ch) in s.char_indices() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None if ch == '"' || ch == '\'' => quote = Some(ch),
            None if ch == ';' => return Some(i),
            None if s.get(i..).is_some_and(|r| r.starts_with("&&")) => return Some(i),
            None if ch == '|' => return None,
            None => {}
        }
    }
    None
}

/// The stages of a command line: split at `&&`, `||`, `;`, `|` and line ends, outside quotes.
pub fn stages(command: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quote = None;
    let mut start = 0;
    let b = command.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b.get(i).copied().unwrap_or(0);
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'"' || c == b'\'' => quote = Some(c),
            None if matches!(c, b';' | b'|' | b'\n' | b'&') => {
                let double = b.get(i + 1).is_some_and(|&n| n == c && c != b';' && c != b'\n');
                // A lone `&` backgrounds a job; `2>&1` is a redirect, not a separator.
                let redirect = c == b'&' && (i > 0 && b.get(i - 1) == Some(&b'>'));
                if !redirect && (c != b'&' || double) {
                    out.push(text::trim(command.get(start..i).unwrap_or("")));
                    i += if double { 2 } else { 1 };
                    start = i;
                    continue;
                }
            }
            None => {}
        }
        i += 1;
    }
    out.push(text::trim(command.get(start..).unwrap_or("")));
    out.retain(|s| !s.is_empty());
    out
}

/// The words of one stage, quotes removed (no expansion): enough to read `rm` and `git` arguments.
pub fn words(stage: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    let mut any = false;
    for ch in stage.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                any = true;
            }
            None if ch.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(ch),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The `git` subcommand of a stage's words (after `-C <dir>` and other options), if it is git.
pub fn git_verb(w: &[String]) -> Option<(usize, &str)> {
    let first = w.first()?;
    if first.rsplit('/').next() != Some("git") {
        return None;
    }
    let mut i = 1;
    while let Some(x) = w.get(i) {
        if x == "-C" || x == "-c" || x == "--git-dir" || x == "--work-tree" {
            i += 2;
        } else if x.starts_with('-') {
            i += 1;
        } else {
            return Some((i, x.as_str()));
        }
    }
    None
}

/// Whether every stage of a command only looks (`ls`, `grep`, `git status`, `git branch`).
pub fn is_lookup(command: &str) -> bool {
    let core = core(command);
    let stages = stages(&core);
    !stages.is_empty()
        && stages.iter().all(|s| {
            let w = words(s);
            // `FOO=1 cmd`: the command is after the assignments.
            let w: Vec<String> = w.into_iter().skip_while(|x| x.contains('=') && !x.starts_with('-')).collect();
            let Some(first) = w.first() else { return true };
            let name = first.rsplit('/').next().unwrap_or(first);
            if let Some((at, verb)) = git_verb(&w) {
                let rest = w.get(at + 1..).unwrap_or(&[]);
                return match verb {
                    "branch" => !rest.iter().any(|x| x.starts_with('-') && !matches!(x.as_str(), "-a" | "-r" | "-v" | "-vv" | "--list" | "--show-current" | "--all" | "--contains"))
                        && rest.iter().filter(|x| !x.starts_with('-')).count() == 0,
                    "stash" => rest.first().is_some_and(|x| x == "list" || x == "show"),
                    "worktree" => rest.first().is_some_and(|x| x == "list"),
                    v => GIT_LOOKUPS.contains(&v),
                };
            }
            LOOKUPS.contains(&name)
        })
}

/// Words that say a line is the error.
const ERROR_WORDS: [&str; 15] = [
    "error", "fail", "fatal", "panic", "exception", "denied", "not found", "no such", "cannot", "can't", "unable",
    "invalid", "refused", "timed out", "killed",
];

/// The line that says how a failed run failed: the first line of its output (not the engine's
/// `Exit code N`, not a task runner's echo of the command it runs, `$ biome check`) with an
/// error word, else the first compiler diagnostic (`path:line:col: message`), else the first line.
pub fn error_line(output: &str) -> String {
    let lines: Vec<&str> = output.lines().map(text::trim).filter(|l| !l.is_empty()).collect();
    let body: Vec<&str> = lines.iter().copied().filter(|l| !is_exit_line(l) && !is_echo(l)).collect();
    let lower = |l: &str| l.to_lowercase();
    let found = body
        .iter()
        .find(|l| {
            let l = lower(l);
            ERROR_WORDS.iter().any(|w| l.contains(w))
        })
        .or_else(|| body.iter().find(|l| is_diagnostic(l)))
        .or_else(|| body.first())
        .or_else(|| lines.first());
    found.map_or_else(String::new, |l| (*l).to_owned())
}

fn is_exit_line(l: &str) -> bool {
    l.strip_prefix("Exit code ").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// `$ cmd`, `> cmd`, `[task] $ cmd`: a runner echoing what it runs.
fn is_echo(l: &str) -> bool {
    let l = match l.strip_prefix('[') {
        Some(r) => r.split_once("] ").map_or(l, |(_, rest)| rest),
        None => l,
    };
    l.starts_with("$ ") || l.starts_with("> ")
}

/// `src/a.go:634:64: not enough arguments`.
fn is_diagnostic(l: &str) -> bool {
    let b = l.as_bytes();
    b.windows(3).enumerate().any(|(i, w)| {
        w.first() == Some(&b':')
            && w.get(1).is_some_and(u8::is_ascii_digit)
            && i > 0
            && b.get(i - 1).is_some_and(|c| !c.is_ascii_whitespace())
            && {
                // digits, ':', digits, ': '
                let rest = b.get(i + 1..).unwrap_or(&[]);
                let d1 = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                let after = rest.get(d1..).unwrap_or(&[]);
                let after = match after.strip_prefix(b":") {
                    Some(a) => {
                        let d2 = a.iter().take_while(|c| c.is_ascii_digit()).count();
                        if d2 == 0 {
                            after
                        } else {
                            a.get(d2..).unwrap_or(&[])
                        }
                    }
                    None => after,
                };
                after.starts_with(b": ")
            }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_core_drops_the_cd_and_the_filters() {
        assert_eq!(core("cd /Users/a/cli && mise run test 2>&1 | tail -30"), "mise run test");
        assert_eq!(core("cd \"/a b\"; go build ./...  2>&1"), "go build ./...");
        assert_eq!(core("bun run lint 2>&1 && bun run test 2>&1 | tail -3"), "bun run lint 2>&1 && bun run test");
        assert_eq!(core("git checkout HEAD -- x.go && go build ./... 2>&1"), "git checkout HEAD -- x.go && go build ./...");
        assert_eq!(core("a || b"), "a || b");
        assert_eq!(core("cd x"), "cd x");
    }

    #[test]
    fn look_ups_are_known() {
        for c in ["ls -la", "git status", "git -C /x log --oneline -5", "grep -rn foo . | head", "cat a; echo ---; cat b",
            "git branch", "git branch -a", "git stash list", "cd /x && git diff", "FOO=1 rg x", "git worktree list"] {
            assert!(is_lookup(c), "{c}");
        }
        for c in ["cargo test", "git commit -m x", "git branch feature/x", "git branch -D old", "git stash",
            "git -C /x gc --auto", "ls && make", "mise run lint", "rm -rf build", "git worktree add -b x ../x"] {
            assert!(!is_lookup(c), "{c}");
        }
    }

    #[test]
    fn stages_and_words() {
        assert_eq!(stages("a && b || c; d | e\nf"), vec!["a", "b", "c", "d", "e", "f"]);
        assert_eq!(stages("echo 'a && b' && go test 2>&1"), vec!["echo 'a && b'", "go test 2>&1"]);
        assert_eq!(words(r#"git commit -m "a b" 'c d' e"#), vec!["git", "commit", "-m", "a b", "c d", "e"]);
        assert_eq!(words("rm ''"), vec!["rm", ""]);
    }

    #[test]
    fn the_error_line() {
        assert_eq!(error_line("Exit code 1\n# entire.io/cli\ncmd/a.go:634:64: not enough arguments\n\thave (string)"), "cmd/a.go:634:64: not enough arguments");
        assert_eq!(error_line("Exit code 1\n$ biome check --error-on-warnings\n x\nFound 4 errors."), "Found 4 errors.");
        assert_eq!(error_line("Exit code 129\nerror: unknown option `dry-run'\nusage: git gc"), "error: unknown option `dry-run'");
        assert_eq!(error_line("Exit code 2\nsomething odd"), "something odd");
        assert_eq!(error_line("Exit code 2"), "Exit code 2");
        assert_eq!(error_line("[lint:go] $ ~/x/lint\nFAIL pkg"), "FAIL pkg");
        assert_eq!(error_line(""), "");
    }
}
