#!/bin/sh
# amcl-smi on a fake sysfs tree: it lists a card bound to amdgpu with its state and advice (its
# IOMMU group's HDMI audio function, vfio's state), an AMD display function it leaves alone, the
# emulated card AMCL_DEVICES names, which process holds a card's lock; bind refuses without
# root, without the vfio-pci module, for a card in use, with the IOMMU off (until no-IOMMU mode
# is allowed) and while the audio function holds the group (until --with-group); unbind gives
# both back; status reads how a card was left.
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
echo 0x030000 > "$dev/class"
# The card's HDMI/DP audio function, in the same IOMMU group, bound to snd_hda_intel.
audio="$dir/sys/bus/pci/devices/0000:03:00.1"
mkdir -p "$audio" "$dir/sys/bus/pci/drivers/snd_hda_intel" "$dir/sys/kernel/iommu_groups/7/devices"
echo 0x1002 > "$audio/vendor"; echo 0xab30 > "$audio/device"; echo 0x040300 > "$audio/class"
echo "(null)" > "$audio/driver_override"
ln -s "$dir/sys/bus/pci/drivers/snd_hda_intel" "$audio/driver"
ln -s "$dir/sys/kernel/iommu_groups/7" "$audio/iommu_group"
ln -s "$dev" "$dir/sys/kernel/iommu_groups/7/devices/0000:03:00.0"
ln -s "$audio" "$dir/sys/kernel/iommu_groups/7/devices/0000:03:00.1"
: > "$dir/sys/bus/pci/drivers/amdgpu/unbind"
: > "$dir/sys/bus/pci/drivers/snd_hda_intel/unbind"
# An RX 9070 XT with no driver and no IOMMU group (the IOMMU off), and an older AMD GPU.
dev2="$dir/sys/bus/pci/devices/0000:04:00.0"
mkdir -p "$dev2"
echo 0x1002 > "$dev2/vendor"; echo 0x7550 > "$dev2/device"; echo 0x030000 > "$dev2/class"
echo "(null)" > "$dev2/driver_override"
old="$dir/sys/bus/pci/devices/0000:0a:00.0"
mkdir -p "$old"
echo 0x1002 > "$old/vendor"; echo 0x164e > "$old/device"; echo 0x030000 > "$old/class"
: > "$dir/fw/gc_11_0_0_mec.bin"
: > "$dir/fw/gc_11_0_0_rlc.bin"
# AMCL_SMI_ASSUME_ROOT: root or not, whoever runs the test (honoured with a fake sysfs root only).
export AMCL_SYSFS_ROOT="$dir/sys" AMCL_FIRMWARE_DIR="$dir/fw" AMCL_DEVICES=sim:gfx1100 TMPDIR="$dir"
export AMCL_SMI_ASSUME_ROOT=1
out=$("$smi" 2>&1) || { echo "amcl_smi_test: listing failed: $out"; exit 1; }
fail() { echo "amcl_smi_test: $1"; echo "$out"; exit 1; }
echo "$out" | grep -q '0000:03:00.0  AMD Radeon RX 7900 XTX (gfx1100, 1002:744c)' || fail "card not listed"
echo "$out" | grep -q 'driver: amdgpu, IOMMU group: 7, VRAM aperture (BAR0): 16.0 GiB' || fail "state wrong"
echo "$out" | grep -q 'firmware: 2 GC firmware files' || fail "firmware not counted"
echo "$out" | grep -q 'sudo amcl-smi bind 0000:03:00.0' || fail "no advice for a card amdgpu holds"
echo "$out" | grep -q "lock: $dir/am_0000:03:00.0.lock, free" || fail "lock state missing"
echo "$out" | grep -q 'sim:0  AMD Radeon RX 7900 XTX (amcl emulated) (gfx1100)' || fail "emulated card not listed"
echo "$out" | grep -q 'booted: ' || fail "emulated boot state missing"
echo "$out" | grep -q 'vfio: vfio-pci not loaded (sudo modprobe vfio-pci)' || fail "vfio state missing"
echo "$out" | grep -q 'IOMMU group 7 also holds 0000:03:00.1 (HDMI/DP audio, driver snd_hda_intel)' || fail "group peer missing"
echo "$out" | grep -q '0000:0a:00.0  AMD display function 1002:164e (driver none): not an RDNA3/RDNA4 GPU' || fail "other AMD GPU not listed"
echo "$out" | grep -q '0000:04:00.0  AMD Radeon RX 9070 XT (gfx1201, 1002:7550)' || fail "second card not listed"
echo "$out" | grep -q 'no IOMMU: vfio-pci cannot take it unless no-IOMMU mode is enabled' || fail "IOMMU-off state missing"
echo "$out" | grep -q 'amcl: no driver and no IOMMU group' || fail "what amcl does with the unbound card"
echo "$out" | grep -q 'not built yet' && fail "the stale backend message is back"
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
out=$("$smi" bind 0000:03:00.0 2>&1) && fail "bind of a card in use succeeded"
echo "$out" | grep -q "the card is in use: pid $holder (flock)" || fail "bind does not name the holder"
kill "$holder"; wait "$holder" 2>/dev/null; holder=
out=$("$smi" bind 0000:03:00.0 2>&1) && fail "bind without vfio-pci succeeded"
echo "$out" | grep -q 'modprobe vfio-pci disable_idle_d3=1' || fail "bind failure does not say what it tried"
[ "$(cat "$dev/driver_override")" = "(null)" ] || fail "a failed bind changed driver_override"
# A modprobe that loads nothing is a refusal too.
out=$(AMCL_SMI_MODPROBE=true "$smi" bind 0000:03:00.0 2>&1) && fail "bind after a modprobe that loaded nothing succeeded"
echo "$out" | grep -q 'did not load it' || fail "an unloaded vfio-pci after modprobe is not said"
out=$(AMCL_SMI_ASSUME_ROOT=0 "$smi" bind 0000:03:00.0 2>&1) && fail "bind without root succeeded"
echo "$out" | grep -q 'needs root: `sudo amcl-smi bind 0000:03:00.0`' || fail "no root advice"
out=$("$smi" bind 0000:99:00.0 2>&1) && fail "bind of no card succeeded"
echo "$out" | grep -q 'no RDNA3/RDNA4 card at 0000:99:00.0' || fail "a missing card is not named"
# bind loads vfio-pci with disable_idle_d3 (as tinygrad does); then the audio function holds
# the group until --with-group moves it too.
cat > "$dir/modprobe" <<EOS
#!/bin/sh
echo "\$*" > "$dir/modprobe.args"
mkdir -p "$dir/sys/bus/pci/drivers/vfio-pci" "$dir/sys/module/vfio_pci/parameters"
echo Y > "$dir/sys/module/vfio_pci/parameters/disable_idle_d3"
EOS
chmod +x "$dir/modprobe"
out=$(AMCL_SMI_MODPROBE="$dir/modprobe" "$smi" bind 0000:03:00.0 2>&1) && fail "bind with the audio function in the group succeeded"
[ "$(cat "$dir/modprobe.args")" = "vfio-pci disable_idle_d3=1" ] || fail "vfio-pci not loaded with disable_idle_d3"
echo "$out" | grep -q 'vfio-pci loaded with disable_idle_d3=1' || fail "the module load is not said"
echo "$out" | grep -q 'also holds 0000:03:00.1 (HDMI/DP audio, bound to snd_hda_intel)' || fail "group peer not named"
echo "$out" | grep -q 'sudo amcl-smi bind 0000:03:00.0 --with-group' || fail "no --with-group advice"
[ "$(cat "$dev/driver_override")" = "(null)" ] || fail "a refused bind changed driver_override"
[ "$(cat "$audio/driver_override")" = "(null)" ] || fail "a refused bind moved the audio function"
# A vfio-pci loaded by hand without disable_idle_d3 gets it set.
echo N > "$dir/sys/module/vfio_pci/parameters/disable_idle_d3"
out=$("$smi" bind 0000:03:00.0 --with-group 2>&1) || fail "bind --with-group failed"
[ "$(cat "$dir/sys/module/vfio_pci/parameters/disable_idle_d3")" = "Y" ] || fail "disable_idle_d3 not set"
echo "$out" | grep -q 'disable_idle_d3 set' || fail "setting disable_idle_d3 is not said"
[ "$(cat "$dev/driver_override")" = "vfio-pci" ] || fail "the card's driver_override is not vfio-pci"
[ "$(cat "$audio/driver_override")" = "vfio-pci" ] || fail "the audio's driver_override is not vfio-pci"
[ "$(cat "$dir/sys/bus/pci/drivers/snd_hda_intel/unbind")" = "0000:03:00.1" ] || fail "audio not unbound"
[ "$(cat "$dir/sys/bus/pci/drivers/amdgpu/unbind")" = "0000:03:00.0" ] || fail "card not unbound from amdgpu"
# The IOMMU off: refused until vfio allows no-IOMMU mode, then bound with a warning.
out=$("$smi" bind 0000:04:00.0 2>&1) && fail "bind with the IOMMU off succeeded"
echo "$out" | grep -q 'the IOMMU is off' || fail "IOMMU off not said"
echo "$out" | grep -q 'enable_unsafe_noiommu_mode=1' || fail "no no-IOMMU advice"
[ "$(cat "$dev2/driver_override")" = "(null)" ] || fail "a refused bind changed driver_override"
mkdir -p "$dir/sys/module/vfio/parameters"
echo Y > "$dir/sys/module/vfio/parameters/enable_unsafe_noiommu_mode"
out=$("$smi" bind 0000:04:00.0 2>&1) || fail "bind in no-IOMMU mode failed"
echo "$out" | grep -q 'warning: the IOMMU is off' || fail "no no-IOMMU warning"
[ "$(cat "$dev2/driver_override")" = "vfio-pci" ] || fail "no-IOMMU bind did not override"
# Both functions on vfio-pci: unbind gives the card back and says the audio stays, or with
# --with-group gives both back.
: > "$dir/sys/bus/pci/drivers/vfio-pci/unbind"
rm "$dev/driver" "$audio/driver"
ln -s "$dir/sys/bus/pci/drivers/vfio-pci" "$dev/driver"
ln -s "$dir/sys/bus/pci/drivers/vfio-pci" "$audio/driver"
out=$("$smi" unbind 0000:03:00.0 2>&1) || fail "unbind failed"
echo "$out" | grep -q '0000:03:00.1 (HDMI/DP audio) stays on vfio-pci' || fail "the audio left behind is not said"
[ -z "$(cat "$dev/driver_override")" ] || fail "unbind did not clear the card's override"
out=$("$smi" unbind 0000:03:00.0 --with-group 2>&1) || fail "unbind --with-group failed"
[ -z "$(cat "$audio/driver_override")" ] || fail "unbind --with-group did not clear the audio's override"
out=$(AMCL_SMI_ASSUME_ROOT=0 "$smi" unbind 0000:03:00.0 2>&1) && fail "unbind without root succeeded"
# status: a card amdgpu drives is described, not opened; an emulated card is read as fresh.
rm "$dev/driver"; ln -s "$dir/sys/bus/pci/drivers/amdgpu" "$dev/driver"
out=$("$smi" status 0000:03:00.0 2>&1) || fail "status of an amdgpu card failed: $out"
echo "$out" | grep -q 'driven by amdgpu now; amcl would find it left by another driver' || fail "status of an amdgpu card"
out=$("$smi" status sim:gfx1201 2>&1) || fail "status of an emulated card failed"
echo "$out" | grep -q 'boot state: fresh (PSP sOS not running); SCRATCH_REG7 = 0x00000000' || fail "emulated status"
echo "$out" | grep -q 'amcl would: boot it fully' || fail "emulated status advice"
out=$("$smi" status 0000:99:00.0 2>&1) && fail "status of no card succeeded"
echo "amcl_smi_test: PASSED"
