//! The best few: what a search keeps of everything it finds, so its memory is
//! the answer's, whatever the number of hits.

/// The `k` items of largest key offered so far, largest first; on a tie the
/// one offered first.
pub struct Best<K: Ord, T> {
    k: usize,
    items: Vec<(K, T)>,
}

impl<K: Ord, T> Best<K, T> {
    pub fn new(k: usize) -> Self {
        Best { k, items: Vec::with_capacity(k.min(64)) }
    }

    pub fn offer(&mut self, key: K, item: T) {
        if self.items.len() == self.k && self.items.last().is_none_or(|(last, _)| *last >= key) {
            return;
        }
        let at = self.items.partition_point(|(have, _)| *have >= key);
        self.items.insert(at, (key, item));
        self.items.truncate(self.k);
    }

    /// Whether `key` would be kept now.
    pub fn would_keep(&self, key: &K) -> bool {
        self.items.len() < self.k || self.items.last().is_some_and(|(last, _)| last < key)
    }

    pub fn into_items(self) -> impl Iterator<Item = T> {
        self.items.into_iter().map(|(_, item)| item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_largest_first_ties_in_the_order_offered() {
        let mut b = Best::new(3);
        for (k, v) in [(1, "a"), (5, "b"), (3, "c"), (5, "d"), (0, "e"), (4, "f")] {
            b.offer(k, v);
        }
        assert_eq!(b.into_items().collect::<Vec<_>>(), ["b", "d", "f"]);
        let mut none: Best<u8, ()> = Best::new(0);
        none.offer(1, ());
        assert!(!none.would_keep(&2) && none.into_items().next().is_none());
    }
}
