#pragma once
// Runs a schedule's data movement without time, over any value type: a send
// delivers the sender's value of a chunk to the peer, a reduce combines what
// arrived into the receiver's value, a copy replaces it. The symbolic checker
// uses contribution counts as values; the numerics use combine trees.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "sim/exec/schedule.hpp"

namespace collsim {

// Orders: the steps in index order, or a random order that respects only the
// dependencies (seeded), or an order observed in a timed run.
std::vector<StepId> index_order(const Schedule& s);
std::vector<StepId> random_dependency_order(const Schedule& s, uint64_t seed);
// Empty when `order` runs every step once, each after its dependencies.
std::string check_order(const Schedule& s, const std::vector<StepId>& order);

// state[participant][chunk] (ranks, then the schedule's switches): nullopt
// where it holds nothing. `combine(mine, received)` returns the reduced value.
// A send carries the sender's value when it runs; the receive that names it
// (Step::from) consumes it once. Returns the first problem, or "".
template <class Value, class Combine>
std::string interpret(const Schedule& s, const std::vector<StepId>& order,
                      std::vector<std::vector<std::optional<Value>>>& state, Combine combine) {
    // What each send carried, until its receive takes it. Hashed; iterated
    // only for its smallest id, so its order cannot leak into results.
    std::unordered_map<StepId, Value> in_flight;
    for (StepId id : order) {
        const Step& step = s.steps[id];
        auto& values = state[static_cast<std::size_t>(step.rank)];
        auto& mine = values[static_cast<std::size_t>(step.chunk)];
        const auto& src = values[static_cast<std::size_t>(step.src_chunk)];
        switch (step.kind) {
            case StepKind::send:
                if (!mine)
                    return fmt::format("step {}: participant {} sends chunk {} it does not hold", id, step.rank,
                                       step.chunk);
                in_flight.insert_or_assign(id, *mine);
                break;
            case StepKind::local_copy:
            case StepKind::local_reduce:
                if (!src)
                    return fmt::format("step {}: participant {} reads chunk {} it does not hold", id, step.rank,
                                       step.src_chunk);
                mine = step.kind == StepKind::local_copy || !mine ? *src : combine(*mine, *src);
                break;
            case StepKind::reduce:
            case StepKind::copy: {
                auto found = in_flight.find(step.from);
                if (found == in_flight.end())
                    return fmt::format("step {}: participant {} takes chunk {} from participant {} that is not there "
                                       "(never sent, or taken twice)",
                                       id, step.rank, step.chunk, step.peer);
                Value got = std::move(found->second);
                in_flight.erase(found);
                if (step.kind == StepKind::copy || !src) mine = std::move(got);
                else mine = combine(*src, got);
                break;
            }
        }
    }
    if (!in_flight.empty()) {
        StepId first = UINT32_MAX;
        for (const auto& [id, value] : in_flight) first = std::min(first, id);
        return fmt::format("step {}: send from participant {} to {} is never received", first, s.steps[first].rank,
                           s.steps[first].peer);
    }
    return "";
}

}  // namespace collsim
