#include "sim/regress/suite.hpp"

#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/text_file.hpp"
#include "sim/core/yaml_fields.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/model/model_tier.hpp"
#include "sim/regress/tolerance.hpp"

namespace collsim {

std::vector<SuitePath> SuiteEntry::inputs() const {
    std::vector<SuitePath> out{topology};
    for (const SuitePath* p : {&algo_file, &trace, &faults, &calibration})
        if (!p->empty()) out.push_back(*p);
    // A card by name is one of collsim's own (models/), not the suite's input.
    if (plan_card.written.ends_with(".yaml")) out.push_back(plan_card);
    return out;
}

namespace {
namespace fs = std::filesystem;

std::string stem(const std::string& path) { return fs::path(path).stem().string(); }

class SuiteReader {
public:
    SuiteReader(const std::string& path) : f_(path), dir_(fs::path(path).parent_path()) {}

    Suite read(const YAML::Node& root) {
        Suite suite{SuitePath{f_.file(), f_.file()}, {}};
        if (!f_.expect_map(root, "suite")) f_.throw_if_errors();
        f_.check_keys(root, "suite", {"model", "calibration", "entries"});
        SuiteEntry defaults;
        defaults.model = tier(root, "suite").value_or("auto");
        defaults.calibration = path(root, "suite", "calibration");
        const YAML::Node list = root["entries"];
        if (!list) f_.error(root, "suite.entries", "a list of entries (required)", "no such field");
        else if (f_.expect_sequence(list, "suite.entries"))
            for (std::size_t i = 0; i < list.size(); ++i)
                if (auto e = entry(list[i], fmt::format("entries[{}]", i), defaults)) suite.entries.push_back(*e);
        std::map<std::string, int> lines;
        for (std::size_t i = 0; i < suite.entries.size(); ++i) {
            const SuiteEntry& e = suite.entries[i];
            const auto [it, fresh] = lines.emplace(e.name, e.where.line);
            if (!fresh)
                f_.add(InputError(e.where, fmt::format("entries[{}].name", i),
                                  fmt::format("a name no other entry has (give one with name:; line {} has it)",
                                              it->second),
                                  "'" + e.name + "'"));
        }
        f_.throw_if_errors();
        return suite;
    }

private:
    SuitePath path(const YAML::Node& map, const std::string& at, const char* key) {
        const std::optional<std::string> p = f_.string(map, at, key, false);
        if (!p) return {};
        return SuitePath{*p, fs::path(*p).is_absolute() ? *p : (dir_ / *p).lexically_normal().string()};
    }

    std::optional<std::string> tier(const YAML::Node& map, const std::string& at) {
        const std::optional<std::string> t = f_.string(map, at, "model", false);
        if (t && !model_tier_from(*t)) {
            f_.error(map["model"], at + ".model", std::string(model_tier_choices()), describe_node(map["model"]));
            return std::nullopt;
        }
        return t;
    }

    // `key` must be one of the names `known` takes, or auto.
    template <class Known>
    std::string choice(const YAML::Node& map, const std::string& at, const char* key, std::string expected,
                       Known&& known) {
        const std::optional<std::string> v = f_.string(map, at, key, false);
        if (!v || *v == "auto") return "auto";
        if (!known(*v)) f_.error(map[key], at + "." + key, std::move(expected) + ", or auto", describe_node(map[key]));
        return *v;
    }

