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

const TAB: u16 = 0x09;
const NL: u16 = 0x0A;
const CR: u16 = 0x0D;
const SP: u16 = 0x20;
const BANG: u16 = 0x21;
const DQ: u16 = 0x22;
const HASH: u16 = 0x23;
const SQ: u16 = 0x27;
const LPAREN: u16 = 0x28;
const RPAREN: u16 = 0x29;
const STAR: u16 = 0x2A;
const PLUS: u16 = 0x2B;
const DASH: u16 = 0x2D;
const DOT: u16 = 0x2E;
const SLASH: u16 = 0x2F;
const COLON: u16 = 0x3A;
const LT: u16 = 0x3C;
const EQ: u16 = 0x3D;
const GT: u16 = 0x3E;
const QMARK: u16 = 0x3F;
const AT: u16 = 0x40;
const LBRACKET: u16 = 0x5B;
const BACKSLASH: u16 = 0x5C;
const RBRACKET: u16 = 0x5D;
const UNDERSCORE: u16 = 0x5F;
const BACKTICK: u16 = 0x60;
const TILDE: u16 = 0x7E;
const LINE_SEP: u16 = 0x2028;
const PARA_SEP: u16 = 0x2029;
const BOM: u16 = 0xFEFF;

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

/// The sentence the engine's `claudeMd` block starts with.
pub const CLAUDE_MD_PREAMBLE: &str = "Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.";

/// What the `claudeMd` block writes after a file's path, by the file's `kind` in
/// `instructionFiles`; `None` for `memory` (whose content the engine rewrites before showing
/// it) and for kinds it does not know.
pub fn kind_note(kind: &str) -> Option<&'static str> {
    match kind {
        "project" => Some(" (project instructions, checked into the codebase)"),
        "local" => Some(" (user's private project instructions, not checked in)"),
        "managed" => Some(" (organization-managed policy instructions)"),
        "user" => Some(" (user's private global instructions for all projects)"),
        _ => None,
    }
}

/// The `claudeMd` block text the engine renders from `instructionFiles` entries
/// (`(path, kind, content)`, in order): the preamble, then per file its path and kind's note
/// and its content with JavaScript `trim()` applied (a leading BOM and the last newline go).
/// `""` for no files; `None` when a kind has no note here (see [`kind_note`]); a managed file
/// the engine marks unverified is rendered differently and is not covered.
pub fn claude_md_text<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>,
) -> Option<String> {
    let mut sections = Vec::new();
    for (path, kind, content) in files {
        let note = kind_note(kind)?;
        sections.push(format!(
            "Contents of {path}{note}:\n\n{}",
            content.trim_matches(is_js_space_char)
        ));
    }
    if sections.is_empty() {
        return Some(String::new());
    }
    Some(format!("{CLAUDE_MD_PREAMBLE}\n\n{}", sections.join("\n\n")))
}

/// Whether the engine would look for `@` imports in this text and find at least one path
/// (an import is loaded only if the file exists; this says whether the text names one).
pub fn has_imports(raw: &str) -> bool {
    !import_paths(raw).is_empty()
}

/// The `@` import paths the engine reads out of a file's text, as written (a `#fragment` cut
/// off, `\ ` unescaped), in order, each once.
///
/// The engine's rule (`GZr`): after the frontmatter, and only when the text has an `@`, the
/// lexer's tokens are walked; code blocks and code spans are skipped, and so is an HTML block
/// other than a comment (a comment's leftover text is searched); text is searched with
/// `(?:^|\s)@((?:[^\s\\]|\\ )+)`, and a match is a path when it starts with `./`, `~/`, `/`
/// (not `/` alone), or with a letter, digit, `.`, `_` or `-`. `^` is the start of an inline
/// text token, so an `@` right after emphasis, a code span or a tag also counts. Inline
/// tokens are approximated here (emphasis and link brackets end a text run); block structure
/// is the engine's.
pub fn import_paths(raw: &str) -> Vec<String> {
    if too_deep(raw) {
        return Vec::new();
    }
    let text: Vec<u16> = raw.encode_utf16().collect();
    let body = strip_frontmatter(&text);
    if find_unit(body, 0, AT).is_none() {
        return Vec::new();
    }
    let mut found: Vec<String> = Vec::new();
    collect_imports(&lex(body, true), &mut found);
    let mut unique: Vec<String> = Vec::new();
    for path in found {
        if !unique.contains(&path) {
            unique.push(path);
        }
    }
    unique
}

// ---------------------------------------------------------------------------------------
// Frontmatter (`qc`)
// ---------------------------------------------------------------------------------------

fn strip_frontmatter(text: &[u16]) -> &[u16] {
    let unmarked = match text.split_first() {
        Some((&BOM, rest)) => rest,
        _ => text,
    };
    body_after_frontmatter(unmarked).unwrap_or(text)
}

fn body_after_frontmatter(e: &[u16]) -> Option<&[u16]> {
    if !starts_at(e, 0, "---") {
        return None;
    }
    let run_end = skip_js_space(e, 3);
    let last_newline = e.get(3..run_end)?.iter().rposition(|&c| c == NL)?;
    let close = find_seq(e, 3 + last_newline + 1, "---")?;
    e.get(skip_js_space(e, close + 3)..)
}

// ---------------------------------------------------------------------------------------
// Tokens and the lexer (`Wze` with the engine's `AFn`/`CFn` overrides)
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Rule {
    Space,
    Code,
    Fences,
    Heading,
    Hr,
    List,
    Blockquote,
    Html,
    Def,
    Table,
    Lheading,
    Paragraph,
    Text,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Space,
    Code,
    Heading,
    Hr,
    List,
    Blockquote,
    Html,
    Def,
    Paragraph,
    Text,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    raw: Vec<u16>,
    /// A blockquote's block tokens.
    children: Vec<Token>,
    /// A list's items' block tokens (lexed only when imports are looked for).
    items: Vec<Vec<Token>>,
}

impl Token {
    fn leaf(kind: Kind, raw: &[u16]) -> Token {
        Token {
            kind,
            raw: raw.to_vec(),
            children: Vec::new(),
            items: Vec::new(),
        }
    }
}

/// One `blockTokens` call's text, and the line starts a setext underline can reach from it
/// (the engine's `AFn`: a setext heading is tried only there), indexed by remaining length.
struct Frame {
    text: Vec<u16>,
    in_reach: Vec<bool>,
}

struct Lexer {
    top: bool,
    lex_items: bool,
    frames: Vec<Frame>,
}

fn lex(body: &[u16], lex_items: bool) -> Vec<Token> {
    let mut normalized = Vec::with_capacity(body.len());
    let mut i = 0;
    while let Some(&c) = body.get(i) {
        if c == CR {
            normalized.push(NL);
            if at(body, i + 1) == Some(NL) {
                i += 1;
            }
        } else {
            normalized.push(c);
        }
        i += 1;
    }
    let mut lexer = Lexer {
        top: true,
        lex_items,
        frames: Vec::new(),
    };
    let mut tokens = Vec::new();
    lexer.block_tokens(&normalized, &mut tokens, false);
    tokens
}

const DEFAULT_RULES: [Rule; 4] = [Rule::Table, Rule::Lheading, Rule::Paragraph, Rule::Text];

/// Which rules the lexer tries, by the first character after up to three spaces (`LS`).
fn rules_for(first: Option<u16>) -> Vec<Rule> {
    let lead: &[Rule] = match first {
        None | Some(NL) => &[Rule::Space],
        Some(SP) | Some(TAB) => &[Rule::Space, Rule::Code],
        Some(BACKTICK) | Some(TILDE) => &[Rule::Fences],
        Some(HASH) => &[Rule::Heading],
        Some(UNDERSCORE) => &[Rule::Hr],
        Some(DASH) | Some(STAR) => &[Rule::Hr, Rule::List],
        Some(PLUS) => &[Rule::List],
        Some(c) if is_digit(c) => &[Rule::List],
        Some(GT) => &[Rule::Blockquote],
        Some(LT) => &[Rule::Html],
        Some(LBRACKET) => &[Rule::Def],
        Some(_) => &[],
    };
    let mut rules = lead.to_vec();
    rules.extend_from_slice(&DEFAULT_RULES);
    rules
}

