//! What a project recall reads: its files, in the order read, each with the
//! byte ranges its bounds leave, and the bounds themselves.

/// At most this many earlier sessions a call (seed 000's cap).
pub const MAX_SESSIONS: usize = 20;
/// `$.fs.read` answers at most 4 MiB: the walk's ranges are of that size.
pub const READ_BYTES: u64 = 4 << 20;
/// What one read asks for, a range read in as many. The JS engine collects
/// a smaller answer sooner (measured in Node 20: the same 48 MiB read as 4 MiB
/// strings left 46 MiB resident uncollected, as 1 MiB ones 20 MiB), and the
/// module's memory is one read's.
pub const CHUNK_BYTES: u64 = 1 << 20;
/// What one transcript may cost: one longer is read at its start and its end.
pub const MAX_FILE_BYTES: u64 = 2 * READ_BYTES;
/// What one call reads in all: transcripts, saved summaries, OpenCode's
/// prompt history and the Codex heads the walk reads alike. Read one read at a
/// time, it bounds the call's time, not its memory.
pub const MAX_CALL_BYTES: u64 = 48 << 20;
/// Summaries and the prompt history are short; past this, their newest end.
pub const SMALL_FILE_BYTES: u64 = 1 << 20;

/// Which tool's record a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorder {
    /// A Claude Code transcript, `~/.claude/projects/<folder>/<session>.jsonl`.
    ClaudeCode,
    /// A Codex CLI rollout, `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.
    Codex,
    /// OpenCode's prompt history, `~/.local/state/opencode/prompt-history.jsonl`.
    OpenCodePrompts,
    /// A summary compact-plus saved beside a session's history.
    Summary,
}

impl Recorder {
    /// The tool the answer names.
    pub fn tool(self) -> &'static str {
        match self {
            Recorder::ClaudeCode => "claude-code",
            Recorder::Codex => "codex",
            Recorder::OpenCodePrompts => "opencode",
            Recorder::Summary => "compact-plus",
        }
    }
}

/// A byte range of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub offset: u64,
    pub length: u64,
}

impl Span {
    pub fn end(self) -> u64 {
        self.offset + self.length
    }

    /// The span as reads of at most `CHUNK_BYTES`, in order.
    pub fn chunks(self) -> impl Iterator<Item = Span> {
        let end = self.end();
        (self.offset..end).step_by(CHUNK_BYTES as usize).map(move |offset| Span { offset, length: CHUNK_BYTES.min(end - offset) })
    }
}

/// One file of an earlier session, as it will be read.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFile {
    pub format: Recorder,
    pub session: String,
    pub path: String,
    pub mtime_ms: f64,
    pub size: u64,
    pub spans: Vec<Span>,
}

impl SessionFile {
    pub fn bytes(&self) -> u64 {
        self.spans.iter().map(|s| s.length).sum()
    }
}

/// The walk's outcome.
#[derive(Debug, Default)]
pub struct Plan {
    /// The project's folder.
    pub cwd: String,
    /// The files to read, in order: each session's transcript and then its
    /// saved summaries, newest session first; OpenCode's prompts last.
    pub files: Vec<SessionFile>,
    /// Sentences for the answer: what the bounds left out.
    pub notes: Vec<String>,
}

/// The byte ranges read of a file: all of it, in reads of 4 MiB, up to `cap`;
/// a longer one its first read and its newest end.
pub fn spans(size: u64, cap: u64) -> Vec<Span> {
    if size == 0 || cap == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    if size <= cap {
        let mut at = 0;
        while at < size {
            let length = READ_BYTES.min(size - at);
            out.push(Span { offset: at, length });
            at += length;
        }
        return out;
    }
    if cap <= READ_BYTES {
        return vec![Span { offset: size - cap, length: cap }];
    }
    out.push(Span { offset: 0, length: READ_BYTES });
    let mut tail = cap - READ_BYTES;
    let mut end = size;
    let mut back = Vec::new();
    while tail > 0 {
        let length = READ_BYTES.min(tail);
        back.push(Span { offset: end - length, length });
        end -= length;
        tail -= length;
    }
    back.reverse();
    out.extend(back);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_small_files_and_cut_long_ones() {
        assert!(spans(0, MAX_FILE_BYTES).is_empty());
        assert!(spans(10, 0).is_empty());
        assert_eq!(spans(10, MAX_FILE_BYTES), vec![Span { offset: 0, length: 10 }]);
        let five = 5 << 20;
        assert_eq!(spans(five, MAX_FILE_BYTES), vec![Span { offset: 0, length: READ_BYTES }, Span { offset: READ_BYTES, length: 1 << 20 }]);
        let big = 100 << 20;
        assert_eq!(spans(big, MAX_FILE_BYTES), vec![Span { offset: 0, length: READ_BYTES }, Span { offset: big - READ_BYTES, length: READ_BYTES }]);
        assert!(spans(big, 3 << 20).iter().all(|r| r.length <= READ_BYTES && r.end() <= big));
        assert_eq!(spans(big, 1 << 20), vec![Span { offset: big - (1 << 20), length: 1 << 20 }]);
        let chunks: Vec<Span> = Span { offset: 10, length: 2 * CHUNK_BYTES + 5 }.chunks().collect();
        assert_eq!(chunks, [Span { offset: 10, length: CHUNK_BYTES }, Span { offset: 10 + CHUNK_BYTES, length: CHUNK_BYTES }, Span { offset: 10 + 2 * CHUNK_BYTES, length: 5 }]);
    }
}