    std::optional<SuiteEntry> entry(const YAML::Node& n, const std::string& at, const SuiteEntry& defaults) {
        if (!f_.expect_map(n, at)) return std::nullopt;
        f_.check_keys(n, at, {"name", "topology", "op", "sizes", "algo", "proto", "algo_file", "dtype", "ranks",
                              "trace", "steps", "faults", "timeout", "calibration", "model", "tolerance", "set", "seed", "plan"});
        SuiteEntry e = defaults;
        e.where = f_.at(n);
        e.topology = path(n, at, "topology");
        if (!n["topology"]) f_.error(n, at + ".topology", "a topology file (required)", "no such field");
        e.trace = path(n, at, "trace");
        e.replay = !e.trace.empty();
        if (const SuitePath c = path(n, at, "calibration"); !c.empty()) e.calibration = c;
        e.faults = path(n, at, "faults");
        e.model = tier(n, at).value_or(defaults.model);
        if (n["timeout"] && f_.time(n, at, "timeout", false)) e.timeout = n["timeout"].Scalar();
        if (auto r = f_.integer(n, at, "ranks", false)) {
            if (*r < 1) f_.error(n["ranks"], at + ".ranks", "1 or more (leave it out for every GPU)", describe_node(n["ranks"]));
            e.ranks = static_cast<int>(std::min<int64_t>(*r, 1 << 20));
        }
        if (auto seed = f_.integer(n, at, "seed", false)) {
            if (*seed < 0) f_.error(n["seed"], at + ".seed", "0 or more", describe_node(n["seed"]));
            e.seed = static_cast<uint64_t>(std::max<int64_t>(*seed, 0));
        }
        if (auto t = f_.string(n, at, "tolerance", false)) {
            e.tolerance = parse_tolerance(*t);
            if (!e.tolerance) f_.error(n["tolerance"], at + ".tolerance", "a percentage like 2% or 0.5%, or 0", describe_node(n["tolerance"]));
        }
        settings(n, at, e);
        if (n["plan"] && e.replay) f_.error(n["plan"], at + ".plan", "either trace or plan", describe_node(n["plan"]));
        if (e.replay) replay_fields(n, at, e);
        else if (n["plan"]) plan_fields(n, at, e);
        else coll_fields(n, at, e);
        if (auto name = f_.string(n, at, "name", false)) e.name = *name;
        else e.name = derived_name(e);
        return e;
    }

    // One PATH=VALUE or a list of them; what they change is checked when the topology loads.
    void settings(const YAML::Node& n, const std::string& at, SuiteEntry& e) {
        const YAML::Node set = n["set"];
        if (!set) return;
        std::vector<YAML::Node> items;
        if (set.IsSequence())
            for (std::size_t i = 0; i < set.size(); ++i) items.push_back(set[i]);
        else
            items.push_back(set);
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (items[i].IsScalar() && items[i].Scalar().find('=') != std::string::npos) {
                e.settings.push_back(items[i].Scalar());
                continue;
            }
            f_.error(items[i], set.IsSequence() ? fmt::format("{}.set[{}]", at, i) : at + ".set",
                     "PATH=VALUE, as --set takes it (fabrics.ib.oversubscription=2:1)", describe_node(items[i]));
        }
    }

    // plan's own options, by their suite names: numbers checked here, words
    // (recompute, dtype, ...) where plan checks them.
    void plan_fields(const YAML::Node& n, const std::string& at, SuiteEntry& e) {
        for (const char* key : {"op", "sizes", "algo", "proto", "algo_file", "dtype", "ranks", "steps", "faults", "timeout", "seed"})
            if (n[key]) f_.error(n[key], at + "." + key, "no " + std::string(key) + " in a plan entry", describe_node(n[key]));
        const YAML::Node p = n["plan"];
        const std::string field = at + ".plan";
        if (!f_.expect_map(p, field)) return;
        f_.check_keys(p, field, {"model", "gpus", "tp", "pp", "dp", "ep", "cp", "vpp", "zero", "micro_batch",
                                 "global_batch", "seq", "recompute", "dtype", "overlap", "gpu", "sp"});
        e.plan_card = path(p, field, "model");
        if (!p["model"]) f_.error(p, field + ".model", "a model card: a name in models/ or a YAML file (required)", "no such field");
        // A name, not a file: as plan looks it up.
        if (!e.plan_card.written.ends_with(".yaml")) e.plan_card.resolved = e.plan_card.written;
        for (const auto& kv : p) {
            const std::string key = kv.first.as<std::string>();
            if (key == "model") continue;
            const bool word = key == "recompute" || key == "dtype" || key == "overlap" || key == "gpu" || key == "sp";
            if (word ? f_.string(p, field, key.c_str(), false).has_value() : check_count(p, field, key))
                e.plan.emplace_back(key, kv.second.Scalar());
        }
    }

    bool check_count(const YAML::Node& map, const std::string& at, const std::string& key) {
        const std::optional<int64_t> v = f_.integer(map, at, key.c_str(), false);
        if (!v) return false;
        if (*v >= 0 && *v <= (int64_t{1} << 30)) return true;
        f_.error(map[key], at + "." + key, "0 to 2^30", describe_node(map[key]));
        return false;
    }

