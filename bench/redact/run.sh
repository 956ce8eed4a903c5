#!/usr/bin/env bash
# The redaction benchmark of issue [15], in one run: the redactor in src/redact against the
# one at OLD (default: 01f22ba, the last commit before [15] changed it), over every line of
# every transcript in ../shared/real-transcripts (or the folder given), native and in wasm,
# MB/s and the ratio new/old, and each native pass's instruction count (valgrind); then the
# .wasm size of each redactor alone. Prints figures,
# never fails on them.
#
#   bench/redact/run.sh [folder]        OLD=<rev> bench/redact/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${OLD:-01f22ba}
DIR=${1:-../shared/real-transcripts}
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
out=target/bench-redact
rm -rf "$out/old" && mkdir -p "$out/old"
git archive "$OLD" src/redact | tar -x -m -C "$out/old"
manifest=bench/redact/Cargo.toml
cargo build --quiet --release --manifest-path "$manifest" --target-dir "$out" --bin redact-bench
"$out/release/redact-bench" "$DIR"
# Instructions, which the shared machine's load does not move (valgrind's callgrind, where it
# is installed): each redactor's pass over all the lines, the reading of the files taken out.
if command -v valgrind >/dev/null; then
  count() {
    ONLY=$1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$out/release/redact-bench" "$DIR" 2>&1 \
      | awk '/Collected/ {print $NF}'
  }
  base=$(count none)
  old=$(( $(count old) - base ))
  new=$(( $(count new) - base ))
  echo "native instructions: old redactor $old, new $new, new/old $(awk "BEGIN {printf \"%.2f\", $new / $old}")"
fi
echo
cargo build --quiet --profile wasm-release --target wasm32-unknown-unknown --lib \
  --manifest-path "$manifest" --target-dir "$out"
node bench/redact/run.mjs "$out/wasm32-unknown-unknown/wasm-release/redact_bench.wasm" "$DIR"
echo
for which in old new; do
  cargo build --quiet --profile wasm-release --target wasm32-unknown-unknown --lib \
    --manifest-path "$manifest" --target-dir "$out/$which" --no-default-features --features "$which"
  size=$(wc -c < "$out/$which/wasm32-unknown-unknown/wasm-release/redact_bench.wasm")
  echo "wasm size, $which redactor alone: $size bytes"
done
