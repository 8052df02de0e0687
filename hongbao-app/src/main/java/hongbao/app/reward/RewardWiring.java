package hongbao.app.reward;

import hongbao.app.workers.Loop;
import hongbao.core.Invariants;
import hongbao.core.campaign.BookedBudgets;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.reconcile.Reconciler;
import hongbao.core.reward.ConsumeRate;
import hongbao.core.reward.ForcedCredits;
import hongbao.core.reward.RewardAudit;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardCampaigns;
import hongbao.core.reward.RewardFailures;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardService;
import hongbao.core.reward.RewardStatement;
import hongbao.core.reward.TokenVerifier;
import hongbao.core.reward.Unparker;
import hongbao.crypto.Sealer;
import hongbao.http.HttpRewardIssuer;
import hongbao.http.RewardRoutes;
import hongbao.kafka.KafkaRewardConsumer;
import hongbao.kafka.KafkaTopics;
import hongbao.postgres.PostgresDatabase;
import hongbao.redis.RedisLink;
import hongbao.redis.reward.RedisFailureLog;
import hongbao.redis.reward.RedisParkingLot;
import hongbao.redis.reward.RedisRewardConsumer;
import hongbao.redis.reward.RedisTypeThrottle;
import hongbao.sdk.QueueTopology;
import hongbao.sdk.RewardSdk;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the reward pipeline: the SDK (producer side) on the service's Redis and Kafka, the reward
 * service on PostgreSQL, the HTTP routes, the audit in the reconciler, and — with workers — one
 * consumer per topic, the reclaimer of the Redis topics, the unparker and the budget gauges.
 * Closing stops the consumers first, then the SDK (which gives held events a last send).
 */
