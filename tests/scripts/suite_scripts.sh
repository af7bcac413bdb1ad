#!/usr/bin/env bash
# tests/scripts/suite_scripts.sh TOOL SOURCE_DIR: scripts/suite-parallel (GNU
# parallel, 3 local shards) and scripts/suite-slurm (through a stand-in sbatch
# that runs each array task at once) must merge to the unsharded run's reports,
# sorted by test name, and refuse bad arguments with exit 2.
set -euo pipefail
tool="$1"
src="$2"
suite="$src/litmus/rdma-tso"
work="$(mktemp -d "${TMPDIR:-/tmp}/suite-scripts.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The reference: one run, its reports sorted by test name (as merge sorts them).
"$tool" run --no-progress --no-time "$suite" > "$work/whole.log" 2> /dev/null
"$tool" merge "$work/whole.log" > "$work/expected.log" 2> /dev/null
[[ -s "$work/expected.log" ]] || fail "no reports in the reference run"

# GNU parallel, three local shards, with expectations from the reference.
"$src/scripts/suite-parallel" -n 3 -o "$work/parallel" --tool "$tool" --expect "$work/whole.log" "$suite" -- --no-time \
  2> "$work/parallel.err" || fail "suite-parallel exited $?: $(cat "$work/parallel.err")"
cmp "$work/expected.log" "$work/parallel/merged.log" || fail "suite-parallel's merged log differs from one run"
for i in 1 2 3; do [[ -s "$work/parallel/shard-$i.log" ]] || fail "shard $i wrote no reports"; done
grep -q "expectations: 0 mismatched" "$work/parallel.err" || fail "merge compared no expectations"

# A wrong expectation makes the merge, and so the script, exit 1.
sed 's/^Ok$/No/' "$work/whole.log" > "$work/wrong.log"
status=0
"$src/scripts/suite-parallel" -n 2 -o "$work/wrong" --tool "$tool" --expect "$work/wrong.log" "$suite" 2> /dev/null || status=$?
[[ "$status" == 1 ]] || fail "a wrong expectation gave exit $status, not 1"

# Slurm, through a stand-in sbatch on PATH.
mkdir -p "$work/bin"
cat > "$work/bin/sbatch" <<'SBATCH'
#!/usr/bin/env bash
array=""; script=""
for a in "$@"; do
  case "$a" in --array=*) array="${a#--array=}" ;; -*) ;; *) script="$a" ;; esac
done
if [[ -n "$array" ]]; then
  for ((i = ${array%-*}; i <= ${array#*-}; ++i)); do SLURM_ARRAY_TASK_ID=$i bash "$script" || true; done
else
  bash "$script" || true
fi
echo "$RANDOM;cluster"
SBATCH
chmod +x "$work/bin/sbatch"
PATH="$work/bin:$PATH" "$src/scripts/suite-slurm" -n 4 -c 2 -o "$work/slurm" --tool "$tool" "$suite" -- --no-time > "$work/slurm.out" \
  || fail "suite-slurm exited $?"
grep -q "^#SBATCH --cpus-per-task=2$" "$work/slurm/shard.sbatch" || fail "suite-slurm asked for no CPUs per task"
# -j follows the CPUs the process may use, as nproc does.
if command -v taskset >/dev/null; then
  taskset -c 0 "$tool" run --no-time "$suite" 2>&1 >/dev/null | grep -q "(-j 1)" || fail "run under taskset -c 0 is not -j 1"
fi
grep -q "shards job" "$work/slurm.out" || fail "suite-slurm printed no job ids"
cmp "$work/expected.log" "$work/slurm/merged.log" || fail "suite-slurm's merged log differs from one run"

# Bad arguments.
for args in "" "-n 0 $suite" "-n x $suite" "-c 0 $suite" "--bogus $suite"; do
  status=0
  # shellcheck disable=SC2086
  "$src/scripts/suite-parallel" -o "$work/bad" --tool "$tool" $args 2> /dev/null || status=$?
  [[ "$status" == 2 ]] || fail "suite-parallel $args exited $status, not 2"
done
echo "suite scripts: OK"
