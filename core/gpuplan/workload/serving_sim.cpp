// serving_sim.cpp — the continuous-batching simulation (serving_sim.hpp).
#include "gpuplan/workload/serving_sim.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>
#include <queue>
#include <random>

#include "gpuplan/input_error.hpp"
#include "gpuplan/explain.hpp"
#include "gpuplan/text.hpp"

namespace gpuplan {

// ---- lengths ------------------------------------------------------------------------------

double LengthDistribution::mean() const {
    switch (kind) {
    case Kind::fixed: return a;
    case Kind::uniform: return (a + b) / 2;
    case Kind::exponential: return b > 0 ? a * (1 - std::exp(-b / a)) : a;  // E[min(X, cap)] for X ~ Exp(mean a)
    }
    return a;
}

double LengthDistribution::max() const {
    switch (kind) {
    case Kind::fixed: return a;
    case Kind::uniform: return b;
    case Kind::exponential: return b > 0 ? b : 20 * a;
    }
    return a;
}

std::string LengthDistribution::text() const {
    switch (kind) {
    case Kind::fixed: return format_number(a);
    case Kind::uniform: return "uniform:" + format_number(a) + ":" + format_number(b);
    case Kind::exponential: return "exponential:" + format_number(a) + (b > 0 ? ":" + format_number(b) : "");
    }
    return "";
}

namespace {

std::optional<double> whole_tokens(const std::string& text) {
    const auto v = decimal_number(text);
    return v && *v >= 1 && *v <= 1e7 ? v : std::nullopt;
}

std::vector<std::string> split_colons(const std::string& text) {
    std::vector<std::string> parts(1);
    for (char c : text) {
        if (c == ':')
            parts.emplace_back();
        else
            parts.back().push_back(c);
    }
    return parts;
}

}  // namespace

LengthDistribution parse_length_distribution(const std::string& text, const std::string& field) {
    const std::string expected = "a length in tokens (1 to 1e7): N, uniform:LO:HI, exponential:MEAN or exponential:MEAN:MAX";
    const std::vector<std::string> parts = split_colons(text);
    LengthDistribution d;
    std::vector<double> numbers;
    for (std::size_t i = parts.size() == 1 ? 0 : 1; i < parts.size(); ++i) {
        const auto v = whole_tokens(parts[i]);
        if (!v) throw InputError(field, "'" + text + "'", expected);
        numbers.push_back(*v);
    }
    if (parts.size() == 1) {
        d.kind = LengthDistribution::Kind::fixed;
        d.a = std::round(numbers[0]);
    } else if (parts[0] == "uniform" && numbers.size() == 2 && numbers[0] <= numbers[1]) {
        d.kind = LengthDistribution::Kind::uniform;
        d.a = std::round(numbers[0]);
        d.b = std::round(numbers[1]);
    } else if (parts[0] == "exponential" && (numbers.size() == 1 || (numbers.size() == 2 && numbers[1] >= numbers[0]))) {
        d.kind = LengthDistribution::Kind::exponential;
        d.a = numbers[0];
        d.b = numbers.size() == 2 ? std::round(numbers[1]) : 0;
    } else {
        throw InputError(field, "'" + text + "'", expected + " (LO <= HI, MEAN <= MAX)");
    }
    return d;
}

// ---- the step costs -----------------------------------------------------------------------

namespace {

double weights_seconds(const ReplicaCosts& c, double batch) {
    if (c.weights_seconds.empty()) return 0;
    const std::size_t i = static_cast<std::size_t>(std::max(1.0, batch)) - 1;
    return c.weights_seconds[std::min(i, c.weights_seconds.size() - 1)];
}

// The sum over i = 0 .. n-1 of max(m0 + m1 i, c0 + c1 i): the memory roofline against the
// compute ceiling, step by step while the cache grows by one token per sequence per step.
double sum_of_max(double m0, double m1, double c0, double c1, double n) {
    const auto linear_sum = [](double a0, double a1, double from, double to) {  // sum over i in [from, to)
        const double count = to - from;
        return count <= 0 ? 0.0 : count * a0 + a1 * (from + to - 1) * count / 2;
    };
    const double d0 = m0 - c0, d1 = m1 - c1;  // memory minus compute at step i: d0 + d1 i
    if (d0 >= 0 && d1 >= 0) return linear_sum(m0, m1, 0, n);  // memory-bound throughout
    if (d0 < 0 && d1 <= 0) return linear_sum(c0, c1, 0, n);   // compute-bound throughout
    const double cross = std::clamp(std::ceil(-d0 / d1), 0.0, n);  // first step where the sign of d may change
    const bool memory_first = d0 >= 0;
    return (memory_first ? linear_sum(m0, m1, 0, cross) : linear_sum(c0, c1, 0, cross)) +
           (memory_first ? linear_sum(c0, c1, cross, n) : linear_sum(m0, m1, cross, n));
}

// Seconds of `steps` decode steps of `batch` sequences starting with `cached` tokens.
double decode_run_seconds(const ReplicaCosts& c, double batch, double cached, double steps) {
    const double m0 = weights_seconds(c, batch) + c.kv_seconds_per_token * cached, m1 = c.kv_seconds_per_token * batch;
    const double c0 = c.compute_seconds_per_token * batch + c.attention_seconds_per_token * cached, c1 = c.attention_seconds_per_token * batch;
    return steps * (c.fixed_seconds + c.per_sequence_seconds * batch) + sum_of_max(m0, m1, c0, c1, steps);
}

}  // namespace

double decode_step_seconds(const ReplicaCosts& c, double batch, double cached_tokens) { return decode_run_seconds(c, batch, cached_tokens, 1); }

double percentile_of_sorted(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double rank = std::ceil(q / 100 * static_cast<double>(sorted.size()));
    const std::size_t i = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1;
    return sorted[i];
}

// ---- the simulation -----------------------------------------------------------------------

namespace {

// Latencies kept as counts in bins 1/2048 of an octave wide (0.034%), from 2^-20 s (about 1 us)
// to 2^20 s (12 days), so a year of requests needs kilobytes, not gigabytes; a percentile is
// the upper edge of its bin. The bin comes from the double's exponent and mantissa (frexp), not
// a logarithm: the simulation adds three latencies per request.
class LatencyHistogram {
public:
    void add(double seconds) {
        ++count_;
        sum_ += seconds;
        if (seconds < kLow) {
            ++zero_;
            return;
        }
        int exponent = 0;
        const double mantissa = std::frexp(seconds, &exponent);  // seconds = mantissa x 2^exponent, mantissa in [0.5, 1)
        const double i = static_cast<double>(exponent - kLowExponent) * kPerOctave + std::floor((mantissa - 0.5) * 2 * kPerOctave);
        ++bins_[static_cast<std::size_t>(std::min(i, static_cast<double>(kBins - 1)))];
    }
    Percentiles percentiles(const std::vector<double>& extra) const {
        Percentiles p;
        if (count_ == 0) return p;
        for (double q : extra) p.extra.push_back(at(q));
        p.mean = sum_ / static_cast<double>(count_);
        p.p50 = at(50);
        p.p95 = at(95);
        p.p99 = at(99);
        return p;
    }
    std::size_t count() const { return count_; }

private:
    static constexpr int kLowExponent = -19;  // frexp's exponent of 2^-20
    static constexpr double kLow = 0x1.0p-20, kPerOctave = 2048;
    static constexpr std::size_t kBins = 40 * 2048;
    static double upper_edge(std::size_t i) {
        const double octave = std::floor(static_cast<double>(i) / kPerOctave), within = static_cast<double>(i) - octave * kPerOctave;
        return std::ldexp(0.5 + (within + 1) / (2 * kPerOctave), static_cast<int>(octave) + kLowExponent);
    }
    double at(double q) const {
        const double rank = std::max(1.0, std::ceil(q / 100 * static_cast<double>(count_)));
        double seen = static_cast<double>(zero_);
        if (seen >= rank) return 0;
        for (std::size_t i = 0; i < kBins; ++i) {
            seen += static_cast<double>(bins_[i]);
            if (seen >= rank) return upper_edge(i);
        }
        return upper_edge(kBins - 1);
    }
    std::vector<std::uint64_t> bins_ = std::vector<std::uint64_t>(kBins, 0);
    std::size_t count_ = 0, zero_ = 0;
    double sum_ = 0;
};

// Draws from the generator's raw 64-bit output (fixed by the standard), not std::*_distribution
// (whose algorithms differ between standard libraries).
class Draws {
public:
    explicit Draws(std::uint64_t seed) : engine_(seed) {}
    double unit_open() { return (static_cast<double>(engine_() >> 11) + 1) * 0x1.0p-53; }  // (0, 1]
    double exponential(double mean) { return -std::log(unit_open()) * mean; }
    double length(const LengthDistribution& d) {
        switch (d.kind) {
        case LengthDistribution::Kind::fixed: return d.a;
        case LengthDistribution::Kind::uniform: return d.a + std::floor((1 - unit_open()) * (d.b - d.a + 1));
        case LengthDistribution::Kind::exponential: return std::clamp(std::round(exponential(d.a)), 1.0, d.max());
        }
        return d.a;
    }

private:
    std::mt19937_64 engine_;
};

struct Arrival {
    double at = 0, prompt = 0, output = 0;
    bool measured = false;
};

struct Running {
    std::uint64_t finish_step = 0;  // the replica's decode-step count when its last token comes out
    double arrival = 0, first_token = 0, prompt = 0, output = 0;
    bool measured = false;
    bool operator>(const Running& other) const { return finish_step > other.finish_step; }
};

class Replica {
public:
    Replica(const ReplicaCosts& costs, const TrafficSpec& traffic) : c_(costs), q_(traffic), draws_(traffic.seed) { next_arrival(); }

