//! Shannon entropy of a value, in bits per character: how random it reads. Gitleaks' generic
//! rule uses the same measure; a random 20-character token of letters and digits scores about
//! 4.2, an English word about 2.5, `aaaa1111` 1.0.

/// Bits per byte of `value` (0 for an empty value).
pub(crate) fn bits_per_char(value: &[u8]) -> f32 {
    if value.is_empty() {
        return 0.0;
    }
    let mut counts = [0u16; 128];
    let mut other = 0u16;
    for &c in value.iter().take(4096) {
        match counts.get_mut(usize::from(c)) {
            Some(n) => *n = n.saturating_add(1),
            None => other = other.saturating_add(1),
        }
    }
    let total = f32::from(u16::try_from(value.len().min(4096)).unwrap_or(u16::MAX));
    counts
        .iter()
        .chain(std::iter::once(&other))
        .filter(|n| **n > 0)
        .map(|n| {
            let p = f32::from(*n) / total;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_text_scores_high_and_repeats_low() {
        assert_eq!(bits_per_char(b""), 0.0);
        assert_eq!(bits_per_char(b"aaaa"), 0.0);
        assert!((bits_per_char(b"aaaa1111") - 1.0).abs() < 1e-6);
        assert!(bits_per_char(b"q8Fz2kLmN0pRt5Vw9XyZ") > 4.0);
        assert!(bits_per_char(b"password") < 3.0);
    }
}
