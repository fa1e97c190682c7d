// One node of an NCCL topology file as the devices and links of a schema-v1
// topology (topologies/README.md), in flow style like the shipped files, each
// device commented with the bus id it came from.
#include "sim/hw/nccl_topo_yaml.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sim/hw/nccl_topo_rates.hpp"

namespace collsim::nccl_topo {

namespace {

// Latencies are not in NCCL's XML: these are the estimates the shipped
// server files use (topologies/dgx-h100.yaml cites them).
constexpr const char* kNcclLatencyNote =
    "latencies are not in NCCL topology XML: the estimates of topologies/dgx-h100.yaml are used (PCIe and NVLink "
    "links 50/100 ns, PCIe switch 150 ns, root complex 300 ns, NVSwitch 100 ns, NIC 600 ns, socket link 100 ns)";

// A representative compute capability per arch, for GPUs given --gpu-arch only.
int nccl_sm_of(GpuArch a) {
    switch (a) {
        case GpuArch::volta: return 70;
        case GpuArch::turing: return 75;
        case GpuArch::ampere: return 80;
        case GpuArch::ada: return 89;
        case GpuArch::hopper: return 90;
        case GpuArch::blackwell: return 100;
        case GpuArch::unknown: return 0;
    }
    return 0;
}

class NcclNodeEmitter {
public:
    NcclNodeEmitter(const System& s, const NodeOptions& o, std::vector<std::string>& notes) : s_(s), o_(o), notes_(notes) {}

    NodeYaml emit() {
        name_parts();
        for (int g : gpus_) gpu_device(s_.parts[static_cast<std::size_t>(g)], names_[g]);
        if (nvswitch_) out_.devices.push_back(fmt::format("{{name: nvswitch, kind: nvswitch, latency: 100ns{}}}",
                                                          nvls_ ? ", in_network_reduction: true" : ""));
        for (std::size_t i = 0; i < s_.parts.size(); ++i) other_device(static_cast<int>(i));
        for (std::size_t i = 0; i < s_.parts.size(); ++i) parent_link(static_cast<int>(i));
        peer_links();
        cpu_links();
        if (!errors_.empty()) throw InputErrors(std::move(errors_));
        note(kNcclLatencyNote);
        return std::move(out_);
    }

private:
    void note(const std::string& text) {
        if (std::find(notes_.begin(), notes_.end(), text) == notes_.end()) notes_.push_back(text);
    }
    const Part& part(int i) const { return s_.parts[static_cast<std::size_t>(i)]; }
    int sm(const Part& p) const { return p.sm > 0 ? p.sm : nccl_sm_of(p.arch); }

    // GPUs first, so that their ranks follow NCCL's device numbers where the
    // file gives them, and file order otherwise.
    void name_parts() {
        int cpus = 0, bridges = 0, nics = 0;
        for (std::size_t i = 0; i < s_.parts.size(); ++i) {
            const Part& p = s_.parts[i];
            const int id = static_cast<int>(i);
            if (p.kind == PartKind::gpu) gpus_.push_back(id);
            else if (p.kind == PartKind::cpu) names_[id] = fmt::format("cpu{}", cpus++);
            else if (p.kind == PartKind::bridge) names_[id] = fmt::format("pcie{}", bridges++);
            else names_[id] = fmt::format("nic{}", nics++);
            for (const PeerLink& l : p.links) nvswitch_ = nvswitch_ || l.peer == PeerKind::nvswitch;
        }
        if (std::all_of(gpus_.begin(), gpus_.end(), [&](int g) { return part(g).dev >= 0; }))
            std::stable_sort(gpus_.begin(), gpus_.end(), [&](int a, int b) { return part(a).dev < part(b).dev; });
        for (std::size_t r = 0; r < gpus_.size(); ++r) {
            names_[gpus_[r]] = fmt::format("gpu{}", r);
            by_busid_[part(gpus_[r]).busid] = gpus_[r];
        }
        // NVLink SHARP (NVLS) came with the third-generation NVSwitch of
        // Hopper systems (NVIDIA H100 Tensor Core GPU Architecture whitepaper);
        // a dump does not say whether the fabric manager enables it.
        nvls_ = nvswitch_ && std::all_of(gpus_.begin(), gpus_.end(), [&](int g) { return sm(part(g)) >= 90; });
        if (nvls_) note("NVSwitch in-switch reduction (NVLS) assumed, as on every sm 90+ NVSwitch system; the dump does "
                        "not say whether it is enabled");
    }

