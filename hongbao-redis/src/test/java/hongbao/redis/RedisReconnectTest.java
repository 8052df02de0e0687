package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.embedded.RedisServer;

/**
 * A link is back within about a second of Redis's return, however long Redis was away: its
 * reconnect waits are capped at 1 s ({@link RedisLink#RECONNECT_DELAY}). Lettuce's default doubles
 * its wait from 1 ms after every refused attempt: its twelfth attempt comes ~5 s into an outage and
 * the thirteenth ~9 s in, so after an outage of 5.5 s it answers ~3.5 s after Redis is back (3.5 s
 * measured with the default put back; 0.7 s with the cap), every grab refused meanwhile. The outage
 * is real time (Lettuce's reconnect timer runs on the wall clock), on a private server.
 */
class RedisReconnectTest {

  private static final Duration OUTAGE = Duration.ofMillis(5_500);

  @Test
  void afterAnOutage_aCommandWaitingForRedis_isAnsweredSoonAfterItReturns(@TempDir Path dir)
      throws Exception {
    int port = TestRedis.freePort();
    RedisServer server = TestRedis.embeddedServer(dir, port);
    server.start();
    try (RedisLink link = RedisLink.open("redis://127.0.0.1:" + port)) {
      assertThat(link.sync().ping()).isEqualTo("PONG");

      server.stop();
      Thread.sleep(OUTAGE.toMillis());
      // Queued while disconnected (Lettuce's default), sent once the link is back.
      var ping = link.async().ping().toCompletableFuture();
      server.start();
      long returned = System.nanoTime();

      assertThat(ping.get(20, TimeUnit.SECONDS)).isEqualTo("PONG");
      long backMillis = (System.nanoTime() - returned) / 1_000_000;
      // At most one capped wait (1 s) after the return, with room for a slow machine.
      assertThat(backMillis).as("ms from Redis's return to the answer").isLessThan(2_500L);
    } finally {
      server.stop();
    }
  }
}
