#pragma once
// An NCCL topology file (NCCL_TOPO_FILE / NCCL_TOPO_DUMP_FILE, or RCCL's
// dialect) as read, before it becomes a collsim topology:
//   <system version>
//     <cpu numaid affinity arch vendor familyid modelid>     a NUMA node
//       <pci busid class link_speed link_width>              a PCIe bridge/switch (class 0x0604..),
//         <pci ...>                                          a GPU (0x03..., 0x12...) or NIC (0x02...)
//           <gpu dev sm rank gdr [gcn]>                      NVIDIA sm, or AMD gcn ("gfx942")
//             <nvlink target count tclass/>                  to a GPU, or an NVSwitch (tclass 0x068000)
//             <xgmi target count tclass/>                    RCCL: AMD Infinity Fabric to a GPU
//           <nic><net name dev speed port gdr .../></nic>    speed in Mb/s
//       <nic>...</nic>                                       a NIC with no PCI device (sockets)
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/hw/device.hpp"
#include "sim/hw/link.hpp"

namespace collsim::nccl_topo {

// The format's name, in every message about such a file.
inline constexpr const char* kFormat = "NCCL topology XML";

enum class PartKind { cpu, bridge, gpu, nic };
enum class PeerKind { gpu, nvswitch };

struct PeerLink {
    LinkKind kind = LinkKind::nvlink;  // nvlink or xgmi
    PeerKind peer = PeerKind::gpu;
    std::string busid;  // of the peer GPU
    int count = 1;
    SourceLocation where;
};

struct Net {
    std::string name;
    int64_t speed_mbps = 0;  // 0: not given
    int port = 0;
    bool gdr = false;
    SourceLocation where;
};

struct Part {
    PartKind kind = PartKind::cpu;
    std::string busid;  // lower case; empty for CPUs and bare NICs
    int parent = -1;    // index into System::parts; -1 for CPUs
    int gen = 0, lanes = 0;  // the PCIe link to the parent; 0 for CPUs and bare NICs
    SourceLocation where;
    // GPUs
    int dev = -1, sm = 0;
    std::string gcn;  // AMD only
    GpuArch arch = GpuArch::unknown;
    std::vector<PeerLink> links;
    // NICs: one Part per <net>
    Net net;
    // CPUs
    std::string vendor;
    int family = 0, model = 0;
};

struct System {
    std::string file;
    std::vector<Part> parts;  // in file order; parents before children
    bool skeleton = false;    // GPUs given as PCI class codes only (no <gpu>)
    std::vector<std::string> notes;  // every value guessed or left out, in file order
};

struct ReadOptions {
    std::optional<GpuArch> gpu_arch;  // for GPUs the file gives no sm
};

// Throws InputErrors naming file:line:column, the element and attribute.
System read_system(const std::string& text, const std::string& file, const ReadOptions& options);

}  // namespace collsim::nccl_topo
