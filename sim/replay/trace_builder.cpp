#include "sim/replay/trace_builder.hpp"

#include <fmt/format.h>

#include "sim/core/limits.hpp"
#include "sim/replay/communicator_rules.hpp"
#include "sim/replay/trace_check.hpp"
#include "sim/replay/trace_fields.hpp"

namespace collsim {

namespace {

void read_gpu(YamlFields& f, const YAML::Node& n, ComputeDefaults& c) {
    const std::string path = "gpu";
    if (!f.expect_map(n, path)) return;
    f.check_keys(n, path, {"card", "flops_efficiency", "memory_efficiency", "peak", "memory_bandwidth"});
    if (auto v = read_fraction(f, n, path, "flops_efficiency")) c.flops_efficiency = *v;
    if (auto v = read_fraction(f, n, path, "memory_efficiency")) c.memory_efficiency = *v;
    const auto card = f.string(n, path, "card", false);
    if (!n["peak"]) {
        if (n["memory_bandwidth"])
            f.error(n["memory_bandwidth"], path + ".memory_bandwidth", "peak FLOP rates alongside it (a custom card)",
                    "memory_bandwidth alone");
        if (card && !find_gpu_card(*card))
            f.error(n["card"], path + ".card", gpu_card_choices() + ", or a custom card with peak and memory_bandwidth",
                    describe_node(n["card"]));
        c.card = card;
        return;
    }
    GpuCard custom;
    custom.name = card.value_or("custom");
    custom.source = "given in the trace";
    const YAML::Node peak = n["peak"];
    if (f.expect_map(peak, path + ".peak")) {
        for (const auto& kv : peak) {
            const std::string key = kv.first.as<std::string>();
            const auto type = flop_type_from(key);
            if (!type) {
                f.error(kv.first, path + ".peak." + key, std::string(flop_type_choices()), "'" + key + "'");
                continue;
            }
            if (auto rate = read_flop_rate(f, peak, path + ".peak", key.c_str()))
                custom.peak_flops[static_cast<std::size_t>(*type)] = *rate;
        }
    }
    if (auto bw = f.bandwidth(n, path, "memory_bandwidth", true)) custom.memory_bandwidth = *bw;
    c.custom = custom;
}

// Keys that replace others when an override sets them: a duration replaces the
// roofline inputs and the other way round; a split replaces bytes.
bool replaced_by(const std::string& key, const YAML::Node& ov) {
    if ((key == "flops" || key == "bytes") && ov["duration"]) return true;
    if (key == "duration" && (ov["flops"] || ov["bytes"])) return true;
    if (key == "bytes" && ov["split"]) return true;
    if (key == "split" && ov["bytes"]) return true;
    return ov[key].IsDefined();
}

void apply_overrides(YamlFields& f, const YAML::Node& list, Trace& t, std::vector<ProgramSource*>& source_of,
                     std::vector<std::unique_ptr<ProgramSource>>& owned) {
    if (!f.expect_sequence(list, "overrides")) return;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node ov = list[i];
        const std::string path = fmt::format("overrides[{}]", i);
        if (!f.expect_map(ov, path)) continue;
        f.check_keys(ov, path, {"ranks", "op", "duration", "flops", "bytes", "dtype", "flops_efficiency",
                                "memory_efficiency", "split", "root"});
        const auto op_name = f.string(ov, path, "op", true);
        if (!ov["ranks"]) f.error(ov, path + ".ranks", "the ranks it applies to (required)", "no such field");
        const auto ranks = ov["ranks"] ? read_rank_set(f, ov["ranks"], path + ".ranks", t.ranks) : std::nullopt;
        if (!op_name || !ranks) continue;
        for (int r : *ranks) {
            ProgramSource*& src = source_of[static_cast<std::size_t>(r)];
            if (!src) continue;  // reported as a rank without a program
            OpIndex index = 0;
            while (index < src->program->ops.size() && src->program->ops[index].name != *op_name) ++index;
            if (index == src->program->ops.size()) {
                f.error(ov["op"], path + ".op", fmt::format("the name of an op in rank {}'s program", r),
                        describe_node(ov["op"]));
                break;
            }
            // Copy on write: a rank whose program other ranks share gets its own (the
            // source holds one reference and each rank using the program one).
            if (src->program.use_count() > 2) {
                auto copy = std::make_unique<ProgramSource>(*src);
                copy->program = std::make_shared<Program>(*src->program);
                src = copy.get();
                owned.push_back(std::move(copy));
                t.programs[static_cast<std::size_t>(r)] = src->program;
            }
            const YAML::Node original = src->op_nodes[index];
            YAML::Node merged(YAML::NodeType::Map);
            for (const auto& kv : original)
                if (!replaced_by(kv.first.as<std::string>(), ov)) merged[kv.first.as<std::string>()] = kv.second;
            for (const auto& kv : ov) {
                const std::string key = kv.first.as<std::string>();
                if (key != "ranks" && key != "op") merged[key] = kv.second;
            }
            auto draft = read_op(f, merged, path, t);
            if (!draft) break;
            TraceOp& op = src->program->ops[index];
            draft->op.after = op.after;
            draft->op.where = op.where;
            op = std::move(draft->op);
            src->op_nodes[index] = merged;
        }
    }
}

}  // namespace

