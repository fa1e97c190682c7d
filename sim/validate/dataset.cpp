#include "sim/validate/dataset.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "algorithms/algorithm.hpp"
#include "sim/core/error.hpp"
#include "sim/core/yaml_fields.hpp"
#include "sim/exec/protocol.hpp"

namespace collsim {

namespace {

// What the run forced through NCCL_* settings the log records, merged with
// what the manifest or the command line declares (which must agree).
void follow_nccl_env(Dataset& d, const SourceLocation& declared_at) {
    NcclSelection env = nccl_selection(d.measurement.nccl_env, d.op);
    // AllToAll and SendRecv are point-to-point sends in NCCL: its tuner's algorithms do not apply.
    if (is_point_to_point(d.op)) {
        env.algo = "auto";
        env.disabled.clear();
        env.enabled.clear();
    }
    auto choose = [&](std::string& declared, const std::string& logged, const char* field, const char* variable) {
        if (logged == "auto") return;
        if (declared != "auto" && declared != logged)
            throw InputError(declared_at, field, fmt::format("{}, as {}'s {} says", logged, d.measurement.file, variable),
                             declared);
        declared = logged;
    };
    choose(d.algo, env.algo, "algo", "NCCL_ALGO");
    choose(d.proto, env.proto, "proto", "NCCL_PROTO");
    d.protos = env.protos;
    for (const auto& n : env.disabled) add_once(d.disabled, n);
    for (const auto& n : env.enabled) add_once(d.enabled, n);
    for (const auto& n : d.enabled)
        if (std::find(d.disabled.begin(), d.disabled.end(), n) != d.disabled.end())
            throw InputError(declared_at, "enable",
                             fmt::format("an algorithm the run did not also turn off ({}'s NCCL settings)",
                                         d.measurement.file),
                             n);
}

// Fixes the collective and the rank count of a run and checks them against
// the log's own figures and the topology's GPUs.
void settle(Dataset& d, const Topology& topo, std::optional<CollOp> op, std::optional<int> declared_ranks,
            std::optional<int> declared_gpus_per_thread, const SourceLocation& declared_at) {
    const Measurement& m = d.measurement;
    const SourceLocation log_at{m.file, 0, 0};
    if (!op) op = m.op;
    if (!op)
        throw InputError(log_at, "collective",
                         "a log that names its collective ('# Collective test starting: ...', a '# collective:' "
                         "header or the file name) or an --op",
                         "none");
    d.op = *op;
    const int gpus = static_cast<int>(topo.gpus().size());
    const std::optional<int> logged = m.ranks > 0 ? std::optional<int>(m.ranks) : ranks_from_bandwidths(m, d.op);
    if (declared_ranks && logged && *declared_ranks != *logged)
        throw InputError(declared_at, "ranks", fmt::format("the {} ranks that {} lists", *logged, m.file),
                         std::to_string(*declared_ranks));
    d.ranks = declared_ranks ? *declared_ranks : logged.value_or(gpus);
    if (d.ranks != gpus)
        throw InputError(declared_ranks ? declared_at : log_at, "ranks",
                         fmt::format("as many ranks as topology '{}' ({}) has GPUs: {}", topo.name(), d.topology_path,
                                     gpus),
                         fmt::format("{} ranks in {}", d.ranks, m.file));
    check_measurement(m, d.op, d.ranks);
    if (!declared_gpus_per_thread && m.gpus_per_thread_conflict)
        throw InputError(*m.gpus_per_thread_conflict, "collective",
                         fmt::format("one GPUs-per-thread figure (-g {} before), or gpus_per_thread: in datasets.yaml "
                                     "or --gpus-per-thread to say which",
                                     *m.gpus_per_thread),
                         "another");
    // A declared figure settles a header that gave two; it must match one that gave one.
    const int said = m.gpus_per_thread_conflict ? 0 : m.gpus_per_thread.value_or(0);  // 0: the log does not say
    if (declared_gpus_per_thread && said > 0 && *declared_gpus_per_thread != said)
        throw InputError(declared_at, "gpus_per_thread", fmt::format("-g {}, as {} says", said, m.file),
                         std::to_string(*declared_gpus_per_thread));
    d.gpus_per_thread = declared_gpus_per_thread.value_or(said > 0 ? said : 1);
    follow_nccl_env(d, declared_at);
    if (d.gpus_per_thread > d.ranks)
        throw InputError(declared_gpus_per_thread ? declared_at : log_at, "gpus_per_thread",
                         fmt::format("at most the run's {} ranks", d.ranks), std::to_string(d.gpus_per_thread));
    // A raw log's ranks name their hosts: a 16-rank run on two is multi-node.
    if (m.hosts > 0) d.nodes = m.hosts;
    for (const auto& [key, value] : m.header)
        if (key == "nodes") d.nodes = std::max(1, std::atoi(value.c_str()));  // "2", "most likely 4 (...)" -> leading number
}

std::string resolve(const std::string& dir, const std::string& path) {
    return std::filesystem::path(path).is_absolute() ? path : (std::filesystem::path(dir) / path).string();
}

}  // namespace

std::vector<Dataset> load_datasets(const std::string& where, TopologyCache& topologies) {
    const bool folder = std::filesystem::is_directory(where);
    const std::string manifest = folder ? (std::filesystem::path(where) / "datasets.yaml").string() : where;
    const std::string dir = std::filesystem::path(manifest).parent_path().string();
    const YAML::Node root = load_yaml_file(manifest);
    YamlFields f(manifest);
    struct Entry {
        Dataset d;
        std::optional<int> ranks, gpus_per_thread;
        SourceLocation at;
    };
    std::vector<Entry> entries;
    if (f.expect_map(root, "manifest")) {
        f.check_keys(root, "manifest", {"datasets"});
        const YAML::Node list = root["datasets"];
        if (!list) f.error(root, "manifest.datasets", "a list of datasets (required)", "no such field");
        else if (f.expect_sequence(list, "manifest.datasets")) {
            for (std::size_t i = 0; i < list.size(); ++i) {
                const std::string path = fmt::format("manifest.datasets[{}]", i);
                const YAML::Node n = list[i];
                if (!f.expect_map(n, path)) continue;
                f.check_keys(n, path, {"file", "topology", "class", "algo", "proto", "ranks", "gpus_per_thread", "disable",
                                        "enable"});
                Entry e;
                e.at = f.at(n);
                auto file = f.string(n, path, "file", true);
                auto topology = f.string(n, path, "topology", true);
                auto cls = f.string(n, path, "class", false);
                auto algo = f.string(n, path, "algo", false);
                auto proto = f.string(n, path, "proto", false);
                auto ranks = f.integer(n, path, "ranks", false);
                auto per_thread = f.integer(n, path, "gpus_per_thread", false);
                if (proto && *proto != "auto" && !proto_kind_from(*proto))
                    f.error(n["proto"], path + ".proto", std::string(proto_choices()) + " or auto", "'" + *proto + "'");
                if (ranks && *ranks < 1) f.error(n["ranks"], path + ".ranks", "a rank count of 1 or more", std::to_string(*ranks));
                if (per_thread && *per_thread < 1)
                    f.error(n["gpus_per_thread"], path + ".gpus_per_thread", "1 or more GPUs per thread",
                            std::to_string(*per_thread));
                // disable: any algorithm; enable: those NCCL leaves off by default.
                auto names = [&](const char* key, bool off_by_default_only, std::vector<std::string>& into) {
                    const YAML::Node list = n[key];
                    if (!list || !f.expect_sequence(list, path + "." + key)) return;
                    for (std::size_t k = 0; k < list.size(); ++k) {
                        const std::string at = fmt::format("{}.{}[{}]", path, key, k);
                        const std::string name = list[k].IsScalar() ? list[k].as<std::string>() : std::string("a non-name");
                        const AlgorithmInfo* a = find_algorithm(name);
                        if (!a) f.error(list[k], at, algorithm_choices(), "'" + name + "'");
                        else if (off_by_default_only && a->enabled_by.empty())
                            f.error(list[k], at, off_by_default_choices(), "'" + name + "'");
                        else into.push_back(name);
                    }
                };
                names("disable", false, e.d.disabled);
                names("enable", true, e.d.enabled);
                if (!file || !topology) continue;
                e.d.name = *file;
                e.d.path = resolve(dir, *file);
                e.d.topology_path = resolve(dir, *topology);
                // A missing file is the manifest's error, at the line that names it.
                bool present = true;
                const std::pair<const char*, std::string> named[] = {{"file", e.d.path}, {"topology", e.d.topology_path}};
                for (const auto& [key, resolved] : named) {
                    std::error_code ec;
                    if (std::filesystem::exists(resolved, ec)) continue;
                    f.error(n[key], path + "." + key, "a file that exists (paths are relative to the manifest's folder)",
                            "'" + resolved + "', which does not");
                    present = false;
                }
                if (!present) continue;
                e.d.machine_class = cls.value_or("");
                e.d.algo = algo.value_or("auto");
                e.d.proto = proto.value_or("auto");
                if (ranks) e.ranks = static_cast<int>(*ranks);
                if (per_thread) e.gpus_per_thread = static_cast<int>(*per_thread);
                entries.push_back(std::move(e));
            }
        }
    }
    f.throw_if_errors();
    std::vector<Dataset> out;
    for (auto& e : entries) {
        e.d.measurement = read_measurement(e.d.path);
        settle(e.d, topologies.get(e.d.topology_path).topo, std::nullopt, e.ranks, e.gpus_per_thread, e.at);
        out.push_back(std::move(e.d));
    }
    return out;
}

Dataset log_dataset(const std::string& log, const std::string& topology, TopologyCache& topologies,
                    const LogDeclaration& declared) {
    Dataset d;
    d.algo = declared.algo;
    d.proto = declared.proto;
    d.disabled = declared.disabled;
    d.enabled = declared.enabled;
    d.name = std::filesystem::path(log).filename().string();
    d.path = log;
    d.topology_path = topology;
    d.measurement = read_measurement(log);
    settle(d, topologies.get(topology).topo, declared.op, std::nullopt, declared.gpus_per_thread, SourceLocation{});
    return d;
}

}  // namespace collsim
