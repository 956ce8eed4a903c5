//! A JOSE header alone (RFC 7515 §4, §7.1): the first part of a JWS or JWT in compact form,
//! base64url of a JSON object whose members are the header's parameters (`{"alg":"HS256",
//! "typ":"JWT"}` is `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`). It says how a token is signed,
//! the same for every token of a library's tests, and holds neither claims nor signature: a
//! test that builds or splits a token names it `token` (jsonwebtokens' tests, the distant
//! set). A full token has a `.` after it and is read by the provider table's JWT row first.
//! A leaf.

/// The registered header parameters (RFC 7515 §4.1, RFC 7516 §4.1 for JWE's, RFC 7797's
/// `b64`), the two ACME adds to a JWS (RFC 8555 §6.2), and a public JWK's (RFC 7518 §6).
const HEADER_PARAMETERS: &str = "alg typ cty kid jku jwk x5u x5c x5t x5t#S256 crit enc zip epk \
                                 apu apv b64 nonce url kty crv x y n e";

/// Is `json` (a value's base64url decoded, its whole groups of four) a JOSE header: `{` and
/// members whose every name (each string a `:` follows) is a header parameter or a public
/// key's member in `jwk` (`kty`, `crv`, `x`, `y`, `n`, `e`), `alg` among them? A JSON Web
/// Key's private member (`"d"`, `"k"`) is none, nor a claim (`"sub"`).
pub(crate) fn is_jose_header(json: &[u8]) -> bool {
    let mut alg = false;
    json.first() == Some(&b'{')
        && (1..json.len()).all(|i| {
            if json.get(i - 1..=i) != Some(b"\":") {
                return true;
            }
            let head = json.get(..i - 1).unwrap_or(&[]);
            let open = head.iter().rposition(|c| *c == b'"').map_or(0, |q| q + 1);
            let name = head.get(open..).unwrap_or(&[]);
            alg |= name == b"alg";
            HEADER_PARAMETERS.split(' ').any(|p| p.as_bytes() == name)
        })
        && alg
}

#[cfg(test)]
mod tests {
    use super::super::der_key::decode_head;
    use super::super::redact_counted;

    /// The value's whole groups decoded, as `lookalike` asks.
    fn is_jose_header(v: &str) -> bool {
        let mut json = vec![0; v.len() / 4 * 3];
        v.bytes().all(super::super::shape::is_b64url)
            && decode_head(v.as_bytes(), 0, &mut json).is_some()
            && super::is_jose_header(&json)
    }

    #[test]
    fn a_jose_header_alone_is_one() {
        for v in [
            // {"alg":"HS256","typ":"JWT"}, {"alg":"RS256","kid":"k1"}, {"alg":"none"},
            // {"typ":"JWT","alg":"ES256"}
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
            "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0",
            "eyJhbGciOiJub25lIn0",
            "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9",
            // ACME's {"alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":…,"y":…}}
            "eyJhbGciOiJFUzI1NiIsImp3ayI6eyJrdHkiOiJFQyIsImNydiI6IlAtMjU2IiwieCI6ImY4M09KM0QyeEYxQmc4dnViOXRMZTFnSE16Vjc2ZThUdXM5dVBIdlJWRVUiLCJ5IjoieF9GRXpSdTltMzZITE5fdHVlNjU5TE5wWFc2cEN5U3Rpa1lqS0lXSTVhMCJ9fQ",
        ] {
            assert!(is_jose_header(v), "{v}");
        }
        for v in [
            // {"sub":"1234567890"} (claims), {"typ":"JWT"} (no alg), {"alg":"HS256","pwd":"x"},
            // a whole token, padding, no base64url.
            "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
            "eyJ0eXAiOiJKV1QifQ",
            "eyJhbGciOiJIUzI1NiIsInB3ZCI6IngifQ",
            // A symmetric JWK with its `alg`: {"kty":"oct","k":"…","alg":"HS256"}
            "eyJrdHkiOiJvY3QiLCJrIjoiYzJWamNtVjBhMlY1TVRJek5EVTJOemc1TURFeSIsImFsZyI6IkhTMjU2In0",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2ln",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9==",
            "hunter2",
        ] {
            assert!(!is_jose_header(v), "{v}");
        }
    }

    #[test]
    fn a_header_under_token_stays_and_claims_go() {
        assert_eq!(
            redact_counted("    let token = \"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\";").1,
            0
        );
        // {"sub":"alice","admin":true,"n":"Zq3f9Kx0Lm2Np4Rs"}: claims alone are no header.
        assert_eq!(
            redact_counted(
                "    let token = \"eyJzdWIiOiJhbGljZSIsImFkbWluIjp0cnVlLCJuIjoiWnEzZjlLeDBMbTJOcDRScyJ9\";"
            )
            .1,
            1
        );
        let _ = redact_counted(&"token = \"eyJ\" ".repeat(15_000));
    }
}
