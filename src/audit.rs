//! The coverage audit: what the conversation named that the summary lost.
//!
//! A summary paraphrases, and a paraphrase drops the exact file, commit, URL or
//! error line the next turn needs. After the summarizer answers, the identifiers
//! of the compacted conversation are collected in one pass and checked against
//! the kept text (the summary and the verbatim block); the ones found in neither
//! are listed, most mentioned and most recent first, with a pointer to the
//! history file. Deterministic, no model call: the same conversation and summary
//! always give the same list.
//!
//! Only what the person, the assistant and the tools said counts. Machine rows
//! (reminders, command echoes, earlier summaries) and `<system-reminder>` spans
//! are not the conversation, and listing them would only send the model
//! searching for boilerplate.
//!
//! No regex: the shipped `regex` has no lazy DFA or literal prefilters, so the
//! scanners below are hand-written byte loops, linear in the text even for one
//! huge line, that skip what cannot start anything: commits seven bytes a step,
//! error markers by a pair table, words eight bytes a step to the next `/`,
//! `git` or "branch" (byte classes in [`CLASS`]). Measured on a 24 MB session
//! (`tests::bench`): collect ≈ 0.08 s of CPU natively, ≈ 0.16 s as the
//! size-optimised wasm in Node (0.17 s and 0.45 s before the skipping).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use serde_json::Value;

use crate::message::{Message, Messages};
use crate::{text, verbatim};

/// At most this many entries are listed: the block is a pointer, not a second summary.
pub const MAX_LISTED: usize = 40;
/// The whole rendered block, intro included, stays within this many characters
/// (UTF-16 units, as the host measures).
pub const MAX_LISTED_CHARS: usize = 2000;
/// Distinct identifiers kept while collecting. A session that prints thousands
/// of paths would otherwise grow the table without bound; past twice this many
/// the table is cut back to this many, keeping the most mentioned and most recent.
pub const MAX_TRACKED: usize = 20_000;

const ERROR_LINE_CHARS: usize = 160;
/// How far into a line a marker may sit for the excerpt to start at the line's start.
const ERROR_LEAD: usize = 120;
const MAX_IDENT_BYTES: usize = 300;
/// An error line of 160 UTF-16 units is at most 480 bytes.
const MAX_NOTED_BYTES: usize = 640;
const QUOTE_MIN_CHARS: usize = 2;
const QUOTE_MAX_CHARS: usize = 80;
const SHA_MIN: usize = 7;
const SHA_MAX: usize = 40;
/// Lines looked at after a `Traceback` header for the exception line.
const TRACEBACK_LOOKAHEAD: usize = 400;

pub const INTRO: &str = "compact-plus: these were mentioned before this compaction and are not in the summary above; search the history file for them before asking the user:";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Path,
    Sha,
    Url,
    Error,
    Branch,
    Quoted,
}

impl Kind {
    const ALL: [Kind; 6] = [Kind::Path, Kind::Sha, Kind::Url, Kind::Error, Kind::Branch, Kind::Quoted];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Path => "path",
            Kind::Sha => "commit",
            Kind::Url => "url",
            Kind::Error => "error",
            Kind::Branch => "branch",
            Kind::Quoted => "quoted",
        }
    }

    fn slot(self) -> usize {
        match self {
            Kind::Path => 0,
            Kind::Sha => 1,
            Kind::Url => 2,
            Kind::Error => 3,
            Kind::Branch => 4,
            Kind::Quoted => 5,
        }
    }
}

/// One identifier and how the conversation used it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub kind: Kind,
    pub text: String,
    pub count: u32,
    /// Ordinal of the latest mention in conversation order: larger is more recent.
    pub last: u64,
    /// Index in the messages list of the latest mention.
    pub message: usize,
}

/// Most mentioned first, then most recent, then by kind and text so ties never
/// depend on hashing.
fn rank(a: &Mention, b: &Mention) -> Ordering {
    b.count
        .cmp(&a.count)
        .then(b.last.cmp(&a.last))
        .then(a.kind.cmp(&b.kind))
        .then_with(|| a.text.cmp(&b.text))
}

#[derive(Debug, Clone, Copy)]
struct Tally {
    count: u32,
    last: u64,
    message: usize,
}

/// The identifiers of a conversation, each with its count and latest position.
#[derive(Debug, Default)]
pub struct Mentions {
    by_kind: [HashMap<String, Tally, FastHash>; 6],
    seq: u64,
    message: usize,
}

/// FxHash-style: a multiply per 8 bytes instead of SipHash's rounds. The table's
/// order never shows: [`Mentions::ranked`] sorts on count, recency, kind and text.
#[derive(Debug, Default, Clone, Copy)]
struct FastHash;

impl BuildHasher for FastHash {
    type Hasher = FxHasher;
    fn build_hasher(&self) -> FxHasher {
        FxHasher(0)
    }
}

struct FxHasher(u64);

const FX_K: u64 = 0xf135_7aea_2e62_a9c5;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(FX_K);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in chunks.by_ref() {
            self.add(u64::from_le_bytes(<[u8; 8]>::try_from(c).unwrap_or_default()));
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        for (d, s) in w.iter_mut().zip(rest) {
            *d = *s;
        }
        self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        // The product's high bits are the well mixed ones; hashbrown reads the low ones.
        self.0.rotate_left(26)
    }
}

impl Mentions {
    pub fn len(&self) -> usize {
        self.by_kind.iter().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, kind: Kind, text: &str) -> Option<Mention> {
        self.by_kind.get(kind.slot())?.get(text).map(|t| mention(kind, text, t))
    }

    /// Every identifier, best ranked first.
    pub fn ranked(&self) -> Vec<Mention> {
        let mut all: Vec<Mention> = Kind::ALL
            .iter()
            .flat_map(|&kind| {
                self.by_kind
                    .get(kind.slot())
                    .into_iter()
                    .flat_map(move |m| m.iter().map(move |(text, t)| mention(kind, text, t)))
            })
            .collect();
        all.sort_by(rank);
        all
    }

    fn note(&mut self, kind: Kind, ident: &str) {
        const VERBATIM_TAG: &str = "user-messages-verbatim>";
        if ident.is_empty() || ident.len() > MAX_NOTED_BYTES {
            return;
        }
        // A listed line must never open or close a verbatim block: the next
        // compaction looks for those tags in the summary row.
        if ident.len() >= VERBATIM_TAG.len() && holds_verbatim_tag(ident.as_bytes()) {
            return;
        }
        self.seq += 1;
        let tally = Tally { count: 1, last: self.seq, message: self.message };
        let Some(map) = self.by_kind.get_mut(kind.slot()) else { return };
        match map.get_mut(ident) {
            Some(t) => {
                t.count = t.count.saturating_add(1);
                t.last = tally.last;
                t.message = tally.message;
            }
            None => {
                map.insert(ident.to_owned(), tally);
                if self.len() > 2 * MAX_TRACKED {
                    self.prune(MAX_TRACKED);
                }
            }
        }
    }

    /// Keeps the `keep` best ranked identifiers.
    fn prune(&mut self, keep: usize) {
        let ranked = self.ranked();
        for map in &mut self.by_kind {
            map.clear();
        }
        for m in ranked.into_iter().take(keep) {
            if let Some(map) = self.by_kind.get_mut(m.kind.slot()) {
                map.insert(m.text, Tally { count: m.count, last: m.last, message: m.message });
            }
        }
    }
}

/// `contains("user-messages-verbatim>")`, found from its `>`: no searcher to set up per identifier.
fn holds_verbatim_tag(b: &[u8]) -> bool {
    const TAG: &[u8] = b"user-messages-verbatim>";
    b.iter().enumerate().any(|(i, &c)| c == b'>' && b.get(..=i).is_some_and(|h| h.ends_with(TAG)))
}

fn mention(kind: Kind, text: &str, t: &Tally) -> Mention {
    Mention { kind, text: text.to_owned(), count: t.count, last: t.last, message: t.message }
}

/// What a text is scanned for, by where it came from.
#[derive(Debug, Clone, Copy)]
struct Scan {
    /// Error lines: not in file bodies and search listings, where `error:` is code.
    errors: bool,
    /// Quoted terms: the person's only; quotes in tool output are code.
    quotes: bool,
}

/// Tools whose results are file bodies or listings, not things that happened.
const BODY_RESULT_TOOLS: [&str; 6] = ["Read", "Grep", "Glob", "NotebookRead", "WebFetch", "WebSearch"];
/// Tools whose inputs carry a file body: only their other fields (the path) are scanned.
const BODY_INPUT_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];
const BODY_INPUT_KEYS: [&str; 4] = ["content", "old_string", "new_string", "new_source"];

/// Collects the identifiers of a conversation in one pass over its messages.
pub fn collect(messages: &Messages) -> Mentions {
    let mut found = Mentions::default();
    for (index, message) in messages.iter().enumerate() {
        let Some(message) = message else { continue };
        found.message = index;
        collect_message(&mut found, message);
    }
    if found.len() > MAX_TRACKED {
        found.prune(MAX_TRACKED);
    }
    found
}

fn collect_message(found: &mut Mentions, message: &Message) {
    match message.role.as_str() {
        Some("user") => {
            // `person_text` is "" for machine rows and strips reminder spans.
            let own = verbatim::person_text(message.text());
            scan_text(found, &own, Scan { errors: true, quotes: true });
        }
        Some("assistant") => {
            scan_text(found, &without_reminders(message.text()), Scan { errors: true, quotes: false });
        }
        _ => {}
    }
    for tool_use in &message.tool_uses.0 {
        let tool = tool_use.tool.as_str().unwrap_or("");
        if let Some(input) = &tool_use.input {
            scan_input(found, tool, input.get());
        }
        if let Some(result) = &tool_use.text {
            let errors = !BODY_RESULT_TOOLS.contains(&tool);
            scan_text(found, &without_reminders(result), Scan { errors, quotes: false });
        }
    }
}

