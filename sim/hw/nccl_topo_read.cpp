// Reading an NCCL topology file into nccl_topo::System (nccl_topo_system.hpp).
// What a dump leaves out or writes oddly is mapped as NCCL itself maps it,
// with a note for each guess; what cannot be mapped is an error.
#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "sim/core/xml_tree.hpp"
#include "sim/hw/nccl_topo_rates.hpp"
#include "sim/hw/nccl_topo_system.hpp"

namespace collsim::nccl_topo {

namespace {

std::string nccl_lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string nccl_position(const SourceLocation& w) { return fmt::format("{}:{}", w.line, w.column); }

class NcclTopoReader {
public:
    NcclTopoReader(std::string file, const ReadOptions& o) : o_(o) { sys_.file = std::move(file); }

    System read(const XmlElement& root) {
        if (root.name != "system") {
            error(root.where, "<" + root.name + ">", "a <system> root element", "<" + root.name + ">");
            throw InputErrors(std::move(errors_));
        }
        if (const XmlAttribute* v = root.attribute("version"); v && v->value != "1" && v->value != "2")
            note(v->where, fmt::format("<system version=\"{}\">: read as versions 1 (NCCL) and 2 (RCCL) are", v->value));
        for (const auto& c : root.children) {
            if (c->name == "cpu") cpu(*c);
            else ignored(*c);
        }
        if (std::none_of(sys_.parts.begin(), sys_.parts.end(), [](const Part& p) { return p.kind == PartKind::gpu; }))
            error(root.where, "<system>", "at least one GPU (a <gpu> element, or a <pci> of class 0x03.... or 0x12....)",
                  "none");
        if (!errors_.empty()) throw InputErrors(std::move(errors_));
        return std::move(sys_);
    }

private:
    void error(const SourceLocation& at, const std::string& what, std::string expected, std::string found) {
        errors_.emplace_back(at, fmt::format("{} {}", kFormat, what), std::move(expected), std::move(found));
    }
    void note(const SourceLocation& at, const std::string& text) {
        sys_.notes.push_back(fmt::format("{}:{}: {}", sys_.file, nccl_position(at), text));
    }
    void ignored(const XmlElement& e) {
        note(e.where, fmt::format("<{}> ignored: collsim models cpu, pci, gpu, nvlink, xgmi, nic and net", e.name));
    }
    const std::string* text(const XmlElement& e, const char* name) const {
        const XmlAttribute* a = e.attribute(name);
        return a ? &a->value : nullptr;
    }
    std::optional<int64_t> integer(const XmlElement& e, const char* name, bool required, int64_t min, int64_t max) {
        const XmlAttribute* a = e.attribute(name);
        const std::string expected = fmt::format("an integer from {} to {}", min, max);
        if (!a) {
            if (required) error(e.where, fmt::format("<{}>.{}", e.name, name), expected, "no such attribute");
            return std::nullopt;
        }
        int64_t v = 0;
        const char* end = a->value.data() + a->value.size();
        auto [p, ec] = std::from_chars(a->value.data(), end, v);
        if (ec != std::errc{} || p != end || v < min || v > max) {
            error(a->where, fmt::format("<{}>.{}", e.name, name), expected, quote_input(a->value));
            return std::nullopt;
        }
        return v;
    }
    // PCI class codes are hex ("0x030200"); only the base class and subclass matter.
    std::optional<int> pci_class(const XmlElement& e) {
        const XmlAttribute* a = e.attribute("class");
        if (!a) return std::nullopt;
        unsigned v = 0;
        const std::string& s = a->value;
        const char* begin = s.data() + (s.starts_with("0x") ? 2 : 0);
        auto [p, ec] = std::from_chars(begin, s.data() + s.size(), v, 16);
        if (ec != std::errc{} || p != s.data() + s.size()) {
            error(a->where, "<pci>.class", "a PCI class code such as 0x030200", quote_input(s));
            return -1;
        }
        return static_cast<int>(v >> 8);
    }

    void cpu(const XmlElement& e) {
        Part p;
        p.kind = PartKind::cpu;
        p.where = e.where;
        if (const std::string* v = text(e, "vendor")) p.vendor = *v;
        p.family = static_cast<int>(integer(e, "familyid", false, 0, 1 << 16).value_or(0));
        p.model = static_cast<int>(integer(e, "modelid", false, 0, 1 << 16).value_or(0));
        const int self = add(std::move(p));
        for (const auto& c : e.children) {
            if (c->name == "pci") pci(*c, self);
            else if (c->name == "nic") nic(*c, self, nullptr);
            else ignored(*c);
        }
    }

