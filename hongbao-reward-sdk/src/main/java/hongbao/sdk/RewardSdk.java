package hongbao.sdk;

import hongbao.core.money.Amount;
import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.core.reward.FailoverQueue;
import hongbao.core.reward.FundedBudgets;
import hongbao.core.reward.Issuer;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBook;
import hongbao.core.reward.RewardHandler;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardMetrics;
import hongbao.core.reward.RewardProducer;
import hongbao.core.reward.RewardQueues;
import hongbao.core.reward.RewardRecord;
import hongbao.core.reward.RewardRequest;
import hongbao.core.reward.RewardSender;
import hongbao.core.reward.RewardService;
import hongbao.core.reward.SendOutcome;
import hongbao.core.reward.VirtualQueue;
import hongbao.crypto.SealedRewardTokens;
import hongbao.crypto.Sealer;
import hongbao.kafka.KafkaRewardProducer;
import hongbao.redis.RedisLink;
import hongbao.redis.reward.RedisRewardBudget;
import hongbao.redis.reward.RedisRewardStream;
import hongbao.redis.reward.RedisRewardTypes;
import hongbao.redis.reward.RedisTokenStore;
import hongbao.redis.reward.RedisTradeClaims;
import hongbao.redis.reward.RedisTypeThrottle;
import hongbao.redis.reward.RewardKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;

/**
 * The reward SDK: SendBonus in the caller's process. {@link #sendBonus} validates, reserves the
 * campaign's budget, seals the token, keeps the server's copy, and puts the event on its type's
 * virtual queue (Kafka and Redis Streams, master and backup); it returns the encrypted token for
 * the client. {@link #sendBonusSync} credits before it returns (it needs the reward service, see
 * {@link Builder#crediting}). Events no queue would take are held in memory and retried every
 * {@code retryEvery} until one does; {@link #close} gives them a last chance.
 *
 * <p>Thread-safe. Build one per process and close it at the end.
 */
public final class RewardSdk implements AutoCloseable {

  private final Deque<AutoCloseable> resources;
  private final RewardSender sender;
  private final RewardQueues queues;
  private final Parts parts;

  /** The pieces the SDK built, for a service that also consumes and credits. */
  public record Parts(
      RedisLink redis,
      RewardKeys keys,
      RedisRewardTypes types,
      RedisRewardBudget budget,
      RedisTokenStore tokenStore,
      SealedRewardTokens tokens,
      RewardQueues queues,
      Map<String, RedisRewardStream> redisTopics) {}