ProgramReader::ProgramReader(std::string path, bool keep_nodes)
    : path_(std::move(path)), keep_nodes_(keep_nodes), src_{std::make_shared<Program>(), {}} {}

void ProgramReader::add(YamlFields& f, const YAML::Node& node, Trace& t) {
    const std::string op_path = fmt::format("{}[{}]", path_, after_.size());
    auto draft = read_op(f, node, op_path, t);
    if (!draft) {
        ok_ = false;
        after_.emplace_back();
        return;
    }
    const OpIndex index = static_cast<OpIndex>(src_.program->ops.size());
    if (!by_name_.emplace(draft->op.name, index).second) {
        f.error(node["name"], op_path + ".name", "a name not used by another op of this program",
                "'" + draft->op.name + "' again");
        ok_ = false;
    }
    src_.program->ops.push_back(std::move(draft->op));
    if (keep_nodes_) src_.op_nodes.push_back(node);
    after_.push_back(std::move(draft->after));
}

std::optional<ProgramSource> ProgramReader::finish(YamlFields& f) {
    if (!ok_) return std::nullopt;
    for (std::size_t i = 0; i < src_.program->ops.size(); ++i) {
        for (const AfterName& a : after_[i]) {
            auto it = by_name_.find(a.name);
            if (it == by_name_.end() || it->second == i) {
                f.add(InputError(a.where, fmt::format("{}[{}].after", path_, i), "the name of another op of this program",
                                 quote_input(a.name)));
                ok_ = false;
                continue;
            }
            src_.program->ops[i].after.push_back(it->second);
        }
    }
    if (!ok_) return std::nullopt;
    return std::move(src_);
}

std::optional<ProgramSource> read_program_node(YamlFields& f, const YAML::Node& ops, ProgramReader reader, Trace& t) {
    if (!f.expect_sequence(ops, reader.path())) return std::nullopt;
    for (std::size_t i = 0; i < ops.size(); ++i) reader.add(f, ops[i], t);
    return reader.finish(f);
}

TraceBuilder::TraceBuilder(const std::string& name) { t_.source = name; }

void TraceBuilder::check_keys(YamlFields& f, const YAML::Node& root) {
    f.check_keys(root, "trace", {"name", "description", "generated_by", "ranks", "gpu", "communicators", "program",
                                 "programs", "overrides"});
}

