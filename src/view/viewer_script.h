// The viewer's script, bundled with three.js by esbuild at build time and compiled into navlab
// (CMakeLists.txt: tools/web/viewer -> build/viewer/viewer_bundle.js -> viewer_script.cpp).
#pragma once

#include <string_view>

namespace navlab::view {

/// The minified script (three.js's MIT licence header kept); empty when navlab was built
/// without tools/web/node_modules.
std::string_view viewer_script();

}  // namespace navlab::view
