// navlab's version: project(VERSION) in CMakeLists.txt, which defines NAVLAB_VERSION for every
// target. `navlab --version`, `navlab.__version__` and the exports (GLB, PLY, view) print it.
#pragma once

#ifndef NAVLAB_VERSION
#error "NAVLAB_VERSION is defined by CMakeLists.txt from project(VERSION)"
#endif

namespace navlab {

inline constexpr const char* kVersion = NAVLAB_VERSION;

}  // namespace navlab
