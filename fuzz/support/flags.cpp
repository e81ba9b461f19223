#include "support/flags.h"

#include <string_view>
#include <vector>

namespace navlab::fuzz {

void add_default_flags(int* argc, char*** argv, std::initializer_list<const char*> flags) {
    static std::vector<char*> args;  // libFuzzer keeps using argv after we return
    args.assign(*argv, *argv + *argc);
    for (const char* flag : flags) {
        const std::string_view name = std::string_view(flag).substr(0, std::string_view(flag).find('=') + 1);
        bool given = false;
        for (int i = 1; i < *argc; ++i) given = given || std::string_view((*argv)[i]).starts_with(name);
        if (!given) args.push_back(const_cast<char*>(flag));
    }
    args.push_back(nullptr);
    *argc = static_cast<int>(args.size() - 1);
    *argv = args.data();
}

}  // namespace navlab::fuzz