public final class RewardWiring implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RewardWiring.class);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final List<KafkaRewardConsumer> kafkaConsumers = new ArrayList<>();
  private final List<RedisRewardConsumer> redisConsumers = new ArrayList<>();
  private RewardSdk sdk;
  private RewardService service;
  private RewardHandler handler;
  private ForcedCredits forcedCredits;
  private RewardCampaigns campaigns;
  private RewardAudit audit;
  private RewardRoutes routes;
  private RedisFailureLog failures;
  private RedisParkingLot parking;
  private RedisTypeThrottle throttle;
  private RewardBook book;
  private RewardConfig config;
  private String instance;
  private Switches switches;
  private BiConsumer<String, Invariants.InvariantViolation> onViolation;

  /** Spreads the loops' retries; seeded by the root. */
  private RandomGenerator.SplittableGenerator jitter;

  private RewardWiring() {}

  /** Everything but the consumers. */
  public static RewardWiring wire(
      RewardConfig config,
      RedisLink redis,
      String kafkaBootstrap,
      PostgresDatabase database,
      Switches switches,
      Reconciler reconciler,
      MeterRegistry registry,
      Clock clock,
      Sealer serviceSealer) {
    var wiring = new RewardWiring();
    try {
      wiring.build(
          config,
          redis,
          kafkaBootstrap,
          database,
          switches,
          reconciler,
          registry,
          clock,
          serviceSealer);
      return wiring;
    } catch (RuntimeException e) {
      wiring.close();
      throw e;
    }
  }

  private void build(
      RewardConfig config,
      RedisLink redis,
      String kafkaBootstrap,
      PostgresDatabase database,
      Switches switches,
      Reconciler reconciler,
      MeterRegistry registry,
      Clock clock,
      Sealer serviceSealer) {
    this.config = config;
    this.switches = switches;
    this.instance = UUID.randomUUID().toString().substring(0, 8);
    var metrics = new MicrometerRewardMetrics(registry);
    // Reward tokens and grab receipts may share the service's keyset: the purpose bound into
    // each token keeps one kind from opening as the other.
    Sealer sealer =
        config.keysetJson() != null ? Sealer.fromKeysetJson(config.keysetJson()) : serviceSealer;
    List<String> kafkaTopics = config.topology().topicsOf(QueueTopology.Kind.KAFKA);
    if (!kafkaTopics.isEmpty()) {
      KafkaTopics.ensure(kafkaBootstrap, kafkaTopics, config.kafkaPartitions());
    }
    book = database.rewards();
    var connection = redis;
    var keys = new hongbao.redis.reward.RewardKeys("hb");
    var tokenStore = new hongbao.redis.reward.RedisTokenStore(connection, keys);
    service =
        new RewardService(book, new HttpRewardIssuer(config.issuerTimeout()), tokenStore, metrics);
    sdk =
        RewardSdk.builder()
            .redis(redis)
            .kafka(kafkaBootstrap)
            .sealer(sealer)
            .topology(config.topology())
            .budgetKeys(config.budgetKeys())
            .streamsPerTopic(config.streamsPerTopic())
            .clock(clock)
            .switches(switches)
            .crediting(service, book)
            .fundedBudgets(new BookedBudgets(database.campaigns(), book))
            .metrics(metrics)
            .build();
    resources.push(sdk);
    var parts = sdk.parts();
    failures = new RedisFailureLog(connection, keys);
    throttle = new RedisTypeThrottle(connection, keys, clock);
    parking = new RedisParkingLot(connection, keys);
    handler =
        new RewardHandler(
            parts.types(),
            throttle,
            service,
            parking,
            failures,
            parts.queues(),
            switches,
            metrics,
            RewardHandler.Sleeper.THREAD,
            new ConsumeRate(config.consumeRatePerSecond(), clock, RewardHandler.Sleeper.THREAD));
    var verifier = new TokenVerifier(parts.tokens(), parts.tokenStore(), book, metrics);
    forcedCredits =
        new ForcedCredits(
            parts.tokens(), parts.tokenStore(), verifier, parts.types(), service, metrics);
    campaigns = new RewardCampaigns(book, parts.budget());
    audit = new RewardAudit(book, parts.budget(), failures, clock, config.stuckAfter());
    reconciler.add(audit);
    routes =
        new RewardRoutes(
            sdk.sender(),
            verifier,
            new RewardStatement(parts.tokens(), parts.tokenStore(), verifier, book, parts.types()),
            parts.types(),
            campaigns,
            new RewardFailures(failures, parts.queues(), parts.types()),
            id -> database.campaigns().find(id).isPresent());
    resources.push(routes);
    Gauge.builder("hongbao.rewards.held", parts.queues(), q -> q.held()).register(registry);
    Gauge.builder("hongbao.rewards.parked", parking, p -> p.size()).register(registry);
  }

  /**
   * Whether the Redis consumers read and reclaim. While the rewards switch is off they do neither:
   * every reclaim counts a delivery, so a pause longer than {@code maxDeliveries} reclaim periods
   * (5 minutes by default) sent every reward waiting in the streams to the failure stream, where it
   * awaits an operator. Kafka's consumers wait in place instead and count nothing.
   */
  private boolean rewardsOn() {
    return switches.enabled(Switch.REWARDS);
  }

  /** Starts this instance's consumers and background steps. */
  public void startWorkers(
      String kafkaBootstrap,
      Duration redisReclaimIdle,
      int maxDeliveries,
      MeterRegistry registry,
      BiConsumer<String, Invariants.InvariantViolation> onViolation,
      RandomGenerator.SplittableGenerator jitter) {
    this.onViolation = onViolation;
    this.jitter = jitter;
    ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
    resources.push(workers::shutdownNow);
    var parts = sdk.parts();
    for (String topic : config.topology().topicsOf(QueueTopology.Kind.REDIS)) {
      var consumer =
          new RedisRewardConsumer(
              parts.redis(),
              parts.redisTopics().get(topic).streams(),
              instance + "-" + topic,
              handler,
              failures,
              workers,
              new RedisRewardConsumer.Settings(
                  64, Duration.ofMillis(200), redisReclaimIdle, maxDeliveries));
      redisConsumers.add(consumer);
      resources.push(consumer);
      var consumed = new AtomicLong();
      FunctionCounter.builder("hongbao.rewards.consumed", consumed, AtomicLong::get)
          .tag("topic", "redis:" + topic)
          .register(registry);
      var stream = parts.redisTopics().get(topic);
      Gauge.builder("hongbao.rewards.lag", stream, s -> s.backlog())
          .tag("topic", "redis:" + topic)
          .register(registry);
      resources.push(
          Loop.start(
              "reward-redis-" + topic,
              () ->
                  rewardsOn()
                      ? (consumed.addAndGet(uninterrupted(consumer::consumeOnce)) >= 0 ? 1 : 0)
                      : 0,
              Duration.ofMillis(10),
              onViolation,
              jitter.split()));
      resources.push(
          Loop.start(
              "reward-reclaim-" + topic,
              () -> rewardsOn() ? uninterrupted(consumer::reclaimOnce) : 0,
              redisReclaimIdle.dividedBy(2),
              onViolation,
              jitter.split()));
    }
    for (String topic : config.topology().topicsOf(QueueTopology.Kind.KAFKA)) {
      startKafkaConsumer(kafkaBootstrap, topic, workers, registry);
    }
    var unparker = new Unparker(parts.types(), parking, parts.queues(), instance);
    resources.push(
        Loop.start(
            "reward-unparker",
            unparker::unparkOnce,
            Duration.ofSeconds(1),
            onViolation,
            jitter.split()));
    Map<String, AtomicLong> left = new ConcurrentHashMap<>();
    resources.push(
        Loop.start(
            "reward-budget-gauges",
            () -> {
              Set<String> funded = Set.copyOf(book.fundedCampaigns());
              // A campaign whose escrow is spent or returned has nothing left to show.
              left.forEach(
                  (id, value) -> {
                    if (!funded.contains(id)) {
                      value.set(0);
                    }
                  });
              for (String campaignId : funded) {
                var state = parts.budget().state(campaignId);
                if (state != null) {
                  left.computeIfAbsent(
                          campaignId,
                          id -> {
                            var value = new AtomicLong();
                            Gauge.builder("hongbao.rewards.budget.left", value, AtomicLong::get)
                                .tag("campaign", id)
                                .register(registry);
                            return value;
                          })
                      .set(state.left().fen());
                }
              }
              return 0;
            },
            Duration.ofSeconds(5),
            onViolation,
            jitter.split()));
  }

  private void startKafkaConsumer(
      String bootstrap, String topic, ExecutorService workers, MeterRegistry registry) {
    var consumer =
        new KafkaRewardConsumer(
            bootstrap,
            topic,
            instance + "-" + topic,
            handler,
            workers,
            new KafkaRewardConsumer.Settings(
                Duration.ofMillis(200), config.consumerInFlight(), config.kafkaSessionTimeout()));
    kafkaConsumers.add(consumer);
    FunctionCounter.builder("hongbao.rewards.consumed", consumer, KafkaRewardConsumer::consumed)
        .tag("topic", "kafka:" + topic)
        .register(registry);
    Gauge.builder("hongbao.rewards.lag", consumer, KafkaRewardConsumer::lag)
        .tag("topic", "kafka:" + topic)
        .register(registry);
    // The loop is closed before the consumer: the poll thread must be gone when it closes.
    resources.push(consumer);
    resources.push(
        Loop.start(
            "reward-kafka-" + topic,
            consumer::pollOnce,
            Duration.ofMillis(10),
            onViolation,
            jitter.split()));
  }

  /** A step that may be interrupted by a shutdown: interruption ends the step quietly. */
  @FunctionalInterface
  private interface InterruptibleStep {
    int run() throws InterruptedException;
  }

  private static int uninterrupted(InterruptibleStep step) {
    try {
      return step.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  public RewardSdk sdk() {
    return sdk;
  }

  /**
   * Events waiting per reward queue, as the lag gauges read them: a Redis topic's backlog (shared,
   * the same on every instance), a Kafka topic's lag as this instance's consumers see it (absent
   * without workers).
   */
  public Map<String, Long> queueLags() {
    var lags = new java.util.TreeMap<String, Long>();
    sdk.parts()
        .redisTopics()
        .forEach((topic, stream) -> lags.put("redis:" + topic, stream.backlog()));
    List<String> kafkaTopics = config.topology().topicsOf(QueueTopology.Kind.KAFKA);
    for (int i = 0; i < kafkaConsumers.size() && i < kafkaTopics.size(); i++) {
      lags.put("kafka:" + kafkaTopics.get(i), kafkaConsumers.get(i).lag());
    }
    return lags;
  }

  /** The per-type token buckets, whose per-second counters give each type's issue rate. */
  public RedisTypeThrottle throttle() {
    return throttle;
  }

  public RewardService service() {
    return service;
  }

  public RewardHandler handler() {
    return handler;
  }

  /** The forced credit of withdrawals: {@code creditNow(userId, tokens)}. */
  public ForcedCredits forcedCredits() {
    return forcedCredits;
  }

  public RewardCampaigns campaigns() {
    return campaigns;
  }

  public RewardAudit audit() {
    return audit;
  }

  public RewardRoutes routes() {
    return routes;
  }

  public RedisFailureLog failures() {
    return failures;
  }

  public RedisParkingLot parking() {
    return parking;
  }

  public List<KafkaRewardConsumer> kafkaConsumers() {
    return kafkaConsumers;
  }

  public List<RedisRewardConsumer> redisConsumers() {
    return redisConsumers;
  }

  @Override
  public void close() {
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        LOG.warn("while stopping rewards: {}", e.toString());
      }
    }
  }
}
