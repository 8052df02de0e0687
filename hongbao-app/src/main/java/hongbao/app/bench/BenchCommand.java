package hongbao.app.bench;

import hongbao.app.Config;
import hongbao.app.Hongbao;
import hongbao.http.PacketIds;
import hongbao.redis.RedisKeys;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The load generator of issue #4: runs one scenario against the service (in-process or at a URL),
 * then measures the payout drain, optionally the bare-script ceiling, checks the answers and the
 * reconciler, and writes summary.json, summary.md and a latency picture. Exit code 1 when anything
 * does not add up.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Load the service with a scenario (hot, groups, storm, mixed) and report.")
public final class BenchCommand implements Callable<Integer> {

  static final class Target {
    @Option(names = "--url", description = "a running instance, e.g. http://127.0.0.1:8080")
    String url;

    @Option(names = "--embedded", description = "start the service in-process (embedded backends)")
    boolean embedded;
  }

  @ArgGroup(multiplicity = "1")
  Target target;

  @Option(names = "--scenario", required = true, description = "hot, groups, storm or mixed")
  String scenario;

  @Option(names = "--out", required = true, description = "directory for the results")
  Path out;

  @Option(names = "--shares", defaultValue = "10000", description = "hot/storm packet size")
  int shares;

  @Option(names = "--packets", defaultValue = "2000", description = "groups/mixed packet count")
  int packets;

  @Option(names = "--duplicates", defaultValue = "3", description = "storm: grabs per user")
  int duplicates;

  @Option(names = "--concurrency", defaultValue = "64", description = "requests in flight")
  int concurrency;

  @Option(names = "--rate", defaultValue = "0", description = "open loop at this many req/s")
  double rate;

  @Option(names = "--with-ceiling", description = "also measure the bare grab script")
  boolean withCeiling;

  @Option(names = "--ceiling-requests", defaultValue = "100000")
  int ceilingRequests;

  @Option(names = "--drain-grabs", defaultValue = "20000", description = "0 skips the drain test")
  int drainGrabs;

  @Option(
      names = "--warmup",
      defaultValue = "5000",
      description = "untimed grabs first, so the JIT has compiled the path being measured")
  int warmup;

  @Option(names = "--jwt-secret", description = "sign tokens (else dev tokens with --url)")
  String jwtSecret;

  @Option(names = "--redis-url", description = "with --url: the service's Redis, for memory")
  String redisUrl;

  @Option(names = "--id-alphabet", description = "with --url: the service's Sqids alphabet")
  String idAlphabet = PacketIds.DEFAULT_ALPHABET;

  @Option(names = "--shards", defaultValue = "1024", description = "with --url: HONGBAO_SHARDS")
  int shards;