    SimulatedServing run() {
        while (true) {
            take_arrivals();
            if (admit_and_prefill()) continue;
            if (running_.empty()) {
                if (!next_) break;
                now_ = next_->at;
                continue;
            }
            decode_until_next_event();
        }
        return result();
    }

private:
    void next_arrival() {
        if (generated_ >= q_.requests) {
            next_.reset();
            return;
        }
        last_arrival_ += draws_.exponential(1 / q_.requests_per_second);
        const double prompt = draws_.length(q_.prompt), output = draws_.length(q_.output);
        next_ = Arrival{last_arrival_, prompt, output, generated_ >= q_.warmup};
        ++generated_;
    }

    void take_arrivals() {
        while (next_ && next_->at <= now_) {
            waiting_.push_back(*next_);
            next_arrival();
            if (!next_) waiting_at_last_arrival_ = waiting_.size();
        }
    }

    bool room_for(const Arrival& a, std::size_t admitted, double admitted_tokens) const {
        return static_cast<double>(running_.size() + admitted) < c_.max_sequences && reserved_ + a.prompt + a.output <= c_.kv_capacity_tokens &&
               (admitted_tokens == 0 || admitted_tokens + a.prompt <= c_.max_prefill_tokens);
    }

    // Admit waiting requests in arrival order and prefill them together (one step).
    bool admit_and_prefill() {
        std::vector<Arrival> admitted;
        double tokens = 0, work = 0;
        while (!waiting_.empty() && room_for(waiting_.front(), admitted.size(), tokens)) {
            const Arrival a = waiting_.front();
            waiting_.pop_front();
            tokens += a.prompt;
            work += c_.prefill_seconds_per_token * a.prompt + c_.prefill_seconds_per_token_squared * a.prompt * a.prompt;
            reserved_ += a.prompt + a.output;
            admitted.push_back(a);
        }
        if (admitted.empty()) return false;
        const double seconds = c_.fixed_seconds + std::max(c_.prefill_floor_seconds, work);
        now_ += seconds;
        busy_ += seconds;
        ++events_;
        for (const Arrival& a : admitted) {
            if (a.measured) ttft_.add(now_ - a.at);
            if (a.output <= 1) {
                finish(Running{steps_, a.at, now_, a.prompt, a.output, a.measured});
                continue;
            }
            cached_ += a.prompt;
            running_.push(Running{steps_ + static_cast<std::uint64_t>(a.output - 1), a.at, now_, a.prompt, a.output, a.measured});
        }
        return true;
    }

