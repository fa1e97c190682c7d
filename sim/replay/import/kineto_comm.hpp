#pragma once
// What an NCCL kernel of a Kineto trace did: its collective, message size,
// dtype and process group, recovered from the CPU side in every layout
// PyTorch has written (the kernel's own args are read first, then each
// launching op, innermost first):
//   - "In msg nelems", "Out msg nelems", "dtype", "Group size", "Process Group
//     Name"/"Ranks", "In/Out split size" on record_param_comms, and since
//     PyTorch 2.2 copied onto the kernel (with "Collective name");
//   - "Input Dims" and "Input type" of the nccl:* annotation or of
//     record_param_comms (2.0 era: the op's input tensor);
//   - "Input Dims" of the c10d::* op: (output, input) for the *_base_ ops,
//     the tensor list of allreduce_, broadcast_ and reduce_.
// The launching op names the collective where the kernel cannot: NCCL runs
// all-to-all as grouped SendRecv kernels, so a SendRecv kernel under
// c10d::alltoall_base_ or nccl:all_to_all is an AllToAll.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"
#include "sim/replay/import/kineto_fields.hpp"
#include "sim/replay/import/kineto_launches.hpp"
#include "sim/replay/import/nccl_kernel.hpp"

namespace collsim {

// A trace's distributedInfo: the rank, the world and the process groups of
// "pg_config" ({pg_name, ranks}).
struct KinetoJob {
    int rank = 0, world = 1;  // 0 of 1 where the trace has no distributedInfo
    std::map<std::string, std::vector<int>> groups;
};

struct KinetoCall {
    CollOp op = CollOp::allreduce;
    std::optional<Bytes> bytes;  // nccl-tests' convention (collective.hpp)
    std::string dtype;           // nccl-tests' name; "" where unknown
    std::string comm = "world";  // "pg NAME" where the trace names the group
    std::vector<int> group;      // its ranks, ascending; empty: every rank
    std::vector<Bytes> split;    // uneven AllToAll: bytes to each member
    std::string unsized;         // why `bytes` is empty
    std::string launcher;        // the CPU op that named the collective; "" the kernel's name
    bool op_differs = false;     // the launcher names another collective than the kernel (not SendRecv/AllToAll)
    bool uneven_unknown = false; // an AllToAll whose input and output differ, splits unrecorded: run as even
    bool group_unknown = false;  // the profiler cut the group's ranks short: taken as the whole job
};

KinetoCall kineto_call(const NcclKernel& kernel, const nlohmann::json* kernel_args, const std::string& kernel_at,
                       const std::vector<const KinetoSpan*>& launchers, bool launch_in_trace, const KinetoJob& job,
                       const KinetoFields& fields);

// The collective a PyTorch op or "Collective name" names ("c10d::_allgather_base_",
// "nccl:all_to_all", "reduce_scatter_tensor_coalesced"); nullopt for others
// (barrier, gather, scatter run as NCCL's kernels say).
std::optional<CollOp> pytorch_collective(std::string name);

}  // namespace collsim
