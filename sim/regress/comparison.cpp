#include "sim/regress/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace collsim {

bool EntryComparison::regressed() const {
    return hangs || std::any_of(changes.begin(), changes.end(), [](const MetricChange& c) { return c.regression; });
}

bool EntryComparison::improved() const {
    return unhung || std::any_of(changes.begin(), changes.end(), [](const MetricChange& c) { return c.worse < 0; });
}

bool EntryComparison::moved() const {
    return added || gone || hangs || unhung || !changes.empty() || !metrics_added.empty() || !metrics_gone.empty() ||
           !ran_differently.empty();
}

bool EntryComparison::failed(bool exact) const { return regressed() || (exact && moved()); }

bool Comparison::failed(bool exact) const {
    return std::any_of(entries.begin(), entries.end(), [exact](const EntryComparison& e) { return e.failed(exact); });
}

namespace {
template <class Pairs>
const typename Pairs::value_type::second_type* find_value(const Pairs& pairs, const std::string& key) {
    for (const auto& [k, v] : pairs)
        if (k == key) return &v;
    return nullptr;
}

bool higher_is_better(const std::string& metric) {
    return metric.ends_with("_GBps") || metric.ends_with("_per_s") || metric == "mfu";
}

// Relative change, signed so that more is worse.
double worse_by(const std::string& metric, double before, double now) {
    if (before == now) return 0;
    const double delta = higher_is_better(metric) ? before - now : now - before;
    if (before == 0) return delta > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    return delta / std::abs(before);
}

EntryComparison compare_entry(const EntryResult& before, const EntryResult& now, double tolerance) {
    EntryComparison c{now.name, now.tolerance.value_or(tolerance)};
    c.hang = now.hang;
    c.hangs = now.hung && !before.hung;
    c.still_hangs = now.hung && before.hung;
    c.unhung = before.hung && !now.hung;
    for (const auto& [metric, value] : now.metrics) {
        const double* old = find_value(before.metrics, metric);
        if (!old) {
            c.metrics_added.push_back(metric);
            continue;
        }
        if (*old == value) continue;
        const double worse = worse_by(metric, *old, value);
        c.changes.push_back(MetricChange{metric, *old, value, worse, worse > c.tolerance});
    }
    // A size that hangs has no metrics: the hang says so already.
    for (const auto& [metric, value] : before.metrics)
        if (!now.hung && !find_value(now.metrics, metric)) c.metrics_gone.push_back(metric);
    for (const auto& [key, what] : now.ran)
        if (const std::string* old = find_value(before.ran, key); old && *old != what)
            c.ran_differently.push_back(fmt::format("{}: {} (was {})", key, what, *old));
    return c;
}
}  // namespace

Comparison compare_runs(const Baseline& before, const Baseline& now, double tolerance) {
    Comparison out;
    for (const EntryResult& e : now.entries) {
        const auto old = std::find_if(before.entries.begin(), before.entries.end(),
                                      [&](const EntryResult& b) { return b.name == e.name; });
        if (old != before.entries.end()) {
            out.entries.push_back(compare_entry(*old, e, tolerance));
            continue;
        }
        EntryComparison added{e.name, e.tolerance.value_or(tolerance)};
        added.added = true;
        // An entry new to the suite that hangs has no baseline saying it may.
        added.hangs = e.hung;
        added.hang = e.hang;
        out.entries.push_back(std::move(added));
    }
    for (const EntryResult& b : before.entries)
        if (std::none_of(now.entries.begin(), now.entries.end(), [&](const EntryResult& e) { return e.name == b.name; })) {
            EntryComparison gone{b.name, b.tolerance.value_or(tolerance)};
            gone.gone = true;
            out.entries.push_back(std::move(gone));
        }
    for (const auto& [path, hash] : now.inputs) {
        const std::string* old = find_value(before.inputs, path);
        if (!old) out.inputs_changed.push_back(path + ": new");
        else if (*old != hash) out.inputs_changed.push_back(fmt::format("{}: {} -> {}", path, *old, hash));
    }
    return out;
}

}  // namespace collsim
