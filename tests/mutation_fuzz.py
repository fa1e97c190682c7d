#!/usr/bin/env python3
"""Seeded mutations of every kind of input collsim reads (issue 24).

Each case takes a small shipped sample, applies one seeded mutation (a byte
flip, a cut, a deleted or doubled line, a huge or odd number, deep nesting,
inserted junk), and runs the command that reads it. Every run must end by
itself within 30 s, by exit status (no signal), and not with exit 3 (an
internal error); an exit 2 must name a file of the case and a position in it
(file:line, file:line:col, or "file: byte N" for protobuf). The seeds are
fixed, so a failure is reproduced with the case name printed:

    tests/mutation_fuzz.py BUILD/collsim [--only NAME] [--keep DIR]
"""
import argparse
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT_S = 30
MEMORY_LIMIT = 4 << 30  # address space; the host is shared, a runaway must not take it

# name: (files copied into the case folder, the one mutated, the command with {dir}, binary or text).
# Several files: a set read together (rank files, a manifest and its runs).
KINDS = {
    "topology-yaml": (["topologies/dgx-h100.yaml"], 0, "topo check {dir}/dgx-h100.yaml", False),
    "topology-fabric": (["topologies/cluster-h100-2n.yaml"], 0, "topo show {dir}/cluster-h100-2n.yaml", False),
    "nccl-topo-xml": (["tests/data/nccl-topo/nvswitch-2gpu.xml"], 0, "topo check {dir}/nvswitch-2gpu.xml", False),
    "native-trace": (["workloads/samples/pp-1f1b-4stage.yaml"], 0,
                     "replay --topology topologies/dgx-h100.yaml --trace {dir}/pp-1f1b-4stage.yaml", False),
    "chakra-json": ([f"workloads/samples/chakra/chakra.{r}.json" for r in range(4)], 1,
                    "replay --topology topologies/dgx-h100.yaml --trace {dir}", False),
    "chakra-et": ([f"workloads/samples/chakra-et/ring.{r}.et" for r in range(4)], 2,
                  "replay --topology topologies/dgx-h100.yaml --trace {dir}", True),
    "pytorch-et": ([f"workloads/samples/pytorch-et/ddp_{r}.json" for r in range(2)], 0,
                   "replay --topology topologies/dgx-h100.yaml --trace {dir}", False),
    "kineto": ([f"workloads/samples/kineto/rank{r}.pt.trace.json" for r in range(2)], 0,
               "replay --topology topologies/dgx-h100.yaml --trace {dir}", False),
    "fault-plan": (["tests/data/faults/nic-down.yaml"], 0,
                   "coll -t tests/data/faults/two-nodes.yaml --sizes 1M --faults {dir}/nic-down.yaml", False),
    "fault-plan-replay": (["examples/intermittent-straggler/faults.yaml"], 0,
                          "replay --topology topologies/cluster-h100-16n.yaml --trace examples/intermittent-straggler/trace.yaml "
                          "--faults {dir}/faults.yaml --steps 3", False),
    "calibration": (["tests/data/calibration/dgx-h100-allreduce.yaml"], 0,
                    "coll -t topologies/dgx-h100.yaml --sizes 8 --calibration {dir}/dgx-h100-allreduce.yaml", False),
    "nccl-tests-log": (["tests/data/nccl-logs/new-layout-allreduce.log"], 0,
                       "validate --log {dir}/new-layout-allreduce.log -t topologies/dgx-h100.yaml", False),
    "nccl-tests-csv": (["validation/data/l40s-2gpu-pcie-allreduce-ring-cs244.csv"], 0,
                       "validate --log {dir}/l40s-2gpu-pcie-allreduce-ring-cs244.csv --algo ring "
                       "-t validation/data/topologies/l40s-2gpu-pcie.yaml", False),
    "manifest": (["validation/data/l40s-2gpu-pcie-allreduce-ring-cs244.csv",
                  "validation/data/rtx2080ti-2gpu-pcie3-nop2p-allgather-01.csv"], None,
                 "validate --data {dir}", False),
    "msccl-xml": (["tests/data/msccl/ring-allreduce-4.xml"], 0,
                  "coll -t topologies/dgx-h100.yaml --ranks 4 --sizes 1M --algo-file {dir}/ring-allreduce-4.xml", False),
    "timings": (["tests/data/timings/late-rank5.csv"], 0, "diagnose {dir}/late-rank5.csv", False),
}

# A small manifest in the shipped one's form, its runs beside it.
MANIFEST = """# The runs `collsim validate` predicts (a two-run cut of validation/data/datasets.yaml).
datasets:
  - {file: l40s-2gpu-pcie-allreduce-ring-cs244.csv, topology: TOPO/l40s-2gpu-pcie.yaml, class: l40s-pcie, algo: ring}
  - {file: rtx2080ti-2gpu-pcie3-nop2p-allgather-01.csv, topology: TOPO/rtx2080ti-2gpu-shm.yaml, class: rtx2080ti-shm}
"""

ODD_NUMBERS = ["99999999999999999999999999999", "1e400", "-1", "0", "1e-30", "18446744073709551616", "-0", "nan",
               "0x7fffffff", "1.5", "9223372036854775808"]
