#include "sim/replay/compute_cost.hpp"

#include <set>

#include <fmt/format.h>

namespace collsim {

ComputeCoster::ComputeCoster(const Trace& trace, const Topology& topo, const std::vector<DeviceId>& rank_gpus)
    : trace_(trace) {
    const GpuCard* chosen = nullptr;
    if (trace.compute.custom) chosen = &*trace.compute.custom;
    else if (trace.compute.card) chosen = find_gpu_card(*trace.compute.card);
    for (int r = 0; r < trace.ranks; ++r) {
        const Device& gpu = topo.device(rank_gpus[static_cast<std::size_t>(r)]);
        const GpuCard* card = chosen ? chosen : default_gpu_card(gpu.arch);
        cards_.push_back(card);
        const bool from_topology = !chosen && gpu.memory_bandwidth.bps() > 0;
        memory_.push_back(from_topology ? gpu.memory_bandwidth : card ? card->memory_bandwidth : Bandwidth{});
    }
    std::vector<InputError> errors;
    std::set<const Program*> seen;
    for (int r = 0; r < trace.ranks && errors.size() < 20; ++r) {
        if (!seen.insert(&trace.program(r)).second && chosen) continue;
        for (const TraceOp& op : trace.program(r).ops) {
            if (op.kind != OpKind::compute || op.compute.duration) continue;
            const GpuCard* card = cards_[static_cast<std::size_t>(r)];
            const std::string field = fmt::format("op '{}' on rank {}", op.name, r);
            if (!card) {
                const Device& gpu = topo.device(rank_gpus[static_cast<std::size_t>(r)]);
                errors.emplace_back(op.where, field,
                                    "a GPU card for its roofline: name one in the trace's gpu.card (" +
                                        gpu_card_choices() + ")",
                                    fmt::format("none: GPU '{}' of the topology declares no known arch", gpu.name));
                break;
            }
            if (op.compute.flops > 0 && card->peak(op.compute.type) <= 0) {
                errors.emplace_back(op.where, field,
                                    fmt::format("a number format that card '{}' has a peak rate for", card->name),
                                    std::string(to_string(op.compute.type)));
                break;
            }
            try {
                (void)roofline_time(roofline(r, op.compute), op.compute.flops, op.compute.memory);
            } catch (const std::invalid_argument& e) {
                errors.emplace_back(op.where, field, e.what(),
                                    fmt::format("{:g} FLOP and {} B of memory traffic", op.compute.flops,
                                                op.compute.memory.count()));
            }
        }
    }
    if (!errors.empty()) throw InputErrors(std::move(errors));
}

Roofline ComputeCoster::roofline(int rank, const ComputeCost& c) const {
    const GpuCard* card = cards_[static_cast<std::size_t>(rank)];
    Roofline r;
    r.peak_flops = card->peak(c.type);
    r.memory = memory_[static_cast<std::size_t>(rank)];
    r.flops_efficiency = c.flops_efficiency > 0 ? c.flops_efficiency : trace_.compute.flops_efficiency;
    r.memory_efficiency = c.memory_efficiency > 0 ? c.memory_efficiency : trace_.compute.memory_efficiency;
    return r;
}

Time ComputeCoster::duration(int rank, const TraceOp& op) const {
    if (op.compute.duration) return *op.compute.duration;
    return roofline_time(roofline(rank, op.compute), op.compute.flops, op.compute.memory);
}

}  // namespace collsim
