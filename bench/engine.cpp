// Hold-model benchmark of the engine's event queue against a plain
// std::priority_queue (bench/baseline_queue.hpp).
//
// The hold model (Jones, "An empirical comparison of priority-queue and
// event-set implementations", CACM 1986) keeps the queue at a constant size P:
// every event, when it runs, schedules one successor at now + a random
// increment. Each measurement runs in a forked child so that its peak RSS is
// its own and no measurement inherits another's heap.
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/baseline_queue.hpp"
#include "sim/core/simulator.hpp"

namespace collsim::bench {
namespace {

constexpr int64_t kMeanIncrementPs = 1'000'000;  // 1 us; only the shape matters

// xorshift64* (Vigna 2016), seeded through splitmix64: a few cycles per draw,
// so the queue, not the generator, dominates the measurement.
class Rng {
public:
    explicit Rng(uint64_t seed) {
        uint64_t z = seed + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        state_ = (z ^ (z >> 31)) | 1;
    }
    uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545f4914f6cdd1dull;
    }

private:
    uint64_t state_;
};

enum class Dist { exponential, uniform };

// A hold process over any queue with schedule_in(int64 delay, callable).
template <class Queue>
struct Hold {
    Queue& queue;
    Rng rng;
    Dist dist;
    uint64_t checksum = 0;  // order-sensitive hash of the times events ran at

