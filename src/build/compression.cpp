#include "build/compression.h"

#include "io/error.h"

namespace navlab::build {

Compression parse_compression(const std::string& name) {
    if (name == "dflt") return Compression::Dflt;
    if (name == "zstd") return Compression::Zstd;
    if (name == "krak") return Compression::Krak;
    throw Error("unknown --dcx '" + name + "' (dflt, zstd or krak)");
}

dcx::Variant dcx_variant(Compression c) {
    switch (c) {
        case Compression::Dflt: return dcx::Variant::Dflt_11000_44_9;
        case Compression::Zstd: return dcx::Variant::Zstd;
        case Compression::Krak: return dcx::Variant::Krak;
    }
    return dcx::Variant::Dflt_11000_44_9;
}

}  // namespace navlab::build
