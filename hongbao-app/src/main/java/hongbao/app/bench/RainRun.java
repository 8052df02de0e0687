package hongbao.app.bench;

import hongbao.app.bench.CpuMeter.Party;
import hongbao.client.Messages.Reconciliation;
import hongbao.client.Messages.RewardType;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;

/**
 * {@code bench --scenario rain}: one round of a red-packet rain. A campaign is created whose single
 * round starts a few seconds ahead; when it starts, taps arrive open-loop on an exponentially
 * decaying curve (rate ∝ e^(−t/τ), τ a quarter of the round: 64% of the taps in the first quarter,
 * 98% before the end), each from a user drawn (seeded) from {@code users}; latency is measured from
 * each tap's due time (coordinated omission corrected). After the round it times how long the
 * reward pipeline takes to credit every win, waits for the unspent budget to go back, and checks
 * the figures: wins ≤ prizes held, held − left = wins, spent = the CASH won ≤ budget, spent +
 * returned = budget, reconciler clean.
 *
 * <p>First a warm-up, so that the round measures the service as it runs for hours, not a JVM that
 * is still compiling: a campaign of its own whose round lasts {@code warmupRoundSeconds}, tapped
 * closed-loop in windows of {@code warmupTaps} by fresh users, until the service's CPU per tap and
 * the tap rate are flat and its compiler threads take at most {@value
 * BenchCommand#JIT_SHARE_SETTLED} of its CPU (the rule of the grab scenarios' warm-up). That
 * campaign's round then runs out, its wins are credited and its budget returned before the measured
 * round starts.
 */
final class RainRun {

  static final String SCENARIO = "rain";
  static final String JSON = "summary.json";
  static final String MARKDOWN = "summary.md";

  /** Put a limit on everything: the taps of one round are held in memory with their tokens. */
  static final int MAX_TAPS = 1_000_000;

  /** And on time: a round longer than this is not a rain (real ones last a few minutes). */
  static final int MAX_ROUND_SECONDS = 600;

  /** A round starts this long after its campaign is created: time for the answer and a margin. */
  private static final Duration LEAD = Duration.ofSeconds(3);

  private static final Duration CREDIT_PATIENCE = Duration.ofMinutes(5);

  /**
   * The closer returns the budget {@code RETURN_GRACE} (30 s) after the round, on its next sweep.
   */
  private static final Duration RETURN_PATIENCE = Duration.ofSeconds(60);

  private static final long SMALL_CASH = 88;
  private static final long BIG_CASH = 8_800;
  private static final String COUPON = "BENCH_RAIN_COUPON";

  /**
   * @param warmupTaps taps per warm-up window; 0 skips the warm-up
   * @param warmupRoundSeconds the warm-up campaign's round: the longest the warm-up may take
   */
  record Options(
      int users,
      int roundSeconds,
      int taps,
      int prizes,
      int concurrency,
      long seed,
      int warmupTaps,
      int warmupRoundSeconds) {}

  private final BenchClient client;
  private final Target service;
  private final Clock clock;
  private final Options options;
  private final String command;
  private final Path out;

  RainRun(
      BenchClient client, Target service, Clock clock, Options options, String command, Path out) {
    if (options.taps() < 1 || options.taps() > MAX_TAPS) {
      throw new IllegalArgumentException("--taps must be 1.." + MAX_TAPS);
    }
    if (options.users() < 1 || options.prizes() < 1) {
      throw new IllegalArgumentException("--users and --prizes must be >= 1");
    }
    if (options.roundSeconds() < 1 || options.roundSeconds() > MAX_ROUND_SECONDS) {
      throw new IllegalArgumentException("--round-seconds must be 1.." + MAX_ROUND_SECONDS);
    }
    if (options.warmupTaps() < 0 || options.warmupTaps() > MAX_TAPS) {
      throw new IllegalArgumentException("--warmup-taps must be 0.." + MAX_TAPS);
    }
    if (options.warmupRoundSeconds() < 5 || options.warmupRoundSeconds() > MAX_ROUND_SECONDS) {
      throw new IllegalArgumentException("--warmup-round-seconds must be 5.." + MAX_ROUND_SECONDS);
    }
    this.client = client;
    this.service = service;
    this.clock = clock;
    this.options = options;
    this.command = command;
    this.out = out;
  }

