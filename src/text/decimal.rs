//! A numeral read as `str::parse::<f64>` reads it, without core's reader: its table of powers
//! of five and its code are 17 KB of the core's .wasm, for the few option values the host
//! gives as text (`"turnEndPercent": "85"`). Exact, and slow beside core's: it divides big
//! integers, which a handful of short strings a hook never notices.

use std::cmp::Ordering;

/// Significant digits kept; the rest only say whether the value is a little more. A double's
/// rounding never depends on a digit past the 767th (a halfway point between two doubles has
/// at most 767 significant digits), so a nonzero tail read as one digit `1` rounds the same.
const KEPT_DIGITS: usize = 800;

/// `s.parse::<f64>().ok()`: the same strings accepted (a sign, digits with at most one `.`
/// and at least one digit, an exponent `e`/`E` with a sign and at least one digit; `inf`,
/// `infinity`, `nan` in any case), the same value, correctly rounded, for each.
pub fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let (negative, rest) = match b.first()? {
        b'-' => (true, &b[1..]),
        b'+' => (false, &b[1..]),
        _ => (false, b),
    };
    let value = match numeral(rest) {
        Some(v) => v,
        None => named(rest)?,
    };
    Some(if negative { -value } else { value })
}

/// `inf`, `infinity`, `nan`, in any case, alone.
fn named(s: &[u8]) -> Option<f64> {
    let is = |word: &str| s.eq_ignore_ascii_case(word.as_bytes());
    if is("inf") || is("infinity") {
        Some(f64::INFINITY)
    } else if is("nan") {
        Some(f64::NAN)
    } else {
        None
    }
}

/// Digits, a point, an exponent: the value they write, rounded to the nearest double (ties to
/// even). `None` when `s` is not all a numeral.
fn numeral(s: &[u8]) -> Option<f64> {
    // The value is `digits × 10^exp10`, `digits` without leading zeros.
    let mut digits: Vec<u8> = Vec::new();
    let mut exp10: i64 = 0;
    let mut more = false;
    let mut seen = 0usize;
    let mut at = 0;
    let mut after_point = false;
    while let Some(&c) = s.get(at) {
        if c == b'.' && !after_point {
            after_point = true;
        } else if c.is_ascii_digit() {
            seen += 1;
            let d = c - b'0';
            if digits.is_empty() && d == 0 {
                exp10 -= i64::from(after_point);
            } else if digits.len() < KEPT_DIGITS {
                digits.push(d);
                exp10 -= i64::from(after_point);
            } else {
                more |= d != 0;
                exp10 += i64::from(!after_point);
            }
        } else {
            break;
        }
        at += 1;
    }
    if seen == 0 {
        return None;
    }
    if let Some(&(b'e' | b'E')) = s.get(at) {
        at += 1;
        let negative = s.get(at) == Some(&b'-');
        if matches!(s.get(at), Some(b'-' | b'+')) {
            at += 1;
        }
        let start = at;
        // core stops adding digits once the exponent passes 0x10000 (a bound, not an overflow).
        let mut e: i64 = 0;
        while let Some(&c) = s.get(at).filter(|c| c.is_ascii_digit()) {
            if e < 0x10000 {
                e = 10 * e + i64::from(c - b'0');
            }
            at += 1;
        }
        if at == start {
            return None;
        }
        exp10 += if negative { -e } else { e };
    }
    if at != s.len() {
        return None;
    }
    if digits.is_empty() {
        return Some(0.0);
    }
    if more {
        digits.push(1);
        exp10 -= 1;
    }
    // The value is below 10^magnitude and at least 10^(magnitude - 1).
    let magnitude = digits.len() as i64 + exp10;
    if magnitude > 310 {
        return Some(f64::INFINITY);
    }
    if magnitude < -325 {
        return Some(0.0);
    }
    Some(nearest(&digits, exp10))
}