impl Lexer {
    fn block_tokens(&mut self, src: &[u16], tokens: &mut Vec<Token>, paragraph_open: bool) {
        self.frames.push(Frame {
            text: src.to_vec(),
            in_reach: setext_reach(src),
        });
        let mut open = paragraph_open;
        let mut pos = 0;
        while let Some(rest) = src.get(pos..).filter(|r| !r.is_empty()) {
            let first = at(rest, skip_up_to_3_spaces(rest, 0));
            let mut found = None;
            for rule in rules_for(first) {
                if rule == Rule::Paragraph && !self.top {
                    continue;
                }
                if let Some(token) = self.apply(rule, rest) {
                    found = Some((rule, token));
                    break;
                }
            }
            // The engine throws here ("Markdown lexing stopped short"); paragraph and text
            // take any non-empty line, so it cannot happen. Keep the rest as it is.
            let Some((rule, token)) = found else {
                tokens.push(Token::leaf(Kind::Paragraph, rest));
                break;
            };
            let consumed = token.raw.len();
            let last_kind = tokens.last().map(|t| t.kind);
            if rule == Rule::Space && consumed == 1 && tokens.last().is_some() {
                if let Some(last) = tokens.last_mut() {
                    last.raw.push(NL);
                }
            } else if merges(rule, last_kind, open) {
                if let Some(last) = tokens.last_mut() {
                    last.raw.push(NL);
                    last.raw.extend_from_slice(&token.raw);
                }
            } else if rule != Rule::Def {
                tokens.push(token);
            }
            open = open && rule != Rule::Paragraph;
            if consumed == 0 {
                break;
            }
            pos += consumed;
        }
        self.top = true;
        self.frames.pop();
    }

    fn apply(&mut self, rule: Rule, e: &[u16]) -> Option<Token> {
        let leaf = |kind: Kind, len: Option<usize>| -> Option<Token> {
            let len = len.filter(|&n| n > 0)?;
            e.get(..len).map(|raw| Token::leaf(kind, raw))
        };
        match rule {
            Rule::Space => leaf(Kind::Space, Some(space_len(e))),
            Rule::Code => leaf(Kind::Code, indented_code_len(e)),
            Rule::Fences => leaf(Kind::Code, fences_len(e)),
            Rule::Heading => leaf(Kind::Heading, heading_len(e)),
            Rule::Hr => {
                let len = hr_len(e).filter(|&n| n > 0)?;
                Some(Token::leaf(Kind::Hr, trim_trailing(e.get(..len)?, NL)))
            }
            Rule::List => self.list(e),
            Rule::Blockquote => self.blockquote(e),
            Rule::Html => leaf(Kind::Html, html_len(e)),
            Rule::Def => leaf(Kind::Def, def_len(e)),
            Rule::Table => None,
            Rule::Lheading => leaf(Kind::Heading, self.setext_len(e)),
            Rule::Paragraph => leaf(Kind::Paragraph, Some(paragraph_end(e, 0))),
            Rule::Text => leaf(Kind::Text, Some(line_end(e, 0))),
        }
    }

    /// `CFn.lheading`: at a line start the engine tries a setext heading only where an
    /// underline below can reach.
    fn setext_len(&self, e: &[u16]) -> Option<usize> {
        if let Some(frame) = self.frames.last() {
            let reachable = frame.in_reach.get(e.len()).copied().unwrap_or(false);
            let before = frame
                .text
                .len()
                .checked_sub(e.len() + 1)
                .and_then(|i| at(&frame.text, i))
                .unwrap_or(NL);
            if !reachable && before == NL {
                return None;
            }
        }
        let underline = setext_underline_at(e).ok()?;
        setext_rule_end(e, underline)
    }

    fn list(&mut self, e: &[u16]) -> Option<Token> {
        if !list_start(e) {
            return None;
        }
        let scan = scan_list(e)?;
        let mut items = Vec::new();
        if self.lex_items {
            for content in &scan.contents {
                self.top = false;
                let mut tokens = Vec::new();
                self.block_tokens(content, &mut tokens, false);
                items.push(tokens);
            }
        }
        self.top = true;
        let raw = js_trim_end(e.get(..scan.end)?);
        Some(Token {
            kind: Kind::List,
            raw: raw.to_vec(),
            children: Vec::new(),
            items,
        })
    }

    /// `Hxe.blockquote`: the quote's extent comes from `U_`, then its lines are lexed in
    /// chunks (`cD`), and a last inner list or blockquote swallows the lazy lines (`uD`),
    /// rewriting the quote's raw text the way the engine does.
    fn blockquote(&mut self, e: &[u16]) -> Option<Token> {
        let end = quote_extent(e)?;
        let mut quote = Token {
            kind: Kind::Blockquote,
            raw: Vec::new(),
            children: Vec::new(),
            items: Vec::new(),
        };
        let mut rest: Option<Vec<u16>> = Some(trim_trailing(e.get(..end)?, NL).to_vec());
        while let Some(chunk_source) = rest.take() {
            let (chunk, after) = quote_chunk(&mut quote, &chunk_source);
            let saved_top = self.top;
            self.top = true;
            let mut children = std::mem::take(&mut quote.children);
            self.block_tokens(&chunk, &mut children, true);
            quote.children = children;
            self.top = saved_top;
            rest = match after {
                Some(lazy) => self.quote_lazy(&mut quote, lazy),
                None => None,
            };
        }
        Some(quote)
    }

    /// `uD`: what to do with the quote's remaining lazy lines, by its last inner token.
    fn quote_lazy(&mut self, quote: &mut Token, lazy: Vec<u16>) -> Option<Vec<u16>> {
        let Some(last) = quote.children.last().cloned() else {
            return Some(lazy);
        };
        match last.kind {
            Kind::List | Kind::Blockquote => {}
            Kind::Code => return None,
            _ => return Some(lazy),
        }
        let mut joined = last.raw.clone();
        joined.push(NL);
        joined.extend_from_slice(&lazy);
        let again = if last.kind == Kind::List {
            self.list(&joined)
        } else {
            self.blockquote(&joined)
        }?;
        let keep = quote.raw.len().saturating_sub(last.raw.len());
        quote.raw.truncate(keep);
        quote.raw.extend_from_slice(&again.raw);
        let again_len = again.raw.len();
        let again_kind = again.kind;
        if let Some(slot) = quote.children.last_mut() {
            *slot = again;
        }
        if again_kind == Kind::Blockquote {
            return None;
        }
        joined.get(again_len..).map(|r| r.to_vec())
    }
}

fn merges(rule: Rule, last: Option<Kind>, paragraph_open: bool) -> bool {
    match rule {
        Rule::Code | Rule::Def => matches!(last, Some(Kind::Paragraph) | Some(Kind::Text)),
        Rule::Text => last == Some(Kind::Text),
        Rule::Paragraph => paragraph_open && last == Some(Kind::Paragraph),
        _ => false,
    }
}

/// The html token's text without its comments, when the token is an HTML comment (`iht`).
fn comment_residue(token: &Token) -> Option<Vec<u16>> {
    if token.kind != Kind::Html {
        return None;
    }
    let trimmed = js_trim_start(&token.raw);
    if !starts_at(trimmed, 0, "<!--") || find_seq(trimmed, 0, "-->").is_none() {
        return None;
    }
    Some(remove_comments(&token.raw))
}

/// `raw.replace(/<!--[\s\S]*?-->/g, "")`.
fn remove_comments(e: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(e.len());
    let mut i = 0;
    loop {
        let rest_from = |i: usize| e.get(i..).unwrap_or(&[]);
        let Some(open) = find_seq(e, i, "<!--") else {
            out.extend_from_slice(rest_from(i));
            break;
        };
        let Some(close) = find_seq(e, open + 4, "-->") else {
            out.extend_from_slice(rest_from(i));
            break;
        };
        out.extend_from_slice(e.get(i..open).unwrap_or(&[]));
        i = close + 3;
    }
    out
}

// ---------------------------------------------------------------------------------------
// Block rules
// ---------------------------------------------------------------------------------------

