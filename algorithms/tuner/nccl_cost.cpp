#include "algorithms/tuner/nccl_cost.hpp"

#include <algorithm>
#include <cmath>

#include "algorithms/tuner/nccl_tables.hpp"

namespace collsim {

namespace {

constexpr double kNetOverheadUs = 1.0;  // getNetOverhead, x86 Intel (tuning.cc)

double us(Time t) { return t.us(); }

double hw_latency(NcclFamily f, ProtoKind p, LinkClass c) {
    auto proto = nccl_protocol(f, p);
    return proto ? us(proto->step_latency(c)) : 0.0;
}

int log2_floor(int v) {
    int r = 0;
    while (v > 1) v >>= 1, ++r;
    return r;
}

bool runs(CollOp op, NcclFamily f) {
    switch (op) {
        case CollOp::allreduce: return f != NcclFamily::pat;
        case CollOp::allgather:
        case CollOp::reducescatter:
            return f == NcclFamily::ring || f == NcclFamily::pat || f == NcclFamily::nvls ||
                   f == NcclFamily::collnet_direct;
        case CollOp::broadcast:
        case CollOp::reduce: return f == NcclFamily::ring;
        default: return false;
    }
}

}  // namespace

NcclChannels nccl_channels(const CommShape& s) {
    NcclChannels ch;
    // Across nodes the ring is bound by one NIC per channel; inside a node by
    // the GPU's link toward its neighbour.
    const bool inter = s.nodes > 1 && s.nics_per_node > 0;
    const double total = inter ? s.nic_bw : s.intra_bw;
    const auto& speeds = inter ? nccl::search_speeds_inter(s.arch) : nccl::search_speeds(s.arch);
    // The fastest step of the ladder at most `bw` (the slowest if none is).
    auto step_at_most = [&](double bw) {
        std::size_t k = 0;
        while (k + 1 < speeds.size() && speeds[k] > bw) ++k;
        return k;
    };
    const double speed = std::min(speeds[step_at_most(total)], total);
    ch.count = inter ? s.nics_per_node : std::clamp(static_cast<int>(total / speed), 1, 16);
    ch.bw = speed;
    const bool newer = s.arch == GpuArch::hopper || s.arch == GpuArch::blackwell;  // ccMin > 80
    if (speed >= 25.0 && !(newer && speed < 50.0 && ch.count > 4)) {
        ch.count *= 2;
        ch.bw /= 2;
    }
    // Trees then try faster speeds inside the node, up to twice the network's,
    // as long as the GPU's links carry every channel at that speed.
    ch.tree_bw = ch.bw;
    if (inter)
        for (std::size_t k = step_at_most(ch.bw); k > 0 && ch.tree_bw < 2 * ch.bw && ch.count * speeds[k - 1] <= s.intra_bw;
             --k)
            ch.tree_bw = speeds[k - 1];
    ch.nvls_count = s.arch == GpuArch::blackwell ? 24 : 16;
    return ch;
}

std::vector<NcclCost> nccl_costs(const CommShape& s, CollOp op, int64_t bytes) {
    const NcclChannels ch = nccl_channels(s);
    const int n = s.ranks;
    const int arch = nccl::arch_index(s.arch), nodes_idx = nccl::nodes_index(s.nodes);
    const int nsteps = op == CollOp::allreduce ? 2 * (n - 1)
                       : (op == CollOp::allgather || op == CollOp::reducescatter) ? n - 1
                                                                                  : n;
    const int inter_steps = s.nodes <= 1 ? 0 : op == CollOp::allreduce ? 2 * (s.nodes - 1) : s.nodes - 1;
    const double bus = ch.count * ch.bw;
    const double ll_max = s.nodes == 1 ? nccl::ll_max_bw(arch, 0) : nccl::ll_max_bw(0, nodes_idx);

    std::vector<NcclCost> out;
    for (NcclFamily f : {NcclFamily::tree, NcclFamily::ring, NcclFamily::collnet_direct, NcclFamily::collnet_chain,
                         NcclFamily::nvls, NcclFamily::nvls_tree, NcclFamily::pat}) {
        for (ProtoKind p : {ProtoKind::ll, ProtoKind::ll128, ProtoKind::simple}) {
            NcclCost c{f, p, false, {}, 0, 0, 0};
            auto proto = nccl_protocol(f, p);
            if (!runs(op, f)) c.why_not = "NCCL has no such algorithm for this operation";
            else if (!proto) c.why_not = "NCCL runs this algorithm with Simple only";
            else if (f == NcclFamily::tree && op != CollOp::allreduce) c.why_not = "tree is AllReduce only";
            else if ((f == NcclFamily::nvls || f == NcclFamily::nvls_tree) && !s.nvls)
                c.why_not = "no NVSwitch with in-switch reduction (NVLS) next to every GPU";
            else if (f == NcclFamily::nvls_tree && s.nodes == 1) c.why_not = "NVLSTree needs more than one node";
            else if ((f == NcclFamily::collnet_direct || f == NcclFamily::collnet_chain) && !s.collnet)
                c.why_not = "no network switch reduces in the network (SHARP)";
            else if (f == NcclFamily::pat && s.ppn != 1) c.why_not = "PAT needs one GPU per node";
            if (p == ProtoKind::ll128 && s.intra_via_cpu) {
                c.off_by_default = true;
                c.why_not = "LL128 is off by default on paths through the CPU (NCCL_PROTO=LL128 turns it on)";
            }
            if (!c.why_not.empty() && !c.off_by_default) {
                out.push_back(c);
                continue;
            }
            c.eligible = true;
            const LinkClass intra = s.intra_class;
            double intra_lat = hw_latency(f, p, intra);
            const double inter_lat = hw_latency(s.ppn == 1 && f == NcclFamily::ring ? NcclFamily::tree : f, p,
                                                LinkClass::net);
            const double base = us(proto->base_latency);
            // NCCL plans with the graph's intra-node speed on up to two nodes
            // (tuning.cc: bw = nNodes <= 2 ? bwIntra : bwInter).
            double bw = f == NcclFamily::tree && s.nodes <= 2 ? ch.count * ch.tree_bw : bus, lat = 0;
            switch (f) {
                case NcclFamily::ring: {
                    if (p == ProtoKind::ll) c.ceiling_GBps = ll_max;
                    if (p == ProtoKind::ll128) c.ceiling_GBps = ch.count * nccl::per_ch_max_ring_ll128_bw(arch, nodes_idx);
                    if (p == ProtoKind::ll) bw = std::min(ll_max, 0.5 * bus);
                    if (p == ProtoKind::ll128) bw = std::min(0.92 * bus, c.ceiling_GBps);
                    bw *= static_cast<double>(n) / std::max(nsteps, 1);
                    if (s.nodes > 1) intra_lat = std::max(intra_lat, kNetOverheadUs * (p == ProtoKind::simple ? 3 : 1));
                    lat = base + (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat;
                    if (op == CollOp::allreduce && p == ProtoKind::simple && s.nodes > 1 &&
                        bytes / (static_cast<int64_t>(ch.count) * n) >= 64)
                        lat *= arch >= 1 ? 1.4 : 1.9;  // NCCL's "plateau" correction
                    break;
                }
                case NcclFamily::tree: {
                    if (s.nodes > 1) bw *= 0.85;
                    c.ceiling_GBps = p == ProtoKind::ll      ? ll_max
                                     : p == ProtoKind::ll128 ? ch.count * nccl::per_ch_max_tree_ll128_bw(arch, nodes_idx)
                                                             : ch.count * nccl::per_ch_max_tree_bw(arch, nodes_idx);
                    if (p == ProtoKind::simple) bw = std::min(0.92 * bw, c.ceiling_GBps);
                    if (p == ProtoKind::ll) bw = std::min(bw / 3.8, ll_max);
                    if (p == ProtoKind::ll128) bw = std::min(bw * (s.nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0), c.ceiling_GBps);
                    bw *= 0.5 * nccl::tree_correction(p, bytes);
                    lat = base + 2 * ((s.ppn - 1) * intra_lat + log2_floor(s.nodes) * inter_lat);
                    break;
                }
                case NcclFamily::nvls:
                case NcclFamily::nvls_tree: {
                    const double per_ch = s.intra_bw / ch.nvls_count * nccl::nvls_efficiency(arch) *
                                          (ch.nvls_count - 1) / ch.nvls_count;
                    double intra_bw = per_ch * (op == CollOp::allreduce ? 2.0 : (s.ppn - 1.0) / s.ppn);
                    double b = intra_bw;
                    if (s.nodes > 1) b = std::min(intra_bw, s.nic_bw * s.nics_per_node / ch.nvls_count *
                                                                (f == NcclFamily::nvls_tree && s.nodes <= 2 ? 2 : 1));
                    if (f == NcclFamily::nvls_tree) b = std::min(b, nccl::per_ch_max_nvls_tree_bw(arch, nodes_idx));
                    bw = ch.nvls_count * b * static_cast<double>(n) / std::max(nsteps, 1);
                    lat = f == NcclFamily::nvls ? intra_lat + (s.nodes > 1 ? inter_lat : 0)
                                                : base + intra_lat + 2 * log2_floor(s.nodes) * inter_lat;
                    break;
                }
                case NcclFamily::collnet_direct:
                case NcclFamily::collnet_chain: {
                    bw = std::min(s.intra_bw, s.nic_bw * s.nics_per_node) * (arch >= 2 ? 0.85 : 1.0) * 0.5;
                    lat = f == NcclFamily::collnet_direct
                              ? base + 2 * (std::min(1, s.ppn - 1) * intra_lat + (s.ppn - 1) * 0.4) + inter_lat
                              : base + 2 * (s.ppn - 1) * intra_lat + inter_lat;
                    break;
                }
                case NcclFamily::pat:
                    bw = bus * 0.75;
                    lat = base + log2_floor(s.nodes) * inter_lat / 3.5 + 2.8 * n;
                    break;
            }
            c.latency_us = lat;
            c.algbw_GBps = bw;
            c.time_us = bw > 0 ? lat + static_cast<double>(bytes) / (1000.0 * bw) : INFINITY;
            out.push_back(c);
        }
    }
    return out;
}

int nccl_launch_channels(const NcclChannels& ch, ProtoKind proto, NcclFamily family, int ranks, int64_t bytes) {
    // Thresholds per thread (src/enqueue.cc): LL 8 bytes (times the rank count
    // for rings), LL128 8, Simple 64; NCCL_MAX_NTHREADS 640 threads for tree,
    // 512 otherwise.
    const int64_t threads = family == NcclFamily::tree ? 640 : 512;
    int64_t per_thread = proto == ProtoKind::simple ? 64 : 8;
    if (proto == ProtoKind::ll && family == NcclFamily::ring) per_thread *= ranks;
    int nc = family == NcclFamily::nvls || family == NcclFamily::nvls_tree ? ch.nvls_count : ch.count;
    while (nc > 1 && bytes < nc * threads * per_thread) --nc;
    return nc;
}

}  // namespace collsim
