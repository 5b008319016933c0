// The bench-results document has one owner (core/gpuplan/measurements/bench_results.hpp): the
// writer the benchmarks use writes exactly what the reader reads. A `gpuplan bench run`
// document and a decode one (tests/cli/data fixtures) are read, written back and must come out
// key for key and number for number as they went in; the typed results of the second read
// equal the first's.
#include "fixtures.hpp"
#include "test_inputs.hpp"
#include "gpuplan/measurements/bench_results.hpp"

using namespace gpuplan;

namespace {

std::string fixture(const std::string& file) {
    for (const auto& d : bench_test_documents())
        if (d.origin == "tests/cli/data/" + file) return d.text;
    FAIL("no fixture " << file);
    return "";
}

}  // namespace

TEST_CASE("bench results: the writer writes back exactly what the reader read") {
    for (const char* file : {"bench_run_p5_fixture.json", "decode_bench_g7e.json"}) {
        CAPTURE(file);
        const std::string text = fixture(file);
        const BenchResults first = parse_bench_results(text, file);
        const Json written = to_json(first);
        // Every key of every record, the fingerprint and the run, as the file had them.
        CHECK(written == Json::parse(text));
        const BenchResults second = parse_bench_results(written.dump(), file);
        REQUIRE(second.figures.size() == first.figures.size());
        REQUIRE(second.decode.size() == first.decode.size());
        for (std::size_t k = 0; k < first.figures.size(); ++k) {
            const BenchFigure &a = first.figures[k], &b = second.figures[k];
            CHECK(a.case_name == b.case_name);
            CHECK(a.median == b.median);
            CHECK(a.samples == b.samples);
            CHECK(a.verdict == b.verdict);
            CHECK(a.stats.reps_per_sample == b.stats.reps_per_sample);
            CHECK(a.datasheet_source == b.datasheet_source);
            CHECK(a.usable() == b.usable());
        }
        for (std::size_t k = 0; k < first.decode.size(); ++k) {
            CHECK(first.decode[k].median == second.decode[k].median);
            CHECK(first.decode[k].params.buffers == second.decode[k].params.buffers);
            CHECK(first.decode[k].stats.kernel_active_fraction == second.decode[k].stats.kernel_active_fraction);
        }
    }
}

TEST_CASE("bench results: a suite record's fields come back typed") {
    const BenchResults b = parse_bench_results(fixture("bench_run_p5_fixture.json"), "p5.json");
    REQUIRE_FALSE(b.figures.empty());
    const BenchFigure& h2d = b.figures.front();
    CHECK(h2d.case_name == "h2d_pinned");
    CHECK_FALSE(h2d.bytes_counted.empty());
    CHECK_FALSE(h2d.timing.empty());
    CHECK(h2d.ok_at_least > h2d.broken_below);
    CHECK(h2d.stats.reps_per_sample >= 1);
}

TEST_CASE("bench results: an unknown key in the fingerprint, a GPU or the run is refused with its path (issue 34)") {
    // Before, these objects were read without a check of their keys: a typo such as
    // "complet": false left the run complete and was never named.
    const Json doc = Json::parse(fixture("bench_run_p5_fixture.json"));
    struct Typo {
        Json::json_pointer where;
        std::string key, path;
    };
    for (const Typo& t : {Typo{Json::json_pointer("/run"), "complet", "$.run.complet"},
                          Typo{Json::json_pointer("/fingerprint"), "instance_typ", "$.fingerprint.instance_typ"},
                          Typo{Json::json_pointer("/fingerprint/gpus/0"), "memory_gb", "$.fingerprint.gpus[0].memory_gb"}}) {
        CAPTURE(t.path);
        Json bad = doc;
        bad[t.where][t.key] = false;
        CHECK_THROWS_WITH(read_bench_results(bad, "$"), Catch::Contains(t.path + ": got an unknown key") && Catch::Contains("one of:"));
    }
    // The keys the writers write are all read: the fixture and its known keys pass.
    Json known = doc;
    known["run"]["failed_case"] = "d2h_pinned";
    known["fingerprint"]["launcher"] = {{"ranks", 2}};
    CHECK_NOTHROW(read_bench_results(known, "$"));
}
