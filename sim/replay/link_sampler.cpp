#include "sim/replay/link_sampler.hpp"

namespace collsim {

using namespace collsim::literals;

LinkSampler::LinkSampler(Simulator& sim, Network& net, std::size_t channels, const std::size_t& outstanding)
    : sim_(sim), net_(net), channels_(channels), outstanding_(outstanding) {
    samples_.interval = 1_us;
    sim_.schedule_in(Time{}, [this] { sample(); });
}

void LinkSampler::sample() {
    std::vector<int64_t> row(channels_);
    for (std::size_t c = 0; c < channels_; ++c) row[c] = net_.carried_now(static_cast<ResourceId>(c)).count();
    samples_.times.push_back(sim_.now());
    samples_.carried.push_back(std::move(row));
    if (samples_.times.size() >= kMaxSamples) {
        // Keep samples 0, 2, 4, ...: still evenly spaced, at twice the interval.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < samples_.times.size(); i += 2, ++kept) {
            if (kept == i) continue;  // sample 0 stays where it is
            samples_.times[kept] = samples_.times[i];
            samples_.carried[kept] = std::move(samples_.carried[i]);
        }
        samples_.times.resize(kept);
        samples_.carried.resize(kept);
        samples_.interval = samples_.interval * 2;
    }
    if (outstanding_ > 0 && sim_.pending() > 0) {
        const Time next = samples_.times.back() + samples_.interval;
        sim_.schedule_at(next, [this] { sample(); });
    }
}

}  // namespace collsim
