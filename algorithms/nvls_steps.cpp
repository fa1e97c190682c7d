#include "algorithms/nvls_steps.hpp"

namespace collsim {

StepId switch_reduce(Schedule& s, const std::vector<int>& ranks, int sw, int owner, int channel, int chunk, Bytes bytes,
                     std::vector<StepId>& streamed) {
    StepId summed = kNoStep;
    for (int r : ranks) {
        auto& prev = streamed[static_cast<std::size_t>(r)];
        std::vector<StepId> deps;
        if (prev != kNoStep) deps.push_back(after_sent(prev));
        prev = s.send(r, sw, channel, chunk, bytes, deps, true);
        summed = summed == kNoStep ? s.receive(StepKind::reduce, prev, chunk)
                                   : s.receive(StepKind::reduce, prev, chunk, {summed});
    }
    return s.receive(StepKind::copy, s.send(sw, owner, channel, chunk, bytes, {summed}, false), chunk);
}

void switch_multicast(Schedule& s, const std::vector<int>& ranks, int sw, StepId stored, int channel, int chunk,
                      Bytes bytes) {
    const StepId at_switch = s.receive(StepKind::copy, stored, chunk);
    for (int r : ranks) s.receive(StepKind::copy, s.send(sw, r, channel, chunk, bytes, {at_switch}, false), chunk);
}

}  // namespace collsim
