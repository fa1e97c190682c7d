// Transport names. A NIC's software_latency defaults to 0 whatever its
// transport: ib and roce run NCCL's own verbs transport, whose per-step
// latencies are NCCL's NET figures, so nothing is added; for efa, tcpx and
// socket no per-message figure with a public source is collected yet
// (../shared/MODEL-FACTS.md has none), so they take NCCL's figures too, as
// NCCL's own tuner does. A topology that knows its transport's cost gives
// the NIC a software_latency (measured on that cluster, with its source).
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