/// `yl`: blank lines.
fn space_len(e: &[u16]) -> usize {
    let blankish = |c: u16| c == TAB || c == NL || c == SP;
    if e.iter().all(|&c| blankish(c)) {
        return e.len();
    }
    let i = skip_tabs_spaces(e, 0);
    if at(e, i) != Some(NL) {
        return 0;
    }
    let mut end = i + 1;
    let mut j = end;
    while let Some(c) = at(e, j).filter(|&c| blankish(c)) {
        if c == NL {
            end = j + 1;
        }
        j += 1;
    }
    end
}

/// `B_`: an indent of a tab after up to three spaces, or four spaces; where it ends.
fn code_indent(e: &[u16], r: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, r);
    if at(e, i) == Some(TAB) {
        return Some(i + 1);
    }
    if (0..4).all(|k| at(e, r + k) == Some(SP)) {
        return Some(r + 4);
    }
    None
}

/// `Sl`: an indented code block, with the blank lines after it.
fn indented_code_len(e: &[u16]) -> Option<usize> {
    let mut end = None;
    let mut r = 0;
    loop {
        let Some(h) = code_indent(e, r).filter(|&h| !at_line_end(e, h)) else {
            return end;
        };
        let g = line_end(e, h);
        let next = if g < e.len() {
            blank_run_end(e, g + 1)
        } else {
            g
        };
        end = Some(next);
        r = next;
    }
}

/// `WP`: `[\t\n ]*$|[\t\n ]*\n|` at `p`.
fn blank_run_end(e: &[u16], p: usize) -> usize {
    let blankish = |c: u16| c == TAB || c == NL || c == SP;
    let tail = e.get(p..).unwrap_or(&[]);
    if tail.iter().all(|&c| blankish(c)) {
        return e.len();
    }
    let mut end = p;
    let mut j = p;
    while let Some(c) = at(e, j).filter(|&c| blankish(c)) {
        if c == NL {
            end = j + 1;
        }
        j += 1;
    }
    end
}

/// `OP`: an opening fence; where its marker ends.
fn fence_open(e: &[u16]) -> Option<usize> {
    let p = skip_up_to_3_spaces(e, 0);
    let c = at(e, p)?;
    if c != BACKTICK && c != TILDE {
        return None;
    }
    let end = skip_unit(e, p, c);
    if end - p < 3 {
        return None;
    }
    if c == BACKTICK
        && e.get(end..line_end(e, end))
            .is_some_and(|l| l.contains(&BACKTICK))
    {
        return None;
    }
    Some(end)
}

/// `zu`: the start of the closing fence's line.
fn fence_close(e: &[u16], marker_end: usize) -> Option<usize> {
    let marker = e.get(skip_up_to_3_spaces(e, 0)..marker_end)?;
    let mut h = marker_end;
    loop {
        let (newline, start) = next_fence_candidate(e, h)?;
        let after = start + marker.len();
        if e.get(start..after) == Some(marker) {
            let i = skip_spaces(e, skip_fence_chars(e, after));
            if at_line_end(e, i) {
                return Some(newline + 1);
            }
        }
        h = start;
    }
}

/// `PP` (`/\n {0,3}(?=[`~])/g`) from `h`: the newline and where the fence character is.
fn next_fence_candidate(e: &[u16], h: usize) -> Option<(usize, usize)> {
    let mut q = h;
    loop {
        let newline = find_unit(e, q, NL)?;
        let start = skip_up_to_3_spaces(e, newline + 1);
        if matches!(at(e, start), Some(BACKTICK) | Some(TILDE)) {
            return Some((newline, start));
        }
        q = newline + 1;
    }
}

fn skip_fence_chars(e: &[u16], mut i: usize) -> usize {
    while matches!(at(e, i), Some(BACKTICK) | Some(TILDE)) {
        i += 1;
    }
    i
}

/// `wl`: a fenced code block, to the end of its closing line (or of the text).
fn fences_len(e: &[u16]) -> Option<usize> {
    let open = fence_open(e)?;
    Some(match fence_close(e, open) {
        Some(close) => line_end(e, close),
        None => e.len(),
    })
}

/// `#{1,6}(?!\S)` at `p`: where the hashes end.
fn atx_hashes(e: &[u16], p: usize) -> Option<usize> {
    let q = skip_unit(e, p, HASH);
    let n = q - p;
    if n == 0 || n > 6 {
        return None;
    }
    match at(e, q) {
        Some(c) if !is_js_space(c) => None,
        _ => Some(q),
    }
}

/// `L_`: an ATX heading line and the newlines after it.
fn heading_len(e: &[u16]) -> Option<usize> {
    let q = atx_hashes(e, skip_up_to_3_spaces(e, 0))?;
    let mut i = q;
    while let Some(c) = at(e, i).filter(|&c| c != NL) {
        if is_dot_excluded(c) {
            return None;
        }
        i += 1;
    }
    Some(skip_unit(e, i, NL))
}

/// `I_`: a thematic break from `p` to the end of the line; where the line ends.
fn hr_body(e: &[u16], p: usize) -> Option<usize> {
    let c = at(e, p).filter(|&c| c == DASH || c == UNDERSCORE || c == STAR)?;
    let mut count = 0;
    let mut i = p;
    while let Some(d) = at(e, i).filter(|&d| d != NL) {
        if d == c {
            count += 1;
        } else if d != TAB && d != SP {
            return None;
        }
        i += 1;
    }
    (count >= 3).then_some(i)
}

/// `ju`: a thematic break and the newlines after it.
fn hr_len(e: &[u16]) -> Option<usize> {
    let end = hr_body(e, skip_up_to_3_spaces(e, 0))?;
    Some(skip_unit(e, end, NL))
}

/// `$_`: a paragraph's end from `o` (the newline ending its last line): lines go on until one
/// that can interrupt a paragraph.
fn paragraph_end(e: &[u16], o: usize) -> usize {
    let mut h = line_end(e, o);
    if h == o {
        return h;
    }
    while h + 1 < e.len() {
        let g = line_end(e, h + 1);
        if interrupts_paragraph(e, h + 1) {
            break;
        }
        h = g;
    }
    h
}

const BLOCK_TAGS: &[&str] = &[
    "address",
    "article",
    "aside",
    "base",
    "basefont",
    "blockquote",
    "body",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hr",
    "html",
    "iframe",
    "legend",
    "li",
    "link",
    "main",
    "menu",
    "menuitem",
    "meta",
    "nav",
    "noframes",
    "ol",
    "optgroup",
    "option",
    "p",
    "param",
    "search",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
];
const RAW_TAGS: &[&str] = &["script", "pre", "style", "textarea"];

/// `F_`: whether the line at `p` interrupts a paragraph (or a blockquote's lazy line).
fn interrupts_paragraph(e: &[u16], p: usize) -> bool {
    let i = skip_up_to_3_spaces(e, p);
    match at(e, i) {
        Some(GT) => return true,
        Some(DASH) | Some(PLUS) | Some(STAR) if at(e, i + 1) == Some(SP) => return true,
        Some(0x31)
            if matches!(at(e, i + 1), Some(RPAREN) | Some(DOT)) && at(e, i + 2) == Some(SP) =>
        {
            return true
        }
        Some(HASH) if atx_hashes(e, i).is_some() => return true,
        _ => {}
    }
    if starts_at(e, i, "```") {
        let run_end = skip_unit(e, i, BACKTICK);
        let end = line_end(e, run_end);
        let no_backtick = e.get(run_end..end).is_some_and(|l| !l.contains(&BACKTICK));
        if no_backtick && end < e.len() {
            return true;
        }
    }
    if starts_at(e, i, "~~~") && line_end(e, i + 3) < e.len() {
        return true;
    }
    if hr_body(e, i).is_some() {
        return true;
    }
    if at(e, skip_unit(e, p, SP)) == Some(NL) {
        return true;
    }
    html_interrupt_at(e, p)
}

/// `M_` at `p` exactly (case-sensitive, no indent).
fn html_interrupt_at(e: &[u16], p: usize) -> bool {
    if at(e, p) != Some(LT) {
        return false;
    }
    let q = p + 1;
    if starts_at(e, q, "!--") || RAW_TAGS.iter().any(|t| starts_at(e, q, t)) {
        return true;
    }
    let name_start = if at(e, q) == Some(SLASH) { q + 1 } else { q };
    BLOCK_TAGS.iter().any(|tag| {
        let after = name_start + tag.len();
        starts_at(e, name_start, tag)
            && (matches!(at(e, after), Some(NL) | Some(SP) | Some(GT))
                || (at(e, after) == Some(SLASH) && at(e, after + 1) == Some(GT)))
    })
}

