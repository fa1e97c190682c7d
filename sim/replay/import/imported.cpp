#include "sim/replay/import/imported.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/core/limits.hpp"
#include "sim/replay/trace_check.hpp"

namespace collsim {

std::string short_op_name(std::string_view name, uint64_t id) {
    name = name.substr(0, name.find('('));
    if (name.substr(0, 5) == "void ") name.remove_prefix(5);
    if (name.size() > 48) name = name.substr(0, 48);
    return fmt::format("{}#{}", name, id);
}

void check_imported_ops(std::size_t ops, const std::string& file) {
    if (static_cast<int64_t>(ops) > limits::kMaxTraceOps)
        throw InputError(SourceLocation{file, 1, 1}, "ops",
                         fmt::format("at most {} ops in an imported trace, over all its rank files (the op limit)",
                                     limits::kMaxTraceOps),
                         fmt::format("{} ops up to the end of this file", ops));
}

namespace {
// "0, 1, 5" (at most ten, then "...").
std::string rank_list(const std::vector<ImportedProgram>& ranks) {
    std::string out;
    for (std::size_t i = 0; i < ranks.size() && i < 10; ++i) out += (i ? ", " : "") + std::to_string(ranks[i].rank);
    return ranks.size() > 10 ? out + ", ..." : out;
}
}  // namespace

Trace assemble_trace(std::vector<ImportedProgram> ranks, const std::string& name, const std::string& source,
                     bool ranks_present) {
    Trace t;
    t.name = name;
    t.source = source;
    std::sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    const int world = ranks.front().world;
    auto world_at = [&](const ImportedProgram& r) {
        return r.world_at.file.empty() ? SourceLocation{source, 0, 0} : r.world_at;
    };
    for (const ImportedProgram& r : ranks)
        if (r.world != world)
            throw InputError(world_at(r), "world_size",
                             fmt::format("the same world size in every file ({} in rank {}'s)", world, ranks.front().rank),
                             fmt::format("{} in rank {}'s", r.world, r.rank));
    // A world of 1 with several files: the format records none (Chakra without "ngpus").
    const bool world_known = world > 1 || ranks.size() == 1;
    const auto files = static_cast<int>(ranks.size());
    const bool partial = world_known && files > 1 && files != world;
    if (partial && (files > world || !ranks_present))
        throw InputError(world_at(ranks.front()), "world_size",
                         fmt::format("a trace for each of the job's {} ranks (its world_size){}", world,
                                     files > world ? "" : ", or --ranks-present to replicate the ranks given"),
                         fmt::format("{} files in {}, of ranks {}", files, source, rank_list(ranks)));
    const bool replicate = (files == 1 && world > 1) || partial;
    t.ranks = replicate ? world : files;
    if (files == 1 && replicate)
        t.notes.push_back(fmt::format("{}: only rank {}'s trace of {} ranks; every rank runs it", source, ranks[0].rank,
                                      ranks[0].world));
    if (partial)
        t.notes.push_back(fmt::format("{}: {} of the job's {} ranks' traces (ranks {}); as --ranks-present asks, each "
                                      "other rank runs the program of the nearest present rank below it (or the "
                                      "lowest), and every process group is taken as the whole job",
                                      source, files, world, rank_list(ranks)));
    for (std::size_t i = 1; i < ranks.size(); ++i)
        if (ranks[i].rank == ranks[i - 1].rank || (!replicate && ranks[i].rank != static_cast<int>(i)))
            throw InputError(SourceLocation{source, 0, 0}, "rank",
                             fmt::format("one trace per rank 0 to {}", t.ranks - 1),
                             fmt::format("rank {} where rank {} belongs", ranks[i].rank,
                                         ranks[i].rank == ranks[i - 1].rank ? ranks[i].rank + 1 : static_cast<int>(i)));
    if (!replicate && ranks.front().rank != 0)
        throw InputError(SourceLocation{source, 0, 0}, "rank", fmt::format("one trace per rank 0 to {}", t.ranks - 1),
                         fmt::format("rank {} where rank 0 belongs", ranks.front().rank));
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
    std::vector<std::shared_ptr<const Program>> programs;  // one per file, in rank order
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
        for (UnsizedCall& u : r.unsized) t.unsized.push_back(std::move(u));
        programs.push_back(std::make_shared<const Program>(std::move(r.program)));
    }
    // Rank k runs the program of the last present rank at or below it (the first where none is).
    for (int k = 0, p = 0; k < t.ranks; ++k) {
        while (p + 1 < files && ranks[static_cast<std::size_t>(p + 1)].rank <= k) ++p;
        t.programs.push_back(programs[static_cast<std::size_t>(p)]);
    }
    for (const auto& [op, count] : unsimulated)
        t.notes.push_back(fmt::format("{}: collsim has no {} algorithm yet; {} such calls keep their measured time",
                                      source, to_string(op), count));
    check_trace(t);
    return t;
}

}  // namespace collsim
