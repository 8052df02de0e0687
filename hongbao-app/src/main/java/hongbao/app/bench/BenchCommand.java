package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.app.bench.Summary.CeilingResult;
import hongbao.app.bench.Summary.Drain;
import hongbao.app.bench.Summary.Window;
import hongbao.client.Messages.Reconciliation;
import hongbao.http.PacketIds;
import hongbao.redis.RedisKeys;
import io.vertx.core.Future;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The load generator, always in a process of its own: a running service ({@code --url}) or one it
 * starts as a separate process ({@code --embedded}). A run warms the service up until the grab rate
 * stops rising, then measures several closed-loop windows with payouts paused (the service's
 * maximum, and each process's CPU time per grab), times the payout of what they grabbed, and
 * optionally the bare grab script's ceiling, the drain of a large backlog and an open-loop window
 * at a fraction of the maximum, after a warm-up at its own rate. Each measured window starts on a
 * freshly rewritten AOF of the embedded Redis and reports the children Redis forked during it. It
 * checks the answers and the reconciler and writes summary.json, summary.md and latency pictures.
 * Exit code 1 when anything does not add up.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    description =
        "Load the service with a scenario (hot, groups, storm, mixed, rewards, rain) and report.")
public final class BenchCommand implements Callable<Integer> {

  /** The most shares one packet may have in Redis; larger backlogs take several packets. */
  static final int MAX_SHARES_PER_PACKET = hongbao.core.packet.PacketLimits.COUNT_CEILING;

  static final class TargetChoice {
    @Option(names = "--url", description = "a running instance, e.g. http://127.0.0.1:8080")
    String url;

    @Option(
        names = "--embedded",
        description = "start the service as a separate process, on embedded Redis and PostgreSQL")
    boolean embedded;
  }

  @ArgGroup(multiplicity = "1")
  TargetChoice target;

  @Option(
      names = "--scenario",
      defaultValue = "hot",
      description =
          "hot, groups, storm, mixed, rewards (the reward pipeline, see --rewards) or rain (one"
              + " round of a red-packet rain, see --users)")
  String scenario;

  @Option(
      names = "--redis-cluster",
      defaultValue = "0",
      description =
          "--embedded: an embedded Redis Cluster of this many masters instead of one Redis")
  int redisClusterMasters;

  @Option(
      names = "--rewards",
      defaultValue = "20000",
      description = "rewards: how many the SDK sends per window (HTTP sends a quarter as many)")
  int rewards;

  @Option(
      names = "--users",
      defaultValue = "1000000",
      description = "rain: the population the tapping users are drawn from")
  int users;

  @Option(
      names = "--round-seconds",
      defaultValue = "30",
      description = "rain: the round's length (at most 600)")
  int roundSeconds;

  @Option(
      names = "--taps",
      defaultValue = "30000",
      description = "rain: taps in the round, most of them early (at most 1,000,000)")
  int taps;

  @Option(
      names = "--prizes",
      defaultValue = "3000",
      description = "rain: prizes the round holds (at most as many as taps)")
  int prizes;

  @Option(
      names = "--warmup-taps",
      defaultValue = "5000",
      description =
          "rain: taps per warm-up window (closed loop, on a campaign of its own) until the JIT has"
              + " settled; 0 skips the warm-up")
  int warmupTaps;

  @Option(
      names = "--warmup-round-seconds",
      defaultValue = "90",
      description =
          "rain: the warm-up campaign's round; the warm-up stops by its end, and the measured"
              + " round starts once it is over")
  int warmupRoundSeconds;

  @Option(names = "--seed", defaultValue = "1", description = "rain: which users tap, in order")
  long seed;

  @Option(names = "--out", required = true, description = "directory for the results")
  Path out;

  @Option(names = "--shares", defaultValue = "20000", description = "hot/storm packet size")
  int shares;

  @Option(names = "--packets", defaultValue = "1000", description = "groups/mixed packet count")
  int packets;

  @Option(names = "--duplicates", defaultValue = "3", description = "storm: grabs per user")
  int duplicates;

  @Option(names = "--concurrency", defaultValue = "64", description = "requests in flight")
  int concurrency;