/// `O_`: an HTML block.
fn html_len(e: &[u16]) -> Option<usize> {
    let o = skip_up_to_3_spaces(e, 0);
    if at(e, o) != Some(LT) {
        return None;
    }
    let r = o + 1;
    match at(e, r) {
        Some(QMARK) => return Some(skip_newlines(e, after_seq(e, "?>", r + 1))),
        Some(BANG) => {
            if starts_at(e, r + 1, "--") {
                return Some(skip_newlines(e, line_end(e, after_seq(e, "-->", r + 1))));
            }
            if tag_name_end(e, r + 1) > r + 1 {
                return Some(skip_newlines(e, after_seq(e, ">", r)));
            }
            let cdata = e.get(r + 1..(r + 8).min(e.len())).unwrap_or(&[]);
            return ascii_upper_eq(cdata, "[CDATA[")
                .then(|| skip_newlines(e, after_seq(e, "]]>", r + 8)));
        }
        _ => {}
    }
    let closing = at(e, r) == Some(SLASH);
    let y = if closing { r + 1 } else { r };
    let k = tag_name_end(e, y);
    let name: String = e
        .get(y..k)
        .unwrap_or(&[])
        .iter()
        .map(|&c| ascii_lower(c) as u8 as char)
        .collect();
    let after_name = at(e, k);
    if RAW_TAGS.iter().any(|t| name.starts_with(t)) {
        let opens = !closing
            && RAW_TAGS.contains(&name.as_str())
            && (after_name == Some(GT) || after_name.is_some_and(is_js_space));
        return opens.then(|| raw_tag_end(e, &name, k));
    }
    if BLOCK_TAGS.contains(&name.as_str()) && block_tag_follow(e, k) {
        return Some(html_blank_end(e, k + 1));
    }
    if name.is_empty() {
        return None;
    }
    let d = if closing {
        closing_tag_end(e, k)
    } else {
        open_tag_end(e, skip_attributes(e, k))
    };
    let d = d?;
    at_line_end(e, skip_tabs_spaces(e, d)).then(|| html_blank_end(e, d))
}

/// `AP`: `[\n >]|\/>`.
fn block_tag_follow(e: &[u16], k: usize) -> bool {
    matches!(at(e, k), Some(NL) | Some(SP) | Some(GT))
        || (at(e, k) == Some(SLASH) && at(e, k + 1) == Some(GT))
}

/// `TP`: `[A-Z][-\w]*` (case-insensitive) from `o`; `o` when none.
fn tag_name_end(e: &[u16], o: usize) -> usize {
    if !at(e, o).is_some_and(is_ascii_alpha) {
        return o;
    }
    let mut i = o + 1;
    while at(e, i).is_some_and(|c| c == DASH || is_word(c)) {
        i += 1;
    }
    i
}

/// `MP`: to the end of the line holding `</name>` (any case), or of the text.
fn raw_tag_end(e: &[u16], name: &str, from: usize) -> usize {
    let closer: Vec<u16> = format!("</{name}>").encode_utf16().collect();
    let mut g = find_seq(e, from, "</");
    while let Some(pos) = g {
        let same = e
            .get(pos..pos + closer.len())
            .is_some_and(|s| s.iter().zip(&closer).all(|(&a, &b)| ascii_lower(a) == b));
        if same {
            return skip_newlines(e, line_end(e, pos));
        }
        g = find_seq(e, pos + 2, "</");
    }
    e.len()
}

/// `A_`: after the first blank line(s) from `o` (`/\n[\t\n ]*\n/g`), or the text's end.
fn html_blank_end(e: &[u16], o: usize) -> usize {
    let mut q = o;
    while let Some(newline) = find_unit(e, q, NL) {
        let mut j = newline + 1;
        let mut last = None;
        while let Some(c) = at(e, j).filter(|&c| c == TAB || c == NL || c == SP) {
            if c == NL {
                last = Some(j);
            }
            j += 1;
        }
        if let Some(l) = last {
            return l + 1;
        }
        q = newline + 1;
    }
    e.len()
}

/// `vP`: `\s*>`.
fn closing_tag_end(e: &[u16], k: usize) -> Option<usize> {
    let i = skip_js_space(e, k);
    (at(e, i) == Some(GT)).then_some(i + 1)
}

/// `RP`: ` *\/?>`.
fn open_tag_end(e: &[u16], k: usize) -> Option<usize> {
    let mut i = skip_spaces(e, k);
    if at(e, i) == Some(SLASH) {
        i += 1;
    }
    (at(e, i) == Some(GT)).then_some(i + 1)
}

/// `Gn(bP)`: attributes, each ` +name( *= *value)?`.
fn skip_attributes(e: &[u16], k: usize) -> usize {
    let mut p = k;
    while let Some(next) = attribute_end(e, p).filter(|&n| n > p) {
        p = next;
    }
    p
}

fn attribute_end(e: &[u16], p: usize) -> Option<usize> {
    let i = skip_spaces(e, p);
    if i == p {
        return None;
    }
    let c = at(e, i)?;
    if !(c == COLON || c == UNDERSCORE || is_ascii_alpha(c)) {
        return None;
    }
    let mut j = i + 1;
    while at(e, j).is_some_and(|c| c == DASH || c == DOT || c == COLON || is_word(c)) {
        j += 1;
    }
    let eq = skip_spaces(e, j);
    if at(e, eq) != Some(EQ) {
        return Some(j);
    }
    let v = skip_spaces(e, eq + 1);
    let value_end = match at(e, v) {
        Some(q @ (SQ | DQ)) => {
            let mut t = v + 1;
            while at(e, t).is_some_and(|c| c != q && c != NL) {
                t += 1;
            }
            (at(e, t) == Some(q)).then_some(t + 1)
        }
        _ => {
            let mut t = v;
            while at(e, t)
                .is_some_and(|c| !is_js_space(c) && !matches!(c, DQ | SQ | LT | EQ | GT | BACKTICK))
            {
                t += 1;
            }
            (t > v).then_some(t)
        }
    };
    Some(value_end.unwrap_or(j))
}

/// `lS`: a link reference definition, with the newlines after it.
fn def_len(e: &[u16]) -> Option<usize> {
    let o = skip_up_to_3_spaces(e, 0);
    if at(e, o) != Some(LBRACKET) {
        return None;
    }
    let r = def_label_end(e, o + 1)?;
    if r <= o + 1 || at(e, r + 1) != Some(COLON) {
        return None;
    }
    let g = def_gap(e, r + 2);
    if at(e, g) != Some(LT) {
        let k = next_js_space(e, g);
        if k == g {
            return None;
        }
        return def_rest(e, k);
    }
    let limit = next_line_terminator(e, g);
    let mut k = find_unit(e, g, GT);
    while let Some(pos) = k.filter(|&p| p < limit) {
        if let Some(len) = def_rest(e, pos + 1) {
            return Some(len);
        }
        k = find_unit(e, pos + 1, GT);
    }
    None
}

/// `Tl`: the label's closing bracket.
fn def_label_end(e: &[u16], o: usize) -> Option<usize> {
    let mut r = o;
    loop {
        match at(e, r) {
            Some(BACKSLASH) if at(e, r + 1).is_some_and(|c| !is_dot_excluded(c)) => r += 2,
            Some(c) if c != LBRACKET && c != BACKSLASH && c != RBRACKET => {
                while at(e, r).is_some_and(|c| c != LBRACKET && c != BACKSLASH && c != RBRACKET) {
                    r += 1;
                }
            }
            _ => break,
        }
    }
    (at(e, r) == Some(RBRACKET) && skip_js_space(e, o) < r).then_some(r)
}

/// `dS`: spaces, and at most one newline followed by spaces or tabs.
fn def_gap(e: &[u16], o: usize) -> usize {
    let r = skip_unit(e, o, SP);
    if at(e, r) == Some(NL) {
        skip_tabs_spaces(e, r + 1)
    } else {
        r
    }
}

