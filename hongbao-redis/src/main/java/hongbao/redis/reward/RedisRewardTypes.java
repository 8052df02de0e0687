package hongbao.redis.reward;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.reward.RewardKind;
import hongbao.core.reward.RewardType;
import hongbao.core.reward.RewardTypes;
import hongbao.core.reward.VirtualQueue;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisLink;
import io.lettuce.core.ScriptOutputType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reward types in the hash {@code hb:rw:types} (type -> {@code kind|rate|burst|fused|queue|url}),
 * read from a local copy that a daemon thread refreshes every {@code refresh} (one second by
 * default: within the five seconds the API promises). CASH exists even when never stored.
 *
 * <p>Thread-safe: the copy is an immutable map behind a volatile field; a refresh and a put are
 * serialised so a refresh that read Redis before a put cannot undo it.
 */
public final class RedisRewardTypes implements RewardTypes, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(RedisRewardTypes.class.getName());

  private static final LuaScript PUT = LuaScript.fromResource("type_put.lua");

  private final RedisLink redis;
  private final String key;
  private final ScheduledExecutorService refresher;
  private final Object writeLock = new Object();
  private volatile Map<String, RewardType> cached = Map.of("CASH", RewardType.CASH);

  public RedisRewardTypes(RedisLink redis, RewardKeys keys, Duration refresh) {
    this.redis = redis;
    this.key = keys.types();
    refreshQuietly();
    this.refresher =
        Executors.newSingleThreadScheduledExecutor(
            runnable ->
                Thread.ofPlatform().name("hongbao-reward-types").daemon().unstarted(runnable));
    long millis = Math.max(1, refresh.toMillis());
    refresher.scheduleWithFixedDelay(this::refreshQuietly, millis, millis, TimeUnit.MILLISECONDS);
  }

  @Override
  public Optional<RewardType> find(String type) {
    return Optional.ofNullable(cached.get(type));
  }

  /**
   * Stores a type; its kind, once set, never changes: rewards of the type in flight were reserved
   * for that kind (a coupon reserves nothing from the budget), so a coupon type turned CASH would
   * pay cash no budget ever held.
   *
   * @throws RejectedException CONFLICT for a type stored with another kind
   */
  @Override
  public Optional<RewardType> findFresh(String type) {
    Optional<RewardType> found = find(type);
    if (found.isPresent()) {
      return found;
    }
    refresh();
    return find(type);
  }

  @Override
  public RewardType put(RewardType type) {
    synchronized (writeLock) {
      String known = find(type.type()).map(t -> t.kind().name()).orElse("");
      String reply =
          PUT.run(
              redis, ScriptOutputType.VALUE, new String[] {key}, type.type(), encode(type), known);
      if (!"OK".equals(reply)) {
        throw new RejectedException(
            Rejection.CONFLICT,
            "reward type " + type.type() + " is " + reply + "; a type's kind never changes");
      }
      var next = new TreeMap<>(cached);
      next.put(type.type(), type);
      cached = Map.copyOf(next);
      return type;
    }
  }

  @Override
  public List<RewardType> all() {
    return new ArrayList<>(new TreeMap<>(cached).values());
  }

  /**
   * Reads Redis now; the scheduled refresh calls this too. A type this copy holds and Redis does
   * not was lost by Redis (a restart without its data, a failover to a replica that never had it):
   * types are never deleted. It is written back, unless another instance wrote the type meanwhile,
   * so that rewards of it are not refused as of an unknown type while any instance remembers it.
   */
  public void refresh() {
    synchronized (writeLock) {
      Map<String, String> stored = redis.sync().hgetall(key);
      boolean restored = false;
      for (RewardType known : cached.values()) {
        boolean builtIn = known.equals(RewardType.CASH);
        if (!builtIn && !stored.containsKey(known.type())) {
          LOG.log(Level.WARNING, "reward type " + known.type() + " lost by Redis: written back");
          redis.sync().hsetnx(key, known.type(), encode(known));
          restored = true;
        }
      }
      if (restored) {
        stored = redis.sync().hgetall(key);
      }
      var next = new TreeMap<String, RewardType>();
      next.put("CASH", RewardType.CASH);
      stored.forEach((type, value) -> next.put(type, decode(type, value)));
      cached = Map.copyOf(next);
    }
  }

  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "refreshing reward types failed; keeping the last known", e);
    }
  }

  static String encode(RewardType type) {
    return String.join(
        "|",
        type.kind().name(),
        Long.toString(type.ratePerSecond()),
        Long.toString(type.burst()),
        type.fused() ? "1" : "0",
        type.queue().name(),
        type.issuerUrl() == null ? "" : type.issuerUrl());
  }

  static RewardType decode(String type, String value) {
    String[] parts = value.split("\\|", 6);
    return new RewardType(
        type,
        RewardKind.valueOf(parts[0]),
        Long.parseLong(parts[1]),
        Long.parseLong(parts[2]),
        "1".equals(parts[3]),
        VirtualQueue.valueOf(parts[4]),
        parts[5].isEmpty() ? null : parts[5]);
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}
