// libFuzzer target for IGI graph files: any input either fails with navlab::Error or reads
// into a graph that writes back to the same bytes, passes validation and can be checked
// and rebuilt without crashing.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "formats/igi/graph_io.h"
#include "formats/igi/routes.h"
#include "support/seeds.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    navlab::fuzz::write_seeds_if_asked(navlab::fuzz::igi_seeds);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace navlab;
    igi::Graph graph;
    try {
        graph = igi::read_graph(Bytes(data, size));
    } catch (const Error&) {
        return 0;
    }
    const std::vector<std::uint8_t> bytes = igi::write_graph(graph);
    if (bytes.size() != size || !std::equal(bytes.begin(), bytes.end(), data)) std::abort();  // round trip broken
    if (graph.max_nodes <= 256) {  // keep each run fast: tables grow with N²
        igi::check_routes(graph);
        try {
            graph.routes = igi::rebuild_routes(graph).table;
        } catch (const Error&) {
            return 0;  // e.g. a path longer than a float32 cost holds
        }
        if (!igi::check_routes(igi::read_graph(igi::write_graph(graph))).ok()) std::abort();
    }
    return 0;
}
