//! A CURVE key's Z85 form beside its hex: zmq_curve(7) writes each test key twice, its 32
//! bytes in hex and on the next line in Z85 (ZeroMQ's RFC 32/Z85: 5 characters of an
//! 85-character alphabet for 4 bytes, big-endian, so 40 characters for a key). When a secret
//! read as 64 hex digits has on its next line the Z85 text of the same bytes, that line is
//! the same secret: it goes with it. The hex itself is named by its key (`secret:`), so a
//! public key written the same way stays, and so does Z85 text of other bytes.

use super::hit::Hit;
use super::shape::blanks;

/// RFC 32/Z85's alphabet, a character's value its index.
const ALPHABET: &[u8; 85] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/// `hit`, reaching over the next line when that line is its hex's Z85.
pub(crate) fn with_z85(b: &[u8], hit: Hit) -> Hit {
    match z85_line(b, hit.secret_start, hit.secret_end) {
        Some(end) => Hit {
            end,
            secret_end: end,
            ..hit
        },
        None => hit,
    }
}

/// The end of the Z85 text on the line after the 64 hex digits `start..end`, if it encodes
/// them. A manual's roff writes a zero-width `\&` before some characters: read as nothing.
fn z85_line(b: &[u8], start: usize, end: usize) -> Option<usize> {
    let hex = b.get(start..end).filter(|h| h.len() == 64)?;
    (b.get(end) == Some(&b'\n')).then_some(())?;
    let mut i = blanks(b, end + 1);
    let (mut value, mut read) = (0u32, 0usize);
    while read < 40 {
        if b.get(i..i + 2) == Some(b"\\&") {
            i += 2;
            continue;
        }
        let digit = ALPHABET.iter().position(|a| Some(a) == b.get(i))?;
        value = value.wrapping_mul(85).wrapping_add(digit as u32);
        read += 1;
        i += 1;
        if read % 5 == 0 {
            // The 4 bytes these 5 characters encode, against their 8 hex digits.
            let digits = hex.get((read / 5 - 1) * 8..read / 5 * 8)?;
            let want = digits
                .iter()
                .fold(0u32, |n, d| n << 4 | (*d as char).to_digit(16).unwrap_or(0));
            (value == want).then_some(())?;
            value = 0;
        }
    }
    matches!(b.get(i), None | Some(b'\n' | b'\r' | b' ')).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::super::{redact, redact_counted};

    /// RFC 8032 §7.1's first secret key, in hex and in Z85 (computed per RFC 32/Z85).
    #[test]
    fn the_z85_line_of_a_secrets_hex_goes_with_it() {
        let hex = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
        let z85 = "ONF^][blA$X}AYFLi::rl}LviDOPpMA67c69iK^0";
        let text = format!("secret:\n    {hex}\n    {z85}\nnext");
        assert_eq!(
            redact(&text),
            "secret:\n    [REDACTED:secret-assignment]\nnext"
        );
        // Another key's Z85 stays; a public key so written stays whole.
        let other = format!("secret:\n    {hex}\n    {}\nnext", z85.replace('O', "P"));
        assert!(redact(&other).contains("PNF^]"));
        let public = format!("public:\n    {hex}\n    {z85}\n");
        assert_eq!(redact_counted(&public).1, 0);
    }
}
