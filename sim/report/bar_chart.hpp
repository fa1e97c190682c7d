#pragma once
// A horizontal bar chart as SVG, for the HTML reports: one bar per row
// (compare's B/A per size, regress's change per entry, plan's step parts),
// each drawn from a reference value (1 for a ratio, 0 for a change or a
// duration), so that bars to the right read "more" and bars to the left "less".
#include <string>
#include <vector>

namespace collsim {

struct Bar {
    std::string label{};
    double value = 0;
    std::string colour = "#1f77b4";
    std::string note{};  // printed after the bar ("1.042 slower"); empty: the value
};

struct BarChart {
    std::string title{};
    std::string axis{};  // what the values are: "B/A (time)", "us"
    double reference = 0;
    std::vector<Bar> bars{};
};

std::string bar_chart_svg(const BarChart& c);

// The colours the reports give a change: worse, better, no change.
inline constexpr const char* kWorseColour = "#d62728";
inline constexpr const char* kBetterColour = "#2ca02c";
inline constexpr const char* kSameColour = "#7f7f7f";

}  // namespace collsim
