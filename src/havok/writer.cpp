#include "havok/writer.h"
namespace navlab::havok {
std::vector<std::uint8_t> write_tagfile(const Tagfile&) { throw Error("todo"); }
}
