#pragma once
// A model card: the shape of a transformer as its published config gives it
// (models/README.md has the schema). Dense and mixture-of-experts models;
// attention is multi-head, grouped-query or DeepSeek's multi-head latent
// attention (MLA), whose low-rank projections the card lists.
#include <cstdint>
#include <optional>
#include <string>

namespace collsim {

enum class MlpKind { gelu, swiglu };

struct MlaShape {
    int64_t q_lora_rank = 0;   // 0: queries projected at full rank
    int64_t kv_lora_rank = 0;
    int64_t qk_nope_head_dim = 0, qk_rope_head_dim = 0, v_head_dim = 0;
};

struct MoeShape {
    int64_t experts = 0;         // routed experts per MoE layer
    int64_t top_k = 0;           // routed experts each token visits
    int64_t expert_ffn = 0;      // intermediate size of one expert
    int64_t shared_experts = 0;  // always-on experts of the same size
    int64_t dense_layers = 0;    // leading layers with a dense MLP instead
};

struct ModelCard {
    std::string name, source, file;
    double published_params = 0;          // total, as the source states it
    double published_active_params = 0;   // MoE: per token; 0 for dense models
    int64_t layers = 0, hidden = 0, ffn = 0, heads = 0, kv_heads = 0, head_dim = 0, vocab = 0;
    int64_t max_positions = 0;  // learned position embeddings (GPT-3); 0: rotary, no parameters
    MlpKind mlp = MlpKind::swiglu;
    bool tied_embeddings = false;
    bool biases = false;   // linear layers and norms carry biases (GPT-3)
    bool dropout = false;  // trained with dropout (its masks are stored activations)
    std::optional<MlaShape> mla;
    std::optional<MoeShape> moe;
    std::string note;  // what the card approximates

    int64_t q_dim() const { return heads * head_dim; }
    int64_t kv_dim() const { return kv_heads * head_dim; }
    bool is_moe() const { return moe.has_value(); }
    // MoE layers of the model (0 for a dense one).
    int64_t moe_layers() const { return moe ? layers - moe->dense_layers : 0; }
};

// Reads and validates a card. Throws InputErrors naming file:line:col and
// field for every problem found.
ModelCard load_model_card(const std::string& path);
ModelCard parse_model_card(const std::string& text, const std::string& name);

// --model: a path to a YAML file, or the name of a card in `models_dir`
// (models/NAME.yaml). Throws InputError naming --model and the cards there.
ModelCard find_model_card(const std::string& model, const std::string& models_dir);
// The file find_model_card reads for `model`.
std::string find_model_card_file(const std::string& model, const std::string& models_dir);

}  // namespace collsim