JUNK_LINES = ["unknown_key: 1", "- ", "{", "]", "\t: :", "\x00\x01\x02", "<a>", "\"unterminated", "#", "&a *a"]


def mutate_text(data: bytes, rng: random.Random, xml: bool) -> tuple[str, bytes]:
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    kind = rng.choice(["flip", "cut", "delete-line", "double-line", "number", "deep", "junk-line", "swap-lines"])
    if kind == "flip":
        i = rng.randrange(len(data))
        b = bytearray(data)
        b[i] = rng.choice([0, 0xFF, ord('"'), ord("{"), ord(":"), ord("\n"), ord("<"), rng.randrange(32, 127)])
        return f"flip@{i}", bytes(b)
    if kind == "cut":
        i = rng.randrange(len(data))
        return f"cut@{i}", data[:i]
    if kind in ("delete-line", "double-line"):
        i = rng.randrange(len(lines))
        lines[i:i + 1] = [] if kind == "delete-line" else [lines[i], lines[i]]
        return f"{kind}@{i + 1}", "\n".join(lines).encode("utf-8", "surrogateescape")
    if kind == "swap-lines" and len(lines) > 2:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return f"swap-lines@{i + 1}", "\n".join(lines).encode("utf-8", "surrogateescape")
    if kind == "number":
        numbers = list(re.finditer(r"\d+(\.\d+)?", text))
        if numbers:
            m = rng.choice(numbers)
            odd = rng.choice(ODD_NUMBERS)
            return f"number@{m.start()}={odd}", (text[:m.start()] + odd + text[m.end():]).encode("utf-8",
                                                                                               "surrogateescape")
    if kind == "deep":
        i = rng.randrange(len(text) + 1)
        depth = rng.choice([300, 100_000, 1_000_000])
        nest = "<a>" * min(depth, 100_000) if xml else rng.choice(["[", "{\"a\": "]) * depth
        return f"deep{depth}@{i}", (text[:i] + nest + text[i:]).encode("utf-8", "surrogateescape")
    i = rng.randrange(len(lines) + 1)
    junk = rng.choice(JUNK_LINES)
    lines.insert(i, junk)
    return f"junk-line@{i + 1}={junk!r}", "\n".join(lines).encode("utf-8", "surrogateescape")


def mutate_binary(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    kind = rng.choice(["flip", "cut", "insert"])
    i = rng.randrange(len(data))
    if kind == "flip":
        b = bytearray(data)
        b[i] ^= 1 << rng.randrange(8) if rng.random() < 0.5 else rng.randrange(1, 256)
        return f"flip@{i}", bytes(b)
    if kind == "cut":
        return f"cut@{i}", data[:i]
    return f"insert@{i}", data[:i] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16))) + data[i:]


def prepare(kind: str, index: int, base: Path) -> tuple[Path, str, str]:
    files, mutated, command, binary = KINDS[kind]
    rng = random.Random(f"{kind}:{index}")
    case = base / f"{kind}-{index}"
    case.mkdir()
    for f in files:
        shutil.copy(ROOT / f, case / Path(f).name)
    if kind == "manifest":
        target = case / "datasets.yaml"
        target.write_text(MANIFEST.replace("TOPO", str(ROOT / "validation/data/topologies")))
    else:
        target = case / Path(files[mutated]).name
    data = target.read_bytes()
    what, data = mutate_binary(data, rng) if binary else mutate_text(data, rng, target.suffix == ".xml")
    target.write_bytes(data)
    return case, command.format(dir=case), f"{kind}-{index} ({target.name}: {what})"


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_case(binary: str, case: Path, command: str, label: str) -> str | None:
    start = time.monotonic()
    try:
        p = subprocess.run([binary] + command.split(), cwd=ROOT, capture_output=True, timeout=TIME_LIMIT_S,
                           preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return f"{label}: ran past {TIME_LIMIT_S} s: {command}"
    wall = time.monotonic() - start
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return f"{label}: killed by signal {-p.returncode}: {command}\n{err[-600:]}"
    if p.returncode == 3:
        return f"{label}: internal error (exit 3): {command}\n{err[-600:]}"
    if p.returncode == 2 and not re.search(re.escape(str(case)) + r"/[^\s:]+(:\d+|: byte \d+)", err):
        return f"{label}: exit 2 without a file of the case and a position: {command}\n{err[:600]}"
    if wall > TIME_LIMIT_S:
        return f"{label}: took {wall:.1f} s"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("collsim")
    ap.add_argument("--cases", type=int, default=20, help="mutations per input kind")
    ap.add_argument("--only", help="run only the cases whose name starts with this")
    ap.add_argument("--keep", help="write the cases here and keep them")
    args = ap.parse_args()
    binary = str(Path(args.collsim).resolve())
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="collsim-mutation-"))
    base.mkdir(parents=True, exist_ok=True)
    cases = []
    for kind in KINDS:
        for i in range(args.cases):
            if args.only and not f"{kind}-{i}".startswith(args.only):
                continue
            cases.append(prepare(kind, i, base))
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for f in pool.map(lambda c: run_case(binary, *c), cases) if f]
    if not args.keep:
        shutil.rmtree(base)
    for f in failures:
        print(f"FAILED {f}\n")
    print(f"{len(cases)} mutated inputs of {len(KINDS)} kinds in {time.monotonic() - start:.1f} s: "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
