package hongbao.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.Parts;
import hongbao.app.embedded.FreePorts;
import hongbao.app.support.Api;
import hongbao.app.support.Api.Response;
import hongbao.app.support.Backends;
import hongbao.app.support.TestService;
import hongbao.core.ledger.EntryKind;
import hongbao.core.money.Amount;
import hongbao.http.PacketIds;
import hongbao.http.auth.Tokens;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import hongbao.redis.payout.RedisPayoutQueue;
import hongbao.testkit.FreezableProxy;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.models.stream.PendingMessages;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two instances on one Redis Cluster and one PostgreSQL, each with payout workers, reclaimer,
 * sweeper, re-armer and store repair: the survivor in this JVM, the victim a separate {@code
 * hongbao serve} process that joins while the survivor is under load. Grabs go to both; a switch
 * set on one reaches the other; then the victim's route to PostgreSQL goes silent, so that its
 * payout consumers are sure to hold tasks they cannot pay, and it is killed with SIGKILL. The
 * survivor takes the dead consumers' tasks over and pays them, sweeps and refunds the packets that
 * expire afterwards, and every grab answered GRABBED is paid once, every packet refunded once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoInstancesTest {

  private static final int PACKETS = 3;
  private static final int SHARES = 200;
  private static final long AMOUNT = 20_000;
  private static final int GRABBERS = 6;
  private static final int GRABS_PER_GRABBER = 70;
  private static final long EXPIRES_IN_SECONDS = 12;
  private static final Duration SWITCH_REACH = Duration.ofSeconds(5);

  private final String secret = UUID.randomUUID() + "-" + UUID.randomUUID();
  private final Tokens tokens = new Tokens(secret, Clock.systemUTC());
  private final Backends backends = Backends.embeddedCluster();
  private TestService survivor;
  private RedisLink redis;
  private Process victim;
  private FreezableProxy victimDatabase;
  private Path victimLog;

  @BeforeAll
  void start() throws IOException {
    survivor =
        TestService.start(
            backends, Map.of("HONGBAO_JWT_SECRET", secret, "HONGBAO_INSTANCE", "survivor"), true);
    redis = RedisLink.open(backends.redisUrl());
    URI jdbc = URI.create(backends.jdbcUrl().substring("jdbc:".length()));
    victimDatabase = FreezableProxy.to(jdbc.getHost(), jdbc.getPort());
    victimLog = Files.createTempFile("hongbao-victim-", ".log");
  }

  @AfterAll
  void stop() throws IOException {
    if (victim != null) {
      victim.destroyForcibly();
    }
    victimDatabase.close();
    redis.close();
    survivor.close();
    Files.deleteIfExists(victimLog);
  }

  private String token(String user) {
    return tokens.mint(user, false, Duration.ofHours(1));
  }

  private String admin() {
    return tokens.mint("ops", true, Duration.ofHours(1));
  }

  @Test
  void instanceKilledMidRun_theOtherPaysItsTasksAndSweeps_nothingLostNothingTwice()
      throws Exception {
    Api here = survivor.api();
    String sender = "two-" + UUID.randomUUID().toString().substring(0, 8);
    assertThat(here.topUp(sender, PACKETS * AMOUNT + 5_000).status()).isEqualTo(200);

    // The victim joins while the survivor serves grabs.
    String warmup = here.sendLucky(token(sender), 5_000, 500, 600);
    var joining = new AtomicBoolean(true);
    Map<String, Long> grabbed = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(GRABBERS);
    Future<?> background = pool.submit(() -> grabWhile(here, warmup, "warm", joining, grabbed));
    int victimPort = FreePorts.find();
    victim = startVictim(victimPort);
    Api there = new Api(victimPort);
    awaitHealthy(there);
    joining.set(false);
    background.get(60, TimeUnit.SECONDS);

    // A switch set on one instance reaches the other.
    switchReaches(there, here, false);
    switchReaches(here, there, true);

    var packets = new ArrayList<String>();
    for (int i = 0; i < PACKETS; i++) {
      packets.add(here.sendLucky(token(sender), AMOUNT, SHARES, EXPIRES_IN_SECONDS));
    }
    // The victim's route to PostgreSQL goes silent before the grabs begin: its payout consumers
    // then hold every batch they poll (a batch is kept through an outage) while the grabs make
    // tasks. Silenced only once the grabs were done, it held nothing on a fast box with a warm
    // JVM: the grabs had finished and the survivor had paid them all.
    victimDatabase.freeze();
    var victimServing = new AtomicBoolean(true);
    var unanswered = new AtomicInteger();
    List<Response> failures = new CopyOnWriteArrayList<>();
    var futures = new ArrayList<Future<?>>();
    for (int g = 0; g < GRABBERS; g++) {
      int grabber = g;
      futures.add(
          pool.submit(
              () -> {
                for (int i = 0; i < GRABS_PER_GRABBER; i++) {
                  String packet = packets.get((grabber + i) % packets.size());
                  String user = "tw-" + grabber + "-" + i;
                  Api api = (i % 2 == 0 && victimServing.get()) ? there : here;
                  try {
                    record(api.grab(token(user), packet), packet + "/" + user, grabbed, failures);
                  } catch (UncheckedIOException killedMidRequest) {
                    unanswered.incrementAndGet();
                  }
                }
                return null;
              }));
    }

    Thread.sleep(500); // both instances grab for a while; the victim's consumers hold tasks
    victimServing.set(false);
    long heldAtDeath = killWhileHoldingTasks();
    for (Future<?> future : futures) {
      future.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();

    assertThat(heldAtDeath).as("tasks the victim held when it was killed").isPositive();
    assertThat(failures).as("answers other than GRABBED or SOLD_OUT").isEmpty();
    Parts parts = survivor.hongbao().parts();
    var ids = new PacketIds(PacketIds.DEFAULT_ALPHABET);
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(250))
        .until(
            () ->
                heldBy("victim-") == 0
                    && parts.queue().backlog() == 0
                    && packets.stream().allMatch(p -> refunded(here, p)));

    Map<String, Long> paid = new HashMap<>();
    for (String packet : packetsAnd(packets, warmup)) {
      for (Map.Entry<String, Amount> grab :
          parts.database().packets().paidGrabs(ids.decode(packet)).entrySet()) {
        paid.put(packet + "/" + grab.getKey(), grab.getValue().fen());
      }
    }
    assertThat(paid).containsAllEntriesOf(grabbed);
    assertThat(paid.size()).isBetween(grabbed.size(), grabbed.size() + unanswered.get());
    long refunds =
        parts.database().ledger().wallet(sender, 500).entries().stream()
            .filter(entry -> entry.kind() == EntryKind.REFUND)
            .count();
    assertThat(refunds).as("refunds of the expired packets").isEqualTo(PACKETS);
    for (String packet : packets) {
      JsonObject details = here.get("/api/v1/packets/" + packet, token(sender)).json();
      assertThat(details.getLong("grabbedAmount") + details.getLong("refundedAmount"))
          .isEqualTo(AMOUNT);
    }
    survivor.assertReconciled();
  }

  private static List<String> packetsAnd(List<String> packets, String another) {
    var all = new ArrayList<>(packets);
    all.add(another);
    return all;
  }

  private static void record(
      Response response, String grab, Map<String, Long> grabbed, List<Response> failures) {
    String outcome = response.status() == 200 ? response.json().getString("outcome") : "";
    switch (outcome) {
      case "GRABBED" -> grabbed.put(grab, response.json().getLong("amount"));
      case "SOLD_OUT" -> {}
      default -> failures.add(response);
    }
  }

  private Void grabWhile(
      Api api, String packet, String prefix, AtomicBoolean going, Map<String, Long> grabbed) {
    List<Response> failures = new ArrayList<>();
    for (int i = 0; going.get() && i < 100_000; i++) {
      String user = prefix + "-" + i;
      record(api.grab(token(user), packet), packet + "/" + user, grabbed, failures);
      assertThat(failures).isEmpty();
      pause(Duration.ofMillis(20));
    }
    return null;
  }

  private void switchReaches(Api from, Api to, boolean enabled) {
    Response set =
        from.put(
            "/api/v1/admin/switches/sending", admin(), JsonObject.of("enabled", enabled).encode());
    assertThat(set.status()).as("%s", set).isEqualTo(200);
    await()
        .atMost(SWITCH_REACH)
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                to.get("/api/v1/admin/switches", admin()).json().getBoolean("sending") == enabled);
  }

  private boolean refunded(Api api, String packet) {
    JsonObject details = api.get("/api/v1/packets/" + packet, admin()).json();
    return details.getLong("grabbedAmount") + details.getLong("refundedAmount") == AMOUNT;
  }

  /** A separate {@code hongbao serve} on the same cluster and PostgreSQL. */
  private Process startVictim(int port) throws IOException {
    String java = ProcessHandle.current().info().command().orElseThrow();
    var command =
        List.of(
            java,
            "-Xmx256m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            "hongbao.app.Main",
            "serve");
    var builder = new ProcessBuilder(command);
    Map<String, String> env = builder.environment();
    env.put("HONGBAO_PORT", Integer.toString(port));
    env.put("HONGBAO_REDIS_URL", backends.redisUrl());
    // Through a route of its own, which the test can silence.
    URI jdbc = URI.create(backends.jdbcUrl().substring("jdbc:".length()));
    env.put(
        "HONGBAO_JDBC_URL",
        backends.jdbcUrl().replace(":" + jdbc.getPort() + "/", ":" + victimDatabase.port() + "/"));
    env.put("HONGBAO_JDBC_SCHEMA", backends.schema());
    env.put("HONGBAO_JWT_SECRET", secret);
    env.put("HONGBAO_DEV_MODE", "true");
    env.put("HONGBAO_INSTANCE", "victim");
    env.put("HONGBAO_ID_ALPHABET", PacketIds.DEFAULT_ALPHABET);
    env.put("HONGBAO_RECLAIM_IDLE_MILLIS", "1000");
    env.put("HONGBAO_SWEEP_INTERVAL_MILLIS", "200");
    env.put("HONGBAO_GRABS_PER_USER_PER_SECOND", "1000");
    if (backends.gatewayUrl() != null) {
      // one gateway book for every instance of these backends, as in production
      env.put("HONGBAO_GATEWAY_URL", backends.gatewayUrl());
      env.put("HONGBAO_GATEWAY_SECRET", backends.gatewaySecret());
    }
    builder.redirectErrorStream(true).redirectOutput(victimLog.toFile());
    return builder.start();
  }

  private void awaitHealthy(Api api) {
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(250))
        .ignoreExceptions()
        .until(
            () -> {
              assertThat(victim.isAlive()).as("victim alive; its log: %s", log()).isTrue();
              return api.get("/health", null).status() == 200;
            });
  }

  /**
   * Freezes the victim (SIGSTOP) at a moment when its payout consumers hold tasks unpaid (its route
   * to PostgreSQL is silent), and kills it (SIGKILL); returns how many tasks they held. Grabbing a
   * moment between two batches instead would find nothing held on a loaded machine. The survivor's
   * reclaimer may already take over some of them while the victim waits: a consumer that stopped
   * paying is what it is for.
   */
  private long killWhileHoldingTasks() throws Exception {
    long pid = victim.pid();
    var held = new AtomicLong();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              signal("STOP", pid);
              held.set(heldBy("victim-"));
              if (held.get() == 0) {
                signal("CONT", pid);
              }
              return held.get() > 0;
            });
    signal("KILL", pid);
    assertThat(victim.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return held.get();
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).as("kill -%s %s", name, pid).isZero();
  }

  /** Tasks pending with consumers whose name starts with {@code prefix}, over every stream. */
  private long heldBy(String prefix) {
    var keys = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
    try {
      var summaries = new ArrayList<RedisFuture<PendingMessages>>();
      for (String stream : keys.allPayoutStreams()) {
        summaries.add(redis.async().xpending(stream, RedisPayoutQueue.GROUP));
      }
      long held = 0;
      for (RedisFuture<PendingMessages> summary : summaries) {
        for (Map.Entry<String, Long> consumer :
            summary.get(30, TimeUnit.SECONDS).getConsumerMessageCount().entrySet()) {
          if (consumer.getKey().startsWith(prefix)) {
            held += consumer.getValue();
          }
        }
      }
      return held;
    } catch (Exception e) {
      throw new IllegalStateException("reading pending payout tasks", e);
    }
  }

  private String log() {
    try {
      String text = Files.readString(victimLog);
      return text.substring(Math.max(0, text.length() - 4_000));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
