// Leave-one-source-out cross-validation (core/gpuplan/validation/cross_validation.hpp), on
// small corpora whose right answers are known by construction: a record "measured" at the
// planner's own prediction with a chosen EFA efficiency must make the refit find that
// efficiency; a record no calibrated default moves keeps its in-sample prediction; a default
// with nothing left to fit on falls back to its prior.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "fixtures.hpp"
#include "gpuplan/topology/topology.hpp"
#include "gpuplan/validation/cross_validation.hpp"

using namespace gpuplan;

namespace {
using test::catalog;

// A collective record: all-reduce of `bytes` on `nodes` x p4de.24xlarge, published at `url`.
std::string record(const std::string& id, const std::string& url, int nodes, long long bytes, double measured) {
    return R"({"id": ")" + id + R"(", "title": "t", "category": "collective_bandwidth", "split": "validation",
        "source": {"citation": "c", "url": ")" + url + R"(", "date": "d", "location": "l"},
        "figure": "/collective/figures/bus_bandwidth_gb_per_s", "measured": {"value": )" + std::to_string(measured) + R"(, "unit": "GB/s"},
        "scenario": {"schema": "gpuplan.scenario/1", "collective": {"op": "all-reduce", "instance": "p4de.24xlarge", "nodes": )" +
           std::to_string(nodes) + R"(, "bytes": )" + std::to_string(bytes) + "}}}";
}

std::vector<ValidationRecord> corpus(const std::vector<std::string>& records) {
    std::string list;
    for (const auto& r : records) list += (list.empty() ? "" : ",") + r;
    return load_validation_records({{"cv.json", R"({"schema": "gpuplan.validation/1", "records": [)" + list + "]}"}}, catalog());
}

// The planner's bus bandwidth for a record with the EFA efficiency set to `efa`.
double predicted_at(const ValidationRecord& r, double efa) {
    ScopedRefit refit(CalibratedDefault::efa_efficiency, efa);
    return predict_record(r, catalog()).predicted;
}
}  // namespace

TEST_CASE("a source is the publisher: a GitHub repository or a web site", "[validation][cross-validation]") {
    const auto records = corpus({record("A", "https://github.com/NVIDIA/nccl/issues/527", 2, 1e9, 50),
                                 record("B", "https://docs.aws.amazon.com/dlami/latest/devguide/tutorial-efa.html", 2, 1e9, 50),
                                 record("C", "https://github.com/aws-samples/awsome-distributed-training/blob/abc/README.md", 2, 1e9, 50)});
    CHECK(source_key(records[0]) == "github.com/NVIDIA/nccl");
    CHECK(source_key(records[1]) == "docs.aws.amazon.com");
    CHECK(source_key(records[2]) == "github.com/aws-samples/awsome-distributed-training");
}

TEST_CASE("a refit finds the value that reproduces the other sources; the left-out source is predicted with it", "[validation][cross-validation]") {
    // The shipped default is what the model uses, and a refit lasts only for its scope.
    CHECK(default_efa_efficiency().value == calibrated_default_info(CalibratedDefault::efa_efficiency).shipped);
    {
        ScopedRefit refit(CalibratedDefault::efa_efficiency, 0.5);
        CHECK(default_efa_efficiency().value == 0.5);
    }
    CHECK(default_efa_efficiency().value == 0.84);

    // B is "measured" at the planner's own prediction with EFA efficiency 0.7, so a fit on B
    // alone must find 0.7 (to the search's tolerance, a thousandth of the 0.3-1.0 range).
    const auto probe = corpus({record("B", "https://b.example/x", 2, 1073741824, 1)});
    const double b_measured = predicted_at(probe[0], 0.7);
    const auto records = corpus({record("A", "https://a.example/x", 4, 2147483648, 40), record("B", "https://b.example/x", 2, 1073741824, b_measured),
                                 record("C", "https://c.example/x", 1, 1073741824, 200)});
    const CrossValidation cv = cross_validate(records, catalog());
    REQUIRE(cv.sources.size() == 3);
    // A left out: the EFA efficiency refitted on B alone.
    const SourceLeftOut& a = cv.sources[0];
    REQUIRE(a.refits.size() == 1);
    CHECK(a.refits[0].which == CalibratedDefault::efa_efficiency);
    CHECK(a.refits[0].records == 1);
    CHECK(std::abs(a.refits[0].value - 0.7) < 1e-3);
    CHECK(cv.left_out[0].predicted == Approx(predicted_at(records[0], a.refits[0].value)).epsilon(1e-12));
    CHECK(cv.left_out[0].predicted != Approx(cv.in_sample[0].predicted));
    // C is one node (NVSwitch only): no calibrated default moves it, nothing is refitted, and
    // its left-out prediction is its in-sample one.
    CHECK(cv.sources[2].refits.empty());
    CHECK(cv.left_out[2].predicted == cv.in_sample[2].predicted);
    // The summaries are the medians of |ratio - 1| over both figures.
    const auto summaries = summarize_cross_validation(cv);
    REQUIRE(summaries.size() == 2);  // collective bandwidth, and all categories
    CHECK(summaries[0].cases == 3);
    std::vector<double> errors;
    for (const ValidationResult& r : cv.left_out) errors.push_back(std::abs(r.ratio() - 1));
    std::sort(errors.begin(), errors.end());
    CHECK(summaries[0].left_out_median == errors[1]);
    CHECK(summaries[0].left_out_worst == errors[2]);
}

TEST_CASE("a default with no other source to fit on falls back to its prior", "[validation][cross-validation]") {
    const auto records = corpus({record("A", "https://a.example/x", 2, 1073741824, 60), record("C", "https://c.example/x", 1, 1073741824, 200)});
    const CrossValidation cv = cross_validate(records, catalog());
    REQUIRE(cv.sources[0].refits.size() == 1);
    CHECK(cv.sources[0].refits[0].records == 0);
    CHECK(cv.sources[0].refits[0].value == calibrated_default_info(CalibratedDefault::efa_efficiency).prior);
    CHECK(cv.left_out[0].predicted == Approx(predicted_at(records[0], 1.0)).epsilon(1e-12));
}

TEST_CASE("the fast prediction cross-validation uses equals the full one for every built-in record", "[validation][cross-validation]") {
    const auto records = load_validation_records(builtin_validation_documents(), catalog());
    for (const ValidationRecord& r : records) {
        INFO(r.id);
        CHECK(predicted_value(r, catalog()) == predict_record(r, catalog()).predicted);
    }
}