fn without_reminders(s: &str) -> Cow<'_, str> {
    if has_reminder(s) {
        Cow::Owned(text::remove_spans(s, "<system-reminder>", "</system-reminder>"))
    } else {
        Cow::Borrowed(s)
    }
}

/// `s.contains("<system-reminder>")`, by `memchr` on `<`: no searcher to set up per text.
fn has_reminder(s: &str) -> bool {
    let mut from = 0;
    while let Some(p) = s.get(from..).and_then(|r| r.find('<')) {
        let at = from + p;
        if s.get(at..).is_some_and(|r| r.starts_with("<system-reminder>")) {
            return true;
        }
        from = at + 1;
    }
    false
}

/// A tool's input is JSON text; its string values are scanned one by one, so an
/// escaped `\n` never glues two words together.
fn scan_input(found: &mut Mentions, tool: &str, json: &str) {
    let skip_bodies = BODY_INPUT_TOOLS.contains(&tool);
    match serde_json::from_str::<Value>(json) {
        Ok(value) => scan_value(found, &value, skip_bodies),
        Err(_) => scan_text(found, json, Scan { errors: false, quotes: false }),
    }
}

fn scan_value(found: &mut Mentions, value: &Value, skip_bodies: bool) {
    match value {
        Value::String(s) => scan_text(found, &without_reminders(s), Scan { errors: false, quotes: false }),
        Value::Array(items) => items.iter().for_each(|v| scan_value(found, v, skip_bodies)),
        Value::Object(map) => {
            for (key, v) in map {
                if skip_bodies && BODY_INPUT_KEYS.contains(&key.as_str()) {
                    continue;
                }
                scan_value(found, v, skip_bodies);
            }
        }
        _ => {}
    }
}

fn scan_text(found: &mut Mentions, s: &str, scan: Scan) {
    if s.is_empty() {
        return;
    }
    let s = &*strip_ansi(s);
    if scan.errors {
        scan_errors(found, s);
    }
    scan_shas(found, s);
    scan_words(found, s);
    if scan.quotes {
        scan_quotes(found, s);
    }
}

// ---------------------------------------------------------------- byte classes

/// ASCII whitespace, as `split_ascii_whitespace` splits on.
const WS: u8 = 1;
/// Lower-case hex: what a commit is made of.
const HEX: u8 = 2;
/// `[A-Za-z0-9_]`.
const WORD: u8 = 4;
const SLASH: u8 = 8;
/// A byte a word that matters to [`scan_words`] must hold: `/`, or the start of
/// `git` or `branch`.
const CUE: u8 = 16;
/// ASCII a path may hold: `[A-Za-z0-9._\-/~@+]` (see [`is_path_char`]).
const PATH: u8 = 32;
/// Where a word breaks into pieces: `"'`<>|{}()[],;=*`.
const PIECE_BREAK: u8 = 64;
const COLON: u8 = 128;

/// What each byte can be part of: one lookup per byte in the scanners' loops.
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut k = 0;
        if b.is_ascii_whitespace() {
            k |= WS;
        }
        if b.is_ascii_digit() || (b >= b'a' && b <= b'f') {
            k |= HEX;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            k |= WORD;
        }
        if b == b'/' {
            k |= SLASH;
        }
        if matches!(b, b'/' | b'g' | b'b' | b'B') {
            k |= CUE;
        }
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/' | b'~' | b'@' | b'+') {
            k |= PATH;
        }
        if matches!(b, b'"' | b'\'' | b'`' | b'<' | b'>' | b'|' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b',' | b';' | b'=' | b'*') {
            k |= PIECE_BREAK;
        }
        if b == b':' {
            k |= COLON;
        }
        table[i] = k;
        i += 1;
    }
    table
};

fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

fn is_word_byte(b: u8) -> bool {
    class(b) & WORD != 0
}

// ---------------------------------------------------------------- words

/// The words of every line (runs of non-ASCII-whitespace), in order; a line
/// break ends any `git` command or "branch" phrase.
///
/// Outside a `git` command or "branch" phrase a word without a `/` changes
/// nothing unless it is `git` or a "branch" word, so the scan jumps from cue
/// byte to cue byte and reads only the words around them.
fn scan_words(found: &mut Mentions, s: &str) {
    let b = s.as_bytes();
    let mut git = Git::Idle;
    let mut after_branch_word = false;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if git == Git::Idle && !after_branch_word {
            if class(c) & CUE == 0 {
                i = skip_to_cue(b, i + 1);
                continue;
            }
            let cue = match c {
                b'/' => true,
                b'g' => b.get(i + 1..i + 3) == Some(b"it".as_slice()),
                _ => b.get(i + 1..i + 6) == Some(b"ranch".as_slice()),
            };
            if !cue {
                i += 1;
                continue;
            }
            // Back to the start of the word: never past the last word read,
            // which ended at whitespace.
            while i > 0 && b.get(i - 1).is_some_and(|&p| class(p) & WS == 0) {
                i -= 1;
            }
        } else if class(c) & WS != 0 {
            if c == b'\n' {
                git = Git::Idle;
                after_branch_word = false;
            }
            i += 1;
            continue;
        }
        let start = i;
        let mut seen = 0;
        while let Some(&c) = b.get(i) {
            let k = class(c);
            if k & WS != 0 {
                break;
            }
            seen |= k;
            i += 1;
        }
        // Cut at ASCII bytes: always char boundaries.
        if let Some(word) = s.get(start..i) {
            scan_word(found, word, seen, &mut git, &mut after_branch_word);
        }
    }
}

/// Where a word breaks into pieces that may each be a path.
#[cfg(test)]
fn is_piece_break(c: char) -> bool {
    matches!(c, '"' | '\'' | '`' | '<' | '>' | '|' | '{' | '}' | '(' | ')' | '[' | ']' | ',' | ';' | '=' | '*')
}

/// The first byte at or after `i` that may start a cue. Eight bytes at a time
/// while they hold no `/`, no `gi` and no `br`/`Br` (a `g`, `b` or `B` in the
/// last byte counts: its pair may run into the next eight).
fn skip_to_cue(b: &[u8], mut i: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const TOP: u64 = 0x80 << 56;
    /// The high bit of every zero byte, exactly (no borrow between bytes).
    fn zeros(x: u64) -> u64 {
        !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
    }
    while let Some(chunk) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        let slash = zeros(v ^ (LO * u64::from(b'/')));
        let g = zeros(v ^ (LO * u64::from(b'g')));
        let i_next = (zeros(v ^ (LO * u64::from(b'i'))) >> 8) | TOP;
        let b_ = zeros((v | (LO * 0x20)) ^ (LO * u64::from(b'b')));
        let r_next = (zeros(v ^ (LO * u64::from(b'r'))) >> 8) | TOP;
        if slash | (g & i_next) | (b_ & r_next) != 0 {
            break;
        }
        i += 8;
    }
    while b.get(i).is_some_and(|&c| class(c) & CUE == 0) {
        i += 1;
    }
    i
}

/// The leftmost `needle` in `hay`, as `str::find` gives it, without a searcher to set up.
fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let mut from = 0;
    while let Some(p) = hay.get(from..)?.iter().position(|&c| c == first) {
        let at = from + p;
        if hay.get(at + 1..).is_some_and(|t| t.starts_with(rest)) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// One word; `seen` is the union of its bytes' classes.
fn scan_word(found: &mut Mentions, word: &str, seen: u8, git: &mut Git, after_branch_word: &mut bool) {
    let has_slash = seen & SLASH != 0;
    if has_slash {
        let url = seen & COLON != 0 && find_bytes(word.as_bytes(), b"://").is_some();
        let rest = if url { scan_urls(found, word) } else { word };
        // The pieces between break bytes (all ASCII, so every cut is a char
        // boundary); only one with a `/` can name a path.
        let b = rest.as_bytes();
        let mut start = 0;
        let mut slash = false;
        for (i, &c) in b.iter().enumerate() {
            let k = class(c);
            if k & PIECE_BREAK == 0 {
                slash |= k & SLASH != 0;
                continue;
            }
            if slash {
                note_path(found, rest.get(start..i));
            }
            start = i + 1;
            slash = false;
        }
        if slash {
            note_path(found, rest.get(start..));
        }
    }

    let clean = trim_word(word);
    if !has_slash && !*after_branch_word && *git == Git::Idle {
        // The common case, a word of prose: only `git` and "branch" change anything.
        if clean == "git" {
            *git = Git::Started { skip_next: false };
        }
        *after_branch_word = is_branch_word(clean);
        return;
    }
    let mut branch: Option<&str> = git.feed(clean);
    if has_slash {
        if let Some(name) = after_origin(clean) {
            branch = Some(name);
        }
    }
    if branch.is_none() && *after_branch_word && distinctive_branch(clean) {
        branch = Some(clean);
    }
    if let Some(name) = branch.filter(|n| is_branch_name(n)) {
        found.note(Kind::Branch, name);
    }
    *after_branch_word = is_branch_word(clean);
}

fn is_branch_word(w: &str) -> bool {
    matches!(w, "branch" | "Branch" | "branches")
}

fn note_path(found: &mut Mentions, piece: Option<&str>) {
    if let Some(path) = piece.and_then(as_path) {
        found.note(Kind::Path, path);
    }
}

/// A word without the quotes and brackets prose puts around it.
fn trim_word(word: &str) -> &str {
    // ASCII only, so a byte cut is always a char boundary.
    let b = word.as_bytes();
    let start = b.iter().position(|c| !matches!(c, b'(' | b'[' | b'"' | b'\'' | b'`' | b'*')).unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|c| !matches!(c, b'.' | b',' | b':' | b';' | b')' | b']' | b'"' | b'\'' | b'`' | b'*' | b'!' | b'?'))
        .map_or(start, |e| (e + 1).max(start));
    word.get(start..end).unwrap_or("")
}

