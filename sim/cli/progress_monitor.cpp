#include "sim/cli/progress_monitor.hpp"

#include <unistd.h>

#include <cstdio>

#include "sim/cli/options.hpp"

namespace collsim {

namespace {
void write_stderr(const std::string& s) {
    if (s.empty()) return;
    std::fwrite(s.data(), 1, s.size(), stderr);
    std::fflush(stderr);
}
}  // namespace

void add_progress_options(CLI::App* c, ProgressOptions& o) {
    c->add_option("--wall-limit", o.wall_limit,
                  "stop after this much wall-clock time, e.g. 30s or 2min: print what was done, marked partial, "
                  "and exit 1");
    c->add_flag("--quiet", o.quiet, "no progress on stderr (shown for runs over 2 s, or every 10 s into a file)");
}

ProgressMonitor::ProgressMonitor(std::string command, const ProgressOptions& o)
    : start_(std::chrono::steady_clock::now()),
      throttle_(std::move(command), isatty(fileno(stderr)) ? ProgressStyle::terminal : ProgressStyle::log) {
    if (const std::optional<Time> limit = parse_positive_time("--wall-limit", o.wall_limit)) {
        limit_ = std::chrono::nanoseconds(limit->ps() / 1000);
        limit_text_ = o.wall_limit;
    }
    show_ = !o.quiet;
    active_ = show_ || limit_;
}

ProgressMonitor::~ProgressMonitor() { finish(); }

void ProgressMonitor::poll() {
    const auto elapsed = std::chrono::steady_clock::now() - start_;
    if (limit_ && elapsed > *limit_) throw RunStopped("--wall-limit " + limit_text_);
    if (!show_) return;
    const std::unique_lock<std::mutex> hold(draw_, std::try_to_lock);
    if (!hold.owns_lock()) return;  // another thread is drawing this very moment
    write_stderr(throttle_.update(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed), counts()));
}

void ProgressMonitor::finish() {
    const std::lock_guard<std::mutex> hold(draw_);
    write_stderr(throttle_.finish());
}

PartialRun ProgressMonitor::partial(uint64_t done, uint64_t total, std::string unit) const {
    return PartialRun{"--wall-limit " + limit_text_, done, total, std::move(unit)};
}

}  // namespace collsim
