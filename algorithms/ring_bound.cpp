#include "algorithms/ring_bound.hpp"

namespace collsim {

Estimate ring_pass(CostModel& m, const std::vector<int>& ring, int reduce_steps, int copy_steps, Bytes bytes,
                   int channels, FluidForm* form) {
    const int n = static_cast<int>(ring.size());
    const int steps = reduce_steps + copy_steps;
    if (n < 2 || steps == 0) return Estimate{};
    // Every hop h (ring[h] -> ring[h+1]) of every channel at once.
    std::vector<Transfer> hops;
    for (int c = 0; c < channels; ++c)
        for (int h = 0; h < n; ++h)
            hops.push_back(Transfer{m.gpu(ring[static_cast<std::size_t>(h)], c),
                                    m.gpu(ring[static_cast<std::size_t>((h + 1) % n)], c), bytes, c});
    const std::vector<Estimate> each = m.concurrent_each(hops);
    auto diff = [](const Estimate& a, const Estimate& b) { return Estimate{a.latency - b.latency, a.bandwidth - b.bandwidth}; };
    Estimate worst;
    bool first = true;
    Time busiest_hop{};
    for (int c = 0; c < channels; ++c) {
        // Per hop: its cost in each phase; then prefix sums over the ring laid
        // out three times, so a path of up to 2(n-1) hops from any start is a
        // difference of two sums.
        std::vector<Estimate> send(static_cast<std::size_t>(n)), with_reduce(send);
        for (int h = 0; h < n; ++h) {
            const Transfer& t = hops[static_cast<std::size_t>(c * n + h)];
            send[static_cast<std::size_t>(h)] = each[static_cast<std::size_t>(c * n + h)];
            with_reduce[static_cast<std::size_t>(h)] = send[static_cast<std::size_t>(h)] + m.reduce(t.to, bytes, channels);
            const Estimate busiest{send[static_cast<std::size_t>(h)].latency, send[static_cast<std::size_t>(h)].bandwidth * steps};
            busiest_hop = std::max(busiest_hop, send[static_cast<std::size_t>(h)].bandwidth);
            worst = first ? busiest : slower(worst, busiest);
            first = false;
        }
        const auto len = static_cast<std::size_t>(3 * n);
        std::vector<Estimate> sum_reduce(len + 1), sum_send(len + 1);
        for (std::size_t k = 0; k < len; ++k) {
            sum_reduce[k + 1] = sum_reduce[k] + with_reduce[k % static_cast<std::size_t>(n)];
            sum_send[k + 1] = sum_send[k] + send[k % static_cast<std::size_t>(n)];
        }
        for (int i = 0; i < n; ++i) {
            const auto start = static_cast<std::size_t>(i), mid = start + static_cast<std::size_t>(reduce_steps),
                       end = mid + static_cast<std::size_t>(copy_steps);
            worst = slower(worst, diff(sum_reduce[mid], sum_reduce[start]) + diff(sum_send[end], sum_send[mid]));
        }
    }
    if (form) {
        form->steady = busiest_hop * steps;
        for (int c = 0; c < channels; ++c)
            for (int h = 0; h < n; ++h)
                form->streams.push_back(FluidStream{ring[static_cast<std::size_t>(h)],
                                                    ring[static_cast<std::size_t>((h + 1) % n)], c, bytes * steps});
    }
    return worst;
}

}  // namespace collsim
