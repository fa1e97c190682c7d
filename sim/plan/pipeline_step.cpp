#include "sim/plan/pipeline_step.hpp"

namespace collsim {

PipelineTime pipeline_time(const std::vector<StageCycle>& stages, long long microbatches, int vpp) {
    PipelineTime t;
    double sum = 0, slowest = 0;
    for (std::size_t i = 0; i < stages.size(); ++i) {
        sum += stages[i].cycle();
        if (stages[i].cycle() > slowest) {
            slowest = stages[i].cycle();
            t.slowest = static_cast<int>(i);
        }
    }
    const double v = vpp;
    t.total = sum / v + (static_cast<double>(microbatches) * v - 1) * slowest / v;
    t.busy = static_cast<double>(microbatches) * slowest;
    t.bubble = t.total - t.busy;
    return t;
}

}  // namespace collsim