/// `aS`: an optional title, then the end of the line; the definition's length.
fn def_rest(e: &[u16], h: usize) -> Option<usize> {
    let g = def_gap(e, h);
    let mut title_end = None;
    if g > h {
        match at(e, g) {
            Some(DQ) => title_end = def_double_quoted(e, g),
            Some(SQ) => {
                title_end = find_unit(e, g + 1, SQ).filter(|&y| {
                    let inner = e.get(g..y).unwrap_or(&[]);
                    !inner.windows(2).any(|w| w == [NL, NL])
                });
            }
            Some(LPAREN) => {
                let mut y = g + 1;
                while at(e, y).is_some_and(|c| c != LPAREN && c != RPAREN) {
                    y += 1;
                }
                title_end = (at(e, y) == Some(RPAREN)).then_some(y);
            }
            _ => {}
        }
    }
    if let Some(len) = title_end.and_then(|y| def_line_end(e, y + 1)) {
        return Some(len);
    }
    def_line_end(e, h)
}

/// `Ju(e, g, '"', Qu)`.
fn def_double_quoted(e: &[u16], o: usize) -> Option<usize> {
    let mut g = find_unit(e, o + 1, DQ);
    let mut y: Option<usize> = None;
    while let Some(pos) = g {
        y = Some(pos);
        if pos == o + 1 || at(e, pos - 1) != Some(BACKSLASH) {
            break;
        }
        g = find_unit(e, pos + 1, DQ);
    }
    while let Some(pos) = y.filter(|&p| p > o) {
        if def_line_end(e, pos + 1).is_some() {
            return Some(pos);
        }
        y = rfind_unit(e, pos - 1, DQ);
    }
    None
}

/// `Qu`: spaces then the end of the line; past the newlines there.
fn def_line_end(e: &[u16], o: usize) -> Option<usize> {
    let r = skip_unit(e, o, SP);
    at_line_end(e, r).then(|| skip_unit(e, r, NL))
}

/// `H_`: what a list's first line must look like.
fn list_start(e: &[u16]) -> bool {
    let p = skip_up_to_3_spaces(e, 0);
    let Some(m) = list_marker_end(e, p) else {
        return false;
    };
    match at(e, m) {
        None | Some(NL) => true,
        Some(TAB) | Some(SP) => at(e, m + 1).is_some_and(|c| c != NL),
        Some(_) => false,
    }
}

/// `\d{1,9}[).]` or `[-+*]` at `p`; where it ends.
fn list_marker_end(e: &[u16], p: usize) -> Option<usize> {
    match at(e, p)? {
        DASH | PLUS | STAR => Some(p + 1),
        c if is_digit(c) => {
            let mut i = p;
            while at(e, i).is_some_and(is_digit) {
                i += 1;
            }
            (i - p <= 9 && matches!(at(e, i), Some(RPAREN) | Some(DOT))).then_some(i + 1)
        }
        _ => None,
    }
}

/// `CI`: an item's marker at `k` (after up to three spaces), followed by a tab, space,
/// newline or the end; where the marker ends.
fn item_marker(e: &[u16], k: usize) -> Option<usize> {
    let end = list_marker_end(e, skip_up_to_3_spaces(e, k))?;
    match at(e, end) {
        None | Some(TAB) | Some(NL) | Some(SP) => Some(end),
        Some(_) => None,
    }
}

struct ListScan {
    end: usize,
    contents: Vec<Vec<u16>>,
}

/// `fD`: the items of a list, up to where the next line is no item of it.
fn scan_list(e: &[u16]) -> Option<ListScan> {
    let mut bullet: Option<u16> = None;
    let mut k = 0;
    let mut contents = Vec::new();
    while k < e.len() {
        let marker = item_marker(e, k);
        let delimiter = marker.and_then(|d| at(e, d.wrapping_sub(1)));
        if bullet.is_none() {
            bullet = delimiter;
        }
        let Some(d) = marker else { break };
        if delimiter != bullet || hr_body(e, skip_up_to_3_spaces(e, k)).is_some() {
            break;
        }
        let item = scan_item(e, k, d);
        contents.push(item.content);
        if item.end <= k {
            break;
        }
        k = item.end;
    }
    if contents.is_empty() {
        return None;
    }
    Some(ListScan { end: k, contents })
}

struct ItemScan {
    end: usize,
    content: Vec<u16>,
}

/// `vS`: one list item from `o` (its marker ends at `r`).
fn scan_item(e: &[u16], o: usize, r: usize) -> ItemScan {
    let mut h = line_end(e, r);
    let g = skip_unit(e, r, TAB);
    let mut first: Vec<u16> = std::iter::repeat_n(SP, 3 * (g - r)).collect();
    first.extend_from_slice(e.get(g..h).unwrap_or(&[]));
    let mut blank_seen = js_trim(&first).is_empty();
    let mut width = r as isize - o as isize;
    let mut content: Vec<u16> = Vec::new();
    if blank_seen {
        width += 1;
    } else {
        let spaces = skip_spaces(e, r) - r;
        let take = if spaces > 4 { 1 } else { spaces };
        content.extend_from_slice(first.get(take..).unwrap_or(&[]));
        width += take as isize;
    }
    if blank_seen {
        if let Some(end) = blank_line_end(e, (h + 1).min(e.len())) {
            return ItemScan { end, content };
        }
    }
    let mut previous = first;
    let lazy_limit = (width - 1).min(3);
    loop {
        let start = h + 1;
        if start >= e.len() {
            break;
        }
        let end = line_end(e, start);
        let line = e.get(start..end).unwrap_or(&[]);
        let indent = first_non_space(line) as isize;
        if indent <= lazy_limit && breaks_item(line, indent as usize) {
            break;
        }
        let expanded: Vec<u16> = line
            .iter()
            .flat_map(|&c| if c == TAB { vec![SP; 4] } else { vec![c] })
            .collect();
        let is_blank = js_trim(line).is_empty();
        let shifted: Vec<u16> = slice_from(&expanded, width).to_vec();
        if is_blank || first_non_space(&expanded) as isize >= width {
            content.push(NL);
            content.extend_from_slice(&shifted);
        } else if blank_seen || !lazy_line_allowed(&previous, lazy_limit) {
            break;
        } else {
            content.push(NL);
            content.extend_from_slice(line);
        }
        blank_seen = blank_seen || is_blank;
        previous = shifted;
        h = end;
    }
    ItemScan {
        end: (h + 1).min(e.len()),
        content,
    }
}

fn slice_from(e: &[u16], from: isize) -> &[u16] {
    if from <= 0 {
        return e;
    }
    e.get(from as usize..).unwrap_or(&[])
}

/// `MI`: a blank line at `p`; past its newline.
fn blank_line_end(e: &[u16], p: usize) -> Option<usize> {
    let i = skip_tabs_spaces(e, p);
    if !at_line_end(e, i) {
        return None;
    }
    Some(if at(e, i) == Some(NL) { i + 1 } else { i })
}

/// `ef`: the first character that is not a space (or the length).
fn first_non_space(e: &[u16]) -> usize {
    e.iter().position(|&c| c != SP).unwrap_or(e.len())
}

/// `AI` at `q` on a line: what ends a list item when not indented enough.
fn breaks_item(line: &[u16], q: usize) -> bool {
    if block_start_in_item(line, q) || starts_at(line, q, "<!--") {
        return true;
    }
    if at(line, q) == Some(LT) && at(line, q + 1).is_some_and(is_ascii_alpha) {
        let mut i = q + 2;
        while let Some(c) = at(line, i) {
            if is_dot_excluded(c) {
                break;
            }
            if c == GT {
                return true;
            }
            i += 1;
        }
    }
    if let Some(end) = list_marker_end(line, q) {
        return matches!(at(line, end), None | Some(TAB) | Some(SP));
    }
    false
}

/// `ES`/`TI` at `q`: `#`, a fence, or a thematic break of spaces to the line's end.
fn block_start_in_item(line: &[u16], q: usize) -> bool {
    if at(line, q) == Some(HASH) || starts_at(line, q, "```") || starts_at(line, q, "~~~") {
        return true;
    }
    let Some(c) = at(line, q).filter(|&c| c == DASH || c == UNDERSCORE || c == STAR) else {
        return false;
    };
    let rest = line.get(q..).unwrap_or(&[]);
    rest.iter().all(|&d| d == c || d == SP) && rest.iter().filter(|&&d| d == c).count() >= 3
}

