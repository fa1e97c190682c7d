#!/usr/bin/env python3
"""Writes trace/rank{0..15}.pt.trace.json: one training step of a small DDP job
on 16 GPUs (two p5.48xlarge-class nodes), in the Chrome-trace JSON the PyTorch
profiler (Kineto) writes, with the layout of PyTorch 2.x: each GPU kernel
launched by a cudaLaunchKernel, linked by correlation id; NCCL kernels carry
the "Collective name", "In msg nelems", "dtype", "Group size" and "Process
Group Ranks" args of record_param_comms.

Written for collsim, not profiled: the kernel durations are made up, shaped
like a measured step (forward, backward with the gradient AllReduce of each
25 MiB DDP bucket overlapping the next layers' backward, then the optimizer).
The recorded NCCL kernel time (850 us per bucket) is what such a step
would show; the replay predicts the same step from the topology instead.
Run it to regenerate the files."""
import json
import os

RANKS = 16
BUCKET_ELEMS = 13107200  # bf16: 25 MiB per bucket, DDP's default bucket_cap_mb
NCCL_US = 850.0


def trace(rank):
    ev = [{"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "ts": 0, "args": {"name": "python3"}},
          {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "ts": 0, "args": {"name": "stream 7"}},
          {"ph": "M", "name": "thread_name", "pid": 0, "tid": 20, "ts": 0, "args": {"name": "stream 20"}}]
    ts = [1700000000000.0, 1700000000000.0]  # compute stream, NCCL stream
    corr = [1000]

    def kernel(name, dur, stream, extra=None, after=None):
        c = corr[0]
        corr[0] += 1
        s = 0 if stream == 7 else 1
        start = max(ts[s], after if after is not None else 0.0)
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4242, "tid": 4242,
                   "ts": start - 4.0, "dur": 3.2, "args": {"External id": c, "cbid": 211, "correlation": c}})
        args = {"External id": c, "queued": 0, "device": rank % 8, "context": 1, "stream": stream,
                "correlation": c}
        args.update(extra or {})
        ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": rank % 8, "tid": stream, "ts": start,
                   "dur": dur, "args": args})
        ts[s] = start + dur
        return start + dur

    gemm = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
    for _ in range(4):  # forward: 4 layers
        kernel(gemm, 410.0, 7)
        kernel("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int, Functor, Array)",
               38.5, 7)
    comm = {"Collective name": "allreduce", "In msg nelems": BUCKET_ELEMS, "Out msg nelems": BUCKET_ELEMS,
            "Group size": RANKS, "dtype": "BFloat16", "In split size": "[]", "Out split size": "[]",
            "Process Group Name": "0", "Process Group Description": "default_pg",
            "Process Group Ranks": str(list(range(RANKS)))}
    for _ in range(4):  # backward: each layer's gradients fill one bucket, reduced while the next layer runs
        done = kernel(gemm.replace("_tn_", "_nt_"), 820.0, 7)
        kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", NCCL_US, 20, comm,
               after=done)
    kernel("void at::native::multi_tensor_apply_kernel<at::native::FusedAdamMathFunctor>"
           "(at::native::TensorListMetadata<4>, Functor)", 288.0, 7, after=ts[1])
    ev.sort(key=lambda e: (e["ts"], e["name"]))
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": rank % 8, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
                                  "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "numSms": 132}],
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": RANKS, "pg_count": 1,
                                "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl",
                                               "pg_size": RANKS, "ranks": list(range(RANKS))}],
                                "nccl_version": "2.21.5"},
            "traceEvents": ev, "traceName": f"rank{rank}.pt.trace.json", "displayTimeUnit": "ms",
            "baseTimeNanoseconds": 1700000000000000000}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    os.makedirs(os.path.join(here, "trace"), exist_ok=True)
    for r in range(RANKS):
        with open(os.path.join(here, "trace", f"rank{r}.pt.trace.json"), "w") as f:
            json.dump(trace(r), f, indent=1)
            f.write("\n")
    t = trace(0)["traceEvents"]
    gpu = [e for e in t if e.get("cat") == "kernel"]
    print(f"recorded step: {max(e['ts'] + e['dur'] for e in gpu) - min(e['ts'] for e in gpu):.2f} us")


main()
