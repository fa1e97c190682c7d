#include "sim/plan/model_card.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/yaml_fields.hpp"

namespace collsim {

namespace {

std::string fmt_at_most(int64_t n) { return "at most " + std::to_string(n); }

// "70.6e9" or "70553706496": a parameter count as the source states it.
std::optional<double> card_count(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key,
                                 bool required) {
    const auto text = f.string(map, path, key, required);
    if (!text) return std::nullopt;
    double v = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc() || end != text->data() + text->size() || !std::isfinite(v) || v <= 0) {
        f.error(map[key], path + "." + key, "a positive count like '70.6e9'", "'" + *text + "'");
        return std::nullopt;
    }
    return v;
}

// A positive integer field; 0 when absent and optional.
int64_t card_positive(YamlFields& f, const YAML::Node& map, const std::string& path, const char* key,
                      bool required, int64_t min = 1) {
    const auto v = f.integer(map, path, key, required);
    if (!v) return 0;
    if (*v < min) {
        f.error(map[key], path + "." + key, min == 0 ? "0 or more" : "1 or more", std::to_string(*v));
        return 0;
    }
    return *v;
}

MlaShape read_mla(YamlFields& f, const YAML::Node& n, const std::string& path) {
    MlaShape m;
    if (!f.expect_map(n, path)) return m;
    f.check_keys(n, path, {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"});
    m.q_lora_rank = card_positive(f, n, path, "q_lora_rank", false, 0);
    m.kv_lora_rank = card_positive(f, n, path, "kv_lora_rank", true);
    m.qk_nope_head_dim = card_positive(f, n, path, "qk_nope_head_dim", true);
    m.qk_rope_head_dim = card_positive(f, n, path, "qk_rope_head_dim", true);
    m.v_head_dim = card_positive(f, n, path, "v_head_dim", true);
    return m;
}

MoeShape read_moe(YamlFields& f, const YAML::Node& n, const std::string& path) {
    MoeShape m;
    if (!f.expect_map(n, path)) return m;
    f.check_keys(n, path, {"experts", "top_k", "expert_ffn", "shared_experts", "dense_layers"});
    m.experts = card_positive(f, n, path, "experts", true);
    m.top_k = card_positive(f, n, path, "top_k", true);
    m.expert_ffn = card_positive(f, n, path, "expert_ffn", true);
    m.shared_experts = card_positive(f, n, path, "shared_experts", false, 0);
    m.dense_layers = card_positive(f, n, path, "dense_layers", false, 0);
    if (m.experts > 0 && m.top_k > m.experts)
        f.error(n["top_k"], path + ".top_k", fmt_at_most(m.experts), std::to_string(m.top_k));
    return m;
}

ModelCard read_card(const YAML::Node& root, const std::string& file) {
    YamlFields f(file);
    ModelCard c;
    c.file = file;
    const std::string p = "model";
    if (!f.expect_map(root, p)) f.throw_if_errors();
    f.check_keys(root, p,
                 {"name", "source", "published_params", "published_active_params", "layers", "hidden", "ffn",
                  "heads", "kv_heads", "head_dim", "vocab", "max_positions", "mlp", "tied_embeddings", "biases",
                  "dropout", "mla", "moe", "note"});
    c.name = f.string(root, p, "name", true).value_or("");
    c.source = f.string(root, p, "source", true).value_or("");
    c.note = f.string(root, p, "note", false).value_or("");
    c.published_params = card_count(f, root, p, "published_params", true).value_or(0);
    c.published_active_params = card_count(f, root, p, "published_active_params", false).value_or(0);
    c.layers = card_positive(f, root, p, "layers", true);
    c.hidden = card_positive(f, root, p, "hidden", true);
    c.ffn = card_positive(f, root, p, "ffn", true);
    c.heads = card_positive(f, root, p, "heads", true);
    c.kv_heads = card_positive(f, root, p, "kv_heads", false);
    c.head_dim = card_positive(f, root, p, "head_dim", false);
    c.vocab = card_positive(f, root, p, "vocab", true);
    c.max_positions = card_positive(f, root, p, "max_positions", false, 0);
    if (const auto mlp = f.string(root, p, "mlp", true)) {
        if (*mlp == "gelu") c.mlp = MlpKind::gelu;
        else if (*mlp == "swiglu") c.mlp = MlpKind::swiglu;
        else f.error(root["mlp"], p + ".mlp", "gelu or swiglu", "'" + *mlp + "'");
    }
    c.tied_embeddings = f.boolean(root, p, "tied_embeddings", false).value_or(false);
    c.biases = f.boolean(root, p, "biases", false).value_or(false);
    c.dropout = f.boolean(root, p, "dropout", false).value_or(false);
    if (root["mla"]) c.mla = read_mla(f, root["mla"], p + ".mla");
    if (root["moe"]) c.moe = read_moe(f, root["moe"], p + ".moe");
    if (c.kv_heads == 0) c.kv_heads = c.heads;
    if (c.head_dim == 0 && c.heads > 0) c.head_dim = c.hidden / c.heads;
    if (c.heads > 0 && c.kv_heads > 0 && c.heads % c.kv_heads != 0)
        f.error(root["kv_heads"], p + ".kv_heads", "a divisor of heads (" + std::to_string(c.heads) + ")",
                std::to_string(c.kv_heads));
    if (c.moe && c.moe->dense_layers >= c.layers && c.layers > 0)
        f.error(root["moe"]["dense_layers"], p + ".moe.dense_layers", fmt_at_most(c.layers - 1),
                std::to_string(c.moe->dense_layers));
    if (c.moe && c.published_active_params == 0)
        f.error(root, p + ".published_active_params", "the parameters a token uses (required with moe)",
                "no such field");
    f.throw_if_errors();
    return c;
}

}  // namespace

ModelCard load_model_card(const std::string& path) { return read_card(load_yaml_file(path), path); }

ModelCard parse_model_card(const std::string& text, const std::string& name) {
    return read_card(load_yaml_text(text, name), name);
}

ModelCard find_model_card(const std::string& model, const std::string& models_dir) {
    return load_model_card(find_model_card_file(model, models_dir));
}

std::string find_model_card_file(const std::string& model, const std::string& models_dir) {
    namespace fs = std::filesystem;
    if (model.ends_with(".yaml") || model.ends_with(".yml") || model.find('/') != std::string::npos) return model;
    for (const fs::path& dir : {fs::path("models"), fs::path(models_dir)}) {
        const fs::path file = dir / (model + ".yaml");
        if (fs::exists(file)) return file.string();
    }
    std::string names;
    std::error_code ec;  // a missing folder lists no cards
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(models_dir, ec))
        if (e.path().extension() == ".yaml") found.push_back(e.path().stem().string());
    std::sort(found.begin(), found.end());
    for (const auto& n : found) names += (names.empty() ? "" : ", ") + n;
    throw InputError(SourceLocation{"", 0, 0}, "--model",
                     "a model card file or one of " + (names.empty() ? std::string("the cards in models/") : names),
                     "'" + model + "'");
}

}  // namespace collsim
