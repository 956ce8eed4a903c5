#!/usr/bin/env bash
# The Python tools of the scanner benchmark (run.sh): a venv with detect-secrets and the
# `regex` module, pinned, from PyPI alone. Idempotent: a venv that already holds these
# versions is left as it is. Hand-run only; nothing in CI or the README's test command uses it.
#
#   bench/redact/scanners/setup.sh      COMPACT_PLUS_TOOLS=<dir> bench/redact/scanners/setup.sh
set -euo pipefail
# detect-secrets 1.5.0 is Yelp's newest release; regex for gitleaks' Go (RE2) patterns, which
# put inline flags like (?i) in mid-pattern where Python's re refuses them.
# What detect-secrets pulls in is pinned too (as of the run in docs/redaction.md), so that a
# later install gives the same tools.
PINS=(detect-secrets==1.5.0 regex==2026.11.19 PyYAML==6.0.4 requests==2.34.2 certifi==2026.10.19.post1
  charset-normalizer==3.5.3 idna==3.20 urllib3==2.8.0)
venv="${COMPACT_PLUS_TOOLS:-$HOME/.cache/compact-plus-tools}/scanners"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
installed=$("$venv/bin/python" -m pip freeze 2>/dev/null)
missing=0
for pin in "${PINS[@]}"; do
  grep -qix "$pin" <<<"$installed" || missing=1
done
if [ "$missing" = 1 ]; then
  # pip's own index, PyPI; PIP_FIND_LINKS emptied so that no local wheel folder stands in.
  PIP_FIND_LINKS= "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
fi
echo "$venv"
