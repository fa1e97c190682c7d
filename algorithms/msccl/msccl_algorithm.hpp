#pragma once
// An MSCCL algorithm file, as msccl-tools (MSCCLang) writes it and MSCCL and
// RCCL run it:
//   <algo name proto nchannels nchunksperloop ngpus coll inplace ...>
//     <gpu id i_chunks o_chunks s_chunks>        buffers in chunks: input, output, scratch
//       <tb id send recv chan>                   a thread block: one peer to send to,
//                                                one to receive from, on one channel
//         <step s type srcbuf srcoff dstbuf dstoff cnt depid deps hasdep/>
// Step types: s send, r receive, rrc receive-reduce-copy, rcs receive-copy-
// send, rrs receive-reduce-send, rrcs receive-reduce-copy-send, re local
// reduce, cpy local copy, nop (only waits). A thread block runs its steps in
// order; depid/deps names a step of another thread block of the same GPU to
// wait for; the k-th send on a (sender, receiver, channel) connection meets
// the k-th receive on it.
#include <string>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/protocol.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim::msccl {

enum class StepType { s, r, rrc, rcs, rrs, rrcs, re, cpy, nop };

struct MscclStep {
    StepType type = StepType::nop;
    char srcbuf = 'i', dstbuf = 'i';
    int srcoff = 0, dstoff = 0, cnt = 1;
    int depid = -1, deps = -1;  // thread block id and step index waited for; -1: none
    SourceLocation where;
};

struct MscclBlock {
    int id = 0, send = -1, recv = -1, chan = 0;
    std::vector<MscclStep> steps;
    SourceLocation where;
};

struct MscclGpu {
    int id = 0;
    int i_chunks = 0, o_chunks = 0, s_chunks = 0;
    std::vector<MscclBlock> blocks;
    SourceLocation where;
};

struct MscclAlgorithm {
    std::string name, file;
    CollOp op = CollOp::allreduce;
    ProtoKind proto = ProtoKind::simple;
    int nchannels = 1, nchunksperloop = 1, ngpus = 0;
    bool inplace = false;
    std::vector<MscclGpu> gpus;  // by id
};

// Parse and validate; every problem found is reported together (InputErrors),
// each with file:line:column, the element and attribute, expected and found.
MscclAlgorithm load_msccl(const std::string& path);
MscclAlgorithm parse_msccl(const std::string& text, const std::string& name);

// The schedule for a call of `bytes` (sized as nccl-tests reports the
// operation). Throws InputError where sends and receives do not match.
Schedule msccl_schedule(const MscclAlgorithm& algo, Bytes bytes);

}  // namespace collsim::msccl
