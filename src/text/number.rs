//! JS numbers as text.

/// `n.toString()` (`Number.prototype.toString`), which is what `String(n)` and a template
/// literal give for a JS number: shortest round-trip digits, JS's exponent rules. Not
/// `Number(v)`, which reads a value as a number.
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if n == 0.0 {
        return "0".into();
    }
    // zmij (serde_json's own float printer, already in the module) gives the shortest
    // round-trip digits, and of two such strings equally close to `n` the even one, as
    // ECMA-262's Number::toString does (step 5: `1394865425023536.25` prints `…536.2`).
    // Read back from its text (`12.5`, `0.001`, `1.5e-7`, `1e+21`): core's `{:e}` would
    // bring its own float printer, 20 KB of the .wasm, for the same digits.
    let mut buffer = zmij::Buffer::new();
    let printed = buffer.format_finite(n.abs());
    let (mantissa, exp) = printed.split_once('e').unwrap_or((printed, "0"));
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = whole.chars().chain(fraction.chars()).collect();
    let lead = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0');
    // JS's `n`: where the decimal point goes, counted from the first significant digit.
    let point = exp.parse::<i64>().unwrap_or(0) + whole.len() as i64 - lead as i64;
    let k = digits.len() as i64;
    let sign = if n < 0.0 { "-" } else { "" };
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        let (a, b) = digits.split_at(point as usize);
        format!("{a}.{b}")
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let e = point - 1;
        let e = if e >= 0 { format!("+{e}") } else { e.to_string() };
        let (a, b) = digits.split_at(1);
        if b.is_empty() {
            format!("{a}e{e}")
        } else {
            format!("{a}.{b}e{e}")
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_js_does() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-42.0, "-42"),
            (9.5, "9.5"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (8.64e15, "8640000000000000"),
            // Two shortest digit strings equally close: JS takes the even one
            // (`String(1394865425023536.25)` in Node 22 is "1394865425023536.2").
            // (1394865425023536.25, written so that it is exact in the source too)
            (5_579_461_700_094_145.0 / 4.0, "1394865425023536.2"),
            (-5_579_461_700_094_145.0 / 4.0, "-1394865425023536.2"),
            (0.25, "0.25"),
            (2.5, "2.5"),
        ];
        for (n, want) in cases {
            assert_eq!(number_to_string(n), want, "{n}");
        }
    }

    /// The digits as this module read them before zmij, from core's `{:e}` (where two
    /// shortest strings are equally close, the even one: core's exact `{:.p$e}` when it reads
    /// back as `n`), agree with zmij's on doubles of every kind.
    #[test]
    fn zmij_digits_are_the_ones_core_formatting_gives() {
        let by_core = |n: f64| -> (String, i64) {
            let shortest = format!("{:e}", n.abs());
            let places = shortest.split('e').next().map_or(0, |m| m.len().saturating_sub(2));
            let closest = format!("{:.places$e}", n.abs());
            let sci = if closest.parse::<f64>() == Ok(n.abs()) { closest } else { shortest };
            let (mantissa, exp) = sci.split_once('e').unwrap();
            (mantissa.replace('.', ""), exp.parse::<i64>().unwrap() + 1)
        };
        let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let any = f64::from_bits(next() % 0x7ff0_0000_0000_0000);
            let quarter = (next() % (1 << 55)) as f64 / 4.0;
            let whole = (next() % 1_000_000_000_000) as f64;
            let short = format!("{}e{}", next() % 10_000, (next() % 640) as i64 - 320).parse::<f64>().unwrap();
            for n in [any, quarter, whole, short, -any] {
                if n == 0.0 || !n.is_finite() {
                    continue;
                }
                let (digits, point) = by_core(n);
                let (k, sign) = (digits.len() as i64, if n < 0.0 { "-" } else { "" });
                let want = if k <= point && point <= 21 {
                    format!("{sign}{digits}{}", "0".repeat((point - k) as usize))
                } else if 0 < point && point <= 21 {
                    format!("{sign}{}.{}", &digits[..point as usize], &digits[point as usize..])
                } else if -6 < point && point <= 0 {
                    format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
                } else {
                    let e = if point > 0 { format!("+{}", point - 1) } else { (point - 1).to_string() };
                    let tail = if k > 1 { format!(".{}", &digits[1..]) } else { String::new() };
                    format!("{sign}{}{tail}e{e}", &digits[..1])
                };
                assert_eq!(number_to_string(n), want, "{:?}", n.to_bits());
            }
        }
    }
}
