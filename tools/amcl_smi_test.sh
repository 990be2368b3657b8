#!/bin/sh
# amcl-smi on a fake sysfs tree: it lists a card bound to amdgpu with its state and advice, the
# emulated card AMCL_DEVICES names, which process holds a card's lock, and refuses a bind
# without the vfio-pci module.
set -u
smi="$1"
dir=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill "$holder"; rm -rf "$dir"' EXIT
dev="$dir/sys/bus/pci/devices/0000:03:00.0"
mkdir -p "$dev" "$dir/sys/bus/pci/drivers/amdgpu" "$dir/sys/kernel/iommu_groups/7" "$dir/fw"
echo 0x1002 > "$dev/vendor"
echo 0x744c > "$dev/device"
echo "0x0000007800000000 0x0000007bffffffff 0x000000000014220c" > "$dev/resource"
echo "(null)" > "$dev/driver_override"
: > "$dir/sys/bus/pci/drivers_probe"
ln -s "$dir/sys/bus/pci/drivers/amdgpu" "$dev/driver"
ln -s "$dir/sys/kernel/iommu_groups/7" "$dev/iommu_group"
: > "$dir/fw/gc_11_0_0_mec.bin"
: > "$dir/fw/gc_11_0_0_rlc.bin"
export AMCL_SYSFS_ROOT="$dir/sys" AMCL_FIRMWARE_DIR="$dir/fw" AMCL_DEVICES=sim:gfx1100 TMPDIR="$dir"
out=$("$smi" 2>&1) || { echo "amcl_smi_test: listing failed: $out"; exit 1; }
fail() { echo "amcl_smi_test: $1"; echo "$out"; exit 1; }
echo "$out" | grep -q '0000:03:00.0  AMD Radeon RX 7900 XTX (gfx1100, 1002:744c)' || fail "card not listed"
echo "$out" | grep -q 'driver: amdgpu, IOMMU group: 7, VRAM aperture (BAR0): 16.0 GiB' || fail "state wrong"
echo "$out" | grep -q 'firmware: 2 GC firmware files' || fail "firmware not counted"
echo "$out" | grep -q 'sudo amcl-smi bind 0000:03:00.0' || fail "no advice for a card amdgpu holds"
echo "$out" | grep -q "lock: $dir/am_0000:03:00.0.lock, free" || fail "lock state missing"
echo "$out" | grep -q 'sim:0  AMD Radeon RX 7900 XTX (amcl emulated) (gfx1100)' || fail "emulated card not listed"
echo "$out" | grep -q 'booted: ' || fail "emulated boot state missing"
# Another process (flock(1) here, as tinygrad would) holds the card: amcl-smi names it. -o: the
# lock stays with flock itself, so killing it frees the card.
flock -n -o "$dir/am_0000:03:00.0.lock" sleep 20 >/dev/null 2>&1 &
holder=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
  out=$("$smi" 2>&1)
  echo "$out" | grep -q "in use: pid $holder (flock) holds $dir/am_0000:03:00.0.lock: end that process (kill $holder)" && break
  sleep 0.5
done
echo "$out" | grep -q "in use: pid $holder (flock)" || fail "the lock's holder is not named"
kill "$holder"; holder=
out=$("$smi" bind 0000:03:00.0 2>&1) && fail "bind without vfio-pci succeeded"
echo "$out" | grep -q 'modprobe vfio-pci' || fail "bind failure does not say what to do"
[ "$(cat "$dev/driver_override")" = "(null)" ] || fail "a failed bind changed driver_override"
echo "amcl_smi_test: PASSED"
