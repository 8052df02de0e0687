package hongbao.app.campaign;

import hongbao.app.reward.RewardWiring;
import hongbao.app.workers.Loop;
import hongbao.core.Invariants;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignAudit;
import hongbao.core.campaign.CampaignCloser;
import hongbao.core.campaign.CampaignLive;
import hongbao.core.campaign.CampaignService;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.campaign.Campaigns;
import hongbao.core.campaign.PoolRepair;
import hongbao.core.campaign.PrizeIssuer;
import hongbao.core.campaign.PrizeLine;
import hongbao.core.campaign.PrizeRecovery;
import hongbao.core.campaign.Round;
import hongbao.core.campaign.TapService;
import hongbao.core.reconcile.Reconciler;
import hongbao.core.reward.RewardQueues;
import hongbao.http.CampaignRoutes;
import hongbao.postgres.PostgresDatabase;
import hongbao.redis.RedisLink;
import hongbao.redis.campaign.RedisBudgetClosing;
import hongbao.redis.campaign.RedisPrizePools;
import hongbao.redis.reward.RewardKeys;
import hongbao.sdk.Activity;
import hongbao.sdk.Bonus;
import hongbao.sdk.RewardSdk;
import hongbao.sdk.User;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BiConsumer;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the red-packet rain on the reward pipeline: the campaign store (PostgreSQL), the prize
 * pools and the budget closing (Redis), wins issued through the reward SDK, the routes, the audit
 * in the reconciler and — with workers — the closer that returns ended campaigns' unspent budget
 * and the repair that rebuilds the pools from the reward book after Redis restarted.
 */
