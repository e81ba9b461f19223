// libFuzzer target for the FromSoftware exporters: any tagfile the model reader accepts is
// exported as OBJ and JSON and, through the scene (rings, triangulations, user edges, query
// tree leaves), as GLB, PLY and a Detour set that Detour itself loads (addTile) — or refused
// with navlab::Error. A damaged vertex at 1e35 once crashed Detour here (docs/reliability.md).
// Seeds and the section-aware mutator: fuzz/support/tagfile_hooks.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "export/detour_export.h"
#include "export/fromsoft_export.h"
#include "export/glb_export.h"
#include "export/ply_export.h"
#include "export/scene.h"
#include "formats/fromsoft/nav_tagfile.h"
#include "io/error.h"
#include "io/json_text.h"
#include "support/tagfile_hooks.h"

using namespace navlab;

NAVLAB_FUZZ_TAGFILE_HOOKS()

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<exporter::NamedTagfile> tagfiles(1);
    tagfiles[0].name = "n10_00_00_00_000100.hkx";
    try {
        tagfiles[0].model = fromsoft::read_nav_tagfile(std::span<const std::uint8_t>(data, size));
    } catch (const Error&) {
        return 0;
    }
    try {
        (void)exporter::fromsoft_obj(tagfiles);
        (void)json_text(exporter::fromsoft_json(tagfiles));
        const exporter::Scene scene = exporter::fromsoft_scene(tagfiles, "fuzz.nvmhktbnd");
        (void)exporter::scene_to_glb(scene);
        (void)exporter::scene_to_ply(scene);
        (void)exporter::scene_to_detour_set(scene);
    } catch (const Error&) {
    }
    return 0;
}
