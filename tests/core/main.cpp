// One Catch2 main for the core tests; the same sources run natively and under node (wasm).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