public final class CampaignWiring implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CampaignWiring.class);

  /** The scene of every rain reward. */
  public static final String SCENE = "rain";

  /**
   * Taps in flight at a round's end finish within this; then the budget goes back. A win's send may
   * wait the queues' whole {@link RewardQueues#SEND_TIMEOUT} and then find no queue to take it (its
   * trade marked unqueued): a closer that counted the round's wins before that would take the win
   * for issued, and never issue it.
   */
  public static final Duration RETURN_GRACE = RewardQueues.SEND_TIMEOUT.plusSeconds(15);

  private final Deque<AutoCloseable> resources = new ArrayDeque<>();
  private final CampaignStore store;
  private final Campaigns campaigns;
  private final CampaignService service;
  private final TapService taps;
  private final CampaignCloser closer;
  private final PoolRepair repair;
  private final CampaignAudit audit;
  private final CampaignRoutes routes;
  private final RedisPrizePools pools;
  private final PrizeRecovery recovery;
  private final PrizeIssuer issuer;
  private final Campaigns.Arming arming;

  private CampaignWiring(
      RedisLink redis,
      PostgresDatabase database,
      RewardWiring rewards,
      Clock clock,
      RandomGenerator.SplittableGenerator random,
      Duration grace,
      Duration returnDue,
      Duration editLead,
      MeterRegistry metrics) {
    var sdkParts = rewards.sdk().parts();
    store = database.campaigns();
    pools = new RedisPrizePools(redis, "hb");
    var types = sdkParts.types();
    var budget = sdkParts.budget();
    var closing = new RedisBudgetClosing(redis, new RewardKeys("hb"));
    RandomGenerator ids;
    RandomGenerator nonces;
    synchronized (random) {
      ids = random.split();
      nonces = new Synchronized(random.split());
    }
    recovery =
        new PrizeRecovery(
            pools,
            database.rewards()::byCampaign,
            CampaignService.issuing(types, budget, store, closing),
            nonces::nextLong);
    arming = CampaignService.arming(recovery);
    campaigns = new Campaigns(store, arming, clock, editLead);
    issuer = issuerOn(rewards.sdk());
    service =
        new CampaignService(store, campaigns, pools, types, budget, clock, new Synchronized(ids));
    taps = new TapService(campaigns, pools, issuer, recovery, clock, uniform(random));
    repair = new PoolRepair(redis::generation, store, campaigns, recovery, pools);
    closer =
        new CampaignCloser(
            store,
            campaigns,
            pools,
            issuer,
            budget,
            closing,
            database.rewards()::byCampaign,
            clock,
            grace);
    audit = new CampaignAudit(store, campaigns, pools, database.rewards(), types, clock, returnDue);
    var live =
        new CampaignLive(
            campaigns,
            pools,
            budget,
            types,
            rewards.throttle()::issuedLast,
            rewards::queueLags,
            clock);
    routes = new CampaignRoutes(service, taps, live, metrics);
    resources.push(routes);
  }

  public static CampaignWiring wire(
      RedisLink redis,
      PostgresDatabase database,
      RewardWiring rewards,
      Reconciler reconciler,
      Clock clock,
      RandomGenerator.SplittableGenerator random,
      Duration grace,
      Duration editLead,
      MeterRegistry metrics) {
    // A return still waiting this long after the end is stuck, as a packet's refund is.
    Duration returnDue = grace.plus(reconciler.limits().refundAfter());
    var wiring =
        new CampaignWiring(
            redis, database, rewards, clock, random, grace, returnDue, editLead, metrics);
    reconciler.add(wiring.audit);
    return wiring;
  }

  /**
   * Starts the closer: every {@code every}, ended campaigns give back their unspent budget; {@code
   * jitter} (seeded by the root) spreads its retries.
   */
  public void startWorkers(
      Duration every,
      BiConsumer<String, Invariants.InvariantViolation> onViolation,
      RandomGenerator jitter) {
    resources.push(Loop.start("campaign-closer", closer::closeOnce, every, onViolation, jitter));
    resources.push(
        Loop.start("campaign-pool-repair", repair::checkOnce, every, onViolation, jitter));
  }

  /**
   * Issues a win through the reward SDK (asynchronous crediting); the token is the client's.
   * Package-visible so that a crash test issues through this very issuer, on an SDK of its own.
   */
  static PrizeIssuer issuerOn(RewardSdk sdk) {
    return (Campaign campaign, Round round, String userId, String tradeNo, PrizeLine prize) ->
        sdk.sendBonus(
                new Activity(campaign.id(), SCENE),
                new User(userId),
                new Bonus(tradeNo, prize.type(), prize.amount(), desc(campaign, round)))
            .token();
  }

  /** "<name> #<round>", the name cut to fit the reward's 48 bytes of description. */
  static String desc(Campaign campaign, Round round) {
    String suffix = " #" + round.number();
    String name = campaign.name();
    while ((name + suffix).getBytes(StandardCharsets.UTF_8).length > 48) {
      name = name.substring(0, name.offsetByCodePoints(name.length(), -1));
    }
    return name + suffix;
  }

  /**
   * Uniform doubles for taps from one seeded root: each thread draws from its own generator split
   * off the root, so no lock sits on the tap path.
   */
  private static DoubleSupplier uniform(RandomGenerator.SplittableGenerator root) {
    ThreadLocal<RandomGenerator> perThread =
        ThreadLocal.withInitial(
            () -> {
              synchronized (root) {
                return root.split();
              }
            });
    return () -> perThread.get().nextDouble();
  }

  /** A generator behind a lock, for the rare campaign id. */
  private record Synchronized(RandomGenerator generator) implements RandomGenerator {
    @Override
    public synchronized long nextLong() {
      return generator.nextLong();
    }
  }

  public CampaignService service() {
    return service;
  }

  public TapService taps() {
    return taps;
  }

  public CampaignCloser closer() {
    return closer;
  }

  public PoolRepair repair() {
    return repair;
  }

  public CampaignAudit audit() {
    return audit;
  }

  public CampaignRoutes routes() {
    return routes;
  }

  public Campaigns campaigns() {
    return campaigns;
  }

  public CampaignStore store() {
    return store;
  }

  /**
   * The parts another instance's cache and taps share with this one (tests build a second {@link
   * Campaigns} over the same store to play an instance holding an older copy).
   */
  public RedisPrizePools pools() {
    return pools;
  }

  public PrizeRecovery recovery() {
    return recovery;
  }

  public PrizeIssuer issuer() {
    return issuer;
  }

  public Campaigns.Arming arming() {
    return arming;
  }

  @Override
  public void close() {
    while (!resources.isEmpty()) {
      try {
        resources.pop().close();
      } catch (Exception e) {
        LOG.warn("while stopping campaigns: {}", e.toString());
      }
    }
  }
}