/// `digits × 10^exp10` rounded to the nearest double, by big integers: the value as
/// `num / den`, the power of two `u` of the double's last bit there, `num / (den × 2^u)`
/// divided out bit by bit and rounded half to even.
fn nearest(digits: &[u8], exp10: i64) -> f64 {
    let mut num = vec![];
    for &d in digits {
        mul_add(&mut num, 10, u32::from(d));
    }
    let mut den = vec![1];
    let tens = if exp10 >= 0 { &mut num } else { &mut den };
    for _ in 0..exp10.unsigned_abs() {
        mul_add(tens, 10, 0);
    }
    // 2^e2 <= num / den < 2^(e2 + 1).
    let mut e2 = bits(&num) - bits(&den);
    if compare_scaled(&num, &den, e2) == Ordering::Less {
        e2 -= 1;
    }
    if e2 > 1023 {
        return f64::INFINITY;
    }
    let u = (e2 - 52).max(-1074);
    let (mut rest, den) = if u >= 0 { (num, shl(&den, u as usize)) } else { (shl(&num, (-u) as usize), den) };
    // The quotient is below 2^53.
    let mut q: u64 = 0;
    for i in (0..=53).rev() {
        let step = shl(&den, i);
        if compare(&rest, &step) != Ordering::Less {
            sub(&mut rest, &step);
            q |= 1 << i;
        }
    }
    let twice = shl(&rest, 1);
    match compare(&twice, &den) {
        Ordering::Greater => q += 1,
        Ordering::Equal => q += q & 1,
        Ordering::Less => {}
    }
    // Exact: `q` has at most 53 bits, and `q × 2^u` is a double (or past the largest: inf).
    q as f64 * pow2(u)
}

fn pow2(u: i64) -> f64 {
    if u >= -1022 {
        f64::from_bits(((u + 1023) as u64) << 52)
    } else {
        f64::from_bits(1 << (u + 1074))
    }
}

/// `x = x × m + a`, little-endian 32-bit limbs.
fn mul_add(x: &mut Vec<u32>, m: u32, a: u32) {
    let mut carry = u64::from(a);
    for limb in x.iter_mut() {
        let t = u64::from(*limb) * u64::from(m) + carry;
        *limb = t as u32;
        carry = t >> 32;
    }
    if carry > 0 {
        x.push(carry as u32);
    }
}

/// How many bits `x` has (0 for zero).
fn bits(x: &[u32]) -> i64 {
    x.iter().rposition(|&l| l != 0).map_or(0, |top| top as i64 * 32 + 32 - i64::from(x[top].leading_zeros()))
}

fn shl(x: &[u32], by: usize) -> Vec<u32> {
    let (limbs, shift) = (by / 32, by % 32);
    let mut out = vec![0; limbs];
    let mut carry = 0u32;
    for &l in x {
        out.push((l << shift) | carry);
        carry = if shift == 0 { 0 } else { l >> (32 - shift) };
    }
    out.push(carry);
    out
}

fn compare(a: &[u32], b: &[u32]) -> Ordering {
    let len = |x: &[u32]| x.iter().rposition(|&l| l != 0).map_or(0, |top| top + 1);
    let (la, lb) = (len(a), len(b));
    la.cmp(&lb).then_with(|| a[..la].iter().rev().cmp(b[..lb].iter().rev()))
}

/// `num` against `den × 2^e`.
fn compare_scaled(num: &[u32], den: &[u32], e: i64) -> Ordering {
    if e >= 0 {
        compare(num, &shl(den, e as usize))
    } else {
        compare(&shl(num, (-e) as usize), den)
    }
}

