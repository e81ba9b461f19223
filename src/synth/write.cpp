#include "synth/write.h"

#include <fmt/format.h>

#include <atomic>

#include "build/compression.h"
#include "codec/dcx.h"
#include "container/bnd4.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"
#include "io/file.h"
#include "io/parallel.h"
#include "synth/inject.h"

namespace navlab::synth {

void GameCounts::add(const fromsoft::NavTagfile& t) {
    const auto& m = t.mesh;
    std::int64_t regular = 0;
    for (const auto& f : m.faces) regular += f.numEdges;
    ++tagfiles;
    faces += static_cast<std::int64_t>(m.faces.size());
    edges += static_cast<std::int64_t>(m.edges.size());
    user_edges += static_cast<std::int64_t>(m.edges.size()) - regular;
    vertices += static_cast<std::int64_t>(m.vertices.size());
    empty_meshes += m.faces.empty();
    if (t.graph) {
        ++graphs;
        graph_nodes += static_cast<std::int64_t>(t.graph->nodes.size());
        graph_edges += static_cast<std::int64_t>(t.graph->edges.size());
    }
    if (t.mediator) {
        ++mediators;
        tree_nodes += static_cast<std::int64_t>(t.mediator->nodes.size());
    }
    if (t.user_edge_setups) {
        ++setup_arrays;
        setups += static_cast<std::int64_t>(t.user_edge_setups->size());
    }
}

void GameCounts::add(const GameCounts& o) {
    binders += o.binders, tagfiles += o.tagfiles, faces += o.faces, edges += o.edges, user_edges += o.user_edges;
    vertices += o.vertices, empty_meshes += o.empty_meshes, graphs += o.graphs, graph_nodes += o.graph_nodes;
    graph_edges += o.graph_edges, mediators += o.mediators, tree_nodes += o.tree_nodes;
    setup_arrays += o.setup_arrays, setups += o.setups;
}


BinderOutput make_binder(const BinderPlan& binder, const TileLibrary& library, Compression compression,
                         const std::string& inject_rule, int inject_entry) {
    BinderOutput out;
    std::vector<bnd4::NewEntry> files;
    for (std::size_t i = 0; i < binder.entries.size(); ++i) {
        const EntryPlan& e = binder.entries[i];
        fromsoft::NavTagfile t = make_tagfile(binder, e, library);
        out.counts.add(t);
        if (static_cast<int>(i) == inject_entry)
            out.injected = fmt::format("entry {} ({}): {}", i, e.name, inject_fault(inject_rule, t));
        try {
            // An injected defect may sit in a gap byte (R31's paddingByte): written as asked.
            files.push_back({e.name, e.id, fromsoft::write_nav_tagfile(t, /*allow_gap_bytes=*/true)});
        } catch (Error& err) {
            throw err.in(binder.archive_path + ": " + e.name);
        }
    }
    out.counts.binders = 1;
    const std::vector<std::uint8_t> image = bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
    out.binder_bytes = image.size();
    out.file = dcx::compress(image, build::dcx_variant(compression));
    return out;
}

CorpusResult generate_corpus(const CorpusOptions& options) {
    const std::vector<BinderPlan> plan = plan_corpus(options.preset, options.seed);
    // The injected fault goes to the first tagfile (in plan order) where the rule applies.
    int inject_binder = -1, inject_entry = -1;
    if (!options.inject.empty()) {
        for (std::size_t b = 0; b < plan.size() && inject_binder < 0; ++b)
            for (std::size_t i = 0; i < plan[b].entries.size(); ++i)
                if (can_inject(options.inject, plan[b], plan[b].entries[i])) {
                    inject_binder = static_cast<int>(b);
                    inject_entry = static_cast<int>(i);
                    break;
                }
        if (inject_binder < 0) throw Error("--inject " + options.inject + ": no tagfile of this preset can hold it");
    }
    const TileLibrary library = build_tile_library(options.preset, options.seed, options.threads);
    CorpusResult result;
    std::vector<GameCounts> counts(plan.size());
    std::vector<std::uint64_t> file_bytes(plan.size()), binder_bytes(plan.size());
    result.files.resize(plan.size());
    std::atomic<std::size_t> done{0};
    parallel_for(plan.size(), options.threads, [&](std::size_t b) {
        const bool here = static_cast<int>(b) == inject_binder;
        BinderOutput o = make_binder(plan[b], library, options.compression, here ? options.inject : std::string(),
                                     here ? inject_entry : -1);
        const std::filesystem::path path = options.out / plan[b].archive_path.substr(1);
        std::filesystem::create_directories(path.parent_path());
        write_file_atomic(path, o.file);
        counts[b] = o.counts;
        file_bytes[b] = o.file.size();
        binder_bytes[b] = o.binder_bytes;
        result.files[b] = path;
        if (here) result.injected = path.string() + ": " + o.injected;  // the file written, not its archive path
        if (options.progress) options.progress(++done, plan.size());
    });
    for (std::size_t b = 0; b < plan.size(); ++b) {
        (plan[b].game == Game::Sekiro ? result.sekiro : result.elden_ring).add(counts[b]);
        result.file_bytes += file_bytes[b];
        result.binder_bytes += binder_bytes[b];
    }
    return result;
}

}  // namespace navlab::synth
