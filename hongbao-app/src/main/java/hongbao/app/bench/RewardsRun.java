package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.client.Messages.Reconciliation;
import hongbao.client.Messages.RewardType;
import hongbao.crypto.Sealer;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.BonusReceipt;
import hongbao.sdk.RewardSdk;
import hongbao.sdk.User;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * {@code bench --scenario rewards}: the reward pipeline under load from a process of its own. This
 * process plays the upstream service: it embeds the reward SDK (which talks to the service's Redis
 * and Kafka directly, as the SDK does in a caller) and also sends a quarter as many rewards over
 * HTTP; the service process consumes and credits. Each window reports rewards accepted per second
 * with p50/p99 of one call, through the SDK and over HTTP; how fast they were credited, in all and
 * per type against its limit; and the CPU time per reward of each process, from the first send to
 * the last credit. Medians of the windows are printed and written to {@code summary.md}; the
 * reconciler must be clean at the end.
 */
final class RewardsRun {

  static final String SCENARIO = "rewards";

  /** Per-type limits high enough that they do not bound the run: what is measured is the code. */
  private static final Map<String, Long> LIMITS =
      new TreeMap<>(Map.of("CASH", 20_000L, "BENCH_COUPON", 10_000L, "BENCH_ITEM", 5_000L));

  /** The mix sent, in tenths: six CASH, three coupons, one item (a coupon book in PostgreSQL). */
  private static final String[] TYPE_OF_TENTH = {
    "CASH",
    "CASH",
    "CASH",
    "CASH",
    "CASH",
    "CASH",
    "BENCH_COUPON",
    "BENCH_COUPON",
    "BENCH_COUPON",
    "BENCH_ITEM"
  };

  private static final Duration CREDIT_PATIENCE = Duration.ofMinutes(5);

  /**
   * Bounds the warm-up: each window is a quarter of {@code --rewards}, and on two cores the
   * compiler still took a fifth of the service's CPU after 150,000 rewards.
   */
  static final int WARM_UP_WINDOWS_MAX = 12;

  private final BenchClient client;
  private final Target service;
  private final Sealer keyset;
  private final int rewards;
  private final int concurrency;
  private final int runs;
  private final String command;
  private final Path out;
  private final String campaign = "bench" + System.nanoTime() % 1_000_000;
  private final AtomicInteger sequence = new AtomicInteger();

  RewardsRun(
      BenchClient client,
      Target service,
      Sealer keyset,
      int rewards,
      int concurrency,
      int runs,
      String command,
      Path out) {
    this.client = client;
    this.service = service;
    this.keyset = keyset;
    this.rewards = rewards;
    this.concurrency = concurrency;
    this.runs = runs;
    this.command = command;
    this.out = out;
  }

  /** One window's figures. */
  record Window(
      double sdkPerSec,
      Summary.Latency sdkLatency,
      double httpPerSec,
      Summary.Latency httpLatency,
      double creditedPerSec,
      Map<String, Double> creditedPerSecByType,
      Map<Party, Double> cpuMicrosPerReward) {}

  /** Runs a warm-up and the windows; true when every reward was credited and reconciled. */
  boolean execute() throws Exception {
    prepare();
    try (RewardSdk sdk =
        RewardSdk.builder()
            .redis(service.redisUrl())
            .kafka(service.kafkaBootstrap())
            .sealer(keyset)
            .build()) {
      String warmUp = warmUp(sdk);
      var windows = new ArrayList<Window>();
      for (int r = 0; r < runs; r++) {
        windows.add(window(sdk, rewards, "run " + (r + 1)));
      }
      Reconciliation reconciliation = client.reconcile();
      boolean clean = reconciliation.ok();
      String report =
          markdown(
              windows, warmUp, clean ? "clean" : String.join("; ", reconciliation.discrepancies()));
      System.out.println(report);
      Files.createDirectories(out);
      Files.writeString(out.resolve("summary.md"), report);
      return clean;
    }
  }

  /**
   * Windows of a quarter of {@code --rewards} until the JIT has settled ({@link WarmUpRule}, on the
   * credited rate and the service's CPU per reward) or {@value #WARM_UP_WINDOWS_MAX} windows ran;
   * says which.
   */
  private String warmUp(RewardSdk sdk) throws Exception {
    var rule = new WarmUpRule();
    for (int w = 1; w <= WARM_UP_WINDOWS_MAX; w++) {
      Window window = window(sdk, Math.max(1, rewards / 4), "warm-up " + w);
      Map<Party, Double> micros = window.cpuMicrosPerReward();
      if (rule.settledAfter(
          window.creditedPerSec(),
          micros.getOrDefault(Party.SERVICE, 0.0),
          micros.getOrDefault(Party.SERVICE_JIT, 0.0))) {
        return "settled after " + w + " windows";
      }
    }
    return "not settled after " + WARM_UP_WINDOWS_MAX + " windows";
  }

