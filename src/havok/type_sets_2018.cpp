#include "havok/type_sets.h"
