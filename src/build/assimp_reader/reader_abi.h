// The C interface between `navlab build` and its geometry reader module,
// libnavlab_assimp_reader.so (docs/build.md, "Damaged geometry"). The reader is the only
// library code that uses Assimp; it is a module loaded with dlopen inside the child process
// that already isolates Assimp (io/isolated.h), so the navlab command and the Python module do
// not load Assimp at start (5.6 ms of `navlab --version`'s 16.8 ms). Plain C types only: the
// module and its caller need not share a C++ ABI or navlab's libraries.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Version of this interface; the symbol's name carries it, so a stale module is not found
/// rather than called with the wrong layout.
#define NAVLAB_ASSIMP_READER_SYMBOL "navlab_assimp_read_v1"

enum NavlabReadStatus {
    kNavlabReadOk = 0,
    kNavlabReadFailed = 1,       ///< message (and where, when set) say why
    kNavlabReadOutOfMemory = 2,  ///< std::bad_alloc inside Assimp or the reader
};

/// What the reader answers. Every pointer is from malloc (the caller frees it) or null.
struct NavlabReadAnswer {
    int status;
    /// On success: u64 vertex-coordinate count, u64 corner count, then the float32
    /// coordinates (x, y, z per vertex, navlab's axes and scale) and the int32 corner indices
    /// (3 per triangle, into this file's vertices), native byte order.
    unsigned char* bytes;
    size_t size;
    char* message;  ///< on failure: what went wrong
    char* where;    ///< on failure: file, mesh, face or vertex (null: the file)
};

/// Reads one geometry file. @param up 'y' (as stored) or 'z' (x, y, z -> x, z, −y);
/// @param scale applied after the axis change. Never throws.
typedef void (*NavlabAssimpRead)(const char* path, char up, float scale, NavlabReadAnswer* answer);

#ifdef __cplusplus
}  // extern "C"
#endif
