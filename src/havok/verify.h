// The strict checks of a tagfile's objects (spec havok-tagfile.md §13), apart from parsing:
// read_tagfile (tagfile.h) parses sections, the type table and the index, then runs these when
// ReadOptions::verify_objects is set.
#pragma once

#include <cstdint>

#include "havok/tagfile.h"

namespace navlab::havok {

/// Walks every item of a parsed tagfile and verifies references (targets, kinds, types), that
/// every item but the root is referenced, item placement (no overlap, zero gaps and padding),
/// and that PTCH and THSH list exactly the references and types found.
/// @param tagfile     parsed by read_tagfile; warnings (ordering, alignment) are appended.
/// @param thsh_offset file offset of the THSH section (kNoOffset without one), for errors.
/// @param ptch_offset file offset of PTCH's first group, as read_tagfile parsed it (the groups
///                    then follow each other: 8 bytes and 4 per offset), for errors; kNoOffset
///                    for a tagfile built in memory.
/// Throws navlab::Error (absolute file offset, field path) on the first violation.
void verify_objects(Tagfile& tagfile, std::uint64_t thsh_offset, std::uint64_t ptch_offset = kNoOffset);

}  // namespace navlab::havok
