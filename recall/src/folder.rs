//! Folders compared as the tools write them: `/` or `\`, a trailing one or not.

fn norm(p: &str) -> String {
    p.replace('\\', "/").trim_end_matches('/').to_owned()
}

/// Two spellings of one folder.
pub fn same(a: &str, b: &str) -> bool {
    norm(a) == norm(b)
}

/// Whether `path` is `folder` or inside it.
pub fn inside(path: &str, folder: &str) -> bool {
    let (path, folder) = (norm(path), norm(folder));
    !folder.is_empty() && (path == folder || path.strip_prefix(&folder).is_some_and(|rest| rest.starts_with('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_compare_by_their_parts() {
        assert!(same("/w/app/", "/w/app") && !same("/w/app2", "/w/app"));
        assert!(same("C:\\w\\app", "C:/w/app/"));
        assert!(inside("/w/app/src/a.rs", "/w/app") && inside("/w/app", "/w/app/"));
        assert!(!inside("/w/app2/a.rs", "/w/app") && !inside("/w/a", ""));
    }
}
