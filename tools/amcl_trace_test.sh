#!/bin/sh
# amcl-trace on a real trace: amcl-smi boots the emulated gfx1100 with AM_TRACE set, and the
# reader prints its records (register accesses by name, the boot phases, the submission by packet
# name, the interrupt), counts them with --summary, and refuses a file that is not a trace. An
# OpenCL program (the vector_add sample, through the ICD loader) that never releases its
# platform's card leaves its whole trace too.
set -u
smi="$1"
reader="$2"
app="$3"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "amcl_trace_test: $1"; echo "$out" | head -40; exit 1; }
mkdir -p "$dir/sys/bus/pci/devices"
export AMCL_SYSFS_ROOT="$dir/sys" AMCL_DEVICES=sim:gfx1100 TMPDIR="$dir"
out=$(AM_TRACE="$dir/boot.trace" "$smi" 2>&1) || fail "amcl-smi failed"
[ -s "$dir/boot.trace" ] || fail "no trace written"
out=$("$reader" "$dir/boot.trace" 2>&1) || fail "amcl-trace failed"
echo "$out" | head -1 | grep -q '^trace of sim:0 1002:744c rev 0x.. emulated (format version 1)$' || fail "header"
echo "$out" | grep -q '^IP block GC: version 11.0.0, register bases ' || fail "IP version missing"
echo "$out" | grep -q '^firmware: gc_11_0_0_mec.bin, ' || fail "firmware missing"
echo "$out" | grep -q '^config: bus master on$' || fail "bus mastering missing"
echo "$out" | grep -q '^write SCRATCH_REG7 (0x[0-9a-f]*) = 0xa3c1b007$' || fail "boot marker write not named"
echo "$out" | grep -q '^read MP0_SMN_C2PMSG_' || fail "PSP mailbox read not named"
echo "$out" | grep -q '^GMC: begins$' || fail "phase begin missing"
echo "$out" | grep -q '^clock: done (' || fail "phase end missing"
echo "$out" | grep -q '^teardown: done (' || fail "teardown missing"
# The boot's submissions are the GPU clock's 16 to 64 samples (am::Device::calibrate_clock); the first
# starts with the instruction-cache invalidation a boot owes the code a previous process left in
# the caches (am::Device::note_code_written).
echo "$out" | grep -q '^compute submission: ACQUIRE_MEM, COPY_DATA, RELEASE_MEM (22 dwords), ring 0x[0-9a-f]*, doorbell [0-9]* = 0x' || fail "submission"
echo "$out" | grep -q '^doorbell [0-9]* = 0x' || fail "doorbell missing"
echo "$out" | grep -q '^interrupt: client ' || fail "interrupt missing"
lines=$(echo "$out" | wc -l)
out=$("$reader" --summary "$dir/boot.trace" 2>&1) || fail "--summary failed"
records=$(echo "$out" | sed -n 's/^\([0-9]*\) records$/\1/p')
[ "$records" -eq $((lines - 1)) ] || fail "summary counts $records records, the listing $((lines - 1))"
echo "$out" | grep -q '^  register writes  *[1-9][0-9]*$' || fail "register writes not counted"
echo "$out" | grep -Eq '^  compute submissions  *(1[6-9]|[2-5][0-9]|6[0-4])$' || fail "submissions not counted"
echo "$out" | grep -q '^  GC  *[1-9][0-9]*, [1-9][0-9]*$' || fail "GC accesses not counted"
echo "$out" | grep -q "^  SDMA0 (in GC's segment)  *[0-9]*, [1-9][0-9]*$" || fail "SDMA accesses not counted apart"
echo "$out" | grep -q '^  MP0 (PSP)  *[0-9]*, [1-9][0-9]*$' || fail "PSP accesses not counted"
echo "not a trace" > "$dir/junk"
out=$("$reader" "$dir/junk" 2>&1) && fail "a file that is not a trace was read"
echo "$out" | grep -q 'is not an AM_TRACE file' || fail "junk not refused by name"
out=$("$reader" 2>&1) && fail "no file accepted"
# Before stop 27 the trace of a process that never tore its card down was an empty file.
out=$(AM_TRACE="$dir/app.trace" "$app" 2>&1) || fail "vector_add failed"
out=$("$reader" --summary "$dir/app.trace" 2>&1) || fail "the program's trace is not a trace"
echo "$out" | grep -q '^  compute submissions  *[1-9][0-9]*$' || fail "the program's dispatches are not in its trace"
echo "$out" | grep -q '^  phase markers  *[1-9][0-9]*$' || fail "the program's boot is not in its trace"
echo "amcl_trace_test: PASSED"
