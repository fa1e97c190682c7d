#include "algorithms/ring_bound.hpp"

namespace collsim {

Estimate ring_pass(CostModel& m, const std::vector<DeviceId>& ring, int reduce_steps, int copy_steps, Bytes bytes,
                   int channels) {
    const int n = static_cast<int>(ring.size());
    const int steps = reduce_steps + copy_steps;
    if (n < 2 || steps == 0) return Estimate{};
    // Per hop h (ring[h] -> ring[h+1]): its cost in each phase.
    std::vector<Estimate> send(static_cast<std::size_t>(n)), with_reduce(send);
    for (int h = 0; h < n; ++h) {
        const DeviceId to = ring[static_cast<std::size_t>((h + 1) % n)];
        send[static_cast<std::size_t>(h)] = m.send_channels(ring[static_cast<std::size_t>(h)], to, bytes, channels);
        with_reduce[static_cast<std::size_t>(h)] = send[static_cast<std::size_t>(h)] + m.reduce(to, bytes, channels);
    }
    // Prefix sums over the ring laid out three times, so a path of up to
    // 2(n-1) hops from any start is a difference of two sums.
    const auto len = static_cast<std::size_t>(3 * n);
    std::vector<Estimate> sum_reduce(len + 1), sum_send(len + 1);
    for (std::size_t k = 0; k < len; ++k) {
        sum_reduce[k + 1] = sum_reduce[k] + with_reduce[k % static_cast<std::size_t>(n)];
        sum_send[k + 1] = sum_send[k] + send[k % static_cast<std::size_t>(n)];
    }
    auto diff = [](const Estimate& a, const Estimate& b) { return Estimate{a.latency - b.latency, a.bandwidth - b.bandwidth}; };
    Estimate worst;
    for (int i = 0; i < n; ++i) {
        const auto start = static_cast<std::size_t>(i), mid = start + static_cast<std::size_t>(reduce_steps),
                   end = mid + static_cast<std::size_t>(copy_steps);
        const Estimate path = diff(sum_reduce[mid], sum_reduce[start]) + diff(sum_send[end], sum_send[mid]);
        worst = i == 0 ? path : slower(worst, path);
    }
    for (int h = 0; h < n; ++h) {
        const Estimate& hop = send[static_cast<std::size_t>(h)];
        worst = slower(worst, Estimate{hop.latency, hop.bandwidth * steps});
    }
    return worst;
}

}  // namespace collsim