/// Records every `http(s)://` URL in a word; returns the part before the first,
/// which may still hold a path.
fn scan_urls<'a>(found: &mut Mentions, word: &'a str) -> &'a str {
    let mut before = word;
    let mut first = true;
    let mut from = 0;
    while let Some(rest) = word.get(from..) {
        let Some(start) = find_scheme(rest) else { break };
        let at = from + start;
        if first {
            before = word.get(..at).unwrap_or("");
            first = false;
        }
        let tail = word.get(at..).unwrap_or("");
        let end = tail.find(['"', '\'', '`', '<', '>', '|', '\\', '{', '}', '^', ']']).unwrap_or(tail.len());
        let raw = tail.get(..end).unwrap_or("");
        if let Some(url) = normalize_url(raw) {
            found.note(Kind::Url, &url);
        }
        from = at + end.max(1);
    }
    before
}

fn find_scheme(s: &str) -> Option<usize> {
    s.match_indices("http").map(|(i, _)| i).find(|&i| {
        let r = s.get(i + 4..).unwrap_or("");
        r.starts_with("://") || r.starts_with("s://")
    })
}

/// A URL as an identifier: no query or fragment (they carry tokens and session
/// noise), no user info, no trailing punctuation or unmatched `)`.
fn normalize_url(raw: &str) -> Option<String> {
    let cut = raw.find(['?', '#']).unwrap_or(raw.len());
    let mut url = raw.get(..cut).unwrap_or(raw);
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ':', ';', '!', '*', '/']);
        let trimmed = if trimmed.ends_with(')') && trimmed.matches('(').count() < trimmed.matches(')').count() {
            trimmed.get(..trimmed.len() - 1).unwrap_or(trimmed)
        } else {
            trimmed
        };
        if trimmed.len() == url.len() {
            break;
        }
        url = trimmed;
    }
    let (scheme, rest) = url.split_once("://")?;
    let host_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(host_end);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if !host.bytes().any(|b| b.is_ascii_alphanumeric()) || url.len() > MAX_IDENT_BYTES {
        return None;
    }
    Some(format!("{scheme}://{host}{path}"))
}

fn is_path_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '~' | '@' | '+')
}

/// The path a piece of a word names, if it names one: absolute (two components
/// or a file name), `~/…`, `./…`, `../…`, or relative with a slash and an
/// extension. A `:line:col` suffix is dropped: the file is the identifier.
fn as_path(piece: &str) -> Option<&str> {
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

// ---------------------------------------------------------------- branches

/// Where a `git` command is, word by word, on one line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Git {
    Idle,
    /// After `git`; `-C dir` and `-c k=v` take one more word.
    Started { skip_next: bool },
    /// After a subcommand that names a branch; `remote` when a remote comes first.
    Command { remote: bool },
}

impl Git {
    /// Feeds one (trimmed) word; returns the branch it names, if any.
    fn feed<'a>(&mut self, w: &'a str) -> Option<&'a str> {
        if w == "&&" || w == "||" || w == ";" || w == "|" {
            *self = Git::Idle;
            return None;
        }
        match *self {
            Git::Idle => {
                if w == "git" {
                    *self = Git::Started { skip_next: false };
                }
                None
            }
            Git::Started { skip_next: true } => {
                *self = Git::Started { skip_next: false };
                None
            }
            Git::Started { skip_next: false } => {
                *self = match w {
                    "checkout" | "switch" | "branch" | "merge" | "rebase" => Git::Command { remote: false },
                    "push" | "pull" | "fetch" => Git::Command { remote: true },
                    "-C" | "-c" => Git::Started { skip_next: true },
                    _ if w.starts_with('-') => Git::Started { skip_next: false },
                    _ => Git::Idle,
                };
                None
            }
            Git::Command { remote } => {
                if w == "--" {
                    *self = Git::Idle;
                    return None;
                }
                if w.starts_with('-') {
                    return None;
                }
                if remote {
                    *self = Git::Command { remote: false };
                    return None;
                }
                *self = Git::Idle;
                // `origin/x` is read by the `origin/` rule; a refspec names its target.
                if w.starts_with("origin/") {
                    return None;
                }
                Some(w.rsplit_once(':').map_or(w, |(_, to)| to))
            }
        }
    }
}

fn after_origin(w: &str) -> Option<&str> {
    let at = find_bytes(w.as_bytes(), b"origin/")?;
    let before_ok = at == 0 || w.as_bytes().get(at - 1) == Some(&b'/');
    before_ok.then(|| w.get(at + "origin/".len()..)).flatten()
}

/// A ref name as git allows it, and not something else a command may name.
fn is_branch_name(n: &str) -> bool {
    let Some(first) = n.bytes().next() else { return false };
    (2..=100).contains(&n.len())
        && first.is_ascii_alphanumeric()
        && n.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/'))
        && !n.contains("..")
        && !n.ends_with(['/', '.'])
        && !n.ends_with(".lock")
        && n != "HEAD"
        && !looks_like_sha(n)
        && as_path(n).is_none()
}

/// After the word "branch" in prose only names that cannot be an ordinary word.
fn distinctive_branch(w: &str) -> bool {
    w.bytes().any(|b| matches!(b, b'-' | b'/' | b'_') || b.is_ascii_digit())
}

// ---------------------------------------------------------------- shas

fn is_lower_hex(b: u8) -> bool {
    class(b) & HEX != 0
}

fn looks_like_sha(s: &str) -> bool {
    (SHA_MIN..=SHA_MAX).contains(&s.len())
        && s.bytes().all(is_lower_hex)
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().any(|b| b.is_ascii_alphabetic())
        && !is_exponent(s)
}