    // Decode until the next request finishes, or until the step during which an arrival that
    // could be admitted comes in (vLLM's scheduler looks at the queue between steps).
    void decode_until_next_event() {
        const double batch = static_cast<double>(running_.size());
        double steps = static_cast<double>(running_.top().finish_step - steps_);
        double seconds = decode_run_seconds(c_, batch, cached_, steps);
        if (next_ && waiting_.empty() && batch < c_.max_sequences && next_->at - now_ < seconds) {
            const double wait = next_->at - now_;
            // Steps only grow longer as the cache grows, so the first step's time and the last
            // one's bound the count: the search runs over a handful of candidates.
            const double first = decode_run_seconds(c_, batch, cached_, 1);
            double hi = std::clamp(std::ceil(wait / first), 1.0, steps);
            const double last = decode_run_seconds(c_, batch, cached_ + (hi - 1) * batch, 1);
            double lo = std::clamp(std::floor(wait / last), 1.0, hi);  // the first step count whose run reaches the arrival
            while (lo < hi) {
                const double mid = std::floor((lo + hi) / 2);
                if (decode_run_seconds(c_, batch, cached_, mid) >= wait)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            steps = lo;
            seconds = decode_run_seconds(c_, batch, cached_, steps);
        }
        now_ += seconds;
        busy_ += seconds;
        batch_seconds_ += batch * seconds;
        decode_seconds_ += seconds;
        steps_ += static_cast<std::uint64_t>(steps);
        cached_ += steps * batch;
        ++events_;
        while (!running_.empty() && running_.top().finish_step <= steps_) {
            const Running r = running_.top();
            running_.pop();
            cached_ -= r.prompt + r.output - 1;
            finish(r);
        }
    }

    void finish(const Running& r) {
        reserved_ -= r.prompt + r.output;
        output_tokens_ += r.output;
        if (!r.measured) return;
        e2e_.add(now_ - r.arrival);
        if (r.output > 1) tpot_.add((now_ - r.first_token) / (r.output - 1));
    }

    SimulatedServing result() const {
        SimulatedServing s;
        s.ttft_seconds = ttft_.percentiles(q_.extra_percentiles);
        s.tpot_seconds = tpot_.percentiles(q_.extra_percentiles);
        s.e2e_seconds = e2e_.percentiles(q_.extra_percentiles);
        s.measured_requests = static_cast<double>(e2e_.count());
        s.simulated_seconds = now_;
        s.busy_fraction = now_ > 0 ? busy_ / now_ : 0;
        s.mean_batch = decode_seconds_ > 0 ? batch_seconds_ / decode_seconds_ : 0;
        s.output_tokens_per_second = now_ > 0 ? output_tokens_ / now_ : 0;
        s.events = events_;
        // A replica that keeps up leaves few requests waiting when the last one arrives; one
        // that cannot keeps a queue that grows with every request.
        const double backlog_limit = std::max(64.0, 0.02 * static_cast<double>(q_.requests));
        if (static_cast<double>(waiting_at_last_arrival_) > backlog_limit) {
            s.stable = false;
            s.why_unstable = format_number(static_cast<double>(waiting_at_last_arrival_)) + " requests were still waiting when the last of " +
                             format_number(static_cast<double>(q_.requests)) + " arrived: at " + format_number(q_.requests_per_second) +
                             " requests/s the queue grows without bound";
        }
        return s;
    }

    const ReplicaCosts& c_;
    const TrafficSpec& q_;
    Draws draws_;
    std::optional<Arrival> next_;
    std::size_t generated_ = 0, waiting_at_last_arrival_ = 0, events_ = 0;
    double last_arrival_ = 0, now_ = 0, busy_ = 0, batch_seconds_ = 0, decode_seconds_ = 0, output_tokens_ = 0;
    double cached_ = 0, reserved_ = 0;
    std::uint64_t steps_ = 0;
    std::deque<Arrival> waiting_;
    std::priority_queue<Running, std::vector<Running>, std::greater<>> running_;
    LatencyHistogram ttft_, tpot_, e2e_;
};

void check_traffic(const ReplicaCosts& c, const TrafficSpec& q) {
    if (!(q.requests_per_second > 0) || !std::isfinite(q.requests_per_second))
        throw InputError("requests_per_second", format_number(q.requests_per_second), "a request rate > 0");
    if (q.requests <= q.warmup) throw InputError("requests", format_number(static_cast<double>(q.requests)), "more requests than the warm-up");
    const double longest = q.prompt.max() + q.output.max();
    if (longest > c.kv_capacity_tokens)
        throw InputError("prompt_tokens", q.prompt.text() + " + " + q.output.text(),
                         "requests whose longest prompt + output (" + format_number(longest) + " tokens) fits the replica's KV cache (" +
                             format_number(c.kv_capacity_tokens) + " tokens)");
    for (double p : q.extra_percentiles)
        if (!(p > 0 && p < 100)) throw InputError("percentile", format_number(p), "a percentile between 0 and 100 (exclusive), such as 95");
    if (c.max_sequences < 1) throw InputError("max_batch", format_number(c.max_sequences), "at least 1 sequence in flight");
}

}  // namespace

SimulatedServing simulate_serving(const ReplicaCosts& costs, const TrafficSpec& traffic) {
    check_traffic(costs, traffic);
    return Replica(costs, traffic).run();
}

}  // namespace gpuplan
