#include "gpuplan/pricing/unit_cost.hpp"

namespace gpuplan {

Figure usd_per_million_tokens(const Param& usd_per_hour, const Param& tokens_per_second) {
    const double v = usd_per_hour.value / (tokens_per_second.value * 3600.0) * 1e6;
    return explained_figure("usd_per_million_tokens", v, "USD/1M tokens", [&] {
        return Explanation{"usd_per_hour / (tokens_per_second x 3600) x 1e6",
                           format_number(usd_per_hour.value) + " / (" + format_number(tokens_per_second.value) + " x 3600) x 1e6 = " + format_number(v),
                           {input("usd_per_hour", "USD/h", usd_per_hour), input("tokens_per_second", "tokens/s", tokens_per_second)}};
    });
}

Figure usd_per_video_hour(const Param& usd_per_hour, const Param& real_time_factor) {
    const double v = usd_per_hour.value * real_time_factor.value;
    return {.name = "usd_per_video_hour", .value = v, .unit = "USD/video-hour", .formula = "usd_per_hour x real_time_factor",
            .worked = format_number(usd_per_hour.value) + " x " + format_number(real_time_factor.value) + " = " + format_number(v),
            .inputs = {input("usd_per_hour", "USD/h", usd_per_hour), input("real_time_factor", "decode s / video s", real_time_factor)}};
}

Figure training_run_usd(const Param& usd_per_hour, const Param& hours, const Param& instances) {
    const double v = usd_per_hour.value * hours.value * instances.value;
    return {.name = "training_run_usd", .value = v, .unit = "USD", .formula = "usd_per_hour x hours x instances",
            .worked = format_number(usd_per_hour.value) + " x " + format_number(hours.value) + " x " + format_number(instances.value) + " = " +
                format_number(v),
            .inputs = {input("usd_per_hour", "USD/h", usd_per_hour), input("hours", "h", hours), input("instances", "", instances)}};
}

TokenCost token_cost(const Param& usd_per_hour, const Param& tokens_per_second) {
    TokenCost t;
    t.usd_per_million_tokens = usd_per_million_tokens(usd_per_hour, tokens_per_second);
    const double per_million = *t.usd_per_million_tokens.value;
    t.usd_per_billion_tokens = make_figure("usd_per_billion_tokens", per_million * 1000.0, "USD/1B tokens", "usd_per_million_tokens x 1000",
                                           format_number(per_million) + " x 1000 = " + format_number(per_million * 1000.0),
                                           {t.usd_per_million_tokens.as_input()});
    return t;
}

VideoPipelineComparison compare_video_pipelines(const Param& usd_per_hour, const Param& decode_a, const Param& decode_b,
                                                const Param& rtf_a) {
    VideoPipelineComparison c;
    const double video_s = decode_a.value / rtf_a.value;
    c.video_seconds = {.name = "video_seconds", .value = video_s, .unit = "s", .formula = "decode_seconds_a / rtf_a",
                       .worked = format_number(decode_a.value) + " / " + format_number(rtf_a.value) + " = " + format_number(video_s),
                       .inputs = {input("decode_seconds_a", "s", decode_a), input("rtf_a", "", rtf_a)}};
    const double rtf_b = decode_b.value / video_s;
    c.rtf_b = {.name = "rtf_b", .value = rtf_b, .unit = "decode s / video s", .formula = "decode_seconds_b / video_seconds",
               .worked = format_number(decode_b.value) + " / " + format_number(video_s) + " = " + format_number(rtf_b),
               .inputs = {input("decode_seconds_b", "s", decode_b), c.video_seconds.as_input()}};
    const double hours_a = 1000.0 * rtf_a.value, hours_b = 1000.0 * rtf_b;
    c.gpu_hours_per_1000_video_hours_a = {.name = "gpu_hours_per_1000_video_hours_a", .value = hours_a, .unit = "GPU-h", .formula = "1000 x rtf_a",
                                          .worked = "1000 x " + format_number(rtf_a.value) + " = " + format_number(hours_a), .inputs = {input("rtf_a", "", rtf_a)}};
    c.gpu_hours_per_1000_video_hours_b = {.name = "gpu_hours_per_1000_video_hours_b", .value = hours_b, .unit = "GPU-h", .formula = "1000 x rtf_b",
                                          .worked = "1000 x " + format_number(rtf_b) + " = " + format_number(hours_b), .inputs = {c.rtf_b.as_input()}};
    const double saving = (hours_a - hours_b) * usd_per_hour.value;
    c.saving_usd_per_1000_video_hours = {
        "saving_usd_per_1000_video_hours", saving, "USD", "(gpu_hours_a - gpu_hours_b) x usd_per_hour",
        "(" + format_number(hours_a) + " - " + format_number(hours_b) + ") x " + format_number(usd_per_hour.value) + " = " + format_number(saving),
        {c.gpu_hours_per_1000_video_hours_a.as_input(), c.gpu_hours_per_1000_video_hours_b.as_input(), input("usd_per_hour", "USD/h", usd_per_hour)},
        ""};
    return c;
}

}  // namespace gpuplan