  /** Runs the round(s); true when every figure adds up. */
  boolean execute() throws Exception {
    prepareTypes();
    WarmUp warmUp = warmUp();
    JsonObject summary = round("round", options.taps(), options.roundSeconds(), options.seed());
    summary.put("warmUpWindows", warmUp.windows()).put("warmUpSettled", warmUp.settled());
    String report = markdown(summary);
    System.out.println(report);
    Files.createDirectories(out);
    Files.writeString(out.resolve(JSON), summary.encodePrettily());
    Files.writeString(out.resolve(MARKDOWN), report);
    return summary.getJsonArray("discrepancies").isEmpty();
  }

  /** Prize types high enough that they do not bound the run: what is measured is the code. */
  private void prepareTypes() {
    client
        .admin()
        .putRewardType(new RewardType("CASH", "CASH", 1_000_000, 100_000L, null, "MASSIVE", null));
    client
        .admin()
        .putRewardType(new RewardType(COUPON, "COUPON", 100_000, 10_000L, null, "MASSIVE", null));
  }

  /**
   * The warm-up windows (see the class comment); each window's taps/s, service CPU µs per tap and
   * the compiler threads' part of it. Empty when skipped.
   */
  private WarmUp warmUp() throws Exception {
    var windows = new JsonArray();
    if (options.warmupTaps() == 0) {
      return new WarmUp(windows, false);
    }
    int seconds = options.warmupRoundSeconds();
    // About one tap in ten wins in a window, as in the measured round by default.
    int prizes = Math.max(3, seconds * 300);
    Campaign campaign = create("warm-up", prizes, seconds);
    Map<String, Long> issuedBefore = RewardsRun.issued(client);
    var outcomes = new ConcurrentHashMap<String, AtomicLong>();
    var cashWon = new AtomicLong();
    sleepUntil(campaign.startsAt().plusMillis(50));
    Instant lastStart = campaign.startsAt().plusSeconds(seconds).minusSeconds(5);
    var rule = new WarmUpRule();
    boolean settled = false;
    for (int w = 0; clock.instant().isBefore(lastStart); w++) {
      var calls = new ArrayList<Supplier<Future<?>>>(options.warmupTaps());
      for (int i = 0; i < options.warmupTaps(); i++) {
        String token = client.token("rain-w" + w + "-" + i);
        calls.add(() -> tap(campaign.id(), token, outcomes, cashWon));
      }
      var load = new Load(options.concurrency(), 0);
      CpuMeter.Sample cpuStart = service.meter().sample();
      double elapsed = load.run(calls, new LatencyRecorder());
      Map<Party, Double> micros =
          service.meter().sample().since(cpuStart).microsPer(options.warmupTaps());
      double rate = options.warmupTaps() / elapsed;
      double serviceMicros = micros.getOrDefault(Party.SERVICE, 0.0);
      double compiling = micros.getOrDefault(Party.SERVICE_JIT, 0.0);
      windows.add(
          JsonObject.of(
              "tapsPerSec",
              round1(rate),
              "serviceMicrosPerTap",
              round1(serviceMicros),
              "serviceJitMicrosPerTap",
              round1(compiling)));
      System.out.printf(
          Locale.ROOT,
          "warm-up %d: %.0f taps/s, service %.1f µs per tap (compiler %.1f)%n",
          w + 1,
          rate,
          serviceMicros,
          compiling);
      if (rule.settledAfter(rate, serviceMicros, compiling)) {
        settled = true;
        break;
      }
    }
    // The warm-up's own round runs out; its wins and its return must not fall into the round.
    sleepUntil(campaign.startsAt().plusSeconds(seconds));
    long won = outcomes.getOrDefault("WON", new AtomicLong()).get();
    awaitCredited(issuedBefore, won, System.nanoTime());
    JsonObject state = awaitReturned(campaign.id());
    if (state.getValue("returned") == null) {
      throw new IllegalStateException("the warm-up campaign's budget did not go back");
    }
    System.out.printf(
        Locale.ROOT,
        "warm-up: %s after %d windows, %s%n",
        settled ? "settled" : "not settled by the end of its round",
        windows.size(),
        counts(outcomes));
    return new WarmUp(windows, settled);
  }

  /** The warm-up's windows, and whether they settled before its round ran out. */
  private record WarmUp(JsonArray windows, boolean settled) {}

  /** A campaign created for one round of the bench: its id, budget and when its round starts. */
  private record Campaign(String id, long budget, Instant startsAt) {}

