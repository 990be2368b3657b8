#!/usr/bin/python3
"""Runs Khronos OpenCL-CTS test binaries sub-test by sub-test on amcl's cards and on PoCL.

The CTS is not built here: point --cts at a directory holding its built test binaries
(test_basic, test_api, ... anywhere below it). Each sub-test (from the binary's --list) runs as
its own process under a time limit, once per amcl card (AMCL_DEVICES=<card>, amcl the only
platform the loader sees, the GPU device) and once on PoCL when it is installed, so a crash or
a hang costs one sub-test, not the suite. A binary that cannot list its sub-tests runs whole.
The table (suite, sub-test, one result and time per configuration) goes to --out (Markdown)
with a per-suite summary, and the summary to stdout.

    conformance/run_cts.py --cts ~/OpenCL-CTS/build/test_conformance --icd build/icd
    conformance/run_cts.py --cts DIR --icd build/icd --suites basic,api --timeout 600 \
        --cards sim:gfx1100,sim:gfx1201 --pocl /etc/OpenCL/vendors/pocl.icd
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

# Suites whose full runs take hours on any device: the CTS's own wimpy mode (-w) runs a subset.
# Suites are named after their binaries: math_brute_force's is test_bruteforce.
WIMPY = {"conversions", "bruteforce"}


def find_binaries(root, wanted):
    """test_<suite> executables below root, one per suite (the first found)."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(os.path.abspath(root)):
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