    // The PCIe link a <pci> element has to its parent, from sysfs's
    // current_link_speed and current_link_width. Where they are empty or 0,
    // NCCL takes Gen3 ("Default fallback") and x16 (src/graph/topo.cc,
    // ncclTopoAddPci); so does this import, saying so.
    void pcie_link(const XmlElement& e, Part& p) {
        const XmlAttribute* speed = e.attribute("link_speed");
        const std::string busid = p.busid.empty() ? "" : " of " + p.busid;
        if (!speed || speed->value.empty() || speed->value.starts_with("Unknown")) {
            p.gen = 3;
            note(speed ? speed->where : e.where,
                 fmt::format("link_speed{} is {}: taken as PCIe Gen3 (8 GT/s), NCCL's default", busid,
                             speed ? quote_input(speed->value) : "not given"));
        } else if (auto gen = pcie_gen_from_speed(speed->value)) {
            p.gen = *gen;
        } else {
            error(speed->where, "<pci>.link_speed", "a PCIe link speed such as '16.0 GT/s PCIe' or '8 GT/s' (2.5 to 64 GT/s)",
                  quote_input(speed->value));
        }
        const XmlAttribute* width = e.attribute("link_width");
        const int64_t lanes = width ? integer(e, "link_width", false, 0, 32).value_or(16) : 0;
        if (lanes == 0) {
            p.lanes = 16;
            note(width ? width->where : e.where, fmt::format("link_width{} is {}: taken as x16, as NCCL does", busid,
                                                             width ? quote_input(width->value) : "not given"));
        } else if (lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 12 || lanes == 16 || lanes == 32) {
            p.lanes = lanes == 12 ? 8 : static_cast<int>(lanes);
            if (lanes == 12) note(width->where, fmt::format("link_width{} is x12: modelled as x8", busid));
        } else {
            error(width->where, "<pci>.link_width", "a lane count 0, 1, 2, 4, 8, 12, 16 or 32", quote_input(width->value));
        }
    }

    void pci(const XmlElement& e, int parent) {
        Part p;
        p.where = e.where;
        p.parent = parent;
        if (const std::string* b = text(e, "busid")) p.busid = nccl_lower(*b);
        else error(e.where, "<pci>.busid", "a PCI bus id such as 0000:84:00.0", "no such attribute");
        const XmlElement* gpu_el = nullptr;
        const XmlElement* nic_el = nullptr;
        for (const auto& c : e.children) {
            if (c->name == "gpu") gpu_el = c.get();
            else if (c->name == "nic") nic_el = c.get();
        }
        const std::optional<int> cls = pci_class(e);
        if (cls == -1) return;
        const int base = cls ? *cls >> 8 : -1;
        if (gpu_el || base == 0x03 || (cls && *cls == 0x1200)) p.kind = PartKind::gpu;
        else if (nic_el || base == 0x02) p.kind = PartKind::nic;
        else if (base == 0x06) p.kind = PartKind::bridge;
        else if (!cls) {
            // NCCL_TOPO_FILE skeletons may list bare bus ids (AWS g5.48xlarge):
            // NCCL matches them to what it probes; a file alone cannot say
            // what they are.
            error(e.where, "<pci>.class",
                  "a PCI class code (0x0604.. bridge, 0x03.... or 0x12.... GPU, 0x02.... NIC) or a <gpu>/<nic> inside: "
                  "this looks like an NCCL_TOPO_FILE skeleton, which NCCL completes by probing the machine",
                  "no such attribute");
            return;
        } else {
            note(e.where, fmt::format("<pci busid=\"{}\" class=\"{}\"> ignored: neither a GPU, a NIC nor a bridge",
                                      p.busid, text(e, "class") ? *text(e, "class") : ""));
            return;
        }
        pcie_link(e, p);
        if (p.kind == PartKind::bridge) {
            const int self = add(std::move(p));
            for (const auto& c : e.children) {
                if (c->name == "pci") pci(*c, self);
                else if (c->name == "nic") nic(*c, self, nullptr);
                else ignored(*c);
            }
        } else if (p.kind == PartKind::gpu) {
            gpu(gpu_el, std::move(p));
        } else if (nic_el) {
            nic(*nic_el, parent, &p);
        } else {
            p.net.name = p.busid;
            add(std::move(p));
        }
    }

