package hongbao.redis.grab;

import hongbao.core.password.PasswordLock;
import hongbao.core.password.PasswordLocks;
import hongbao.core.password.PasswordMatch;
import hongbao.core.password.Reading;
import hongbao.redis.RedisKeys;
import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Reads a packet's 口令 lock from its meta hash (fields {@code pw}, {@code pwm}, {@code pwr}, written
 * by arm.lua) with one HMGET on the packet's shard. A packet armed before pinyin matching has no
 * {@code pwm}: it is matched exactly, as it was promised. Thread-safe.
 */
public final class RedisPasswordLocks implements PasswordLocks {

  private final StatefulRedisConnection<String, String> connection;
  private final RedisKeys keys;

  public RedisPasswordLocks(StatefulRedisConnection<String, String> connection, RedisKeys keys) {
    this.connection = connection;
    this.keys = keys;
  }

  @Override
  public CompletionStage<Optional<PasswordLock>> lockOf(long packetId) {
    return connection
        .async()
        .hmget(keys.meta(packetId), "pw", "pwm", "pwr")
        .thenApply(RedisPasswordLocks::toLock);
  }

  private static Optional<PasswordLock> toLock(List<KeyValue<String, String>> fields) {
    String key = fields.get(0).getValueOrElse("");
    if (key.isEmpty()) {
      return Optional.empty();
    }
    String mode = fields.get(1).getValueOrElse("");
    PasswordMatch match = PasswordMatch.parse(mode).orElse(PasswordMatch.EXACT);
    if (match instanceof PasswordMatch.Exact) {
      return Optional.of(PasswordLock.exact(key));
    }
    return Optional.of(
        new PasswordLock(key, match, Reading.decode(fields.get(2).getValueOrElse(""))));
  }
}
