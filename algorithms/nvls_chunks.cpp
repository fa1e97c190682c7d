// What a chunk waits for. In NCCL's NVLS AllReduce kernel (src/device/
// all_reduce.h, v2.19 to v2.30) each channel moves its data step by step;
// a step covers one chunk of every head's slice, and the channel's warps
// copy and reduce those chunks one after another, each after polling the
// flags of the peers it depends on. The flags are polled by one thread per
// peer at once (src/device/prims_simple.h), and the reduction itself is
// done by the switch (multimem.ld_reduce) for all ranks in one load, so the
// wait a chunk adds to its channel is one flag round trip and a short copy's
// fill and drain: a fixed time per chunk, not one per peer. A channel
// handles per_channel / chunk chunks whatever the rank count, so the same
// bytes take the same extra time on 8 GPUs and on 72: 64 GB200s of an NVL72
// rack move 1 GiB at 378 GB/s algbw where eight move it at 414 (issue 22),
// where a wait per peer made 64 ranks 1.8x slower than 8.
//
// Why only the chunks beyond kNvlsMaxChunk's count: NCCL's nvlsEfficiency
// (0.85 Hopper, 0.74 Blackwell), which scales the links' rate for NVLS, is
// the rate its full chunks reach, and with it the large-message predictions
// match measurements (within 1-5% from 1 GiB up on H100, H200, B200 and
// GB300). Below that, NCCL halves the chunk and the chunks per byte double.
// kNvlsChunkWait is what the eight-GPU NVLS runs (H100, H200, B200, GB300)
// pay per extra chunk: 0.74-1.5 us, 0.96 us taken (it was fitted there as
// 8 x 120 ns per peer). The four-GPU GB300 run pays about half as much.
#include "algorithms/nvls_chunks.hpp"

#include <algorithm>
#include <utility>

namespace collsim {

Bytes nccl_nvls_chunk(Bytes bytes, int channels, int heads) {
    int64_t chunk = kNvlsMaxChunk.count();
    const int64_t ops = int64_t{std::max(channels, 1)} * std::max(heads, 1);
    for (const auto& [below, size] : {std::pair<int64_t, int64_t>{64, 65536}, {8, 32768}, {2, 16384}})
        if (bytes.count() < below * ops * chunk && chunk > size) chunk = size;
    return Bytes(chunk);
}

Time nvls_handshakes(const CollectiveCall& call) {
    const int channels = std::max(call.launched_channels, call.channels);
    const int64_t per_channel = (call.bytes.count() + channels - 1) / channels;
    auto chunks = [per_channel](int64_t chunk) { return (per_channel + chunk - 1) / chunk; };
    const int64_t extra = chunks(nccl_nvls_chunk(call.bytes, channels, call.ranks).count()) -
                          chunks(kNvlsMaxChunk.count());
    return kNvlsChunkWait * extra;
}

}  // namespace collsim