  @Option(
      names = "--switch-wait-millis",
      description = "how long a switch takes to reach every instance (embedded 1200, else 5500)")
  Integer switchWaitMillis;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    Hongbao service = null;
    String baseUrl = target.url;
    String secret = jwtSecret;
    String redis = redisUrl;
    if (target.embedded) {
      secret = randomSecret();
      service = Hongbao.start(Config.from(embeddedEnvironment(secret)));
      baseUrl = "http://127.0.0.1:" + service.port();
      redis = service.redisUrl();
    }
    try (var client = new BenchClient(baseUrl, concurrency, secret)) {
      Summary summary = new Run(client, redis).execute();
      SummaryWriter.write(out, summary, plot);
      System.out.println(SummaryWriter.markdown(summary));
      return summary.reconciled() ? 0 : 1;
    } finally {
      if (service != null) {
        service.close();
      }
    }
  }

  private String plot = "";

  private java.util.Map<String, String> embeddedEnvironment(String secret) {
    var env = new HashMap<String, String>();
    env.put("HONGBAO_PORT", "0");
    env.put("HONGBAO_JWT_SECRET", secret);
    env.put("HONGBAO_DEV_MODE", "true");
    env.put("HONGBAO_MAX_SHARES", Integer.toString(Math.max(100_000, shares)));
    // The bench's users are few and fast; the per-user limit is not what is measured.
    env.put("HONGBAO_GRABS_PER_USER_PER_SECOND", "1000000");
    env.put("HONGBAO_SHARDS", Integer.toString(shards));
    return env;
  }

  /** One run's steps, in order. */
  private final class Run {
    private final BenchClient client;
    private final String redis;
    private final GrabBook book = new GrabBook();

    Run(BenchClient client, String redis) {
      this.client = client;
      this.redis = redis;
    }

    Summary execute() throws Exception {
      Scenario chosen = Scenario.named(scenario, new BenchOptions(shares, packets, duplicates));
      RedisMemory memory = redis == null ? null : new RedisMemory(redis);
      try {
        if (warmup > 0) {
          grabOnePacket("warmup", warmup);
          PayoutDrain.awaitEmpty(client, System.nanoTime());
        }
        // The warm-up's answers stay in the book (audited too) but are not the scenario's numbers.
        var outcomesBefore = book.outcomes();
        long memoryBefore = memory == null ? 0 : memory.usedBytes();
        List<Supplier<Future<?>>> calls = chosen.prepare(client, book);
        var recorder = new LatencyRecorder();
        var load = new Load(concurrency, rate);
        double elapsed;
        var progress = new Progress(chosen.name(), calls.size(), load::completed, System.out);
        try {
          elapsed = load.run(calls, recorder);
        } finally {
          progress.close();
        }
        var outcomes = new java.util.TreeMap<String, Long>();
        book.outcomes()
            .forEach(
                (name, n) -> {
                  long scenarioOnly = n - outcomesBefore.getOrDefault(name, 0L);
                  if (scenarioOnly > 0) {
                    outcomes.put(name, scenarioOnly);
                  }
                });
        long grabbed = outcomes.getOrDefault("GRABBED", 0L);
        PayoutDrain.awaitEmpty(client, System.nanoTime());
        Double bytesPerGrab =
            memory == null || grabbed == 0
                ? null
                : (memory.usedBytes() - memoryBefore) / (double) grabbed;
        PayoutDrain.Result drain = drainGrabs > 0 ? measureDrain() : null;
        Double ceiling = withCeiling ? measureCeiling() : null;
        PayoutDrain.awaitEmpty(client, System.nanoTime());
        List<String> discrepancies = new ArrayList<>(book.discrepancies());
        JsonObject reconciliation = client.get("/api/v1/admin/reconciliation");
        if (!reconciliation.getBoolean("ok", false)) {
          discrepancies.add("reconciliation: " + reconciliation.encode());
        }
        double grabsPerSec = grabbed / elapsed;
        plot =
            LatencyPlot.svg(
                String.format(
                    java.util.Locale.ROOT,
                    "%s: %d requests, %.0f req/s, concurrency %d%s",
                    chosen.name(),
                    calls.size(),
                    calls.size() / elapsed,
                    concurrency,
                    rate > 0 ? ", open loop at " + (long) rate + "/s" : ", closed loop"),
                recorder.histogram(),
                recorder.perSecond(elapsed));
        return new Summary(
            chosen.name(),
            command(),
            rate > 0 ? "open-loop" : "closed-loop",
            concurrency,
            rate > 0 ? rate : null,
            calls.size(),
            grabbed,
            load.failed(),
            outcomes,
            elapsed,
            calls.size() / elapsed,
            grabsPerSec,
            new Summary.Latency(
                recorder.percentileMillis(50),
                recorder.percentileMillis(90),
                recorder.percentileMillis(99),
                recorder.percentileMillis(99.9),
                recorder.maxMillis()),
            discrepancies.isEmpty(),
            discrepancies,
            ceiling,
            ceiling == null ? null : grabsPerSec / ceiling,
            drain == null ? null : drain.perSecond(),
            drain == null ? null : drain.backlog(),
            drain == null ? null : drain.resumeLagSeconds(),
            bytesPerGrab);
      } finally {
        if (memory != null) {
          memory.close();
        }
      }
    }

    /** Pause payouts, pile up grabs, resume and time the drain. */
    private PayoutDrain.Result measureDrain() throws InterruptedException {
      int wait = switchWaitMillis != null ? switchWaitMillis : target.embedded ? 1_200 : 5_500;
      client.switchPayouts(false);
      try {
        Thread.sleep(wait);
        grabOnePacket("drain", drainGrabs);
      } finally {
        client.switchPayouts(true);
      }
      return PayoutDrain.awaitEmpty(client, System.nanoTime());
    }

    /** One packet of {@code shares} grabbed by as many distinct users, closed loop, untimed. */
    private void grabOnePacket(String users, int shares) throws InterruptedException {
      String packetId = Scenario.sendFunded(client, book, shares);
      var calls = new ArrayList<Supplier<Future<?>>>(shares);
      for (int u = 0; u < shares; u++) {
        String user = users + "-" + u;
        calls.add(Scenario.grab(client, book, packetId, user, client.token(user)));
      }
      new Load(concurrency, 0).run(calls, new LatencyRecorder());
    }

    private Double measureCeiling() throws Exception {
      if (redis == null) {
        System.err.println("bench: --with-ceiling needs --redis-url with --url; skipped");
        return null;
      }
      String packetId = Scenario.sendFunded(client, book, ceilingRequests);
      long numericId = new PacketIds(idAlphabet).decode(packetId);
      return Ceiling.measure(
          redis,
          new RedisKeys(shards),
          numericId,
          ceilingRequests,
          Path.of("scripts", "install-redis-tools.sh"));
    }
  }

  /** The command line as typed, for the reader who wants to run it again. */
  private String command() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    // The parent's parse result starts with the subcommand's own name: drop it.
    int from = !args.isEmpty() && args.get(0).equals("bench") ? 1 : 0;
    return "./hongbao bench " + String.join(" ", args.subList(from, args.size()));
  }

  private static String randomSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
