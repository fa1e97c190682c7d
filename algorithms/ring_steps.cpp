#include "algorithms/ring_steps.hpp"

#include <algorithm>
#include <optional>

#include "algorithms/chunking.hpp"

namespace collsim {

namespace {
// Bytes of the pieces a position sends in steps [first, end): pieces p - end + 1
// .. p - first (mod len) for p = i + shift, summed from prefix sums over the
// ring laid out twice, so a lumped round costs O(1) per position.
class PieceSums {
public:
    PieceSums(const RingSteps& r, int len) : len_(len), sum_(2 * static_cast<std::size_t>(len) + 1) {
        for (std::size_t k = 0; k + 1 < sum_.size(); ++k) {
            Bytes piece{};
            for (int part = 0; part < r.chunks_per_piece; ++part)
                piece = piece + r.bytes(static_cast<int>(k % static_cast<std::size_t>(len)), part);
            sum_[k + 1] = sum_[k] + piece;
        }
    }
    Bytes range(int last_piece, int count) const {
        const auto end = static_cast<std::size_t>(last_piece + len_ + 1);
        return sum_[end] - sum_[end - static_cast<std::size_t>(count)];
    }

private:
    int len_;
    std::vector<Bytes> sum_;
};
}  // namespace

void add_ring_steps(Schedule& s, const RingSteps& r, std::vector<StepId>& last) {
    const int len = static_cast<int>(r.ring.size());
    if (len < 2 || r.steps < 1) return;
    const int rounds = r.groups > 0 ? std::min(r.groups, r.steps) : r.steps;
    const bool lumped = rounds < r.steps;
    std::optional<PieceSums> sums;
    if (lumped) sums.emplace(r, len);
    auto rank = [&](int pos) { return r.ring[static_cast<std::size_t>(wrap(pos, len))]; };
    auto piece = [&](int pos, int step) { return wrap(pos + r.shift - step, len); };
    const int parts = lumped ? 1 : r.chunks_per_piece;
    std::vector<std::vector<StepId>> sends(static_cast<std::size_t>(len));
    for (int round = 0; round < rounds; ++round) {
        const auto bound = [&](int k) { return static_cast<int>(int64_t{k} * r.steps / rounds); };
        const int first = bound(round), count = bound(round + 1) - first;
        for (int i = 0; i < len; ++i) {
            const StepId prev = last[static_cast<std::size_t>(rank(i))];
            auto& out = sends[static_cast<std::size_t>(i)];
            out.clear();
            for (int part = 0; part < parts; ++part) {
                const int chunk = r.chunk(piece(i, first), part);
                const Bytes bytes = lumped ? sums->range(piece(i, first), count) : r.bytes(piece(i, first), part);
                out.push_back(prev == kNoStep ? s.send(rank(i), rank(i + 1), r.channel, chunk, bytes)
                                              : s.send(rank(i), rank(i + 1), r.channel, chunk, bytes, {prev}));
            }
        }
        for (int i = 0; i < len; ++i) {
            const int from = wrap(i - 1, len);
            // The receiver's own value must be current (a reduction reads it).
            StepId got = last[static_cast<std::size_t>(rank(i))];
            for (int part = 0; part < parts; ++part) {
                const StepId sent = sends[static_cast<std::size_t>(from)][static_cast<std::size_t>(part)];
                const StepKind kind = r.reduce ? StepKind::reduce : StepKind::copy;
                const int chunk = r.chunk(piece(from, first), part);
                // The parts of a piece are received one after another, so the
                // last one marks the piece done.
                got = got == kNoStep ? s.receive(kind, sent, chunk) : s.receive(kind, sent, chunk, {got});
            }
            last[static_cast<std::size_t>(rank(i))] = got;
        }
    }
}

}  // namespace collsim
