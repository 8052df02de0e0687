package hongbao.redis.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.ops.Switch;
import hongbao.redis.RedisKeys;
import hongbao.redis.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RedisSwitchesTest {

  StatefulRedisConnection<String, String> connection;
  RedisKeys keys;

  @BeforeEach
  void connect() {
    connection = TestRedis.connect();
    keys = TestRedis.freshKeys(8);
  }

  @AfterEach
  void cleanUp() {
    TestRedis.deleteAll(connection, keys);
    connection.close();
  }

  @Test
  void enabled_whenNothingStored_isTrueForEverySwitch() {
    try (var switches = new RedisSwitches(connection, keys, Duration.ofSeconds(1))) {
      assertThat(switches.all())
          .isEqualTo(
              Map.of(
                  Switch.SENDING,
                  true,
                  Switch.GRABBING,
                  true,
                  Switch.PAYOUTS,
                  true,
                  Switch.REWARDS,
                  true));
    }
  }

  @Test
  void enabled_whenStoredOffBeforeStart_isFalseFromTheStart() {
    connection.sync().hset(keys.switches(), "grabbing", "0");
    try (var switches = new RedisSwitches(connection, keys, Duration.ofSeconds(1))) {
      assertThat(switches.enabled(Switch.GRABBING)).isFalse();
      assertThat(switches.enabled(Switch.SENDING)).isTrue();
    }
  }

  @Test
  void set_takesEffectAtOnceHereAndWithinARefreshOnAnotherInstance() {
    try (var here = new RedisSwitches(connection, keys, Duration.ofMillis(100));
        var there = new RedisSwitches(connection, keys, Duration.ofMillis(100))) {
      Map<Switch, Boolean> after = here.set(Switch.PAYOUTS, false);

      assertThat(after).containsEntry(Switch.PAYOUTS, false).containsEntry(Switch.SENDING, true);
      assertThat(here.enabled(Switch.PAYOUTS)).isFalse();
      assertThat(connection.sync().hget(keys.switches(), "payouts")).isEqualTo("0");
      await().atMost(Duration.ofSeconds(5)).until(() -> !there.enabled(Switch.PAYOUTS));

      here.set(Switch.PAYOUTS, true);
      assertThat(here.enabled(Switch.PAYOUTS)).isTrue();
      await().atMost(Duration.ofSeconds(5)).until(() -> there.enabled(Switch.PAYOUTS));
    }
  }
}
