#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "sim/cli/options.hpp"
#include "sim/cli/topo_command.hpp"
#include "sim/core/text_file.hpp"
#include "sim/core/units.hpp"
#include "sim/hw/nccl_topo.hpp"
#include "sim/hw/topology_loader.hpp"

namespace collsim {

void add_topo_import_command(CLI::App& topo, TopoOptions& o) {
    CLI::App* c = topo.add_subcommand("import", "NCCL topology XML (NCCL_TOPO_DUMP_FILE, RCCL's too) to a topology YAML");
    c->add_option("file", o.file, "NCCL topology XML file")->required();
    c->add_option("-o,--output", o.output, "write the topology here (default: stdout)");
    c->add_option("--nodes", o.nodes, "a cluster of N such nodes (with --fabric)");
    c->add_option("--fabric", o.fabric, "YAML file with a `fabrics:` list joining the nodes (with --nodes)");
    c->add_option("--gpu-arch", o.gpu_arch, "arch for GPUs the file gives no sm (NCCL_TOPO_FILE skeletons)");
    c->add_option("--gpu-memory-bandwidth", o.gpu_memory_bandwidth, "GPU memory bandwidth, e.g. 2TB/s (default: by sm)");
    c->add_option("--name", o.name, "topology name (default: imported-<file name>)");
    c->add_option("--seed", o.seed, "random seed (accepted; import is not random)");
}

int run_topo_import(const TopoOptions& o) {
    NcclImportOptions io;
    if (!o.gpu_arch.empty()) {
        io.gpu_arch = gpu_arch_from(o.gpu_arch);
        if (!io.gpu_arch) bad_option("--gpu-arch", std::string(gpu_arch_choices()), o.gpu_arch);
    }
    if (!o.gpu_memory_bandwidth.empty()) {
        try {
            io.memory_bandwidth = parse_bandwidth(o.gpu_memory_bandwidth);
        } catch (const std::invalid_argument&) {
            bad_option("--gpu-memory-bandwidth", "a bandwidth with its unit, such as 2039GB/s", o.gpu_memory_bandwidth);
        }
    }
    if (o.nodes < 0 || o.nodes > (1 << 20)) bad_option("--nodes", "a node count from 1 to 1048576", std::to_string(o.nodes));
    io.nodes = o.nodes;
    io.fabric_file = o.fabric;
    io.name = o.name;
    const NcclImport r = import_nccl_topology(read_text_file(o.file), o.file, io);
    // The result must load: a topology this import cannot build is its bug
    // or the fabric file's, and is reported before anything is written.
    const Topology topo = parse_topology(r.yaml, o.output.empty() ? o.file + " (imported)" : o.output);
    for (const std::string& n : r.notes) fmt::print(stderr, "collsim: note: {}\n", n);
    if (o.output.empty()) {
        std::fwrite(r.yaml.data(), 1, r.yaml.size(), stdout);
    } else {
        std::ofstream out(o.output, std::ios::binary);
        out << r.yaml;
        if (!out) throw InputError(SourceLocation{o.output, 0, 0}, "--output", "a writable file", "it cannot be written");
        fmt::print(stderr, "collsim: wrote {}: {} ({} GPUs, {} devices, {} links)\n", o.output, topo.name(),
                   topo.gpus().size(), topo.devices().size(), topo.links().size());
    }
    return 0;
}

}  // namespace collsim
