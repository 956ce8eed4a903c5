//! The tests' one generator of repeatable pseudo-random numbers (Marsaglia's xorshift64):
//! generated inputs come out the same on every run, so a failure can be replayed.

/// The numbers after `seed` (not zero), one per call.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
