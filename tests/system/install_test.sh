#!/bin/sh
# Installing amcl: `cmake --install` puts exactly libamcl.so.0, its vendor file, the tools and
# the SPIR-V helper in place and removing what the install manifest lists leaves nothing
# behind; `cpack -G DEB` packages the same files under /usr with a vendor file that names the
# packaged library.
set -u
build="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "install_test: $1"; exit 1; }

DESTDIR="$dir/root" cmake --install "$build" --prefix /opt/amcl-test > "$dir/log" 2>&1 || fail "cmake --install failed: $(cat "$dir/log")"
icd=$(cat "$dir/root/etc/OpenCL/vendors/amcl.icd") || fail "no vendor file installed"
case "$icd" in /opt/amcl-test/*/libamcl.so.0) ;; *) fail "vendor file names $icd, not the --prefix install" ;; esac
[ -f "$dir/root$icd" ] || fail "vendor file names $icd, which was not installed"
files=$(cd "$dir/root" && find . -type f -o -type l | sort)
# The SPIR-V translator's helper process, when amcl was built with the translator.
expected=5
if [ -x "$build/compiler/amcl-spirv" ]; then
  expected=6
  echo "$files" | grep -q '/libexec/amcl/amcl-spirv$' || fail "amcl-spirv not installed in libexec/amcl: $files"
fi
[ "$(echo "$files" | wc -l)" -eq "$expected" ] || fail "installed more than the library, its soname link, the vendor file, amcl-smi, amcl-trace (and amcl-spirv): $files"
echo "$files" | grep -q '/bin/amcl-smi$' || fail "amcl-smi not installed: $files"
echo "$files" | grep -q '/bin/amcl-trace$' || fail "amcl-trace not installed: $files"
# Uninstall: remove every file the manifest lists.
while read -r f || [ -n "$f" ]; do rm -f "$dir/root$f"; done < "$build/install_manifest.txt"
left=$(cd "$dir/root" && find . -type f -o -type l)
[ -z "$left" ] || fail "files left after removing the manifest's: $left"

cpack -G DEB --config "$build/CPackConfig.cmake" -B "$dir/pkg" > "$dir/log" 2>&1 || fail "cpack failed: $(cat "$dir/log")"
deb=$(ls "$dir"/pkg/*.deb) || fail "no .deb produced"
dpkg-deb -c "$deb" | grep -q ' ./usr/lib/.*libamcl.so.0.1.0$' || fail "package lacks the library"
dpkg-deb -c "$deb" | grep -q ' ./etc/OpenCL/vendors/amcl.icd$' || fail "package lacks the vendor file"
dpkg-deb -c "$deb" | grep -q 'libamcl.so$' && fail "package ships the unversioned development link"
icd=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./etc/OpenCL/vendors/amcl.icd)
dpkg-deb -c "$deb" | grep -q " .$icd -> " || fail "vendor file names $icd, which the package does not hold"
dpkg-deb -f "$deb" Depends | grep -q 'libclc-22' || fail "package does not depend on libclc-22"
if [ -x "$build/compiler/amcl-spirv" ]; then
  dpkg-deb -c "$deb" | grep -q ' ./usr/libexec/amcl/amcl-spirv$' || fail "package lacks amcl-spirv"
  dpkg-deb -f "$deb" Depends | grep -q 'libllvmspirvlib15' || fail "package does not depend on libllvmspirvlib15"
fi
echo "install_test: PASSED"
