// The shared HTML writer (sim/report/html_report) and the bar chart the
// reports draw, read back with an XML parser.
#include <catch2/catch.hpp>

#include "sim/report/bar_chart.hpp"
#include "sim/report/html_report.hpp"
#include "tests/support/html_checks.hpp"

namespace collsim::test {

TEST_CASE("an HTML report escapes its text and tables and stays well-formed XML", "[html]") {
    HtmlReport r("a <b> & \"c\"");
    r.heading("tables & plots").paragraph("1 < 2").table(HtmlTable{{"size", "what"}, {{"64K", "<x>"}, {"-1.5%", "a&b"}}});
    r.figure(bar_chart_svg(BarChart{"t", "B/A", 1, {{"8", 1.5}, {"1M", 0.5, kBetterColour, "0.500 faster"}}}));
    const std::string html = r.render(HtmlProvenance{"9.9", "collsim x --y 'a b'", {{"spec", "s.yaml", "0123"}}});
    const HtmlShape s = html_shape(html);
    INFO(s.error);
    REQUIRE(s.well_formed);
    CHECK(s.count("table") == 2);  // the one added, and the inputs
    CHECK(s.count("svg") == 1);
    CHECK(s.count("rect") == 3);  // the background and two bars
    CHECK(s.count("script") == 0);
    CHECK_THAT(s.text, Catch::Contains("a <b> & \"c\"") && Catch::Contains("1 < 2") && Catch::Contains("a&b"));
    CHECK_THAT(s.text, Catch::Contains("collsim x --y 'a b'") && Catch::Contains("0123"));
    CHECK_THAT(html, Catch::Contains("<td class=\"num\">64K</td>") && Catch::Contains("<td class=\"num\">-1.5%</td>") &&
                         Catch::Contains("<td>&lt;x&gt;</td>"));
    // Nothing may be fetched or run.
    CHECK_THAT(html, Catch::Contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
}

TEST_CASE("a bar chart draws each bar from the reference, right for more and left for less", "[html]") {
    const std::string svg = bar_chart_svg(BarChart{"", "", 1, {{"up", 2}, {"down", 0}}});
    // Scale 0..2 over 400 px from x=240: the reference (1) at 440.
    CHECK_THAT(svg, Catch::Contains("<rect class=\"bar\" x=\"440.0\" y=\"43.0\" width=\"200.0\""));
    CHECK_THAT(svg, Catch::Contains("<rect class=\"bar\" x=\"240.0\" y=\"63.0\" width=\"200.0\""));
}

}  // namespace collsim::test