  @Option(
      names = "--grab-client",
      defaultValue = "vertx",
      description =
          "grabs through the bench's Vert.x client (vertx) or the typed hongbao-client (typed),"
              + " to compare the generator's CPU per grab")
  String grabClient;

  @Option(
      names = "--runs",
      defaultValue = "5",
      description = "measured windows (each a fresh instance of the scenario); medians reported")
  int runs;

  @Option(
      names = "--warmup-shares",
      defaultValue = "5000",
      description = "grabs per warm-up window; 0 skips the warm-up")
  int warmupShares;

  @Option(
      names = "--warmup-max-seconds",
      defaultValue = "180",
      description =
          "each warm-up (the first, the one after a backlog's drain, the open loop's) stops"
              + " starting windows here even if the rate still rises")
  int warmupMaxSeconds;

  @Option(names = "--with-ceiling", description = "also measure the bare grab script")
  boolean withCeiling;

  @Option(names = "--ceiling-requests", defaultValue = "100000", description = "per ceiling run")
  int ceilingRequests;

  @Option(names = "--ceiling-runs", defaultValue = "3")
  int ceilingRuns;

  @Option(
      names = "--drain-backlog",
      defaultValue = "0",
      description = "time the payout of a backlog this large (grabbed by redis-benchmark); 0 skips")
  int drainBacklog;

  @Option(
      names = "--open-loop-fraction",
      defaultValue = "0",
      description = "an open-loop window at this fraction of the measured maximum (e.g. 0.8)")
  double openLoopFraction;

  @Option(names = "--rate", defaultValue = "0", description = "an open-loop window at this req/s")
  double rate;

  @Option(
      names = "--open-loop-shares",
      defaultValue = "0",
      description = "hot/storm packet size of the open-loop window (default: --shares)")
  int openLoopShares;

  @Option(
      names = "--open-loop-payouts",
      description = "keep payouts running during the open-loop window (default: paused)")
  boolean openLoopPayouts;

  @Option(
      names = "--pin",
      description =
          "SERVICE_CPUS:GENERATOR_CPUS for taskset, e.g. 0:1 (a backlog drain runs the servers on"
              + " both sides)")
  String pin;

  @Option(
      names = "--service-jvm-arg",
      description = "--embedded: an extra JVM flag for the service (a profiler agent, JFR, ...)")
  List<String> serviceJvmArgs = new ArrayList<>();

  @Option(names = "--jwt-secret", description = "sign tokens (else dev tokens with --url)")
  String jwtSecret;

  @Option(names = "--redis-url", description = "with --url: the service's Redis")
  String redisUrl;

  @Option(names = "--jdbc-url", description = "with --url: the service's PostgreSQL (for its pid)")
  String jdbcUrl;

  @Option(names = "--service-pid", description = "with --url: the service's pid (else found)")
  Long servicePid;

  @Option(names = "--postgres-pid", description = "with --url: the postmaster's pid")
  Long postgresPid;

