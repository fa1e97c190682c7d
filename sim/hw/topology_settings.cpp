#include "sim/hw/topology_settings.hpp"

#include <fmt/format.h>

#include "sim/hw/name_glob.hpp"

namespace collsim {

namespace {

// One step of a path: a field name, then any [selectors] on the list it holds.
struct Step {
    std::string key;
    std::vector<std::string> selectors;
};

// Where a value goes: a field of a mapping (key), or an element of a list.
struct Slot {
    YAML::Node parent;
    std::string key;
    std::size_t index = 0;

    YAML::Node existing() const {
        const YAML::Node& p = parent;  // a const lookup adds nothing
        return key.empty() ? p[index] : p[key];
    }
};

// The fields that tell a list's elements apart: devices, fabrics and named
// nodes by name; node groups by template or prefix; device overrides by device.
constexpr const char* kIdentifiers[] = {"name", "template", "prefix", "device"};

class Setting {
public:
    Setting(YamlFields& f, std::size_t number, const std::string& text)
        : f_(f), where_{fmt::format("--set #{} {}", number, quote_input(text)), 0, 0}, text_(text) {}

    void apply(YAML::Node root);

private:
    [[noreturn]] void fail(const std::string& field, std::string expected, std::string found) const {
        throw InputError(where_, field, std::move(expected), std::move(found));
    }
    std::vector<Step> parse_path(const std::string& path) const;
    std::vector<Slot> find_key(const YAML::Node& node, const std::string& key, const std::string& at, bool last) const;
    std::vector<Slot> select(const YAML::Node& list, const std::string& selector, const std::string& at) const;
    YAML::Node value_of(const Slot& s, const std::string& at) const;
    void set_link(const std::vector<YAML::Node>& bodies, const std::string& ends, const std::vector<Step>& rest,
                  const std::string& at, const YAML::Node& value);
    void place_tree(const YAML::Node& n);

