#!/usr/bin/env python3
"""Writes collsim's own Chakra ET protobuf samples (workloads/samples/chakra-et/).

Each rank's file is what Chakra's writers produce: a varint length and a
GlobalMetadata message, then a varint length and a Node message per node
(sim/replay/import/chakra_et.proto). Messages are encoded by protoc from text
format, so the script needs only protoc (Debian protobuf-compiler).

The job: 4 ranks; each computes for 100 us on the GPU, all-reduces 4 MiB,
then passes 1 MiB to the next rank of a ring (an eager send, then the
receive from the previous rank) and computes 50 us on what it received.
"""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTO = ROOT / "sim/replay/import/chakra_et.proto"
RANKS = 4


def encode(message: str, text: str) -> bytes:
    return subprocess.run(["protoc", f"--proto_path={PROTO.parent}", f"--encode=collsim.chakra.{message}",
                           PROTO.name], input=text.encode(), capture_output=True, check=True).stdout


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def attr(name: str, field: str, value) -> str:
    return f'attr {{ name: "{name}" {field}: {value} }}'


def rank_nodes(r: int) -> list:
    nxt, prev = (r + 1) % RANKS, (r + RANKS - 1) % RANKS
    return [
        f'id: 1 name: "gemm" type: 4 duration_micros: 100 {attr("is_cpu_op", "bool_val", "false")}',
        f'id: 2 name: "allreduce_grads" type: 7 data_deps: 1 {attr("is_cpu_op", "bool_val", "false")} '
        f'{attr("comm_type", "int64_val", 0)} {attr("comm_size", "int64_val", 4 << 20)}',
        f'id: 3 name: "send_next" type: 5 data_deps: 2 {attr("comm_dst", "int32_val", nxt)} '
        f'{attr("comm_size", "int64_val", 1 << 20)} {attr("comm_tag", "int32_val", 0)}',
        f'id: 4 name: "recv_prev" type: 6 data_deps: 3 {attr("comm_src", "int32_val", prev)} '
        f'{attr("comm_size", "int64_val", 1 << 20)} {attr("comm_tag", "int32_val", 0)}',
        f'id: 5 name: "combine" type: 4 duration_micros: 50 data_deps: 4 {attr("is_cpu_op", "bool_val", "false")}',
    ]


def main() -> int:
    out = ROOT / "workloads/samples/chakra-et"
    out.mkdir(parents=True, exist_ok=True)
    meta = encode("GlobalMetadata", 'version: "0.0.4" ' + attr("schema", "string_val", '"collsim-sample"'))
    for r in range(RANKS):
        data = varint(len(meta)) + meta
        for node in rank_nodes(r):
            m = encode("Node", node)
            data += varint(len(m)) + m
        (out / f"ring.{r}.et").write_bytes(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
