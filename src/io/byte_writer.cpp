#include "io/byte_writer.h"

namespace navlab {

std::vector<std::uint8_t> ByteWriter::finish() && {
    for (const auto& [name, slot] : slots_)
        if (!slot.filled) throw Error("writer: reservation '" + name + "' was never filled");
    return std::move(buf_);
}

}  // namespace navlab
