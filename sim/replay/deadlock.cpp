#include "sim/replay/deadlock.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace collsim {

void throw_deadlock(const ReplayHang& h, const Trace& trace, std::size_t never_started) {
    constexpr std::size_t kMostErrors = 10, kMostRanks = 8;
    std::vector<InputError> errors;
    const std::string at = format_time(h.at);
    for (const StuckCommunication& s : h.stuck) {
        if (errors.size() >= kMostErrors) break;
        const std::string where = fmt::format("op '{}' on rank {}, step {}", s.name, s.waiting.back(), s.step);
        if (s.kind == OpKind::collective) {
            std::vector<int> shown(s.missing.begin(),
                                   s.missing.begin() + static_cast<std::ptrdiff_t>(std::min(kMostRanks, s.missing.size())));
            errors.emplace_back(s.where, where, "every rank of its group to reach it",
                                fmt::format("ranks {}{} never did (the replay stopped at {})", fmt::join(shown, ", "),
                                            s.missing.size() > kMostRanks ? ", ..." : "", at));
        } else {
            errors.emplace_back(s.where, where,
                                fmt::format("its {} on rank {}", s.kind == OpKind::send ? "receive" : "send",
                                            s.missing.front()),
                                fmt::format("none reached (the replay stopped at {})", at));
        }
    }
    if (errors.empty())
        errors.emplace_back(SourceLocation{trace.source, 0, 0}, "trace", "every op to finish",
                            fmt::format("{} ops that never started", never_started));
    throw InputErrors(std::move(errors));
}

}  // namespace collsim
