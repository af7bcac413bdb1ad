#!/usr/bin/env bash
# tests/scripts/install.sh BUILD_DIR SOURCE_DIR: `cmake --install` into a fresh
# prefix puts the tool, its models, the JSON schema and the man page in place,
# and the installed tool finds the installed models without being told.
set -euo pipefail
build="$1"
src="$2"
prefix="$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" > /dev/null
for f in bin/rdmacheck share/rdmacheck/models/rdma-tso.cat share/rdmacheck/models/rdma-tso.ippo \
         share/rdmacheck/output.schema.json share/man/man1/rdmacheck.1 share/rdmacheck/scripts/suite-slurm \
         share/doc/rdmacheck/README.md share/doc/rdmacheck/examples/rdma-tso/expected.csv; do
  [[ -e "$prefix/$f" ]] || fail "cmake --install did not install $f"
done
cp "$src/litmus/rdma-tso/fig3e-sb-polled-gets.litmus" "$prefix/"
cd "$prefix"
# Whole outputs into variables: grep -q on a pipe could end it early (SIGPIPE under pipefail).
help="$(env -u RDMACHECK_MODELS "$prefix/bin/rdmacheck" --help)"
grep -q -- "$prefix/share/rdmacheck/models" <<< "$help" || fail "the installed tool does not default to the installed models"
out="$(env -u RDMACHECK_MODELS "$prefix/bin/rdmacheck" --no-time fig3e-sb-polled-gets.litmus)"
grep -q "^Observation Fig3e Never 0 3$" <<< "$out" || fail "the installed tool's report: $out"
grep -q "rdmacheck $(sed -n 's/.*"rdmacheck \([0-9.]*\)".*/\1/p' share/man/man1/rdmacheck.1)" \
  <<< "$("$prefix/bin/rdmacheck" --version)" || fail "the man page and --version disagree on the version"
echo "install: OK"
