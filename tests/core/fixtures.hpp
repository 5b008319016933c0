// fixtures.hpp — the built-in catalog and model presets, as core tests look them up.
#pragma once

#include <catch2/catch.hpp>

#include "gpuplan/catalog/catalog.hpp"
#include "gpuplan/workload/model.hpp"

namespace gpuplan::test {

inline const Catalog& builtin_catalog() {
    static const Catalog c = load_builtin_catalog();
    return c;
}

inline const ModelSpec& preset(const char* name) {
    const ModelSpec* m = find_model(builtin_models(), name);
    REQUIRE(m);
    return *m;
}

}  // namespace gpuplan::test
