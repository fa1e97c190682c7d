#include "sim/replay/trace.hpp"

#include <stdexcept>

#include "algorithms/algorithm.hpp"

namespace collsim {

std::string_view to_string(OpKind k) {
    switch (k) {
        case OpKind::compute: return "compute";
        case OpKind::collective: return "collective";
        case OpKind::send: return "send";
        case OpKind::recv: return "recv";
    }
    return "?";
}

std::optional<uint32_t> Trace::find_communicator(std::string_view name) const {
    for (uint32_t i = 0; i < communicators.size(); ++i)
        if (communicators[i].name == name) return i;
    return std::nullopt;
}

uint32_t Trace::stream_index(const std::string& name) {
    for (uint32_t i = 0; i < streams.size(); ++i)
        if (streams[i] == name) return i;
    streams.push_back(name);
    return static_cast<uint32_t>(streams.size() - 1);
}

bool simulable(const CollectiveSpec& c) {
    if (c.duration || (c.op == CollOp::alltoall && !c.split.empty())) return true;
    for (const auto& a : algorithm_registry())
        if (a.supports(c.op)) return true;
    return false;
}

int p2p_peer(const Trace& t, int rank, const P2PSpec& p) {
    if (!p.comm) return p.peer;
    const Communicator& c = t.communicators[*p.comm];
    const int g = c.group_of[static_cast<std::size_t>(rank)];
    if (g < 0) return -1;
    const auto& group = c.groups[static_cast<std::size_t>(g)];
    const int at = c.position[static_cast<std::size_t>(rank)] + p.offset;
    if (at < 0 || at >= static_cast<int>(group.size())) return -1;
    return group[static_cast<std::size_t>(at)];
}

void index_communicator(Communicator& c, int ranks) {
    c.group_of.assign(static_cast<std::size_t>(ranks), -1);
    c.position.assign(static_cast<std::size_t>(ranks), -1);
    for (std::size_t g = 0; g < c.groups.size(); ++g) {
        for (std::size_t i = 0; i < c.groups[g].size(); ++i) {
            const int r = c.groups[g][i];
            if (r < 0 || r >= ranks)
                throw std::invalid_argument("ranks from 0 to " + std::to_string(ranks - 1) + ", found rank " +
                                            std::to_string(r));
            auto& slot = c.group_of[static_cast<std::size_t>(r)];
            if (slot >= 0)
                throw std::invalid_argument("each rank in at most one group, found rank " + std::to_string(r) +
                                            " twice");
            slot = static_cast<int>(g);
            c.position[static_cast<std::size_t>(r)] = static_cast<int>(i);
        }
    }
}

}  // namespace collsim