    int64_t increment() {
        const uint64_t r = rng.next();
        if (dist == Dist::uniform) return static_cast<int64_t>(r % (2 * kMeanIncrementPs));
        const double u = static_cast<double>((r >> 11) + 1) * 0x1.0p-53;  // (0, 1]
        return static_cast<int64_t>(-std::log(u) * kMeanIncrementPs);
    }
    void hold() {
        checksum = checksum * 0x100000001b3ull + static_cast<uint64_t>(queue.now());
        queue.schedule_in(increment(), [this] { hold(); });
    }
};

// collsim::Simulator behind the same int64 interface as the baseline.
class EngineQueue {
public:
    int64_t now() const { return sim_.now().ps(); }
    uint64_t events_processed() const { return sim_.events_processed(); }
    std::size_t pending() const { return sim_.pending(); }
    template <class F>
    void schedule_in(int64_t delay, F&& f) {
        sim_.schedule_in(Time::from_ps(delay), std::forward<F>(f));
    }
    void run_until(int64_t limit) { sim_.run_until(Time::from_ps(limit)); }

private:
    Simulator sim_;
};

struct Result {
    uint64_t events = 0;
    double wall_s = 0;
    double cpu_s = 0;  // rates use this: on a shared machine, wall time also counts other processes' turns
    long peak_rss_kib = 0;
    uint64_t checksum = 0;
    uint64_t pending_after = 0;
};

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Fills the queue with P events, turns the population over once untimed so
// the time distribution reaches its steady state, then times `events` holds.
template <class Queue>
Result hold_model(Queue& queue, std::size_t pending, uint64_t events, Dist dist, uint64_t seed) {
    Hold<Queue> h{queue, Rng(seed), dist};
    for (std::size_t i = 0; i < pending; ++i) h.hold();
    // P pending events with mean increment m run at a rate of P/m per unit of
    // simulated time, so a window of n*m/P holds about n events.
    const auto window = [&](uint64_t n) {
        return static_cast<int64_t>(static_cast<double>(n) * kMeanIncrementPs / static_cast<double>(pending));
    };
    const int64_t warm_end = window(pending);
    queue.run_until(warm_end);
    const uint64_t before = queue.events_processed();
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    queue.run_until(warm_end + window(events));
    const auto t1 = std::chrono::steady_clock::now();
    const double cpu1 = cpu_seconds();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return Result{queue.events_processed() - before, std::chrono::duration<double>(t1 - t0).count(), cpu1 - cpu0,
                  ru.ru_maxrss, h.checksum, queue.pending()};
}

template <class Measure>
Result in_child(Measure measure) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        close(fds[0]);
        const Result r = measure();
        const bool ok = write(fds[1], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    Result r;
    const bool got = read(fds[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("measurement child failed");
    return r;
}

std::string rate(double per_s) { return fmt::format("{:.2f}M", per_s / 1e6); }
std::string mib(long kib) { return fmt::format("{:.1f} MiB", static_cast<double>(kib) / 1024.0); }

struct Options {
    std::vector<std::size_t> sizes{1'000, 100'000, 1'000'000};
    std::string dist = "both";
    double scale = 1.0;
    int repeats = 3;
    uint64_t seed = 1;
    bool engine_only = false;
};

// Holds per size, picked so that each measurement takes about 0.5-2 s on the
// 2-core machine of BENCHMARKS.md; --scale shrinks or grows them.
uint64_t default_events(std::size_t pending) {
    if (pending <= 10'000) return 12'000'000;
    if (pending <= 200'000) return 6'000'000;
    return 3'000'000;
}

// Other processes' load makes wall time meaningless as a rate; say how busy
// the machine was.
std::string load_average() {
    double l[1];
    return getloadavg(l, 1) == 1 ? fmt::format("{:.2f}", l[0]) : "unknown";
}

// The median run: robust to one disturbed run either way on a shared machine.
Result median(std::vector<Result> runs) {
    std::sort(runs.begin(), runs.end(), [](const Result& a, const Result& b) { return a.cpu_s < b.cpu_s; });
    return runs[runs.size() / 2];
}

double rate_of(const Result& r) { return static_cast<double>(r.events) / r.cpu_s; }

void run_table(const Options& o, Dist dist) {
    fmt::print("hold model, {} increments with mean 1us, seed {}, median of {} runs, load average {}\n",
               dist == Dist::exponential ? "exponential" : "uniform", o.seed, o.repeats, load_average());
    fmt::print("ratio = collsim / baseline events per CPU second; c = collsim, b = baseline\n");
    fmt::print("{:>9} {:>7} {:>13} {:>13} {:>10} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>5}\n", "pending", "ratio",
               "collsim ev/s", "baseline ev/s", "events", "c wall", "b wall", "c cpu", "b cpu", "c RSS", "b RSS",
               "same");
    for (std::size_t p : o.sizes) {
        const auto n = static_cast<uint64_t>(static_cast<double>(default_events(p)) * o.scale);
        std::vector<Result> engine, baseline;
        for (int r = 0; r < o.repeats; ++r) {  // interleaved, so load spikes hit both
            engine.push_back(in_child([&] {
                EngineQueue q;
                return hold_model(q, p, n, dist, o.seed);
            }));
            if (o.engine_only) continue;
            baseline.push_back(in_child([&] {
                BaselineQueue q(p + 1);
                return hold_model(q, p, n, dist, o.seed);
            }));
        }
        const Result e = median(engine);
        const Result b = o.engine_only ? e : median(baseline);
        // Both queues run the same events in the same order, or the engine is wrong.
        const bool same = e.events == b.events && e.checksum == b.checksum && e.pending_after == p &&
                          b.pending_after == p;
        fmt::print("{:>9} {:>6.2f}x {:>13} {:>13} {:>10} {:>7.3f} s {:>7.3f} s {:>7.3f} s {:>7.3f} s {:>10} {:>10} "
                   "{:>5}\n",
                   p, rate_of(e) / rate_of(b), rate(rate_of(e)), rate(rate_of(b)), e.events, e.wall_s, b.wall_s,
                   e.cpu_s, b.cpu_s, mib(e.peak_rss_kib), mib(b.peak_rss_kib), same ? "yes" : "NO");
        std::fflush(stdout);
        if (!same) throw std::runtime_error("engine and baseline disagree on the hold model");
    }
}

}  // namespace
}  // namespace collsim::bench

int main(int argc, char** argv) {
    using collsim::bench::Dist;
    CLI::App app{"hold-model benchmark: collsim::Simulator against std::priority_queue"};
    collsim::bench::Options o;
    app.add_option("--pending", o.sizes, "pending-event counts to measure")->capture_default_str();
    app.add_option("--dist", o.dist, "increment distribution")
        ->check(CLI::IsMember({"exponential", "uniform", "both"}))
        ->capture_default_str();
    app.add_option("--scale", o.scale, "multiply the number of timed events")->capture_default_str();
    app.add_option("--repeats", o.repeats, "runs per measurement; the median is shown")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--seed", o.seed, "random seed")->capture_default_str();
    app.add_flag("--engine-only", o.engine_only,
                 "skip the baseline, for profiling (baseline columns repeat the engine)");
    CLI11_PARSE(app, argc, argv);
    try {
        if (o.dist != "uniform") collsim::bench::run_table(o, Dist::exponential);
        if (o.dist == "both") fmt::print("\n");
        if (o.dist != "exponential") collsim::bench::run_table(o, Dist::uniform);
    } catch (const std::exception& e) {
        fmt::print(stderr, "bench_engine: {}\n", e.what());
        return 1;
    }
    return 0;
}
