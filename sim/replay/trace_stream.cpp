#include "sim/replay/trace_stream.hpp"

#include <fmt/format.h>

#include "sim/core/json_input.hpp"
#include "sim/core/limits.hpp"
#include "sim/replay/trace_builder.hpp"

namespace collsim {

namespace {

// The containers the reader treats apart from plain values: the trace's
// mapping, the programs list, one entry of it, and a list of ops.
enum class Level { top, programs, entry, ops };

class TraceSax : public nlohmann::json_sax<nlohmann::json> {
public:
    TraceSax(JsonStream& in, int64_t max_ops) : in_(in), f_(in.name()), b_(in.name()), max_ops_(max_ops) {}

    StreamedTrace result;

    Trace finish() {
        if (!root_.IsMap()) {
            f_.expect_map(root_, "trace");
            f_.throw_if_errors();
        }
        TraceBuilder::check_keys(f_, root_);
        if (!b_.has_header()) b_.read_header(f_, root_);
        b_.read_programs(f_, root_);  // program and programs given as something else than lists
        return b_.finish(f_, root_);
    }

    bool null() override { return value(YAML::Node(YAML::NodeType::Null), in_.token_at()); }
    bool boolean(bool v) override { return value(YAML::Node(v ? "true" : "false"), in_.token_at()); }
    bool number_integer(number_integer_t v) override { return value(YAML::Node(std::to_string(v)), in_.number_at()); }
    bool number_unsigned(number_unsigned_t v) override {
        return value(YAML::Node(std::to_string(v)), in_.number_at());
    }
    bool number_float(number_float_t, const string_t& text) override { return value(YAML::Node(text), in_.number_at()); }
    bool string(string_t& s) override { return value(YAML::Node(s), in_.token_at()); }
    bool binary(binary_t&) override { return true; }  // not in JSON text

    bool key(string_t& k) override {
        if (frames_.empty() && levels_.back() == Level::top) {
            if (k == "traceEvents") {
                result.kineto = true;
                return false;
            }
            if (k == "overrides") return stop("it has overrides");
            if (b_.has_header() && k != "description" && k != "generated_by" && k != "program" && k != "programs")
                return stop(fmt::format("its `{}` comes after its programs", k));
        }
        YAML::Node key(k);
        places().place(key, in_.token_at());
        if (!frames_.empty()) {
            frames_.back().key.reset(key);
            return true;
        }
        member_key_.reset(key);
        pending_ = k;
        return true;
    }

    bool start_object(std::size_t) override { return open(YAML::NodeType::Map); }
    bool start_array(std::size_t) override { return open(YAML::NodeType::Sequence); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        if (e.id == 406)  // number overflow (1e400)
            throw InputError(in_.last_read(), "json", "numbers within a double's range", "a number past it");
        throw InputError(in_.last_read(), "json", "well-formed JSON (a native trace)",
                         in_.at_end() ? "the end of the file" : "malformed JSON");
    }

private:
    struct Frame {
        YAML::Node node;
        YAML::Node key;  // of the value being read, in a mapping
    };

    // Where the places of nodes being built go: the op's own reader while an
    // op is read (dropped with it), else the trace's.
    YamlFields& places() { return op_f_ ? *op_f_ : f_; }

    bool stop(std::string why) {
        result.not_streamed = std::move(why);
        return false;
    }

    bool open(YAML::NodeType::value type) {
        if (++depth_ > limits::kMaxJsonDepth) throw json_too_deep(in_.token_at());
        if (frames_.empty()) {
            if (levels_.empty() && type == YAML::NodeType::Map) {  // the trace
                root_.reset(YAML::Node(type));
                f_.place(root_, in_.token_at());
                levels_.push_back(Level::top);
                return true;
            }
            if (type == YAML::NodeType::Sequence && !levels_.empty() && levels_.back() == Level::top &&
                (pending_ == "program" || pending_ == "programs")) {
                if (pending_ == "program") return start_ops("program");
                levels_.push_back(Level::programs);
                return true;
            }
            if (type == YAML::NodeType::Sequence && !levels_.empty() && levels_.back() == Level::entry &&
                pending_ == "ops") {
                entry_has_ops_ = true;
                return start_ops(fmt::format("programs[{}].ops", entries_ - 1));
            }
            if (type == YAML::NodeType::Map && !levels_.empty() && levels_.back() == Level::programs) {
                entry_.reset(YAML::Node(type));
                f_.place(entry_, in_.token_at());
                entry_has_ops_ = false;
                entry_program_.reset();
                ++entries_;
                levels_.push_back(Level::entry);
                return true;
            }
            begin_value();
        }
        YAML::Node n(type);
        places().place(n, in_.token_at());
        frames_.push_back({n, {}});
        return true;
    }