    void gpu_device(const Part& p, const std::string& name) {
        Bandwidth mem;
        if (o_.memory_bandwidth) {
            mem = *o_.memory_bandwidth;
        } else if (auto f = gpu_figures(sm(p), p.gcn)) {
            mem = f->memory_bandwidth;
            note(fmt::format("GPU memory bandwidth {} is the {}'s, for {} (a dump does not name the part; "
                             "--gpu-memory-bandwidth sets it)",
                             format_bandwidth(mem), f->part, p.gcn.empty() ? fmt::format("sm {}", sm(p)) : "gcn " + p.gcn));
        } else {
            errors_.emplace_back(p.where, fmt::format("{} <gpu>", kFormat),
                                 "a GPU whose memory bandwidth collsim knows, or --gpu-memory-bandwidth",
                                 p.gcn.empty() ? fmt::format("sm {}", p.sm) : "gcn " + p.gcn);
            return;
        }
        if (!p.gcn.empty())
            note(fmt::format("AMD GPU (gcn {}): NCCL's tuning tables, which collsim follows, have no AMD entry, so its "
                             "arch is left unknown (the Hopper tables are used)",
                             p.gcn));
        const std::string arch = p.arch == GpuArch::unknown ? "" : fmt::format(", arch: {}", to_string(p.arch));
        std::string origin = p.busid;
        if (p.dev >= 0) origin += fmt::format(" dev {}", p.dev);
        if (p.sm > 0) origin += fmt::format(" sm {}", p.sm);
        if (!p.gcn.empty()) origin += " " + p.gcn;
        out_.devices.push_back(fmt::format("{{name: {}, kind: gpu{}, memory_bandwidth: {}}}  # {}", name, arch,
                                           format_bandwidth(mem), origin));
        ++out_.gpus;
    }

    void other_device(int i) {
        const Part& p = part(i);
        const std::string& name = names_[i];
        if (p.kind == PartKind::cpu) {
            out_.devices.push_back(fmt::format("{{name: {}, kind: root_complex, latency: 300ns}}  # {} family {} model {}",
                                               name, p.vendor.empty() ? "unknown vendor" : p.vendor, p.family, p.model));
        } else if (p.kind == PartKind::bridge) {
            out_.devices.push_back(fmt::format("{{name: {}, kind: pcie_switch, latency: 150ns}}  # {}", name, p.busid));
        } else if (p.kind == PartKind::nic) {
            std::string origin = p.net.name.empty() ? p.busid : p.net.name;
            if (p.net.speed_mbps > 0) origin += fmt::format(" {}Gb/s", static_cast<double>(p.net.speed_mbps) / 1000);
            origin += fmt::format(" port {} gdr {}", p.net.port, p.net.gdr ? 1 : 0);
            out_.devices.push_back(fmt::format("{{name: {}, kind: nic, latency: 600ns}}  # {}", name, origin));
            out_.nics.push_back(NicInfo{name, p.net.speed_mbps});
            if (!p.net.gdr && p.net.speed_mbps > 0)
                note("NICs with gdr=\"0\" make NCCL stage network traffic through host memory; collsim sends it "
                     "GPU-direct");
        }
    }

    void parent_link(int i) {
        const Part& p = part(i);
        if (p.parent < 0) return;
        if (p.gen == 0) {
            // A NIC on the CPU itself: NCCL links it at LOC_BW (src/graph/topo.h), no constraint.
            out_.links.push_back(fmt::format("{{a: {}, b: {}, kind: cpu, bandwidth: 5000GB/s, latency: 50ns}}", names_[i],
                                             names_[p.parent]));
            note(fmt::format("{} ({}) sits on the CPU with no PCI device: linked at NCCL's LOC_BW, 5000 GB/s",
                             names_[i], p.net.name));
            return;
        }
        out_.links.push_back(fmt::format("{{a: {}, b: {}, kind: pcie, gen: {}, lanes: {}, latency: 50ns}}", names_[i],
                                         names_[p.parent], p.gen, p.lanes));
    }