/// `a -= b`, `a >= b`.
fn sub(a: &mut [u32], b: &[u32]) {
    let mut borrow = 0i64;
    for (i, limb) in a.iter_mut().enumerate() {
        let t = i64::from(*limb) - i64::from(b.get(i).copied().unwrap_or(0)) - borrow;
        *limb = t as u32;
        borrow = i64::from(t < 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(s: &str) {
        let want = s.parse::<f64>().ok();
        let got = parse_f64(s);
        assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{s:?}: {got:?} against {want:?}");
    }

    #[test]
    fn reads_as_core_reads() {
        for s in [
            "", "+", "-", ".", "e5", "1e", "1e+", "1e-", ".e1", "1.e1", ".5", "5.", "-0", "+0.0", "0e99999",
            "1_000", " 1", "1 ", "0x10", "1.2.3", "1e1.5", "--1", "+-1", "inf", "-INF", "Infinity", "-infinity",
            "infinit", "nan", "NaN", "-nan", "nanx", "infx", "12", "85", "0.1", "1e308", "1.7976931348623157e308",
            "1.7976931348623158e308", "1.7976931348623159e308", "2e308", "4.9e-324", "2.4703282292062327e-324",
            "2.4703282292062328e-324", "2.2250738585072011e-308", "2.2250738585072014e-308", "1e-400", "1e400",
            "9007199254740993", "9007199254740993.0000000000000000000001", "123456789012345678901234567890",
            "0.000000000000000000000000000000000000000000001e45", "1e65536", "1e-65536", "1e99999999999999",
            "0.00000000000000000000000000000000000000000000000000000000000001e99999999",
        ] {
            same(s);
        }
    }

    /// Halfway points between neighbouring doubles, written out exactly, and a hair either
    /// side: the strings where rounding is decided by the last digit.
    #[test]
    fn halfway_points_round_as_core_rounds() {
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..3000 {
            let x = f64::from_bits(next() % 0x7ff0_0000_0000_0000);
            // Its exact decimal, and the midpoint to the next double: (2m + 1) × 2^(e - 1).
            let exact = format!("{x:.1100}");
            let up = f64::from_bits(x.to_bits() + 1);
            if !up.is_finite() {
                continue;
            }
            let mid = exact_midpoint(x, up);
            for s in [exact.trim_end_matches('0').to_owned(), mid.clone(), format!("{mid}1"), nudge_down(&mid)] {
                same(&s);
            }
            same(&format!("{x:e}"));
            same(&format!("{}e{}", next() % 100_000, (next() % 700) as i64 - 350));
            if round % 10 == 0 {
                same(&format!("{}.{}e-{}", next(), "0".repeat((next() % 900) as usize) + "7", next() % 400));
            }
        }
    }

    /// `(a + b) / 2` written out exactly in decimal (a double's digits are finite).
    fn exact_midpoint(a: f64, b: f64) -> String {
        let (sa, sb) = (format!("{a:.1100}"), format!("{b:.1100}"));
        let (ia, fa) = sa.split_once('.').unwrap();
        let (ib, fb) = sb.split_once('.').unwrap();
        let da: Vec<u32> = ia.bytes().chain(fa.bytes()).map(|c| u32::from(c - b'0')).collect();
        let db: Vec<u32> = ib.bytes().chain(fb.bytes()).map(|c| u32::from(c - b'0')).collect();
        let width = da.len().max(db.len());
        let pad = |d: &[u32]| std::iter::repeat_n(0, width - d.len()).chain(d.iter().copied()).collect::<Vec<u32>>();
        let (da, db) = (pad(&da), pad(&db));
        // Sum, then halve, one more place after the point.
        let mut sum = vec![0u32; width + 1];
        let mut carry = 0;
        for i in (0..width).rev() {
            let t = da[i] + db[i] + carry;
            sum[i + 1] = t % 10;
            carry = t / 10;
        }
        sum[0] = carry;
        sum.push(0);
        let mut half = Vec::with_capacity(sum.len());
        let mut rem = 0;
        for d in sum {
            let t = rem * 10 + d;
            half.push(t / 2);
            rem = t % 2;
        }
        let int_len = width - fa.len().max(fb.len()) + 1;
        let text: String = half.iter().map(|d| char::from(b'0' + *d as u8)).collect();
        format!("{}.{}", &text[..int_len], &text[int_len..]).trim_end_matches('0').to_owned()
    }

    /// The decimal just below `s` at its last digit (`…25` → `…2499…9`).
    fn nudge_down(s: &str) -> String {
        match s.strip_suffix(|c: char| c.is_ascii_digit() && c != '0') {
            Some(head) => {
                let last = s.as_bytes()[s.len() - 1];
                format!("{head}{}999", char::from(last - 1))
            }
            None => s.to_owned(),
        }
    }
}
