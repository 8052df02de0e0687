package hongbao.app;

import hongbao.app.embedded.EmbeddedKafkaServer;
import hongbao.app.embedded.EmbeddedPostgresServer;
import hongbao.app.embedded.EmbeddedRedis;
import hongbao.app.embedded.EmbeddedRedisCluster;
import hongbao.app.settings.InstallLayout;
import hongbao.app.workers.Workers;
import hongbao.core.activity.ActivityGrabs;
import hongbao.core.activity.ActivityService;
import hongbao.core.details.Boxes;
import hongbao.core.details.DetailsService;
import hongbao.core.expiry.ExpirySweeper;
import hongbao.core.grab.Arming;
import hongbao.core.grab.ClaimService;
import hongbao.core.grab.GrabService;
import hongbao.core.grab.Rearmer;
import hongbao.core.grab.StoreRepair;
import hongbao.core.ledger.TopUpService;
import hongbao.core.ops.Violations;
import hongbao.core.packet.PacketLimits;
import hongbao.core.packet.SendRules;
import hongbao.core.password.PasswordCheck;
import hongbao.core.reconcile.Reconciler;
import hongbao.core.send.SendService;
import hongbao.core.split.SplitPolicies;
import hongbao.core.wallet.WalletService;
import hongbao.core.withdrawal.ForcedCredit;
import hongbao.crypto.SealedReceipts;
import hongbao.crypto.Sealer;
import hongbao.http.GrabLimiter;
import hongbao.http.HttpApi;
import hongbao.http.HttpServerSettings;
import hongbao.http.HttpServices;
import hongbao.http.IdAlphabet;
import hongbao.http.PacketIds;
import hongbao.http.WebUiRoutes;
import hongbao.http.WithdrawalRoutes;
import hongbao.http.auth.Tokens;
import hongbao.http.auth.VerifiedTokens;
import hongbao.pinyin.PinyinPronunciation;
import hongbao.postgres.PostgresConfig;
import hongbao.postgres.PostgresDatabase;
import hongbao.redis.EventLoops;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import hongbao.redis.RedisTimeouts;
import hongbao.redis.activity.RedisActivityCounts;
import hongbao.redis.grab.RedisGrabStore;
import hongbao.redis.grab.RedisPasswordLocks;
import hongbao.redis.ops.RedisSwitches;
import hongbao.redis.payout.RedisPayoutQueue;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.internal.VertxInternal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: starts the backends (embedded unless configured), builds the adapters and
 * the core services, serves HTTP and runs the background workers. Closing stops everything in
 * reverse order, embedded servers last.
 */
