package hongbao.app.cli;

import com.sun.management.OperatingSystemMXBean;
import hongbao.app.Config;
import hongbao.app.Hongbao;
import hongbao.app.reward.IssuerSimulator;
import hongbao.core.reward.RewardCampaigns;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.VirtualQueue;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.RewardSdk;
import hongbao.sdk.User;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Benchmarks the reward pipeline on an embedded service (Redis, PostgreSQL, Kafka child process)
 * and an issuer simulator: rewards accepted per second through the SDK and over HTTP, the crediting
 * rate of each type against its limit, and CPU per reward of the service JVM and the broker. Not a
 * test: it measures, and reconciles at the end.
 */
@Command(
    name = "reward-bench",
    mixinStandardHelpOptions = true,
    description = "Benchmark the reward pipeline on an embedded service (not a test).")
public final class RewardBenchCommand implements Callable<Integer> {

  @Option(
      names = "--rewards",
      description = "rewards sent through the SDK (default ${DEFAULT-VALUE})")
  int rewards = 20_000;

  @Option(names = "--http", description = "rewards sent over HTTP (default ${DEFAULT-VALUE})")
  int http = 5_000;

  @Option(names = "--threads", description = "sending threads (default ${DEFAULT-VALUE})")
  int threads = 32;

  @Option(names = "--cash-rate", description = "CASH per second (default ${DEFAULT-VALUE})")
  long cashRate = 3_000;

  @Option(names = "--coupon-rate", description = "COUPON per second (default ${DEFAULT-VALUE})")
  long couponRate = 1_500;

  @Option(names = "--item-rate", description = "ITEM per second (default ${DEFAULT-VALUE})")
  long itemRate = 500;

