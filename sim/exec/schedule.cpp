#include "sim/exec/schedule.hpp"

#include <stdexcept>

namespace collsim {

StepId Schedule::add(const Step& s, std::span<const StepId> deps) {
    const auto id = static_cast<StepId>(steps.size());
    if (steps.size() >= kAfterSent - 1) throw std::length_error("schedule over 2^31 steps");
    for (StepId d : deps) {
        if (dep_step(d) >= id) throw std::logic_error("schedule step depends on a later step");
        if (dep_on_sent(d) && steps[dep_step(d)].kind != StepKind::send)
            throw std::logic_error("only a send has a sent moment to depend on");
        dep_ids_.push_back(d);
    }
    if (s.kind == StepKind::reduce || s.kind == StepKind::copy) {
        if (s.from >= id || steps[s.from].kind != StepKind::send || steps[s.from].peer != s.rank)
            throw std::logic_error("a receive must consume an earlier send addressed to its participant");
        bool listed = false;
        for (StepId d : deps) listed = listed || d == s.from;
        if (!listed) dep_ids_.push_back(s.from);
    }
    steps.push_back(s);
    dep_begin_.push_back(static_cast<uint32_t>(dep_ids_.size()));
    return id;
}

StepId Schedule::send(int rank, int peer, int channel, int chunk, Bytes bytes, std::span<const StepId> deps,
                      bool pays_hop_latency) {
    Step s;
    s.kind = StepKind::send;
    s.flags = pays_hop_latency ? 0 : kNoHopLatency;
    s.rank = rank;
    s.peer = peer;
    s.channel = static_cast<uint16_t>(channel);
    s.chunk = chunk;
    s.src_chunk = chunk;
    s.bytes = bytes;
    return add(s, deps);
}

StepId Schedule::receive(StepKind kind, StepId from, int chunk, std::initializer_list<StepId> deps) {
    return receive(kind, from, chunk, std::span<const StepId>(deps.begin(), deps.size()));
}

StepId Schedule::local_copy(int rank, int channel, int src_chunk, int chunk, Bytes bytes,
                            std::initializer_list<StepId> deps) {
    return local(StepKind::local_copy, rank, channel, src_chunk, chunk, bytes,
                 std::span<const StepId>(deps.begin(), deps.size()));
}

StepId Schedule::local(StepKind kind, int rank, int channel, int src_chunk, int chunk, Bytes bytes,
                       std::span<const StepId> deps) {
    Step s;
    s.kind = kind;
    s.rank = rank;
    s.peer = rank;
    s.channel = static_cast<uint16_t>(channel);
    s.chunk = chunk;
    s.src_chunk = src_chunk;
    s.bytes = bytes;
    return add(s, deps);
}

StepId Schedule::receive(StepKind kind, StepId from, int chunk, std::span<const StepId> deps) {
    const Step& sent = steps.at(from);
    Step s;
    s.kind = kind;
    s.rank = sent.peer;
    s.peer = sent.rank;
    s.channel = sent.channel;
    s.chunk = chunk;
    s.src_chunk = chunk;
    s.from = from;
    s.bytes = sent.bytes;
    return add(s, deps);
}

std::size_t Schedule::memory_bytes() const {
    return steps.capacity() * sizeof(Step) + dep_begin_.capacity() * sizeof(uint32_t) +
           dep_ids_.capacity() * sizeof(StepId);
}

BufferLayout Schedule::effective_layout() const {
    if (layout.input_chunks > 0 || layout.output_chunks > 0) return layout;
    return BufferLayout{0, chunks, 0, chunks};
}

}  // namespace collsim