    std::optional<Bandwidth> rate(const Part& gpu, const PeerLink& l) {
        const auto r = l.kind == LinkKind::xgmi ? xgmi_rate(gpu.gcn) : nvlink_rate(sm(gpu));
        if (!r)
            errors_.emplace_back(l.where, fmt::format("{} <{}>", kFormat, to_string(l.kind)),
                                 fmt::format("a GPU whose {} rate collsim knows (NVIDIA sm 70-129; AMD gfx90a, gfx942)",
                                             to_string(l.kind)),
                                 gpu.gcn.empty() ? fmt::format("sm {}", sm(gpu)) : "gcn " + gpu.gcn);
        return r;
    }

    // NVLinks to NVSwitches add up to one port per GPU (NCCL also merges
    // every NVSwitch into one node); links between GPUs are counted per pair,
    // from the side that lists fewer where the two disagree.
    void peer_links() {
        std::map<std::pair<int, int>, std::pair<int, const PeerLink*>> pairs;
        for (int g : gpus_) {
            const Part& p = part(g);
            int to_switch = 0;
            for (const PeerLink& l : p.links) {
                if (l.peer == PeerKind::nvswitch) {
                    to_switch += l.count;
                    continue;
                }
                const auto peer = by_busid_.find(l.busid);
                if (peer == by_busid_.end()) {
                    note(fmt::format("{} of {} to {} ignored: the file lists no such GPU", to_string(l.kind),
                                     names_[g], l.busid));
                    continue;
                }
                const std::pair<int, int> key = std::minmax(g, peer->second);
                auto [it, fresh] = pairs.try_emplace(key, l.count, &l);
                if (!fresh && it->second.first != l.count) {
                    note(fmt::format("{} and {} list {} and {} {} links to each other: {} used", names_[key.first],
                                     names_[key.second], it->second.first, l.count, to_string(l.kind),
                                     std::min(it->second.first, l.count)));
                    it->second.first = std::min(it->second.first, l.count);
                }
            }
            if (to_switch == 0) continue;
            const PeerLink* first = nullptr;
            for (const PeerLink& l : p.links) first = first ? first : (l.peer == PeerKind::nvswitch ? &l : nullptr);
            if (auto r = rate(p, *first)) {
                out_.links.push_back(fmt::format("{{a: {}, b: nvswitch, kind: nvlink, bandwidth: {}, latency: 100ns}}  "
                                                 "# {} NVLinks",
                                                 names_[g], format_bandwidth(Bandwidth::bytes_per_s(r->bps() * to_switch)),
                                                 to_switch));
                out_.nvlink_per_gpu = std::max(out_.nvlink_per_gpu, r->bps() * to_switch);
            }
        }
        for (const auto& [key, v] : pairs) {
            const auto r = rate(part(key.first), *v.second);
            if (!r) continue;
            out_.links.push_back(fmt::format("{{a: {}, b: {}, kind: {}, bandwidth: {}, latency: 100ns}}  # {} links",
                                             names_[key.first], names_[key.second], to_string(v.second->kind),
                                             format_bandwidth(Bandwidth::bytes_per_s(r->bps() * v.first)), v.first));
        }
    }

    // NCCL joins every pair of CPUs (NUMA nodes) with one SYS link.
    void cpu_links() {
        std::vector<int> cpus;
        for (std::size_t i = 0; i < s_.parts.size(); ++i)
            if (s_.parts[i].kind == PartKind::cpu) cpus.push_back(static_cast<int>(i));
        for (std::size_t a = 0; a < cpus.size(); ++a)
            for (std::size_t b = a + 1; b < cpus.size(); ++b) {
                const Part& p = part(cpus[a]);
                const CpuLink l = cpu_interconnect(p.vendor, p.family, p.model);
                out_.links.push_back(fmt::format("{{a: {}, b: {}, kind: cpu, bandwidth: {}, latency: 100ns}}",
                                                 names_[cpus[a]], names_[cpus[b]], format_bandwidth(l.bandwidth)));
                note(fmt::format("the link between CPU sockets is {}: {} per direction", l.what,
                                 format_bandwidth(l.bandwidth)));
            }
    }

    const System& s_;
    const NodeOptions& o_;
    std::vector<std::string>& notes_;
    std::map<int, std::string> names_;
    std::map<std::string, int> by_busid_;
    std::vector<int> gpus_;
    bool nvswitch_ = false, nvls_ = false;
    NodeYaml out_;
    std::vector<InputError> errors_;
};

}  // namespace

NodeYaml node_yaml(const System& s, const NodeOptions& o, std::vector<std::string>& notes) {
    return NcclNodeEmitter(s, o, notes).emit();
}

}  // namespace collsim::nccl_topo
