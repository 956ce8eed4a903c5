//! The engine's own copy of an instruction file (CLAUDE.md, AGENTS.md, a file one of them
//! `@`-imports), rebuilt from the file's text on disk, so that a hook can tell a real edit from
//! a copy that merely looks different.
//!
//! Claude Code 2.1.328 builds `instructionFiles[].content` like this (its minified `Pht`):
//!
//! 1. Frontmatter off (`qc`): after at most one leading BOM, `^---\s*\n([\s\S]*?)---\s*\n?`.
//!    The closing `---` need not start a line, and the whitespace after it (blank lines, the
//!    next line's indent) goes too. No match: the text stays as read, BOM included.
//! 2. Only when what is left contains `<!--`: the engine's Markdown lexer (a marked-like lexer,
//!    `gfm: false`) splits it into top-level block tokens, and their `raw` texts are glued back
//!    together, except that an `html` token that is an HTML comment is replaced by what is left
//!    of it without its comments, or dropped when that is blank. So a comment on a line of its
//!    own goes with its line and the blank lines after it, an inline comment stays, a comment in
//!    a code block, a list, a blockquote or a bigger HTML block stays.
//!
//! Step 2 also shows every quirk of that lexer in the engine's copy: CRLF and a lone CR become
//! LF, a link reference definition (`[x]: /url`) disappears, and a blockquote holding a
//! multi-line list followed by a lazy line comes back garbled. This module ports the lexer's
//! block level (on UTF-16 code units, as the JavaScript indexes text), so the engine's copy is
//! rebuilt exactly and compared with `==`.
//!
//! The engine leaves a file out of `instructionFiles` when its content trims to nothing
//! ([`engine_loads`]), and an `@` import is its own entry (with `parent`), never part of the
//! importing file's content: the importing file's content keeps the `@path` text as written.
//!
//! The parts, in the order a file goes through them: `frontmatter` (step 1), `lexer`
//! (step 2: the block lexer, one file per family of block rules), `imports` (the `@` paths
//! the engine reads), `claude_md` (the block the engine renders from the files), and `depth`
//! (where this port stops lexing). `utf16` is the JavaScript view of text they all index by.

mod claude_md;
mod depth;
mod frontmatter;
mod imports;
mod lexer;
mod utf16;

pub use claude_md::{claude_md_text, kind_note, CLAUDE_MD_PREAMBLE};
pub use depth::too_deep;
pub use imports::{has_imports, import_paths};

use frontmatter::strip_frontmatter;
use lexer::{comment_residue, lex};
use utf16::{find_seq, is_js_space_char, js_trim};

/// The text of an instruction file as the engine holds it in `instructionFiles[].content`,
/// from the file's text as `$.fs.read` gives it (a BOM kept, line ends as on disk).
pub fn engine_content(raw: &str) -> String {
    if too_deep(raw) {
        return raw.to_owned();
    }
    let text: Vec<u16> = raw.encode_utf16().collect();
    let body = strip_frontmatter(&text);
    if find_seq(body, 0, "<!--").is_none() {
        return String::from_utf16_lossy(body);
    }
    let mut out = Vec::with_capacity(body.len());
    for token in lex(body, false) {
        match comment_residue(&token) {
            Some(residue) => {
                if !js_trim(&residue).is_empty() {
                    out.extend_from_slice(&residue);
                }
            }
            None => out.extend_from_slice(&token.raw),
        }
    }
    String::from_utf16_lossy(&out)
}

