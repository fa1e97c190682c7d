// collsim-harness: measures what `collsim calibrate` fits, on the user's own
// cluster, and writes it in the nccl-tests output layout so that
// `collsim validate --log` and `collsim calibrate --log` read it unchanged:
//   - each collective over a size sweep, with the NCCL_ALGO / NCCL_PROTO given;
//   - point-to-point bandwidth and latency from rank 0 to every other rank.
// One table per file under --out. Host code only (NCCL and the CUDA runtime
// do the GPU work), so it compiles with the C++ compiler in seconds.
//
//   mpirun -np 16 -x MASTER_ADDR=node0 collsim-harness --out results   (one GPU per process)
//   collsim-harness --gpus 8 --out results                             (one process, 8 GPUs)
#include <cuda_runtime.h>
#include <nccl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "bootstrap.hpp"

namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(ncclResult_t e, const char* what) {
    if (e != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(e));
}

struct Options {
    int gpus = 0;  // one process driving this many GPUs; 0: all visible (or 1 per process when launched)
    std::vector<std::string> tests{"all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "reduce", "p2p"};
    std::string algo, proto;  // exported as NCCL_ALGO / NCCL_PROTO before NCCL starts
    size_t min_bytes = 8, max_bytes = size_t{1} << 30;
    int factor = 2, iters = 20, warmup = 5;
    std::string out = ".";
};

// One GPU this process drives.
struct Local {
    int device = 0, rank = 0;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    float *send = nullptr, *recv = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
};

struct Job {
    harness::Placement place;
    int nranks = 1;
    std::vector<Local> locals;
    std::vector<std::string> device_lines;  // rank 0 only: every rank's "#  Rank ..." line
};

enum class Placement { out_of_place, in_place };

// nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md).
double busbw_factor(const std::string& test, int n) {
    if (test == "all_reduce") return 2.0 * (n - 1) / n;
    if (test == "all_gather" || test == "reduce_scatter" || test == "alltoall") return double(n - 1) / n;
    return 1.0;
}

// Issues one operation of `bytes` (nccl-tests' size column) on every local GPU.
void issue(Job& job, const std::string& test, size_t bytes, Placement where, int src, int dst) {
    const int n = job.nranks;
    const size_t count = bytes / sizeof(float);
    const bool in_place = where == Placement::in_place;
    check(ncclGroupStart(), "ncclGroupStart");
    for (Local& l : job.locals) {
        float* out = in_place ? l.send : l.recv;
        if (test == "all_reduce") {
            check(ncclAllReduce(l.send, out, count, ncclFloat, ncclSum, l.comm, l.stream), "ncclAllReduce");
        } else if (test == "all_gather") {
            const size_t per = count / n;
            float* recv = in_place ? l.send : l.recv;
            const float* send = in_place ? recv + per * l.rank : l.send;
            check(ncclAllGather(send, recv, per, ncclFloat, l.comm, l.stream), "ncclAllGather");
        } else if (test == "reduce_scatter") {
            const size_t per = count / n;
            float* recv = in_place ? l.send + per * l.rank : l.recv;
            check(ncclReduceScatter(l.send, recv, per, ncclFloat, ncclSum, l.comm, l.stream), "ncclReduceScatter");
        } else if (test == "alltoall") {
            // Grouped sends and receives, as nccl-tests does, so any NCCL release runs it.
            const size_t per = count / n;
            for (int p = 0; p < n; ++p) {
                check(ncclSend(l.send + per * p, per, ncclFloat, p, l.comm, l.stream), "ncclSend");
                check(ncclRecv(l.recv + per * p, per, ncclFloat, p, l.comm, l.stream), "ncclRecv");
            }
        } else if (test == "broadcast") {
            check(ncclBroadcast(l.send, out, count, ncclFloat, 0, l.comm, l.stream), "ncclBroadcast");
        } else if (test == "reduce") {
            check(ncclReduce(l.send, out, count, ncclFloat, ncclSum, 0, l.comm, l.stream), "ncclReduce");
        } else if (test == "p2p") {
            if (l.rank == src) check(ncclSend(l.send, count, ncclFloat, dst, l.comm, l.stream), "ncclSend");
            if (l.rank == dst) check(ncclRecv(l.recv, count, ncclFloat, src, l.comm, l.stream), "ncclRecv");
        }
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
}

// Microseconds per operation: the slowest GPU of all ranks, as the last rank
// to finish ends a collective.
double time_us(Job& job, const std::string& test, size_t bytes, Placement where, const Options& o, int src, int dst) {
    for (int i = 0; i < o.warmup; ++i) issue(job, test, bytes, where, src, dst);
    for (Local& l : job.locals) check(cudaSetDevice(l.device), "cudaSetDevice"), check(cudaEventRecord(l.start, l.stream), "cudaEventRecord");
    for (int i = 0; i < o.iters; ++i) issue(job, test, bytes, where, src, dst);
    float slowest = 0;
    for (Local& l : job.locals) {
        check(cudaSetDevice(l.device), "cudaSetDevice");
        check(cudaEventRecord(l.stop, l.stream), "cudaEventRecord");
        check(cudaEventSynchronize(l.stop), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, l.start, l.stop), "cudaEventElapsedTime");
        slowest = std::max(slowest, ms);
    }
    // Max over ranks with NCCL itself: every local GPU contributes the same value.
    check(ncclGroupStart(), "ncclGroupStart");
    for (Local& l : job.locals) {
        check(cudaSetDevice(l.device), "cudaSetDevice");
        check(cudaMemcpyAsync(l.recv, &slowest, sizeof slowest, cudaMemcpyHostToDevice, l.stream), "cudaMemcpyAsync");
        check(ncclAllReduce(l.recv, l.recv, 1, ncclFloat, ncclMax, l.comm, l.stream), "ncclAllReduce");
    }
    check(ncclGroupEnd(), "ncclGroupEnd");
    Local& first = job.locals.front();
    check(cudaSetDevice(first.device), "cudaSetDevice");
    check(cudaMemcpyAsync(&slowest, first.recv, sizeof slowest, cudaMemcpyDeviceToHost, first.stream), "cudaMemcpyAsync");
    for (Local& l : job.locals) check(cudaSetDevice(l.device), "cudaSetDevice"), check(cudaStreamSynchronize(l.stream), "sync");
    return double(slowest) * 1000.0 / o.iters;
}

std::string device_line(int rank, int device) {
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    char bus[32] = {0}, host[64] = {0};
    check(cudaDeviceGetPCIBusId(bus, sizeof bus, device), "cudaDeviceGetPCIBusId");
    gethostname(host, sizeof host - 1);
    char head[160];
    std::snprintf(head, sizeof head, "#  Rank %2d Group  0 Pid %6d on %10.63s device %2d [%.12s] ", rank, int(getpid()),
                  host, device, bus);
    std::string line(head);
    line += prop.name;
    return line;
}

// One nccl-tests style table: `ranks` are the rank numbers listed (all, or the pair for p2p).
void run_test(Job& job, const std::string& test, const Options& o, int src, int dst) {
    const int n = job.nranks;
    const bool p2p = test == "p2p";
    const int listed = p2p ? 2 : n;
    const double factor = busbw_factor(test, listed);
    // Sizes divisible by what every rank gets, as nccl-tests rounds them.
    const size_t grain = sizeof(float) * ((test == "all_gather" || test == "reduce_scatter" || test == "alltoall") ? n : 1);
    std::string rows;
    double bus_sum = 0;
    int bus_n = 0;
    for (size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= size_t(o.factor)) {
        const size_t size = bytes / grain * grain;
        if (size == 0) continue;
        double t[2] = {-1, -1};
        t[0] = time_us(job, test, size, Placement::out_of_place, o, src, dst);
        if (test != "alltoall" && !p2p) t[1] = time_us(job, test, size, Placement::in_place, o, src, dst);
        const size_t count = size / sizeof(float) / (grain / sizeof(float));
        char row[320];
        int at = std::snprintf(row, sizeof row, "%12zu  %12zu  %8s  %6s  %6d", size, count, "float",
                               (test == "all_reduce" || test == "reduce_scatter" || test == "reduce") ? "sum" : "none",
                               (test == "broadcast" || test == "reduce") ? 0 : -1);
        for (double us : t) {
            if (us < 0) {
                at += std::snprintf(row + at, sizeof row - at, "  %8s  %7s  %7s  %6s", "N/A", "N/A", "N/A", "N/A");
                continue;
            }
            const double algbw = double(size) / us / 1e3;
            at += std::snprintf(row + at, sizeof row - at, "  %8.2f  %7.2f  %7.2f  %6s", us, algbw, algbw * factor, "N/A");
            bus_sum += algbw * factor, ++bus_n;
        }
        rows += std::string(row) + "\n";
    }
    if (job.place.rank != 0) return;
    const std::string name = p2p ? "sendrecv_perf" : test + "_perf";
    std::string file = o.out + "/" + (p2p ? "p2p-" + std::to_string(src) + "-" + std::to_string(dst) : test);
    if (!p2p && !o.algo.empty()) file += "-" + o.algo;
    if (!p2p && !o.proto.empty()) file += "-" + o.proto;
    FILE* f = std::fopen((file + ".txt").c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + file + ".txt");
    int version = 0;
    ncclGetVersion(&version);
    std::fprintf(f, "# collsim-harness, nccl-tests layout; NCCL_ALGO=%s NCCL_PROTO=%s\n", o.algo.c_str(), o.proto.c_str());
    std::fprintf(f, "# Collective test starting: %s\n", name.c_str());
    std::fprintf(f, "# nThread 1 nGpus %zu minBytes %zu maxBytes %zu step: %d(factor) warmup iters: %d iters: %d "
                 "agg iters: 1 validation: 0 graph: 0\n#\n# Using devices\n",
                 job.locals.size(), o.min_bytes, o.max_bytes, o.factor, o.warmup, o.iters);
    for (int r = 0; r < n; ++r) {
        if (p2p && r != src && r != dst) continue;
        std::string line = job.device_lines[size_t(r)];
        if (p2p) line[8] = ' ', line[9] = r == src ? '0' : '1';  // "#  Rank %2d": the pair as ranks 0, 1
        std::fprintf(f, "%s\n", line.c_str());
    }
    std::fprintf(f, "NCCL version %d.%d.%d\n#\n", version / 10000, version % 10000 / 100, version % 100);
    std::fprintf(f, "#%62s%35s\n", "out-of-place", "in-place");
    std::fprintf(f, "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong\n");
    std::fprintf(f, "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)\n");
    std::fputs(rows.c_str(), f);
    std::fprintf(f, "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : %g\n#\n# Collective test concluded: %s\n",
                 bus_n ? bus_sum / bus_n : 0.0, name.c_str());
    std::fclose(f);
}

Options parse(int argc, char** argv) {
    Options o;
    auto size = [](const char* s) {
        char* end = nullptr;
        double v = std::strtod(s, &end);
        const char u = end && *end ? char(*end | 0x20) : 0;
        return size_t(v * (u == 'k' ? 1 << 10 : u == 'm' ? 1 << 20 : u == 'g' ? 1 << 30 : 1));
    };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : "";
        if (a == "--gpus") o.gpus = std::atoi(v), ++i;
        else if (a == "--tests") {
            o.tests.clear();
            for (std::string s = v; !s.empty();) {
                const auto c = s.find(',');
                o.tests.push_back(s.substr(0, c));
                s = c == std::string::npos ? "" : s.substr(c + 1);
            }
            ++i;
        } else if (a == "--algo") o.algo = v, ++i;
        else if (a == "--proto") o.proto = v, ++i;
        else if (a == "-b") o.min_bytes = size(v), ++i;
        else if (a == "-e") o.max_bytes = size(v), ++i;
        else if (a == "-f") o.factor = std::max(2, std::atoi(v)), ++i;
        else if (a == "-n") o.iters = std::max(1, std::atoi(v)), ++i;
        else if (a == "-w") o.warmup = std::max(0, std::atoi(v)), ++i;
        else if (a == "--out") o.out = v, ++i;
        else throw std::runtime_error("unknown option " + a + " (see validation/harness/README.md)");
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) try {
    const Options o = parse(argc, argv);
    // NCCL reads these when a communicator starts.
    if (!o.algo.empty()) setenv("NCCL_ALGO", o.algo.c_str(), 1);
    if (!o.proto.empty()) setenv("NCCL_PROTO", o.proto.c_str(), 1);

    Job job;
    job.place = harness::placement_from_env();
    harness::Rendezvous rendezvous(job.place);
    int visible = 0;
    check(cudaGetDeviceCount(&visible), "cudaGetDeviceCount");
    if (job.place.launched) {
        job.nranks = job.place.size;
        ncclUniqueId id;
        if (job.place.rank == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
        std::vector<char> bytes(reinterpret_cast<char*>(&id), reinterpret_cast<char*>(&id) + sizeof id);
        rendezvous.broadcast(bytes);
        std::memcpy(&id, bytes.data(), sizeof id);
        Local l;
        l.device = job.place.local_rank % std::max(visible, 1);
        l.rank = job.place.rank;
        check(cudaSetDevice(l.device), "cudaSetDevice");
        check(ncclCommInitRank(&l.comm, job.nranks, id, l.rank), "ncclCommInitRank");
        job.locals.push_back(l);
    } else {
        job.nranks = o.gpus > 0 ? std::min(o.gpus, visible) : visible;
        std::vector<ncclComm_t> comms(size_t(job.nranks));
        check(ncclCommInitAll(comms.data(), job.nranks, nullptr), "ncclCommInitAll");
        for (int r = 0; r < job.nranks; ++r) job.locals.push_back(Local{r, r, comms[size_t(r)]});
    }
    std::string mine;
    for (Local& l : job.locals) {
        check(cudaSetDevice(l.device), "cudaSetDevice");
        check(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaMalloc(&l.send, o.max_bytes), "cudaMalloc");
        check(cudaMalloc(&l.recv, o.max_bytes), "cudaMalloc");
        check(cudaMemset(l.send, 0, o.max_bytes), "cudaMemset");
        check(cudaEventCreate(&l.start), "cudaEventCreate");
        check(cudaEventCreate(&l.stop), "cudaEventCreate");
        if (!mine.empty()) mine += '\n';
        mine += device_line(l.rank, l.device);
    }
    for (const std::string& lines : rendezvous.gather(mine))
        for (std::string s = lines; !s.empty();) {
            const auto c = s.find('\n');
            job.device_lines.push_back(s.substr(0, c));
            s = c == std::string::npos ? "" : s.substr(c + 1);
        }

    for (const std::string& test : o.tests) {
        if (test == "p2p") {
            for (int dst = 1; dst < job.nranks; ++dst) run_test(job, test, o, 0, dst);
        } else if (test == "all_reduce" || test == "all_gather" || test == "reduce_scatter" || test == "alltoall" ||
                   test == "broadcast" || test == "reduce") {
            run_test(job, test, o, 0, 0);
        } else {
            throw std::runtime_error("unknown test " + test);
        }
    }
    for (Local& l : job.locals) ncclCommDestroy(l.comm);
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "collsim-harness: %s\n", e.what());
    return 1;
}
