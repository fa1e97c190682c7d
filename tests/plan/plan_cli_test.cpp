#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.hpp"

using collsim::test::run_cli;

namespace {
const std::string kPlan128 = "plan --topology topologies/cluster-h100-16n.yaml ";
const std::string kPlanSearch =
    kPlan128 + "--model llama-3-8b --gpus 64 --global-batch 256 --seq 4096 --search --format json";
}  // namespace

TEST_CASE("plan JSON has the issue's keys and no others, after the provenance every JSON carries", "[plan]") {
    const auto r = run_cli(kPlan128 + "--model llama-3-70b --tp 8 --pp 4 --dp 4 --global-batch 128 --format json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"bottleneck", "bubble_share", "collsim_version", "communication", "gpus",
                                           "inputs", "layout", "memory_per_gpu", "mfu", "model", "step_time_us",
                                           "tokens_per_s"});
    CHECK(j["inputs"]["topology"]["fnv1a64"].is_string());
    CHECK(j["inputs"]["model"] == "fluid");
    std::vector<std::string> layout, memory;
    for (auto it = j["layout"].begin(); it != j["layout"].end(); ++it) layout.push_back(it.key());
    for (auto it = j["memory_per_gpu"].begin(); it != j["memory_per_gpu"].end(); ++it) memory.push_back(it.key());
    CHECK(layout == std::vector<std::string>{"cp", "dp", "ep", "pp", "tp"});
    CHECK(memory == std::vector<std::string>{"activations", "buffers", "capacity", "fits", "gradients", "optimizer",
                                             "total", "weights"});
    REQUIRE(!j["communication"].empty());
    for (const auto& c : j["communication"]) {
        std::vector<std::string> ck;
        for (auto it = c.begin(); it != c.end(); ++it) ck.push_back(it.key());
        CHECK(ck == std::vector<std::string>{"exposed_us", "group", "op", "overlapped_us", "share"});
    }
    CHECK(j["memory_per_gpu"]["fits"] == true);
    CHECK(j["step_time_us"].get<double>() > 0);
    // Shares and the bubble are parts of one step.
    double parts = j["bubble_share"].get<double>();
    for (const auto& c : j["communication"]) parts += c["share"].get<double>();
    CHECK(parts < 1.0);
}

TEST_CASE("a layout that does not fit memory is refused with the numbers and no step time", "[plan]") {
    const auto r = run_cli("plan --topology topologies/dgx-h100.yaml --model llama-3-405b --tp 8 --global-batch 8");
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("DOES NOT FIT"));
    CHECK_THAT(r.err, Catch::Contains("does not fit:") && Catch::Contains("GiB per GPU on stage 0 against a capacity "
                                                                          "of 74.51 GiB (weights 94.50 GiB"));
    CHECK_THAT(r.out, !Catch::Contains("tokens/s"));
    const auto j = run_cli("plan --topology topologies/dgx-h100.yaml --model llama-3-405b --tp 8 --global-batch 8 "
                           "--format json");
    CHECK(j.exit_code == 1);
    const auto doc = nlohmann::json::parse(j.out);
    CHECK(doc["memory_per_gpu"]["fits"] == false);
    CHECK(doc["step_time_us"].is_null());
    CHECK(doc["tokens_per_s"].is_null());
}

TEST_CASE("--search returns only layouts that fit, best first, byte-identical across runs", "[plan]") {
    const auto a = run_cli(kPlanSearch);
    REQUIRE(a.exit_code == 0);
    const auto b = run_cli(kPlanSearch);
    CHECK(a.out == b.out);
    const auto j = nlohmann::json::parse(a.out);
    REQUIRE(j["layouts"].size() >= 10);
    CHECK(j["searched"].get<int>() > static_cast<int>(j["fitting"].get<int>()));  // some do not fit
    double last = 1e300;
    for (const auto& e : j["layouts"]) {
        CHECK(e["plan"]["memory_per_gpu"]["fits"] == true);
        const double tps = e["plan"]["tokens_per_s"].get<double>();
        CHECK(tps <= last);
        last = tps;
        const auto& l = e["plan"]["layout"];
        CHECK(l["tp"].get<int>() * l["pp"].get<int>() * l["dp"].get<int>() * l["cp"].get<int>() == 64);
    }
}