public final class Hongbao implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Hongbao.class);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();

  /**
   * The root's one source of randomness: every seeded generator below (ids, splits, loop jitter,
   * the campaign closer's) and the dev secrets are drawn from it, so nothing else makes its own.
   */
  private final SecureRandom seeds = new SecureRandom();

  private final Config config;
  private volatile int port;
  private String redisUrl;
  private String jdbcUrl;
  private Parts parts;
  private String kafkaBootstrap;
  private hongbao.kafka.embedded.EmbeddedKafka embeddedKafka;
  private hongbao.app.reward.RewardWiring rewards;
  private hongbao.app.campaign.CampaignWiring campaigns;
  private hongbao.core.grab.RefusedClaims refusedClaims;
  private Clock campaignClock;
  private HttpApi http;
  private DataDir dataDir;

  private Hongbao(Config config) {
    if (!config.devMode() && config.gatewayUrl() == null) {
      // Checked before any backend starts. The simulator that would stand in pays nobody: in
      // production every withdrawal would be debited, "paid" and reconciled against the
      // simulator's own book, with no money ever leaving.
      throw new IllegalArgumentException(
          "HONGBAO_GATEWAY_URL is required outside dev mode: without it withdrawals would be paid"
              + " by the gateway simulator, which pays nobody (HONGBAO_DEV_MODE=true for a trial)");
    }
    if (config.gatewayUrl() != null && config.gatewaySecret() == null) {
      throw new IllegalArgumentException("HONGBAO_GATEWAY_URL needs HONGBAO_GATEWAY_SECRET");
    }
    this.config = config;
  }

  /**
   * As {@link #start(Config, String, String, boolean)}, the rain's rounds on {@code campaignClock}
   * (the service's clock when null).
   */
  public static Hongbao start(
      Config config, String redisUrl, String jdbcUrl, boolean workers, Clock campaignClock) {
    Hongbao service = new Hongbao(config);
    service.redisUrl = redisUrl;
    service.jdbcUrl = jdbcUrl;
    service.kafkaBootstrap = config.rewards().kafkaBootstrap();
    service.campaignClock = campaignClock;
    try {
      service.startServices(workers);
      return service;
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
  }

  /** Starts the whole service: backends (embedded ones on temporary files), HTTP and workers. */
  public static Hongbao start(Config config) {
    return start(config, null);
  }

  /**
   * Starts the whole service; embedded servers and the dev JWT secret keep their data in {@code
   * dataDir} (temporary when null).
   */
  public static Hongbao start(Config config, DataDir dataDir) {
    Hongbao service = new Hongbao(config);
    service.dataDir = dataDir;
    try {
      service.startBackends();
      service.startServices(true);
      return service;
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
  }

  /**
   * Starts on given backends without starting workers (for tests that drive payouts and sweeps by
   * hand) when {@code workers} is false.
   */
  public static Hongbao start(Config config, String redisUrl, String jdbcUrl, boolean workers) {
    return start(config, redisUrl, jdbcUrl, workers, null);
  }

  private void startBackends() {
    redisUrl = config.redisUrl();
    if (redisUrl == null && config.embeddedRedisMasters() > 0) {
      EmbeddedRedisCluster cluster = EmbeddedRedisCluster.start(config.embeddedRedisMasters());
      resources.push(cluster);
      redisUrl = cluster.url();
    } else if (redisUrl == null) {
      EmbeddedRedis redis =
          dataDir == null ? EmbeddedRedis.start() : EmbeddedRedis.startIn(dataDir.redis());
      resources.push(redis);
      redisUrl = redis.url();
    }
    jdbcUrl = config.jdbcUrl();
    if (jdbcUrl == null) {
      EmbeddedPostgresServer postgres =
          dataDir == null
              ? EmbeddedPostgresServer.start()
              : EmbeddedPostgresServer.startIn(dataDir.postgres());
      resources.push(postgres);
      jdbcUrl = postgres.jdbcUrl();
    }
    kafkaBootstrap = config.rewards().kafkaBootstrap();
    if (kafkaBootstrap == null) {
      embeddedKafka =
          dataDir == null
              ? hongbao.kafka.embedded.EmbeddedKafka.start()
              : EmbeddedKafkaServer.startIn(dataDir.kafka());
      resources.push(embeddedKafka);
      kafkaBootstrap = embeddedKafka.bootstrap();
    }
  }

  private void startServices(boolean workers) {
    Clock clock = Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
    PostgresDatabase database =
        PostgresDatabase.open(
            PostgresConfig.of(jdbcUrl)
                .withSchema(config.jdbcSchema())
                .withTimeouts(config.jdbcTimeouts()),
            RandomGeneratorFactory.of("L64X128MixRandom").create(seeds.nextLong()));
    resources.push(database);

    var metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    // Vert.x first: the Redis link runs on its event loops (a grab's command and reply stay on the
    // loop serving the request), so it must close before them.
    Vertx vertx = Vertx.vertx();
    resources.push(() -> vertx.close().await());
    RedisLink redis =
        RedisTimeouts.link(
            redisUrl,
            config.redisTimeout(),
            RedisPayoutQueue.MAX_WAIT,
            ServiceMetrics.redisCommands(metrics),
            EventLoops.of(((VertxInternal) vertx).nettyEventLoopGroup()));
    resources.push(redis);
    RedisKeys keys =
        new RedisKeys(InstallLayout.shards(config.shards(), database.installSettings()));
    var store = new RedisGrabStore(redis, keys, config.keyGrace());
    var switches = new RedisSwitches(redis, keys, Duration.ofSeconds(1));
    resources.push(switches);
    var queue = new RedisPayoutQueue(redis, keys);
    resources.push(queue);

    var lucky = SplitPolicies.named(config.splitPolicy());
    var fixed = SplitPolicies.named("fixed");
    var pronunciation = new PinyinPronunciation().warmUp();
    var activityCounts = new RedisActivityCounts(redis, keys, config.keyGrace(), clock);
    var activityGrabs = new ActivityGrabs(database.activities(), activityCounts);
    var arming =
        new Arming(
            store,
            database.packets(),
            lucky,
            fixed,
            () -> RandomGeneratorFactory.of("L64X128MixRandom").create(seeds.nextLong()),
            clock,
            pronunciation,
            activityGrabs);
    var limits = PacketLimits.DEFAULTS.withMaxCount(config.maxShares());
    var details = new DetailsService(database.packets(), store, clock);
    var violations = new Violations();
    // Forced credit of reward tokens before a withdrawal: bound once the reward pipeline is up.
    var forcedCredit =
        new java.util.concurrent.atomic.AtomicReference<ForcedCredit>(ForcedCredit.NONE);
    // Withdrawals through the payment gateway: the simulator as a child process unless configured.
    var withdrawals =
        WithdrawalParts.wire(
            config,
            database.withdrawals(),
            switches,
            clock,
            RandomGeneratorFactory.of("L64X128MixRandom").create(seeds.nextLong()),
            () -> port,
            WithdrawalRoutes.CALLBACK_PATH,
            (userId, tokens) -> forcedCredit.get().credit(userId, tokens),
            dataDir == null ? null : dataDir.gatewayBook(),
            resources);
    var reconciler =
        new Reconciler(
            database.audit(),
            database.packets(),
            store,
            queue,
            clock,
            Reconciler.Limits.DEFAULTS,
            violations,
            List.of(withdrawals.audit()));
    Sealer tokenSealer = sealer();
    var receipts = new SealedReceipts(tokenSealer);
    var claims =
        new ClaimService(receipts, database.packets(), store, arming, database.ledger(), clock);
    refusedClaims =
        new hongbao.core.grab.RefusedClaims(database.packets(), database.ledger(), clock);
    startRewards(redis, database, switches, reconciler, metrics, clock, tokenSealer);
    if (rewards != null) {
      var credits = rewards.forcedCredits();
      forcedCredit.set((userId, tokens) -> credits.creditNow(userId, tokens));
      campaigns =
          hongbao.app.campaign.CampaignWiring.wire(
              redis,
              database,
              rewards,
              reconciler,
              campaignClock != null ? campaignClock : clock,
              (RandomGenerator.SplittableGenerator)
                  RandomGeneratorFactory.of("L64X128MixRandom").create(seeds.nextLong()),
              hongbao.app.campaign.CampaignWiring.RETURN_GRACE,
              config.rewards().campaignEditLead(),
              metrics);
      resources.push(campaigns);
    }
    var repair = new StoreRepair(store, database.packets(), arming, clock);
    parts =
        new Parts(
            database,
            store,
            queue,
            switches,
            arming,
            new ExpirySweeper(database.packets(), store, database.ledger(), repair, clock, 100),
            new Rearmer(database.packets(), arming, clock, Duration.ofSeconds(2), 100),
            repair,
            claims,
            violations,
            reconciler,
            withdrawals);

    String secret =
        config.jwtSecret() != null
            ? config.jwtSecret()
            : dataDir != null ? dataDir.jwtSecret(this::randomSecret) : randomSecret();
    var tokens =
        new VerifiedTokens(
            new Tokens(
                secret,
                clock,
                config.jwtRequireExp() ? Tokens.ExpiryRule.REQUIRED : Tokens.ExpiryRule.OPTIONAL),
            clock);
    // The grab's slow path asks the ledger and blocks: a virtual thread each, as other ledger work.
    var grabSlowPath = Executors.newVirtualThreadPerTaskExecutor();
    resources.push(grabSlowPath);
    var services =
        new HttpServices(
            new SendService(
                new SendRules(limits),
                database.ledger(),
                arming,
                switches,
                database.activities(),
                clock),
            new GrabService(
                store,
                new PasswordCheck(new RedisPasswordLocks(redis, keys), pronunciation),
                database.packets(),
                arming,
                activityGrabs,
                switches,
                receipts,
                grabRandom(seeds),
                clock,
                grabSlowPath),
            claims,
            details,
            new Boxes(database.packets(), store, details),
            new WalletService(database.ledger(), store),
            new TopUpService(database.ledger()),
            switches,
            reconciler,
            tokens,
            new PacketIds(
                IdAlphabet.resolve(
                    config.idAlphabet(), database.installSettings(), config.devMode(), seeds)),
            new GrabLimiter(config.grabsPerUserPerSecond()),
            metrics,
            () -> ready(redis, database),
            config.devMode(),
            new ActivityService(database.activities(), activityCounts, clock),
            withdrawals.service(),
            withdrawals.callbacks());
    Gauge.builder("hongbao.payout.backlog", queue, q -> q.backlog())
        .description("grabs waiting for their payout")
        .register(metrics);
    resources.push(ServiceMetrics.bind(metrics, database.dataSource()));
    startHttp(vertx, services);
    if (workers) {
      resources.push(
          Workers.start(
              config, parts, metrics, new java.util.SplittableRandom(seeds.nextLong()), clock));
      if (rewards != null) {
        rewards.startWorkers(
            kafkaBootstrap,
            config.reclaimIdle(),
            config.maxDeliveries(),
            metrics,
            (loop, violation) -> {
              parts.violations().record(loop, violation);
              parts.switches().set(hongbao.core.ops.Switch.REWARDS, false);
            },
            new java.util.SplittableRandom(seeds.nextLong()));
      }
      if (campaigns != null) {
        campaigns.startWorkers(
            config.sweepInterval(),
            parts.violations()::record,
            new java.util.SplittableRandom(seeds.nextLong()));
      }
    }
    LOG.info(
        "hongbao listening on http://{}:{}{} — redis {}{}, postgres {}{}, dev mode {}",
        config.http().host(),
        port,
        HttpServerSettings.EVERY_INTERFACE.equals(config.http().host()) ? " (every interface)" : "",
        withoutCredentials(redisUrl),
        config.redisUrl() == null ? embeddedRedisNote() : "",
        jdbcUrl.replaceAll("password=[^&]*", "password=***"),
        config.jdbcUrl() == null ? " (embedded)" : "",
        config.devMode() ? "on" : "off");
    if (config.devMode() && config.jwtSecret() == null) {
      LOG.info("dev mode: JWT secret for this run is {}", secret);
    }
    if (dataDir != null) {
      LOG.info(
          "data kept in {} (start with --fresh to begin empty)", dataDir.root().toAbsolutePath());
    }
  }

  /** A Redis address for the log: {@code redis://user:secret@host} keeps only its host. */
  static String withoutCredentials(String redisUrl) {
    return redisUrl.replaceAll("(://)[^@/]*@", "$1***@");
  }

  private String embeddedRedisNote() {
    int masters = config.embeddedRedisMasters();
    return masters > 0 ? " (embedded cluster of " + masters + " masters)" : " (embedded)";
  }

  private void startHttp(Vertx vertx, HttpServices services) {
    var api = new HttpApi(vertx, services, config.http());
    http = api;
    api.with(new WebUiRoutes(services, config.webUi()));
    var deadLetters = new hongbao.http.DeadLetterRoutes(parts.queue(), services.packetIds());
    resources.push(deadLetters);
    api.with(deadLetters);
    var refusedClaimRoutes =
        new hongbao.http.RefusedClaimRoutes(refusedClaims, services.packetIds());
    resources.push(refusedClaimRoutes);
    api.with(refusedClaimRoutes);
    if (rewards != null) {
      api.with(rewards.routes());
    }
    if (campaigns != null) {
      api.with(campaigns.routes());
    }
    resources.push(api);
    port = config.port() == 0 ? hongbao.app.embedded.FreePorts.find() : config.port();
    int instances = Math.max(1, Runtime.getRuntime().availableProcessors());
    for (int i = 0; i < instances; i++) {
      HttpServer server;
      try {
        server = api.listen(port).await();
      } catch (Exception e) { // await() rethrows the bind's checked BindException as it is
        if (portInUse(e)) {
          throw new IllegalStateException(portInUseMessage(), e);
        }
        throw e instanceof RuntimeException failure ? failure : new IllegalStateException(e);
      }
      resources.push(() -> server.close().await());
    }
  }

  private static boolean portInUse(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof java.net.BindException
          || String.valueOf(t.getMessage()).contains("Address already in use")) {
        return true;
      }
    }
    return false;
  }

  private String portInUseMessage() {
    return "port "
        + port
        + " on "
        + config.http().host()
        + " is in use by another program: stop it or set HONGBAO_PORT";
  }

  /**
   * The reward pipeline, when Kafka is there (embedded by {@code serve}, or configured): without it
   * the service runs without rewards.
   */
  private void startRewards(
      RedisLink redis,
      PostgresDatabase database,
      RedisSwitches switches,
      Reconciler reconciler,
      PrometheusMeterRegistry metrics,
      Clock clock,
      Sealer tokenSealer) {
    if (kafkaBootstrap == null) {
      LOG.info("rewards are off: no Kafka (set HONGBAO_KAFKA_BOOTSTRAP)");
      return;
    }
    rewards =
        hongbao.app.reward.RewardWiring.wire(
            config.rewards(),
            redis,
            kafkaBootstrap,
            database,
            switches,
            reconciler,
            metrics,
            clock,
            tokenSealer);
    resources.push(rewards);
  }

  /** The reward pipeline; null when it is off. */
  public hongbao.app.reward.RewardWiring rewards() {
    return rewards;
  }

  /** The red-packet rain; null when rewards are off. */
  public hongbao.app.campaign.CampaignWiring campaigns() {
    return campaigns;
  }

  /** The embedded Kafka broker; null when a real cluster is configured or none is used. */
  public hongbao.kafka.embedded.EmbeddedKafka embeddedKafka() {
    return embeddedKafka;
  }

  /**
   * The keys that seal grab receipts: {@code HONGBAO_TOKEN_KEYSET} (a Tink JSON keyset, or
   * {@code @path} of a file holding one), else a fresh key for this run only.
   */
  private Sealer sealer() {
    String keyset = config.tokenKeyset();
    if (keyset == null && dataDir != null) {
      return Sealer.fromKeysetJson(dataDir.tokenKeyset(() -> Sealer.generate().keysetJson()));
    }
    if (keyset == null) {
      LOG.warn(
          "HONGBAO_TOKEN_KEYSET is not set: grab receipts are sealed with a key of this run only");
      return Sealer.generate();
    }
    if (keyset.startsWith("@")) {
      try {
        keyset = Files.readString(Path.of(keyset.substring(1)));
      } catch (IOException e) {
        throw new IllegalArgumentException("HONGBAO_TOKEN_KEYSET: cannot read " + keyset, e);
      }
    }
    return Sealer.fromKeysetJson(keyset);
  }

  /**
   * Uniform values in [0, 2^31) for shares cut at grab time, from one seeded root: each thread
   * draws from its own generator split off the root, so no lock sits on the grab path.
   */
  private static LongSupplier grabRandom(SecureRandom seeds) {
    var root =
        (RandomGenerator.SplittableGenerator)
            RandomGeneratorFactory.of("L64X128MixRandom").create(seeds.nextLong());
    ThreadLocal<RandomGenerator> perThread =
        ThreadLocal.withInitial(
            () -> {
              synchronized (root) {
                return root.split();
              }
            });
    return () -> perThread.get().nextInt() >>> 1;
  }

  private static boolean ready(RedisLink redis, PostgresDatabase database) {
    try {
      boolean redisUp = "PONG".equals(redis.sync().ping());
      try (var connection = database.dataSource().getConnection()) {
        return redisUp && connection.isValid(2);
      }
    } catch (Exception e) {
      return false;
    }
  }

  private String randomSecret() {
    byte[] bytes = new byte[32];
    seeds.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  public int port() {
    return port;
  }

  /** The Redis actually in use (embedded or configured). */
  public String redisUrl() {
    return redisUrl;
  }

  /** The HTTP adapter serving this instance (its {@link HttpApi#router()} lists every route). */
  public HttpApi http() {
    return http;
  }

  public Parts parts() {
    return parts;
  }

  public Config config() {
    return config;
  }

  @Override
  public void close() {
    boolean running = parts != null;
    while (!resources.isEmpty()) {
      AutoCloseable resource = resources.pop();
      try {
        resource.close();
      } catch (Exception e) {
        LOG.warn("while stopping: {}", e.toString());
      }
    }
    if (running) {
      LOG.info("hongbao stopped");
    }
  }
}
