#include "algorithms/ring_bound.hpp"

#include <algorithm>
#include <cmath>

#include "sim/exec/step_costs.hpp"

namespace collsim {

namespace {

double seconds(Time t) { return static_cast<double>(t.ps()) * 1e-12; }
Time from_seconds(double s) { return Time::from_ps(std::llround(s * 1e12)); }

// One hop of one channel's ring: what it costs at full concurrency, and what
// it needs to be re-timed at a steady period (desynchronised).
struct Hop {
    Estimate send;      // latency and transfer with every hop of every channel sending at once
    Time reduce;        // the receiver's reduction, every channel reducing at once
    Time reduce_alone;  // the same, alone on the GPU's memory
    const Path* path = nullptr;
    double wire = 0;          // wire bytes of one step
    double ceiling = 0;       // the channel's share of the sender's protocol ceiling, bytes/s (0: none)
    bool slack = false;       // faster than its ring's busiest hop: it waits for data every step
};

class RingTimes {
public:
    RingTimes(CostModel& m, const std::vector<int>& ring, int reduce_steps, int copy_steps, Bytes bytes, int channels)
        : m_(m), n_(static_cast<int>(ring.size())), reduce_steps_(reduce_steps), copy_steps_(copy_steps),
          channels_(channels), steps_(reduce_steps + copy_steps) {
        std::vector<Transfer> transfers;
        for (int c = 0; c < channels; ++c)
            for (int h = 0; h < n_; ++h)
                transfers.push_back(Transfer{m.gpu(ring[static_cast<std::size_t>(h)], c),
                                             m.gpu(ring[static_cast<std::size_t>((h + 1) % n_)], c), bytes, c});
        const std::vector<Estimate> each = m.concurrent_each(transfers);
        load_.assign(m.comm().topo->channel_count(), 0);
        hops_.resize(transfers.size());
        for (std::size_t i = 0; i < transfers.size(); ++i) {
            const Transfer& t = transfers[i];
            Hop& hop = hops_[i];
            hop.send = each[i];
            hop.reduce = m.reduce(t.to, bytes, channels).bandwidth;
            hop.reduce_alone = m.reduce(t.to, bytes, 1).bandwidth;
            hop.path = &m.path(t.from, t.to, t.channel);
            hop.wire = static_cast<double>(wire_bytes(bytes, m.protocol(), m.via_switch(t.from, t.to)).count());
            const int64_t ceiling = m.ceiling(t.from, channels);
            hop.ceiling = ceiling == INT64_MAX ? 0 : static_cast<double>(ceiling);
            if (bytes.count() > 0)
                for (ChannelId l : hop.path->channels) ++load_[l];
        }
        for (int c = 0; c < channels; ++c) {
            Time busiest{};
            for (int h = 0; h < n_; ++h) busiest = std::max(busiest, hop(c, h).send.bandwidth);
            busiest_hop_ = std::max(busiest_hop_, busiest);
            // Within a percent of the busiest, a hop keeps no slack worth a phase drift.
            for (int h = 0; h < n_; ++h)
                hop(c, h).slack = hop(c, h).send.bandwidth.ps() * 100 < busiest.ps() * 99;
        }
    }

    int steps() const { return steps_; }
    Time busiest_hop() const { return busiest_hop_; }

    // The busiest hop's bound: it carries every step's chunk in turn, from
    // the start (every rank holds its own data), and the last one then
    // arrives after the hop's latency.
    Estimate busiest() const {
        Estimate worst;
        bool first = true;
        for (const Hop& h : hops_) {
            const Estimate e{h.send.latency, h.send.bandwidth * steps_};
            worst = first ? e : slower(worst, e);
            first = false;
        }
        return worst;
    }

