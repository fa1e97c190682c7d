#include "sim/replay/trace.hpp"

#include <mutex>
#include <stdexcept>
#include <unordered_set>

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

namespace {
// File names of op places, each held once for the whole run; a set's nodes
// stay where they are, so the pointers do too. Ops of one file come one
// after another: the last name is checked first, without the lock.
const std::string* intern_file(const std::string& name) {
    thread_local const std::string* last = nullptr;
    if (last && *last == name) return last;
    static std::mutex lock;
    static std::unordered_set<std::string> names;
    const std::lock_guard<std::mutex> hold(lock);
    last = &*names.insert(name).first;
    return last;
}

const std::string kNoFile;
}  // namespace

OpPlace::OpPlace(const SourceLocation& w)
    : line(w.line), column(w.column), byte(static_cast<int32_t>(w.byte)), file_(intern_file(w.file)) {}

OpPlace::operator SourceLocation() const { return SourceLocation{file(), line, column, byte}; }

const std::string& OpPlace::file() const { return file_ ? *file_ : kNoFile; }

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
