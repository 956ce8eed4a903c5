//! Folder listings as `$.fs.list` answers them, and the walk's one sort.

use compact_plus::step::{Answer, Host};

use crate::json::{fields, items, text};
use crate::order;
use crate::look::Look;

/// A folder entry as `$.fs.list` answers it (or a stat, without a name).
#[derive(Debug, Clone, Default)]
pub struct Listed {
    pub name: String,
    pub kind: String,
    pub size: f64,
    pub mtime_ms: f64,
}

/// A number as `$.fs` gives one (bytes, milliseconds): whole, or 0.
fn whole(raw: Option<&str>) -> f64 {
    raw.and_then(|r| r.split('.').next()).and_then(|r| r.parse::<u64>().ok()).map_or(0.0, |n| n as f64)
}

impl Listed {
    /// One entry (or a stat); anything but an object is none.
    pub fn read(raw: &str) -> Option<Listed> {
        let [name, kind, size, mtime] = fields(raw, ["name", "kind", "size", "mtimeMs"])?;
        let name = name.and_then(text).map(|t| t.into_owned()).unwrap_or_default();
        let kind = kind.and_then(text).map(|t| t.into_owned()).unwrap_or_default();
        Some(Listed { name, kind, size: whole(size), mtime_ms: whole(mtime) })
    }

    pub fn is_file(&self) -> bool {
        self.kind == "file" && self.size > 0.0
    }
}

/// A listing's entries; anything but a list is none.
pub fn entries(answer: Option<&Answer>) -> Vec<Listed> {
    let raw = answer.and_then(|a| a.as_ref().ok()).map_or("", |r| r.get());
    items(raw).unwrap_or_default().into_iter().filter_map(Listed::read).collect()
}

pub async fn list(host: &Host<Look>, path: &str) -> Vec<Listed> {
    entries(Some(&host.call(Look::List { path: path.to_owned() }).await))
}

/// The listings of several folders, asked at once.
pub async fn list_all(host: &Host<Look>, paths: &[String]) -> Vec<Vec<Listed>> {
    // An empty ask would never be answered.
    if paths.is_empty() {
        return Vec::new();
    }
    let answers = host.ask(paths.iter().map(|p| Look::List { path: p.clone() }).collect()).await;
    answers.iter().map(|a| entries(Some(a))).collect()
}

// The walk's keys were once packed into a `u64` beside the item's index (20
// bits) for one sort of `u64`s: of at most 2^20 items, keys under 2^43. They
// keep those bounds; the sort is the module's one sort now (`order`).
const INDEX_BITS: u32 = 20;

/// The order of `keys` (the first 2^20 of them, each taken as at most 2^43 - 1),
/// largest first; ties in the order given.
fn largest_first(keys: impl Iterator<Item = u64>) -> Vec<usize> {
    let keys: Vec<u64> = keys.take(1 << INDEX_BITS).map(|k| k.min((1 << 43) - 1)).collect();
    order::stable(keys.len(), &|a, b| keys.get(b).cmp(&keys.get(a)))
}

/// `items` largest key first (ties in the order given), at most `n` of them.
pub fn largest<T>(items: Vec<T>, key: impl Fn(&T) -> u64, n: usize) -> Vec<T> {
    let mut order = largest_first(items.iter().map(key));
    order.truncate(n);
    order::arrange(items, &order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_first_ties_in_order() {
        assert_eq!(largest(vec![(1, 'a'), (3, 'b'), (1, 'c'), (3, 'd')], |x| x.0, 9), [(3, 'b'), (3, 'd'), (1, 'a'), (1, 'c')]);
        assert_eq!(largest(vec![5, 9, 7], |x| *x, 2), [9, 7]);
    }
}