def list_subtests(path, env):
    """The binary's sub-tests (--list prints them indented by a tab), or [] when it cannot."""
    try:
        proc = subprocess.run([path, "--list"], env=env, cwd=os.path.dirname(path),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    except (subprocess.TimeoutExpired, OSError):
        return []
    if proc.returncode != 0:
        return []
    names = [l.strip() for l in proc.stdout.decode(errors="replace").splitlines() if l.startswith("\t")]
    return [n for n in names if n and " " not in n]


def classify(name, code, out):
    """PASS / FAIL / SKIP / CRASH from one sub-test's exit status and harness output
    (test_common/harness/testHarness.cpp: "<name> passed", "<name> FAILED", "<name> test not
    supported", "SKIPPED", "PASSED n of n", "FAILED n of m")."""
    if code < 0:
        return "CRASH (signal %d)" % -code
    if name and re.search(r"^%s FAILED$" % re.escape(name), out, re.M):
        return "FAIL"
    if re.search(r"test not supported$|currently not implemented$|skipped \(requires|^SKIPPED ", out, re.M) \
            and not re.search(r" passed$", out, re.M):
        return "SKIP"
    if code != 0 or re.search(r"^FAILED ", out, re.M):
        return "FAIL"
    return "PASS"


def run_one(path, args, env, timeout):
    """(result, seconds, tail of the output) of one process."""
    start = time.monotonic()
    try:
        proc = subprocess.run([path] + args, env=env, cwd=os.path.dirname(path),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace")
        return "TIMEOUT", time.monotonic() - start, out[-1500:]
    out = proc.stdout.decode(errors="replace")
    return classify(args[0] if args and not args[0].startswith("-") else "", proc.returncode, out), \
        time.monotonic() - start, out[-1500:]


def environments(icd_dir, cards, pocl_icd, scratch):
    """(label, environment) per configuration: each amcl card, then PoCL."""
    base = dict(os.environ)
    base.pop("OCL_ICD_FILENAMES", None)
    base["CL_PLATFORM_INDEX"] = "0"  # the one platform the loader sees
    configs = []
    for card in cards:
        env = dict(base)
        env["OCL_ICD_VENDORS"] = os.path.abspath(icd_dir)
        env["CL_DEVICE_TYPE"] = "gpu"  # the CTS harness's device selection
        if card:
            env["AMCL_DEVICES"] = card
        configs.append(("amcl " + (card or "default"), env))
    if pocl_icd:
        vendors = os.path.join(scratch, "pocl-vendors")
        os.makedirs(vendors, exist_ok=True)
        link = os.path.join(vendors, "pocl.icd")
        if not os.path.exists(link):
            os.symlink(os.path.abspath(pocl_icd), link)
        env = dict(base)
        env["OCL_ICD_VENDORS"] = vendors
        env["CL_DEVICE_TYPE"] = "cpu"
        configs.append(("PoCL", env))
    return configs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cts", required=True, help="directory holding the built CTS test binaries")
    ap.add_argument("--icd", required=True, help="directory holding amcl.icd (e.g. build/icd)")
    ap.add_argument("--suites", default="", help="comma-separated suites (default: every test_* found)")
    ap.add_argument("--subtests", default="", help="comma-separated sub-tests to run (default: all)")
    ap.add_argument("--cards", default="sim:gfx1100,sim:gfx1201",
                    help="comma-separated AMCL_DEVICES values, one configuration each ('' = amcl's "
                         "default, 'none' = PoCL alone)")
    ap.add_argument("--pocl", default="/etc/OpenCL/vendors/pocl.icd",
                    help="PoCL's .icd file, run beside amcl when it exists ('' to skip)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per sub-test (default 600)")
    ap.add_argument("--out", default="cts-results.md", help="Markdown table to write")
    args = ap.parse_args()

    wanted = {s.strip() for s in args.suites.split(",") if s.strip()}
    only = {s.strip() for s in args.subtests.split(",") if s.strip()}
    binaries = find_binaries(args.cts, wanted)
    missing = sorted(wanted - set(binaries))
    if not binaries:
        print("no test_* binaries found below %s" % args.cts, file=sys.stderr)
        return 2
    cards = [] if args.cards == "none" else [c.strip() for c in args.cards.split(",")]
    pocl = args.pocl if args.pocl and os.path.exists(args.pocl) else ""

    with tempfile.TemporaryDirectory(prefix="amcl-cts-") as scratch:
        configs = environments(args.icd, cards, pocl, scratch)
        if not configs:
            print("nothing to run: --cards none and no PoCL", file=sys.stderr)
            return 2
        labels = [label for label, _ in configs]
        rows = []  # (suite, sub-test, [(result, seconds)] per configuration)
        for suite in sorted(binaries):
            path = binaries[suite]
            subtests = list_subtests(path, configs[0][1]) or [None]
            if subtests == [suite]:
                # test_conversions lists itself as its one sub-test but does not take that name
                # as an argument (it ran nothing and passed): run it whole.
                subtests = [None]
            flags = ["-w"] if suite in WIMPY else []
            for sub in subtests:
                if only and sub not in only:
                    continue
                results = []
                for label, env in configs:
                    result, seconds, tail = run_one(path, ([sub] if sub else []) + flags, env, args.timeout)
                    results.append((result, seconds))
                    if result != "PASS" and label.startswith("amcl"):
                        print("--- %s %s on %s: %s\n%s" % (suite, sub or "(whole)", label, result, tail),
                              flush=True)
                rows.append((suite, sub or "(whole)", results))
                print("%s %s: %s" % (suite, sub or "(whole)", "  ".join(
                    "%s %s" % (l, r[0]) for l, r in zip(labels, results))), flush=True)

    header = "| suite | sub-test | " + " | ".join("%s | s" % l for l in labels) + " |"
    lines = [header, "|" + "---|" * (2 + 2 * len(labels))]
    for suite, sub, results in rows:
        lines.append("| %s | %s | %s |" % (suite, sub, " | ".join("%s | %.1f" % r for r in results)))
    for suite in missing:
        lines.append("| %s | NOT FOUND | %s |" % (suite, " | ".join("- | -" for _ in labels)))
    lines += ["", "| suite | " + " | ".join("%s passed / failed / skipped" % l for l in labels) + " |",
              "|---|" + "---|" * len(labels)]
    ok = True
    for suite in sorted({r[0] for r in rows}):
        counts = []
        for i, label in enumerate(labels):
            res = [r[2][i][0] for r in rows if r[0] == suite]
            passed, skipped = res.count("PASS"), res.count("SKIP")
            failed = len(res) - passed - skipped
            counts.append("%d / %d / %d" % (passed, failed, skipped))
            if label.startswith("amcl") and failed:
                ok = False
        lines.append("| %s | %s |" % (suite, " | ".join(counts)))
    if missing:
        ok = False
    table = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(table)
    print("\n".join(lines[lines.index("") + 1:]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
