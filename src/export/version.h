// navlab's version as the exports record it (project(VERSION) in CMakeLists.txt).
#pragma once

namespace navlab {

#ifndef NAVLAB_VERSION
#define NAVLAB_VERSION "0.1.0"
#endif
inline constexpr const char* kVersion = NAVLAB_VERSION;

}  // namespace navlab
