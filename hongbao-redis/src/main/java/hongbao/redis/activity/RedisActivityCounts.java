package hongbao.redis.activity;

import hongbao.core.activity.ActivityCounts;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisFaults;
import hongbao.redis.RedisKeys;
import hongbao.redis.RedisLink;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An activity's counts on Redis: the hash {@code {sNNN}:a:<activity>} from user id to the packets
 * of the activity the user grabbed, which grab.lua checks and extends in the grab's own step (see
 * {@link RedisKeys#activityGrabs}). Restores go through activity.lua, a union that is safe to
 * repeat. Every command names one key, so a cluster routes it to the activity's slot. Thread-safe.
 */
public final class RedisActivityCounts implements ActivityCounts {

  /**
   * The field that marks an activity's counts as whole, holding the run id of the server that held
   * them when they were restored ({@link RedisLink#generationOf}); never a user id (no '#' in
   * those).
   */
  static final String PRESENT = "#";

  /** Users per restore call: bounded so that one script call stays a reasonable command. */
  static final int RESTORE_CHUNK = 1_000;

  private static final LuaScript RESTORE = LuaScript.fromResource("activity.lua");

  private final RedisLink redis;
  private final RedisKeys keys;
  private final Duration keyGrace;
  private final Clock clock;

  /**
   * @param keyGrace how long packet keys outlive their expiry (the counts live at least as long)
   */
  public RedisActivityCounts(RedisLink redis, RedisKeys keys, Duration keyGrace, Clock clock) {
    this.redis = redis;
    this.keys = keys;
    this.keyGrace = keyGrace;
    this.clock = clock;
    RESTORE.load(redis);
  }

  /** On one server, over a connection the caller owns. */
  public RedisActivityCounts(
      StatefulRedisConnection<String, String> connection,
      RedisKeys keys,
      Duration keyGrace,
      Clock clock) {
    this(RedisLink.of(connection), keys, keyGrace, clock);
  }

  @Override
  public boolean whole(long activityId) {
    String key = keys.activityGrabs(activityId);
    String generation = redis.generationOf(key);
    try {
      return generation.equals(redis.sync().hget(key, PRESENT));
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }

  /**
   * Marks the counts whole with the run id read before the first call: a restart during the restore
   * leaves a mark that no longer matches, and the next arming restores again.
   */
  @Override
  public void restore(long activityId, Map<String, List<Long>> grabs, Instant expiresAt) {
    String[] key = {keys.activityGrabs(activityId)};
    String generation = redis.generationOf(key[0]);
    String now = Long.toString(clock.millis());
    String keepUntil = Long.toString(expiresAt.plus(keyGrace).toEpochMilli());
    var users = new ArrayList<>(grabs.entrySet());
    // At least one call, the last: it marks the counts whole, even when there is nothing to add.
    int calls = Math.max(1, (users.size() + RESTORE_CHUNK - 1) / RESTORE_CHUNK);
    for (int call = 0; call < calls; call++) {
      boolean last = call == calls - 1;
      var args = new ArrayList<String>(3 + 2 * RESTORE_CHUNK);
      args.add(now);
      args.add(keepUntil);
      args.add(last ? generation : "");
      for (var entry :
          users.subList(call * RESTORE_CHUNK, Math.min(users.size(), (call + 1) * RESTORE_CHUNK))) {
        args.add(entry.getKey());
        args.add(String.join(",", entry.getValue().stream().map(String::valueOf).toList()));
      }
      RESTORE.run(redis, ScriptOutputType.INTEGER, key, args.toArray(String[]::new));
    }
  }

  @Override
  public Page page(long activityId, String cursor, int limit) {
    String key = keys.activityGrabs(activityId);
    try {
      var sync = redis.sync();
      ScanCursor at = cursor == null ? ScanCursor.INITIAL : ScanCursor.of(cursor);
      var users = new ArrayList<UserCount>();
      // HSCAN's COUNT is a hint: loop until the page is full or the scan is over.
      MapScanCursor<String, String> scan;
      do {
        scan = sync.hscan(key, at, ScanArgs.Builder.limit(limit - users.size()));
        scan.getMap()
            .forEach(
                (user, packets) -> {
                  if (!PRESENT.equals(user)) {
                    users.add(new UserCount(user, packets.split(",").length));
                  }
                });
        at = scan;
      } while (!scan.isFinished() && users.size() < limit);
      long userCount = Math.max(0, sync.hlen(key) - (sync.hexists(key, PRESENT) ? 1 : 0));
      return new Page(users, scan.isFinished() ? null : scan.getCursor(), userCount);
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }
}