  @Override
  public Integer call() throws Exception {
    var env = new HashMap<>(System.getenv());
    env.put("HONGBAO_PORT", "0");
    env.putIfAbsent("HONGBAO_DEV_MODE", "true");
    try (Hongbao service = Hongbao.start(Config.from(env));
        IssuerSimulator issuer =
            IssuerSimulator.start(
                new IssuerSimulator.Settings(0, 1_000_000, 0, Duration.ZERO),
                Clock.systemUTC(),
                1)) {
      var wiring = service.rewards();
      RewardSdk sdk = wiring.sdk();
      var types = sdk.parts().types();
      types.put(
          new RewardType(
              "CASH", RewardKind.CASH, cashRate, cashRate / 10, false, VirtualQueue.MASSIVE, null));
      types.put(
          new RewardType(
              "BENCH_COUPON",
              RewardKind.COUPON,
              couponRate,
              couponRate / 10,
              false,
              VirtualQueue.SPECIAL,
              issuer.url()));
      types.put(
          new RewardType(
              "BENCH_ITEM",
              RewardKind.ITEM,
              itemRate,
              itemRate / 10,
              false,
              VirtualQueue.EXPRESS,
              issuer.url()));
      String campaign = "bench" + (System.nanoTime() % 1_000_000);
      RewardCampaigns campaigns = wiring.campaigns();
      campaigns.open(campaign, 100_000_000_000L);
      String[] typeOf = {"CASH", "CASH", "CASH", "BENCH_COUPON", "BENCH_ITEM"};

      var cpu = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      long cpuBefore = cpu.getProcessCpuTime();
      long brokerBefore = brokerCpuNanos(service);
      long started = System.nanoTime();
      long sent =
          run(
              rewards,
              i ->
                  sdk.sendBonus(
                      new Activity(campaign, "bench"),
                      new User("u" + i),
                      new Bonus(campaign + "_sdk_" + i, typeOf[i % 5], 1, "bench")));
      double sdkSeconds = (System.nanoTime() - started) / 1e9;
      long cpuSdk = cpu.getProcessCpuTime() - cpuBefore;

      String admin = adminToken(service);
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      long httpStarted = System.nanoTime();
      long sentHttp =
          run(
              http,
              i -> {
                String body =
                    "{\"tradeNo\":\"%s_http_%d\",\"userId\":\"h%d\",\"campaignId\":\"%s\",\"scene\":\"bench\",\"type\":\"%s\",\"amount\":1,\"desc\":\"bench\"}"
                        .formatted(campaign, i, i, campaign, typeOf[i % 5]);
                var response =
                    client.send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + service.port() + "/api/v1/rewards"))
                            .header("Authorization", "Bearer " + admin)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() != 202) {
                  throw new IllegalStateException("HTTP " + response.statusCode());
                }
                return null;
              });
      double httpSeconds = (System.nanoTime() - httpStarted) / 1e9;

      long total = sent + sentHttp;
      var database = service.parts().database();
      long creditedAt;
      while (true) {
        long credited = count(database, campaign);
        if (credited >= total) {
          creditedAt = System.nanoTime();
          break;
        }
        if (System.nanoTime() - started > Duration.ofMinutes(30).toNanos()) {
          throw new IllegalStateException("only " + credited + " of " + total + " credited");
        }
        Thread.sleep(200);
      }
      long cpuAll = cpu.getProcessCpuTime() - cpuBefore;
      long brokerAll = brokerCpuNanos(service) - brokerBefore;
      double allSeconds = (creditedAt - started) / 1e9;
      System.out.printf(
          "reward-bench: %d rewards through the SDK, %d over HTTP, %d threads%n",
          sent, sentHttp, threads);
      System.out.printf(
          "  accepted via SDK : %8.0f rewards/s (service CPU %.0f µs per reward while sending)%n",
          sent / sdkSeconds, cpuSdk / 1e3 / sent);
      System.out.printf("  accepted via HTTP: %8.0f rewards/s%n", sentHttp / httpSeconds);
      System.out.printf(
          "  all credited after %.1f s; service JVM CPU %.0f µs and Kafka broker CPU %.0f µs per reward (send + consume + credit)%n",
          allSeconds, cpuAll / 1e3 / total, brokerAll / 1e3 / total);
      for (var entry : ratesByType(database, campaign).entrySet()) {
        System.out.printf(
            "  %-13s credited %6d at %7.0f/s (limit %d/s)%n",
            entry.getKey(),
            entry.getValue()[0],
            entry.getValue()[0] / Math.max(0.001, entry.getValue()[1] / 1000.0),
            switch (entry.getKey()) {
              case "CASH" -> cashRate;
              case "BENCH_COUPON" -> couponRate;
              default -> itemRate;
            });
      }
      var verdict = service.parts().reconciler().reconcile();
      System.out.printf("  reconciliation: %s%n", verdict.ok() ? "clean" : verdict.discrepancies());
      return verdict.ok() ? 0 : 1;
    }
  }

  @FunctionalInterface
  private interface Send {
    Object send(int i) throws Exception;
  }

  private long run(int n, Send send) throws Exception {
    var pool = Executors.newFixedThreadPool(threads);
    var next = new AtomicLong();
    var futures = new ArrayList<Future<Long>>();
    try {
      for (int t = 0; t < threads; t++) {
        futures.add(
            pool.submit(
                () -> {
                  long done = 0;
                  for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    send.send((int) i);
                    done++;
                  }
                  return done;
                }));
      }
      long total = 0;
      for (Future<Long> f : futures) {
        total += f.get();
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long brokerCpuNanos(Hongbao service) {
    var kafka = service.embeddedKafka();
    if (kafka == null) {
      return 0;
    }
    return ProcessHandle.of(kafka.pid())
        .flatMap(p -> p.info().totalCpuDuration())
        .map(Duration::toNanos)
        .orElse(0L);
  }

  private static String adminToken(Hongbao service) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    var response =
        client.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + service.port() + "/api/v1/dev/tokens"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"userId\":\"bench\",\"admin\":true}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new io.vertx.core.json.JsonObject(response.body()).getString("token");
  }

  private static long count(hongbao.postgres.PostgresDatabase database, String campaign)
      throws Exception {
    try (var connection = database.dataSource().getConnection();
        var query =
            connection.prepareStatement(
                "SELECT count(*) FROM reward WHERE campaign_id = ? AND status = 'CREDITED'")) {
      query.setString(1, campaign);
      try (var row = query.executeQuery()) {
        row.next();
        long n = row.getLong(1);
        connection.commit();
        return n;
      }
    }
  }

  /** Per type: how many were credited, and over how many milliseconds (first to last). */
  private static java.util.Map<String, long[]> ratesByType(
      hongbao.postgres.PostgresDatabase database, String campaign) throws Exception {
    var rates = new java.util.TreeMap<String, long[]>();
    try (var connection = database.dataSource().getConnection();
        var query =
            connection.prepareStatement(
                "SELECT type, count(*), (extract(epoch FROM max(settled_at) - min(settled_at)) * 1000)::bigint"
                    + " FROM reward WHERE campaign_id = ? GROUP BY type")) {
      query.setString(1, campaign);
      try (var rows = query.executeQuery()) {
        while (rows.next()) {
          rates.put(rows.getString(1), new long[] {rows.getLong(2), rows.getLong(3)});
        }
      }
      connection.commit();
    }
    return rates;
  }
}