    bool close() {
        --depth_;
        if (!frames_.empty()) {
            YAML::Node n = frames_.back().node;
            frames_.pop_back();
            return attach(n);
        }
        const Level level = levels_.back();
        levels_.pop_back();
        if (level == Level::ops) {
            std::optional<ProgramSource> program = reader_->finish(f_);
            reader_.reset();
            if (levels_.back() == Level::top) b_.assign_all(std::move(program));
            else entry_program_ = std::move(program);
        } else if (level == Level::entry) {
            return end_entry(entry_, entry_has_ops_);
        }
        return true;
    }

    bool value(YAML::Node n, SourceLocation where) {
        if (frames_.empty()) begin_value();
        places().place(n, std::move(where));
        return attach(n);
    }

    // A value begins outside any node being built: an op starts its own reader.
    void begin_value() {
        if (levels_.empty()) return;
        if (levels_.back() == Level::ops) {
            op_at_ = in_.token_at();
            op_f_.emplace(in_.name());
        } else if (levels_.back() == Level::programs) {
            ++entries_;
        }
    }

    bool attach(const YAML::Node& n) {
        if (!frames_.empty()) {
            Frame& top = frames_.back();
            if (top.node.IsMap()) top.node.force_insert(top.key, n);
            else top.node.push_back(n);
            return true;
        }
        if (levels_.empty()) {
            root_.reset(n);  // a trace that is not a mapping: finish() reports it
            return true;
        }
        switch (levels_.back()) {
            case Level::top: root_.force_insert(member_key_, n); break;
            case Level::entry:
                entry_.force_insert(member_key_, n);
                if (pending_ == "ops") entry_has_ops_ = true;
                break;
            case Level::programs: return end_entry(n, false);
            case Level::ops: add_op(n); break;
        }
        return true;
    }

    // The header is read when the first op comes: ops need the ranks and
    // communicators. Without ranks so far, they may come later: not streamed.
    bool header_ready() {
        if (b_.has_header()) return true;
        if (!root_["ranks"]) return stop("its `ranks` comes after its programs");
        b_.read_header(f_, root_);
        return true;
    }

    bool start_ops(const std::string& path) {
        if (!header_ready()) return false;
        reader_.emplace(path, false);
        levels_.push_back(Level::ops);
        return true;
    }

    void add_op(const YAML::Node& n) {
        if (++ops_ > max_ops_)
            throw InputError(op_at_, reader_->path(),
                             fmt::format("at most {} ops in a native trace (the native trace op limit)", max_ops_),
                             fmt::format("op {}", ops_));
        reader_->add(*op_f_, n, b_.trace());
        f_.absorb(*op_f_);
        op_f_.reset();
    }

    // programs[i] read: its ranks (from `entry`) and its program.
    bool end_entry(const YAML::Node& entry, bool has_ops) {
        const std::string path = fmt::format("programs[{}]", entries_ - 1);
        if (!header_ready()) return false;
        const auto ranks = b_.entry_ranks(f_, entry, path, has_ops);
        if (ranks && !entry_program_ && entry.IsMap() && entry["ops"])  // ops given as something else than a list
            entry_program_ = read_program_node(f_, entry["ops"], ProgramReader(path + ".ops", false), b_.trace());
        if (ranks) b_.assign(std::move(entry_program_), *ranks);
        entry_program_.reset();
        return true;
    }

    // Nodes held here are rebound with reset(): a YAML::Node's operator=
    // writes through to the node it held (a key already in a mapping).
    JsonStream& in_;
    YamlFields f_;
    TraceBuilder b_;
    YAML::Node root_, entry_, member_key_;
    std::string pending_;  // the key whose value comes next, outside nodes being built
    std::vector<Level> levels_;
    std::vector<Frame> frames_;
    int depth_ = 0;
    int64_t max_ops_, ops_ = 0;
    int entries_ = 0;
    bool entry_has_ops_ = false;
    std::optional<ProgramReader> reader_;
    std::optional<ProgramSource> entry_program_;
    std::optional<YamlFields> op_f_;
    SourceLocation op_at_;
};

}  // namespace

StreamedTrace stream_json_trace(JsonStream& in, int64_t max_ops) {
    TraceSax sax(in, max_ops);
    if (!in.parse(sax)) return std::move(sax.result);
    StreamedTrace out;
    out.trace = sax.finish();
    return out;
}

}  // namespace collsim
