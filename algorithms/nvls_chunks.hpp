#pragma once
// NVLS moves each channel's data in chunks whose size NCCL picks by message
// size, and every chunk costs its channel a fixed wait besides its bytes.
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"

namespace collsim {

// NCCL_NVLS_CHUNKSIZE's default: the chunk of large messages.
inline constexpr Bytes kNvlsMaxChunk{128 * 1024};
// What one chunk costs its channel besides its bytes (see nvls_chunks.cpp).
inline constexpr Time kNvlsChunkWait = Time::from_ps(960'000);

// NCCL's NVLS chunk for `bytes` over `channels` channels with `heads` ranks
// each heading a slice (src/enqueue.cc, calcCollChunking, v2.19 to v2.30):
// kNvlsMaxChunk, cut to 64 KiB below 64, to 32 KiB below 8 and to 16 KiB
// below 2 full chunks per channel and head.
Bytes nccl_nvls_chunk(Bytes bytes, int channels, int heads);

// The time an NVLS AllReduce spends on its extra handshakes: one
// kNvlsChunkWait per chunk, serial on each channel, for the chunks beyond
// those of kNvlsMaxChunk. It does not grow with the rank count.
Time nvls_handshakes(const CollectiveCall& call);

}  // namespace collsim
