#include "algorithms/chunking.hpp"

#include <algorithm>

namespace collsim {

Bytes piece(Bytes total, int parts, int index) {
    const int64_t base = total.count() / parts, extra = total.count() % parts;
    return Bytes(base + (index < extra ? 1 : 0));
}

Bytes largest_piece(Bytes total, int parts) { return piece(total, parts, 0); }

int pipeline_chunks(const CollectiveCall& call, Bytes per_channel, int stages, int64_t steps_per_chunk_rank) {
    const int64_t merged = call.launched_channels > call.channels ? call.launched_channels / call.channels : 1;
    const int64_t chunk = kPipelineChunk.count() * merged;
    const int64_t wanted = std::max<int64_t>(1, (per_channel.count() + chunk - 1) / chunk);
    int64_t cap = std::max<int64_t>(1, kMaxPipelineChunkHops / std::max(call.ranks, 1));
    if (stages > 0) cap = std::min(cap, kChunksPerStage * stages);
    if (call.max_steps > 0)
        cap = std::min(cap, std::max<int64_t>(1, static_cast<int64_t>(call.max_steps) /
                                                     (steps_per_chunk_rank * std::max(call.ranks, 1) *
                                                      std::max(call.channels, 1))));
    return static_cast<int>(std::min(wanted, cap));
}

}  // namespace collsim
