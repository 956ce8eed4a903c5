//! Shared parts of the compact-plus fuzz targets: the input generator, the shim
//! player and checks (all three also used by `tests/properties.rs`), and the
//! slowest-input record.

pub mod check;
pub mod gen;
pub mod player;

use std::cell::Cell;
use std::time::Duration;

/// libFuzzer's bytes, read through `arbitrary` as the generator's source.
impl gen::Source for arbitrary::Unstructured<'_> {
    fn byte(&mut self) -> u8 {
        self.arbitrary::<u8>().unwrap_or(0)
    }
}

thread_local! {
    static SLOWEST: Cell<Duration> = const { Cell::new(Duration::ZERO) };
    static RUNS: Cell<u64> = const { Cell::new(0) };
}

/// This thread's CPU time: unlike the wall clock, it does not count the time
/// other processes on a busy machine had the core.
fn cpu_time() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the call's duration.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
}

/// Runs before this many are warm-up (first use of tables, allocator growth)
/// and are not recorded as the slowest.
const WARM_UP: u64 = 100;

/// Runs one input, and when it is the slowest so far, records its CPU time and
/// the input itself in `$FUZZ_SLOWEST_DIR/<target>.{txt,input}`. libFuzzer
/// reports slow units in whole seconds only; a non-linear slowdown shows here
/// first, as a slowest time out of line with its input's size. `work` is the
/// size of what the target built from the bytes (text, JSON).
pub fn timed(target: &str, data: &[u8], run: impl FnOnce() -> usize) {
    let start = cpu_time();
    let work = run();
    let took = cpu_time().saturating_sub(start);
    let runs = RUNS.with(|r| {
        r.set(r.get() + 1);
        r.get()
    });
    if runs <= WARM_UP || took <= SLOWEST.with(Cell::get) {
        return;
    }
    SLOWEST.with(|s| s.set(took));
    let Some(dir) = std::env::var_os("FUZZ_SLOWEST_DIR") else { return };
    let dir = std::path::PathBuf::from(dir);
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("{target}.input")), data);
    let line = format!("{:.6} s CPU for {} input bytes, {} bytes of work\n", took.as_secs_f64(), data.len(), work);
    let _ = std::fs::write(dir.join(format!("{target}.txt")), line);
}

/// One hook on a fresh core: an event of its usual shape (or any JSON, or any
/// text), the host's answers drawn from the rest of the input. It must end in
/// `done`, within `player::MAX_STEPS` steps.
///
/// The options and the event are made before the clock starts: generating them
/// is the harness's cost, not the core's (options of nested JSON reach hundreds
/// of kilobytes, and once made `turn.complete`'s 45-byte event looked slow).
/// What the core reads of them, parsing the options included, is timed and
/// counted as work.
pub fn hook_target(target: &str, hook: &str, data: &[u8]) {
    use arbitrary::{Arbitrary, Unstructured};
    #[derive(Arbitrary, Debug)]
    struct Knobs {
        /// The event as raw text: whatever bytes follow, U+FFFD for what is not UTF-8.
        raw_event: Option<u16>,
    }
    let mut u = Unstructured::new(data);
    let knobs = Knobs::arbitrary(&mut u).unwrap_or(Knobs { raw_event: None });
    let options = player::options(&mut u);
    let event = match knobs.raw_event {
        Some(n) if n % 8 == 0 => {
            let bytes = u.bytes(usize::from(n / 8).min(u.len())).unwrap_or(&[]);
            String::from_utf8_lossy(bytes).into_owned()
        }
        _ => gen::event(&mut u, hook),
    };
    timed(target, data, || {
        let mut core = compact_plus::hooks::Core::new(compact_plus::hooks::Options::from_json(&options));
        let ending = player::play(&mut core, hook, &event, &mut u, player::MAX_STEPS);
        assert!(matches!(ending, Ok(player::Ending::Done(serde_json::Value::Object(_)))), "{hook} ended {ending:?}");
        options.len() + event.len() + player::answered()
    });
}
