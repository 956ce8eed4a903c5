//! The module's one sort. Each `sort_by` closure is a sort of its own in the
//! wasm (about 4 KB each, a stable sort's merges and small sorts with it), so
//! every order the module puts things in is this one sort of indices.

use std::cmp::Ordering;

/// The indices `0..n` in the order `compare` gives them; those it calls equal
/// stay in the order given, as `sort_by` keeps them.
pub fn stable(n: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// `items` in the order of [`stable`]'s indices.
pub fn arrange<T>(items: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order.iter().filter_map(|&i| slots.get_mut(i).and_then(Option::take)).collect()
}

/// `items` sorted by `compare`, equal ones in the order given: `sort_by`'s order.
pub fn sorted_by<T>(items: Vec<T>, compare: impl Fn(&T, &T) -> Ordering) -> Vec<T> {
    let order = stable(items.len(), &|a, b| match (items.get(a), items.get(b)) {
        (Some(x), Some(y)) => compare(x, y),
        _ => Ordering::Equal,
    });
    arrange(items, &order)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same order as `sort_by`, ties included, on keys with many ties.
    #[test]
    fn sorts_as_sort_by_does() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..300usize {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    ((seed % 7) as u8, i)
                })
                .collect();
            let mut want = items.clone();
            want.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(sorted_by(items, |a, b| b.0.cmp(&a.0)), want);
        }
    }
}