TEST_CASE("a search spread over shards covers the whole search once", "[plan]") {
    const auto whole = nlohmann::json::parse(run_cli(kPlanSearch).out);
    int searched = 0, fitting = 0;
    for (const char* shard : {"0/3", "1/3", "2/3"}) {
        const auto part = nlohmann::json::parse(run_cli(kPlanSearch + " --shard " + shard).out);
        searched += part["searched"].get<int>();
        fitting += part["fitting"].get<int>();
    }
    CHECK(searched == whole["searched"].get<int>());
    CHECK(fitting == whole["fitting"].get<int>());
}

TEST_CASE("decode at batch 1 spends its time in weights and per-layer TP AllReduce latency", "[plan]") {
    const auto r = run_cli("plan --topology topologies/dgx-h100.yaml --model llama-3-70b --mode decode --tp 8 "
                           "--batch 1 --context 4096 --format json");
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["tp_allreduce_us_per_layer"].get<double>() > 10);  // two latency-bound AllReduces of 16 KiB
    CHECK(j["tp_share"].get<double>() > 0.2);
    CHECK(j["time_per_request_us"].get<double>() == Approx(256 * j["time_per_token_us"].get<double>()));
}

TEST_CASE("plan's bad inputs name the option, what it expects and what it found", "[plan]") {
    struct Case {
        std::string args, message;
    };
    const std::string m70 = kPlan128 + "--model llama-3-70b ";
    for (const Case& c : std::vector<Case>{
             {m70 + "--tp 3 --dp 1 --gpus 3", "--tp: expected a divisor of the 64 attention heads"},
             {m70 + "--tp 16", "--tp: expected at most the 8 GPUs of a server"},
             {m70 + "--tp 8 --pp 3", "--gpus: expected tp x pp x dp x cp = 8 x 3 x 5 x 1 = 120, found '128'"},
             {m70 + "--tp 1 --pp 128 --dp 1", "--pp: expected pp x vpp at most the model's 80 layers, found '128 x 1'"},
             {m70 + "--tp 8 --global-batch 7", "--global-batch: expected a multiple of dp x micro-batch = 16"},
             {m70 + "--ep 2 --tp 8", "--ep: expected 1 for a dense model"},
             {m70 + "--zero 4 --tp 8", "--zero: expected 0, 1, 2 or 3, found '4'"},
             {m70 + "--recompute some --tp 8", "--recompute: expected one of none, selective, full, found 'some'"},
             {m70 + "--dtype fp4", "--dtype: expected bf16 or fp8, found 'fp4'"},
             {m70 + "--overlap maybe", "--overlap: expected on or off, found 'maybe'"},
             {m70 + "--format csv", "--format: expected table or json, found 'csv'"},
             {m70 + "--mode serve", "--mode: expected one of train, decode, prefill, found 'serve'"},
             {m70 + "--search", "--global-batch: expected the sequences per step, which a search keeps fixed"},
             {m70 + "--search --global-batch 64 --shard 3/3", "--shard: expected I/N with 0 <= I < N"},
             {m70 + "--gpus 4096", "--gpus: expected at most the 128 GPUs of topology"},
             {m70 + "--gpu h900", "--gpu: expected one of a100-sxm-40gb"},
             {m70 + "--matmul-efficiency 1.5", "--matmul-efficiency: expected a share above 0 and at most 1"},
             {m70 + "--mode decode --batch 0", "--batch: expected 1 or more, found '0'"},
             {kPlan128 + "--model llama-9", "--model: expected a model card file or one of deepseek-v3, gpt3-175b, llama-3-405b"},
             {kPlan128 + "--model models/none.yaml", "models/none.yaml"},
         }) {
        INFO(c.args);
        const auto r = run_cli(c.args);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(c.message));
    }
}