  private RewardSdk(
      Deque<AutoCloseable> resources, RewardSender sender, RewardQueues queues, Parts parts) {
    this.resources = resources;
    this.sender = sender;
    this.queues = queues;
    this.parts = parts;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Accepts a reward for asynchronous crediting; returns its token. */
  public BonusReceipt sendBonus(Activity activity, User user, Bonus bonus) {
    return receipt(sender.send(request(activity, user, bonus)));
  }

  /** Credits a reward before returning. */
  public BonusReceipt sendBonusSync(Activity activity, User user, Bonus bonus) {
    return receipt(sender.sendSync(request(activity, user, bonus)));
  }

  private static RewardRequest request(Activity activity, User user, Bonus bonus) {
    return new RewardRequest(
        bonus.tradeNo(),
        user.userId(),
        activity.campaignId(),
        activity.scene() == null ? "" : activity.scene(),
        bonus.type(),
        bonus.amount(),
        bonus.desc() == null ? "" : bonus.desc());
  }

  private static BonusReceipt receipt(SendOutcome outcome) {
    return switch (outcome) {
      case SendOutcome.Accepted a ->
          new BonusReceipt(a.tradeNo(), a.token(), BonusReceipt.Status.ACCEPTED, null);
      case SendOutcome.Credited c ->
          new BonusReceipt(c.tradeNo(), c.token(), BonusReceipt.Status.CREDITED, null);
      case SendOutcome.IssuerFailed f ->
          new BonusReceipt(f.tradeNo(), null, BonusReceipt.Status.FAILED, f.reason());
    };
  }

  /** The sender behind {@link #sendBonus}, for the service's own HTTP endpoint. */
  public RewardSender sender() {
    return sender;
  }

  public Parts parts() {
    return parts;
  }

  /** Events that no queue has taken yet. */
  public int held() {
    return queues.held();
  }

  @Override
  public void close() {
    queues.retryHeld(RewardQueues.MAX_HELD);
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        System.getLogger(RewardSdk.class.getName())
            .log(System.Logger.Level.WARNING, "closing the reward SDK: " + e);
      }
    }
  }

  /** Configures and builds the SDK. */
  public static final class Builder {
    private String redisUrl;
    private RedisLink redisLink;
    private String kafkaBootstrap;
    private Sealer sealer;
    private QueueTopology topology = QueueTopology.defaults();
    private int budgetKeys = 8;
    private int streamsPerTopic = 1;
    private String prefix = "hb";
    private Clock clock = Clock.systemUTC();
    private Switches switches = ALWAYS_ON;
    private RewardService service;
    private RewardBook book;
    private FundedBudgets funded = FundedBudgets.NONE;
    private RewardMetrics metrics = RewardMetrics.NONE;
    private Duration retryEvery = Duration.ofMillis(500);
    private Duration typesRefresh = Duration.ofSeconds(1);

    private Builder() {}

    /** {@code redis://host:port[/db]}, or {@code redis-cluster://host:port[,host:port...]}. */
    public Builder redis(String url) {
      this.redisUrl = url;
      return this;
    }

    /** A link to one Redis or a cluster that the caller owns (and closes). */
    public Builder redis(RedisLink link) {
      this.redisLink = link;
      return this;
    }

    public Builder kafka(String bootstrap) {
      this.kafkaBootstrap = bootstrap;
      return this;
    }

    /** The token keyset (its primary seals, every key opens). */
    public Builder sealer(Sealer sealer) {
      this.sealer = sealer;
      return this;
    }

    public Builder topology(QueueTopology topology) {
      this.topology = topology;
      return this;
    }

    public Builder budgetKeys(int keys) {
      this.budgetKeys = keys;
      return this;
    }

    /**
     * How many Redis streams each Redis topic is split over (1): more spread a topic over a
     * cluster's masters. Every producer and consumer of a topic must use the same number.
     */
    public Builder streamsPerTopic(int streams) {
      this.streamsPerTopic = streams;
      return this;
    }

    /** The Redis key prefix ({@code hb}); tests use their own. */
    public Builder prefix(String prefix) {
      this.prefix = prefix;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    public Builder switches(Switches switches) {
      this.switches = switches;
      return this;
    }

    /** What crediting needs: the reward service and its book (for sync mode and replays). */
    public Builder crediting(RewardService service, RewardBook book) {
      this.service = service;
      this.book = book;
      return this;
    }

    /**
     * Where a campaign's budget is found when Redis lost its keys, to open them again; without it a
     * send to such a campaign answers as to an unknown one.
     */
    public Builder fundedBudgets(FundedBudgets funded) {
      this.funded = funded;
      return this;
    }

    public Builder metrics(RewardMetrics metrics) {
      this.metrics = metrics;
      return this;
    }

    public Builder retryEvery(Duration every) {
      this.retryEvery = every;
      return this;
    }

    public Builder typesRefresh(Duration every) {
      this.typesRefresh = every;
      return this;
    }

    public RewardSdk build() {
      if (sealer == null) {
        throw new IllegalStateException("the SDK needs the token keyset (sealer)");
      }
      Deque<AutoCloseable> resources = new ArrayDeque<>();
      try {
        return build(resources);
      } catch (RuntimeException e) {
        resources.forEach(
            r -> {
              try {
                r.close();
              } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
              }
            });
        throw e;
      }
    }

    private RewardSdk build(Deque<AutoCloseable> resources) {
      RedisLink connection = redisLink;
      if (connection == null) {
        connection = RedisLink.open(redisUrl);
        resources.push(connection);
      }
      var keys = new RewardKeys(prefix);
      var types = new RedisRewardTypes(connection, keys, typesRefresh);
      resources.push(types);
      var budget = new RedisRewardBudget(connection, keys, budgetKeys, clock);
      var tokenStore = new RedisTokenStore(connection, keys);
      var tokens = new SealedRewardTokens(sealer);

      // A failed send completes on its client's thread; the other queue is tried on a thread of
      // its own, as a Kafka send may block there for its metadata. Made before the producers, it
      // is closed after them: a send failing while they close still fails over.
      ExecutorService failingOver = Executors.newVirtualThreadPerTaskExecutor();
      resources.push(failingOver::close);
      Map<QueueTopology.Topic, RewardProducer> producers = new HashMap<>();
      Map<String, RedisRewardStream> redisTopics = new HashMap<>();
      Producer<String, byte[]> kafka = null;
      for (QueueTopology.Topic topic : topology.topics()) {
        if (topic.kind() == QueueTopology.Kind.REDIS) {
          var stream =
              new RedisRewardStream(
                  connection, keys, topic.name(), streamsPerTopic, Duration.ofSeconds(5));
          redisTopics.put(topic.name(), stream);
          producers.put(topic, stream);
        } else {
          if (kafka == null) {
            if (kafkaBootstrap == null) {
              throw new IllegalStateException("the topology names Kafka topics: set kafka(...)");
            }
            kafka = KafkaRewardProducer.connect(kafkaBootstrap);
            Producer<String, byte[]> toClose = kafka;
            resources.push(() -> toClose.close(Duration.ofSeconds(5)));
          }
          producers.put(topic, new KafkaRewardProducer(kafka, topic.name()));
        }
      }
      var failover = new ArrayList<FailoverQueue>();
      var routes = new EnumMap<VirtualQueue, QueueTopology.Route>(topology.routes());
      routes.forEach(
          (name, route) ->
              failover.add(
                  new FailoverQueue(
                      name,
                      producers.get(route.master()),
                      producers.get(route.backup()),
                      route.masterPercent(),
                      clock,
                      failingOver)));
      var queues = new RewardQueues(failover, metrics);
      ScheduledExecutorService retrier =
          Executors.newSingleThreadScheduledExecutor(
              r -> Thread.ofPlatform().name("hongbao-reward-retry").daemon().unstarted(r));
      resources.push(retrier::shutdownNow);
      retrier.scheduleWithFixedDelay(
          () -> queues.retryHeld(10_000),
          retryEvery.toMillis(),
          retryEvery.toMillis(),
          TimeUnit.MILLISECONDS);
      RewardBook rewardBook = book != null ? book : NO_BOOK;
      RewardService crediting =
          service != null ? service : new RewardService(NO_BOOK, NO_ISSUER, tokenStore, metrics);
      var sender =
          new RewardSender(
              types,
              tokens,
              budget,
              funded,
              new RedisTradeClaims(connection, keys),
              tokenStore,
              queues,
              crediting,
              rewardBook,
              switches,
              new RedisTypeThrottle(connection, keys, clock),
              RewardHandler.Sleeper.THREAD,
              clock);
      var parts =
          new Parts(connection, keys, types, budget, tokenStore, tokens, queues, redisTopics);
      return new RewardSdk(resources, sender, queues, parts);
    }
  }

  private static final Switches ALWAYS_ON =
      new Switches() {
        @Override
        public boolean enabled(Switch which) {
          return true;
        }

        @Override
        public Map<Switch, Boolean> set(Switch which, boolean enabled) {
          throw new UnsupportedOperationException("the SDK's switches are always on");
        }

        @Override
        public Map<Switch, Boolean> all() {
          return Map.of();
        }
      };

  private static final Issuer NO_ISSUER =
      (reward, type) -> {
        throw new IllegalStateException("synchronous mode needs Builder.crediting(...)");
      };

  /** Without the reward service the SDK only accepts: replays are answered as ACCEPTED. */
  private static final RewardBook NO_BOOK =
      new RewardBook() {
        @Override
        public boolean kept() {
          return false;
        }

        @Override
        public boolean openCampaign(String campaignId, Amount budget) {
          throw unsupported();
        }

        @Override
        public Optional<CampaignBooks> campaign(String campaignId) {
          return Optional.empty();
        }

        @Override
        public List<CampaignBooks> campaigns() {
          return List.of();
        }

        @Override
        public List<String> fundedCampaigns() {
          return List.of();
        }

        @Override
        public Credit creditCash(Reward reward, String digest) {
          throw unsupported();
        }

        @Override
        public List<Credit> creditCash(List<Reward> rewards) {
          throw unsupported();
        }

        @Override
        public Credit recordIssued(
            Reward reward, String digest, RewardKind kind, boolean couponBook) {
          throw unsupported();
        }

        @Override
        public Credit recordFailed(Reward reward, String digest, RewardKind kind, String reason) {
          throw unsupported();
        }

        @Override
        public Optional<RewardRecord> find(String tradeNo) {
          return Optional.empty();
        }

        @Override
        public List<RewardRecord> byUser(String userId, int limit) {
          return List.of();
        }

        @Override
        public List<RewardRecord> byCampaign(String campaignId) {
          return List.of();
        }

        @Override
        public List<RewardRecord> byCampaign(String campaignId, String afterTradeNo, int limit) {
          return List.of();
        }

        @Override
        public List<String> problems() {
          return List.of();
        }

        private IllegalStateException unsupported() {
          return new IllegalStateException("synchronous mode needs Builder.crediting(...)");
        }
      };
}
