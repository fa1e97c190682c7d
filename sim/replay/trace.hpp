#pragma once
// A workload trace, loaded and resolved: for every rank a program of ops on
// named streams, with dependencies by index, and the communicators that
// collectives name. Ranks that run the same program share it (an SPMD trace of
// 1,024 ranks holds one program, plus copies only for ranks with overrides).
//
// Produced by the native loader (YAML or JSON, trace_loader.hpp) and by the
// importers (Chakra, Kineto); consumed by the replayer.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"
#include "sim/replay/gpu_card.hpp"

namespace collsim {

using OpIndex = uint32_t;

enum class OpKind : uint8_t { compute, collective, send, recv };
std::string_view to_string(OpKind k);

// Fields ordered by size, so that an op (10^7 of them in a large trace) has
// no padding to spare.
struct ComputeCost {
    std::optional<Time> duration;  // given or measured; otherwise the roofline
    double flops = 0;
    Bytes memory;                  // HBM traffic
    double flops_efficiency = 0;   // 0: the trace's default
    double memory_efficiency = 0;  // 0: the trace's default
    FlopType type = FlopType::bf16;
    bool host = false;             // CPU-side work (imported traces): takes time, is not GPU compute
};

struct CollectiveSpec {
    Bytes bytes;  // nccl-tests' size convention (collective.hpp)
    std::string dtype = "bfloat16";
    // AllToAll with uneven splits: bytes this rank sends to each member of its
    // group, in group order. Empty: every member gets bytes / n.
    std::vector<Bytes> split;
    // A collective whose time was measured (an importer without sizes): it
    // still waits for every member, then takes this long without traffic.
    std::optional<Time> duration;
    // What an importer measured; used as `duration` when collsim has no
    // algorithm for the operation.
    std::optional<Time> measured;
    uint32_t comm = 0;  // index into Trace::communicators
    int root = 0;       // Broadcast and Reduce: position of the root in the group
    CollOp op = CollOp::allreduce;
};

// A point-to-point transfer. The peer is an absolute rank, or, when `comm` is
// set, the member `offset` places after this rank in its group (next: +1).
struct P2PSpec {
    int peer = -1;
    std::optional<uint32_t> comm;
    int offset = 0;
    Bytes bytes;
};

// Where an op is given. The file's name is held once for all the ops of the
// file (interned): a 10^7-op trace would otherwise hold it 10^7 times, about
// 100 bytes each with its allocation. Reads and writes as a SourceLocation.
struct OpPlace {
    OpPlace() = default;
    OpPlace(const SourceLocation& w);  // NOLINT(google-explicit-constructor): ops are placed as any input is
    operator SourceLocation() const;   // NOLINT(google-explicit-constructor)
    const std::string& file() const;
    int line = 0;
    int column = 0;
    int32_t byte = -1;  // as SourceLocation's, for binary files (inputs are at most 1 GiB)

private:
    const std::string* file_ = nullptr;
};

struct TraceOp {
    std::string name;
    std::vector<OpIndex> after;  // ops of the same program that must finish first
    ComputeCost compute;
    CollectiveSpec collective;
    P2PSpec p2p;
    OpPlace where;
    uint32_t stream = 0;  // index into Trace::streams
    OpKind kind = OpKind::compute;
};

struct Program {
    std::vector<TraceOp> ops;
};

// Named groups of ranks. Every rank is in at most one group of a communicator.
struct Communicator {
    std::string name;
    std::vector<std::vector<int>> groups;  // ranks of each group, in rank order within the group
    std::vector<int> group_of;             // rank -> group, -1 where the rank is in none
    std::vector<int> position;             // rank -> index within its group
    SourceLocation where;
};

struct ComputeDefaults {
    std::optional<std::string> card;  // a name from gpu_cards(); unset: from the topology's GPU arch
    std::optional<GpuCard> custom;    // a card given inline in the trace
    double flops_efficiency = 1.0;
    double memory_efficiency = 1.0;
};

// A collective an importer found no message size for: it keeps its measured
// time, whatever the topology, algorithm or faults. The replay lists each.
struct UnsizedCall {
    std::string name;
    SourceLocation where;
    std::string reason;
    Time measured;
};

struct Trace {
    std::string name;
    std::string source;  // file it came from
    int ranks = 0;
    SourceLocation ranks_where;  // where the rank count is given (native traces; else the file alone)
    ComputeDefaults compute;
    std::vector<std::string> streams;
    std::vector<Communicator> communicators;
    std::vector<std::shared_ptr<const Program>> programs;  // one per rank
    std::vector<std::string> notes;                        // what an importer assumed, for stderr
    std::vector<UnsizedCall> unsized;                      // imported calls without a size

    const Program& program(int rank) const { return *programs[static_cast<std::size_t>(rank)]; }
    std::optional<uint32_t> find_communicator(std::string_view name) const;
    uint32_t stream_index(const std::string& name);  // adds it when new
};

// Whether the replay can simulate a call of `op`: some registered algorithm
// implements it (uneven all-to-alls always run as plain sends).
bool simulable(const CollectiveSpec& c);

// The absolute peer rank of a send or recv on `rank`; -1 when a relative peer
// falls outside the group (or the rank is in no group of the communicator).
int p2p_peer(const Trace& t, int rank, const P2PSpec& p);

// Fills group_of and position from groups; throws std::invalid_argument when a
// rank is outside [0, ranks) or in two groups.
void index_communicator(Communicator& c, int ranks);

}  // namespace collsim
