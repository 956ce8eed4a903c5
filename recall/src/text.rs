//! The answer's text: bounded in UTF-16 code units (the unit the engine counts
//! a tool's text in), lines clipped around their hit, dates as a person reads
//! them.

/// The most an answer may hold, in UTF-16 code units; every char is one or
/// two, so it is also at most that many chars.
pub const MAX_ANSWER: usize = 8000;
/// A line shown is cut to this many chars, around its hit.
pub const LINE_CHARS: usize = 300;
/// How much of a long hit line is shown ahead of the hit.
const LEAD_CHARS: usize = 80;

/// A line cut to `LINE_CHARS` chars, around the hit (a byte offset) when it has one.
pub fn clip(line: &str, hit: Option<usize>) -> String {
    let count = line.chars().count();
    if count <= LINE_CHARS {
        return line.to_owned();
    }
    let hit_char = hit.map_or(0, |b| line.get(..b).map_or(0, |s| s.chars().count()));
    let from = hit_char.saturating_sub(LEAD_CHARS).min(count.saturating_sub(LINE_CHARS));
    let body: String = line.chars().skip(from).take(LINE_CHARS).collect();
    let head = if from > 0 { "…" } else { "" };
    let tail = if from + LINE_CHARS < count { "…" } else { "" };
    format!("{head}{body}{tail}")
}

pub fn quote(s: &str) -> String {
    format!("\"{}\"", cut_chars(s, 200))
}

pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// At most `max` chars, `…` where cut.
pub fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", s.get(..i).unwrap_or("")),
        None => s.to_owned(),
    }
}

/// At most `max` UTF-16 code units of `s`, whole chars.
pub fn take_units(s: &str, max: usize) -> &str {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        if units + c.len_utf16() > max {
            return s.get(..i).unwrap_or("");
        }
        units += c.len_utf16();
    }
    s
}

/// The answer, counted in UTF-16 code units as it grows.
#[derive(Default)]
pub struct Budget {
    text: String,
    units: usize,
}

impl Budget {
    pub fn push(&mut self, s: &str) {
        self.units += s.encode_utf16().count();
        self.text.push_str(s);
    }

    pub fn units(&self) -> usize {
        self.units
    }

    /// Whether `s` fits with `room` left over.
    pub fn fits(&self, s: &str, room: usize) -> bool {
        self.units + s.encode_utf16().count() + room <= MAX_ANSWER
    }

    /// The text, cut at a char boundary should it have passed the bound.
    pub fn finish(self) -> String {
        if self.units <= MAX_ANSWER {
            return self.text;
        }
        take_units(&self.text, MAX_ANSWER).to_owned()
    }
}

/// `2026-03-09T14:25:05.135Z` as `2026-03-09 14:25Z`; another shape as it is (cut).
pub fn date_of(ts: &str) -> String {
    match (ts.get(..10), ts.get(11..16)) {
        (Some(d), Some(t)) if ts.as_bytes().get(10) == Some(&b'T') => format!("{d} {t}Z"),
        _ => cut_chars(ts, 24),
    }
}

pub fn date_of_ms(ms: f64) -> String {
    date_of(&iso_of_ms(ms))
}

/// Milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (civil from days).
pub fn iso_of_ms(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return String::new();
    }
    let secs = (ms / 1000.0).floor() as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_of_ms_is_the_civil_date() {
        assert_eq!(iso_of_ms(1_700_000_000_000.0), "2023-11-14T22:13:20Z");
        assert_eq!(iso_of_ms(0.0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_of_ms(f64::NAN), "");
        assert_eq!(date_of("2026-03-09T14:25:05.135Z"), "2026-03-09 14:25Z");
    }

    #[test]
    fn the_budget_cuts_at_a_whole_char() {
        let mut b = Budget::default();
        b.push(&"🦀".repeat(MAX_ANSWER));
        let t = b.finish();
        assert!(t.encode_utf16().count() <= MAX_ANSWER && t.chars().all(|c| c == '🦀'));
        assert_eq!(take_units("a🦀b", 2), "a");
    }
}
