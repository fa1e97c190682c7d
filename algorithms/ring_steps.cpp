#include "algorithms/ring_steps.hpp"

#include "algorithms/chunking.hpp"

namespace collsim {

void add_ring_steps(Schedule& s, const RingSteps& r, std::vector<StepId>& last) {
    const int len = static_cast<int>(r.ring.size());
    if (len < 2) return;
    auto rank = [&](int pos) { return r.ring[static_cast<std::size_t>(wrap(pos, len))]; };
    std::vector<std::vector<StepId>> sends(static_cast<std::size_t>(len));
    for (int step = 0; step < r.steps; ++step) {
        for (int i = 0; i < len; ++i) {
            const int piece = wrap(i + r.shift - step, len);
            const StepId prev = last[static_cast<std::size_t>(rank(i))];
            auto& out = sends[static_cast<std::size_t>(i)];
            out.clear();
            for (int part = 0; part < r.chunks_per_piece; ++part) {
                const int chunk = r.chunk(piece, part);
                const Bytes bytes = r.bytes(piece, part);
                out.push_back(prev == kNoStep ? s.send(rank(i), rank(i + 1), r.channel, chunk, bytes)
                                              : s.send(rank(i), rank(i + 1), r.channel, chunk, bytes, {prev}));
            }
        }
        for (int i = 0; i < len; ++i) {
            const int from = wrap(i - 1, len);
            const int piece = wrap(from + r.shift - step, len);
            // The receiver's own value must be current (a reduction reads it).
            StepId got = last[static_cast<std::size_t>(rank(i))];
            for (int part = 0; part < r.chunks_per_piece; ++part) {
                const StepId sent = sends[static_cast<std::size_t>(from)][static_cast<std::size_t>(part)];
                const StepKind kind = r.reduce ? StepKind::reduce : StepKind::copy;
                // The parts of a piece are received one after another, so the
                // last one marks the piece done.
                got = got == kNoStep ? s.receive(kind, sent, r.chunk(piece, part))
                                     : s.receive(kind, sent, r.chunk(piece, part), {got});
            }
            last[static_cast<std::size_t>(rank(i))] = got;
        }
    }
}

}  // namespace collsim
