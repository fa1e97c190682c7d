#include "sim/sweep/sweep_html.hpp"

#include <fmt/format.h>

#include "sim/sweep/sweep_plot.hpp"

namespace collsim {

std::string render_sweep_html(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                              const std::map<std::size_t, std::vector<std::string>>& rows, const HtmlProvenance& p) {
    HtmlReport html("collsim sweep: " + spec.file);
    html.paragraph(fmt::format("{} points ({}, {} command), {} with results.", points.size(),
                               spec.zip ? "zip" : "grid", spec.command == SweepCommand::coll ? "coll" : spec.command == SweepCommand::replay ? "replay" : "plan",
                               rows.size()));
    if (!spec.plots.empty()) {
        html.heading("Plots");
        for (const SweepPlot& plot : spec.plots)
            for (const SweepChart& c : render_sweep_plots(spec, plot, points, rows)) html.figure(c.svg);
    }
    html.heading("Points");
    HtmlTable t;
    t.header.push_back("point");
    for (const SweepParameter& q : spec.parameters) t.header.push_back(q.name);
    for (const std::string& m : sweep_metric_names(spec.command)) t.header.push_back(m);
    for (const SweepPoint& pt : points) {
        const auto it = rows.find(pt.index);
        if (it == rows.end()) continue;
        std::vector<std::string> row{std::to_string(pt.index)};
        for (std::size_t j = 0; j < spec.parameters.size(); ++j) row.push_back(spec.parameters[j].values[pt.choice[j]]);
        row.insert(row.end(), it->second.begin(), it->second.end());
        t.rows.push_back(std::move(row));
    }
    html.table(t);
    return html.render(p);
}

std::vector<HtmlInput> sweep_inputs(const SweepSpec& spec) {
    std::vector<HtmlInput> inputs;
    add_input(inputs, "spec", spec.file);
    for (const SweepParameter& q : spec.parameters)
        for (const std::string& v : q.values)
            if (is_sweep_file_value(spec, q.name, v)) add_input(inputs, q.name, sweep_value_as_used(spec, q.name, v));
    return inputs;
}

}  // namespace collsim