/// `NI`: whether a line may continue the item lazily after `previous`.
fn lazy_line_allowed(previous: &[u16], limit: isize) -> bool {
    let r = first_non_space(previous);
    let indented_code = code_indent(previous, 0).is_some_and(|i| {
        previous
            .get(i..)
            .is_some_and(|t| t.iter().any(|&c| c != TAB && c != SP))
    });
    !indented_code && (r as isize > limit || !block_start_in_item(previous, r))
}

/// `U_`: a blockquote's extent: quoted lines and the lazy lines after them.
fn quote_extent(e: &[u16]) -> Option<usize> {
    let mut end = None;
    let mut r = 0;
    while r < e.len() {
        let Some(h) = quote_marker(e, r) else { break };
        let next = (paragraph_end(e, h) + 1).min(e.len());
        end = Some(next);
        if next <= r {
            break;
        }
        r = next;
    }
    end
}

/// `DP`: ` {0,3}> ?`; where it ends.
fn quote_marker(e: &[u16], r: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, r);
    if at(e, i) != Some(GT) {
        return None;
    }
    Some(if at(e, i + 1) == Some(SP) {
        i + 2
    } else {
        i + 1
    })
}

/// `cD`: the next chunk of a quote's lines (without their `>`), adding its source to the
/// quote's raw text; and the lines after it.
fn quote_chunk(quote: &mut Token, o: &[u16]) -> (Vec<u16>, Option<Vec<u16>>) {
    let mut h: isize = -1;
    let mut text: Vec<u16> = Vec::new();
    let mut quoted_before = false;
    while h < o.len() as isize {
        let start = (h + 1) as usize;
        let end = line_end(o, start);
        let line = o.get(start..end).unwrap_or(&[]);
        let quoted = at(line, skip_up_to_3_spaces(line, 0)) == Some(GT);
        if quoted_before && !quoted {
            break;
        }
        quoted_before = quoted;
        if h == -1 {
            text = strip_quote_marks(line);
        } else if setext_rule_end(line, 0).is_none() {
            text.push(NL);
            text.extend(strip_quote_marks(line));
        } else {
            text.extend_from_slice(&[NL, SP, SP, SP, SP]);
            text.extend_from_slice(js_trim_start(line));
        }
        h += line.len() as isize + 1;
    }
    let cut = (h.max(0) as usize).min(o.len());
    let source = o.get(..cut).unwrap_or(&[]);
    if quote.raw.is_empty() {
        quote.raw = source.to_vec();
    } else {
        quote.raw.push(NL);
        quote.raw.extend_from_slice(source);
    }
    let rest = if cut < o.len() {
        o.get(cut + 1..).map(|r| r.to_vec())
    } else {
        None
    };
    (text, rest)
}

/// `MS`: `> ` off each piece of a line (pieces split by any line terminator).
fn strip_quote_marks(e: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(e.len());
    let mut r = 0;
    while r < e.len() {
        let h = quote_mark_tab(e, r).unwrap_or(r);
        let next = (next_line_terminator(e, h) + 1).min(e.len());
        out.extend_from_slice(e.get(h..next).unwrap_or(&[]));
        if next <= r {
            break;
        }
        r = next;
    }
    out
}

/// `qI`: ` {0,3}>[\t ]?`.
fn quote_mark_tab(e: &[u16], r: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, r);
    if at(e, i) != Some(GT) {
        return None;
    }
    Some(if matches!(at(e, i + 1), Some(TAB) | Some(SP)) {
        i + 2
    } else {
        i + 1
    })
}

/// `Rl`/`LP`: a setext underline at `o` and the newlines after it; where that ends.
fn setext_rule_end(e: &[u16], o: usize) -> Option<usize> {
    let i = skip_up_to_3_spaces(e, o);
    let c = at(e, i).filter(|&c| c == DASH || c == EQ)?;
    let j = skip_spaces(e, skip_unit(e, i, c));
    at_line_end(e, j).then(|| skip_unit(e, j, NL))
}

/// `Vu`: where a setext heading's text lines end (its underline starts), or where looking
/// stopped.
fn setext_underline_at(e: &[u16]) -> Result<usize, usize> {
    let mut o = 0;
    while let Some(r) = setext_text_line(e, o) {
        o = r;
        if o > 1 && setext_rule_end(e, o).is_some() {
            return Ok(o);
        }
        if blank_line_at(e, o) {
            break;
        }
    }
    Err(o)
}

/// `$P`: a line that can be part of a setext heading's text; past its newline.
fn setext_text_line(e: &[u16], o: usize) -> Option<usize> {
    if matches!(at(e, o), Some(DASH) | Some(PLUS) | Some(STAR)) && at(e, o + 1) == Some(SP) {
        return None;
    }
    if at(e, o).is_some_and(is_digit) {
        if let Some(end) = list_marker_end(e, o) {
            if at(e, end) == Some(SP) {
                return None;
            }
        }
    }
    let p = skip_up_to_3_spaces(e, o);
    if matches!(at(e, p), Some(TAB) | Some(HASH) | Some(GT))
        || starts_at(e, p, "```")
        || starts_at(e, p, "~~~")
    {
        return None;
    }
    if at(e, p) == Some(LT) {
        let mut i = p + 1;
        while at(e, i).is_some_and(|c| c != NL && c != GT) {
            i += 1;
        }
        if i > p + 1 && at(e, i) == Some(GT) && at(e, i + 1) == Some(NL) {
            return None;
        }
    }
    if (0..4).all(|k| at(e, o + k) == Some(SP)) {
        return None;
    }
    let mut i = o;
    loop {
        match at(e, i)? {
            NL => return Some(i + 1),
            c if is_dot_excluded(c) => return None,
            _ => i += 1,
        }
    }
}

/// `NP`: `[^\S\n]*\n` at `o`.
fn blank_line_at(e: &[u16], o: usize) -> bool {
    let mut i = o;
    while at(e, i).is_some_and(|c| c != NL && is_js_space(c)) {
        i += 1;
    }
    at(e, i) == Some(NL)
}

/// The engine's `AFn.blockTokens`: the line starts (by remaining length) from which lines
/// that cannot stop a setext heading lead down to an underline.
fn setext_reach(text: &[u16]) -> Vec<bool> {
    let len = text.len();
    let mut reach = vec![false; len + 1];
    let any_underline = text
        .split(|&c| c == NL || c == CR || c == LINE_SEP || c == PARA_SEP)
        .any(is_underline_line);
    if !any_underline {
        return reach;
    }
    let mut h = len as isize;
    let mut below = false;
    while h >= 0 {
        let k = if h == 0 {
            0
        } else {
            rfind_unit(text, (h - 1) as usize, NL).map_or(0, |p| p + 1)
        };
        let line = text.get(k..h as usize).unwrap_or(&[]);
        if below {
            if let Some(slot) = reach.get_mut(len - k) {
                *slot = true;
            }
        }
        below = is_underline_line(line) || (below && !stops_setext(line));
        h = k as isize - 1;
    }
    reach
}

/// `OJr`: `^ {0,3}(?:=+|-+) *$`.
fn is_underline_line(line: &[u16]) -> bool {
    let i = skip_up_to_3_spaces(line, 0);
    let Some(c) = at(line, i).filter(|&c| c == DASH || c == EQ) else {
        return false;
    };
    skip_spaces(line, skip_unit(line, i, c)) == line.len()
}

/// `LJr`: a line that ends a setext heading's reach upward.
fn stops_setext(line: &[u16]) -> bool {
    if line.iter().all(|&c| is_js_space(c)) || line.contains(&LINE_SEP) || line.contains(&PARA_SEP)
    {
        return true;
    }
    if let Some(end) = list_marker_end(line, 0) {
        if at(line, end) == Some(SP) {
            return true;
        }
    }
    if code_indent(line, 0).is_some() {
        return true;
    }
    let p = skip_up_to_3_spaces(line, 0);
    if starts_at(line, p, "```")
        || starts_at(line, p, "~~~")
        || matches!(at(line, p), Some(GT) | Some(HASH))
    {
        return true;
    }
    if at(line, p) == Some(LT) && line.last() == Some(&GT) && line.len() > p + 2 {
        let inner = line.get(p + 1..line.len() - 1).unwrap_or(&[]);
        if !inner.iter().any(|&c| c == NL || c == GT) {
            return true;
        }
    }
    false
}