    void replay_fields(const YAML::Node& n, const std::string& at, SuiteEntry& e) {
        for (const char* key : {"op", "sizes", "algo_file", "dtype", "ranks"})
            if (n[key]) f_.error(n[key], at + "." + key, "no " + std::string(key) + " in a replay (the trace says)", describe_node(n[key]));
        if (auto s = f_.integer(n, at, "steps", false)) {
            if (*s < 1 || *s > 10000) f_.error(n["steps"], at + ".steps", "1 to 10000", describe_node(n["steps"]));
            e.steps = static_cast<int>(std::clamp<int64_t>(*s, 1, 10000));
        }
        e.algo = choice(n, at, "algo", algorithm_choices(), [](const std::string& a) { return find_algorithm(a) != nullptr; });
        e.proto = choice(n, at, "proto", std::string(proto_choices()), [](const std::string& p) { return proto_kind_from(p).has_value(); });
    }

    void coll_fields(const YAML::Node& n, const std::string& at, SuiteEntry& e) {
        if (n["steps"]) f_.error(n["steps"], at + ".steps", "steps only with a trace", describe_node(n["steps"]));
        e.algo_file = path(n, at, "algo_file");
        if (auto op = f_.string(n, at, "op", e.algo_file.empty())) {
            e.op = *op;
            if (!coll_op_from(*op)) f_.error(n["op"], at + ".op", std::string(coll_op_choices()), describe_node(n["op"]));
        }
        if (!e.algo_file.empty() && n["algo"])
            f_.error(n["algo"], at + ".algo", "either algo or algo_file", describe_node(n["algo"]));
        e.algo = choice(n, at, "algo", algorithm_choices(), [](const std::string& a) { return find_algorithm(a) != nullptr; });
        e.proto = choice(n, at, "proto", std::string(proto_choices()), [](const std::string& p) { return proto_kind_from(p).has_value(); });
        if (auto d = f_.string(n, at, "dtype", false)) {
            e.dtype = *d;
            if (!dtype_from(*d)) f_.error(n["dtype"], at + ".dtype", std::string(dtype_choices()), describe_node(n["dtype"]));
        }
        const YAML::Node sizes = n["sizes"];
        if (!sizes) f_.error(n, at + ".sizes", "a list of sizes like [8, 64K, 1M] (required)", "no such field");
        else if (f_.expect_sequence(sizes, at + ".sizes"))
            for (std::size_t i = 0; i < sizes.size(); ++i) {
                const std::string field = fmt::format("{}.sizes[{}]", at, i);
                try {
                    if (!sizes[i].IsScalar() || parse_size(sizes[i].Scalar()).count() < 1) throw std::invalid_argument("");
                    e.sizes.push_back(sizes[i].Scalar());
                } catch (const std::invalid_argument&) {
                    f_.error(sizes[i], field, "a size of 1 byte or more like 8, 64K, 1MiB or 1G", describe_node(sizes[i]));
                }
            }
        if (sizes && sizes.IsSequence() && sizes.size() == 0) f_.error(sizes, at + ".sizes", "at least one size", "an empty list");
    }

    static std::string derived_name(const SuiteEntry& e) {
        std::string where = stem(e.topology.written);
        if (!e.settings.empty()) where += fmt::format("[{}]", fmt::join(e.settings, ","));
        if (e.ranks > 0) where += fmt::format(":{}", e.ranks);
        if (e.replay) return fmt::format("{}/replay/{}{}", where, stem(e.trace.written), e.steps > 1 ? fmt::format("/x{}", e.steps) : "");
        if (e.is_plan()) {
            std::vector<std::string> options;
            for (const auto& [k, v] : e.plan) options.push_back(k + "=" + v);
            return fmt::format("{}/plan/{}/{}", where, stem(e.plan_card.written), fmt::join(options, ","));
        }
        const std::string algo = e.algo_file.empty() ? e.algo : "msccl:" + stem(e.algo_file.written);
        return fmt::format("{}/{}{}/{}", where, e.op.empty() ? "" : e.op + "/", algo, e.proto);
    }

    YamlFields f_;
    fs::path dir_;
};
}  // namespace

Suite parse_suite(const std::string& yaml_text, const std::string& path) {
    return SuiteReader(path).read(load_yaml_text(yaml_text, path));
}

Suite load_suite(const std::string& path) { return parse_suite(read_text_file(path), path); }

}  // namespace collsim