    // The data's path bound with the hops timed at a steady period of
    // `period` per step (Time{} : every hop at full concurrency): 2(n-1)
    // consecutive hops from the worst start, each its latency, its transfer
    // and (while reducing) the reduction.
    Estimate path(Time period) const {
        Estimate worst;
        const auto len = static_cast<std::size_t>(3 * n_);
        std::vector<Estimate> send(static_cast<std::size_t>(n_)), with_reduce(send);
        std::vector<Estimate> sum_reduce(len + 1), sum_send(len + 1);
        for (int c = 0; c < channels_; ++c) {
            for (int h = 0; h < n_; ++h) {
                const Hop& x = hop(c, h);
                send[static_cast<std::size_t>(h)] = Estimate{x.send.latency, transfer(x, period)};
                with_reduce[static_cast<std::size_t>(h)] =
                    send[static_cast<std::size_t>(h)] + Estimate{Time{}, reduction(x, period)};
            }
            // Prefix sums over the ring laid out three times, so a path of up
            // to 2(n-1) hops from any start is a difference of two sums.
            for (std::size_t k = 0; k < len; ++k) {
                sum_reduce[k + 1] = sum_reduce[k] + with_reduce[k % static_cast<std::size_t>(n_)];
                sum_send[k + 1] = sum_send[k] + send[k % static_cast<std::size_t>(n_)];
            }
            for (int i = 0; i < n_; ++i) {
                const auto start = static_cast<std::size_t>(i), mid = start + static_cast<std::size_t>(reduce_steps_),
                           end = mid + static_cast<std::size_t>(copy_steps_);
                const Estimate e = diff(sum_reduce[mid], sum_reduce[start]) + diff(sum_send[end], sum_send[mid]);
                worst = c == 0 && i == 0 ? e : slower(worst, e);
            }
        }
        return worst;
    }

private:
    static Estimate diff(const Estimate& a, const Estimate& b) {
        return Estimate{a.latency - b.latency, a.bandwidth - b.bandwidth};
    }
    Hop& hop(int c, int h) { return hops_[static_cast<std::size_t>(c * n_ + h)]; }
    const Hop& hop(int c, int h) const { return hops_[static_cast<std::size_t>(c * n_ + h)]; }

    // A hop with slack, desynchronised: every other hop on each of its links
    // takes its average rate over the period (one step's wire bytes per
    // period), and this one gets the rest of the link, never less than its
    // fair share at full concurrency, within its channel's protocol ceiling.
    Time transfer(const Hop& x, Time period) const {
        if (period <= Time{} || !x.slack || x.path->channels.empty() || x.wire <= 0) return x.send.bandwidth;
        const double others_rate = x.wire / seconds(period);
        double rate = x.ceiling > 0 ? x.ceiling : 1e300;
        for (ChannelId l : x.path->channels) {
            const double cap = static_cast<double>(m_.capacity(l).bps());
            const int k = load_[l];
            rate = std::min(rate, std::max(cap / k, cap - (k - 1) * others_rate));
        }
        const Time t = from_seconds(x.wire / rate);
        return std::min(t, x.send.bandwidth);
    }
    // The same for the reduction on the receiver's memory, shared by its
    // channels' reductions: each of the others takes its share of the period.
    Time reduction(const Hop& x, Time period) const {
        if (period <= Time{} || !x.slack || x.reduce_alone <= Time{}) return x.reduce;
        const double busy_others = (channels_ - 1) * seconds(x.reduce_alone) / seconds(period);
        if (busy_others >= 1) return x.reduce;
        return std::min(x.reduce, from_seconds(seconds(x.reduce_alone) / (1 - busy_others)));
    }

    CostModel& m_;
    int n_, reduce_steps_, copy_steps_, channels_, steps_;
    std::vector<Hop> hops_;
    std::vector<int> load_;  // hops crossing each link direction
    Time busiest_hop_{};
};

}  // namespace

Estimate ring_pass(CostModel& m, const std::vector<int>& ring, int reduce_steps, int copy_steps, Bytes bytes,
                   int channels, FluidForm* form) {
    const int n = static_cast<int>(ring.size());
    const int steps = reduce_steps + copy_steps;
    if (n < 2 || steps == 0) return Estimate{};
    const RingTimes times(m, ring, reduce_steps, copy_steps, bytes, channels);
    const Estimate busiest = times.busiest();
    // The pass takes T = max(busiest, path(T / steps)): the period a step
    // takes is what sets how far the hops with slack drift apart. path()
    // falls as the period grows, so T is found by bisection between the
    // busiest bound and the path at full concurrency.
    Estimate pass = slower(busiest, times.path(Time{}));
    const auto per_step = [&](const Estimate& e) { return Time::from_ps(e.total().ps() / steps); };
    if (pass.total() > busiest.total()) {
        Time lo = per_step(busiest), hi = per_step(pass);
        Estimate at_hi = pass;
        for (int i = 0; i < 24 && hi - lo > Time::from_ps(1); ++i) {
            const Time mid = Time::from_ps((lo.ps() + hi.ps()) / 2);
            const Estimate e = times.path(mid);
            if (e.total() > mid * steps)
                lo = mid;
            else
                hi = mid, at_hi = e;
        }
        pass = slower(busiest, at_hi);
    }
    if (form) {
        form->steady = times.busiest_hop() * steps;
        for (int c = 0; c < channels; ++c)
            for (int h = 0; h < n; ++h)
                form->streams.push_back(FluidStream{ring[static_cast<std::size_t>(h)],
                                                    ring[static_cast<std::size_t>((h + 1) % n)], c, bytes * steps});
    }
    return pass;
}

}  // namespace collsim