  /** A campaign with one round of {@code prizes} starting {@link #LEAD} from now. */
  private Campaign create(String label, int prizes, int seconds) {
    // Prize lines: 1% big CASH, 79% small CASH, 20% coupons (which cost no budget).
    long big = Math.max(1, prizes / 100);
    long coupons = Math.max(1, prizes / 5);
    long small = prizes - big - coupons;
    long cashHeld = big * BIG_CASH + small * SMALL_CASH;
    long budget = cashHeld + cashHeld / 10;
    Instant startsAt =
        clock.instant().plus(LEAD).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    var body =
        JsonObject.of(
            "name",
            "bench " + label,
            "budget",
            budget,
            "rounds",
            JsonArray.of(
                JsonObject.of(
                    "startsAt",
                    startsAt.toString(),
                    "durationSeconds",
                    seconds,
                    "prizes",
                    JsonArray.of(
                        JsonObject.of("type", "CASH", "amount", BIG_CASH, "count", big),
                        JsonObject.of("type", "CASH", "amount", SMALL_CASH, "count", small),
                        JsonObject.of("type", COUPON, "amount", 1, "count", coupons)))),
            "maxWinsPerUser",
            3,
            "tapsPerUserPerSecond",
            10);
    JsonObject created =
        client
            .call(
                HttpMethod.POST,
                "/api/v1/admin/campaigns",
                client.adminToken(),
                "bench-" + label + "-" + options.seed() + "-" + startsAt.getEpochSecond(),
                body)
            .await();
    if (created.getInteger("_status", 0) != 201) {
      throw new IllegalStateException("campaign refused: " + created.encode());
    }
    return new Campaign(created.getString("id"), budget, startsAt);
  }

  private Future<?> tap(
      String campaignId, String token, Map<String, AtomicLong> outcomes, AtomicLong cashWon) {
    return client
        .call(
            HttpMethod.POST,
            "/api/v1/campaigns/" + campaignId + "/taps",
            token,
            null,
            new JsonObject())
        .onSuccess(answer -> count(outcomes, cashWon, answer))
        .onFailure(
            e -> outcomes.computeIfAbsent("FAILED", k -> new AtomicLong()).incrementAndGet());
  }

  private void sleepUntil(Instant instant) throws InterruptedException {
    long waitMillis = Duration.between(clock.instant(), instant).toMillis();
    if (waitMillis > 0) {
      Thread.sleep(waitMillis);
    }
  }

  private static TreeMap<String, Long> counts(Map<String, AtomicLong> outcomes) {
    var counted = new TreeMap<String, Long>();
    outcomes.forEach((name, n) -> counted.put(name, n.get()));
    return counted;
  }