/// `1234e56` is a number.
fn is_exponent(s: &str) -> bool {
    match s.split_once('e') {
        Some((a, b)) => {
            !a.is_empty() && !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit()) && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Runs of 7–40 lowercase hex standing alone: not inside a longer word, a UUID,
/// a path component, a `0x` number or a hashed file name.
fn scan_shas(found: &mut Mentions, s: &str) {
    let b = s.as_bytes();
    let hex = |i: usize| b.get(i).is_some_and(|&c| is_lower_hex(c));
    // No run of hex that starts before `i` reaches `i`. A run of SHA_MIN or
    // more that starts in `i..i + SHA_MIN` covers `i + SHA_MIN - 1`, so one
    // byte there rules out SHA_MIN starts: prose is skipped seven bytes a step.
    let mut i = 0;
    while i + SHA_MIN <= b.len() {
        let probe = i + SHA_MIN - 1;
        if !hex(probe) {
            i = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > i && hex(start - 1) {
            start -= 1;
        }
        let mut end = probe + 1;
        while hex(end) {
            end += 1;
        }
        i = end;
        if !(SHA_MIN..=SHA_MAX).contains(&(end - start)) {
            continue;
        }
        let prev = start.checked_sub(1).and_then(|p| b.get(p)).copied();
        let prev2 = start.checked_sub(2).and_then(|p| b.get(p)).copied();
        let next = b.get(end).copied();
        let next2 = b.get(end + 1).copied();
        let prev_ok = match prev {
            None => true,
            Some(c) if is_word_byte(c) || c == b'-' || c == b'/' => false,
            Some(b'.') => !prev2.is_some_and(is_word_byte),
            Some(_) => true,
        };
        let next_ok = match next {
            None => true,
            Some(c) if is_word_byte(c) || c == b'-' => false,
            Some(b'.') => !next2.is_some_and(is_word_byte),
            Some(_) => true,
        };
        if prev_ok && next_ok {
            if let Some(run) = s.get(start..end) {
                if looks_like_sha(run) {
                    found.note(Kind::Sha, run);
                }
            }
        }
    }
}

// ---------------------------------------------------------------- errors

#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Anywhere on the line.
    Any,
    /// `error:` where tools print it (line start, `file:1:2: error:`, `[x] error:`),
    /// not a field named `error` in code.
    Lower,
    /// Not `Error::` (a Rust path).
    NotPath,
    /// A whole upper-case word.
    Word,
    /// `error TS2322`.
    TsCode,
    /// At the start of the line.
    LineStart,
    /// The exception line after the header.
    Traceback,
}

const MARKERS: [(&str, Rule); 18] = [
    ("error[", Rule::Any),
    ("error:", Rule::Lower),
    ("Error:", Rule::NotPath),
    ("ERROR", Rule::Word),
    ("error TS", Rule::TsCode),
    ("Exception:", Rule::NotPath),
    ("Exception in thread", Rule::Any),
    ("panicked at", Rule::Any),
    ("FAILED", Rule::Word),
    ("FAIL ", Rule::LineStart),
    ("--- FAIL:", Rule::Any),
    ("fatal:", Rule::LineStart),
    ("npm ERR!", Rule::Any),
    ("npm error ", Rule::LineStart),
    ("No such file or directory", Rule::Any),
    ("command not found", Rule::Any),
    ("Segmentation fault", Rule::Any),
    ("Traceback (most recent call last)", Rule::Traceback),
];

/// Lines every failure of a kind prints: they name nothing.
const GENERIC_ERRORS: [&str; 10] = [
    "error: aborting due to",
    "error: could not compile",
    "error: test failed, to rerun pass",
    "For more information about this error",
    "Traceback (most recent call last)",
    "During handling of the above exception",
    "The above exception was the direct cause",
    "test result: FAILED",
    "npm ERR! A complete log of this run",
    "npm error A complete log of this run",
];

fn accepts(s: &str, line_start: usize, at: usize, marker: &[u8], rule: Rule) -> bool {
    let b = s.as_bytes();
    let prev = at.checked_sub(1).and_then(|p| b.get(p)).copied();
    let next = b.get(at + marker.len()).copied();
    let before = s.get(line_start..at).unwrap_or("");
    match rule {
        Rule::Any | Rule::Traceback => true,
        Rule::Lower => {
            next != Some(b':')
                && (text::trim(before).is_empty()
                    || before.ends_with(": ")
                    || before.ends_with("] ")
                    || before.ends_with(':'))
        }
        Rule::NotPath => next != Some(b':'),
        Rule::Word => !prev.is_some_and(is_word_byte) && !next.is_some_and(is_word_byte),
        Rule::TsCode => next.is_some_and(|c| c.is_ascii_digit()),
        Rule::LineStart => text::trim(before).is_empty(),
    }
}

/// After a `Traceback` header, the first unindented line that is not another
/// header: Python's exception line, the one that says what went wrong.
fn exception_after(s: &str, header_end: usize) -> Option<usize> {
    let mut at = header_end + 1;
    for _ in 0..TRACEBACK_LOOKAHEAD {
        let rest = s.get(at..)?;
        let line = rest.split('\n').next().unwrap_or("");
        let starts_indented = line.starts_with([' ', '\t']);
        let blank = text::trim(line).is_empty();
        if !starts_indented && !blank && !GENERIC_ERRORS.iter().any(|g| line.starts_with(g)) {
            return Some(at);
        }
        at += line.len() + 1;
    }
    None
}

/// The byte pairs a marker can start with, as a bit set: one lookup per byte
/// rules out almost every position before any marker is compared.
const MARKER_PAIRS: [u64; 1024] = {
    let mut table = [0u64; 1024];
    let mut i = 0;
    while i < MARKERS.len() {
        let bytes = MARKERS[i].0.as_bytes();
        if bytes.len() >= 2 {
            let pair = (bytes[0] as usize) << 8 | bytes[1] as usize;
            table[pair / 64] |= 1 << (pair % 64);
        }
        i += 1;
    }
    table
};

fn starts_marker(first: u8, second: u8) -> bool {
    let pair = usize::from(first) << 8 | usize::from(second);
    MARKER_PAIRS.get(pair / 64).is_some_and(|bits| bits & (1 << (pair % 64)) != 0)
}

/// Every marker is at least this long.
const MARKER_MIN: usize = {
    let mut min = usize::MAX;
    let mut i = 0;
    while i < MARKERS.len() {
        if MARKERS[i].0.len() < min {
            min = MARKERS[i].0.len();
        }
        i += 1;
    }
    assert!(min >= 3);
    min
};

const BLOCK_SLOTS: usize = 1024;

fn block_slot(a: u8, b: u8) -> usize {
    (usize::from(a) * 37 + usize::from(b)) % BLOCK_SLOTS
}

/// Wu–Manber skip table over byte pairs. For the pair at the end of a
/// `MARKER_MIN`-byte window: how far the window can move before a marker's
/// first `MARKER_MIN` bytes could hold that pair; 0 when a marker may start at
/// the window. Pairs sharing a slot keep the smaller shift, so a collision only
/// costs a look, never a miss.
const MARKER_SHIFT: [u8; BLOCK_SLOTS] = {
    let mut table = [(MARKER_MIN - 1) as u8; BLOCK_SLOTS];
    let mut i = 0;
    while i < MARKERS.len() {
        let m = MARKERS[i].0.as_bytes();
        let mut k = 0;
        while k + 1 < MARKER_MIN {
            let slot = (m[k] as usize * 37 + m[k + 1] as usize) % BLOCK_SLOTS;
            let shift = (MARKER_MIN - 2 - k) as u8;
            if shift < table[slot] {
                table[slot] = shift;
            }
            k += 1;
        }
        i += 1;
    }
    table
};

/// One forward pass: most positions are skipped by the pair table, the line
/// start is found lazily (each byte looked at once at most), and a line with
/// an error is left at its first marker, so a megabyte of minified output on
/// one line costs one pass, not one per marker.
fn scan_errors(found: &mut Mentions, s: &str) {
    let b = s.as_bytes();
    let mut starts: Vec<usize> = Vec::new();
    let mut line_start = 0;
    // Line breaks in `..newlines_to` are accounted for in `line_start`.
    let mut newlines_to = 0;
    let mut at = 0;
    while at + MARKER_MIN <= b.len() {
        let (Some(&y), Some(&z)) = (b.get(at + MARKER_MIN - 2), b.get(at + MARKER_MIN - 1)) else { break };
        let shift = MARKER_SHIFT.get(block_slot(y, z)).copied().unwrap_or(0);
        if shift > 0 {
            at += usize::from(shift);
            continue;
        }
        let (Some(&c), Some(&d)) = (b.get(at), b.get(at + 1)) else { break };
        if !starts_marker(c, d) {
            at += 1;
            continue;
        }
        let rest = b.get(at..).unwrap_or(&[]);
        let hit = MARKERS.iter().find(|(marker, rule)| {
            let m = marker.as_bytes();
            if !(m.first() == Some(&c) && m.get(1) == Some(&d) && rest.starts_with(m)) {
                return false;
            }
            if let Some(p) = b.get(newlines_to..at).and_then(|r| r.iter().rposition(|&x| x == b'\n')) {
                line_start = newlines_to + p + 1;
            }
            newlines_to = at;
            accepts(s, line_start, at, m, *rule)
        });
        let Some(&(_, rule)) = hit else {
            at += 1;
            continue;
        };
        let line_end = s.get(at..).and_then(|t| t.find('\n')).map_or(s.len(), |p| at + p);
        match rule {
            Rule::Traceback => {
                if let Some(exc) = exception_after(s, line_end) {
                    starts.push(exc);
                }
            }
            // Deep in a long line, the excerpt starts at the marker.
            _ => starts.push(if at - line_start <= ERROR_LEAD { line_start } else { at }),
        }
        at = line_end;
    }
    starts.sort_unstable();
    starts.dedup();
    for start in starts {
        let line = window(s, start, 4 * ERROR_LINE_CHARS).split('\n').next().unwrap_or("");
        if let Some(err) = error_text(line) {
            found.note(Kind::Error, &err);
        }
    }
}

/// `s[from..]`, at most `max` bytes of it, ending on a char boundary.
fn window(s: &str, from: usize, max: usize) -> &str {
    let rest = s.get(from..).unwrap_or("");
    if rest.len() <= max {
        return rest;
    }
    let mut end = max;
    while end > 0 && !rest.is_char_boundary(end) {
        end -= 1;
    }
    rest.get(..end).unwrap_or("")
}

fn error_text(line: &str) -> Option<String> {
    let line = text::trim(line);
    // Most lines have nothing to collapse: ASCII, no control whitespace, no double space.
    let mut plain = true;
    let mut prev = 0u8;
    for &c in line.as_bytes() {
        if !c.is_ascii() || (b'\t'..=b'\r').contains(&c) || (c == b' ' && prev == b' ') {
            plain = false;
            break;
        }
        prev = c;
    }
    let collapsed = if plain { Cow::Borrowed(line) } else { Cow::Owned(text::collapse_space(line)) };
    let trimmed = text::trim(&collapsed);
    if trimmed.len() < 6 || GENERIC_ERRORS.iter().any(|g| trimmed.starts_with(g)) {
        return None;
    }
    Some(text::trim_end(text::head(trimmed, ERROR_LINE_CHARS)).to_owned())
}

/// Terminal colour codes (`ESC [ … letter`) are not part of any identifier, and
/// split `error` from its `:`.
fn strip_ansi(s: &str) -> Cow<'_, str> {
    if !s.contains('\u{1b}') {
        return Cow::Borrowed(s);
    }
    // Byte-wise: ESC, `[` and the final letter are ASCII, and no byte of a
    // multi-byte character is, so every cut is a char boundary.
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c != 0x1b || b.get(i + 1) != Some(&b'[') {
            i += 1;
            continue;
        }
        out.push_str(s.get(copied..i).unwrap_or(""));
        i += 2;
        while let Some(&c) = b.get(i) {
            i += 1;
            if c.is_ascii_alphabetic() {
                break;
            }
        }
        copied = i;
    }
    out.push_str(s.get(copied..).unwrap_or(""));
    Cow::Owned(out)
}

// ---------------------------------------------------------------- quoted terms

/// The person's quoted terms: `"…"`, `“…”`, `` `…` ``, `'…'`, `‘…’` on one line.
/// Fenced code blocks are skipped: their words are scanned, not quoted.
fn scan_quotes(found: &mut Mentions, s: &str) {
    let mut i = 0;
    while let Some(rest) = s.get(i..) {
        let Some(off) = find_open_quote(rest.as_bytes()) else { break };
        let at = i + off;
        let tail = s.get(at..).unwrap_or("");
        let Some(open) = tail.chars().next() else { break };
        let after_open = at + open.len_utf8();
        if tail.starts_with("```") {
            // Skip to after the closing fence, or to the end.
            i = s.get(at + 3..).and_then(|t| t.find("```")).map_or(s.len(), |p| at + 3 + p + 3);
            continue;
        }
        if tail.starts_with("``") {
            i = at + 2;
            continue;
        }
        // A term is short: the closing quote is looked for nearby only.
        let line = window(s, after_open, 4 * QUOTE_MAX_CHARS + 8).split('\n').next().unwrap_or("");
        let close = match open {
            '"' => line.find('"').map(|p| (p, 1)),
            '`' => line.find('`').map(|p| (p, 1)),
            '\u{201c}' => line.find('\u{201d}').map(|p| (p, 3)),
            '\'' | '\u{2018}' => {
                let prev = s.get(..at).and_then(|h| h.chars().next_back());
                if prev.is_some_and(char::is_alphanumeric) {
                    None // an apostrophe: don't, it's
                } else {
                    single_close(line, open)
                }
            }
            _ => None,
        };
        match close {
            Some((p, width)) => {
                if let Some(term) = line.get(..p) {
                    if is_quoted_term(term) {
                        found.note(Kind::Quoted, term);
                    }
                }
                i = after_open + p + width;
            }
            None => i = after_open,
        }
    }
}

