#include "container/archive/crypto_lib.h"

#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "io/error.h"

namespace navlab::archive {
namespace {

CryptoLib load_crypto() {
    void* library = dlopen(kCryptoLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!library)
        throw Error(std::string("cannot load ") + kCryptoLibrary +
                    " (OpenSSL 3), which the games' .bhd archives need: " + dlerror());
    CryptoLib lib;
    auto resolve = [&](auto& pointer, const char* name) {
        void* symbol = dlsym(library, name);
        if (!symbol) {
            dlclose(library);
            throw Error(std::string(kCryptoLibrary) + " has no " + name + " (not OpenSSL 3?)");
        }
        pointer = reinterpret_cast<std::remove_reference_t<decltype(pointer)>>(symbol);
    };
#define NAVLAB_CRYPTO_RESOLVE(name) resolve(lib.name, #name);
    NAVLAB_CRYPTO_FUNCTIONS(NAVLAB_CRYPTO_RESOLVE)
#undef NAVLAB_CRYPTO_RESOLVE
    return lib;
}

}  // namespace

const CryptoLib& crypto() {
    static const CryptoLib lib = load_crypto();  // a throw leaves it for the next call to try again
    return lib;
}

}  // namespace navlab::archive