  private JsonObject round(String label, int taps, int seconds, long seed) throws Exception {
    int prizes = Math.max(3, Math.min(options.prizes(), taps));

    // Users and their tokens before anything is timed: signing is the generator's preparation.
    var random = new SplittableRandom(seed);
    var tokens = new java.util.HashMap<Integer, String>();
    int[] userOfTap = new int[taps];
    for (int i = 0; i < taps; i++) {
      userOfTap[i] = random.nextInt(options.users());
      tokens.computeIfAbsent(userOfTap[i], u -> client.token("rain-" + label.charAt(0) + u));
    }
    System.out.printf(
        Locale.ROOT, "%s: %d taps from %d distinct users%n", label, taps, tokens.size());
    Map<String, Long> issuedBefore = RewardsRun.issued(client);

    Campaign campaign = create(label, prizes, seconds);
    String id = campaign.id();
    long budget = campaign.budget();
    Instant startsAt = campaign.startsAt();

    var outcomes = new ConcurrentHashMap<String, AtomicLong>();
    var cashWon = new AtomicLong();
    var calls = new ArrayList<Supplier<Future<?>>>(taps);
    for (int i = 0; i < taps; i++) {
      String token = tokens.get(userOfTap[i]);
      calls.add(() -> tap(id, token, outcomes, cashWon));
    }
    // A little after the start and before the end, so that the clocks' jitter does not turn taps
    // into NOT_STARTED or ENDED.
    long marginNanos = 50_000_000L;
    long spanNanos = Math.max(1, seconds * 1_000_000_000L - 2 * marginNanos);
    var load = new Load(options.concurrency(), arrivals(taps, spanNanos), taps / (double) seconds);
    long waitNanos = Duration.between(clock.instant(), startsAt).toNanos() + marginNanos;
    if (waitNanos > 0) {
      Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
    }

    System.out.println(label + ": round started");
    var recorder = new LatencyRecorder();
    CpuMeter.Sample cpuStart = service.meter().sample();
    double elapsed;
    var progress = new Progress(label, taps, load::completed, System.out);
    try {
      elapsed = load.run(calls, recorder);
    } finally {
      progress.close();
    }
    CpuMeter.Usage usage = service.meter().sample().since(cpuStart);
    long roundEnded = System.nanoTime();

    TreeMap<String, Long> counted = counts(outcomes);
    long won = counted.getOrDefault("WON", 0L);
    double catchUpSeconds = awaitCredited(issuedBefore, won, roundEnded);
    JsonObject after = awaitReturned(id);
    Reconciliation reconciliation = client.reconcile();

    JsonObject roundState = after.getJsonArray("rounds").getJsonObject(0);
    long left = roundState.getLong("prizesLeft");
    long spent = after.getLong("spent");
    Long returned = after.getLong("returned");
    var discrepancies = new ArrayList<String>();
    check(discrepancies, won <= prizes, "won %d > prizes %d", won, prizes);
    check(discrepancies, prizes - left == won, "held %d − left %d ≠ won %d", prizes, left, won);
    check(discrepancies, spent <= budget, "spent %d > budget %d", spent, budget);
    check(discrepancies, spent == cashWon.get(), "spent %d ≠ CASH won %d", spent, cashWon.get());
    check(
        discrepancies,
        returned != null && spent + returned == budget,
        "spent %d + returned %s ≠ budget %d",
        spent,
        returned,
        budget);
    check(discrepancies, !counted.containsKey("FAILED"), "%s taps failed", counted.get("FAILED"));
    check(discrepancies, reconciliation.ok(), "reconciliation: %s", reconciliation.discrepancies());

    double peak = 0;
    for (long n : recorder.perSecond(elapsed)) {
      peak = Math.max(peak, n);
    }
    Summary.Latency latency = recorder.latency();
    var cpu = new JsonObject();
    usage.microsPer(taps).forEach((party, micros) -> cpu.put(party.key(), round1(micros)));
    var summary =
        JsonObject.of(
                "scenario",
                SCENARIO,
                "command",
                command,
                "campaignId",
                id,
                "users",
                options.users(),
                "distinctUsers",
                tokens.size(),
                "roundSeconds",
                seconds,
                "taps",
                taps,
                "elapsedSeconds",
                round1(elapsed),
                "tapsPerSec",
                round1(taps / elapsed),
                "peakTapsPerSec",
                peak)
            .put(
                "latencyMillis",
                JsonObject.of(
                    "p50",
                    latency.p50(),
                    "p90",
                    latency.p90(),
                    "p99",
                    latency.p99(),
                    "p999",
                    latency.p999(),
                    "max",
                    latency.max()))
            .put("outcomes", new JsonObject(new TreeMap<String, Object>(counted)))
            .put("prizesHeld", prizes)
            .put("prizesIssued", won)
            .put("prizesLeft", left)
            .put("budget", budget)
            .put("spent", spent)
            .put("returned", returned)
            .put("creditCatchUpSeconds", round1(catchUpSeconds))
            .put("cpuMicrosPerTap", cpu)
            .put("reconciled", reconciliation.ok())
            .put("discrepancies", new JsonArray(discrepancies));
    System.out.printf(
        Locale.ROOT,
        "%s: %d taps in %.1f s (%.0f/s, peak %.0f/s), p50 %.2f ms, p99 %.2f ms, %s%n",
        label,
        taps,
        elapsed,
        taps / elapsed,
        peak,
        latency.p50(),
        latency.p99(),
        counted);
    return summary;
  }

  /**
   * Tap i's due time (ns after the round's start) when the rate decays as e^(−t/τ), τ a quarter of
   * the span: the inverse of the arrivals' distribution function at (i + ½)/taps, so the schedule
   * is deterministic, non-decreasing and ends within the span.
   */
  static IntToLongFunction arrivals(int taps, long spanNanos) {
    double tau = spanNanos / 4.0;
    double mass = 1 - Math.exp(-spanNanos / tau);
    return i -> (long) (-tau * Math.log(1 - mass * (i + 0.5) / taps));
  }