/// `find(['"', '`', '\'', '“', '‘'])`, on bytes: the curly quotes are `E2 80 9C`
/// and `E2 80 98`, and a lead byte never sits inside another character.
fn find_open_quote(b: &[u8]) -> Option<usize> {
    b.iter().enumerate().position(|(i, &c)| {
        matches!(c, b'"' | b'`' | b'\'') || (c == 0xE2 && matches!(b.get(i + 1..i + 3), Some([0x80, 0x9C | 0x98])))
    })
}

/// The closing single quote: one not followed by a letter or digit.
fn single_close(line: &str, open: char) -> Option<(usize, usize)> {
    let close = if open == '\'' { '\'' } else { '\u{2019}' };
    let mut from = 0;
    while let Some(p) = line.get(from..).and_then(|r| r.find(close)) {
        let at = from + p;
        let after = at + close.len_utf8();
        let next = line.get(after..).and_then(|r| r.chars().next());
        if !next.is_some_and(char::is_alphanumeric) {
            return Some((at, close.len_utf8()));
        }
        from = after;
    }
    None
}

fn is_quoted_term(term: &str) -> bool {
    let chars = term.chars().count();
    if !(QUOTE_MIN_CHARS..=QUOTE_MAX_CHARS).contains(&chars) || text::trim(term) != term {
        return false;
    }
    if !term.chars().any(char::is_alphanumeric) || term.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return false;
    }
    // A quoted path, URL or commit is already listed under its own kind.
    let single = !term.contains(char::is_whitespace);
    !(single && (as_path(term).is_some() || looks_like_sha(term) || find_scheme(term) == Some(0)))
}

// ---------------------------------------------------------------- coverage

/// One way an identifier can appear in kept text. `bounded` ends must not run on
/// into a longer word (`main` is not in `maintain`).
#[derive(Debug)]
struct Needle {
    text: Vec<u8>,
    left: bool,
    right: bool,
}

/// Kept text and needles are compared lower-cased and without quote marks, so
/// `KeyError: dsn` covers `KeyError: 'dsn'` and `` `src/lib.rs` `` covers `src/lib.rs`.
fn fold(bytes: impl Iterator<Item = u8>) -> impl Iterator<Item = u8> {
    bytes.filter(|b| !matches!(b, b'`' | b'"' | b'\'')).map(|b| b.to_ascii_lowercase())
}

impl Needle {
    fn new(s: &str, left: bool, right: bool) -> Needle {
        let text: Vec<u8> = fold(s.bytes()).collect();
        // A boundary only matters where the needle's own edge is a word character.
        let left = left && text.first().is_some_and(|&b| is_word_byte(b));
        let right = right && text.last().is_some_and(|&b| is_word_byte(b));
        Needle { text, left, right }
    }
}

/// The forms of an identifier that count as the summary having it.
fn needles(m: &Mention) -> Vec<Needle> {
    let t = m.text.as_str();
    match m.kind {
        Kind::Path => {
            let mut out = vec![Needle::new(t, true, true)];
            // `/work/app/src/lib.rs` is covered by a summary that says `src/lib.rs`.
            let parts: Vec<&str> = t.split('/').filter(|p| !p.is_empty()).collect();
            if parts.len() >= 3 {
                let tail = parts.get(parts.len() - 2..).map(|p| p.join("/")).unwrap_or_default();
                out.push(Needle::new(&tail, true, true));
            }
            out
        }
        // A summary may cite a commit by its short form or in full.
        Kind::Sha => vec![Needle::new(t.get(..SHA_MIN).unwrap_or(t), true, false)],
        Kind::Url => vec![Needle::new(t.split_once("://").map_or(t, |(_, rest)| rest), true, true)],
        Kind::Error => {
            let mut out = vec![Needle::new(t, false, false)];
            if let Some(code) = error_code(t) {
                out.push(Needle::new(code, true, true));
            }
            // The message after the marker, as a summary would quote it.
            if let Some((_, msg)) = t.split_once(": ") {
                let msg = text::trim(msg);
                if msg.len() >= 16 {
                    out.push(Needle::new(text::head(msg, 60), false, false));
                }
            }
            out
        }
        Kind::Branch | Kind::Quoted => vec![Needle::new(t, true, true)],
    }
}

