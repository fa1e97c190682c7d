#pragma once
#include <optional>
#include <string_view>

#include "sim/core/units.hpp"

namespace collsim {

enum class CollOp { allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv };

std::string_view to_string(CollOp op);
std::optional<CollOp> coll_op_from(std::string_view s);
std::string_view coll_op_choices();
// Operations NCCL runs as grouped sends and receives (its p2p path), not as
// a collective kernel of its tuner: AllToAll and SendRecv.
bool is_point_to_point(CollOp op);

// nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md): busbw = algbw x factor.
double busbw_factor(CollOp op, int ranks);

struct Dtype {
    std::string_view name;  // as nccl-tests prints it
    int size = 4;
};
std::optional<Dtype> dtype_from(std::string_view s);
std::string_view dtype_choices();

// One call of a collective over a communicator of `ranks` GPUs.
// `bytes` is the size nccl-tests reports: the buffer of AllReduce, Broadcast,
// Reduce and SendRecv; the whole output of AllGather (n blocks); the whole
// input of ReduceScatter (n blocks); the whole send buffer of AllToAll.
struct CollectiveCall {
    CollOp op = CollOp::allreduce;
    Bytes bytes;
    int ranks = 2;
    int channels = 1;
    int root = 0;  // Broadcast and Reduce
    // Channels NCCL launches, when `channels` simulated ones stand for more of
    // them (0: the same number). Pipelined algorithms then move each simulated
    // channel's data in correspondingly larger chunks (see chunking.hpp).
    int launched_channels = 0;
    // The most steps the schedule may have (0: no bound). Algorithms that can
    // lump their steps (the ring: ring_steps.hpp) keep within it; others ignore it.
    std::size_t max_steps = 0;
    // Nothing but this collective acts on the network (no fault, straggler or
    // other traffic): forms that leave the network out (an AllToAll's pair
    // classes, alltoall_classes.hpp) may be used.
    bool network_alone = true;
};

}  // namespace collsim
