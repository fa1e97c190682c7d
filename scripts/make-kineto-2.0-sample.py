#!/usr/bin/env python3
# Writes workloads/samples/kineto-2.0 (run: scripts/make-kineto-2.0-sample.py workloads/samples/kineto-2.0):
# a 4-rank step in the layout PyTorch 2.0 profilers wrote (record_shapes=True): no sizes on kernels, runtime "External
# id" equal to its correlation, sizes in Input Dims of the CPU ops.
import json, sys
out = sys.argv[1]
W = 4
for rank in range(W):
    ev = []
    base = 1694000000000000 + rank * 7   # epoch microseconds, as Kineto writes them
    tid = 3100 + rank
    ext = [100]
    corr = [5000]
    def cpu(name, ts, dur, **args):
        ext[0] += 1
        a = {"External id": ext[0]}
        a.update(args)
        ev.append({"ph": "X", "cat": "cpu_op" if not name.startswith("nccl:") else "user_annotation",
                   "name": name, "pid": tid, "tid": tid, "ts": base + ts, "dur": dur, "args": a})
    def launch(ts, kname, kts, kdur, stream, grid=[8, 1, 1]):
        corr[0] += 1
        c = corr[0]
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": tid, "tid": tid,
                   "ts": base + ts, "dur": 6, "args": {"External id": c, "cbid": 211, "correlation": c}})
        ev.append({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": stream, "ts": base + kts,
                   "dur": kdur, "args": {"External id": c, "queued": 0, "device": rank, "context": 1,
                                          "stream": stream, "correlation": c, "grid": grid, "block": [640, 1, 1]}})
    # A kernel launched before the profiler started: its launch is not in the trace.
    ev.append({"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
               "pid": 0, "tid": 24, "ts": base + 2, "dur": 41, "args": {"External id": 4999, "device": rank,
               "stream": 24, "correlation": 4999}})
    # forward: embedding lookup, then the pooled all-to-all (uneven: 6144 in, 4096 + 1024 * rank out).
    cpu("aten::embedding_bag", 50, 30, **{"Input Dims": [[4096, 64], [2048]], "Input type": ["float", "long int"]})
    launch(60, "void at::native::embedding_bag_kernel<float>(long*, float*, long)", 90, 120.5, 7)
    outn = 4096 + 1024 * rank
    cpu("c10d::alltoall_base_", 100, 90, **{"Input Dims": [[outn], [6144], [], [], [], []],
        "Input type": ["float", "float", "", "", "", "Scalar"]})
    cpu("record_param_comms", 104, 82, **{"Input Dims": [[6144], [], [], [], [], [], []],
        "Input type": ["float", "Scalar", "Scalar", "Scalar", "", "", ""]})
    cpu("nccl:all_to_all", 112, 60, **{"Input Dims": [[6144]], "Input type": ["float"]})
    launch(150, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", 215, 88.25, 24)
    # the dense part: two GEMMs
    cpu("aten::addmm", 200, 12, **{"Input Dims": [[512], [2048, 512], [512, 512]], "Input type": ["float", "float", "float"]})
    launch(204, "volta_sgemm_128x64_nn", 305, 210.75, 7)
    launch(214, "volta_sgemm_64x64_nt", 516, 180.5, 7)
    ev.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoD (Device -> Device)", "pid": 0, "tid": 7,
               "ts": base + 697, "dur": 9.125, "args": {"device": rank, "stream": 7, "correlation": 5999, "bytes": 262144}})
    # backward: the gradient AllReduce of a bucket (a TensorList on the c10d op, the flat size on nccl:all_reduce).
    cpu("c10d::allreduce_", 720, 80, **{"Input Dims": [[], [], [], []], "Input type": ["TensorList", "", "", "Scalar"]})
    cpu("record_param_comms", 724, 72, **{"Input Dims": [[], [], [], [], [], [], []],
        "Input type": ["TensorList", "Scalar", "Scalar", "Scalar", "", "", ""]})
    cpu("nccl:all_reduce", 730, 55, **{"Input Dims": [[394241]], "Input type": ["float"]})
    launch(760, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)", 770, 401.5, 24)
    # the sharded embedding's all-gather: output first on the c10d op, the input on the annotation.
    cpu("c10d::_allgather_base_", 800, 70, **{"Input Dims": [[8192, 64], [2048, 64], []], "Input type": ["float", "float", ""]})
    cpu("record_param_comms", 804, 62, **{"Input Dims": [[2048, 64], [], [], [], [], [], []],
        "Input type": ["float", "Scalar", "Scalar", "Scalar", "", "", ""]})
    cpu("nccl:_all_gather_base", 810, 48, **{"Input Dims": [[2048, 64]], "Input type": ["float"]})
    launch(830, "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", 1175, 96.375, 24)
    launch(900, "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>(int, Functor, Array)", 1180, 30.25, 7)
    ev.sort(key=lambda e: e["ts"])
    meta = [{"name": "process_name", "ph": "M", "ts": 0, "pid": tid, "tid": 0, "args": {"name": "python"}}]
    doc = {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": W},
           "record_shapes": 1, "traceEvents": meta + ev,
           "traceName": f"./kineto/worker{rank}_step_3.pt.trace.json"}
    with open(f"{out}/worker{rank}_step_3.pt.trace.json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