/// Whether the engine keeps a file with this content at all: one whose content trims to
/// nothing (empty, blank, only frontmatter or comments) is left out of `instructionFiles`
/// and of the `claudeMd` text, and so are the files it imports.
pub fn engine_loads(content: &str) -> bool {
    !content.trim_matches(is_js_space_char).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every expected value below is what Claude Code 2.1.328 put in `instructionFiles[].content`
    // for that file (tests/fixtures/engine-instructions.json holds the full runs).

    #[test]
    fn text_without_a_comment_is_kept_as_read() {
        assert_eq!(
            engine_content("# Project\r\n\r\nLine one.\r\n"),
            "# Project\r\n\r\nLine one.\r\n"
        );
        assert_eq!(
            engine_content("\u{feff}# Project\n\nBody.\n"),
            "\u{feff}# Project\n\nBody.\n"
        );
        assert_eq!(engine_content("# P   \n\nEnd\t\n"), "# P   \n\nEnd\t\n");
        assert_eq!(engine_content("no final newline"), "no final newline");
    }

    #[test]
    fn frontmatter_goes_with_the_whitespace_after_it() {
        assert_eq!(
            engine_content("---\ntitle: x\n---\n# P\n\nBody.\n"),
            "# P\n\nBody.\n"
        );
        assert_eq!(
            engine_content("---\ntitle: x\n---\n\n\n    indented\n\nB.\n"),
            "indented\n\nB.\n"
        );
        assert_eq!(
            engine_content("---\r\ntitle: x\r\n---\r\n# P\r\n"),
            "# P\r\n"
        );
        assert_eq!(
            engine_content("\u{feff}---\ntitle: x\n---\nBody.\n"),
            "Body.\n"
        );
        assert_eq!(
            engine_content("---\ntitle: a---b\nrest: x\n---\nBody.\n"),
            "b\nrest: x\n---\nBody.\n"
        );
        assert_eq!(
            engine_content("---\ntitle: x\n# P\n"),
            "---\ntitle: x\n# P\n"
        );
        assert_eq!(
            engine_content("---\nt: x\n# P\n\n---\n\nAfter.\n"),
            "After.\n"
        );
        assert_eq!(
            engine_content("----\nt: x\n---\nB\n"),
            "----\nt: x\n---\nB\n"
        );
    }

    #[test]
    fn a_comment_line_goes_with_the_blank_lines_after_it() {
        assert_eq!(
            engine_content("# P\n\n<!-- note -->\nAlways.\n"),
            "# P\n\nAlways.\n"
        );
        assert_eq!(
            engine_content("# P\n\n<!-- note -->\n\n\nAlways.\n"),
            "# P\n\nAlways.\n"
        );
        assert_eq!(
            engine_content("line one\n<!-- c -->\nline two\n"),
            "line one\nline two\n"
        );
        assert_eq!(engine_content("a\n\n   <!-- c -->\nb\n"), "a\n\nb\n");
        assert_eq!(
            engine_content("# P\n\n<!--\none\ntwo\n-->\nAfter.\n"),
            "# P\n\nAfter.\n"
        );
        assert_eq!(engine_content("<!-- a --><!-- b -->\nX\n"), "X\n");
        assert_eq!(engine_content("<!-- only -->\n"), "");
    }

    #[test]
    fn text_beside_a_comment_stays() {
        assert_eq!(
            engine_content("# P\n\ntext <!-- c --> more\n"),
            "# P\n\ntext <!-- c --> more\n"
        );
        assert_eq!(
            engine_content("<!-- c --> trailing\nnext\n"),
            " trailing\nnext\n"
        );
        assert_eq!(
            engine_content("A\n\n<!-- s\nend --> tail\nB\n"),
            "A\n\n tail\nB\n"
        );
        assert_eq!(
            engine_content("A\n\n<!-- never closed\nB\n"),
            "A\n\n<!-- never closed\nB\n"
        );
    }

    #[test]
    fn comments_inside_other_blocks_stay() {
        let fence = "# P\n\n```\n<!-- in -->\n```\n\n<!-- out -->\nend\n";
        assert_eq!(
            engine_content(fence),
            "# P\n\n```\n<!-- in -->\n```\n\nend\n"
        );
        let list = "- item\n  <!-- in -->\n- two\n\n<!-- top -->\nend\n";
        assert_eq!(
            engine_content(list),
            "- item\n  <!-- in -->\n- two\n\nend\n"
        );
        let quote = "> quote\n> <!-- in -->\n\nend <!-- x -->\n";
        assert_eq!(engine_content(quote), quote);
        let div = "<div>\n<!-- in -->\n</div>\n\n<!-- own -->\nend\n";
        assert_eq!(engine_content(div), "<div>\n<!-- in -->\n</div>\n\nend\n");
        assert_eq!(
            engine_content("a\n\n    <!-- code -->\nb\n"),
            "a\n\n    <!-- code -->\nb\n"
        );
    }

    #[test]
    fn with_a_comment_the_lexer_rewrites_line_ends() {
        assert_eq!(
            engine_content("# P\r\n\r\n<!-- c -->\r\nOne.\r\n"),
            "# P\n\nOne.\n"
        );
        assert_eq!(
            engine_content("# P\r\rOne.\r<!-- c -->\rEnd\r"),
            "# P\n\nOne.\nEnd\n"
        );
        assert_eq!(
            engine_content("\u{feff}<!-- c -->\n# P\n\n<!-- d -->\nB.\n"),
            "\u{feff}<!-- c -->\n# P\n\nB.\n"
        );
    }

    #[test]
    fn with_a_comment_the_lexer_quirks_show() {
        assert_eq!(
            engine_content("# P\n\n[ref]: https://example.com\n\n<!-- c -->\nUse [ref].\n"),
            "# P\n\nUse [ref].\n"
        );
        assert_eq!(
            engine_content("> - a\n>   b\nlazy\n\n<!-- c -->\n"),
            "> - - a\n  b\nlazy\n\n"
        );
        assert_eq!(
            engine_content("Para\n<!-- c -->\n---\nafter\n"),
            "Para\n---\nafter\n"
        );
    }

    #[test]
    fn the_engine_leaves_out_files_with_nothing_in_them() {
        for raw in [
            "",
            "\n\n  \n",
            "<!-- only -->\n",
            "<!-- only -->",
            "---\ntitle: x\n---\n",
        ] {
            assert!(!engine_loads(&engine_content(raw)), "{raw:?}");
        }
        assert!(engine_loads(&engine_content("x")));
        assert!(!engine_loads("\u{feff}\u{a0}\n"));
    }

    #[test]
    fn hostile_text_neither_panics_nor_hangs() {
        let nasty = [
            "<!--",
            "<!-->",
            "-->",
            "\u{2028}<!--\u{2029}",
            "> > > > <!--\n>",
            "[a]: <",
            "[\\\n]: x <!--",
            "```\n<!--\n```",
            "- \t\n  <!-- -->",
            "<pre\n<!--",
            "\r\r\r<!--\r",
            "😀<!--😀-->😀",
        ];
        for raw in nasty {
            let _ = engine_content(raw);
            let _ = import_paths(raw);
        }
        let long = "> - a\n>   b\nlazy <!-- c -->\n".repeat(2000);
        assert!(engine_content(&long).len() < long.len() * 2);
    }
}
