// libFuzzer target for the text inputs of the build commands: the first byte picks the reader
// (even: BUILD.json for `navlab build`, odd: GRAPH.json for `navlab igi build`), the rest is
// the file. Any input must either throw navlab::Error or give a value its own checks accept:
// a BUILD.json spec that validate_build_spec passes, or an IGI graph that validates, writes
// and reads back to the same bytes, and whose fresh route table passes the route check.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "build/build_spec.h"
#include "build/igi_graph_in.h"
#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "io/error.h"
#include "support/seeds.h"

using namespace navlab;

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

void fuzz_build_spec(const std::string& text) {
    build::BuildSpec spec;
    try {
        spec = build::parse_build_spec(text, "BUILD.json");
    } catch (const Error&) {
        return;
    }
    build::validate_build_spec(spec, "BUILD.json");  // must not throw: the reader checked the same
}

void fuzz_graph_json(const std::string& text) {
    // The route table is N² entries (N = max_nodes; the builder takes up to 4096): large
    // tables only repeat the small ones' work at up to 64 MB a run, so they are left out.
    const nlohmann::json peek = nlohmann::json::parse(text, nullptr, false);
    if (peek.is_object() && peek.contains("max_nodes") && peek["max_nodes"].is_number() && peek["max_nodes"] > 256) return;
    igi::Graph graph;
    try {
        graph = build::graph_from_json(text, "GRAPH.json");
    } catch (const Error&) {
        return;
    }
    igi::validate_graph(graph);
    require(igi::check_routes(graph).ok());
    const std::vector<std::uint8_t> bytes = igi::write_graph(graph, igi::Layout::Retail);
    require(igi::write_graph(igi::read_graph(bytes), igi::Layout::Retail) == bytes);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    fuzz::write_seeds_if_asked(fuzz::build_input_seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] % 2 == 0)
        fuzz_build_spec(text);
    else
        fuzz_graph_json(text);
    return 0;
}
