#include "sim/cli/plan_command.hpp"

#include <cstdint>
#include <cstdio>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/cli/options.hpp"
#include "sim/cli/provenance.hpp"
#include "sim/cli/topology_input.hpp"
#include "sim/core/error.hpp"
#include "sim/hw/nodes.hpp"
#include "sim/hw/topology_loader.hpp"
#include "sim/plan/inference_report.hpp"
#include "sim/plan/plan_html.hpp"
#include "sim/plan/plan_report.hpp"
#include "sim/plan/search.hpp"
#include "sim/validate/calibration_profile.hpp"

#ifndef COLLSIM_MODELS_DIR
#define COLLSIM_MODELS_DIR "models"
#endif

namespace collsim {

namespace {

// GPUs of the topology's first server (TP groups stay inside one).
int plan_gpus_per_node(const Topology& topo) {
    const std::vector<uint32_t> node = node_of_devices(topo);
    int n = 0;
    for (DeviceId g : topo.gpus()) n += node[g] == node[topo.gpus().front()];
    return n;
}

Recompute plan_recompute(const std::string& s) {
    if (s == "none") return Recompute::none;
    if (s == "selective") return Recompute::selective;
    if (s == "full") return Recompute::full;
    bad_option("--recompute", "one of none, selective, full", s);
}

std::pair<int, int> plan_shard(const std::string& s) {
    int i = -1, n = 0;
    char slash = 0;
    if (std::sscanf(s.c_str(), "%d%c%d", &i, &slash, &n) != 3 || slash != '/' || n < 1 || i < 0 || i >= n ||
        fmt::format("{}/{}", i, n) != s)
        bad_option("--shard", "I/N with 0 <= I < N, e.g. 0/4", s);
    return {i, n};
}

void plan_print(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// What every JSON output says of how it was made (provenance.hpp).
Provenance plan_stamp(const PlanCliOptions& o) { return Provenance{o.topology, o.calibration, true, {}, o.tier, o.settings}; }

// What --html lists as read: the model card, the topology, the calibration.
HtmlProvenance plan_provenance(const PlanCliOptions& o) {
    std::vector<HtmlInput> inputs;
    add_input(inputs, "model card", find_model_card_file(o.model, COLLSIM_MODELS_DIR));
    add_input(inputs, "topology", o.topology);
    add_input(inputs, "calibration", o.calibration);
    return report_provenance(o.html, inputs);
}

int run_search(const ModelCard& card, const PlanCliOptions& o, const Layout& base, int per_node,
               const PlanSettings& settings, CollectiveCosts& costs) {
    if (o.top < 1) bad_option("--top", "1 or more", std::to_string(o.top));
    SearchOptions so;
    so.gpus = o.gpus;
    so.gpus_per_node = per_node;
    so.base = base;
    so.sp = o.sp == "auto" || parse_on_off("--sp", o.sp);
    std::tie(so.shard, so.shards) = plan_shard(o.shard);
    const SearchResult r = search_layouts(card, so, settings, costs);
    if (!o.html.file.empty())
        write_html_report(o.html.file, render_search_html(card.name, o.gpus, costs.topology().name(), r,
                                                          static_cast<std::size_t>(o.top), plan_notes(settings),
                                                          plan_provenance(o)));
    if (o.format == "json") {
        nlohmann::ordered_json j;
        j["model"] = card.name;
        j["gpus"] = o.gpus;
        j["searched"] = r.valid;
        j["fitting"] = r.ranked.size();
        j["layouts"] = nlohmann::ordered_json::array();
        for (const PlanResult& p : r.ranked) j["layouts"].push_back({{"micro_batch", p.layout.micro_batch}, {"plan", plan_json(p)}});
        plan_print(stamp_json(j.dump(2), plan_stamp(o)));
        return 0;
    }
    std::string out = fmt::format("# search: {} on {} GPUs ({}): {} layouts valid, {} do not fit memory, {} ranked; "
                                  "{} collectives predicted\n",
                                  card.name, o.gpus, costs.topology().name(), r.valid, r.refused, r.ranked.size(),
                                  costs.predicted());
    out += fmt::format("{:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>12} {:>14} {:>7} {:>8} {:>10}  {}\n", "rank", "tp",
                       "pp", "dp", "cp", "ep", "mb", "step_us", "tokens/s", "mfu", "bubble", "mem_GiB", "bottleneck");
    for (std::size_t i = 0; i < r.ranked.size() && i < static_cast<std::size_t>(o.top); ++i) {
        const PlanResult& p = r.ranked[i];
        const Layout& l = p.layout;
        out += fmt::format("{:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>4} {:>12.1f} {:>14.0f} {:>6.1f}% {:>7.1f}% {:>10.2f}  {}\n",
                           i + 1, l.tp, l.pp, l.dp, l.cp, l.ep, l.micro_batch, p.step * 1e6, p.tokens_per_s,
                           100 * p.mfu, 100 * p.bubble / p.step, p.memory.total() / (1024.0 * 1024 * 1024),
                           p.bottleneck);
    }
    for (const std::string& n : plan_notes(settings)) out += "# note: " + n + "\n";
    plan_print(out);
    return 0;
}

}  // namespace

CLI::App* add_plan_command(CLI::App& app, PlanCliOptions& o) {
    CLI::App* c = app.add_subcommand("plan", "capacity planning: step time, MFU, memory per GPU and communication "
                                             "of a training layout; --search over layouts; inference latency");
    c->add_option("--model,-m", o.model, "model card: a name in models/ or a YAML file")->required();
    c->add_option("--topology,-t", o.topology, "topology YAML file")->required();
    add_set_option(c, o.settings);
    c->add_option("--gpus", o.gpus, "GPUs of the job (default: the topology's)");
    c->add_option("--tp", o.tp, "tensor-parallel size")->capture_default_str();
    c->add_option("--pp", o.pp, "pipeline-parallel size")->capture_default_str();
    c->add_option("--dp", o.dp, "data-parallel size (default: the GPUs left)");
    c->add_option("--ep", o.ep, "expert-parallel size (MoE; part of dp)")->capture_default_str();
    c->add_option("--cp", o.cp, "context-parallel size")->capture_default_str();
    c->add_option("--sp", o.sp, "sequence parallelism: on, off or auto (on when tp > 1)")->capture_default_str();
    c->add_option("--vpp", o.vpp, "interleaved pipeline chunks per stage")->capture_default_str();
    c->add_option("--micro-batch", o.micro_batch, "sequences per micro-batch")->capture_default_str();
    c->add_option("--global-batch", o.global_batch, "sequences per step (default: dp x micro-batch x 4 x pp)");
    c->add_option("--seq", o.seq, "sequence length (default 4096)");
    c->add_option("--zero", o.zero, "ZeRO stage 0-3 (1, 2: Megatron's distributed optimizer)")->capture_default_str();
    c->add_option("--recompute", o.recompute, "none, selective or full")->capture_default_str();
    c->add_option("--dtype", o.dtype, "number format of the matmuls: bf16 or fp8")->capture_default_str();
    c->add_option("--overlap", o.overlap, "overlap the DP gradient reduce and parameter gather: on or off")
        ->capture_default_str();
    c->add_option("--gpu", o.gpu, "GPU card (default: the topology's GPU generation)");
    c->add_option("--matmul-efficiency", o.matmul_efficiency, "share of dense peak large GEMMs sustain (default: the card's)");
    c->add_option("--tier", o.tier, "how collectives are timed: fluid, auto, flow or analytical (model_tier.hpp)")
        ->capture_default_str();
    c->add_option("--calibration", o.calibration, "calibration profile (from collsim calibrate); default: specs");
    c->add_option("--format", o.format, "table or json")->capture_default_str();
    c->add_flag("--search", o.search, "try every layout of --gpus and rank those that fit by tokens/s");
    c->add_option("--top", o.top, "layouts the search table lists")->capture_default_str();
    c->add_option("--shard", o.shard, "search only layouts I mod N (I/N), to spread a search over processes")
        ->capture_default_str();
    c->add_option("--mode", o.mode, "train, decode or prefill")->capture_default_str();
    c->add_option("--batch", o.batch, "inference: sequences per batch")->capture_default_str();
    c->add_option("--context", o.context, "inference: tokens in the cache (decode) or prompt (prefill)")
        ->capture_default_str();
    c->add_option("--tokens", o.tokens, "decode: tokens a request generates")->capture_default_str();
    add_html_option(c, o.html);
    return c;
}

namespace {
PlanSettings plan_settings(const PlanCliOptions& o, const Topology& topo) {
    PlanSettings settings;
    settings.card = o.gpu.empty() ? default_gpu_card(topo.device(topo.gpus().front()).arch) : find_gpu_card(o.gpu);
    if (!settings.card) bad_option("--gpu", gpu_card_choices() + " (the topology's GPUs name no known generation)", o.gpu);
    if (o.matmul_efficiency < 0 || o.matmul_efficiency > 1)
        bad_option("--matmul-efficiency", "a share above 0 and at most 1", std::to_string(o.matmul_efficiency));
    settings.sustained = o.matmul_efficiency;
    return settings;
}

FlopType plan_dtype(const PlanCliOptions& o, const PlanSettings& settings) {
    const std::optional<FlopType> dtype = flop_type_from(o.dtype);
    if (!dtype || (*dtype != FlopType::bf16 && *dtype != FlopType::fp8)) bad_option("--dtype", "bf16 or fp8", o.dtype);
    if (settings.card->peak(*dtype) <= 0)
        bad_option("--dtype", fmt::format("a format {} has tensor cores for", settings.card->name), o.dtype);
    return *dtype;
}

ModelTier plan_tier(const PlanCliOptions& o) {
    const std::optional<ModelTier> tier = model_tier_from(o.tier);
    if (!tier) bad_option("--tier", std::string(model_tier_choices()), o.tier);
    return *tier;
}

int plan_job_gpus(const PlanCliOptions& o, const Topology& topo) {
    const int topo_gpus = static_cast<int>(topo.gpus().size());
    const int gpus = o.gpus > 0 ? o.gpus : topo_gpus;
    if (gpus > topo_gpus)
        bad_option("--gpus", fmt::format("at most the {} GPUs of topology '{}'", topo_gpus, topo.name()),
                   std::to_string(gpus));
    return gpus;
}

// What a plan runs with, loaded and checked. Built in place: costs refers
// to topo and cal (and a Topology is not moved: Boost.Graph copies).
struct PlanInputs {
    explicit PlanInputs(const PlanCliOptions& o)
        : card(find_model_card(o.model, COLLSIM_MODELS_DIR)),
          topo(load_topology(o.topology, nullptr, o.settings)),
          per_node(plan_gpus_per_node(topo)),
          settings(plan_settings(o, topo)),
          dtype(plan_dtype(o, settings)),
          cal(o.calibration.empty() ? Calibration{} : load_calibration(o.calibration)),
          costs(topo, cal, plan_tier(o)),
          gpus(plan_job_gpus(o, topo)) {}
    PlanInputs(const PlanInputs&) = delete;
    PlanInputs& operator=(const PlanInputs&) = delete;

