#include "sim/replay/import/imported.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/replay/trace_check.hpp"

namespace collsim {

std::string short_op_name(std::string_view name, uint64_t id) {
    name = name.substr(0, name.find('('));
    if (name.substr(0, 5) == "void ") name.remove_prefix(5);
    if (name.size() > 48) name = name.substr(0, 48);
    return fmt::format("{}#{}", name, id);
}

Trace assemble_trace(std::vector<ImportedProgram> ranks, const std::string& name, const std::string& source) {
    Trace t;
    t.name = name;
    t.source = source;
    const bool replicate = ranks.size() == 1 && ranks[0].world > 1;
    t.ranks = replicate ? ranks[0].world : static_cast<int>(ranks.size());
    if (replicate)
        t.notes.push_back(fmt::format("{}: only rank {}'s trace of {} ranks; every rank runs it", source, ranks[0].rank,
                                      ranks[0].world));
    std::sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    for (std::size_t i = 0; i < ranks.size() && !replicate; ++i)
        if (ranks[i].rank != static_cast<int>(i))
            throw InputError(SourceLocation{source, 0, 0}, "rank",
                             fmt::format("one trace per rank 0 to {}", ranks.size() - 1),
                             fmt::format("rank {} where rank {} belongs", ranks[i].rank, i));
    // Communicators: one per name, with every distinct group that some rank reports.
    std::map<std::string, std::vector<std::vector<int>>> groups;
    for (const auto& r : ranks)
        for (const ImportedComm& c : r.comms) {
            std::vector<int> g = c.group;
            if (g.empty() || replicate) {
                g.clear();
                for (int k = 0; k < t.ranks; ++k) g.push_back(k);
            }
            auto& list = groups[c.name];
            if (std::find(list.begin(), list.end(), g) == list.end()) list.push_back(std::move(g));
        }
    for (auto& [cname, list] : groups) {
        Communicator c;
        c.name = cname;
        c.groups = std::move(list);
        c.where = SourceLocation{source, 0, 0};
        try {
            index_communicator(c, t.ranks);
        } catch (const std::invalid_argument& e) {
            throw InputError(c.where, "process group '" + cname + "'", e.what(), "inconsistent groups");
        }
        t.communicators.push_back(std::move(c));
    }
    std::map<CollOp, int> unsimulated;
    for (auto& r : ranks) {
        for (std::string& n : r.notes) t.notes.push_back(std::move(n));
        for (TraceOp& op : r.program.ops) {
            op.stream = t.stream_index(r.streams[op.stream]);
            if (op.kind != OpKind::collective) continue;
            op.collective.comm = *t.find_communicator(r.comms[op.collective.comm].name);
            if (!simulable(op.collective) && op.collective.measured) {
                op.collective.duration = op.collective.measured;
                ++unsimulated[op.collective.op];
            }
        }
        auto program = std::make_shared<const Program>(std::move(r.program));
        if (replicate) t.programs.assign(static_cast<std::size_t>(t.ranks), program);
        else t.programs.push_back(std::move(program));
    }
    for (const auto& [op, count] : unsimulated)
        t.notes.push_back(fmt::format("{}: collsim has no {} algorithm yet; {} such calls keep their measured time",
                                      source, to_string(op), count));
    check_trace(t);
    return t;
}

}  // namespace collsim
