#include "igi/fixtures.h"

#include <cctype>
#include <sstream>

#include "formats/igi/routes.h"

namespace navlab::igi::test {

std::vector<std::uint8_t> from_hex(const std::string& text) {
    std::vector<std::uint8_t> out;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (auto colon = line.find(':'); colon != std::string::npos) line = line.substr(colon + 1);
        std::istringstream words(line);
        std::string word;
        while (words >> word) out.push_back(static_cast<std::uint8_t>(std::stoul(word, nullptr, 16)));
    }
    return out;
}

Node make_node(std::int32_t id, Vec3 position, std::string criteria) {
    Node n;
    n.id = id;
    n.position = position;
    n.radius = 0.5f;
    n.material = -1;
    n.criteria = std::move(criteria);
    return n;
}

Graph retail_graph1() {
    Graph g;
    g.max_nodes = 100;
    g.nodes.push_back(make_node(1, {0, 0, 0}));
    g.routes = empty_route_table(g.max_nodes);
    return g;
}

Graph retail_graph8() {
    Graph g;
    g.max_nodes = 100;
    for (std::int32_t id = 1; id <= 8; ++id)
        g.nodes.push_back(make_node(id, {4096.0 * id, 2048.0 * (id % 3), 512.0 * (id % 2)},
                                    id <= 4 ? "NODECRITERIA_STAIR" : "NODECRITERIA_VIEW"));
    for (auto [a, b] : {std::pair{2, 1}, {3, 1}, {3, 2}, {4, 3}, {4, 1}, {4, 2}}) g.links.push_back({a, b, 1});
    g.routes = rebuild_routes(g).table;
    return g;
}

Graph worked_example() {
    Graph g;
    g.max_nodes = 3;
    g.nodes.push_back(make_node(1, {0, 0, 0}));
    g.nodes.push_back(make_node(2, {4096, 0, 0}, "NODECRITERIA_DOOR"));
    g.links.push_back({1, 2, 1});
    g.blob_header = BlobHeader{0x0A, 0xEE, 0x05, 0x48, 0x00, 0x00, 0x00};
    g.routes = empty_route_table(3);
    g.routes[g.route_index(1, 2)] = {2, 4096.0f};
    g.routes[g.route_index(2, 1)] = {1, 4096.0f};
    return g;
}

std::vector<std::uint8_t> worked_example_bytes() {
    return from_hex(R"(
0000: CC DD EE FF 04 E6 3A 0D 00 00 05 05 03 00 00 00
0010: 04 0D DE 0F 00 00 0A 0A EE 05 48 00 00 00 FF FF
0020: FF FF 00 00 80 BF FF FF FF FF 00 00 80 BF FF FF
0030: FF FF 00 00 80 BF FF FF FF FF 00 00 80 BF FF FF
0040: FF FF 00 00 80 BF 01 00 00 00 00 00 80 45 FF FF
0050: FF FF 00 00 80 BF 02 00 00 00 00 00 80 45 FF FF
0060: FF FF 00 00 80 BF 04 CE 35 07 00 00 05 05 01 00
0070: 00 00 04 95 42 1D 00 00 08 08 00 00 00 00 00 00
0080: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
0090: 00 00 04 9C 7E 0F 00 00 06 06 00 00 00 00 04 23
00A0: 30 14 00 00 06 06 00 00 00 3F 04 29 B6 1B 00 00
00B0: 05 05 FF FF FF FF 04 E5 D3 1B 00 00 09 09 01 00
00C0: 04 CE 35 07 00 00 05 05 02 00 00 00 04 95 42 1D
00D0: 00 00 08 08 00 00 00 00 00 00 B0 40 00 00 00 00
00E0: 00 00 00 00 00 00 00 00 00 00 00 00 04 9C 7E 0F
00F0: 00 00 06 06 00 00 00 00 04 23 30 14 00 00 06 06
0100: 00 00 00 3F 04 29 B6 1B 00 00 05 05 FF FF FF FF
0110: 04 E5 D3 1B 00 00 09 09 12 4E 4F 44 45 43 52 49
0120: 54 45 52 49 41 5F 44 4F 4F 52 00 04 4A 10 09 00
0130: 00 05 05 01 00 00 00 04 F6 18 09 00 00 05 05 02
0140: 00 00 00 04 23 A9 0D 00 00 05 05 01 00 00 00
)");
}

Graph positional_graph() {
    Graph g;
    g.variant = Variant::Positional;
    g.max_nodes = 6;
    for (std::int32_t id = 1; id <= 4; ++id) {
        Node n = make_node(id, {1000.0 * id, 500.0 * (id % 2), 0}, id == 3 ? "NODECRITERIA_VIEW" : "");
        if (id % 2 == 0) n.extra = 0.5f;
        if (id == 4) n.material.reset();
        if (id == 2) n.list_a = {{3, 1}, {1, 1}};
        if (id == 3) n.list_b = {{2, 7}};
        g.nodes.push_back(n);
    }
    g.links = {{1, 2, 1}, {2, 3, 1}, {3, 4, 1}};
    g.routes = rebuild_routes(g).table;
    return g;
}

}  // namespace navlab::igi::test