void TraceBuilder::read_header(YamlFields& f, const YAML::Node& root) {
    Trace& t = t_;
    t.name = f.string(root, "trace", "name", false).value_or(t.source);
    const auto ranks = f.integer(root, "trace", "ranks", true);
    if (ranks && (*ranks < 1 || *ranks > limits::kMaxTraceRanks))
        f.error(root["ranks"], "trace.ranks", fmt::format("a rank count from 1 to {} (the rank limit)", limits::kMaxTraceRanks),
                describe_node(root["ranks"]));
    if (!ranks || !f.ok()) f.throw_if_errors();
    t.ranks = static_cast<int>(*ranks);
    t.ranks_where = f.at(root["ranks"]);
    if (root["gpu"]) read_gpu(f, root["gpu"], t.compute);

    if (const YAML::Node comms = root["communicators"]; comms && f.expect_map(comms, "communicators")) {
        for (const auto& kv : comms) {
            const std::string cname = kv.first.as<std::string>();
            if (auto c = read_communicator(f, kv.second, "communicators." + cname, cname, t.ranks))
                t.communicators.push_back(std::move(*c));
        }
    }
    if (!f.ok()) f.throw_if_errors();
    ranks_of_.assign(static_cast<std::size_t>(t.ranks), nullptr);
    t.programs.resize(static_cast<std::size_t>(t.ranks));
}

void TraceBuilder::assign(std::optional<ProgramSource> src, const std::vector<int>& ranks) {
    if (!src) return;
    owned_.push_back(std::make_unique<ProgramSource>(std::move(*src)));
    for (int r : ranks) {
        ranks_of_[static_cast<std::size_t>(r)] = owned_.back().get();
        t_.programs[static_cast<std::size_t>(r)] = owned_.back()->program;
    }
}

void TraceBuilder::assign_all(std::optional<ProgramSource> src) {
    std::vector<int> all(static_cast<std::size_t>(t_.ranks));
    for (int r = 0; r < t_.ranks; ++r) all[static_cast<std::size_t>(r)] = r;
    assign(std::move(src), all);
}

std::optional<std::vector<int>> TraceBuilder::entry_ranks(YamlFields& f, const YAML::Node& entry,
                                                          const std::string& path, bool has_ops) {
    if (!f.expect_map(entry, path)) return std::nullopt;
    f.check_keys(entry, path, {"ranks", "ops"});
    if (!entry["ranks"] || !has_ops) {
        f.error(entry, path, "ranks and ops", "a program without them");
        return std::nullopt;
    }
    return read_rank_set(f, entry["ranks"], path + ".ranks", t_.ranks);
}

void TraceBuilder::read_programs(YamlFields& f, const YAML::Node& root) {
    if (root["program"]) assign_all(read_program_node(f, root["program"], ProgramReader("program", true), t_));
    if (const YAML::Node programs = root["programs"]; programs && f.expect_sequence(programs, "programs")) {
        for (std::size_t i = 0; i < programs.size(); ++i) {
            const std::string path = fmt::format("programs[{}]", i);
            const YAML::Node entry = programs[i];
            const bool has_ops = entry.IsMap() && entry["ops"];
            if (auto ranks = entry_ranks(f, entry, path, has_ops))
                assign(read_program_node(f, entry["ops"], ProgramReader(path + ".ops", true), t_), *ranks);
        }
    }
}

Trace TraceBuilder::finish(YamlFields& f, const YAML::Node& root) {
    if (!f.ok()) f.throw_if_errors();
    for (int r = 0; r < t_.ranks; ++r) {
        if (!ranks_of_[static_cast<std::size_t>(r)]) {
            f.error(root, "program", fmt::format("a program for every rank (program, or programs covering rank {})", r),
                    fmt::format("none for rank {}", r));
            f.throw_if_errors();
        }
    }
    if (root["overrides"]) apply_overrides(f, root["overrides"], t_, ranks_of_, owned_);
    f.throw_if_errors();
    check_trace(t_);
    return std::move(t_);
}

}  // namespace collsim
