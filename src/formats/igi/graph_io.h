// Reading and writing graph<taskId>.dat files, both variants (spec igi-graph.md §4, §6).
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "formats/igi/graph.h"

namespace navlab::igi {

/// The named variant's magic, bytes CC DD EE FF (LE uint32 0xFFEEDDCC).
inline constexpr std::uint32_t kNamedMagic = 0xFFEEDDCCu;

/// Reads a whole graph file. Applies the engine's commit points (a node commits at its
/// nNodeCriteria, a link at its eLinkType), skips unknown fields with a warning, and fails
/// with the absolute offset and field path on anything the engine would mis-load: bad
/// tags, declared types that do not match a field, truncated values, nMaxNodes < 2, node
/// ids out of range or duplicated, links to missing nodes, a route table of the wrong size.
/// @param data the file's bytes.
Graph read_graph(Bytes data);

/// read_graph() of the file at `path`; errors carry the path.
Graph read_graph_file(const std::filesystem::path& path);

/// How write_graph lays out a named-variant file.
enum class Layout {
    Source,  ///< the field order read from the file (byte-exact rewrite); retail if none
    Retail,  ///< the retail order: nMaxNodes, RouteTable, 6 fields per node, 3 per link
};

/// Writes `graph` in its variant. Positional files are always written in their fixed order,
/// keeping each node's optional float/material presence and the table's header choice.
/// Throws Error when the graph is invalid (validate_graph) or when Layout::Source is asked
/// for a layout that no longer matches the nodes and links.
std::vector<std::uint8_t> write_graph(const Graph& graph, Layout layout = Layout::Source);

}  // namespace navlab::igi