    YamlFields& f_;
    SourceLocation where_;
    std::string text_;
};

std::vector<Step> Setting::parse_path(const std::string& path) const {
    const std::string expected = "a path of fields separated by '.', like fabrics.ib.oversubscription or links[A--B].lanes";
    std::vector<Step> steps;
    std::size_t i = 0;
    for (;;) {
        Step s;
        while (i < path.size() && path[i] != '.' && path[i] != '[' && path[i] != ']') s.key += path[i++];
        if (s.key.empty()) fail("--set", expected, fmt::format("'{}', with an empty field at character {}", path, i + 1));
        while (i < path.size() && path[i] == '[') {
            const std::size_t start = ++i;
            int depth = 1;  // a selector's glob may hold [0-7] sets
            for (; i < path.size() && depth > 0; ++i) depth += path[i] == '[' ? 1 : path[i] == ']' ? -1 : 0;
            if (depth > 0) fail("--set", expected, fmt::format("'{}', with a '[' never closed", path));
            s.selectors.push_back(path.substr(start, i - 1 - start));
            if (s.selectors.back().empty()) fail("--set", expected, fmt::format("'{}', with an empty []", path));
        }
        steps.push_back(std::move(s));
        if (i == path.size()) return steps;
        if (path[i] != '.') fail("--set", expected, fmt::format("'{}', with '{}' at character {}", path, path[i], i + 1));
        ++i;
    }
}

std::string identifiers_of(const YAML::Node& list) {
    std::string out;
    std::size_t shown = 0;
    for (const YAML::Node& e : list) {
        std::string id;
        if (e.IsMap())
            for (const char* field : kIdentifiers)
                if (e[field] && e[field].IsScalar()) id += (id.empty() ? "" : "/") + e[field].Scalar();
        if (id.empty()) continue;
        if (++shown > 8) return out + ", ...";
        out += (out.empty() ? "" : ", ") + id;
    }
    return out.empty() ? "none has a name, template, prefix or device" : out;
}

std::vector<Slot> glob_elements(const YAML::Node& list, const std::string& pattern) {
    const NameGlob glob(pattern);
    std::vector<Slot> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node e = list[i];
        if (!e.IsMap()) continue;
        for (const char* field : kIdentifiers)
            if (e[field] && e[field].IsScalar() && glob.matches(e[field].Scalar())) {
                out.push_back(Slot{list, "", i});
                break;
            }
    }
    return out;
}

// `last`: the path ends here, so a missing field is added (and checked by validation).
std::vector<Slot> Setting::find_key(const YAML::Node& node, const std::string& key, const std::string& at,
                                    bool last) const {
    const std::string field = at.empty() ? key : at + "." + key;
    if (node.IsMap()) return {Slot{node, key}};
    if (node.IsSequence()) {
        if (auto hits = glob_elements(node, key); !hits.empty()) return hits;
        if (node.size() == 1 && node[0].IsMap() && (last || node[0][key])) return {Slot{node[0], key}};
        fail(field, fmt::format("an element of {} whose name, template, prefix or device matches '{}' ({}), or {}[N] "
                                "with N below {}", at, key, identifiers_of(node), at, node.size()),
             "no such element");
    }
    fail(field, fmt::format("a field under {}", at.empty() ? "the topology" : at),
         fmt::format("{} is {}, with no fields", at, describe_node(node)));
}

std::vector<Slot> Setting::select(const YAML::Node& list, const std::string& selector, const std::string& at) const {
    const std::string field = fmt::format("{}[{}]", at, selector);
    if (!list.IsSequence())
        fail(field, fmt::format("a list under {} to choose from", at), fmt::format("{}", describe_node(list)));
    if (selector.find_first_not_of("0123456789") == std::string::npos) {
        const std::size_t index = std::stoul(selector);
        if (index >= list.size())
            fail(field, fmt::format("an index below {} (the entries of {})", list.size(), at), selector);
        return {Slot{list, "", index}};
    }
    auto hits = glob_elements(list, selector);
    if (hits.empty())
        fail(field, fmt::format("an element of {} whose name, template, prefix or device matches ({})", at,
                                identifiers_of(list)),
             fmt::format("'{}', which matches nothing", selector));
    return hits;
}

YAML::Node Setting::value_of(const Slot& s, const std::string& at) const {
    YAML::Node n = s.existing();
    if (n.IsDefined()) return n;
    std::string fields;
    for (const auto& kv : s.parent) fields += (fields.empty() ? "" : ", ") + kv.first.as<std::string>();
    fail(at, fmt::format("one of the fields there: {}", fields.empty() ? "none" : fields),
         fmt::format("no field '{}'", s.key));
}

void Setting::place_tree(const YAML::Node& n) {
    f_.place(n, where_);
    if (n.IsMap()) {
        for (const auto& kv : n) {
            f_.place(kv.first, where_);
            place_tree(kv.second);
        }
    } else if (n.IsSequence()) {
        for (const YAML::Node& e : n) place_tree(e);
    }
}

// links[A--B].FIELD=V as {link: [A, B], FIELD: V} at the end of each body's
// overrides: the override reader matches the built links and checks FIELD.
void Setting::set_link(const std::vector<YAML::Node>& bodies, const std::string& ends, const std::vector<Step>& rest,
                       const std::string& at, const YAML::Node& value) {
    const std::size_t dash = ends.find("--");
    if (rest.size() != 1 || !rest[0].selectors.empty())
        fail(at, "one link field after links[A--B]: bandwidth, gen, lanes or latency",
             rest.empty() ? "nothing" : "a longer path");
    for (YAML::Node body : bodies) {
        YAML::Node o(YAML::NodeType::Map);
        YAML::Node pair(YAML::NodeType::Sequence);
        pair.push_back(ends.substr(0, dash));
        pair.push_back(ends.substr(dash + 2));
        o["link"] = pair;
        o[rest[0].key] = YAML::Clone(value);
        const YAML::Node& view = body;
        if (!view["overrides"]) body["overrides"] = YAML::Node(YAML::NodeType::Sequence);
        YAML::Node overrides = body["overrides"];
        if (!overrides.IsSequence())
            fail(at, "a body whose overrides are a list", fmt::format("overrides is {}", describe_node(overrides)));
        overrides.push_back(o);
        place_tree(o);
    }
}

void Setting::apply(YAML::Node root) {
    const std::size_t eq = text_.find('=');
    if (eq == std::string::npos || eq == 0) fail("--set", "PATH=VALUE, like nodes.count=256", quote_input(text_));
    const std::vector<Step> steps = parse_path(text_.substr(0, eq));
    YAML::Node value;
    try {
        value = YAML::Load(text_.substr(eq + 1));
    } catch (const YAML::Exception& e) {
        fail("--set", "a YAML value after '='", fmt::format("'{}' ({})", text_.substr(eq + 1), e.msg));
    }
    if (value.IsNull()) fail("--set", "a value after '='", "nothing");

    std::vector<YAML::Node> nodes{root};
    std::vector<Slot> slots;
    std::string at;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const Step& s = steps[k];
        const bool body = k == 0 || (k == 2 && steps[0].key == "templates" && steps[0].selectors.empty() &&
                                     steps[1].selectors.empty());
        if (s.key == "links" && s.selectors.size() == 1 && s.selectors[0].find("--") != std::string::npos) {
            const std::string field = (at.empty() ? "" : at + ".") + "links[" + s.selectors[0] + "]";
            if (!body) fail(field, "links[A--B] at the top of the topology or of a template (templates.NAME.links[...])", at);
            return set_link(nodes, s.selectors[0], std::vector<Step>(steps.begin() + k + 1, steps.end()), field, value);
        }
        slots.clear();
        for (const YAML::Node& n : nodes)
            for (Slot& slot : find_key(n, s.key, at, k + 1 == steps.size() && s.selectors.empty()))
                slots.push_back(std::move(slot));
        at += (at.empty() ? "" : ".") + s.key;
        for (const std::string& sel : s.selectors) {
            std::vector<Slot> chosen;
            for (const Slot& slot : slots)
                for (Slot& c : select(value_of(slot, at), sel, at)) chosen.push_back(std::move(c));
            slots = std::move(chosen);
            at += "[" + sel + "]";
        }
        if (k + 1 == steps.size()) break;
        nodes.clear();
        for (const Slot& slot : slots) nodes.push_back(value_of(slot, at));
    }
    for (Slot& slot : slots) {
        // A copy per target, so a later setting under one does not change the others.
        const YAML::Node copy = YAML::Clone(value);
        if (slot.key.empty()) {
            slot.parent[slot.index] = copy;
        } else {
            slot.parent[slot.key] = copy;
            // A new field's key is the setting's too: an unknown key is reported there.
            for (const auto& kv : slot.parent)
                if (kv.first.as<std::string>() == slot.key) f_.place(kv.first, where_);
        }
        place_tree(copy);
    }
}

}  // namespace

void apply_topology_settings(YAML::Node root, const std::vector<std::string>& settings, YamlFields& f) {
    for (std::size_t i = 0; i < settings.size(); ++i) {
        try {
            Setting(f, i + 1, settings[i]).apply(root);
        } catch (const InputError& e) {
            f.add(e);
        }
    }
}

}  // namespace collsim
