//! Shell commands as the record reads them: the core a run is known by, whether a command only
//! looks, the words of a simple command, and the line that says how a failed run failed.

use crate::text;

/// Commands that only look: their failing says nothing about the work (a `grep` with no match,
/// an `ls` of a file that is not there). A pipeline is a look-up when every stage is one.
const LOOKUPS: &str = "ls ll grep egrep fgrep rg ag find fd cat bat head tail less more wc file stat which whereis type command echo printf pwd env printenv tree du df ps pgrep lsof diff cmp test [ id whoami date uname readlink realpath basename dirname jq sort uniq cut awk sed xxd od md5 md5sum shasum sha256sum true sleep cd nl column strings hexdump";

/// `git` subcommands that only look.
const GIT_LOOKUPS: &str = "status log diff show ls-files ls-tree rev-parse remote cat-file grep blame reflog describe config count-objects for-each-ref show-ref shortlog rev-list merge-base name-rev check-ignore fsck verify-pack help version whatchanged cherry range-diff";

/// Output filters a command is run through to keep its output short: not part of what ran.
const FILTERS: &str = "tail head grep rg less cat tee sort uniq wc";

/// One simple command of a command line: the operator before it (`""` for the first, `&&`,
/// `||`, `;`, `|`) and its words, quotes removed (no expansion).
#[derive(Debug, PartialEq, Eq)]
pub struct Stage {
    pub op: &'static str,
    pub words: Vec<String>,
}

/// A command line as its stages, split at `&&`, `||`, `;`, `|`, `&` and line ends outside
/// quotes (`2>&1` is a redirect, a word).
pub fn stages(command: &str) -> Vec<Stage> {
    let mut out = vec![Stage { op: "", words: Vec::new() }];
    let mut word = String::new();
    let mut quoted = false;
    let mut quote: Option<char> = None;
    let mut chars = command.chars().peekable();
    while let Some(ch) = chars.next() {
        if let Some(q) = quote {
            if ch == q {
                quote = None;
            } else {
                word.push(ch);
            }
            continue;
        }
        let op = match ch {
            '"' | '\'' => {
                quote = Some(ch);
                quoted = true;
                continue;
            }
            '&' if word.ends_with('>') => None,
            '&' | '|' if chars.peek() == Some(&ch) => {
                chars.next();
                Some(if ch == '&' { "&&" } else { "||" })
            }
            '|' => Some("|"),
            ';' | '&' | '\n' => Some(";"),
            c if c.is_whitespace() => Some(""),
            _ => None,
        };
        match op {
            None => word.push(ch),
            Some(op) => {
                if quoted || !word.is_empty() {
                    if let Some(last) = out.last_mut() {
                        last.words.push(std::mem::take(&mut word));
                    }
                    quoted = false;
                }
                // A new stage after an operator, unless the one before is still empty.
                match out.last_mut() {
                    Some(last) if last.words.is_empty() && !last.op.is_empty() && !op.is_empty() => last.op = op,
                    Some(last) if !last.words.is_empty() && !op.is_empty() => out.push(Stage { op, words: Vec::new() }),
                    _ => {}
                }
            }
        }
    }
    if quoted || !word.is_empty() {
        if let Some(last) = out.last_mut() {
            last.words.push(word);
        }
    }
    if out.last().is_some_and(|s| s.words.is_empty()) {
        out.pop();
    }
    out
}