  private static void count(
      Map<String, AtomicLong> outcomes, AtomicLong cashWon, JsonObject answer) {
    int status = answer.getInteger("_status", 0);
    String name =
        status == 200
            ? answer.getString("outcome", "NONE")
            : status == 429 ? "RATE_LIMITED" : "HTTP_" + status;
    if ("WON".equals(name)) {
      JsonObject reward = answer.getJsonObject("reward");
      if ("CASH".equals(reward.getString("type"))) {
        cashWon.addAndGet(reward.getLong("amount"));
      }
    }
    outcomes.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
  }

  /** Seconds from the last tap's answer until the pipeline has credited every win. */
  private double awaitCredited(Map<String, Long> before, long wins, long roundEnded)
      throws InterruptedException {
    long deadline = roundEnded + CREDIT_PATIENCE.toNanos();
    while (true) {
      long credited = 0;
      for (var entry : RewardsRun.issued(client).entrySet()) {
        credited += entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
      }
      if (credited >= wins) {
        return (System.nanoTime() - roundEnded) / 1e9;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "only " + credited + " of " + wins + " wins credited after " + CREDIT_PATIENCE);
      }
      Thread.sleep(20);
    }
  }

  /** The campaign once its unspent budget went back (or as it stands after the patience). */
  private JsonObject awaitReturned(String id) throws InterruptedException {
    long deadline = System.nanoTime() + RETURN_PATIENCE.toNanos();
    while (true) {
      JsonObject campaign = client.get("/api/v1/campaigns/" + id);
      if (campaign.getValue("returned") != null || System.nanoTime() > deadline) {
        return campaign;
      }
      Thread.sleep(250);
    }
  }

  private static void check(List<String> found, boolean holds, String format, Object... args) {
    if (!holds) {
      found.add(String.format(Locale.ROOT, format, args));
    }
  }

  private static double round1(double value) {
    return Math.round(value * 10) / 10.0;
  }

  private String markdown(JsonObject s) {
    var text = new StringBuilder();
    text.append("```\n").append(command).append("\n```\n\n");
    JsonObject latency = s.getJsonObject("latencyMillis");
    text.append("| measure | value |\n| --- | --- |\n");
    row(
        text,
        "round (s) / taps / distinct users of",
        s.getValue("roundSeconds")
            + " / "
            + s.getValue("taps")
            + " / "
            + s.getValue("distinctUsers")
            + " of "
            + s.getValue("users"));
    JsonArray warmUp = s.getJsonArray("warmUpWindows", new JsonArray());
    if (!warmUp.isEmpty()) {
      var windows = new StringBuilder();
      for (int i = 0; i < warmUp.size(); i++) {
        JsonObject w = warmUp.getJsonObject(i);
        windows
            .append(i == 0 ? "" : ", ")
            .append(Math.round(w.getDouble("tapsPerSec")))
            .append(" (")
            .append(w.getValue("serviceMicrosPerTap"))
            .append(" µs)");
      }
      row(
          text,
          "warm-up windows: taps/s (service CPU per tap)"
              + (s.getBoolean("warmUpSettled", false) ? ", settled" : ", not settled"),
          windows);
    }
    row(
        text,
        "taps/s (average / peak second)",
        s.getValue("tapsPerSec") + " / " + s.getValue("peakTapsPerSec"));
    row(
        text,
        "tap latency p50 / p99 / max (ms, from due time)",
        latency.getValue("p50")
            + " / "
            + latency.getValue("p99")
            + " / "
            + latency.getValue("max"));
    row(text, "outcomes", s.getJsonObject("outcomes").encode());
    row(
        text,
        "prizes issued / held / left",
        s.getValue("prizesIssued")
            + " / "
            + s.getValue("prizesHeld")
            + " / "
            + s.getValue("prizesLeft"));
    row(
        text,
        "budget / spent / returned (fen)",
        s.getValue("budget") + " / " + s.getValue("spent") + " / " + s.getValue("returned"));
    row(text, "crediting caught up (s after the last answer)", s.getValue("creditCatchUpSeconds"));
    for (Party party : Party.values()) {
      Object micros = s.getJsonObject("cpuMicrosPerTap").getValue(party.key());
      if (micros != null) {
        row(text, "CPU µs per tap: " + party.key(), micros);
      }
    }
    row(
        text,
        "checks",
        s.getJsonArray("discrepancies").isEmpty()
            ? "all hold, reconciliation clean"
            : s.getJsonArray("discrepancies").encode());
    return text.toString();
  }

  private static void row(StringBuilder text, String name, Object value) {
    text.append("| ").append(name).append(" | ").append(value).append(" |\n");
  }
}
