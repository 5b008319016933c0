// decode_faults.cpp — see decode_faults.hpp.
#include "decode_faults.hpp"

#include "fault_spec.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

namespace gpuplan::bench {

namespace {

const char* stage_name(InjectedFault::Stage s) {
    switch (s) {
        case InjectedFault::Stage::compute: return "compute";
        case InjectedFault::Stage::copy: return "copy";
        case InjectedFault::Stage::writer: return "writer";
    }
    return "?";
}

// The backend with one call made to fail or to hang. Hangs are simulated on top of the real
// engines (which do finish the work): the points recorded after the hung call on its engine,
// and on any engine that waits for one of them, are never reached as far as the caller sees.
class FaultyBackend final : public DecodeBackend {
public:
    FaultyBackend(std::shared_ptr<DecodeBackend> inner, InjectedFault fault) : inner_(std::move(inner)), fault_(fault) {}

    std::string name() const override { return inner_->name(); }
    std::string device_name() const override { return inner_->device_name(); }
    MemoryBudget memory_budget() override { return inner_->memory_budget(); }
    std::uint64_t decoder_device_bytes(const FrameLayout& layout) const override { return inner_->decoder_device_bytes(layout); }
    std::vector<std::string> notes() const override {
        auto n = inner_->notes();
        n.push_back("fault injected: " + to_string(fault_));
        return n;
    }
    Calibration prepare(const FrameLayout& layout, double compute_ms, DecoderKind kind) override { return inner_->prepare(layout, compute_ms, kind); }
    int allocate_device(std::uint64_t bytes) override { return inner_->allocate_device(bytes); }
    std::byte* allocate_host(std::uint64_t bytes, HostMemory kind, int numa_node) override { return inner_->allocate_host(bytes, kind, numa_node); }
    int create_event() override { return inner_->create_event(); }
    void attach_thread() override { inner_->attach_thread(); }
    void set_wait_timeout(double seconds) override {
        timeout_s_ = seconds;
        inner_->set_wait_timeout(seconds);
    }
    // Never throws: the pipeline releases on its error paths. A real hung GPU would not give
    // its memory back; the simulated one does.
    void release() override {
        std::lock_guard lock(mutex_);
        stalled_[0] = stalled_[1] = false;
        hung_.clear();
        inner_->release();
    }

    void record(int event, Engine engine) override {
        {
            std::lock_guard lock(mutex_);
            if (stalled_[index(engine)]) hung_.insert(event);
            else hung_.erase(event);
        }
        inner_->record(event, engine);
    }
    void engine_wait(Engine engine, int event) override {
        {
            std::lock_guard lock(mutex_);
            if (hung_.count(event)) stalled_[index(engine)] = true;
        }
        inner_->engine_wait(engine, event);
    }
    void host_wait(int event) override {
        bool hung;
        {
            std::lock_guard lock(mutex_);
            hung = hung_.count(event) > 0;
        }
        if (hung) give_up("a point the host waited for");
        inner_->host_wait(event);
    }
    double elapsed_ms(int from_event, int to_event) override { return inner_->elapsed_ms(from_event, to_event); }

    void enqueue_decode(int buffer, std::uint64_t chunk, std::uint64_t sequence) override {
        if (hit(InjectedFault::Stage::compute, Engine::compute)) return;
        inner_->enqueue_decode(buffer, chunk, sequence);
    }
    void enqueue_copy_to_host(Engine engine, std::byte* host, int buffer) override {
        if (hit(InjectedFault::Stage::copy, engine)) return;
        inner_->enqueue_copy_to_host(engine, host, buffer);
    }
    void synchronize() override {
        bool stalled;
        {
            std::lock_guard lock(mutex_);
            stalled = stalled_[0] || stalled_[1];
        }
        if (stalled) give_up("synchronize (an engine with a hung call)");
        inner_->synchronize();
    }

private:
    static int index(Engine e) { return e == Engine::compute ? 0 : 1; }

    // Counts the call; a failure throws; a hang stalls the engine and lets the call through
    // (returns false) so the data still arrive. Returns true when the call must be skipped.
    bool hit(InjectedFault::Stage stage, Engine engine) {
        if (fault_.stage != stage) return false;
        std::lock_guard lock(mutex_);
        if (++calls_ != fault_.at) return false;
        if (!fault_.hang)
            throw BenchError(BenchError::Kind::failed, "injected fault (--inject-fault " + to_string(fault_) + "): the " + ordinal(fault_.at) + " " +
                                                           stage_name(stage) + " call failed, as a CUDA error would");
        stalled_[index(engine)] = true;
        return false;
    }

    // What a real backend does when its wait deadline passes (decode_backend.hpp).
    [[noreturn]] void give_up(const char* what) {
        std::this_thread::sleep_for(std::chrono::duration<double>(timeout_s_));
        throw BenchError(BenchError::Kind::failed, wait_timeout_message(what, timeout_s_) + " (injected: --inject-fault " + to_string(fault_) + ")");
    }

    std::shared_ptr<DecodeBackend> inner_;
    InjectedFault fault_;
    std::mutex mutex_;
    std::uint64_t calls_ = 0;
    bool stalled_[2] = {false, false};
    std::set<int> hung_;
    double timeout_s_ = 60;
};

}  // namespace

InjectedFault parse_injected_fault(const std::string& spec) {
    const std::optional<FaultSpecText> text = split_fault_spec(spec);
    InjectedFault f;
    if (text && text->stage == "compute") f.stage = InjectedFault::Stage::compute;
    else if (text && text->stage == "copy") f.stage = InjectedFault::Stage::copy;
    else if (text && text->stage == "writer") f.stage = InjectedFault::Stage::writer;
    else
        throw BenchError(BenchError::Kind::bad_input, "--inject-fault: got '" + spec +
                                                          "'; expected [hang:]STAGE:N with STAGE compute, copy or writer and N >= 1, e.g. copy:3 or hang:copy:3");
    f.hang = text->hang;
    f.at = text->at;
    return f;
}

std::string to_string(const InjectedFault& f) { return std::string(f.hang ? "hang:" : "") + stage_name(f.stage) + ":" + std::to_string(f.at); }

std::shared_ptr<DecodeBackend> with_injected_fault(std::shared_ptr<DecodeBackend> inner, const InjectedFault& fault) {
    if (fault.stage == InjectedFault::Stage::writer) return inner;
    return std::make_shared<FaultyBackend>(std::move(inner), fault);
}

}  // namespace gpuplan::bench