/// `E0382` in `error[E0382]`, `TS2322` in `error TS2322:`: a code names the error.
fn error_code(line: &str) -> Option<&str> {
    if let Some(at) = line.find("error[") {
        let rest = line.get(at + 6..)?;
        let code = rest.get(..rest.find(']')?)?;
        return (code.len() >= 3 && code.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(code);
    }
    let at = line.find("error TS")?;
    let rest = line.get(at + 6..)?;
    let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    rest.get(..end).filter(|c| c.len() > 2)
}

/// The kept text, folded, with every 4-byte window indexed: a needle is
/// looked up by its rarest window and verified only where that window occurs,
/// so a thousand identifiers against a 200 KB summary cost milliseconds, not a
/// thousand full scans.
struct Haystack {
    text: Vec<u8>,
    /// `(window << 32) | position`, sorted.
    grams: Vec<u64>,
}

const GRAM: usize = 4;
const GRAM_SAMPLES: usize = 16;

impl Haystack {
    fn new(kept: &[&str]) -> Haystack {
        let mut text = Vec::with_capacity(kept.iter().map(|k| k.len() + 1).sum());
        for k in kept {
            text.extend(fold(k.bytes()));
            text.push(b'\n');
        }
        // Positions are u32: a kept text beyond 4 GB is not searched past that point.
        let mut grams: Vec<u64> = text
            .windows(GRAM)
            .enumerate()
            .take(u32::MAX as usize)
            .map(|(i, w)| (u64::from(gram(w)) << 32) | i as u64)
            .collect();
        grams.sort_unstable();
        Haystack { text, grams }
    }

    fn positions(&self, g: u32) -> &[u64] {
        let key = u64::from(g);
        let lo = self.grams.partition_point(|&x| (x >> 32) < key);
        let hi = self.grams.partition_point(|&x| (x >> 32) <= key);
        self.grams.get(lo..hi).unwrap_or(&[])
    }

    fn matches_at(&self, start: usize, n: &Needle) -> bool {
        let end = start + n.text.len();
        if self.text.get(start..end) != Some(n.text.as_slice()) {
            return false;
        }
        let left_ok = !n.left || !start.checked_sub(1).and_then(|p| self.text.get(p)).is_some_and(|&b| is_word_byte(b));
        let right_ok = !n.right || !self.text.get(end).is_some_and(|&b| is_word_byte(b));
        left_ok && right_ok
    }

    fn contains(&self, n: &Needle) -> bool {
        let len = n.text.len();
        if len == 0 {
            return false;
        }
        if len < GRAM {
            return (0..self.text.len()).any(|i| self.text.get(i) == n.text.first() && self.matches_at(i, n));
        }
        let last = len - GRAM;
        let step = (last / (GRAM_SAMPLES - 1)).max(1);
        let mut best: Option<(&[u64], usize)> = None;
        for off in (0..=last).step_by(step).chain(std::iter::once(last)) {
            let Some(w) = n.text.get(off..off + GRAM) else { continue };
            let found = self.positions(gram(w));
            if found.is_empty() {
                return false;
            }
            if best.is_none_or(|(b, _)| found.len() < b.len()) {
                best = Some((found, off));
            }
        }
        let Some((candidates, off)) = best else { return false };
        candidates
            .iter()
            .filter_map(|&x| ((x & 0xffff_ffff) as usize).checked_sub(off))
            .any(|start| self.matches_at(start, n))
    }
}

fn gram(w: &[u8]) -> u32 {
    let mut g = [0u8; GRAM];
    for (d, s) in g.iter_mut().zip(w) {
        *d = *s;
    }
    u32::from_le_bytes(g)
}

/// Two listed identifiers that are one: a short and a full commit, or a path
/// and the same path written from further up.
fn same_thing(a: &Mention, b: &Mention) -> bool {
    if a.kind != b.kind {
        return false;
    }
    let (x, y) = (a.text.as_str(), b.text.as_str());
    match a.kind {
        Kind::Sha => x.starts_with(y) || y.starts_with(x),
        Kind::Path => {
            let ends = |long: &str, short: &str| {
                long.len() > short.len()
                    && long.ends_with(short.trim_start_matches("./"))
                    && long.as_bytes().get(long.len() - short.trim_start_matches("./").len() - 1) == Some(&b'/')
            };
            ends(x, y) || ends(y, x)
        }
        _ => false,
    }
}

/// The identifiers found in none of the kept texts, best ranked first, within
/// [`MAX_LISTED`] entries and [`MAX_LISTED_CHARS`] rendered characters.
pub fn dropped(mentions: &Mentions, kept: &[&str]) -> Vec<Mention> {
    if mentions.is_empty() {
        return Vec::new();
    }
    let hay = Haystack::new(kept);
    let mut room = MAX_LISTED_CHARS.saturating_sub(text::len16(INTRO));
    let mut out: Vec<Mention> = Vec::new();
    for m in mentions.ranked() {
        if out.len() >= MAX_LISTED || room < 16 {
            break;
        }
        let line = entry_line(&m);
        let cost = text::len16(&line) + 1;
        if cost > room {
            continue;
        }
        if needles(&m).iter().any(|n| hay.contains(n)) || out.iter().any(|o| same_thing(o, &m)) {
            continue;
        }
        room -= cost;
        out.push(m);
    }
    out
}

fn entry_line(m: &Mention) -> String {
    format!("- {}: {} (×{})", m.kind.as_str(), m.text, m.count)
}

/// The block appended after the summary, or `None` when the summary kept everything.
pub fn render(dropped: &[Mention]) -> Option<String> {
    if dropped.is_empty() {
        return None;
    }
    let mut out = String::from(INTRO);
    for m in dropped {
        out.push('\n');
        out.push_str(&entry_line(m));
    }
    Some(out)
}

/// Collect, compare and render in one call.
pub fn audit(messages: &Messages, kept: &[&str]) -> Option<String> {
    render(&dropped(&collect(messages), kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_messages;
    use serde_json::json;

    fn session(rows: Value) -> Messages {
        parse_messages(&rows.to_string())
    }

    fn bash(command: &str, output: &str) -> Value {
        json!({"role": "assistant", "text": "", "toolUses": [
            {"tool": "Bash", "input": {"command": command, "description": "run"}, "text": output}
        ]})
    }

    fn texts(d: &[Mention]) -> Vec<(Kind, &str)> {
        d.iter().map(|m| (m.kind, m.text.as_str())).collect()
    }

    fn listed(d: &[Mention], kind: Kind, text: &str) -> bool {
        d.iter().any(|m| m.kind == kind && m.text == text)
    }

    const CARGO_OUT: &str = "   Compiling demo v0.1.0 (/work/demo)\n\
error[E0382]: borrow of moved value: `v`\n --> src/main.rs:4:20\n  |\n\
2 |     let v = vec![1];\n  |         - move occurs because `v` has type `Vec<i32>`\n\
3 |     let w = v;\n4 |     println!(\"{:?}\", v);\n  |                      ^ value borrowed here after move\n\n\
For more information about this error, try `rustc --explain E0382`.\n\
error: could not compile `demo` (bin \"demo\") due to 1 previous error\n";

    fn rust_session() -> Messages {
        session(json!([
            {"role": "user", "text": "The build fails around `Vec` moves; keep the \"borrow checker\" happy and don't touch 'Cargo.lock settings'."},
            {"role": "assistant", "text": "Let me build it first."},
            bash("cd /work/demo && cargo build", CARGO_OUT),
            {"role": "assistant", "text": "", "toolUses": [
                {"tool": "Read", "input": {"file_path": "/work/demo/src/main.rs"},
                 "text": "     1\u{2192}fn main() {\n     2\u{2192}    let error: Option<String> = None; // error: not a real one\n"}
            ]},
            {"role": "assistant", "text": "", "toolUses": [
                {"tool": "Edit", "input": {"file_path": "/work/demo/src/main.rs", "old_string": "let w = v;",
                 "new_string": "let w = v.clone(); // see ./docs/moves.md"},
                 "text": "The file /work/demo/src/main.rs has been updated."}
            ]},
            bash("cargo build", CARGO_OUT),
        ]))
    }

    #[test]
    fn rust_error_session() {
        let m = collect(&rust_session());
        let err = m.get(Kind::Error, "error[E0382]: borrow of moved value: `v`").expect("error line");
        assert_eq!(err.count, 2);
        assert_eq!(m.get(Kind::Path, "/work/demo/src/main.rs").map(|x| x.count), Some(3));
        assert_eq!(m.get(Kind::Path, "src/main.rs").map(|x| x.count), Some(2));
        assert_eq!(m.get(Kind::Path, "/work/demo").map(|x| x.count), Some(3));
        assert!(m.get(Kind::Quoted, "borrow checker").is_some());
        assert!(m.get(Kind::Quoted, "Vec").is_some());
        assert!(m.get(Kind::Quoted, "Cargo.lock settings").is_some());
        // Generic cargo lines, Read bodies and Edit bodies are not identifiers.
        let all = m.ranked();
        assert!(!all.iter().any(|x| x.text.contains("could not compile")), "{all:?}");
        assert!(!all.iter().any(|x| x.text.contains("not a real one")), "{all:?}");
        assert!(m.get(Kind::Path, "./docs/moves.md").is_none());
        assert!(!all.iter().any(|x| x.kind == Kind::Quoted && x.text == "t touch "));

        let summary = "Fixed E0382 in src/main.rs by cloning `v` before the move. Build is green.";
        let d = dropped(&m, &[summary]);
        assert!(!listed(&d, Kind::Error, "error[E0382]: borrow of moved value: `v`"));
        assert!(!listed(&d, Kind::Path, "/work/demo/src/main.rs"), "covered by src/main.rs");
        assert!(listed(&d, Kind::Path, "/work/demo"), "{d:?}");
        assert!(listed(&d, Kind::Quoted, "borrow checker"));
        // The verbatim block holds the person's message: the quotes are kept.
        let verbatim = "<user-messages-verbatim>\n--- user message ---\nThe build fails around `Vec` moves; keep the \"borrow checker\" happy and don't touch 'Cargo.lock settings'.\n</user-messages-verbatim>";
        let d = dropped(&m, &[summary, verbatim]);
        assert!(!d.iter().any(|x| x.kind == Kind::Quoted), "{d:?}");
        assert_eq!(texts(&d), vec![(Kind::Path, "/work/demo")]);
    }

    #[test]
    fn error_code_alone_does_not_cover_a_different_error() {
        let m = collect(&rust_session());
        let d = dropped(&m, &["We changed src/main.rs; a borrow problem remains."]);
        assert!(listed(&d, Kind::Error, "error[E0382]: borrow of moved value: `v`"));
        // The message itself, quoted, covers it.
        let d = dropped(&m, &["Fixed `borrow of moved value: v` in src/main.rs"]);
        assert!(!listed(&d, Kind::Error, "error[E0382]: borrow of moved value: `v`"), "{d:?}");
    }

    #[test]
    fn python_traceback() {
        let out = "Traceback (most recent call last):\n  File \"/home/ana/proj/app/main.py\", line 12, in <module>\n    run()\n  File \"/home/ana/proj/app/db.py\", line 40, in run\n    conn = connect(cfg[\"dsn\"])\n          ~~~^^^^^^^\nKeyError: 'dsn'\n";
        let out2 = "Traceback (most recent call last):\n  File \"/home/ana/proj/app/main.py\", line 3, in <module>\n    import psycopg\nKeyboardInterrupt\n";
        let m = collect(&session(json!([
            {"role": "user", "text": "run the app"},
            bash("python3 app/main.py", out),
            bash("python3 app/main.py", out2),
        ])));
        assert_eq!(m.get(Kind::Error, "KeyError: 'dsn'").map(|x| x.count), Some(1));
        assert!(m.get(Kind::Error, "KeyboardInterrupt").is_some(), "{:?}", m.ranked());
        assert!(!m.ranked().iter().any(|x| x.text.starts_with("Traceback")));
        assert_eq!(m.get(Kind::Path, "/home/ana/proj/app/main.py").map(|x| x.count), Some(2));
        assert!(m.get(Kind::Path, "/home/ana/proj/app/db.py").is_some());
        assert!(m.get(Kind::Path, "app/main.py").is_some());
        let d = dropped(&m, &["The app crashed with KeyError: 'dsn' in app/db.py."]);
        assert!(!listed(&d, Kind::Error, "KeyError: 'dsn'"));
        assert!(!listed(&d, Kind::Path, "/home/ana/proj/app/db.py"));
        assert!(listed(&d, Kind::Error, "KeyboardInterrupt"));
        assert!(listed(&d, Kind::Path, "/home/ana/proj/app/main.py"));
    }

    #[test]
    fn git_branch_work() {
        let m = collect(&session(json!([
            {"role": "user", "text": "Start a branch for the login form off origin/develop, then push it."},
            bash("git fetch origin && git checkout -b feature/login-form origin/develop",
                 "Switched to a new branch 'feature/login-form'\nbranch 'feature/login-form' set up to track 'origin/develop'."),
            bash("git log --oneline -3", "a1b2c3d (HEAD -> feature/login-form) Add login form\n9f8e7d6 Wire session store\n0c4d5e6 Initial commit\n"),
            bash("git push -u origin feature/login-form", "To github.com:ana/app.git\n * [new branch]      feature/login-form -> feature/login-form\n"),
            bash("git switch main && git merge --no-ff feature/login-form", "Merge made by the 'ort' strategy.\n"),
            bash("git branch -d hotfix-42; git checkout -- src/app.ts", "Deleted branch hotfix-42 (was 3e4f5a6b7c8d).\n"),
            {"role": "assistant", "text": "Container 550e8400-e29b-41d4-a716-446655440000 at 0x7ffdab12cd45 wrote 1.5e10 rows; see build.a1b2c3d4.js."},
        ])));
        let b = |n: &str| m.get(Kind::Branch, n).map(|x| x.count);
        assert!(b("feature/login-form").unwrap_or(0) >= 5, "{:?}", m.ranked());
        assert!(b("develop").is_some());
        assert_eq!(b("main"), Some(1));
        assert!(b("hotfix-42").is_some());
        assert!(b("src/app.ts").is_none());
        assert!(b("origin").is_none());
        for sha in ["a1b2c3d", "9f8e7d6", "0c4d5e6", "3e4f5a6b7c8d"] {
            assert!(m.get(Kind::Sha, sha).is_some(), "{sha}");
        }
        let shas: Vec<String> = m.ranked().into_iter().filter(|x| x.kind == Kind::Sha).map(|x| x.text).collect();
        assert_eq!(shas.len(), 4, "no UUID pieces, 0x numbers, exponents or hashed names: {shas:?}");

        let summary = "Created feature/login-form from develop, committed a1b2c3d and 9f8e7d6 (full: 9f8e7d6aa01), merged into main.";
        let d = dropped(&m, &[summary]);
        assert!(!listed(&d, Kind::Branch, "feature/login-form"));
        assert!(!listed(&d, Kind::Branch, "main"));
        assert!(!listed(&d, Kind::Sha, "9f8e7d6"));
        assert!(listed(&d, Kind::Branch, "hotfix-42"));
        assert!(listed(&d, Kind::Sha, "0c4d5e6"));
        // "main" inside "maintain" does not count.
        let d = dropped(&m, &["We maintain feature/login-form."]);
        assert!(listed(&d, Kind::Branch, "main"));
    }

    #[test]
    fn machine_rows_and_reminders_are_not_listed() {
        let m = collect(&session(json!([
            {"role": "user", "text": "<system-reminder>Check /opt/hidden/one.rs and https://hidden.example/a</system-reminder>"},
            {"role": "user", "text": "please look at src/real.rs <system-reminder>see /opt/hidden/two.rs \"hidden term\"</system-reminder>"},
            {"role": "user", "text": "<command-name>/compact</command-name>\n<command-args>/opt/hidden/three.rs</command-args>"},
            {"role": "user", "text": "<local-command-stdout>/opt/hidden/four.rs</local-command-stdout>"},
            {"role": "user", "text": "Caveat: The messages below were generated by the user while running local commands. /opt/hidden/five.rs"},
            {"role": "user", "text": format!("{} that ran out of context. /opt/hidden/six.rs error[E0001]: old", verbatim::SUMMARY_START)},
            {"role": "assistant", "text": "Reading it.<system-reminder>/opt/hidden/seven.rs</system-reminder>", "toolUses": [
                {"tool": "Read", "input": {"file_path": "/work/src/real.rs"},
                 "text": "fn x() {}\n<system-reminder>\nWhenever you read a file /opt/hidden/eight.rs consider malware.\n</system-reminder>"}
            ]},
        ])));
        let all = m.ranked();
        assert!(!all.iter().any(|x| x.text.contains("hidden")), "{all:?}");
        assert!(!all.iter().any(|x| x.text.contains("E0001")), "{all:?}");
        assert!(m.get(Kind::Path, "src/real.rs").is_some());
        assert!(m.get(Kind::Path, "/work/src/real.rs").is_some());
        let d = dropped(&m, &[""]);
        assert!(!d.iter().any(|x| x.text.contains("hidden")));
        // `src/real.rs` and `/work/src/real.rs` are listed once.
        assert_eq!(texts(&d), vec![(Kind::Path, "/work/src/real.rs")]);
    }

    #[test]
    fn ordering_is_count_then_recency() {
        let m = collect(&session(json!([
            {"role": "user", "text": "see docs/often.md and docs/early.md"},
            {"role": "user", "text": "again docs/often.md"},
            {"role": "user", "text": "and docs/often.md, plus docs/twice.md"},
            {"role": "user", "text": "docs/twice.md then docs/late.md"},
        ])));
        let d = dropped(&m, &["nothing"]);
        assert_eq!(
            texts(&d),
            vec![
                (Kind::Path, "docs/often.md"),
                (Kind::Path, "docs/twice.md"),
                (Kind::Path, "docs/late.md"),
                (Kind::Path, "docs/early.md"),
            ]
        );
        assert_eq!(d.first().map(|x| (x.count, x.message)), Some((3, 2)));
        let r = render(&d).unwrap_or_default();
        assert!(r.starts_with(INTRO));
        assert!(r.contains("\n- path: docs/often.md (×3)\n- path: docs/twice.md (×2)\n"), "{r}");
    }

    #[test]
    fn caps_hold() {
        let rows: Vec<Value> = (0..500)
            .map(|i| json!({"role": "assistant", "text": format!("Touched /srv/app/mod{i}/file{i}.rs and https://example.com/issues/{i}")}))
            .collect();
        let m = collect(&session(Value::Array(rows)));
        assert_eq!(m.len(), 1000, "500 paths and 500 urls");
        let d = dropped(&m, &["summary"]);
        assert!(d.len() <= MAX_LISTED && !d.is_empty());
        let r = render(&d).unwrap_or_default();
        assert!(text::len16(&r) <= MAX_LISTED_CHARS, "{}", text::len16(&r));
        // Newest first at equal counts.
        assert!(d.first().is_some_and(|x| x.text.contains("499")), "{:?}", d.first());

        // Long identifiers: the character cap binds before the entry cap.
        let rows: Vec<Value> = (0..500)
            .map(|i| json!({"role": "assistant", "text": format!("https://example.com/{}/{i}", "segment".repeat(30))}))
            .collect();
        let d = dropped(&collect(&session(Value::Array(rows))), &[]);
        let r = render(&d).unwrap_or_default();
        assert!(d.len() < 10 && !d.is_empty(), "{}", d.len());
        assert!(text::len16(&r) <= MAX_LISTED_CHARS);
    }

    #[test]
    fn nothing_dropped_renders_nothing() {
        let m = collect(&session(json!([{"role": "user", "text": "fix src/lib.rs"}])));
        assert_eq!(dropped(&m, &["Fixed SRC/LIB.RS."]), vec![]);
        assert_eq!(render(&[]), None);
        assert_eq!(audit(&Vec::new(), &["x"]), None);
        assert!(audit(&session(json!([{"role": "user", "text": "fix src/lib.rs"}])), &["no"]).is_some());
    }

    #[test]
    fn tracked_identifiers_are_bounded() {
        let mut m = Mentions::default();
        for _ in 0..5 {
            m.note(Kind::Path, "/keep/me.rs");
        }
        for i in 0..(2 * MAX_TRACKED + 5) {
            m.note(Kind::Sha, &format!("{i:x}abcdef0"));
        }
        assert!(m.len() <= 2 * MAX_TRACKED, "{}", m.len());
        assert_eq!(m.get(Kind::Path, "/keep/me.rs").map(|x| x.count), Some(5));
        // The newest survive a prune.
        assert!(m.get(Kind::Sha, &format!("{:x}abcdef0", 2 * MAX_TRACKED + 4)).is_some());
    }

    /// Minified output and pasted logs come as one huge line: every scanner must
    /// stay linear in it (a quadratic one would take minutes here).
    #[test]
    fn one_huge_line_is_one_pass() {
        let line = "x Error: y (error: z) it's 'q http://nope \"a ".repeat(20_000);
        let m = collect(&session(json!([
            {"role": "user", "text": line},
            bash("cat bundle.min.js", &line),
        ])));
        let errors: Vec<Mention> = m.ranked().into_iter().filter(|x| x.kind == Kind::Error).collect();
        assert_eq!(errors.len(), 1, "one error per line");
        assert!(errors.first().is_some_and(|e| e.count == 2 && e.text.starts_with("x Error: y")));
    }

    #[test]
    fn deterministic() {
        let a = audit(&rust_session(), &["summary"]);
        for _ in 0..5 {
            assert_eq!(audit(&rust_session(), &["summary"]), a);
        }
        assert!(a.is_some());
    }

    /// The skipping scanners at the edges of their windows: a text that is one
    /// commit or one marker, cues at the very start and end, a cue split from its word.
    #[test]
    fn scanners_at_text_edges() {
        let scan = |t: &str| {
            let mut m = Mentions::default();
            scan_text(&mut m, t, Scan { errors: true, quotes: true });
            let mut all: Vec<(Kind, String)> = m.ranked().into_iter().map(|x| (x.kind, x.text)).collect();
            all.sort();
            all
        };
        let one = |k: Kind, t: &str| vec![(k, t.to_owned())];
        assert_eq!(scan("a1b2c3d"), one(Kind::Sha, "a1b2c3d"));
        assert_eq!(scan("x a1b2c3d"), one(Kind::Sha, "a1b2c3d"));
        assert_eq!(scan("a1b2c3"), vec![]);
        assert_eq!(scan("dead6ee f00d 0123456789abcdef0123456789abcdef012345678"), one(Kind::Sha, "dead6ee"));
        assert_eq!(scan("ERROR!"), one(Kind::Error, "ERROR!"));
        assert_eq!(scan("ERROR"), vec![]);
        assert_eq!(scan("fatal: bad"), one(Kind::Error, "fatal: bad"));
        assert_eq!(scan("ok\nno fatal: here\n  fatal: there"), one(Kind::Error, "fatal: there"));
        assert_eq!(scan("/a/b"), one(Kind::Path, "/a/b"));
        assert_eq!(scan("git"), vec![]);
        assert_eq!(scan("prose digit git-free (git switch feat-9)"), one(Kind::Branch, "feat-9"));
        assert_eq!(scan("git\ncheckout feat-9"), vec![]);
        assert_eq!(scan("the Branch rel_2 and branches v2/x"), vec![(Kind::Branch, "rel_2".to_owned()), (Kind::Branch, "v2/x".to_owned())]);
        assert_eq!(scan("\u{1b}[1mgit\u{1b}[0m checkout fix-1 \u{201c}a b\u{201d}"), vec![(Kind::Branch, "fix-1".to_owned()), (Kind::Quoted, "a b".to_owned())]);
    }

    #[test]
    fn byte_classes_agree() {
        for b in 0..=255u8 {
            let k = class(b);
            assert_eq!(k & WS != 0, b.is_ascii_whitespace(), "{b}");
            assert_eq!(k & HEX != 0, b.is_ascii_digit() || (b'a'..=b'f').contains(&b), "{b}");
            assert_eq!(k & WORD != 0, b.is_ascii_alphanumeric() || b == b'_', "{b}");
            assert_eq!(k & SLASH != 0, b == b'/', "{b}");
            assert_eq!(k & PATH != 0, b.is_ascii() && is_path_char(char::from(b)), "{b}");
            assert_eq!(k & PIECE_BREAK != 0, b.is_ascii() && is_piece_break(char::from(b)), "{b}");
        }
    }

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

    #[test]
    fn urls() {
        let mut m = Mentions::default();
        scan_text(
            &mut m,
            "See [docs](https://docs.rs/regex/latest/regex/). Token at https://user:pw@api.example.com/v1/x?token=SECRET#frag, \
             and (https://en.wikipedia.org/wiki/Rust_(programming_language)) or http://127.0.0.1:8123/health.",
            Scan { errors: false, quotes: false },
        );
        let urls: Vec<String> = m.ranked().into_iter().filter(|x| x.kind == Kind::Url).map(|x| x.text).collect();
        let mut urls = urls;
        urls.sort();
        assert_eq!(
            urls,
            vec![
                "http://127.0.0.1:8123/health",
                "https://api.example.com/v1/x",
                "https://docs.rs/regex/latest/regex",
                "https://en.wikipedia.org/wiki/Rust_(programming_language)",
            ]
        );
        assert!(!m.ranked().iter().any(|x| x.text.contains("SECRET") || x.text.contains("pw")));
    }

    #[test]
    fn quotes_and_apostrophes() {
        let mut m = Mentions::default();
        scan_quotes(
            &mut m,
            "don't rename 'session store' it's \u{201c}the ledger\u{201d} and `fast path`; \"a\" \"x\" ' spaced ' \"42\"\n```\nlet s = \"in code\";\n```\n`src/lib.rs`",
        );
        let mut q: Vec<String> = m.ranked().into_iter().map(|x| x.text).collect();
        q.sort();
        assert_eq!(q, vec!["fast path", "session store", "the ledger"]);
    }

    #[test]
    fn error_markers() {
        let cases = [
            ("src/a.ts(3,5): error TS2322: Type 'string' is not assignable", true),
            ("a.c:1:2: error: expected ';'", true),
            ("thread 'main' panicked at src/main.rs:4:5:", true),
            ("test tests::it_parses ... FAILED", true),
            ("fatal: not a git repository", true),
            ("bash: rg: command not found", true),
            ("npm error code ERESOLVE", true),
            ("Exception in thread \"main\" java.lang.NullPointerException", true),
            ("[ERROR] Failed to execute goal", true),
            ("    let error: Option<String> = None;", false),
            ("    return Err(Error::new(kind));", false),
            ("the error: it was mine", false),
            ("FAILEDX and XFAILED", false),
            ("error: could not compile `demo`", false),
        ];
        for (line, want) in cases {
            let mut m = Mentions::default();
            scan_errors(&mut m, line);
            assert_eq!(!m.is_empty(), want, "{line}");
        }
        let mut m = Mentions::default();
        let long = format!("\u{1b}[31merror\u{1b}[0m: {}", "x".repeat(400));
        scan_text(&mut m, &long, Scan { errors: true, quotes: false });
        let e = m.ranked();
        assert_eq!(e.len(), 1);
        assert!(e.first().is_some_and(|x| x.text.starts_with("error: xx") && text::len16(&x.text) <= ERROR_LINE_CHARS));
    }

    fn naive_contains(hay: &[u8], n: &Needle) -> bool {
        let len = n.text.len();
        len > 0
            && (0..hay.len()).any(|i| {
                hay.get(i..i + len) == Some(n.text.as_slice())
                    && (!n.left || !i.checked_sub(1).and_then(|p| hay.get(p)).is_some_and(|&b| is_word_byte(b)))
                    && (!n.right || !hay.get(i + len).is_some_and(|&b| is_word_byte(b)))
            })
    }

    #[test]
    fn index_agrees_with_a_plain_scan() {
        let kept = "Fixed src/main.rs and SRC/Lib.rs; commit a1b2c3d4e5. aaaaaaab main maintain x\nbranch feat-1 ünïcode/päth.rs end";
        let hay = Haystack::new(&[kept, "second text"]);
        let words = [
            "src/main.rs", "src/lib.rs", "a1b2c3d", "a1b2c3d4e5f", "aaaab", "aaaaaaab", "main", "maintain", "ain", "feat-1",
            "feat", "ünïcode/päth.rs", "päth", "end", "t\nsecond", "second text", "text\n", "zzzz", "x", "xx", "ab",
            "a1b2c3d4e5. aaaaaaab main maintain x\nbranch feat-1 ünïcode",
        ];
        for w in words {
            for (l, r) in [(false, false), (true, false), (false, true), (true, true)] {
                let n = Needle::new(w, l, r);
                assert_eq!(hay.contains(&n), naive_contains(&hay.text, &n), "{w:?} {l} {r}");
            }
        }
    }

    /// Figures for the report: `cargo test --release -- --ignored --nocapture audit::tests::bench`.
    #[test]
    #[ignore]
    fn bench() {
        /// This thread's CPU time (Linux), so figures hold on a loaded machine.
        struct Instant(u64);
        impl Instant {
            fn now() -> Instant {
                let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
                Instant(s.split_whitespace().next().and_then(|x| x.parse().ok()).unwrap_or(0))
            }
            fn elapsed(&self) -> std::time::Duration {
                std::time::Duration::from_nanos(Instant::now().0.saturating_sub(self.0))
            }
        }
        let mut rows = Vec::new();
        let mut bytes = 0;
        let mut i = 0usize;
        while bytes < 24_000_000 {
            let out = format!(
                "{CARGO_OUT}   Compiling crate{i} v0.1.{i}\n/work/app/src/mod{m}/file{i}.rs:{i}:1: warning: unused\ncommit {i:07x}abc\n{}\n",
                "Lorem ipsum dolor sit amet, the quick brown fox jumps over the lazy dog, error handling is fine here.\n".repeat(40),
                m = i % 97
            );
            bytes += out.len();
            rows.push(json!({"role": "user", "text": format!("please check src/mod{}/file{i}.rs and the \"term {i}\" <system-reminder>x</system-reminder>", i % 97)}));
            rows.push(json!({"role": "assistant", "text": format!("Looking at https://example.com/issues/{i} now."), "toolUses": [
                {"tool": "Bash", "input": {"command": format!("cargo test -p crate{i} && git checkout -b fix/issue-{i}")}, "text": out}
            ]}));
            i += 1;
        }
        let json = Value::Array(rows).to_string();
        let t = Instant::now();
        let messages = parse_messages(&json);
        let parse = t.elapsed();
        let t = Instant::now();
        let m = collect(&messages);
        let collect_time = t.elapsed();
        let all_text: Vec<&str> = messages.iter().flatten().flat_map(|m| m.tool_uses.0.iter().filter_map(|u| u.text.as_deref())).collect();
        for part in ["errors", "shas", "words", "all"] {
            let t = Instant::now();
            let mut mm = Mentions::default();
            for s in &all_text {
                match part {
                    "errors" => scan_errors(&mut mm, s),
                    "shas" => scan_shas(&mut mm, s),
                    "words" => {
                        scan_words(&mut mm, s);
                    }
                    _ => scan_text(&mut mm, s, Scan { errors: true, quotes: false }),
                }
            }
            println!("  {part}: {:?} over {} MB of tool results", t.elapsed(), all_text.iter().map(|s| s.len()).sum::<usize>() / 1_000_000);
        }
        println!("session: {} MB json, {} messages; parse {parse:?}; collect {collect_time:?}; {} identifiers tracked", json.len() / 1_000_000, messages.len(), m.len());

        // A 200 KB summary that names a third of the identifiers.
        let ranked = m.ranked();
        let mut summary = String::new();
        for (k, x) in ranked.iter().enumerate() {
            if k % 3 == 0 && summary.len() < 200_000 {
                summary.push_str(&format!("We looked at {} and moved on. ", x.text));
            }
        }
        while summary.len() < 200_000 {
            summary.push_str("The quick brown fox jumps over the lazy dog. ");
        }
        let t = Instant::now();
        let d = dropped(&m, &[&summary]);
        println!("dropped (index, early stop at 40): {:?}, {} listed", t.elapsed(), d.len());

        let take = 1000.min(ranked.len());
        let t = Instant::now();
        let hay = Haystack::new(&[&summary]);
        let build = t.elapsed();
        let needles: Vec<Needle> = ranked.iter().take(take).flat_map(needles).collect();
        let t = Instant::now();
        let a = needles.iter().filter(|n| hay.contains(n)).count();
        let index = t.elapsed();
        let t = Instant::now();
        let b = needles.iter().filter(|n| naive_contains(&hay.text, n)).count();
        let naive = t.elapsed();
        let t = Instant::now();
        let lower = String::from_utf8_lossy(&hay.text).into_owned();
        let c = needles
            .iter()
            .filter(|n| lower.contains(std::str::from_utf8(&n.text).unwrap_or("")))
            .count();
        let std_find = t.elapsed();
        println!("{} needles x 200 KB: index build {build:?} + lookups {index:?} ({a} found); byte scan {naive:?} ({b}); str::contains without boundaries {std_find:?} ({c})", needles.len());
        assert_eq!(a, b);

        // The alternation of escaped literals the brief mentions, on the shipped regex features.
        let alternation = needles
            .iter()
            .take(200)
            .map(|n| regex::escape(std::str::from_utf8(&n.text).unwrap_or("")))
            .collect::<Vec<_>>()
            .join("|");
        let t = Instant::now();
        let re = regex::Regex::new(&alternation).expect("regex");
        let hits: std::collections::HashSet<&str> = re.find_iter(&lower).map(|m| m.as_str()).collect();
        println!("regex alternation of 200 literals over 200 KB (PikeVM only): {:?}, {} distinct hits", t.elapsed(), hits.len());
    }
}
