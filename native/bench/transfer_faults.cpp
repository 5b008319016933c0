// transfer_faults.cpp — see transfer_faults.hpp.
#include "transfer_faults.hpp"

#include <chrono>
#include <optional>
#include <thread>

#include "fault_spec.hpp"

namespace gpuplan::bench {

namespace {

const char* stage_name(TransferFault::Stage s) {
    switch (s) {
        case TransferFault::Stage::alloc: return "alloc";
        case TransferFault::Stage::copy: return "copy";
        case TransferFault::Stage::verify: return "verify";
    }
    return "?";
}

class FaultyTransferBackend final : public TransferBackend {
public:
    FaultyTransferBackend(std::shared_ptr<TransferBackend> inner, TransferFault fault) : inner_(std::move(inner)), fault_(fault) {}

    std::string name() const override { return inner_->name(); }
    std::string timing_method() const override { return inner_->timing_method(); }
    int device_count() const override { return inner_->device_count(); }
    DeviceFacts device_facts(int device) override { return inner_->device_facts(device); }
    std::uint64_t device_free_bytes(int device) override { return inner_->device_free_bytes(device); }
    std::optional<std::string> unsupported(HostKind kind) const override { return inner_->unsupported(kind); }
    std::optional<std::string> unsupported(CopyMethod method, Place host_side) const override { return inner_->unsupported(method, host_side); }
    bool peer_advertised(int from, int to) override { return inner_->peer_advertised(from, to); }
    void enable_peer(int from, int to) override { inner_->enable_peer(from, to); }

    int allocate(const BufferSpec& spec) override {
        refuse_if_poisoned();
        if (hit(TransferFault::Stage::alloc))
            throw BenchError(BenchError::Kind::failed, message("allocation of " + std::to_string(spec.bytes) + " bytes failed, as a refused cudaMalloc would"));
        return inner_->allocate(spec);
    }
    void release_all() override { inner_->release_all(); }
    void fill_pattern(int buffer, std::uint64_t seed) override {
        refuse_if_poisoned();
        inner_->fill_pattern(buffer, seed);
    }
    std::uint64_t count_mismatches(int buffer, std::uint64_t seed, std::uint64_t bytes) override {
        refuse_if_poisoned();
        return inner_->count_mismatches(buffer, seed, bytes) + (hit(TransferFault::Stage::verify) ? 1 : 0);
    }
    void fill_value(int buffer, double value, std::uint64_t n) override {
        refuse_if_poisoned();
        inner_->fill_value(buffer, value, n);
    }
    double max_abs_error(int buffer, double expected, std::uint64_t n) override {
        refuse_if_poisoned();
        return inner_->max_abs_error(buffer, expected, n) + (hit(TransferFault::Stage::verify) ? 1.0 : 0.0);
    }
    double last_read_sum() override { return inner_->last_read_sum() * (hit(TransferFault::Stage::verify) ? 2.0 : 1.0); }

    std::optional<double> run(const Op& op, int reps, double timeout_s, std::string& why) override {
        if (poisoned_) {
            why = "not run: " + *poisoned_;
            return std::nullopt;
        }
        if (hit(TransferFault::Stage::copy)) {
            if (!fault_.hang) throw BenchError(BenchError::Kind::failed, message("run failed, as a CUDA error in a copy or kernel would"));
            // What a real backend does with a hung device: poll until the deadline, then give up
            // and refuse further work (transfer_backend.hpp, "Blocking").
            std::this_thread::sleep_for(std::chrono::duration<double>(timeout_s));
            why = "did not finish within " + std::to_string(timeout_s) + " s (injected: --inject-fault " + to_string(fault_) + ")";
            poisoned_ = "an earlier run did not finish within its timeout and cannot be stopped; later cases are skipped (injected: --inject-fault " +
                        to_string(fault_) + ")";
            return std::nullopt;
        }
        return inner_->run(op, reps, timeout_s, why);
    }
    std::optional<std::string> poisoned() const override { return poisoned_ ? poisoned_ : inner_->poisoned(); }
    std::vector<std::string> notes() const override {
        auto n = inner_->notes();
        n.push_back("fault injected: --inject-fault " + to_string(fault_));
        return n;
    }

private:
    bool hit(TransferFault::Stage stage) { return fault_.stage == stage && ++calls_ == fault_.at; }
    std::string message(const std::string& what) const {
        return "injected fault (--inject-fault " + to_string(fault_) + "): the " + ordinal(fault_.at) + " " + stage_name(fault_.stage) + " call: " + what;
    }
    // A real backend after a hung device refuses calls that would block on it.
    void refuse_if_poisoned() const {
        if (poisoned_) throw BenchError(BenchError::Kind::failed, "not run: " + *poisoned_);
    }

    std::shared_ptr<TransferBackend> inner_;
    TransferFault fault_;
    std::uint64_t calls_ = 0;
    std::optional<std::string> poisoned_;
};

}  // namespace

TransferFault parse_transfer_fault(const std::string& spec) {
    const std::optional<FaultSpecText> text = split_fault_spec(spec);
    TransferFault f;
    bool known = text.has_value();
    if (known && text->stage == "alloc") f.stage = TransferFault::Stage::alloc;
    else if (known && text->stage == "copy") f.stage = TransferFault::Stage::copy;
    else if (known && text->stage == "verify") f.stage = TransferFault::Stage::verify;
    else known = false;
    if (known && text->hang && f.stage != TransferFault::Stage::copy) known = false;  // only a copy or kernel can hang
    if (!known)
        throw BenchError(BenchError::Kind::bad_input, "--inject-fault: got '" + spec +
                                                          "'; expected STAGE:N with STAGE alloc, copy or verify, or hang:copy:N, and N >= 1, e.g. copy:3 or hang:copy:2");
    f.hang = text->hang;
    f.at = text->at;
    return f;
}

std::string to_string(const TransferFault& f) { return std::string(f.hang ? "hang:" : "") + stage_name(f.stage) + ":" + std::to_string(f.at); }

std::shared_ptr<TransferBackend> with_transfer_fault(std::shared_ptr<TransferBackend> inner, const TransferFault& fault) {
    return std::make_shared<FaultyTransferBackend>(std::move(inner), fault);
}

}  // namespace gpuplan::bench
