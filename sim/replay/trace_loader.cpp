#include "sim/replay/trace_loader.hpp"

#include <map>

#include <fmt/format.h>

#include "sim/core/limits.hpp"
#include "sim/core/text_file.hpp"
#include "sim/replay/communicator_rules.hpp"
#include "sim/replay/op_reader.hpp"
#include "sim/replay/trace_check.hpp"
#include "sim/replay/trace_fields.hpp"

namespace collsim {

namespace {

struct ProgramSource {
    std::shared_ptr<Program> program;
    std::vector<YAML::Node> op_nodes;
    std::vector<std::vector<YAML::Node>> after_nodes;
};

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

std::optional<ProgramSource> read_program(YamlFields& f, const YAML::Node& ops, const std::string& path, Trace& t) {
    if (!f.expect_sequence(ops, path)) return std::nullopt;
    ProgramSource src;
    src.program = std::make_shared<Program>();
    std::map<std::string, OpIndex> by_name;
    bool ok = true;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::string op_path = fmt::format("{}[{}]", path, i);
        auto draft = read_op(f, ops[i], op_path, t);
        if (!draft) {
            ok = false;
            continue;
        }
        const OpIndex index = static_cast<OpIndex>(src.program->ops.size());
        if (!by_name.emplace(draft->op.name, index).second) {
            f.error(ops[i]["name"], op_path + ".name", "a name not used by another op of this program",
                    "'" + draft->op.name + "' again");
            ok = false;
        }
        src.program->ops.push_back(std::move(draft->op));
        src.op_nodes.push_back(ops[i]);
        src.after_nodes.push_back(std::move(draft->after));
    }
    if (!ok) return std::nullopt;
    for (std::size_t i = 0; i < src.program->ops.size(); ++i) {
        for (const YAML::Node& a : src.after_nodes[i]) {
            auto it = by_name.find(a.Scalar());
            if (it == by_name.end() || it->second == i) {
                f.error(a, fmt::format("{}[{}].after", path, i), "the name of another op of this program",
                        describe_node(a));
                ok = false;
                continue;
            }
            src.program->ops[i].after.push_back(it->second);
        }
    }
    if (!ok) return std::nullopt;
    return src;
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

Trace parse_trace(const std::string& text, const std::string& name) {
    const YAML::Node root = load_yaml_text(text, name);
    YamlFields f(name);
    Trace t;
    t.source = name;
    if (!f.expect_map(root, "trace")) f.throw_if_errors();
    f.check_keys(root, "trace", {"name", "description", "generated_by", "ranks", "gpu", "communicators", "program",
                                 "programs", "overrides"});
    t.name = f.string(root, "trace", "name", false).value_or(name);
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

    std::vector<std::unique_ptr<ProgramSource>> owned;
    std::vector<ProgramSource*> source_of(static_cast<std::size_t>(t.ranks), nullptr);
    t.programs.resize(static_cast<std::size_t>(t.ranks));
    auto assign = [&](std::optional<ProgramSource> src, const std::vector<int>& ranks) {
        if (!src) return;
        owned.push_back(std::make_unique<ProgramSource>(std::move(*src)));
        for (int r : ranks) {
            source_of[static_cast<std::size_t>(r)] = owned.back().get();
            t.programs[static_cast<std::size_t>(r)] = owned.back()->program;
        }
    };
    if (root["program"]) {
        std::vector<int> all(static_cast<std::size_t>(t.ranks));
        for (int r = 0; r < t.ranks; ++r) all[static_cast<std::size_t>(r)] = r;
        assign(read_program(f, root["program"], "program", t), all);
    }
    if (const YAML::Node programs = root["programs"]; programs && f.expect_sequence(programs, "programs")) {
        for (std::size_t i = 0; i < programs.size(); ++i) {
            const std::string path = fmt::format("programs[{}]", i);
            if (!f.expect_map(programs[i], path)) continue;
            f.check_keys(programs[i], path, {"ranks", "ops"});
            if (!programs[i]["ranks"] || !programs[i]["ops"]) {
                f.error(programs[i], path, "ranks and ops", "a program without them");
                continue;
            }
            auto ranks = read_rank_set(f, programs[i]["ranks"], path + ".ranks", t.ranks);
            if (ranks) assign(read_program(f, programs[i]["ops"], path + ".ops", t), *ranks);
        }
    }
    if (!f.ok()) f.throw_if_errors();
    for (int r = 0; r < t.ranks; ++r) {
        if (!source_of[static_cast<std::size_t>(r)]) {
            f.error(root, "program", fmt::format("a program for every rank (program, or programs covering rank {})", r),
                    fmt::format("none for rank {}", r));
            f.throw_if_errors();
        }
    }
    if (root["overrides"]) apply_overrides(f, root["overrides"], t, source_of, owned);
    f.throw_if_errors();
    check_trace(t);
    return t;
}

Trace load_trace(const std::string& path) { return parse_trace(read_text_file(path), path); }

}  // namespace collsim
