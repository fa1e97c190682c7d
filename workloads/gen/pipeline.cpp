#include "workloads/gen/pipeline.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collsim::gen {

std::optional<PipeSchedule> pipe_schedule_from(std::string_view s) {
    if (s == "gpipe") return PipeSchedule::gpipe;
    if (s == "1f1b") return PipeSchedule::one_f_one_b;
    return std::nullopt;
}

std::vector<PipeSlot> stage_order(PipeSchedule sched, int stages, int stage, int microbatches) {
    std::vector<PipeSlot> order;
    if (sched == PipeSchedule::gpipe) {
        for (int i = 0; i < microbatches; ++i) order.push_back({true, i});
        for (int i = microbatches - 1; i >= 0; --i) order.push_back({false, i});
        return order;
    }
    const int warmup = std::min(stages - stage - 1, microbatches);
    int f = 0, b = 0;
    for (; f < warmup; ++f) order.push_back({true, f});
    while (f < microbatches) {
        order.push_back({true, f++});
        order.push_back({false, b++});
    }
    while (b < microbatches) order.push_back({false, b++});
    return order;
}

void pipeline_stage(std::vector<Json>& ops, PipeSchedule sched, int stages, int stage, int microbatches,
                    const PipeLinks& links, const PassBody& body) {
    for (const PipeSlot& slot : stage_order(sched, stages, stage, microbatches)) {
        const int i = slot.microbatch;
        // Forward receives from the previous stage and sends to the next; backward the reverse.
        const bool receives = slot.forward ? stage > 0 : stage < stages - 1;
        const bool sends = slot.forward ? stage < stages - 1 : stage > 0;
        const char* what = slot.forward ? "act" : "grad";
        Names after;
        if (receives) {
            const std::string recv = fmt::format("recv_{}{}", what, i);
            ops.push_back(p2p_op(recv, false, slot.forward ? "prev" : "next", links.comm, links.activation, {},
                                 fmt::format("recv_{}", what)));
            after.push_back(recv);
        }
        std::vector<Json> pass = body(slot.forward, i, after);
        const std::string last = pass.back()["name"].get<std::string>();
        for (auto& op : pass) ops.push_back(std::move(op));
        if (sends)
            ops.push_back(p2p_op(fmt::format("send_{}{}", what, i), true, slot.forward ? "next" : "prev", links.comm,
                                 links.activation, {last}, fmt::format("send_{}", what)));
    }
}

}  // namespace collsim::gen
