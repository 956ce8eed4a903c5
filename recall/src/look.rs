//! The recall module's `$` calls, and how long the shim waits for them.
//!
//! The walk's look-ups share one deadline, and a search's reads another: a
//! slow disk costs the answer what was not back in time (counted as unread),
//! never the person's turn. The texts read come beside the answers' JSON.

use serde::Serialize;

use compact_plus::step::{ShimCall, Wait};

/// The walk's look-ups (the folder, listings, stats, Codex heads), all of them
/// together: listing folders is quick.
pub const WALK_WAIT_MS: u64 = 2000;
/// A search's reads, all of them together.
pub const READS_WAIT_MS: u64 = 5000;

/// One look at the host.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Look {
    /// `$.session.cwd()`: the project's folder.
    Cwd,
    /// `$.fs.list(path)`.
    List { path: String },
    /// `$.fs.stat(path)`.
    Stat { path: String },
    /// `$.fs.read(path)`: a history part, whole (the core writes them under
    /// `$.fs.read`'s 4 MiB).
    Read { path: String },
    /// `$.fs.read(path, { offset, length })`: one read of a search, at most 4 MiB.
    #[serde(rename = "read")]
    ReadSpan { path: String, offset: u64, length: u64 },
    /// The same, of a Codex rollout's head, during the walk.
    #[serde(rename = "read")]
    Head { path: String, offset: u64, length: u64 },
}

impl ShimCall for Look {
    fn wait(&self) -> Wait {
        match self {
            Look::Cwd | Look::List { .. } | Look::Stat { .. } | Look::Head { .. } => {
                Wait::Shared { deadline: "walk", ms: WALK_WAIT_MS }
            }
            Look::Read { .. } | Look::ReadSpan { .. } => Wait::Shared { deadline: "reads", ms: READS_WAIT_MS },
        }
    }

    fn text_beside(&self) -> bool {
        matches!(self, Look::Read { .. } | Look::ReadSpan { .. } | Look::Head { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use compact_plus::step::on_wire;

    #[test]
    fn looks_go_to_the_shim_as_its_calls() {
        let json = serde_json::to_string(&on_wire(&[
            Look::Cwd,
            Look::Stat { path: "/a".into() },
            Look::ReadSpan { path: "/a".into(), offset: 4, length: 8 },
        ]))
        .unwrap();
        assert_eq!(
            json,
            r#"[{"op":"cwd","waitMs":2000,"deadline":"walk"},{"op":"stat","path":"/a","waitMs":2000,"deadline":"walk"},{"op":"read","path":"/a","offset":4,"length":8,"waitMs":5000,"deadline":"reads","beside":true}]"#
        );
    }
}
