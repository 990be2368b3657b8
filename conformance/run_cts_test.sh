#!/bin/sh
# conformance/run_cts.py against fake CTS binaries: sub-tests listed and run one process each
# on every card (and on a fake PoCL), passing, failing, skipped, timing out and crashing
# sub-tests, binaries that cannot list theirs, the environment that selects amcl and the card,
# wimpy mode for the slow suites, and a suite asked for but not built.
set -u
runner="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/cts/basic" "$dir/cts/api" "$dir/cts/math_brute_force" "$dir/icd"
printf 'fake\n' > "$dir/pocl.icd"
fake() { printf '#!/bin/sh\n%s\n' "$2" > "$dir/cts/$1"; chmod +x "$dir/cts/$1"; }
# A suite with four sub-tests; "flaky" fails only on the second card, "hangs" only on amcl.
fake basic/test_alpha '
case "$1" in
--list) printf "Test names:\n\tgood\n\tflaky\n\tskipped\n\thangs\n" ;;
good) echo "good..."; echo "good passed"; echo "PASSED test." ;;
flaky) if [ "${AMCL_DEVICES:-}" = sim:b ]; then echo "flaky FAILED"; echo "FAILED test."; exit 1; fi
       echo "flaky passed" ;;
skipped) echo "skipped test not supported"; echo "SKIPPED test." ;;
hangs) [ "$CL_DEVICE_TYPE" = cpu ] || exec sleep 10; echo "hangs passed" ;;
esac'
fake api/test_beta 'echo "FAILED 1 of 4 tests."; exit 1'
fake test_gamma "[ \"\$OCL_ICD_VENDORS\" = \"$dir/icd\" ] && [ \"\$CL_DEVICE_TYPE\" = gpu ] && [ -z \"\${OCL_ICD_FILENAMES:-}\" ] && echo 'PASSED 1 of 1 test.'"
fake test_crash 'kill -SEGV $$'
fake test_conversions 'case "$1" in --list) printf "Test names:\n\tconversions\n" ;; -w) echo "PASSED 1 of 1 test." ;; *) exit 1 ;; esac'
# math_brute_force's binary is test_bruteforce: its sub-tests pass only in wimpy mode.
fake math_brute_force/test_bruteforce 'case "$1" in --list) printf "Test names:\n\tfabs\n" ;; fabs) [ "$2" = -w ] && echo "fabs passed" ;; *) exit 1 ;; esac'
printf 'not a program\n' > "$dir/cts/test_notexec"
OCL_ICD_FILENAMES=/nonexistent "$runner" --cts "$dir/cts" --icd "$dir/icd" --timeout 1 \
  --cards sim:a,sim:b --pocl "$dir/pocl.icd" \
  --suites alpha,beta,gamma,crash,conversions,bruteforce,missing --out "$dir/out.md" > "$dir/log" 2>&1
rc=$?
fail() { echo "run_cts_test: $1"; cat "$dir/log" "$dir/out.md"; exit 1; }
[ $rc -eq 1 ] || fail "exit status $rc, expected 1 (some sub-tests failed)"
row() { grep -q "^| $1 | $2 | $3 |" "$dir/out.md" || fail "row '$1 $2' is not '$3'"; }
row alpha good 'PASS | [0-9.]* | PASS | [0-9.]* | PASS'
row alpha flaky 'PASS | [0-9.]* | FAIL | [0-9.]* | PASS'
row alpha skipped 'SKIP | [0-9.]* | SKIP | [0-9.]* | SKIP'
row alpha hangs 'TIMEOUT | [0-9.]* | TIMEOUT | [0-9.]* | PASS'
row beta '(whole)' 'FAIL'
row gamma '(whole)' 'PASS | [0-9.]* | PASS'
row crash '(whole)' 'CRASH (signal 11)'
row conversions '(whole)' 'PASS'
row bruteforce fabs 'PASS | [0-9.]* | PASS'
grep -q '^| missing | NOT FOUND |' "$dir/out.md" || fail "missing suite not reported"
grep -q 'notexec' "$dir/out.md" && fail "a non-executable file was run"
grep -q '^| alpha | 2 / 1 / 1 | 1 / 2 / 1 | 3 / 0 / 1 |' "$dir/out.md" || fail "alpha's summary is wrong"
grep -q 'amcl sim:a' "$dir/out.md" || fail "configurations not named after their cards"
# --cards none: PoCL alone (its columns only).
"$runner" --cts "$dir/cts" --icd "$dir/icd" --timeout 1 --cards none --pocl "$dir/pocl.icd" \
  --suites gamma,alpha --out "$dir/pocl.md" > "$dir/log" 2>&1
grep -q '^| alpha | good | PASS | [0-9.]* |$' "$dir/pocl.md" || fail "--cards none did not run PoCL alone"
grep -q 'amcl' "$dir/pocl.md" && fail "--cards none ran an amcl configuration"
echo "run_cts_test: PASSED"