/// What a run is known by: its stages without `cd <dir>` in front and output filters behind
/// (`| tail -30`, `| head`, `| grep x`, a last `2>&1` or `2>/dev/null`), words joined by one
/// space, quotes removed. Two runs with one core are the same command run twice.
pub fn core(command: &str) -> String {
    let mut st = stages(command);
    while st.len() > 1 && st.first().is_some_and(|s| s.words.first().is_some_and(|w| w == "cd")) && st.get(1).is_some_and(|s| s.op != "|") {
        st.remove(0);
        if let Some(first) = st.first_mut() {
            first.op = "";
        }
    }
    while st.len() > 1 && st.last().is_some_and(|s| s.op == "|" && s.words.first().is_some_and(|w| text::one_of(FILTERS, w))) {
        st.pop();
    }
    if let Some(last) = st.last_mut() {
        while last.words.last().is_some_and(|w| w == "2>&1" || w == "2>/dev/null") && last.words.len() > 1 {
            last.words.pop();
        }
    }
    let mut out = String::new();
    for s in &st {
        if !s.op.is_empty() {
            out.push(' ');
            out.push_str(s.op);
            out.push(' ');
        }
        out.push_str(&s.words.join(" "));
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
    let stages = stages(command);
    !stages.is_empty()
        && stages.iter().all(|s| {
            // `FOO=1 cmd`: the command is after the assignments.
            let w: Vec<&String> = s.words.iter().skip_while(|x| x.contains('=') && !x.starts_with('-')).collect();
            let Some(first) = w.first() else { return true };
            if let Some((at, verb)) = git_verb(&s.words) {
                let rest = s.words.get(at + 1..).unwrap_or(&[]);
                return match verb {
                    // `git branch`, `git branch -a`: a listing; `git branch x`, `-D x`: a change.
                    "branch" => rest.iter().all(|x| matches!(x.as_str(), "-a" | "-r" | "-v" | "-vv" | "--list" | "--show-current" | "--all")),
                    "stash" => rest.first().is_some_and(|x| x == "list" || x == "show"),
                    "worktree" => rest.first().is_some_and(|x| x == "list"),
                    v => text::one_of(GIT_LOOKUPS, v),
                };
            }
            text::one_of(LOOKUPS, first.rsplit('/').next().unwrap_or(first))
        })
}

/// Words that say a line is the error (`_` for a space).
const ERROR_WORDS: &str = "error fail fatal panic exception denied not_found no_such cannot can't unable invalid refused timed_out killed";

/// The line that says how a failed run failed: the first line of its output (not the engine's
/// `Exit code N`, not a task runner's echo of the command it runs, `$ biome check`) with an
/// error word, else the first compiler diagnostic (`path:line:col: message`), else the first line.
pub fn error_line(output: &str) -> String {
    let (mut first, mut body, mut diagnostic) = (None, None, None);
    for l in output.lines().map(text::trim).filter(|l| !l.is_empty()) {
        first = first.or(Some(l));
        if is_exit_line(l) || is_echo(l) {
            continue;
        }
        let lower = l.to_ascii_lowercase();
        if ERROR_WORDS.split(' ').any(|w| lower.contains(&w.replace('_', " "))) {
            return l.to_owned();
        }
        body = body.or(Some(l));
        if diagnostic.is_none() && is_diagnostic(l) {
            diagnostic = Some(l);
        }
    }
    diagnostic.or(body).or(first).unwrap_or("").to_owned()
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
        assert_eq!(core("git commit -m \"a  b\""), "git commit -m a  b");
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

    fn stage(op: &'static str, words: &[&str]) -> Stage {
        Stage { op, words: words.iter().map(|w| (*w).to_owned()).collect() }
    }

    #[test]
    fn stages_and_words() {
        assert_eq!(
            stages("a && b || c; d | e\nf & g"),
            vec![stage("", &["a"]), stage("&&", &["b"]), stage("||", &["c"]), stage(";", &["d"]), stage("|", &["e"]), stage(";", &["f"]), stage(";", &["g"])]
        );
        assert_eq!(stages("echo 'a && b' && go test 2>&1"), vec![stage("", &["echo", "a && b"]), stage("&&", &["go", "test", "2>&1"])]);
        assert_eq!(stages(r#"git commit -m "a b" 'c d' e"#), vec![stage("", &["git", "commit", "-m", "a b", "c d", "e"])]);
        assert_eq!(stages("rm ''"), vec![stage("", &["rm", ""])]);
        assert_eq!(stages(" ;; "), vec![]);
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
