#include "algorithms/chunking.hpp"

#include <algorithm>

namespace collsim {

Bytes piece(Bytes total, int parts, int index) {
    const int64_t base = total.count() / parts, extra = total.count() % parts;
    return Bytes(base + (index < extra ? 1 : 0));
}

Bytes largest_piece(Bytes total, int parts) { return piece(total, parts, 0); }

int pipeline_chunks(Bytes per_channel, int ranks) {
    const int64_t wanted = std::max<int64_t>(1, (per_channel.count() + kPipelineChunk.count() - 1) / kPipelineChunk.count());
    const int64_t cap = std::max<int64_t>(1, kMaxPipelineChunkHops / std::max(ranks, 1));
    return static_cast<int>(std::min(wanted, cap));
}

}  // namespace collsim
