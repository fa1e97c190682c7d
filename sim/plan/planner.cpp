#include "sim/plan/planner.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/layer_compute.hpp"
#include "sim/plan/pipeline_step.hpp"
#include "sim/plan/rank_groups.hpp"
#include "sim/plan/sync_step.hpp"

namespace collsim {

namespace {

std::string op_name(CollOp op) {
    switch (op) {
        case CollOp::allreduce: return "AllReduce";
        case CollOp::allgather: return "AllGather";
        case CollOp::reducescatter: return "ReduceScatter";
        case CollOp::alltoall: return "AllToAll";
        case CollOp::sendrecv: return "SendRecv";
        default: return std::string(to_string(op));
    }
}

Bytes bytes_of(double n) { return Bytes{static_cast<int64_t>(std::llround(n))}; }

// Per-communicator totals as the step is assembled.
class CommTally {
public:
    explicit CommTally(CollectiveCosts& costs) : costs_(costs) {}
    // Seconds of one call (looked up once), counted `calls` times per step.
    double call(const std::string& group, CollOp op, Bytes bytes, const std::vector<int>& ranks) {
        const CollectiveCost& c = costs_.cost(op, bytes, ranks);
        note(group, op, bytes, c.algo);
        return c.seconds;
    }
    void add(const std::string& group, CollOp op, double exposed, double overlapped, int64_t calls) {
        for (CommLine& l : lines_)
            if (l.group == group && l.op == op_name(op)) {
                l.exposed += exposed;
                l.overlapped += overlapped;
                l.calls += calls;
                return;
            }
    }
    std::vector<CommLine> take() {
        std::vector<CommLine> out;
        for (CommLine& l : lines_)
            if (l.calls > 0) out.push_back(std::move(l));
        return out;
    }

private:
    // The line of (group, op) shows its largest call and that call's algorithm.
    void note(const std::string& group, CollOp op, Bytes bytes, const std::string& algo) {
        for (CommLine& l : lines_)
            if (l.group == group && l.op == op_name(op)) {
                if (bytes > l.bytes) l.bytes = bytes, l.algo = algo;
                return;
            }
        lines_.push_back(CommLine{group, op_name(op), 0, 0, 0, bytes, algo});
    }
    CollectiveCosts& costs_;
    std::vector<CommLine> lines_;
};

// Communication on a stage's critical path for one micro-batch, split by what it is.
struct MicroComm {
    double tp_ag = 0, tp_rs = 0, tp_ar = 0;  // forward and backward together
    double tp_fwd = 0, tp_bwd = 0, ep_fwd = 0, ep_bwd = 0, cp_fwd = 0, cp_bwd = 0, cp_hidden = 0, pp = 0;
    double zero3_fwd = 0, zero3_bwd = 0, zero3_hidden = 0;
    // What of the CP and ZeRO-3 exposure and overlap is the ReduceScatter's
    // (the rest is the AllGathers'), split by their times.
    double cp_rs_exposed = 0, cp_rs_hidden = 0, zero3_rs_exposed = 0, zero3_rs_hidden = 0;
};

}  // namespace

void bad_layout(const std::string& option, const std::string& expected, const std::string& found) {
    throw InputError(SourceLocation{}, option, expected, "'" + found + "'");
}

std::string_view to_string(Recompute r) {
    switch (r) {
        case Recompute::none: return "none";
        case Recompute::selective: return "selective";
        case Recompute::full: return "full";
    }
    return "none";
}

void check_layout(const ModelCard& c, const Layout& l, int gpus, int gpus_per_node) {
    const auto s = [](int64_t v) { return std::to_string(v); };
    for (auto [name, v] : {std::pair{"--tp", l.tp}, {"--pp", l.pp}, {"--dp", l.dp}, {"--cp", l.cp}, {"--ep", l.ep},
                           {"--vpp", l.vpp}})
        if (v < 1) bad_layout(name, "1 or more", s(v));
    if (l.gpus() != gpus)
        bad_layout("--gpus", fmt::format("tp x pp x dp x cp = {} x {} x {} x {} = {}", l.tp, l.pp, l.dp, l.cp, l.gpus()),
                   s(gpus));
    if (c.layers < static_cast<int64_t>(l.pp) * l.vpp)
        bad_layout("--pp", fmt::format("pp x vpp at most the model's {} layers", c.layers),
                   fmt::format("{} x {}", l.pp, l.vpp));
    if (l.vpp > 1 && l.pp == 1) bad_layout("--vpp", "1 without pipeline parallelism (--pp 1)", s(l.vpp));
    if (c.heads % l.tp != 0 || c.ffn % l.tp != 0 || (c.kv_heads % l.tp != 0 && l.tp % c.kv_heads != 0))
        bad_layout("--tp", fmt::format("a divisor of the {} attention heads and the FFN size {}, and a divisor or "
                                       "multiple of the {} key/value heads",
                                       c.heads, c.ffn, c.kv_heads),
                   s(l.tp));
    if (l.tp > gpus_per_node)
        bad_layout("--tp", fmt::format("at most the {} GPUs of a server (TP groups stay inside one)", gpus_per_node),
                   s(l.tp));
    if (l.seq % (2 * l.cp) != 0 && l.cp > 1)
        bad_layout("--cp", fmt::format("a CP size with 2 x cp dividing the sequence of {} (load-balanced causal halves)",
                                       l.seq),
                   s(l.cp));
    if (l.ep > 1 && !c.moe) bad_layout("--ep", "1 for a dense model", s(l.ep));
    if (c.moe && (c.moe->experts % l.ep != 0 || l.dp % l.ep != 0))
        bad_layout("--ep", fmt::format("a divisor of the {} experts and of dp ({})", c.moe->experts, l.dp), s(l.ep));
    if (l.micro_batch < 1) bad_layout("--micro-batch", "1 or more", s(l.micro_batch));
    if (l.global_batch < 1 || l.global_batch % (static_cast<int64_t>(l.dp) * l.micro_batch) != 0)
        bad_layout("--global-batch", fmt::format("a multiple of dp x micro-batch = {}", l.dp * l.micro_batch),
                   s(l.global_batch));
    if (l.zero < 0 || l.zero > 3) bad_layout("--zero", "0, 1, 2 or 3", s(l.zero));
}

std::vector<std::string> plan_notes(const PlanSettings& s) {
    return {
        "collectives are timed one group at a time on the GPUs of the communicator's first group; the other groups "
        "use other GPUs and, on a rail-optimised fabric, other links (tests/plan replays them together)",
        "stages differ only by the embedding (first) and the output head (last); the bubble counts waits for the "
        "slowest stage",
        "PP send/recv is on the critical path of every micro-batch; TP and EP collectives are not overlapped "
        "with compute (Megatron's defaults); CP exchanges hide behind the attention core",
        fmt::format("matmuls sustain {:.0f}% of the {} dense peak (an estimate, GpuCard::matmul_sustained), "
                    "memory-bound kernels run at the datasheet HBM rate",
                    100 * (s.sustained > 0 ? s.sustained : s.card->matmul_sustained), s.card->name),
    };
}

PlanResult plan_layout(const ModelCard& c, const Layout& l, const PlanSettings& s, CollectiveCosts& costs) {
    PlanResult out;
    out.model = c.name;
    out.gpus = l.gpus();
    out.layout = l;
    out.memory = memory_per_gpu(c, l, s.capacity > 0 ? s.capacity : static_cast<double>(s.card->memory_capacity.count()));
    if (!out.memory.fits()) return out;

    const ComputeRates rates{s.card, s.sustained > 0 ? s.sustained : s.card->matmul_sustained};
    const LayerCompute lc = layer_compute(c, l, rates);
    const RankGroups g = rank_groups(l);
    CommTally tally(costs);
    const double t = static_cast<double>(tokens_per_gpu(l));
    const double h = static_cast<double>(c.hidden);
    const Bytes act = bytes_of(t * h * 2);
    const bool full = l.recompute == Recompute::full;

    // One layer's communication, per micro-batch.
    auto layer_comm = [&](bool moe_layer, const PassTime& pass) {
        MicroComm m;
        if (l.tp > 1) {
            // Two per layer forward (after attention and after the MLP), two in
            // backward, two more when full recompute runs the forward again.
            const double passes = full ? 3 : 2;
            if (l.sp) {
                const double ag = tally.call("TP", CollOp::allgather, act, g.tp);
                const double rs = tally.call("TP", CollOp::reducescatter, act, g.tp);
                m.tp_ag = 2 * passes * ag, m.tp_rs = 2 * passes * rs;
                m.tp_fwd = 2 * (ag + rs);
            } else {
                m.tp_fwd = 2 * tally.call("TP", CollOp::allreduce, act, g.tp);
                m.tp_ar = passes * m.tp_fwd;
            }
            m.tp_bwd = m.tp_fwd * (passes - 1);
        }
        if (l.cp > 1) {
            const Bytes kv = bytes_of(t * l.cp * 2.0 * static_cast<double>(c.kv_dim()) / l.tp * 2);
            const double ag = tally.call("CP", CollOp::allgather, kv, g.cp);
            const double rs = tally.call("CP", CollOp::reducescatter, kv, g.cp);
            const OverlapTime f = hidden_behind(pass.attention_forward, ag);
            const OverlapTime b = hidden_behind(2.5 * pass.attention_forward, ag + rs);
            m.cp_fwd = f.exposed;
            m.cp_bwd = b.exposed;
            m.cp_hidden = f.overlapped + b.overlapped;
            const double rs_share = rs / (2 * ag + rs);
            m.cp_rs_exposed = (f.exposed + b.exposed) * rs_share;
            m.cp_rs_hidden = m.cp_hidden * rs_share;
        }
        if (moe_layer && l.ep > 1) {
            const Bytes tokens = bytes_of(t * static_cast<double>(c.moe->top_k) * h * 2 / l.tp);
            m.ep_fwd = 2 * tally.call("EP", CollOp::alltoall, tokens, g.ep);
            m.ep_bwd = m.ep_fwd * (full ? 2 : 1);
        }
        return m;
    };
    const MicroComm dense_comm = layer_comm(false, lc.dense);
    const MicroComm moe_comm = c.moe ? layer_comm(true, lc.moe) : MicroComm{};

    // ZeRO-3 gathers each layer's weights before its forward and its
    // backward and reduce-scatters its gradients, prefetched behind the
    // previous layer's compute.
    auto zero3 = [&](bool moe_layer, const PassTime& pass, MicroComm& m) {
        if (l.zero < 3 || l.dp * l.cp < 2) return;
        const ParamCounts p = count_params(c);
        const double params = moe_layer ? p.layer_total(true, c) : p.layer_total(false, c);
        const Bytes w = bytes_of(params / l.tp * 2);
        const double ag = tally.call("DP", CollOp::allgather, w, g.dp_cp);
        const double rs = tally.call("DP", CollOp::reducescatter, w, g.dp_cp);
        const OverlapTime f = hidden_behind(pass.forward, ag);
        const OverlapTime b = hidden_behind(pass.backward + pass.recompute, ag + rs);
        m.zero3_fwd = f.exposed;
        m.zero3_bwd = b.exposed;
        m.zero3_hidden = f.overlapped + b.overlapped;
        const double rs_share = rs / (2 * ag + rs);
        m.zero3_rs_exposed = (f.exposed + b.exposed) * rs_share;
        m.zero3_rs_hidden = m.zero3_hidden * rs_share;
    };
    MicroComm dense_c = dense_comm, moe_c = moe_comm;
    zero3(false, lc.dense, dense_c);
    if (c.moe) zero3(true, lc.moe, moe_c);

    // Stage cycles. A stage sends its activations forward and its input
    // gradients back once per micro-batch and chunk.
    double pp_call = 0;
    if (l.pp > 1) pp_call = tally.call("PP", CollOp::sendrecv, bytes_of(t * h * 2 / (l.sp ? l.tp : 1)), g.pp_pair);
    std::vector<StageCycle> stages(static_cast<std::size_t>(l.pp));
    std::vector<MicroComm> stage_comm(static_cast<std::size_t>(l.pp));
    std::vector<double> stage_compute(static_cast<std::size_t>(l.pp));
    for (int i = 0; i < l.pp; ++i) {
        const double nd = static_cast<double>(stage_layers(c, l, i, false));
        const double nm = static_cast<double>(stage_layers(c, l, i, true));
        double fwd = nd * lc.dense.forward + nm * lc.moe.forward;
        double bwd = nd * (lc.dense.backward + lc.dense.recompute) + nm * (lc.moe.backward + lc.moe.recompute);
        if (i == 0) fwd += lc.first_extra.forward, bwd += lc.first_extra.backward;
        if (i == l.pp - 1) fwd += lc.last_extra.forward, bwd += lc.last_extra.backward;
        stage_compute[static_cast<std::size_t>(i)] = fwd + bwd;
        MicroComm& sc = stage_comm[static_cast<std::size_t>(i)];
        auto sum = [&](double MicroComm::*f) { return nd * dense_c.*f + nm * moe_c.*f; };
        sc.tp_fwd = sum(&MicroComm::tp_fwd), sc.tp_bwd = sum(&MicroComm::tp_bwd);
        sc.tp_ag = sum(&MicroComm::tp_ag), sc.tp_rs = sum(&MicroComm::tp_rs), sc.tp_ar = sum(&MicroComm::tp_ar);
        sc.ep_fwd = sum(&MicroComm::ep_fwd), sc.ep_bwd = sum(&MicroComm::ep_bwd);
        sc.cp_fwd = sum(&MicroComm::cp_fwd), sc.cp_bwd = sum(&MicroComm::cp_bwd);
        sc.cp_hidden = sum(&MicroComm::cp_hidden);
        sc.zero3_fwd = sum(&MicroComm::zero3_fwd), sc.zero3_bwd = sum(&MicroComm::zero3_bwd);
        sc.zero3_hidden = sum(&MicroComm::zero3_hidden);
        sc.cp_rs_exposed = sum(&MicroComm::cp_rs_exposed), sc.cp_rs_hidden = sum(&MicroComm::cp_rs_hidden);
        sc.zero3_rs_exposed = sum(&MicroComm::zero3_rs_exposed), sc.zero3_rs_hidden = sum(&MicroComm::zero3_rs_hidden);
        sc.pp = l.pp > 1 ? 2.0 * l.vpp * pp_call : 0;
        stages[static_cast<std::size_t>(i)] = {fwd + sc.tp_fwd + sc.ep_fwd + sc.cp_fwd + sc.zero3_fwd + sc.pp / 2,
                                               bwd + sc.tp_bwd + sc.ep_bwd + sc.cp_bwd + sc.zero3_bwd + sc.pp / 2};
    }
    const int64_t m = l.microbatches();
    const PipelineTime pipe = pipeline_time(stages, m, l.vpp);
    const auto slow = static_cast<std::size_t>(pipe.slowest);
    const MicroComm& sc = stage_comm[slow];
    const double md = static_cast<double>(m);
    const int64_t layers_slow = stage_layers(c, l, pipe.slowest, false) + stage_layers(c, l, pipe.slowest, true);
    const int64_t moe_slow = stage_layers(c, l, pipe.slowest, true);
    const int64_t tp_calls = m * layers_slow * 2 * (full ? 3 : 2);
    tally.add("TP", CollOp::allreduce, md * sc.tp_ar, 0, l.sp ? 0 : tp_calls);
    tally.add("TP", CollOp::allgather, md * sc.tp_ag, 0, l.sp ? tp_calls : 0);
    tally.add("TP", CollOp::reducescatter, md * sc.tp_rs, 0, l.sp ? tp_calls : 0);
    tally.add("CP", CollOp::allgather, md * (sc.cp_fwd + sc.cp_bwd - sc.cp_rs_exposed),
              md * (sc.cp_hidden - sc.cp_rs_hidden), m * layers_slow * 2);
    tally.add("CP", CollOp::reducescatter, md * sc.cp_rs_exposed, md * sc.cp_rs_hidden, m * layers_slow);
    tally.add("EP", CollOp::alltoall, md * (sc.ep_fwd + sc.ep_bwd), 0, m * moe_slow * (full ? 6 : 4));
    tally.add("PP", CollOp::sendrecv, md * sc.pp, 0, m * 2 * l.vpp);
    tally.add("DP", CollOp::allgather, md * (sc.zero3_fwd + sc.zero3_bwd - sc.zero3_rs_exposed),
              md * (sc.zero3_hidden - sc.zero3_rs_hidden), l.zero >= 3 ? m * layers_slow * 2 : 0);
    tally.add("DP", CollOp::reducescatter, md * sc.zero3_rs_exposed, md * sc.zero3_rs_hidden,
              l.zero >= 3 ? m * layers_slow : 0);

    // Gradient synchronisation of the first stage, whose last backward ends the pipeline.
    double dp_exposed = 0, param_exposed = 0;
    const MemoryPerGpu& mem0 = out.memory;
    if (l.dp * l.cp > 1 && l.zero < 3) {
        // Non-expert weights synchronise over DP x CP, routed experts over
        // the expert-data-parallel group (DP / EP); buckets in that order.
        struct Share {
            double params;
            const std::vector<int>* ranks;
        };
        const std::vector<Share> shares{{mem0.params - mem0.expert_params, &g.dp_cp}, {mem0.expert_params, &g.expert_dp}};
        auto bucket_times = [&](CollOp op) {
            std::vector<double> times;
            for (const Share& sh : shares)
                for (double done = 0; done < sh.params; done += static_cast<double>(l.bucket_params)) {
                    const double n = std::min(static_cast<double>(l.bucket_params), sh.params - done);
                    times.push_back(tally.call("DP", op, bytes_of(n * 2), *sh.ranks));
                }
            return times;
        };
        const CollOp grad_op = l.zero == 0 ? CollOp::allreduce : CollOp::reducescatter;
        const std::vector<double> times = bucket_times(grad_op);
        const OverlapTime grads = bucketed_overlap(stages[0].backward, times, l.overlap);
        tally.add("DP", grad_op, grads.exposed, grads.overlapped, static_cast<int64_t>(times.size()));
        dp_exposed = grads.exposed;
        if (l.zero >= 1) {
            double gather = 0;
            for (double x : bucket_times(CollOp::allgather)) gather += x;
            const OverlapTime p = l.overlap ? hidden_behind(stages[0].forward, gather) : OverlapTime{gather, 0};
            tally.add("DP", CollOp::allgather, p.exposed, p.overlapped, static_cast<int64_t>(times.size()));
            param_exposed = p.exposed;
        }
    }
    // Adam over this GPU's share of the states: read the fp32 weights, both
    // moments and the bf16 gradient, write the three and the bf16 weights.
    const double shards = l.zero >= 1 ? mem0.state_shards : 1;
    out.optimizer = memory_seconds(rates, mem0.params / shards * (3 * 4 + 2 + 3 * 4 + 2));
    out.compute = md * stage_compute[slow];
    out.bubble = pipe.bubble;
    out.step = pipe.total + dp_exposed + param_exposed + out.optimizer;
    out.communication = tally.take();
    const double tokens = static_cast<double>(l.tokens_per_step());
    out.tokens_per_s = tokens / out.step;
    const TokenFlops f = token_flops(c, l.seq);
    const double peak = s.card->peak(l.dtype) * out.gpus;
    out.model_flops_per_gpu = f.model_training() * out.tokens_per_s / out.gpus;
    out.hardware_flops_per_gpu = f.training(l.recompute) * out.tokens_per_s / out.gpus;
    out.mfu = out.model_flops_per_gpu * out.gpus / peak;
    out.hfu = out.hardware_flops_per_gpu * out.gpus / peak;

    // The largest part of the step that is not compute names the bottleneck.
    std::string what = "the pipeline bubble";
    double most = out.bubble;
    for (const CommLine& line : out.communication)
        if (line.exposed > most) most = line.exposed, what = fmt::format("exposed {} {}", line.group, line.op);
    if (out.optimizer > most) most = out.optimizer, what = "the optimizer step";
    out.bottleneck = out.compute >= 0.5 * out.step
                         ? fmt::format("compute-bound: compute is {:.0f}% of the step; next is {} at {:.1f}%",
                                       100 * out.compute / out.step, what, 100 * most / out.step)
                         : fmt::format("{} takes {:.1f}% of the step, against {:.0f}% for compute", what,
                                       100 * most / out.step, 100 * out.compute / out.step);
    return out;
}

}  // namespace collsim
