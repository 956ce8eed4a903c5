//! Step 2 of the engine's copy: its Markdown block lexer (`Wze`, with the engine's own
//! `AFn`/`CFn` overrides), ported on UTF-16 code units. Only the block level: the engine's copy
//! is glued back together from the top-level tokens' `raw` texts, and imports are looked for
//! in the tokens. [`Lexer::block_tokens`] tries the rules in the engine's order; each family of
//! rules has its file.

mod blocks;
mod definition;
mod html;
mod list;
mod quote;
mod setext;

pub(crate) use html::{comment_residue, tag_name_end};

use crate::instructions::utf16::{
    at, is_digit, js_trim_end, line_end, skip_up_to_3_spaces, trim_trailing, BACKTICK, CR, DASH,
    GT, HASH, LBRACKET, LT, NL, PLUS, SP, STAR, TAB, TILDE, UNDERSCORE,
};
use blocks::{fences_len, heading_len, hr_len, indented_code_len, paragraph_end, space_len};
use definition::def_len;
use html::html_len;
use list::{list_start, scan_list};
use quote::{quote_chunk, quote_extent};
use setext::{setext_reach, setext_rule_end, setext_underline_at};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockRule {
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
pub(crate) enum BlockKind {
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
pub(crate) struct Token {
    pub(crate) kind: BlockKind,
    pub(crate) raw: Vec<u16>,
    /// A blockquote's block tokens.
    pub(crate) children: Vec<Token>,
    /// A list's items' block tokens (lexed only when imports are looked for).
    pub(crate) items: Vec<Vec<Token>>,
}

impl Token {
    fn leaf(kind: BlockKind, raw: &[u16]) -> Token {
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

pub(crate) fn lex(body: &[u16], lex_items: bool) -> Vec<Token> {
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

const DEFAULT_RULES: [BlockRule; 4] = [BlockRule::Table, BlockRule::Lheading, BlockRule::Paragraph, BlockRule::Text];

/// Which rules the lexer tries, by the first character after up to three spaces (`LS`).
fn rules_for(first: Option<u16>) -> Vec<BlockRule> {
    let lead: &[BlockRule] = match first {
        None | Some(NL) => &[BlockRule::Space],
        Some(SP) | Some(TAB) => &[BlockRule::Space, BlockRule::Code],
        Some(BACKTICK) | Some(TILDE) => &[BlockRule::Fences],
        Some(HASH) => &[BlockRule::Heading],
        Some(UNDERSCORE) => &[BlockRule::Hr],
        Some(DASH) | Some(STAR) => &[BlockRule::Hr, BlockRule::List],
        Some(PLUS) => &[BlockRule::List],
        Some(c) if is_digit(c) => &[BlockRule::List],
        Some(GT) => &[BlockRule::Blockquote],
        Some(LT) => &[BlockRule::Html],
        Some(LBRACKET) => &[BlockRule::Def],
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
                if rule == BlockRule::Paragraph && !self.top {
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
                tokens.push(Token::leaf(BlockKind::Paragraph, rest));
                break;
            };
            let consumed = token.raw.len();
            let last_kind = tokens.last().map(|t| t.kind);
            if rule == BlockRule::Space && consumed == 1 && tokens.last().is_some() {
                if let Some(last) = tokens.last_mut() {
                    last.raw.push(NL);
                }
            } else if merges(rule, last_kind, open) {
                if let Some(last) = tokens.last_mut() {
                    last.raw.push(NL);
                    last.raw.extend_from_slice(&token.raw);
                }
            } else if rule != BlockRule::Def {
                tokens.push(token);
            }
            open = open && rule != BlockRule::Paragraph;
            if consumed == 0 {
                break;
            }
            pos += consumed;
        }
        self.top = true;
        self.frames.pop();
    }

    fn apply(&mut self, rule: BlockRule, e: &[u16]) -> Option<Token> {
        let leaf = |kind: BlockKind, len: Option<usize>| -> Option<Token> {
            let len = len.filter(|&n| n > 0)?;
            e.get(..len).map(|raw| Token::leaf(kind, raw))
        };
        match rule {
            BlockRule::Space => leaf(BlockKind::Space, Some(space_len(e))),
            BlockRule::Code => leaf(BlockKind::Code, indented_code_len(e)),
            BlockRule::Fences => leaf(BlockKind::Code, fences_len(e)),
            BlockRule::Heading => leaf(BlockKind::Heading, heading_len(e)),
            BlockRule::Hr => {
                let len = hr_len(e).filter(|&n| n > 0)?;
                Some(Token::leaf(BlockKind::Hr, trim_trailing(e.get(..len)?, NL)))
            }
            BlockRule::List => self.list(e),
            BlockRule::Blockquote => self.blockquote(e),
            BlockRule::Html => leaf(BlockKind::Html, html_len(e)),
            BlockRule::Def => leaf(BlockKind::Def, def_len(e)),
            BlockRule::Table => None,
            BlockRule::Lheading => leaf(BlockKind::Heading, self.setext_len(e)),
            BlockRule::Paragraph => leaf(BlockKind::Paragraph, Some(paragraph_end(e, 0))),
            BlockRule::Text => leaf(BlockKind::Text, Some(line_end(e, 0))),
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
            kind: BlockKind::List,
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
            kind: BlockKind::Blockquote,
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
            BlockKind::List | BlockKind::Blockquote => {}
            BlockKind::Code => return None,
            _ => return Some(lazy),
        }
        let mut joined = last.raw.clone();
        joined.push(NL);
        joined.extend_from_slice(&lazy);
        let again = if last.kind == BlockKind::List {
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
        if again_kind == BlockKind::Blockquote {
            return None;
        }
        joined.get(again_len..).map(|r| r.to_vec())
    }
}

fn merges(rule: BlockRule, last: Option<BlockKind>, paragraph_open: bool) -> bool {
    match rule {
        BlockRule::Code | BlockRule::Def => matches!(last, Some(BlockKind::Paragraph) | Some(BlockKind::Text)),
        BlockRule::Text => last == Some(BlockKind::Text),
        BlockRule::Paragraph => paragraph_open && last == Some(BlockKind::Paragraph),
        _ => false,
    }
}
