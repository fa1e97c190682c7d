// Transport names. A NIC's software_latency defaults to 0 whatever its
// transport: ib and roce run NCCL's own verbs transport, whose per-step
// latencies are NCCL's NET figures, so nothing is added. A net plugin's cost
// belongs to the platform, not the transport's name, so a topology that
// knows it gives the NIC a software_latency with its source: the AWS
// topologies give EFA the 75 us per step that aws-ofi-nccl reports to NCCL
// on p4d, p4de and p5 (src/platform-aws.cpp). tcpx and socket have no
// public per-message figure yet and take NCCL's figures, as NCCL's own
// tuner does without a plugin's latency.
#include "sim/hw/transport.hpp"

#include "sim/core/name_table.hpp"

namespace collsim {

namespace {
constexpr NameTable<NetTransport, 5> kTransports{{
    {"ib", NetTransport::ib},
    {"roce", NetTransport::roce},
    {"efa", NetTransport::efa},
    {"tcpx", NetTransport::tcpx},
    {"socket", NetTransport::socket},
}};
}  // namespace

std::string_view to_string(NetTransport t) { return name_in(kTransports, t); }

std::optional<NetTransport> net_transport_from(std::string_view s) { return value_in(kTransports, s); }

std::string_view net_transport_choices() { return "one of ib, roce, efa, tcpx, socket"; }

}  // namespace collsim
