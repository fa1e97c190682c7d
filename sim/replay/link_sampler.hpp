#pragma once
// Samples the bytes every link direction has carried, at a regular interval,
// while a replay runs. The interval starts fine and doubles (dropping every
// other sample) whenever the sample count reaches its cap, so memory stays
// bounded however long the replay is. It only reads the network.
#include <cstddef>

#include "sim/net/network.hpp"
#include "sim/replay/replay_result.hpp"

namespace collsim {

class LinkSampler {
public:
    static constexpr std::size_t kMaxSamples = 1024;

    // `outstanding` is the replay's count of unfinished ops: sampling stops
    // once it reaches zero, or once nothing else is left to happen.
    LinkSampler(Simulator& sim, Network& net, std::size_t channels, const std::size_t& outstanding);
    LinkSamples take() { return std::move(samples_); }

private:
    void sample();

    Simulator& sim_;
    Network& net_;
    std::size_t channels_;
    const std::size_t& outstanding_;
    LinkSamples samples_;
};

}  // namespace collsim
