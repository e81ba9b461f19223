// Graphs built in code for the IGI tests: the retail examples of the spec (level-1 graph1
// and graph8, by their known sizes and tail bytes), the spec's worked example, and a
// positional graph that uses every optional part.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/igi/graph.h"

namespace navlab::igi::test {

/// Parses "CC DD 0A ..." (whitespace and "0000:" offsets ignored) into bytes.
std::vector<std::uint8_t> from_hex(const std::string& text);

/// Node with retail defaults: gamma 0, radius 0.5, material -1.
Node make_node(std::int32_t id, Vec3 position, std::string criteria = {});

/// Level-1 graph1.dat as the qsc describes it: N = 100, one node, no links (80,120 bytes).
Graph retail_graph1();

/// Level-1 graph8.dat: N = 100, 4 STAIR and 4 VIEW nodes, links (2,1) (3,1) (3,2) (4,3)
/// (4,1) (4,2), routes computed by navlab (81,106 bytes).
Graph retail_graph8();

/// The spec's §8 worked example: N = 3, nodes 1 and 2 (DOOR) 4096 apart, one link, blob
/// header 0A EE 05 48 00 00 00 (335 bytes).
Graph worked_example();

/// The bytes of the worked example as printed in the spec.
std::vector<std::uint8_t> worked_example_bytes();

/// A positional graph: optional float on some nodes, one node without material, both
/// counted lists, a route table with the blob header.
Graph positional_graph();

}  // namespace navlab::igi::test
