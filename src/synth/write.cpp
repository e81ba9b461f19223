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
    userEdges += static_cast<std::int64_t>(m.edges.size()) - regular;
    vertices += static_cast<std::int64_t>(m.vertices.size());
    emptyMeshes += m.faces.empty();
    if (t.graph) {
        ++graphs;
        graphNodes += static_cast<std::int64_t>(t.graph->nodes.size());
        graphEdges += static_cast<std::int64_t>(t.graph->edges.size());
    }
    if (t.mediator) {
        ++mediators;
        treeNodes += static_cast<std::int64_t>(t.mediator->nodes.size());
    }
    if (t.userEdgeSetups) {
        ++setupArrays;
        setups += static_cast<std::int64_t>(t.userEdgeSetups->size());
    }
}

void GameCounts::add(const GameCounts& o) {
    binders += o.binders, tagfiles += o.tagfiles, faces += o.faces, edges += o.edges, userEdges += o.userEdges;
    vertices += o.vertices, emptyMeshes += o.emptyMeshes, graphs += o.graphs, graphNodes += o.graphNodes;
    graphEdges += o.graphEdges, mediators += o.mediators, treeNodes += o.treeNodes;
    setupArrays += o.setupArrays, setups += o.setups;
}


BinderOutput make_binder(const BinderPlan& binder, const TileLibrary& library, Compression compression,
                         const std::string& injectRule, int injectEntry) {
    BinderOutput out;
    std::vector<bnd4::NewEntry> files;
    for (std::size_t i = 0; i < binder.entries.size(); ++i) {
        const EntryPlan& e = binder.entries[i];
        fromsoft::NavTagfile t = make_tagfile(binder, e, library);
        out.counts.add(t);
        if (static_cast<int>(i) == injectEntry)
            out.injected = fmt::format("{}: entry {} ({}): {}", binder.archivePath, i, e.name, inject_fault(injectRule, t));
        try {
            files.push_back({e.name, e.id, fromsoft::write_nav_tagfile(t)});
        } catch (Error& err) {
            throw err.in(binder.archivePath + ": " + e.name);
        }
    }
    out.counts.binders = 1;
    const std::vector<std::uint8_t> image = bnd4::write(bnd4::build_navmesh_binder(std::move(files)));
    out.binderBytes = image.size();
    out.file = dcx::compress(image, build::dcx_variant(compression));
    return out;
}

CorpusResult generate_corpus(const CorpusOptions& options) {
    const std::vector<BinderPlan> plan = plan_corpus(options.preset, options.seed);
    // The injected fault goes to the first tagfile (in plan order) where the rule applies.
    int injectBinder = -1, injectEntry = -1;
    if (!options.inject.empty()) {
        for (std::size_t b = 0; b < plan.size() && injectBinder < 0; ++b)
            for (std::size_t i = 0; i < plan[b].entries.size(); ++i)
                if (can_inject(options.inject, plan[b], plan[b].entries[i])) {
                    injectBinder = static_cast<int>(b);
                    injectEntry = static_cast<int>(i);
                    break;
                }
        if (injectBinder < 0) throw Error("--inject " + options.inject + ": no tagfile of this preset can hold it");
    }
    const TileLibrary library = build_tile_library(options.preset, options.seed, options.threads);
    CorpusResult result;
    std::vector<GameCounts> counts(plan.size());
    std::vector<std::uint64_t> fileBytes(plan.size()), binderBytes(plan.size());
    result.files.resize(plan.size());
    std::atomic<std::size_t> done{0};
    parallel_for(plan.size(), options.threads, [&](std::size_t b) {
        const bool here = static_cast<int>(b) == injectBinder;
        BinderOutput o = make_binder(plan[b], library, options.compression, here ? options.inject : std::string(),
                                     here ? injectEntry : -1);
        const std::filesystem::path path = options.out / plan[b].archivePath.substr(1);
        std::filesystem::create_directories(path.parent_path());
        write_file_atomic(path, o.file);
        counts[b] = o.counts;
        fileBytes[b] = o.file.size();
        binderBytes[b] = o.binderBytes;
        result.files[b] = path;
        if (here) result.injected = o.injected;
        if (options.progress) options.progress(++done, plan.size());
    });
    for (std::size_t b = 0; b < plan.size(); ++b) {
        (plan[b].game == Game::Sekiro ? result.sekiro : result.eldenRing).add(counts[b]);
        result.fileBytes += fileBytes[b];
        result.binderBytes += binderBytes[b];
    }
    return result;
}

}  // namespace navlab::synth
