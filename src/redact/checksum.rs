//! The checksums credential encodings carry, as pure functions of the token's text: a token
//! whose checksum holds is that encoding and no look-alike (a random string of the same
//! shape passes a 32-bit checksum once in four billion). Each is written from its
//! specification and tested on the specification's own examples; none panics on any input
//! (a candidate is whatever text had the row's shape). A leaf: imports nothing of its
//! neighbours.

/// Bitcoin's base58 alphabet (no `0`, `O`, `I`, `l`).
pub(crate) const BITCOIN: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// The XRP Ledger's base58 alphabet: the same characters in another order.
pub(crate) const RIPPLE: &[u8; 58] = b"rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz";

/// Base58Check (Bitcoin wiki "Base58Check encoding"; the XRP Ledger's "base58 encodings"
/// with its alphabet): the decoded bytes end in the first 4 bytes of the double SHA-256 of
/// the bytes before them.
pub(crate) fn base58check_holds(token: &[u8], alphabet: &[u8; 58]) -> bool {
    let Some(bytes) = base58_decode(token, alphabet) else {
        return false;
    };
    let Some(split) = bytes.len().checked_sub(4).filter(|n| *n > 0) else {
        return false;
    };
    let (payload, sum) = bytes.split_at(split);
    sha256(&sha256(payload)).get(..4) == Some(sum)
}

/// Base58 to bytes, big-endian; each leading zero digit (the alphabet's first character) is
/// a leading zero byte. `None` for a character outside the alphabet.
pub(crate) fn base58_decode(text: &[u8], alphabet: &[u8; 58]) -> Option<Vec<u8>> {
    let zeros = text.iter().take_while(|c| Some(*c) == alphabet.first()).count();
    // Little-endian while accumulating.
    let mut number: Vec<u8> = Vec::with_capacity(text.len());
    for c in text {
        let mut carry = alphabet.iter().position(|a| a == c)? as u32;
        for byte in number.iter_mut() {
            carry += u32::from(*byte) * 58;
            *byte = (carry & 0xff) as u8;
            carry >>= 8;
        }
        while carry > 0 {
            number.push((carry & 0xff) as u8);
            carry >>= 8;
        }
    }
    let mut bytes = vec![0u8; zeros];
    bytes.extend(number.iter().rev());
    Some(bytes)
}

/// Stellar's StrKey (SEP-0023) and NATS' nkeys: RFC 4648 base32 without padding, whose
/// last two bytes are the CRC16-XModem of the bytes before them, little-endian. The bits
/// the last character does not fill must be zero, as SEP-0023 requires.
pub(crate) fn strkey_holds(token: &[u8]) -> bool {
    let Some(bytes) = base32_decode(token) else {
        return false;
    };
    let Some(split) = bytes.len().checked_sub(2).filter(|n| *n > 0) else {
        return false;
    };
    let (data, sum) = bytes.split_at(split);
    crc16_xmodem(data).to_le_bytes() == sum
}

/// RFC 4648 base32 (`A-Z2-7`), no padding; `None` for another character or for bits left
/// over that are not zero.
fn base32_decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len() * 5 / 8);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in text {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'2'..=b'7' => c - b'2' + 26,
            _ => return None,
        };
        acc = (acc << 5) | u32::from(value);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            bytes.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    (acc == 0).then_some(bytes)
}

/// CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection (SEP-0023's
/// x^16 + x^12 + x^5 + 1).
pub(crate) fn crc16_xmodem(data: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &byte in data {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    crc
}

/// Bech32 (BIP-173): the human-readable part, `1`, then data characters whose last six are
/// the checksum; the polymod of the expanded part and the data is 1. One case throughout.
pub(crate) fn bech32_holds(token: &[u8]) -> bool {
    const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    let lower = token.iter().any(u8::is_ascii_lowercase);
    let upper = token.iter().any(u8::is_ascii_uppercase);
    let Some(sep) = token.iter().rposition(|c| *c == b'1') else {
        return false;
    };
    let (hrp, data) = (token.get(..sep).unwrap_or(&[]), token.get(sep + 1..).unwrap_or(&[]));
    if (lower && upper) || hrp.is_empty() || data.len() < 6 {
        return false;
    }
    if hrp.iter().any(|c| !(33..=126).contains(c)) {
        return false;
    }
    let mut chk: u32 = 1;
    let mut step = |value: u8| {
        let top = chk >> 25;
        chk = ((chk & 0x01ff_ffff) << 5) ^ u32::from(value);
        for (i, g) in [0x3b6a_57b2u32, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3]
            .iter()
            .enumerate()
        {
            if (top >> i) & 1 == 1 {
                chk ^= g;
            }
        }
    };
    for c in hrp {
        step(c.to_ascii_lowercase() >> 5);
    }
    step(0);
    for c in hrp {
        step(c.to_ascii_lowercase() & 31);
    }
    for c in data {
        let Some(value) = CHARSET.iter().position(|x| *x == c.to_ascii_lowercase()) else {
            return false;
        };
        step(value as u8);
    }
    chk == 1
}

/// SHA-256 (FIPS 180-4).
pub(crate) fn sha256(message: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut padded = message.to_vec();
    padded.push(0x80);
    while padded.len() % 64 != 56 {
        padded.push(0);
    }
    padded.extend_from_slice(&((message.len() as u64).wrapping_mul(8)).to_be_bytes());
    for block in padded.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
            *word = bytes.iter().fold(0, |acc, b| (acc << 8) | u32::from(*b));
        }
        for t in 16..64 {
            let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
            let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16]
                .wrapping_add(s0)
                .wrapping_add(w[t - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for (k, wt) in K.iter().zip(w.iter()) {
            let t1 = hh
                .wrapping_add(e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25))
                .wrapping_add((e & f) ^ (!e & g))
                .wrapping_add(*k)
                .wrapping_add(*wt);
            let t2 = (a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22))
                .wrapping_add((a & b) ^ (a & c) ^ (b & c));
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// FIPS 180-4's examples (one block, two blocks) and the empty message.
    #[test]
    fn sha256_answers_the_standards_examples() {
        assert_eq!(
            hex(&sha256(b"abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // 55 and 56 bytes: the padding's edge, one block and two.
        assert_eq!(hex(&sha256(&[b'a'; 55])).len(), 64);
        assert_ne!(sha256(&[b'a'; 55]), sha256(&[b'a'; 56]));
    }

    /// The Bitcoin wiki's "Wallet import format" example decodes to its documented bytes and
    /// checksum; BIP-32's first test vector's master key and the XRP Ledger's documented seed
    /// (`wallet_propose`) hold; one character changed does not.
    #[test]
    fn base58check_holds_on_the_specifications_examples() {
        let wif = b"5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ";
        assert_eq!(
            base58_decode(wif, BITCOIN).map(|b| hex(&b)).unwrap_or_default(),
            "800c28fca386c7a227600b2fe50b7cae11ec86d3bf1fbe471be89827e19d72aa1d507a5b8d"
        );
        assert!(base58check_holds(wif, BITCOIN));
        assert!(!base58check_holds(b"5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTK", BITCOIN));
        let xprv = b"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi";
        assert!(base58check_holds(xprv, BITCOIN));
        assert!(base58check_holds(b"snoPBrXtMeMyMHUVTgbuqAfg1SUTb", RIPPLE));
        assert!(!base58check_holds(b"snoPBrXtMeMyMHUVTgbuqAfg1SUTc", RIPPLE));
        // The alphabet matters: the same text under Bitcoin's does not hold.
        assert!(!base58check_holds(b"snoPBrXtMeMyMHUVTgbuqAfg1SUTb", BITCOIN));
        // Leading zero digits are zero bytes.
        assert_eq!(base58_decode(b"11", BITCOIN), Some(vec![0, 0]));
        for bad in [&b""[..], b"1", b"0OIl", b"\xff\xfe", b"zzzz"] {
            assert!(!base58check_holds(bad, BITCOIN));
        }
    }

    /// CRC-16/XMODEM's check value, and SEP-0023's valid and invalid-checksum test cases.
    #[test]
    fn strkey_holds_on_sep_0023s_test_cases() {
        assert_eq!(crc16_xmodem(b"123456789"), 0x31C3);
        assert!(strkey_holds(b"GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"));
        assert!(strkey_holds(b"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ"));
        // Invalid checksum; unused trailing bit not zero.
        assert!(!strkey_holds(b"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUO"));
        assert!(!strkey_holds(b"MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUR"));
        assert!(!strkey_holds(b"BAAD6DBUX6J22DMZOHIEZTEQ64CVCHEDRKWZONFEUL5Q26QD7R76RGR4TV"));
        for bad in [&b""[..], b"AA", b"ga7qynf7", b"A1"] {
            assert!(!strkey_holds(bad));
        }
    }

    /// BIP-173's valid and invalid test vectors, and NIP-19's `nsec` example.
    #[test]
    fn bech32_holds_on_bip_173s_test_vectors() {
        for valid in [
            "A12UEL5L",
            "a12uel5l",
            "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
            "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w",
            "?1ezyfcl",
            "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5",
        ] {
            assert!(bech32_holds(valid.as_bytes()), "{valid}");
        }
        for invalid in [
            "\x201nwldj5",
            "pzry9x0s0muk",
            "1pzry9x0s0muk",
            "x1b4n0q5v",
            "li1dgmt3",
            "A1G7SGD8",
            "10a06t8",
            "1qzzfhee",
            "a12UEL5L",
            "nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe6",
        ] {
            assert!(!bech32_holds(invalid.as_bytes()), "{invalid:?}");
        }
    }
}
