#!/usr/bin/python3
"""Runs Khronos OpenCL-CTS test binaries against amcl and writes a per-suite pass/fail table.

The CTS is not built here: point --cts at a directory holding its built test binaries
(test_basic, test_api, test_buffers, ... anywhere below it). Each binary runs with amcl as the
only platform the ICD loader sees (OCL_ICD_VENDORS = the directory of amcl.icd), on the GPU
device, under a per-suite time limit. The table goes to --out (Markdown) and to stdout.

    conformance/run_cts.py --cts ~/OpenCL-CTS/build/test_conformance --icd build/icd
    conformance/run_cts.py --cts DIR --icd build/icd --suites basic,api --timeout 1800
"""
import argparse
import os
import re
import subprocess
import sys
import time

# CTS harness summary lines (test_common/harness/testHarness.cpp).
SUMMARY = re.compile(r"(PASSED|FAILED) (\d+) of (\d+) tests?")


def find_binaries(root, wanted):
    """test_<suite> executables below root, one per suite (the first found)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if not name.startswith("test_") or not os.access(path, os.X_OK) or os.path.isdir(path):
                continue
            suite = name[len("test_"):]
            if "." in suite or (wanted and suite not in wanted):
                continue
            found.setdefault(suite, path)
    return found


def run_suite(path, env, timeout):
    """(status, passed, total, seconds, tail of the output)."""
    start = time.monotonic()
    try:
        proc = subprocess.run([path], env=env, cwd=os.path.dirname(path), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
        out = proc.stdout.decode(errors="replace")
        code = proc.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace")
        return "TIMEOUT", None, None, time.monotonic() - start, out[-2000:]
    seconds = time.monotonic() - start
    passed = total = None
    for m in SUMMARY.finditer(out):
        kind, n, of = m.group(1), int(m.group(2)), int(m.group(3))
        passed, total = (n, of) if kind == "PASSED" else (of - n, of)
    if code < 0:
        status = "CRASH (signal %d)" % -code
    elif code == 0 and (total is None or passed == total):
        status = "PASS"
    else:
        status = "FAIL"
    return status, passed, total, seconds, out[-2000:]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cts", required=True, help="directory holding the built CTS test binaries")
    ap.add_argument("--icd", required=True, help="directory holding amcl.icd (e.g. build/icd)")
    ap.add_argument("--suites", default="", help="comma-separated suites (default: every test_* found)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per suite (default 3600)")
    ap.add_argument("--out", default="cts-results.md", help="Markdown table to write")
    args = ap.parse_args()

    wanted = {s.strip() for s in args.suites.split(",") if s.strip()}
    binaries = find_binaries(args.cts, wanted)
    missing = sorted(wanted - set(binaries))
    if not binaries:
        print("no test_* binaries found below %s" % args.cts, file=sys.stderr)
        return 2

    env = dict(os.environ)
    env["OCL_ICD_VENDORS"] = os.path.abspath(args.icd)
    env.pop("OCL_ICD_FILENAMES", None)
    env["CL_DEVICE_TYPE"] = "gpu"       # the CTS harness's device selection
    env["CL_PLATFORM_INDEX"] = "0"      # amcl is the only platform the loader sees

    rows = []
    for suite in sorted(binaries):
        print("running %s ..." % suite, flush=True)
        status, passed, total, seconds, tail = run_suite(binaries[suite], env, args.timeout)
        rows.append((suite, status, passed, total, seconds))
        if status != "PASS":
            print(tail, flush=True)
    for suite in missing:
        rows.append((suite, "NOT FOUND", None, None, 0.0))

    lines = ["| suite | result | sub-tests passed | time (s) |", "|---|---|---|---|"]
    for suite, status, passed, total, seconds in rows:
        counts = "%d / %d" % (passed, total) if total is not None else "-"
        lines.append("| %s | %s | %s | %.1f |" % (suite, status, counts, seconds))
    ok = sum(1 for r in rows if r[1] == "PASS")
    lines.append("")
    lines.append("%d of %d suites passed" % (ok, len(rows)))
    table = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(table)
    print(table)
    return 0 if ok == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
