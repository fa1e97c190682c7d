#include "sim/report/progress_line.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collsim {

namespace {

// Three significant figures, as a glance at a moving figure needs.
std::string three_figures(double v) {
    return v >= 100 ? fmt::format("{:.0f}", v) : v >= 10 ? fmt::format("{:.1f}", v) : fmt::format("{:.2f}", v);
}

std::string simulated_text(Time t) {
    const auto ps = static_cast<double>(t.ps());
    if (ps < 1e3) return fmt::format("{}ps", t.ps());
    if (ps < 1e6) return three_figures(ps / 1e3) + "ns";
    if (ps < 1e9) return three_figures(ps / 1e6) + "us";
    if (ps < 1e12) return three_figures(ps / 1e9) + "ms";
    return three_figures(ps / 1e12) + "s";
}

std::string rate_text(double per_s) {
    if (per_s >= 1e9) return three_figures(per_s / 1e9) + "G";
    if (per_s >= 1e6) return three_figures(per_s / 1e6) + "M";
    if (per_s >= 1e3) return three_figures(per_s / 1e3) + "k";
    return fmt::format("{:.0f}", per_s);
}

double as_seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

std::string format_wall(std::chrono::nanoseconds d) {
    const auto s = std::chrono::duration_cast<std::chrono::seconds>(std::max(d, std::chrono::nanoseconds{0})).count();
    if (s < 60) return fmt::format("{}s", s);
    if (s < 3600) return fmt::format("{}min {:02}s", s / 60, s % 60);
    return fmt::format("{}h {:02}min", s / 3600, s % 3600 / 60);
}

std::string format_progress(const RunMonitor::Counts& c, std::chrono::nanoseconds elapsed, double events_per_s,
                            std::optional<std::chrono::nanoseconds> eta) {
    std::string out;
    auto part = [&out](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
    if (c.total > 0) part(fmt::format("{} of {} {}", c.done, c.total, c.unit));
    else if (c.done > 0) part(fmt::format("{} {}", c.done, c.unit));
    if (c.events > 0) {
        part("simulated " + simulated_text(c.simulated));
        if (events_per_s >= 0) part(rate_text(events_per_s) + " events/s");
    }
    part(format_wall(elapsed) + " elapsed");
    if (eta) part("ETA ~" + format_wall(*eta));
    return out;
}

std::optional<std::chrono::nanoseconds> estimate_left(const RunMonitor::Counts& c, std::chrono::nanoseconds in_stage,
                                                      std::chrono::nanoseconds since_unit,
                                                      std::chrono::nanoseconds last_unit) {
    if (c.total == 0 || c.done == 0 || c.done >= c.total || c.cost == RunMonitor::UnitCost::unknown)
        return std::nullopt;
    const uint64_t left = c.total - c.done;
    const auto average = std::chrono::nanoseconds(static_cast<int64_t>(
        static_cast<double>(in_stage.count()) * static_cast<double>(left) / static_cast<double>(c.done)));
    if (c.cost == RunMonitor::UnitCost::alike) return average;
    const auto each = std::max(last_unit, since_unit);
    return std::max(average, each * static_cast<int64_t>(left) - since_unit);
}

void ProgressThrottle::track_units(std::chrono::nanoseconds elapsed, const RunMonitor::Counts& c) {
    // The first stage began with the run, at 0; a later one when first seen.
    if (unit_ && (c.unit != unit_ || c.done < done_)) {
        stage_at_ = unit_at_ = elapsed;
        last_unit_ = {};
        done_ = 0;
    }
    unit_ = c.unit;
    if (c.done > done_) {
        last_unit_ = (elapsed - unit_at_) / static_cast<int64_t>(c.done - done_);
        unit_at_ = elapsed;
        done_ = c.done;
    }
}

ProgressThrottle::ProgressThrottle(std::string prefix, ProgressStyle style)
    : prefix_(std::move(prefix)), style_(style),
      next_(style == ProgressStyle::terminal ? std::chrono::nanoseconds(kTerminalDelay)
                                             : std::chrono::nanoseconds(kLogInterval)) {}

std::string ProgressThrottle::update(std::chrono::nanoseconds elapsed, const RunMonitor::Counts& c) {
    track_units(elapsed, c);
    if (elapsed < next_) return {};
    const double dt = as_seconds(elapsed - last_at_);
    const double rate = dt > 0 ? static_cast<double>(c.events - last_events_) / dt : -1;
    last_at_ = elapsed;
    last_events_ = c.events;
    const auto eta = estimate_left(c, elapsed - stage_at_, elapsed - unit_at_, last_unit_);
    const std::string line = prefix_ + ": " + format_progress(c, elapsed, rate, eta);
    if (style_ == ProgressStyle::log) {
        // On the next multiple of the interval, however late this poll came.
        const auto interval = std::chrono::nanoseconds(kLogInterval);
        next_ = (elapsed / interval + 1) * interval;
        return line + "\n";
    }
    next_ = elapsed + kRedraw;
    // Blanks over what a longer line before left behind.
    std::string out = "\r" + line + std::string(drawn_ > line.size() ? drawn_ - line.size() : 0, ' ');
    drawn_ = std::max(drawn_, line.size());
    return out;
}

std::string ProgressThrottle::finish() {
    if (drawn_ == 0) return {};
    std::string out = "\r" + std::string(drawn_, ' ') + "\r";
    drawn_ = 0;
    return out;
}

}  // namespace collsim
