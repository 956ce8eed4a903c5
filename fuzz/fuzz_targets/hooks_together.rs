//! Hooks of one session on one core, one after another and in flight together:
//! state carried between them (pending blocks, the turn-end latch, a queued
//! `/compact`, the threshold cache) must never leave one stuck.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus_fuzz::player::{self, Ending};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    together: bool,
    hooks: u8,
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("hooks_together", data, || {
    let mut u = Unstructured::new(data);
    let Ok(knobs) = Knobs::arbitrary(&mut u) else { return 0 };
    let hooks = 1 + usize::from(knobs.hooks % 12);
    let endings = if knobs.together { player::interleaved(&mut u, hooks) } else { player::session(&mut u, hooks) };
    let endings = match endings {
        Ok(e) => e,
        Err(fault) => panic!("{fault:?}"),
    };
    assert_eq!(endings.len(), hooks);
    assert!(endings.iter().all(|e| matches!(e, Ending::Done(_))), "{endings:?}");
    player::answered()
}));