// ---------------------------------------------------------------------------------------
// Imports (`GZr`)
// ---------------------------------------------------------------------------------------

fn collect_imports(tokens: &[Token], out: &mut Vec<String>) {
    for token in tokens {
        match token.kind {
            Kind::Code => continue,
            Kind::Html => {
                if let Some(residue) = comment_residue(token) {
                    if !js_trim(&residue).is_empty() {
                        scan_mentions(&residue, out);
                    }
                }
                continue;
            }
            Kind::Text => {
                scan_mentions(&token.raw, out);
                scan_inline(&token.raw, out);
            }
            Kind::Paragraph => scan_inline(&token.raw, out),
            Kind::Heading => scan_inline(&heading_text(&token.raw), out),
            _ => {}
        }
        collect_imports(&token.children, out);
        for item in &token.items {
            collect_imports(item, out);
        }
    }
}

fn heading_text(raw: &[u16]) -> Vec<u16> {
    let r = trim_trailing(raw, NL);
    let p = skip_up_to_3_spaces(r, 0);
    if at(r, p) == Some(HASH) {
        let after = skip_unit(r, p, HASH);
        let mut text = js_trim(r.get(after..).unwrap_or(&[])).to_vec();
        let trailing = text.iter().rev().take_while(|&&c| c == HASH).count();
        if trailing > 0 {
            let cut = text.len() - trailing;
            if cut == 0 || at(&text, cut - 1) == Some(SP) {
                text.truncate(cut);
            }
        }
        return js_trim(&text).to_vec();
    }
    match r.iter().rposition(|&c| c == NL) {
        Some(i) => r.get(..i).unwrap_or(&[]).to_vec(),
        None => Vec::new(),
    }
}

/// Inline text runs of a paragraph or heading, roughly as the engine's inline lexer cuts
/// them: code spans and HTML tags are left out, escapes, emphasis marks and link brackets end
/// a run, and an autolink's text is a run of its own.
fn scan_inline(text: &[u16], out: &mut Vec<String>) {
    let mut runs: Vec<Vec<u16>> = Vec::new();
    let mut current: Vec<u16> = Vec::new();
    let mut i = 0;
    while let Some(c) = at(text, i) {
        match c {
            BACKSLASH if at(text, i + 1).is_some_and(is_ascii_punct) => {
                runs.push(std::mem::take(&mut current));
                i += 2;
            }
            BACKTICK => {
                let run = skip_unit(text, i, BACKTICK) - i;
                match code_span_end(text, i + run, run) {
                    Some(end) => {
                        runs.push(std::mem::take(&mut current));
                        i = end;
                    }
                    None => {
                        current.extend(std::iter::repeat_n(BACKTICK, run));
                        i += run;
                    }
                }
            }
            LT => {
                if let Some(end) = inline_tag_end(text, i) {
                    runs.push(std::mem::take(&mut current));
                    i = end;
                } else if let Some(end) = autolink_end(text, i) {
                    runs.push(std::mem::take(&mut current));
                    runs.push(text.get(i + 1..end - 1).unwrap_or(&[]).to_vec());
                    i = end;
                } else {
                    current.push(c);
                    i += 1;
                }
            }
            BANG if at(text, i + 1) == Some(LBRACKET) => match link_end(text, i + 1) {
                // An image's alt text is no text token of the engine's.
                Some(end) => {
                    runs.push(std::mem::take(&mut current));
                    i = end;
                }
                None => {
                    current.push(c);
                    i += 1;
                }
            },
            LBRACKET if find_unit(text, i + 1, RBRACKET).is_some() => {
                runs.push(std::mem::take(&mut current));
                i += 1;
            }
            RBRACKET => {
                runs.push(std::mem::take(&mut current));
                i = match at(text, i + 1) {
                    Some(LPAREN) => find_unit(text, i + 2, RPAREN).map_or(i + 1, |p| p + 1),
                    _ => i + 1,
                };
            }
            STAR | UNDERSCORE if delimiter_runs(text, c) >= 2 => {
                runs.push(std::mem::take(&mut current));
                i = skip_unit(text, i, c);
            }
            _ => {
                current.push(c);
                i += 1;
            }
        }
    }
    runs.push(current);
    for run in runs.iter().filter(|r| !r.is_empty()) {
        scan_mentions(run, out);
    }
}

/// Where `[...](...)` from the `[` at `open` ends, if it is one.
fn link_end(text: &[u16], open: usize) -> Option<usize> {
    let close = find_unit(text, open + 1, RBRACKET)?;
    if at(text, close + 1) != Some(LPAREN) {
        return None;
    }
    find_unit(text, close + 2, RPAREN).map(|p| p + 1)
}

/// How many runs of `c` the text has: one run alone cannot be emphasis.
fn delimiter_runs(text: &[u16], c: u16) -> usize {
    let mut runs = 0;
    let mut previous = None;
    for &x in text {
        if x == c && previous != Some(c) {
            runs += 1;
        }
        previous = Some(x);
    }
    runs
}

fn code_span_end(text: &[u16], from: usize, run: usize) -> Option<usize> {
    let mut i = from;
    while let Some(open) = find_unit(text, i, BACKTICK) {
        let close = skip_unit(text, open, BACKTICK);
        if close - open == run {
            return Some(close);
        }
        i = close;
    }
    None
}

fn inline_tag_end(text: &[u16], i: usize) -> Option<usize> {
    if starts_at(text, i + 1, "!--") {
        return find_seq(text, i + 2, "-->").map(|p| p + 3);
    }
    let name = if at(text, i + 1) == Some(SLASH) {
        i + 2
    } else {
        i + 1
    };
    let end = tag_name_end(text, name);
    if end == name {
        return None;
    }
    match at(text, end)? {
        GT => Some(end + 1),
        SLASH | SP | TAB | NL => {
            let close = find_unit(text, end, GT)?;
            let inner = text.get(end..close).unwrap_or(&[]);
            (!inner.contains(&LT)).then_some(close + 1)
        }
        _ => None,
    }
}

fn autolink_end(text: &[u16], i: usize) -> Option<usize> {
    let close = find_unit(text, i + 1, GT)?;
    let inner = text.get(i + 1..close)?;
    let ok = !inner.is_empty()
        && !inner.iter().any(|&c| c == LT || is_js_space(c))
        && (inner.contains(&COLON) || inner.contains(&AT));
    ok.then_some(close + 1)
}

/// `(?:^|\s)@((?:[^\s\\]|\\ )+)` over one text run, with the engine's test of a path.
fn scan_mentions(run: &[u16], out: &mut Vec<String>) {
    let mut i = 0;
    while i < run.len() {
        let Some(p) = find_unit(run, i, AT) else {
            break;
        };
        let starts = (p == 0 && i == 0) || (p > i && at(run, p - 1).is_some_and(is_js_space));
        if !starts {
            i = p + 1;
            continue;
        }
        let mut j = p + 1;
        loop {
            match at(run, j) {
                Some(BACKSLASH) if at(run, j + 1) == Some(SP) => j += 2,
                Some(c) if c != BACKSLASH && !is_js_space(c) => j += 1,
                _ => break,
            }
        }
        if j == p + 1 {
            i = p + 1;
            continue;
        }
        let mut path = run.get(p + 1..j).unwrap_or(&[]).to_vec();
        if let Some(hash) = path.iter().position(|&c| c == HASH) {
            path.truncate(hash);
        }
        let path = String::from_utf16_lossy(&path).replace("\\ ", " ");
        if is_import_path(&path) {
            out.push(path);
        }
        i = j;
    }
}

fn is_import_path(h: &str) -> bool {
    if h.is_empty() || is_special_path(h) {
        return false;
    }
    let first = h.chars().next().unwrap_or(' ');
    h.starts_with("./")
        || h.starts_with("~/")
        || (h.starts_with('/') && h != "/")
        || (!h.starts_with('@')
            && !"#%^&*()".contains(first)
            && (first.is_ascii_alphanumeric() || matches!(first, '.' | '_' | '-')))
}

