package hongbao.redis.ops;

import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import io.lettuce.core.api.StatefulRedisConnection;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Degradation switches in the hash {@code hb:switches} ({@code "1"} on, {@code "0"} off; a missing
 * field is on, so an empty Redis means a fully working service). Reads come from a local copy, as
 * they sit on the grab path; a daemon thread refreshes it every {@code refresh} (default one
 * second), well inside the five seconds the API promises, on every instance sharing the Redis (on a
 * cluster the hash lives on one master like any key).
 *
 * <p>Thread-safe. The copy is an immutable map behind a volatile field; a refresh and a set are
 * serialised so that a refresh that read Redis before a set cannot overwrite the set's value.
 */
public final class RedisSwitches implements Switches, AutoCloseable {

  private static final System.Logger LOG = System.getLogger(RedisSwitches.class.getName());

  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(1);

  private final RedisLink redis;
  private final String key;
  private final ScheduledExecutorService refresher;
  private final Object writeLock = new Object();
  private volatile Map<Switch, Boolean> cached;

  public RedisSwitches(RedisLink redis, RedisKeys keys, Duration refresh) {
    this.redis = redis;
    this.key = keys.switches();
    this.cached = allEnabled();
    refreshQuietly();
    this.refresher =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "hongbao-switches-refresh");
              thread.setDaemon(true);
              return thread;
            });
    long periodMillis = Math.max(1, refresh.toMillis());
    refresher.scheduleWithFixedDelay(
        this::refreshQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** On one server, over a connection the caller owns. */
  public RedisSwitches(
      StatefulRedisConnection<String, String> connection, RedisKeys keys, Duration refresh) {
    this(RedisLink.of(connection), keys, refresh);
  }

  @Override
  public boolean enabled(Switch which) {
    return cached.get(which);
  }

  @Override
  public Map<Switch, Boolean> set(Switch which, boolean enabled) {
    synchronized (writeLock) {
      redis.sync().hset(key, which.key(), enabled ? "1" : "0");
      var next = new EnumMap<>(cached);
      next.put(which, enabled);
      cached = Collections.unmodifiableMap(next);
      return cached;
    }
  }

  @Override
  public Map<Switch, Boolean> all() {
    return cached;
  }

  /** Reads Redis now; the scheduled refresh calls this too. */
  public void refresh() {
    synchronized (writeLock) {
      Map<String, String> stored = redis.sync().hgetall(key);
      var next = new EnumMap<Switch, Boolean>(Switch.class);
      for (Switch which : Switch.values()) {
        next.put(which, !"0".equals(stored.get(which.key())));
      }
      cached = Collections.unmodifiableMap(next);
    }
  }

  /** A failed refresh keeps the last known switches: Redis trouble must not flip them. */
  private void refreshQuietly() {
    try {
      refresh();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "refreshing switches from Redis failed; keeping the last known", e);
    }
  }

  private static Map<Switch, Boolean> allEnabled() {
    var all = new EnumMap<Switch, Boolean>(Switch.class);
    for (Switch which : Switch.values()) {
      all.put(which, true);
    }
    return Collections.unmodifiableMap(all);
  }

  @Override
  public void close() {
    refresher.shutdownNow();
  }
}
