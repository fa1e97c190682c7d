#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "sim/core/error.hpp"
#include "sim/plan/model_card.hpp"
#include "sim/plan/model_math.hpp"
#include "tests/support/run_cli.hpp"

using namespace collsim;
namespace fs = std::filesystem;

namespace {
std::vector<ModelCard> plan_shipped_cards() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(test::source_path("models")))
        if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<ModelCard> cards;
    for (const auto& f : files) cards.push_back(load_model_card(f.string()));
    return cards;
}

std::string plan_card_error(const std::string& text) {
    try {
        parse_model_card(text, "card.yaml");
    } catch (const InputErrors& e) {
        return e.what();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

const std::string kPlanCardBase =
    "name: t\nsource: test\npublished_params: \"1e9\"\nlayers: 2\nhidden: 64\nffn: 256\nheads: 4\nvocab: 100\n";
}  // namespace

TEST_CASE("every shipped model card counts within 1% of its published parameters", "[plan]") {
    const auto cards = plan_shipped_cards();
    REQUIRE(cards.size() >= 6);
    for (const ModelCard& c : cards) {
        INFO(c.name << ": " << c.source);
        const ParamCounts p = count_params(c);
        CHECK(std::abs(p.total / c.published_params - 1) < 0.01);
        // Active parameters are published to 2-3 digits (DeepSeek-V3's "37B",
        // Mixtral's "12.9B"): 2%.
        if (c.is_moe()) CHECK(std::abs(p.active / c.published_active_params - 1) < 0.02);
    }
}

TEST_CASE("the issue's models are among the cards: GPT-3, Llama 3 8B/70B/405B, Mixtral, DeepSeek-V3", "[plan]") {
    std::set<std::string> names;
    for (const ModelCard& c : plan_shipped_cards()) names.insert(c.name);
    for (const char* n : {"gpt3-175b", "llama-3-8b", "llama-3-70b", "llama-3-405b", "mixtral-8x7b", "deepseek-v3"})
        CHECK(names.count(n) == 1);
}

TEST_CASE("Llama-3-8B's parameters, counted by hand", "[plan]") {
    const ModelCard c = load_model_card(test::source_path("models/llama-3-8b.yaml"));
    // Per layer: q and o 4096^2 each, k and v 4096 x 1024 each, MLP 3 x 4096 x
    // 14336, two RMSNorm scales of 4096: 218,112,000. 32 layers, two
    // 128,256 x 4096 embeddings (untied) and the final norm.
    CHECK(count_params(c).total == 32.0 * 218'112'000 + 2.0 * 128'256 * 4096 + 4096);
    // Llama-3-70B's layer, which gen 3d had at 738M (issue 25): 855.6M.
    const ModelCard l70 = load_model_card(test::source_path("models/llama-3-70b.yaml"));
    CHECK(count_params(l70).layer_total(false, l70) == Approx(855'654'400.0));
}

TEST_CASE("training FLOPs per token are 6 x the matmul weights plus 12 L q s for attention", "[plan]") {
    for (const ModelCard& c : plan_shipped_cards()) {
        INFO(c.name);
        const ParamCounts p = count_params(c);
        const int64_t seq = 4096;
        const TokenFlops f = token_flops(c, seq);
        // The 6N rule over the weights a token multiplies by: every active
        // parameter but the input embedding (and position table) and the norm
        // scales; the tied output head is the embedding read once more.
        const double n = p.active - p.embedding - p.head - p.norms * static_cast<double>(c.layers) -
                         (c.biases ? 2 : 1) * static_cast<double>(c.hidden) + static_cast<double>(c.vocab * c.hidden);
        CHECK(3 * f.matmul == Approx(6 * n).epsilon(1e-9));
        CHECK(3 * f.matmul == Approx(6 * p.active).epsilon(0.08));
        if (!c.mla) CHECK(3 * f.attention == Approx(12.0 * c.layers * c.q_dim() * seq).epsilon(1e-12));
        CHECK(f.training(Recompute::full) == Approx(4 * f.forward()));
        CHECK(f.training(Recompute::selective) == Approx(3 * f.forward() + f.attention));
        CHECK(f.model_training() == Approx(f.training(Recompute::none)));
    }
}

TEST_CASE("a model card's errors name the file, line, field, expected and found", "[plan]") {
    CHECK_THAT(plan_card_error(kPlanCardBase + "mlp: relu\n"),
               Catch::Contains("card.yaml:9:6: model.mlp: expected gelu or swiglu, found 'relu'"));
    CHECK_THAT(plan_card_error(kPlanCardBase + "mlp: gelu\nwidth: 3\n"),
               Catch::Contains("model.width: expected one of the keys"));
    CHECK_THAT(plan_card_error("name: t\nsource: s\nlayers: 2\n"),
               Catch::Contains("model.hidden: expected an integer (required), found no such field"));
    CHECK_THAT(plan_card_error(kPlanCardBase + "mlp: gelu\nkv_heads: 3\n"),
               Catch::Contains("model.kv_heads: expected a divisor of heads (4), found 3"));
    CHECK_THAT(plan_card_error(kPlanCardBase + "mlp: gelu\nlayers_: 1\n"), Catch::Contains("unknown key 'layers_'"));
    CHECK_THAT(plan_card_error("name: t\nsource: s\npublished_params: many\n"),
               Catch::Contains("model.published_params: expected a positive count like '70.6e9', found 'many'"));
    CHECK_THAT(plan_card_error(kPlanCardBase + "mlp: gelu\nmoe: {experts: 4, top_k: 8, expert_ffn: 32}\n"),
               Catch::Contains("model.moe.top_k: expected at most 4, found 8"));
    CHECK_THAT(plan_card_error(kPlanCardBase + "mlp: gelu\nmoe: {experts: 4, top_k: 2, expert_ffn: 32}\n"),
               Catch::Contains("model.published_active_params: expected the parameters a token uses"));
    CHECK_THAT(plan_card_error("name: t\nsource: s\npublished_params: \"1e9\"\nlayers: 0\n"),
               Catch::Contains("card.yaml:4:9: model.layers: expected 1 or more, found 0"));
}