    void gpu(const XmlElement* e, Part p) {
        p.kind = PartKind::gpu;
        if (!e) {
            sys_.skeleton = true;
            if (!o_.gpu_arch) {
                error(p.where, "<pci>", "a <gpu sm=...> inside a GPU's <pci>, or --gpu-arch: this is an NCCL_TOPO_FILE "
                      "skeleton, to which NCCL adds GPUs and NVLinks by probing",
                      fmt::format("a GPU ({}) with no <gpu>", p.busid));
                return;
            }
            p.arch = *o_.gpu_arch;
            add(std::move(p));
            return;
        }
        p.dev = static_cast<int>(integer(*e, "dev", false, 0, 1 << 20).value_or(-1));
        if (const std::string* gcn = text(*e, "gcn")) p.gcn = nccl_lower(*gcn);
        const auto sm = integer(*e, "sm", o_.gpu_arch == std::nullopt, 0, 1 << 20);
        p.sm = static_cast<int>(sm.value_or(0));
        if (!p.gcn.empty()) {
            p.arch = GpuArch::unknown;
        } else if (sm) {
            if (auto a = arch_from_sm(p.sm)) p.arch = *a;
            else if (!o_.gpu_arch)
                error(e->attribute("sm")->where, "<gpu>.sm",
                      "a compute capability collsim models (70-72 Volta, 75 Turing, 80-87 Ampere, 89 Ada, 90 Hopper, "
                      "100-129 Blackwell), or --gpu-arch",
                      quote_input(e->attribute("sm")->value));
        }
        if (o_.gpu_arch) p.arch = *o_.gpu_arch;
        for (const auto& c : e->children) {
            if (c->name == "nvlink" || c->name == "xgmi") peer_link(*c, p);
            else ignored(*c);
        }
        add(std::move(p));
    }

    void peer_link(const XmlElement& e, Part& gpu) {
        PeerLink l;
        l.kind = e.name == "xgmi" ? LinkKind::xgmi : LinkKind::nvlink;
        l.where = e.where;
        l.count = static_cast<int>(integer(e, "count", true, 1, 64).value_or(1));
        const std::string* target = text(e, "target");
        const std::string* tclass = text(e, "tclass");
        if (!target || !tclass) {
            error(e.where, fmt::format("<{}>.{}", e.name, target ? "tclass" : "target"),
                  target ? "the peer's PCI class (0x068000 NVSwitch, or a GPU's)" : "the peer's PCI bus id",
                  "no such attribute");
            return;
        }
        l.busid = nccl_lower(*target);
        const std::string cls = nccl_lower(*tclass);
        if (cls == "0x068000") {
            l.peer = PeerKind::nvswitch;
        } else if (cls.starts_with("0x03") || cls.starts_with("0x12")) {
            l.peer = PeerKind::gpu;
        } else {
            error(e.attribute("tclass")->where, fmt::format("<{}>.tclass", e.name),
                  "0x068000 (an NVSwitch) or a GPU's class (0x03...., 0x12....)", quote_input(*tclass));
            return;
        }
        // NCCL writes the link's own GPU, or bus id -1, where NVML cannot see
        // the far end, and treats those as NVSwitches it cannot see (VMs;
        // NVIDIA/nccl issue #1182).
        if (l.busid == gpu.busid && l.kind == LinkKind::nvlink) {
            l.peer = PeerKind::nvswitch;
            note(e.where, fmt::format("<nvlink> of {} names the GPU itself: read as {} link(s) to an NVSwitch NVML "
                                      "could not see, as NCCL reads it",
                                      gpu.busid, l.count));
        }
        gpu.links.push_back(std::move(l));
    }

    // A <nic> holds one <net> per network device NCCL uses; each becomes a
    // NIC. `pci` is the NIC's PCI function, or null for a NIC on the CPU.
    void nic(const XmlElement& e, int parent, const Part* pci) {
        for (const auto& c : e.children) {
            if (c->name != "net") {
                ignored(*c);
                continue;
            }
            Part p = pci ? *pci : Part{};
            p.kind = PartKind::nic;
            p.parent = parent;
            p.where = c->where;
            p.net.where = c->where;
            if (const std::string* n = text(*c, "name")) p.net.name = *n;
            p.net.speed_mbps = integer(*c, "speed", false, 0, int64_t{1} << 40).value_or(0);
            p.net.port = static_cast<int>(integer(*c, "port", false, 0, 1 << 20).value_or(0));
            p.net.gdr = integer(*c, "gdr", false, 0, 1).value_or(0) == 1;
            add(std::move(p));
        }
    }

    int add(Part p) {
        sys_.parts.push_back(std::move(p));
        return static_cast<int>(sys_.parts.size()) - 1;
    }

    const ReadOptions& o_;
    System sys_;
    std::vector<InputError> errors_;
};

}  // namespace

System read_system(const std::string& text, const std::string& file, const ReadOptions& options) {
    // An NCCL dump nests cpu, four or five PCIe levels, gpu and nvlink.
    const auto root = parse_xml(text, file, kFormat, 32);
    return NcclTopoReader(file, options).read(*root);
}

}  // namespace collsim::nccl_topo
