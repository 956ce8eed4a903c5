#!/usr/bin/env bash
# compact-plus's redactor beside secret scanners (gitleaks' default rules, detect-secrets),
# on every corpus in tests/fixtures/secrets/: one table (bench.py says how it scores).
# Hand-run, like bench/redact/run.sh; not part of CI or the test command. Sets up its Python
# tools first (setup.sh: a venv under ${COMPACT_PLUS_TOOLS:-~/.cache/compact-plus-tools}).
#
#   bench/redact/scanners/run.sh        OLD=<rev> bench/redact/scanners/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../../.."
venv=$("$here/setup.sh" | tail -1)
# The reference column: the redactor at OLD (default 01f22ba, the last commit before [15]),
# extracted where bench/redact's crate reads it, as bench/redact/run.sh does.
OLD=${OLD:-01f22ba}
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
out=target/bench-redact
rm -rf "$out/old" && mkdir -p "$out/old"
git archive "$OLD" src/redact | tar -x -m -C "$out/old"
cargo build --quiet --release --manifest-path bench/redact/Cargo.toml --target-dir "$out" --bin redact-cases
echo "compact-plus $(git rev-parse --short HEAD), reference $OLD; gitleaks rules: $(sed -n 's/^# gitleaks\/gitleaks, config\/gitleaks.toml at commit \([0-9a-f]*\).*/\1/p' "$here/gitleaks.toml" | cut -c1-12); $("$venv/bin/python" -m pip freeze | grep -iE '^(detect-secrets|regex)==' | tr '\n' ' ')"
echo
"$venv/bin/python" "$here/bench.py" "$out/release/redact-cases"
