package hongbao.redis.activity;

import hongbao.core.activity.ActivityCounts;
import hongbao.redis.LuaScript;
import hongbao.redis.RedisFaults;
import hongbao.redis.RedisKeys;
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
 * repeat. Thread-safe.
 */
public final class RedisActivityCounts implements ActivityCounts {

  /** The field that marks an activity's counts as present; never a user id (no '#' in those). */
  static final String PRESENT = "#";

  /** Users per restore call: bounded so that one script call stays a reasonable command. */
  static final int RESTORE_CHUNK = 1_000;

  private static final LuaScript RESTORE = LuaScript.fromResource("activity.lua");

  private final StatefulRedisConnection<String, String> connection;
  private final RedisKeys keys;
  private final Duration keyGrace;
  private final Clock clock;

  /**
   * @param keyGrace how long packet keys outlive their expiry (the counts live at least as long)
   */
  public RedisActivityCounts(
      StatefulRedisConnection<String, String> connection,
      RedisKeys keys,
      Duration keyGrace,
      Clock clock) {
    this.connection = connection;
    this.keys = keys;
    this.keyGrace = keyGrace;
    this.clock = clock;
    RESTORE.load(connection);
  }

  @Override
  public boolean present(long activityId) {
    try {
      return connection.sync().hexists(keys.activityGrabs(activityId), PRESENT);
    } catch (RuntimeException e) {
      throw RedisFaults.translate(e);
    }
  }

  @Override
  public void restore(long activityId, Map<String, List<Long>> grabs, Instant expiresAt) {
    String[] key = {keys.activityGrabs(activityId)};
    String now = Long.toString(clock.millis());
    String keepUntil = Long.toString(expiresAt.plus(keyGrace).toEpochMilli());
    var args = new ArrayList<String>(2 + 2 * RESTORE_CHUNK);
    for (var entry : grabs.entrySet()) {
      if (args.isEmpty()) {
        args.add(now);
        args.add(keepUntil);
      }
      args.add(entry.getKey());
      args.add(String.join(",", entry.getValue().stream().map(String::valueOf).toList()));
      if (args.size() >= 2 + 2 * RESTORE_CHUNK) {
        RESTORE.run(connection, ScriptOutputType.INTEGER, key, args.toArray(String[]::new));
        args.clear();
      }
    }
    if (args.isEmpty()) {
      args.add(now);
      args.add(keepUntil);
    }
    RESTORE.run(connection, ScriptOutputType.INTEGER, key, args.toArray(String[]::new));
  }

  @Override
  public Page page(long activityId, String cursor, int limit) {
    String key = keys.activityGrabs(activityId);
    try {
      var sync = connection.sync();
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
