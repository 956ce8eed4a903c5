//! The mentions table's hasher: every identifier of a session is hashed, one multiply per
//! 8 bytes where SipHash would run its rounds.

use std::hash::{BuildHasher, Hasher};

/// FxHash-style: a multiply per 8 bytes instead of SipHash's rounds. The table's
/// order never shows: [`Mentions::ranked`] sorts on count, recency, kind and text.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FastHash;

impl BuildHasher for FastHash {
    type Hasher = FxHasher;
    fn build_hasher(&self) -> FxHasher {
        FxHasher(0)
    }
}

pub(crate) struct FxHasher(u64);

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