    const ModelCard card;
    const Topology topo;
    const int per_node;
    const PlanSettings settings;
    const FlopType dtype;
    const Calibration cal;
    CollectiveCosts costs;
    const int gpus;
};

// The training layout the options give (before --search varies it).
Layout training_layout(const PlanCliOptions& o, int gpus, FlopType dtype) {
    Layout l;
    l.tp = o.tp, l.pp = o.pp, l.ep = o.ep, l.cp = o.cp, l.vpp = o.vpp, l.zero = o.zero;
    l.dp = o.dp > 0 ? o.dp : std::max(1, gpus / std::max(1, o.tp * o.pp * o.cp));
    l.sp = o.sp == "auto" ? o.tp > 1 : parse_on_off("--sp", o.sp);
    l.recompute = plan_recompute(o.recompute);
    l.dtype = dtype;
    l.overlap = parse_on_off("--overlap", o.overlap);
    l.micro_batch = o.micro_batch;
    l.seq = o.seq > 0 ? o.seq : 4096;
    if (o.seq < 0) bad_option("--seq", "1 or more", std::to_string(o.seq));
    l.global_batch = o.global_batch > 0 ? o.global_batch : static_cast<int64_t>(l.dp) * l.micro_batch * 4 * l.pp;
    if (o.global_batch < 0) bad_option("--global-batch", "1 or more", std::to_string(o.global_batch));
    return l;
}

PlanResult plan_training(PlanInputs& in, const Layout& l) {
    check_layout(in.card, l, in.gpus, in.per_node);
    return plan_layout(in.card, l, in.settings, in.costs);
}
}  // namespace

bool set_plan_layout_option(PlanCliOptions& o, const std::string& key, const std::string& value,
                            const std::string& field) {
    const std::map<std::string, int*> ints{{"gpus", &o.gpus}, {"tp", &o.tp}, {"pp", &o.pp},   {"dp", &o.dp},
                                           {"ep", &o.ep},     {"cp", &o.cp}, {"vpp", &o.vpp}, {"zero", &o.zero}};
    const std::map<std::string, int64_t*> counts{
        {"micro_batch", &o.micro_batch}, {"global_batch", &o.global_batch}, {"seq", &o.seq}};
    const std::map<std::string, std::string*> words{{"recompute", &o.recompute}, {"dtype", &o.dtype},
                                                    {"overlap", &o.overlap},     {"gpu", &o.gpu},
                                                    {"sp", &o.sp},               {"tier", &o.tier}};
    if (auto w = words.find(key); w != words.end()) {
        *w->second = value;
        return true;
    }
    const auto i = ints.find(key);
    const auto c = counts.find(key);
    if (i == ints.end() && c == counts.end()) return false;
    const std::optional<int32_t> n = parse_int32(value);
    if (!n) throw InputError(SourceLocation{}, field, "an integer (32 bits)", quote_input(value));
    if (i != ints.end()) *i->second = *n;
    else *c->second = *n;
    return true;
}

PlanResult plan_training(const PlanCliOptions& o) {
    PlanInputs in(o);
    return plan_training(in, training_layout(o, in.gpus, in.dtype));
}

int run_plan(const PlanCliOptions& o) {
    if (o.format != "table" && o.format != "json") bad_option("--format", "table or json", o.format);
    PlanInputs in(o);
    const ModelCard& card = in.card;
    const int per_node = in.per_node, gpus = in.gpus;
    const PlanSettings& settings = in.settings;
    CollectiveCosts& costs = in.costs;

    if (o.mode == "decode" || o.mode == "prefill") {
        InferenceRequest q;
        q.mode = o.mode == "decode" ? InferenceMode::decode : InferenceMode::prefill;
        q.tp = o.tp, q.pp = o.pp, q.batch = o.batch, q.context = o.context, q.new_tokens = o.tokens;
        q.dtype = in.dtype;
        check_inference(card, q, gpus, per_node);
        const InferenceResult r = plan_inference(card, q, settings, costs);
        if (!o.html.file.empty()) write_html_report(o.html.file, render_inference_html(r, plan_provenance(o)));
        plan_print(o.format == "json" ? stamp_json(inference_json(r).dump(2), plan_stamp(o)) : render_inference_table(r));
        return r.fits() ? 0 : 1;
    }
    if (o.mode != "train") bad_option("--mode", "one of train, decode, prefill", o.mode);

    const Layout l = training_layout(o, gpus, in.dtype);
    if (o.search) {
        if (o.global_batch == 0) bad_option("--global-batch", "the sequences per step, which a search keeps fixed", "nothing");
        PlanCliOptions so = o;
        so.gpus = gpus;
        return run_search(card, so, l, per_node, settings, costs);
    }
    const PlanResult r = plan_training(in, l);
    std::vector<std::string> notes = plan_notes(settings);
    if (!card.note.empty()) notes.push_back(card.name + ": " + card.note);
    plan_print(o.format == "json" ? stamp_json(plan_json(r).dump(2), plan_stamp(o)) : render_plan_table(r, notes));
    if (!o.html.file.empty()) write_html_report(o.html.file, render_plan_html(r, notes, plan_provenance(o)));
    if (!r.memory.fits()) {
        std::fprintf(stderr, "collsim: %s\n", does_not_fit(r).c_str());
        return 1;
    }
    return 0;
}

}  // namespace collsim
