#include "sim/cli/gen_command.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "sim/cli/options.hpp"
#include "sim/core/error.hpp"
#include "sim/replay/gpu_card.hpp"

namespace collsim {

namespace {
using namespace gen;

[[noreturn]] void bad(const std::string& option, std::string expected, const std::string& found) {
    throw InputError(SourceLocation{}, option, std::move(expected), "'" + found + "'");
}

Time time_option(const std::string& option, const std::string& text) {
    try {
        return parse_time(text);
    } catch (const std::invalid_argument& e) {
        bad(option, e.what(), text);
    }
}

Bytes size_option(const std::string& option, const std::string& text) {
    try {
        return parse_size(text);
    } catch (const std::invalid_argument& e) {
        bad(option, e.what(), text);
    }
}

// "1.5B", "350M", "7e9": a count with an optional K, M, B (or G) or T suffix.
double count_option(const std::string& option, const std::string& text) {
    double v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    double scale = unit.empty() ? 1 : unit == "K" ? 1e3 : unit == "M" ? 1e6 : unit == "B" || unit == "G" ? 1e9
                                  : unit == "T"   ? 1e12
                                                  : 0;
    if (ec != std::errc() || scale == 0 || !(v > 0) || !std::isfinite(v))
        bad(option, "a positive count like '1.5B', '350M' or '7e9'", text);
    return v * scale;
}

GpuSpec gpu_spec(const GenCliOptions& o) {
    if (!o.gpu_card.empty() && !find_gpu_card(o.gpu_card)) bad("--gpu", gpu_card_choices(), o.gpu_card);
    if (!(o.flops_efficiency > 0 && o.flops_efficiency <= 1))
        bad("--flops-efficiency", "a share above 0 and at most 1", std::to_string(o.flops_efficiency));
    if (!(o.memory_efficiency > 0 && o.memory_efficiency <= 1))
        bad("--memory-efficiency", "a share above 0 and at most 1", std::to_string(o.memory_efficiency));
    return GpuSpec{o.gpu_card, o.flops_efficiency, o.memory_efficiency};
}

LayerShape shape(const GenCliOptions& o) {
    for (auto [name, v] : {std::pair{"--hidden", o.hidden}, {"--seq", o.seq}, {"--batch", o.batch}})
        if (v < 1) bad(name, "at least 1", std::to_string(v));
    LayerShape s;
    s.hidden = o.hidden;
    s.ffn = o.ffn;
    s.seq = o.seq;
    s.batch = o.batch;
    return s;
}

std::string name_or(const GenCliOptions& o, const char* fallback) { return o.name.empty() ? fallback : o.name; }

Json dp(const GenCliOptions& o) {
    DpOptions d;
    d.name = name_or(o, "dp");
    d.ranks = o.ranks;
    d.layers = o.layers;
    if (o.params.empty()) bad("--params", "the model's parameter count (required)", "");
    d.params = count_option("--params", o.params);
    if (!o.layer_time.empty()) d.layer_time = time_option("--layer-time", o.layer_time);
    if (!o.layer_flops.empty()) d.layer_flops = count_option("--layer-flops", o.layer_flops);
    d.tokens = o.tokens;
    d.bucket = size_option("--bucket", o.bucket);
    d.overlap = parse_on_off("--overlap", o.overlap);
    d.zero = o.zero;
    // DDP reduces the .grad tensors: fp32 under automatic mixed precision, bf16 when the model is bf16.
    if (o.grad_dtype == "fp32") d.grad_bytes = 4;
    else if (o.grad_dtype == "bf16" || o.grad_dtype == "fp16") d.grad_bytes = 2;
    else bad("--grad-dtype", "fp32, bf16 or fp16", o.grad_dtype);
    d.optimizer = time_option("--optimizer", o.optimizer);
    d.gpu = gpu_spec(o);
    return generate_dp(d, o.command);
}

Json tp(const GenCliOptions& o) {
    TpOptions t;
    t.name = name_or(o, "tp");
    t.mode = o.mode;
    t.layers = o.layers;
    t.shape = shape(o);
    t.shape.tp = o.tp;
    t.tokens = o.tokens > 0 ? static_cast<int>(o.tokens) : 1;
    t.gpu = gpu_spec(o);
    return generate_tp(t, o.command);
}

Json pp(const GenCliOptions& o) {
    PpOptions p;
    p.name = name_or(o, "pp");
    p.stages = o.stages;
    p.microbatches = o.microbatches;
    p.schedule = o.schedule;
    if (o.forward.empty()) bad("--forward", "a time per microbatch and stage (required)", "");
    p.forward = time_option("--forward", o.forward);
    if (!o.backward.empty()) p.backward = time_option("--backward", o.backward);
    p.activation = size_option("--activation", o.activation);
    return generate_pp(p, o.command);
}

Json moe(const GenCliOptions& o) {
    MoeOptions m;
    m.name = name_or(o, "moe");
    m.ranks = o.ranks;
    m.layers = o.layers;
    m.experts = o.experts;
    m.top_k = o.top_k;
    m.tokens = o.tokens > 0 ? o.tokens : 4096;
    m.hidden = o.hidden;
    if (o.ffn > 0) m.ffn = o.ffn;
    m.seq = o.seq;
    m.skew = o.skew;
    m.seed = o.seed;
    m.gpu = gpu_spec(o);
    return generate_moe(m, o.command);
}

Json hybrid(const GenCliOptions& o) {
    HybridOptions h;
    h.name = name_or(o, "3d");
    h.tp = o.tp;
    h.pp = o.pp;
    h.dp = o.dp;
    h.layers = o.layers;
    h.shape = shape(o);
    h.microbatches = o.microbatches;
    h.schedule = o.schedule;
    h.tp_placement = o.tp_placement;
    h.bucket = size_option("--bucket", o.bucket);
    h.overlap = parse_on_off("--overlap", o.overlap);
    h.gpu = gpu_spec(o);
    return generate_hybrid(h, o.command);
}

void shared_options(CLI::App* c, GenCliOptions& o) {
    c->add_option("--name", o.name, "trace name");
    c->add_option("--format", o.format, "json (generated traces) or yaml (for reading)")->capture_default_str();
    c->add_option("--output,-o", o.output, "write the trace here instead of stdout");
    c->add_option("--seed", o.seed, "random seed")->capture_default_str();
}

void gpu_options(CLI::App* c, GenCliOptions& o) {
    c->add_option("--gpu", o.gpu_card, "GPU card for the roofline: " + gpu_card_choices() + " (default: from the topology's GPU arch)");
    c->add_option("--flops-efficiency", o.flops_efficiency, "share of peak FLOP/s achieved")->capture_default_str();
    c->add_option("--memory-efficiency", o.memory_efficiency, "share of HBM bandwidth achieved")
        ->capture_default_str();
}

void shape_options(CLI::App* c, GenCliOptions& o) {
    c->add_option("--layers", o.layers, "transformer layers")->capture_default_str();
    c->add_option("--hidden", o.hidden, "hidden size")->capture_default_str();
    c->add_option("--ffn", o.ffn, "MLP width (default 4 x hidden)");
    c->add_option("--seq", o.seq, "tokens per sequence (the prompt, for decode)")->capture_default_str();
    c->add_option("--batch", o.batch, "sequences per (micro-)batch")->capture_default_str();
}
}  // namespace

CLI::App* add_gen_command(CLI::App& app, GenCliOptions& o) {
    CLI::App* g = app.add_subcommand("gen", "generate a workload trace (dp, tp, pp, moe, 3d)");
    g->require_subcommand(1);
    CLI::App* d = g->add_subcommand("dp", "data parallel step: DDP buckets or ZeRO-3/FSDP, overlap on or off");
    shared_options(d, o);
    gpu_options(d, o);
    d->add_option("--ranks", o.ranks, "data-parallel ranks")->capture_default_str();
    d->add_option("--layers", o.layers, "layers")->capture_default_str();
    d->add_option("--params", o.params, "parameters of the model, e.g. 1.5B");
    d->add_option("--layer-time", o.layer_time, "forward time per layer (backward is twice)");
    d->add_option("--layer-flops", o.layer_flops, "forward FLOPs per layer, e.g. 2.5T");
    d->add_option("--tokens", o.tokens, "tokens per GPU per step (forward FLOPs = 2 x params x tokens)");
    d->add_option("--bucket", o.bucket, "gradient bucket (PyTorch DDP: 25MiB); 0: one AllReduce")
        ->capture_default_str();
    d->add_option("--overlap", o.overlap, "on: AllReduce buckets during backward; off: after it")
        ->capture_default_str();
    d->add_option("--grad-dtype", o.grad_dtype, "gradient type: fp32 (AMP keeps fp32 gradients), bf16 or fp16")
        ->capture_default_str();
    d->add_flag("--zero", o.zero, "ZeRO-3/FSDP: AllGather parameters, ReduceScatter gradients, per layer");
    d->add_option("--optimizer", o.optimizer, "optimizer step time")->capture_default_str();
    CLI::App* t = g->add_subcommand("tp", "Megatron tensor parallelism: train, prefill or decode");
    shared_options(t, o);
    gpu_options(t, o);
    shape_options(t, o);
    t->add_option("--mode", o.mode, "train, prefill or decode")->capture_default_str();
    t->add_option("--tp", o.tp, "tensor-parallel GPUs")->capture_default_str();
    t->add_option("--tokens", o.tokens, "decode: tokens to generate");
    CLI::App* p = g->add_subcommand("pp", "pipeline parallel step: GPipe or 1F1B");
    shared_options(p, o);
    p->add_option("--stages", o.stages, "pipeline stages (one rank each)")->capture_default_str();
    p->add_option("--microbatches", o.microbatches, "microbatches per step")->capture_default_str();
    p->add_option("--schedule", o.schedule, "gpipe or 1f1b")->capture_default_str();
    p->add_option("--forward", o.forward, "forward time per microbatch and stage");
    p->add_option("--backward", o.backward, "backward time (default twice the forward)");
    p->add_option("--activation", o.activation, "bytes sent between stages per microbatch")->capture_default_str();
    CLI::App* m = g->add_subcommand("moe", "mixture-of-experts layers: skewed All-to-All dispatch and combine");
    shared_options(m, o);
    gpu_options(m, o);
    m->add_option("--ranks", o.ranks, "expert-parallel ranks")->capture_default_str();
    m->add_option("--layers", o.layers, "MoE layers")->capture_default_str();
    m->add_option("--experts", o.experts, "experts (a multiple of ranks)")->capture_default_str();
    m->add_option("--top-k", o.top_k, "experts per token")->capture_default_str();
    m->add_option("--tokens", o.tokens, "tokens per rank (default 4096)");
    m->add_option("--hidden", o.hidden, "hidden size")->capture_default_str();
    m->add_option("--ffn", o.ffn, "expert FFN width (default 14336)");
    m->add_option("--seq", o.seq, "attention context")->capture_default_str();
    m->add_option("--skew", o.skew, "Zipf exponent of expert popularity (0: uniform)")->capture_default_str();
    CLI::App* h = g->add_subcommand("3d", "TP x PP x DP, with TP placed inside or across servers");
    shared_options(h, o);
    gpu_options(h, o);
    shape_options(h, o);
    h->add_option("--tp", o.tp, "tensor-parallel degree")->capture_default_str();
    h->add_option("--pp", o.pp, "pipeline stages")->capture_default_str();
    h->add_option("--dp", o.dp, "data-parallel replicas")->capture_default_str();
    h->add_option("--microbatches", o.microbatches, "microbatches per step")->capture_default_str();
    h->add_option("--schedule", o.schedule, "gpipe or 1f1b")->capture_default_str();
    h->add_option("--tp-placement", o.tp_placement, "inside (TP groups on consecutive GPUs) or across")
        ->capture_default_str();
    h->add_option("--bucket", o.bucket, "DP gradient bucket")->capture_default_str();
    h->add_option("--overlap", o.overlap, "DP AllReduce during the last backward (on) or after it (off)")
        ->capture_default_str();
    return g;
}

int run_gen(const CLI::App& g, const GenCliOptions& o) {
    if (o.format != "json" && o.format != "yaml") bad("--format", "json or yaml", o.format);
    Json doc;
    try {
        const std::string which = g.get_subcommands().front()->get_name();
        doc = which == "dp" ? dp(o) : which == "tp" ? tp(o) : which == "pp" ? pp(o) : which == "moe" ? moe(o) : hybrid(o);
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        const auto colon = what.find(": ");
        bad(what.substr(0, colon), colon == std::string::npos ? what : what.substr(colon + 2), "another value");
    }
    const std::string text = o.format == "yaml" ? render_yaml(doc) : render_json(doc);
    if (o.output.empty()) {
        std::fwrite(text.data(), 1, text.size(), stdout);
    } else {
        std::ofstream out(o.output);
        if (!out) bad("--output", "a file that can be written", o.output);
        out << text;
    }
    return 0;
}

}  // namespace collsim
