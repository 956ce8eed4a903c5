//! Where this port stops lexing. The engine's lexer recurses once per nesting level and
//! copies what is left at each; a file nested deeper than this port follows is left as the
//! engine has it, so the hooks never trap or stall on one.

/// The longest run of block markers (`>`, list markers, digits, spaces) a line may open with
/// before this port stops lexing: the lexer recurses once per nesting level and copies what is
/// left at each, so depth costs stack (a trap in wasm past ~800 levels) and quadratic time.
const MAX_LINE_PREFIX: usize = 256;

/// Whether `raw` nests deeper than this port lexes (see `MAX_LINE_PREFIX`). Such a file is
/// left as the engine has it: `engine_content` answers it unchanged, `import_paths` finds none.
pub fn too_deep(raw: &str) -> bool {
    let deepest = raw
        .split(['\n', '\r'])
        .map(|line| {
            let prefix = line
                .bytes()
                .take_while(|b| matches!(b, b'>' | b' ' | b'\t' | b'-' | b'*' | b'+' | b'0'..=b'9' | b'.' | b')'))
                .take(MAX_LINE_PREFIX + 1)
                .count();
            prefix.max(levels_after_html(line.as_bytes()))
        })
        .max()
        .unwrap_or(0);
    // Lazy lines under a deep quote cost about depth² × length: bound that too.
    deepest > MAX_LINE_PREFIX || deepest.saturating_mul(deepest).saturating_mul(raw.len()) > MAX_NESTED_WORK
}

/// The quote and list levels that open right after each `>` inside a line, added up. A
/// block of HTML (`<?…?>`, `<!--…-->`, `<!x…>`) ends at its closing `>`, not at the line's
/// end, and the lexer reads what follows as new blocks inside the ones already open:
/// `<?x?>> > > …` nests as deep as a line opening with those quotes, and each further HTML
/// block on the line can open more (found by the fuzzer: 16 levels on a 1 MB line, 0.3 s;
/// 18 over two blocks on 337 KB, 0.17 s).
fn levels_after_html(b: &[u8]) -> usize {
    let mut total: usize = 0;
    let mut at = 0;
    while let Some(gt) = b.get(at..).and_then(|rest| rest.iter().position(|&c| c == b'>')) {
        let mut i = at + gt + 1;
        loop {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            match b.get(i) {
                Some(b'>') => i += 1,
                Some(b'-' | b'*' | b'+') if matches!(b.get(i + 1), Some(b' ' | b'\t')) => i += 2,
                Some(b'0'..=b'9') => {
                    let digits = b.get(i..).map_or(0, |r| r.iter().take_while(|c| c.is_ascii_digit()).count());
                    if digits > 9 || !matches!(b.get(i + digits), Some(b'.' | b')')) {
                        break;
                    }
                    i += digits + 1;
                }
                _ => break,
            }
            total += 1;
            if total > MAX_LINE_PREFIX {
                return total;
            }
        }
        // The run just read holds no other start worth reading again.
        at = i.max(at + gt + 1);
    }
    total
}

/// The most depth² × bytes a file may cost the lexer (a 100 KB file nested 20 deep).
const MAX_NESTED_WORK: usize = 40_000_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::engine_content;

    #[test]
    fn quotes_after_an_html_block_count_as_nesting() {
        // After `?>` the lexer starts new blocks mid-line: 16 quote levels on a long line.
        let deep = format!("<?x?>{}{}\n<!-- c -->\n", "> ".repeat(16), "w".repeat(200_000));
        assert!(too_deep(&deep));
        assert_eq!(engine_content(&deep), deep);
        assert!(too_deep(&format!("<!-- a -->{}x\n", ">".repeat(300))));
        // Ordinary text with a `>` or two stays lexed.
        for fine in ["a -> b\n<!-- c -->\n", "x >> y > z 12. w\n<!-- c -->\n", "<?x?>> quoted\n<!-- c -->\n"] {
            assert!(!too_deep(fine), "{fine}");
        }
        assert_eq!(levels_after_html(b"?>> > - 1. 22) * x"), 6);
        // A list number has at most nine digits.
        assert_eq!(levels_after_html(b"> 123456789. x"), 1);
        assert_eq!(levels_after_html(b"> 1234567890. x"), 0);
        // Levels opened after several HTML blocks on one line add up.
        assert_eq!(levels_after_html(b">>>>><!t| a |>>>>><!x>> > x"), 4 + 4 + 2);
        let stacked = format!("{}\n<!-- c -->\n", "<!x>>".repeat(300));
        assert!(too_deep(&stacked));
        let two = format!("{}<!t| a |>{}<!x>{}\n{}<!-- c -->\n", ">".repeat(9), ">".repeat(9), "> ".repeat(3), "ab\n".repeat(100_000));
        assert!(too_deep(&two));
    }
}