  /**
   * The bare grab script names a packet's Redis keys by its internal number, which only the
   * install's alphabet recovers from the public id; the rest of the bench treats ids as opaque.
   */
  @Option(
      names = "--id-alphabet",
      description =
          "the service's packet id alphabet, for --with-ceiling and --drain-backlog with --url"
              + " (its HONGBAO_ID_ALPHABET, or the one stored for the install); --embedded gives"
              + " its service this one")
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
    if (runs < 1 || concurrency < 1 || shares < 1 || ceilingRuns < 1) {
      throw new IllegalArgumentException("runs, concurrency, shares and ceiling runs must be >= 1");
    }
    if (openLoopShares < 0) {
      throw new IllegalArgumentException("--open-loop-shares must be >= 0 (0: as --shares)");
    }
    if (redisClusterMasters > 0 && (!target.embedded || withCeiling || drainBacklog > 0)) {
      throw new IllegalArgumentException(
          "--redis-cluster goes with --embedded, without --with-ceiling and --drain-backlog");
    }
    Pinning pinning = pin == null ? null : Pinning.parse(pin);
    if (RewardsRun.SCENARIO.equals(scenario)) {
      return rewardsRun(pinning);
    }
    if (RainRun.SCENARIO.equals(scenario)) {
      return rainRun(pinning);
    }
    if (!ProcessCpu.available()) {
      System.err.println("bench: no /proc here; CPU time per grab is not measured");
    }
    try (Target service = target(pinning);
        var client = new BenchClient(service.baseUrl(), concurrency, service.jwtSecret(), clock)) {
      client.grabThrough(BenchClient.GrabPath.parse(grabClient));
      // One line that scripts (a profiler attaching to the service, say) can read.
      System.out.println("bench: pids " + pidsText(service.meter()));
      Summary summary = new Run(client, service, pinning).execute();
      SummaryWriter.write(out, summary, plots);
      System.out.println(SummaryWriter.markdown(summary));
      return summary.reconciled() ? 0 : 1;
    }
  }

  private final Map<String, String> plots = new HashMap<>();

  private int rewardsRun(Pinning pinning) throws Exception {
    if (!target.embedded) {
      throw new IllegalArgumentException("--scenario rewards runs with --embedded");
    }
    var keyset = hongbao.crypto.Sealer.generate();
    var env = embeddedEnvironment(randomSecret());
    env.put("HONGBAO_REWARD_KEYSET", keyset.keysetJson());
    try (Target service =
            Target.embedded(
                env,
                serviceJvmArgs,
                pinning,
                out.resolve("service.log"),
                new Target.Backends(redisClusterMasters, true));
        var client = new BenchClient(service.baseUrl(), concurrency, service.jwtSecret(), clock)) {
      System.out.println("bench: pids " + pidsText(service.meter()));
      var run = new RewardsRun(client, service, keyset, rewards, concurrency, runs, command(), out);
      return run.execute() ? 0 : 1;
    }
  }

  private int rainRun(Pinning pinning) throws Exception {
    if (!target.embedded) {
      throw new IllegalArgumentException("--scenario rain runs with --embedded");
    }
    var env = embeddedEnvironment(randomSecret());
    env.put("HONGBAO_REWARD_KEYSET", hongbao.crypto.Sealer.generate().keysetJson());
    env.put("HONGBAO_REWARD_CONSUME_RATE", "1000000");
    try (Target service =
            Target.embedded(
                env,
                serviceJvmArgs,
                pinning,
                out.resolve("service.log"),
                new Target.Backends(redisClusterMasters, true));
        var client = new BenchClient(service.baseUrl(), concurrency, service.jwtSecret(), clock)) {
      System.out.println("bench: pids " + pidsText(service.meter()));
      var options =
          new RainRun.Options(
              users, roundSeconds, taps, prizes, concurrency, seed, warmupTaps, warmupRoundSeconds);
      return new RainRun(client, service, clock, options, command(), out).execute() ? 0 : 1;
    }
  }

  private Target target(Pinning pinning) throws Exception {
    if (target.embedded) {
      return Target.embedded(
          embeddedEnvironment(randomSecret()),
          serviceJvmArgs,
          pinning,
          out.resolve("service.log"),
          new Target.Backends(redisClusterMasters, false));
    }
    return Target.attach(
        target.url, redisUrl, jdbcUrl, jwtSecret, servicePid, postgresPid, pinning);
  }

  private Map<String, String> embeddedEnvironment(String secret) {
    var env = new HashMap<String, String>();
    env.put("HONGBAO_JWT_SECRET", secret);
    env.put("HONGBAO_DEV_MODE", "true");
    env.put(
        "HONGBAO_MAX_SHARES",
        Integer.toString(Math.max(MAX_SHARES_PER_PACKET, Math.max(shares, openLoopShares))));
    env.put("HONGBAO_SHARDS", Integer.toString(shards));
    // The ceiling decodes the ids this service hands out: it must not shuffle an alphabet of its
    // own.
    env.put("HONGBAO_ID_ALPHABET", idAlphabet);
    return env;
  }

  /** The bench is the root of its own process: the one place it reads the wall clock. */
  private final Clock clock = Clock.systemUTC();

  /** The share of the service's CPU its JIT compiler threads may take in a settled window. */
  static final double JIT_SHARE_SETTLED = 0.05;

  /** One run's steps, in order. */
  private final class Run {
    private final BenchClient client;
    private final Target service;
    private final Pinning pinning;
    private final CpuMeter meter;
    private final GrabBook book = new GrabBook();

    /** Payout tasks waiting, polled while a drain is timed. */
    private LongSupplier backlog;

    private boolean payoutsPaused;

    /** The open-loop warm-up's windows (grabs/s), empty without an open loop. */
    private List<Double> openLoopWarmup = List.of();

    /** The service's Redis, when it is one server the bench can read INFO from. */
    private RedisInfo redis;

    Run(BenchClient client, Target service, Pinning pinning) {
      this.client = client;
      this.service = service;
      this.pinning = pinning;
      this.meter = service.meter();
    }

    Summary execute() throws Exception {
      // Bytes per grab are read from one server's INFO: not measured on a cluster.
      redis =
          service.redisUrl() == null || redisClusterMasters > 0
              ? null
              : new RedisInfo(service.redisUrl());
      StreamBacklog streams =
          redis == null ? null : new StreamBacklog(service.redisUrl(), new RedisKeys(shards));
      backlog = streams != null ? streams : () -> PayoutDrain.backlog(client);
      try {
        List<Double> warmup = warmUp("warm", "warm-up");
        setPayouts(false);
        // Read once the pause has reached the workers: before it, they were still paying (and
        // freeing) the warm-up's last grabs, which made the windows' bytes per grab come out low,
        // even negative.
        long memoryBefore = redis == null ? 0 : redis.usedBytes();
        var windows = new ArrayList<Window>();
        var histogram = new Histogram(3);
        long[] lastPerSecond = new long[0];
        for (int r = 0; r < runs; r++) {
          Scenario chosen = scenario("run" + r);
          var recorder = new LatencyRecorder();
          rewriteAofBefore("run " + (r + 1));
          windows.add(measure(chosen, new Load(concurrency, 0), recorder, "run " + (r + 1)));
          histogram.add(recorder.histogram());
          lastPerSecond = recorder.perSecond(windows.getLast().seconds());
        }
        System.out.println("windows: done");
        Window median = Medians.of(windows);
        plots.put(
            SummaryWriter.PLOT,
            LatencyPlot.svg(
                String.format(
                    java.util.Locale.ROOT,
                    "%s: %d closed-loop windows, median %.0f req/s, concurrency %d",
                    scenario,
                    runs,
                    median.requestsPerSec(),
                    concurrency),
                histogram,
                lastPerSecond));
        long grabbed = windows.stream().mapToLong(Window::grabbed).sum();
        Drain drain = timeDrain();
        Double bytesPerGrab =
            redis == null || grabbed == 0
                ? null
                : (redis.usedBytes() - memoryBefore) / (double) grabbed;
        CeilingResult ceiling = null;
        Drain backlogDrain = null;
        if (withCeiling || drainBacklog > 0) {
          setPayouts(false);
          ceiling = ceiling();
          if (drainBacklog > 0) {
            fillBacklog(drainBacklog - (ceiling == null ? 0 : ceilingRequests * ceilingRuns));
            service.spread(pinning);
            try {
              backlogDrain = timeDrain();
            } finally {
              service.pin(pinning);
            }
          } else {
            setPayouts(true);
            PayoutDrain.awaitEmpty(backlog, System.nanoTime());
          }
        }
        if (backlogDrain != null) {
          // The backlog's drain (with the service spread over every CPU) leaves the JIT
          // recompiling the grab path: 14.5 µs per grab of compiler time in the open-loop window
          // right after it, against 0-3.5 in the closed windows. Settle it again first.
          warmUp("rewarm", "re-warm-up");
        }
        Window openLoop = openLoop(median);
        setPayouts(true);
        PayoutDrain.awaitEmpty(backlog, System.nanoTime());
        List<String> discrepancies = new ArrayList<>(book.discrepancies());
        Reconciliation reconciliation = client.reconcile();
        if (!reconciliation.ok()) {
          discrepancies.add("reconciliation: " + reconciliation.discrepancies());
        }
        return new Summary(
            scenario,
            command(),
            concurrency,
            pinning == null ? null : pinning.serviceCpus() + ":" + pinning.generatorCpus(),
            warmup,
            openLoopWarmup,
            windows,
            median,
            ceiling,
            drain,
            backlogDrain,
            openLoop,
            bytesPerGrab,
            discrepancies.isEmpty(),
            discrepancies);
      } finally {
        if (streams != null) {
          streams.close();
        }
        if (redis != null) {
          redis.close();
        }
        if (payoutsPaused) {
          setPayouts(true);
        }
      }
    }

    private Scenario scenario(String round) {
      return scenario(round, shares);
    }

    private Scenario scenario(String round, int roundShares) {
      return Scenario.named(scenario, new BenchOptions(roundShares, packets, duplicates), round);
    }

    /**
     * Redis's forks so far, or null when there is no Redis to ask. A window waits for a rewrite in
     * progress before it starts ({@link #awaitNoRewrite}), but one may start during it: the forks
     * it saw tell the reader so.
     */
    private Long redisForks() {
      if (redis == null) {
        return null;
      }
      OptionalLong forks = redis.forks();
      return forks.isPresent() ? forks.getAsLong() : null;
    }

    /**
     * Rewrites the embedded Redis's append-only file before a measured window (the window then
     * waits for it, {@link #awaitNoRewrite}), so that none is due inside it unless the window alone
     * doubles the file. The server rewrites its file each time it has doubled (and is 64 MB at
     * least), and the child of a rewrite takes CPU 0 from the service and Redis: the open loop's
     * window of 60,000 grabs caught one, its rate fell from 17,242 to 13,801 req/s within the
     * window and its p99 was 941 ms, against 52-189 ms in the three windows just before it at the
     * same rate. Each window's line says whether Redis forked during it all the same. Only the
     * embedded server: the bench rewrites no one else's files.
     */
    private void rewriteAofBefore(String label) throws InterruptedException {
      if (redis == null || !target.embedded || !awaitNoRewrite(label)) {
        return;
      }
      redis.rewriteAof();
    }

    /** How long a window waits for a Redis rewrite to end before it is measured regardless. */
    static final Duration REWRITE_WAIT_MAX = Duration.ofMinutes(2);

    /**
     * Windows of hot grabs, payouts paused, until the JIT has settled ({@link WarmUpRule}; at most
     * the time limit). The compiler's share is in the rule because on a quiet box, windows right
     * after a warm-up without it alternated between ~80 and ~190 µs of service CPU per grab, and
     * the compiler threads took 23% of the service's CPU over the whole run. After each window the
     * payouts drain, so that their code is compiled along with the grab path's: warmed up with one
     * drain at the end, the first measured window ran ~40% above the next ones. Returns each
     * window's grabs/s.
     *
     * @param round what the windows' users are named after
     * @param label what the windows are called in the output
     */
    private List<Double> warmUp(String round, String label) throws Exception {
      return warmUp(round, label, warmupShares, 0);
    }

    /**
     * {@link #warmUp(String, String)} with windows of {@code windowShares} grabs, in an open loop
     * at {@code rate} (0: closed). The open loop's arrivals, one at a time, take paths the closed
     * loop's bursts do not: right after the closed warm-up, the service's compiler threads took up
     * to 8 µs per grab in the measured open-loop window, against 0-4 in the closed windows.
     */
    private List<Double> warmUp(String round, String label, int windowShares, double rate)
        throws Exception {
      var rates = new ArrayList<Double>();
      if (windowShares <= 0) {
        return rates;
      }
      long deadline = System.nanoTime() + warmupMaxSeconds * 1_000_000_000L;
      var rule = new WarmUpRule();
      for (int w = 0; System.nanoTime() < deadline; w++) {
        setPayouts(false);
        Window window =
            measure(
                new HotScenario(windowShares, round + w),
                new Load(concurrency, rate),
                new LatencyRecorder(),
                label + " " + (w + 1));
        rates.add(Math.round(window.grabsPerSec() * 10) / 10.0);
        double micros =
            meter.measures(Party.SERVICE)
                ? window.cpuMicrosPerGrab().getOrDefault(Party.SERVICE, 0.0)
                : 0;
        boolean settled =
            rule.settledAfter(
                window.grabsPerSec(),
                micros,
                window.cpuMicrosPerGrab().getOrDefault(Party.SERVICE_JIT, 0.0));
        setPayouts(true);
        PayoutDrain.awaitEmpty(backlog, System.nanoTime());
        if (settled) {
          break;
        }
      }
      return rates;
    }

    /** One window: CPU sampled around the load only, so that preparation does not count. */
    private Window measure(Scenario chosen, Load load, LatencyRecorder recorder, String label)
        throws InterruptedException {
      List<Supplier<Future<?>>> calls = chosen.prepare(client, book);
      Map<String, Long> outcomesBefore = book.outcomes();
      awaitNoRewrite(label);
      System.out.println(label + ": started");
      Long forksBefore = redisForks();
      CpuMeter.Sample start = meter.sample();
      double elapsed;
      var progress = new Progress(label, calls.size(), load::completed, System.out);
      try {
        elapsed = load.run(calls, recorder);
      } finally {
        progress.close();
      }
      CpuMeter.Usage usage = meter.sample().since(start);
      Long forksAfter = redisForks();
      var outcomes = new TreeMap<String, Long>();
      book.outcomes()
          .forEach(
              (name, n) -> {
                long windowOnly = n - outcomesBefore.getOrDefault(name, 0L);
                if (windowOnly > 0) {
                  outcomes.put(name, windowOnly);
                }
              });
      long grabbed = outcomes.getOrDefault("GRABBED", 0L);
      var window =
          new Window(
              calls.size(),
              grabbed,
              load.failed(),
              outcomes,
              elapsed,
              calls.size() / elapsed,
              grabbed / elapsed,
              load.ratePerSecond() > 0 ? load.ratePerSecond() : null,
              recorder.latency(),
              usage.microsPer(grabbed),
              usage.cores(),
              usage.switchesPer(grabbed),
              forksBefore == null || forksAfter == null ? null : forksAfter - forksBefore);
      System.out.println(SummaryWriter.windowLine(label, window));
      return window;
    }

    /**
     * Holds a window back while Redis rewrites its AOF. A backlog of 1,000,000 grabs doubles the
     * embedded server's AOF, and the rewrite that follows ran through the next window: its child
     * took CPU 0 from the service and Redis and was charged to Redis when reaped (202 µs per grab
     * in one open-loop window, against 18 in the closed windows before it).
     */
    private boolean awaitNoRewrite(String label) throws InterruptedException {
      if (redis == null) {
        return true;
      }
      long started = System.nanoTime();
      long deadline = started + REWRITE_WAIT_MAX.toNanos();
      while (redis.rewriting()) {
        if (System.nanoTime() > deadline) {
          System.out.println(
              label + ": Redis still rewriting after " + REWRITE_WAIT_MAX + "; measured anyway");
          return false;
        }
        Thread.sleep(100);
      }
      double waited = (System.nanoTime() - started) / 1e9;
      if (waited >= 0.1) {
        System.out.printf(
            java.util.Locale.ROOT, "%s: waited %.1f s for Redis's AOF rewrite%n", label, waited);
      }
      return true;
    }

    /** Resumes payouts and times the drain of the backlog, with each party's CPU meanwhile. */
    private Drain timeDrain() throws InterruptedException {
      CpuMeter.Sample start = meter.sample();
      long resumed = System.nanoTime();
      setPayouts(true);
      PayoutDrain.Result result = PayoutDrain.awaitEmpty(backlog, resumed);
      CpuMeter.Usage usage = meter.sample().since(start);
      var drain =
          new Drain(
              result.backlog(),
              result.drainSeconds(),
              result.resumeLagSeconds(),
              usage.microsPer(result.backlog()));
      System.out.println(SummaryWriter.drainLine(drain));
      return drain;
    }

    /** The bare grab script, {@code ceilingRuns} times on fresh packets; payouts are paused. */
    private CeilingResult ceiling() throws Exception {
      if (!withCeiling) {
        return null;
      }
      if (service.redisUrl() == null) {
        System.err.println("bench: --with-ceiling needs --redis-url with --url; skipped");
        return null;
      }
      var rates = new ArrayList<Double>();
      var redisMicros = new ArrayList<Double>();
      for (int c = 0; c < ceilingRuns; c++) {
        CpuMeter.Sample start = meter.sample();
        rates.add(grabByScript(ceilingRequests));
        CpuMeter.Usage usage = meter.sample().since(start);
        Double micros = usage.microsPer(ceilingRequests).get(Party.REDIS);
        if (micros != null) {
          redisMicros.add(micros);
        }
        System.out.printf(
            java.util.Locale.ROOT,
            "ceiling %d: %.0f grabs/s, Redis %s µs per call%n",
            c + 1,
            rates.getLast(),
            micros == null ? "-" : String.format(java.util.Locale.ROOT, "%.1f", micros));
      }
      return new CeilingResult(rates, Medians.median(rates), redisMicros);
    }

    /** Piles up {@code grabs} payout tasks with the bare grab script, in packets of 100,000. */
    private void fillBacklog(long grabs) throws Exception {
      if (service.redisUrl() == null) {
        throw new IllegalStateException("--drain-backlog needs the service's Redis (--redis-url)");
      }
      for (long left = grabs; left > 0; left -= MAX_SHARES_PER_PACKET) {
        grabByScript((int) Math.min(left, MAX_SHARES_PER_PACKET));
      }
    }

    /** redis-benchmark on a fresh funded packet of exactly {@code calls} shares; grabs/s. */
    private double grabByScript(int calls) throws Exception {
      String packetId = Scenario.sendFunded(client, book, calls);
      var keys = new RedisKeys(shards);
      long numericId;
      try (var redis = new RedisInfo(service.redisUrl())) {
        numericId = Ceiling.packetNumber(packetId, new PacketIds(idAlphabet), keys, redis);
      }
      return Ceiling.measure(
          service.redisUrl(),
          keys,
          numericId,
          calls,
          pinning == null ? List.of() : pinning.generatorCommandPrefix(),
          Path.of("scripts", "install-redis-tools.sh"),
          clock.instant());
    }

    private Window openLoop(Window max) throws Exception {
      double openRate = rate > 0 ? rate : openLoopFraction * max.requestsPerSec();
      if (openRate <= 0) {
        return null;
      }
      if (warmupShares > 0) {
        // Windows of about 1.5 s of arrivals (the closed windows' length on this box), at most
        // --shares: long enough for the compiler's share to be read, short at a low --rate.
        int windowShares = (int) Math.min(shares, Math.max(100, openRate * 1.5));
        openLoopWarmup = warmUp("openwarm", "open-loop warm-up", windowShares, openRate);
      }
      setPayouts(openLoopPayouts);
      String label = String.format(java.util.Locale.ROOT, "open loop at %.0f req/s", openRate);
      rewriteAofBefore(label);
      var recorder = new LatencyRecorder();
      // Its own size: a p99 needs a window long enough that one quiet or one busy second of a
      // shared host does not decide it, and at 80% of the maximum --shares lasts about a second.
      Window window =
          measure(
              scenario("open", openLoopShares > 0 ? openLoopShares : shares),
              new Load(concurrency, openRate),
              recorder,
              label);
      plots.put(
          SummaryWriter.OPEN_LOOP_PLOT,
          LatencyPlot.svg(
              String.format(
                  java.util.Locale.ROOT,
                  "%s: open loop at %.0f req/s (payouts %s), concurrency %d",
                  scenario,
                  openRate,
                  openLoopPayouts ? "running" : "paused",
                  concurrency),
              recorder.histogram(),
              recorder.perSecond(window.seconds())));
      return window;
    }

    private void setPayouts(boolean enabled) throws InterruptedException {
      if (payoutsPaused == !enabled) {
        return;
      }
      client.switchPayouts(enabled);
      payoutsPaused = !enabled;
      if (!enabled) {
        // Let the pause reach every worker before anything is measured.
        Thread.sleep(switchWaitMillis != null ? switchWaitMillis : target.embedded ? 1_200 : 5_500);
      }
    }
  }

  /** The command line as typed, for the reader who wants to run it again. */
  private String command() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    // The parent's parse result starts with the subcommand's own name: drop it.
    int from = !args.isEmpty() && args.get(0).equals("bench") ? 1 : 0;
    return "./hongbao bench " + String.join(" ", args.subList(from, args.size()));
  }

  private static String pidsText(CpuMeter meter) {
    var text = new StringBuilder();
    meter
        .pids()
        .forEach(
            (party, pids) ->
                text.append(text.isEmpty() ? "" : " ")
                    .append(party.key())
                    .append('=')
                    .append(pids.isEmpty() ? "-" : pids.getFirst()));
    return text.toString();
  }

  private static String randomSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
