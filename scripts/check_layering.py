#!/usr/bin/env python3
"""Fails when a layer of amcl includes a header of a layer it must not (docs/DESIGN.md, Layers).

Usage: check_layering.py SOURCE_DIR   -- lists every forbidden #include, exits 1 if any
       check_layering.py --self-test  -- plants one violation per rule in a temporary tree and
                                         exits 0 only if each is reported
"""
import pathlib
import re
import sys
import tempfile

# Layer -> the top-level folders its code may not include from.
FORBIDDEN = {
    "icd": ["am", "compiler", "sim"],
    "runtime": ["icd"],
    "compiler": ["am", "runtime", "icd", "sim"],
    "am": ["runtime", "icd", "compiler", "sim"],
    "sim": ["runtime", "icd", "compiler"],
}
# sim/ models the hardware from its facts: of am/ it may include the hardware-fact headers and
# the PCI seam it implements, none of the driver's logic.
SIM_ALLOWED_FROM_AM = re.compile(r"^am/(hw/.*|pci\.h|synthetic_firmware\.h)$")
# runtime/ reaches the emulator in exactly one place: where a device backend is chosen.
RUNTIME_SIM_ALLOWED = {"runtime/device_backends.cpp"}

# Layer -> the namespaces of lower layers its code may not name, even through an include of a
# layer it may use (icd/ reaches the driver and the compiler only through runtime/).
FORBIDDEN_NAMES = {
    "icd": ["am", "compiler", "sim"],
    "am": ["sim", "compiler", "rt"],
    "compiler": ["am", "sim", "rt"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
SOURCES = (".h", ".hpp", ".cpp", ".cc", ".inc")
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def named_namespaces(text: str, banned):
    code = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    pattern = re.compile(r"(?<![\w:])(?:amcl::)?(" + "|".join(banned) + r")::")
    for match in pattern.finditer(code):
        yield code.count("\n", 0, match.start()) + 1, match.group(1)


def violations(root: pathlib.Path):
    for layer, banned in FORBIDDEN.items():
        folder = root / layer
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            rel = path.relative_to(root).as_posix()
            text = path.read_text(errors="replace")
            for match in INCLUDE.finditer(text):
                header = match.group(1)
                top = header.split("/", 1)[0]
                line = text.count("\n", 0, match.start()) + 1
                if top in banned:
                    yield f"{rel}:{line}: {layer}/ may not include {header}"
                elif layer == "sim" and top == "am" and not SIM_ALLOWED_FROM_AM.match(header):
                    yield f"{rel}:{line}: sim/ may include am/'s hardware facts only, not {header}"
                elif layer == "runtime" and top == "sim" and rel not in RUNTIME_SIM_ALLOWED:
                    yield f"{rel}:{line}: runtime/ reaches sim/ only in {sorted(RUNTIME_SIM_ALLOWED)}"
            if layer in FORBIDDEN_NAMES:
                for line, ns in named_namespaces(text, FORBIDDEN_NAMES[layer]):
                    yield f"{rel}:{line}: {layer}/ may not name {ns}::"


def self_test() -> int:
    planted = {
        "icd/a.cpp": '#include "am/device.h"\n',
        "icd/b.cpp": '#include "compiler/compiler.h"\n',
        "am/c.cpp": '#include "runtime/objects.h"\n',
        "am/d.cpp": '#include "sim/gpu.h"\n',
        "compiler/e.cpp": '#include "am/device.h"\n',
        "sim/f.cpp": '#include "am/device.h"\n',
        "runtime/g.cpp": '#include "sim/gpu.h"\n',
        "icd/h.cpp": 'int f() { return am::kPageSize; }\n',
        "am/i.cpp": 'void g() { sim::open_emulated_gpu("gfx1100", 0); }\n',
    }
    allowed = {
        "sim/ok.cpp": '#include "am/hw/gc_regs.h"\n#include "am/pci.h"\n',
        "runtime/device_backends.cpp": '#include "sim/gpu.h"\n',
        "runtime/ok.cpp": '#include "am/device.h"\n#include "compiler/compiler.h"\n',
        "icd/ok.cpp": '#include "runtime/objects.h"\n#include "api_util.h"\n'
        '// am::Device is reached through rt::\nint x = rt::f(); /* sim::Gpu */\n',
    }
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for name, text in {**planted, **allowed}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        found = list(violations(root))
    reported = {v.split(":", 1)[0] for v in found}
    missed = sorted(set(planted) - reported)
    wrong = sorted(reported - set(planted))
    for name in missed:
        print(f"self-test: the planted violation in {name} was not reported")
    for name in wrong:
        print(f"self-test: {name} was reported but is allowed")
    return 1 if missed or wrong else 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    found = list(violations(pathlib.Path(sys.argv[1])))
    for v in found:
        print(v)
    print(f"{len(found)} layering violation(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
