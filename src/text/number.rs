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
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x". When two such digit
    // strings are equally close to `n`, it takes the upper one and JS the even one (ECMA-262
    // Number::toString, step 5: `1394865425023536.25` prints `…536.2`). Rounding `n` to
    // that many digits exactly ties to even, as JS does; it is taken when it reads back as
    // `n`, which it does but where the shortest digits are not the closest ones.
    let shortest = format!("{:e}", n.abs());
    let places = shortest.split('e').next().map_or(0, |m| m.len().saturating_sub(2));
    let closest = format!("{:.places$e}", n.abs());
    let sci = if closest.parse::<f64>() == Ok(n.abs()) { closest } else { shortest };
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    let k = digits.len() as i64;
    let point = exp + 1; // JS's `n`: where the decimal point goes
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
}
