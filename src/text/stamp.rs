//! Times as the reference prints them: `Date.prototype.toISOString`.

/// The largest time a JS `Date` holds: ±8.64e15 ms from the epoch.
const MAX_MS: f64 = 8.64e15;

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (Howard Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// `new Date(ms).toISOString()`, or `None` where JS throws (NaN, out of range).
pub fn iso(ms: f64) -> Option<String> {
    if !ms.is_finite() || ms.abs() > MAX_MS {
        return None;
    }
    let ms = ms.trunc() as i64; // TimeClip
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil(days);
    let (h, mi, s, milli) = (in_day / 3_600_000, in_day / 60_000 % 60, in_day / 1000 % 60, in_day % 1000);
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:06}", -y)
    } else {
        format!("+{y:06}")
    };
    Some(format!("{year}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z"))
}

/// The history file's time stamp: the ISO time without colons or milliseconds,
/// e.g. `2026-11-29T231502Z`. `None` where `iso` has none.
pub fn stamp(ms: f64) -> Option<String> {
    let iso = iso(ms)?;
    let no_colons = iso.replace(':', "");
    // `.replace(/\.\d+Z$/, 'Z')`
    Some(match no_colons.rfind('.') {
        Some(dot) if no_colons.ends_with('Z') => format!("{}Z", no_colons.get(..dot).unwrap_or("")),
        _ => no_colons,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_matches_js() {
        assert_eq!(iso(0.0).unwrap(), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(1_764_457_502_123.0).unwrap(), "2025-11-29T23:05:02.123Z");
        assert_eq!(iso(951_782_400_000.0).unwrap(), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso(253_402_300_799_999.0).unwrap(), "9999-12-31T23:59:59.999Z");
        assert_eq!(iso(253_402_300_800_000.0).unwrap(), "+010000-01-01T00:00:00.000Z");
        assert_eq!(iso(8.64e15).unwrap(), "+275760-09-13T00:00:00.000Z");
        assert_eq!(iso(-1.0).unwrap(), "1969-12-31T23:59:59.999Z");
        assert_eq!(iso(-62_198_755_200_000.0).unwrap(), "-000001-01-01T00:00:00.000Z");
        assert_eq!(iso(-8.64e15).unwrap(), "-271821-04-20T00:00:00.000Z");
        assert_eq!(iso(1.9).unwrap(), "1970-01-01T00:00:00.001Z");
        assert_eq!(iso(-1.9).unwrap(), "1969-12-31T23:59:59.999Z");
        assert!(iso(f64::NAN).is_none());
        assert!(iso(8.64e15 + 1.0).is_none());
        assert!(iso(f64::INFINITY).is_none());
    }

    #[test]
    fn stamp_drops_colons_and_millis() {
        assert_eq!(stamp(1_764_457_502_123.0).unwrap(), "2025-11-29T230502Z");
        assert_eq!(stamp(8.64e15).unwrap(), "+275760-09-13T000000Z");
        assert!(stamp(f64::NAN).is_none());
    }
}
