//! Values that name or point at where a credential is, written in a documented syntax that no
//! secret has: the name of npm's per-registry auth setting (`':_authToken'`,
//! `'//registry.npmjs.org/:_password'`: the key of a `.npmrc` line, not its value) and Casper's
//! URef (`uref-<64 hex>-007`: an address in global storage and its access rights).

/// npm's auth-related settings, which npmrc(5) ("Auth related configuration") says must be
/// scoped to a registry as `//host/path/:<setting>`; npm-registry-fetch reads
/// `:certfile` and `:keyfile` the same way.
const NPM_AUTH_SETTINGS: &[&str] = &[
    "_authToken",
    "_auth",
    "_password",
    "username",
    "email",
    "certfile",
    "keyfile",
];

/// `':_authToken'`, `'//registry.npmjs.org/:_authToken'`: the name of an npm auth setting,
/// bare after its `:` or after the URI fragment it is scoped by (which starts `//` and
/// holds no blank).
pub(crate) fn npm_auth_setting(v: &str) -> bool {
    v.rsplit_once(':').is_some_and(|(scope, setting)| {
        NPM_AUTH_SETTINGS.contains(&setting)
            && (scope.is_empty()
                || (scope.starts_with("//")
                    && scope.ends_with('/')
                    && !scope.contains(char::is_whitespace)))
    })
}

/// `uref-024d…945d-007`: casper-types' formatted URef, `uref-`, the 32-byte address in hex
/// and the access rights as three octal digits (`URef::to_formatted_string`); the address
/// names a place in the network's global storage, which no one holds as a key.
pub(crate) fn is_uref(v: &str) -> bool {
    v.strip_prefix("uref-")
        .and_then(|r| r.split_once('-'))
        .is_some_and(|(address, rights)| {
            address.len() == 64
                && address.bytes().all(|c| c.is_ascii_hexdigit())
                && rights.len() == 3
                && rights.bytes().all(|c| (b'0'..=b'7').contains(&c))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_npm_auth_setting_s_name_is_no_value() {
        for v in [
            ":_authToken",
            ":_auth",
            ":_password",
            "//registry.npmjs.org/:_authToken",
            "//npm.example.com/deep/path/:keyfile",
        ] {
            assert!(npm_auth_setting(v), "{v}");
        }
        for v in [
            "npm_FAKEYZgkzZRzguttbN67S5GAJU7ccBheAkHL",
            ":_authTokens",
            "x:_authToken",
            "//registry.npmjs.org/:_authToken=npm_abc",
            "// a b/:_auth",
            "hunter2:_password",
        ] {
            assert!(!npm_auth_setting(v), "{v}");
        }
    }

    #[test]
    fn a_uref_is_an_address() {
        let address = "024d69e50a458f337817d3d11ba95bdbdd6258ba8f2dc980644c9efdbd64945d";
        assert!(is_uref(&format!("uref-{address}-007")));
        assert!(is_uref(&format!("uref-{address}-000")));
        for v in [
            address.to_string(),
            format!("uref-{address}-008"),
            format!("uref-{address}-07"),
            format!("uref-{address}"),
            format!("key-{address}-007"),
            format!("uref-{}-007", &address[2..]),
        ] {
            assert!(!is_uref(&v), "{v}");
        }
    }
}