  private void prepare() {
    LIMITS.forEach(
        (type, rate) ->
            client
                .admin()
                .putRewardType(
                    new RewardType(
                        type,
                        type.equals("CASH")
                            ? "CASH"
                            : type.equals("BENCH_ITEM") ? "ITEM" : "COUPON",
                        rate,
                        rate / 10,
                        null,
                        type.equals("CASH")
                            ? "MASSIVE"
                            : type.equals("BENCH_ITEM") ? "EXPRESS" : "SPECIAL",
                        null)));
    client.admin().openRewardCampaign(campaign, 100_000_000_000L);
  }

  private Window window(RewardSdk sdk, int count, String label) throws Exception {
    // The reward pipeline's types refresh every second on every instance.
    Thread.sleep(1_200);
    Map<String, Long> issuedBefore = issued();
    CpuMeter.Sample start = service.meter().sample();
    long started = System.nanoTime();

    var sdkLatency = new LatencyRecorder();
    double sdkSeconds = sendThroughSdk(sdk, count, sdkLatency);
    int overHttp = Math.max(1, count / 4);
    var httpLatency = new LatencyRecorder();
    double httpSeconds = new Load(concurrency, 0).run(httpCalls(overHttp), httpLatency);
    long total = count + overHttp;

    Map<String, Long> credited;
    long deadline = System.nanoTime() + CREDIT_PATIENCE.toNanos();
    while (true) {
      credited = since(issued(), issuedBefore);
      if (credited.values().stream().mapToLong(Long::longValue).sum() >= total) {
        break;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            label + ": only " + credited + " of " + total + " credited");
      }
      Thread.sleep(50);
    }
    double allSeconds = (System.nanoTime() - started) / 1e9;
    CpuMeter.Usage usage = service.meter().sample().since(start);
    var perType = new TreeMap<String, Double>();
    credited.forEach((type, n) -> perType.put(type, n / allSeconds));
    var window =
        new Window(
            count / sdkSeconds,
            sdkLatency.latency(),
            overHttp / httpSeconds,
            httpLatency.latency(),
            total / allSeconds,
            perType,
            usage.microsPer(total));
    System.out.printf(
        Locale.ROOT,
        "%s: SDK %.0f/s (p50 %.2f ms, p99 %.2f ms), HTTP %.0f/s (p50 %.2f ms, p99 %.2f ms),"
            + " %d credited at %.0f/s, CPU µs per reward %s%n",
        label,
        window.sdkPerSec(),
        window.sdkLatency().p50(),
        window.sdkLatency().p99(),
        window.httpPerSec(),
        window.httpLatency().p50(),
        window.httpLatency().p99(),
        total,
        window.creditedPerSec(),
        rounded(window.cpuMicrosPerReward()));
    return window;
  }

  private double sendThroughSdk(RewardSdk sdk, int count, LatencyRecorder latency)
      throws Exception {
    var next = new AtomicInteger();
    var pool = Executors.newFixedThreadPool(concurrency);
    try {
      long start = System.nanoTime();
      latency.start(start);
      var futures = new ArrayList<java.util.concurrent.Future<?>>();
      for (int t = 0; t < concurrency; t++) {
        futures.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    int n = sequence.incrementAndGet();
                    long begun = System.nanoTime();
                    BonusReceipt receipt =
                        sdk.sendBonus(
                            new Activity(campaign, "bench"),
                            new User("u" + n),
                            new Bonus(campaign + "_s" + n, TYPE_OF_TENTH[n % 10], 1, "bench"));
                    long now = System.nanoTime();
                    latency.record(now - begun, now);
                    if (receipt.status() != BonusReceipt.Status.ACCEPTED) {
                      throw new IllegalStateException("not accepted: " + receipt);
                    }
                  }
                  return null;
                }));
      }
      for (var future : futures) {
        future.get();
      }
      return (System.nanoTime() - start) / 1e9;
    } finally {
      pool.shutdownNow();
    }
  }

  private List<Supplier<Future<?>>> httpCalls(int count) {
    var calls = new ArrayList<Supplier<Future<?>>>(count);
    for (int i = 0; i < count; i++) {
      calls.add(
          () -> {
            int n = sequence.incrementAndGet();
            var body =
                JsonObject.of(
                    "tradeNo",
                    campaign + "_h" + n,
                    "userId",
                    "h" + n,
                    "campaignId",
                    campaign,
                    "scene",
                    "bench",
                    "type",
                    TYPE_OF_TENTH[n % 10],
                    "amount",
                    1,
                    "desc",
                    "bench");
            return client
                .call(HttpMethod.POST, "/api/v1/rewards", client.adminToken(), null, body)
                .map(
                    answer -> {
                      if (answer.getInteger("_status", 0) != 202) {
                        throw new IllegalStateException("not accepted: " + answer.encode());
                      }
                      return answer;
                    });
          });
    }
    return calls;
  }

  /** {@code hongbao_rewards_issued_total} per type, from the service's metrics. */
  private Map<String, Long> issued() {
    return issued(client);
  }

  /** {@code hongbao_rewards_issued_total} per type, from the service's metrics. */
  static Map<String, Long> issued(BenchClient client) {
    var issued = new TreeMap<String, Long>();
    String prefix = "hongbao_rewards_issued_total{type=\"";
    for (String line : client.getText("/metrics").split("\n")) {
      if (line.startsWith(prefix)) {
        String type = line.substring(prefix.length(), line.indexOf('"', prefix.length()));
        issued.put(type, (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return issued;
  }

  private static Map<String, Long> since(Map<String, Long> now, Map<String, Long> before) {
    var delta = new TreeMap<String, Long>();
    now.forEach((type, n) -> delta.put(type, n - before.getOrDefault(type, 0L)));
    return delta;
  }

  private static Map<Party, Long> rounded(Map<Party, Double> micros) {
    var rounded = new EnumMap<Party, Long>(Party.class);
    micros.forEach((party, value) -> rounded.put(party, Math.round(value)));
    return rounded;
  }

  private String markdown(List<Window> windows, String warmUp, String reconciliation) {
    var text = new StringBuilder();
    text.append("```\n").append(command).append("\n```\n\n");
    text.append(
        String.format(
            Locale.ROOT,
            "%d windows of %d rewards through the SDK and %d over HTTP, %d in flight;"
                + " medians of the windows.%n%n",
            windows.size(),
            rewards,
            Math.max(1, rewards / 4),
            concurrency));
    text.append("| measure | value |\n| --- | --- |\n");
    text.append("| warm-up | ").append(warmUp).append(" |\n");
    row(text, "accepted via SDK (rewards/s)", median(windows, Window::sdkPerSec), "%.0f");
    row(
        text,
        "SDK call p50 / p99 (ms)",
        median(windows, w -> w.sdkLatency().p50()),
        median(windows, w -> w.sdkLatency().p99()));
    row(text, "accepted via HTTP (rewards/s)", median(windows, Window::httpPerSec), "%.0f");
    row(
        text,
        "HTTP call p50 / p99 (ms)",
        median(windows, w -> w.httpLatency().p50()),
        median(windows, w -> w.httpLatency().p99()));
    row(
        text,
        "credited (rewards/s, first send to last credit)",
        median(windows, Window::creditedPerSec),
        "%.0f");
    for (String type : LIMITS.keySet()) {
      text.append(
          String.format(
              Locale.ROOT,
              "| credited %s (/s; limit %d/s) | %.0f |%n",
              type,
              LIMITS.get(type),
              median(windows, w -> w.creditedPerSecByType().getOrDefault(type, 0.0))));
    }
    for (Party party : Party.values()) {
      if (windows.getFirst().cpuMicrosPerReward().containsKey(party)) {
        row(
            text,
            "CPU µs per reward: " + party.key(),
            median(windows, w -> w.cpuMicrosPerReward().getOrDefault(party, 0.0)),
            "%.0f");
      }
    }
    text.append("| reconciliation | ").append(reconciliation).append(" |\n");
    return text.toString();
  }

  private static void row(StringBuilder text, String name, double value, String format) {
    text.append("| ")
        .append(name)
        .append(" | ")
        .append(String.format(Locale.ROOT, format, value))
        .append(" |\n");
  }

  private static void row(StringBuilder text, String name, double p50, double p99) {
    text.append(String.format(Locale.ROOT, "| %s | %.2f / %.2f |%n", name, p50, p99));
  }

  private static double median(
      List<Window> windows, java.util.function.ToDoubleFunction<Window> f) {
    return Medians.median(windows.stream().map(w -> f.applyAsDouble(w)).toList());
  }
}
