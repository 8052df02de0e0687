package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.resource.Delay;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * However long Redis stays away, a lost connection tries again at least once a second: the wait
 * after the sixtieth failed attempt is as short as after the sixth. Lettuce's default would wait up
 * to 30 s, refusing every grab for that long after Redis is back.
 */
class ReconnectDelayTest {

  @Test
  void everyWait_staysBetweenTenMillisAndOneSecond_afterAnyNumberOfAttempts() {
    for (int attempt = 1; attempt <= 64; attempt++) {
      for (int draw = 0; draw < 50; draw++) {
        Duration wait = RedisLink.RECONNECT_DELAY.createDelay(attempt);
        assertThat(wait)
            .as("attempt %d", attempt)
            .isBetween(Duration.ofMillis(10), Duration.ofSeconds(1));
      }
    }
    assertThat(Delay.exponential().createDelay(20))
        .as("the default this replaces")
        .isGreaterThan(Duration.ofSeconds(10));
  }

  @Test
  void laterWaits_areDrawnAtRandom_soInstancesDoNotReconnectInStep() {
    var waits = new java.util.HashSet<Duration>();
    for (int draw = 0; draw < 50; draw++) {
      waits.add(RedisLink.RECONNECT_DELAY.createDelay(10));
    }
    assertThat(waits).hasSizeGreaterThan(10);
  }
}
