//! Quotes as man pages write them. pod2man (and so every Perl module's manual Debian ships)
//! writes an apostrophe as the string `\*(Aq`, which its preamble defines as `'` (groff's
//! `\(aq` glyph); groff_char(7) names `\(aq` the apostrophe too. A value quoted so in a
//! manual's example (`consumer_secret => \*(Aqkd94hf93k423kf44\*(Aq,`) is a quoted value.
//!
//! A leaf: imports nothing of its neighbours.

/// The ways roff writes an apostrophe.
const APOSTROPHES: &[&[u8]] = &[b"\\*(Aq", b"\\(aq"];

/// At `at`, a value opened by a roff apostrophe and closed by the same on its line: where the
/// value starts, where it ends, and where its closing quote ends.
pub(crate) fn roff_quoted(b: &[u8], at: usize) -> Option<(usize, usize, usize)> {
    let rest = b.get(at..)?;
    let quote = APOSTROPHES.iter().find(|q| rest.starts_with(q))?;
    let start = at + quote.len();
    let body = b.get(start..)?;
    let line = body.iter().position(|c| *c == b'\n').unwrap_or(body.len());
    let len = body
        .get(..line)?
        .windows(quote.len())
        .position(|w| w == *quote)?;
    (len > 0).then_some((start, start + len, start + len + quote.len()))
}

#[cfg(test)]
mod tests {
    use super::super::redact;
    use super::*;

    #[test]
    fn a_value_between_roff_apostrophes_is_quoted() {
        let b = br"x \*(Aqkd94hf93k423kf44\*(Aq, y";
        assert_eq!(roff_quoted(b, 2), Some((7, 23, 28)));
        assert_eq!(roff_quoted(br"\*(Aqopen", 0), None);
        assert_eq!(roff_quoted(b"\\*(Aq\n\\*(Aq", 0), None);
        assert_eq!(roff_quoted(br"\(aqs3cr3tW0rd\(aq", 0), Some((4, 14, 18)));
    }

    #[test]
    fn a_manuals_secret_in_roff_quotes_goes() {
        let man = "\\&            consumer_secret => \\*(Aqkd94hf93k423kf44\\*(Aq,";
        assert_eq!(
            redact(man),
            "\\&            consumer_secret => \\*(Aq[REDACTED:secret-assignment]\\*(Aq,"
        );
        for kept in [
            "\\&            consumer_secret => \\*(Aqconsumer_secret\\*(Aq,",
            "\\&    my $request = Net::OAuth\\->request(\\*(Aqconsumer\\*(Aq)\\->new(",
            "password => \\*(Aq\\*(Aq,",
        ] {
            assert_eq!(redact(kept), kept);
        }
    }
}