/// Most of the engine's `O1` (paths it never reads as an import: UNC and device paths,
/// `/net` automounts, macOS `/.vol`-style paths); its check for a network mount is left out.
fn is_special_path(h: &str) -> bool {
    let b = h.as_bytes();
    let slash = |c: Option<&u8>| matches!(c, Some(b'/') | Some(b'\\'));
    if slash(b.first()) && slash(b.get(1)) {
        let wsl = h.get(2..).is_some_and(|r| {
            let lower = r.to_ascii_lowercase();
            lower.starts_with("wsl$") || lower.starts_with("wsl.localhost")
        });
        return !wsl || h.len() < 4;
    }
    if !h.starts_with('/') {
        return false;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in h.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    let first = parts.first().map(|p| p.to_ascii_lowercase());
    if first.as_deref() == Some("net") && parts.len() <= 2 {
        return true;
    }
    matches!(
        first.as_deref(),
        Some(".vol" | ".file" | ".nofollow" | ".resolve")
    )
}

// ---------------------------------------------------------------------------------------
// Character helpers: JavaScript's view of text (UTF-16, its whitespace, its `.`)
// ---------------------------------------------------------------------------------------

fn at(e: &[u16], i: usize) -> Option<u16> {
    e.get(i).copied()
}

/// JavaScript's `\s` and what `trim()` removes.
fn is_js_space(c: u16) -> bool {
    matches!(c, 0x09..=0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF)
}

fn is_js_space_char(c: char) -> bool {
    u16::try_from(u32::from(c)).is_ok_and(is_js_space)
}

/// What JavaScript's `.` does not match.
fn is_dot_excluded(c: u16) -> bool {
    c == NL || c == CR || c == LINE_SEP || c == PARA_SEP
}

fn is_digit(c: u16) -> bool {
    (0x30..=0x39).contains(&c)
}

fn is_ascii_alpha(c: u16) -> bool {
    (0x41..=0x5A).contains(&c) || (0x61..=0x7A).contains(&c)
}

fn is_word(c: u16) -> bool {
    is_ascii_alpha(c) || is_digit(c) || c == UNDERSCORE
}

fn is_ascii_punct(c: u16) -> bool {
    (0x21..=0x2F).contains(&c)
        || (0x3A..=0x40).contains(&c)
        || (0x5B..=0x60).contains(&c)
        || (0x7B..=0x7E).contains(&c)
}

fn ascii_lower(c: u16) -> u16 {
    if (0x41..=0x5A).contains(&c) {
        c + 0x20
    } else {
        c
    }
}

fn ascii_upper_eq(e: &[u16], lit: &str) -> bool {
    e.len() == lit.len()
        && e.iter().zip(lit.bytes()).all(|(&c, b)| {
            let up = if (0x61..=0x7A).contains(&c) {
                c - 0x20
            } else {
                c
            };
            up == u16::from(b)
        })
}

fn starts_at(e: &[u16], i: usize, lit: &str) -> bool {
    let n = lit.len();
    e.get(i..i + n)
        .is_some_and(|s| s.iter().zip(lit.bytes()).all(|(&c, b)| c == u16::from(b)))
}

fn find_unit(e: &[u16], from: usize, c: u16) -> Option<usize> {
    e.get(from..)?
        .iter()
        .position(|&x| x == c)
        .map(|p| p + from)
}

fn rfind_unit(e: &[u16], upto: usize, c: u16) -> Option<usize> {
    let end = upto.checked_add(1)?.min(e.len());
    e.get(..end)?.iter().rposition(|&x| x == c)
}

fn find_seq(e: &[u16], from: usize, lit: &str) -> Option<usize> {
    let needle: Vec<u16> = lit.encode_utf16().collect();
    let hay = e.get(from..)?;
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    hay.windows(needle.len())
        .position(|w| w == needle.as_slice())
        .map(|p| p + from)
}

/// `hl`: past the first `lit` from `from`, or the text's end.
fn after_seq(e: &[u16], lit: &str, from: usize) -> usize {
    find_seq(e, from, lit).map_or(e.len(), |p| p + lit.len())
}

fn line_end(e: &[u16], o: usize) -> usize {
    find_unit(e, o, NL).unwrap_or(e.len())
}

/// `tr`: the next `\n`, `\r`, U+2028 or U+2029 from `o`, or the length.
fn next_line_terminator(e: &[u16], o: usize) -> usize {
    e.get(o..)
        .and_then(|t| t.iter().position(|&c| is_dot_excluded(c)))
        .map_or(e.len(), |p| p + o)
}

fn skip_unit(e: &[u16], o: usize, c: u16) -> usize {
    let mut i = o;
    while at(e, i) == Some(c) {
        i += 1;
    }
    i.max(o)
}

fn skip_newlines(e: &[u16], o: usize) -> usize {
    skip_unit(e, o, NL)
}

fn skip_spaces(e: &[u16], o: usize) -> usize {
    skip_unit(e, o, SP)
}

fn skip_up_to_3_spaces(e: &[u16], o: usize) -> usize {
    let mut i = o;
    while i < o + 3 && at(e, i) == Some(SP) {
        i += 1;
    }
    i
}

fn skip_tabs_spaces(e: &[u16], o: usize) -> usize {
    let mut i = o;
    while matches!(at(e, i), Some(TAB) | Some(SP)) {
        i += 1;
    }
    i
}

fn skip_js_space(e: &[u16], o: usize) -> usize {
    let mut i = o;
    while at(e, i).is_some_and(is_js_space) {
        i += 1;
    }
    i
}

fn next_js_space(e: &[u16], o: usize) -> usize {
    e.get(o..)
        .and_then(|t| t.iter().position(|&c| is_js_space(c)))
        .map_or(e.len(), |p| p + o)
}

fn at_line_end(e: &[u16], o: usize) -> bool {
    o >= e.len() || at(e, o) == Some(NL)
}

fn trim_trailing(e: &[u16], c: u16) -> &[u16] {
    let n = e.iter().rposition(|&x| x != c).map_or(0, |p| p + 1);
    e.get(..n).unwrap_or(&[])
}

fn js_trim_start(e: &[u16]) -> &[u16] {
    let n = e.iter().position(|&c| !is_js_space(c)).unwrap_or(e.len());
    e.get(n..).unwrap_or(&[])
}

fn js_trim_end(e: &[u16]) -> &[u16] {
    let n = e
        .iter()
        .rposition(|&c| !is_js_space(c))
        .map_or(0, |p| p + 1);
    e.get(..n).unwrap_or(&[])
}

fn js_trim(e: &[u16]) -> &[u16] {
    js_trim_end(js_trim_start(e))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn imports_are_found_outside_code() {
        assert_eq!(
            import_paths("# P\n\nSee @./other.md for more.\n"),
            ["./other.md"]
        );
        assert_eq!(import_paths("@./other.md\n\n# P\n"), ["./other.md"]);
        assert!(has_imports("- item @docs/a.md\n"));
        assert!(has_imports("> quoted @~/notes.md\n"));
        assert!(has_imports("**@bold.md** and <!-- c --> @after.md\n"));
        assert_eq!(import_paths("@a\\ b.md#part and @a\\ b.md\n"), ["a b.md"]);
        assert!(!has_imports(
            "# P\n\n`@./other.md` and\n\n```\n@./other.md\n```\n"
        ));
        assert!(!has_imports("    @indented.md\n"));
        assert!(!has_imports("mail me@example.com\n"));
        assert!(!has_imports("<div>\n@inside.md\n</div>\n"));
        assert!(!has_imports("\\@escaped.md and @@x and @#f and @/\n"));
        assert!(!has_imports("---\nowner: @someone\n---\nbody\n"));
        assert!(!has_imports("<!-- @hidden.md -->\n"));
        assert!(!has_imports("see @//server/share.md\n"));
    }

    #[test]
    fn claude_md_text_renders_as_the_engine_does() {
        let text = claude_md_text([("/p/CLAUDE.md", "project", "\u{feff}# P\r\n\r\nBody.  \r\n")]);
        let expected = format!(
            "{CLAUDE_MD_PREAMBLE}\n\nContents of /p/CLAUDE.md (project instructions, checked into the codebase):\n\n# P\r\n\r\nBody."
        );
        assert_eq!(text.as_deref(), Some(expected.as_str()));
        assert_eq!(claude_md_text([]).as_deref(), Some(""));
        assert_eq!(claude_md_text([("/m", "memory", "x")]), None);
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
