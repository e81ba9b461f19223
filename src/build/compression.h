// The DCX a navmesh binder is wrapped in: `--dcx dflt|zstd|krak`.
#pragma once

#include <string>

#include "codec/dcx.h"

namespace navlab::build {

enum class Compression { Dflt, Zstd, Krak };

/// Parses "dflt", "zstd" or "krak"; throws navlab::Error otherwise.
Compression parse_compression(const std::string& name);

/// The DCX variant written: DCX_DFLT_11000_44_9, DCX_ZSTD or DCX_KRAK (what dcx::compress
/// offers for Kraken: stored blocks until a Kraken encoder lands).
dcx::Variant dcx_variant(Compression compression);

}  // namespace navlab::build
