#pragma once
// How algorithms cut a buffer: over channels, ranks and pipeline chunks.
#include "sim/core/units.hpp"
#include "sim/exec/collective.hpp"
#include "sim/exec/schedule.hpp"

namespace collsim {

// Splits `total` into `parts` nearly equal pieces (the first ones one byte
// larger), as NCCL divides a buffer over channels and ranks.
Bytes piece(Bytes total, int parts, int index);
// The largest of those pieces.
Bytes largest_piece(Bytes total, int parts);

// Pipelined algorithms (chains, trees, in-network reduction) move a channel's
// data in chunks of NCCL's Simple step: DEFAULT_BUFFSIZE / NCCL_STEPS =
// 4 MiB / 8 = 512 KiB (NCCL v2.30.7 src/include/device.h, src/init.cc). LL and
// LL128 use smaller slots in NCCL; one size is used here for every protocol.
inline constexpr Bytes kPipelineChunk{512 * 1024};
// Schedules stay bounded at scale: at most this many chunk-hops per channel
// (chunks x ranks); beyond it chunks grow. The closed forms use the same count.
inline constexpr int64_t kMaxPipelineChunkHops = int64_t{1} << 22;

// Chunks per simulated channel for `per_channel` bytes pipelined over
// `call.ranks` ranks. A simulated channel that stands for m launched ones
// (CollectiveCall::launched_channels) moves m of NCCL's chunks at a time: m
// chunks in flight side by side on the same links take as long as one chunk m
// times larger, so the pipeline fills and drains as NCCL's does, with m times
// fewer steps to simulate.
//
// A pipeline of `stages` stages (0: as many as ranks) spends (stages - 1)
// chunk times filling and draining: with at least kChunksPerStage chunks per
// stage that overhead stays within 1/kChunksPerStage of the time whatever the
// chunk size, so larger buffers take larger chunks past that point instead of
// more steps to simulate.
inline constexpr int64_t kChunksPerStage = 64;
// Past CollectiveCall::max_steps, chunks grow too: a pipelined schedule has at
// most `steps_per_chunk_rank` steps per chunk, rank and channel (by default
// the double binary tree's: a send and a receive up and down in each of its
// two halves), so the chunk count is capped at max_steps / (that x ranks x
// channels). The pipeline then fills in fewer, larger chunks instead of
// simulating fewer channels than NCCL runs.
inline constexpr int64_t kMaxStepsPerChunkRank = 8;
int pipeline_chunks(const CollectiveCall& call, Bytes per_channel, int stages = 0,
                    int64_t steps_per_chunk_rank = kMaxStepsPerChunkRank);

// Out-of-place buffers (AllToAll, SendRecv): an input of `blocks` blocks of
// `channels` chunks each, then an output of the same shape.
struct SplitBuffers {
    int blocks = 1, channels = 1;
    int in(int block, int channel) const { return block * channels + channel; }
    int out(int block, int channel) const { return (blocks + block) * channels + channel; }
    int chunks() const { return 2 * blocks * channels; }
    BufferLayout layout() const { return BufferLayout{0, blocks * channels, blocks * channels, blocks * channels}; }
};

// Index arithmetic modulo n that stays non-negative.
inline int wrap(int a, int n) { return ((a % n) + n) % n; }

}  // namespace collsim
