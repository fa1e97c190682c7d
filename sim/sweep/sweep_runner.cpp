#include "sim/sweep/sweep_runner.hpp"

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

#include "sim/sweep/sweep_point.hpp"

namespace collsim {

SweepRows run_sweep_points(const SweepSpec& spec, const std::vector<SweepPoint>& points, int jobs,
                           RunMonitor* monitor,
                           const std::function<void(const SweepPoint&, const std::vector<std::string>&)>& on_row) {
    SweepRows out;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false}, stopped{false};
    std::mutex lock;
    std::size_t failed_at = points.size();
    std::exception_ptr failure;
    if (monitor) monitor->begin_stage("points", points.size());
    auto work = [&] {
        for (std::size_t i; !stop.load() && (i = next.fetch_add(1)) < points.size();) {
            try {
                std::vector<std::string> row = run_sweep_point(spec, points[i]);
                const std::lock_guard<std::mutex> hold(lock);
                on_row(points[i], row);
                out.metrics[points[i].index] = std::move(row);
            } catch (const RunStopped&) {
                stopped.store(true);
                stop.store(true);
                return;
            } catch (...) {
                const std::lock_guard<std::mutex> hold(lock);
                if (i < failed_at) failed_at = i, failure = std::current_exception();
                stop.store(true);
                return;
            }
            if (monitor) {
                monitor->add_done();
                try {
                    monitor->poll();
                } catch (const RunStopped&) {
                    stopped.store(true);
                    stop.store(true);
                    return;
                }
            }
        }
    };
    const int threads = std::max(1, std::min<int>(jobs, static_cast<int>(points.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    out.stopped = stopped.load();
    return out;
}

}  // namespace collsim
