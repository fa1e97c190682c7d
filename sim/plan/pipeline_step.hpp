#pragma once
// The pipeline part of a training step under Megatron-LM's 1F1B schedule
// (Narayanan et al., SC'21, section 2.2): m micro-batches pass p stages; with
// v interleaved chunks per stage each chunk costs 1/v of its stage. Stage i
// spends c_i = forward + backward on a micro-batch; the step takes
//     sum_i c_i / v + (m v - 1) max_i c_i / v,
// which for equal stages is (m v + p - 1) c / v: the bubble is
// (p - 1) / (m v + p - 1) of it, (p - 1) / (m + p - 1) without interleaving.
#include <vector>

namespace collsim {

struct StageCycle {
    double forward = 0, backward = 0;  // one micro-batch through the stage, communication on its path included
    double cycle() const { return forward + backward; }
};

struct PipelineTime {
    double total = 0;
    double busy = 0;    // m x the slowest stage's cycle
    double bubble = 0;  // total - busy: fill, drain and waits for slower stages
    int slowest = 0;    // the stage that sets the pace
};

PipelineTime pipeline_time(const std::vector<StageCycle>& stages, long long microbatches, int vpp);

}  // namespace collsim
