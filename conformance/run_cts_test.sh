#!/bin/sh
# conformance/run_cts.py against fake CTS binaries: passing, failing, timing out and crashing
# suites, the environment that selects amcl, and a suite asked for but not built.
set -u
runner="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/cts/basic" "$dir/cts/api" "$dir/icd"
fake() { printf '#!/bin/sh\n%s\n' "$2" > "$dir/cts/$1"; chmod +x "$dir/cts/$1"; }
fake basic/test_alpha 'echo "PASSED sub-test."; echo "PASSED 3 of 3 tests."'
fake api/test_beta 'echo "FAILED 1 of 4 tests."; exit 1'
fake test_gamma "[ \"\$OCL_ICD_VENDORS\" = \"$dir/icd\" ] && [ \"\$CL_DEVICE_TYPE\" = gpu ] && [ -z \"\${OCL_ICD_FILENAMES:-}\" ] && echo 'PASSED 1 of 1 test.'"
fake test_delta 'sleep 10'
fake test_crash 'kill -SEGV $$'
printf 'not a program\n' > "$dir/cts/test_notexec"
OCL_ICD_FILENAMES=/nonexistent "$runner" --cts "$dir/cts" --icd "$dir/icd" --timeout 1 \
  --suites alpha,beta,gamma,delta,crash,missing --out "$dir/out.md" > "$dir/log" 2>&1
rc=$?
fail() { echo "run_cts_test: $1"; cat "$dir/log"; exit 1; }
[ $rc -eq 1 ] || fail "exit status $rc, expected 1 (some suites failed)"
grep -q '^| alpha | PASS | 3 / 3 |' "$dir/out.md" || fail "alpha not PASS 3/3"
grep -q '^| beta | FAIL | 3 / 4 |' "$dir/out.md" || fail "beta not FAIL 3/4"
grep -q '^| gamma | PASS | 1 / 1 |' "$dir/out.md" || fail "gamma did not see amcl selected"
grep -q '^| delta | TIMEOUT |' "$dir/out.md" || fail "delta not TIMEOUT"
grep -q '^| crash | CRASH (signal 11) |' "$dir/out.md" || fail "crash not reported"
grep -q '^| missing | NOT FOUND |' "$dir/out.md" || fail "missing suite not reported"
grep -q 'notexec' "$dir/out.md" && fail "a non-executable file was run"
grep -q '^2 of 6 suites passed' "$dir/out.md" || fail "summary line wrong"
echo "run_cts_test: PASSED"
