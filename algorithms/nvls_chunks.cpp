// Why the handshakes count only the chunks beyond kNvlsMaxChunk's: NCCL's
// nvlsEfficiency (0.85 Hopper, 0.74 Blackwell), which scales the links' rate
// for NVLS, is the rate its full chunks reach, and with it the large-message
// predictions match measurements (within 1-5% from 1 GiB up on H100, H200,
// B200 and GB300). Below that, NCCL halves the chunk and the handshakes per
// byte double. Measured, the shipped NVLS runs fit T0 + S/B + extra chunks x
// ranks x w with w = 92-193 ns (H100 and H200 92-94, B200 132, GB300 121 on
// 4 GPUs and 193 on 8): the ramp that puts eight B200s or GB300s at 280 us
// for 64 MiB, where four GB300s take 179 us with twice the chunk.
// kNvlsPeerWait is the middle of that range.
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
    return kNvlsPeerWait * (int64_t{call.ranks} * extra);
}

}  // namespace collsim
