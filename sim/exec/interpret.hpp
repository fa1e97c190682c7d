#pragma once
// Runs a schedule's data movement without time, over any value type: a send
// delivers the sender's value of a chunk to the peer, a reduce combines what
// arrived into the receiver's value, a copy replaces it. The symbolic checker
// uses contribution counts as values; the numerics use combine trees.
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

// state[rank][chunk]: nullopt where the rank holds nothing. `combine(mine,
// received)` returns the reduced value. Returns the first problem, or "".
template <class Value, class Combine>
std::string interpret(const Schedule& s, const std::vector<StepId>& order,
                      std::vector<std::vector<std::optional<Value>>>& state, Combine combine) {
    // Data in flight to (dst, src, chunk), oldest first. Hashed, never iterated,
    // so its order cannot leak into results; usually one value per key.
    std::unordered_map<uint64_t, std::vector<Value>> inbox;
    auto key = [](int dst, int src, int chunk) {
        return (static_cast<uint64_t>(dst) << 44) ^ (static_cast<uint64_t>(src) << 24) ^ static_cast<uint64_t>(chunk);
    };
    for (StepId id : order) {
        const Step& step = s.steps[id];
        auto& mine = state[static_cast<std::size_t>(step.rank)][static_cast<std::size_t>(step.chunk)];
        if (step.kind == StepKind::send) {
            if (!mine) return fmt::format("step {}: rank {} sends chunk {} it does not hold", id, step.rank, step.chunk);
            inbox[key(step.peer, step.rank, step.chunk)].push_back(*mine);
            continue;
        }
        auto found = inbox.find(key(step.rank, step.peer, step.chunk));
        if (found == inbox.end() || found->second.empty())
            return fmt::format("step {}: rank {} consumes chunk {} from rank {} before it arrives", id, step.rank,
                               step.chunk, step.peer);
        Value got = std::move(found->second.front());
        found->second.erase(found->second.begin());
        if (found->second.empty()) inbox.erase(found);
        mine = step.kind == StepKind::copy || !mine ? std::move(got) : combine(*mine, got);
    }
    return "";
}

}  // namespace collsim
