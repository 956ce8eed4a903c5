//! `iso` and `stamp` for any number, against a day-by-day calendar.
#![no_main]
use arbitrary::{Arbitrary, Unstructured};
use compact_plus::text::stamp;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Knobs {
    ms: f64,
    whole: Option<i64>,
}

fn reference_iso(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms.abs() > 8.64e15 {
        return None;
    }
    let ms = ms.trunc() as i64;
    let mut days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let mut year = 1970 + 400 * days.div_euclid(146_097);
    days = days.rem_euclid(146_097);
    loop {
        let len = if leap(year) { 366 } else { 365 };
        if days < len {
            break;
        }
        days -= len;
        year += 1;
    }
    let months = [31, if leap(year) { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 0;
    while days >= months[month] {
        days -= months[month];
        month += 1;
    }
    let y = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else {
        format!("{}{:06}", if year < 0 { '-' } else { '+' }, year.abs())
    };
    Some(format!(
        "{y}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        month + 1,
        days + 1,
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    ))
}

fuzz_target!(|data: &[u8]| compact_plus_fuzz::timed("stamp", data, || {
    let Ok(k) = Knobs::arbitrary(&mut Unstructured::new(data)) else { return 0 };
    // Whole numbers are spread over the range a Date holds, and past it.
    let ms = k.whole.map_or(k.ms, |w| (w % 9_000_000_000_000_000) as f64);
    let iso = stamp::iso(ms);
    assert_eq!(iso, reference_iso(ms), "ms {ms}");
    let st = stamp::stamp(ms);
    assert_eq!(st.is_some(), iso.is_some());
    if let (Some(iso), Some(st)) = (iso, st) {
        assert!(!st.contains(':') && !st.contains('.') && st.ends_with('Z'));
        assert!(iso.replace(':', "").starts_with(st.trim_end_matches('Z')));
    }
    8
}));
