package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Unavailable;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;

/**
 * A command whose reply the network lost is not sent again when the link reconnects: Redis ran it
 * once, and its caller hears of an outage. The fault is real: a proxy between the link and Redis
 * lets the command through, throws its reply away and cuts the connection.
 */
class SentOnceTest {

  @Test
  void aScriptWhoseReplyWasLost_ranOnce_andItsCallerHearsOfAnOutage() {
    try (var network = TestRedis.proxy();
        RedisLink link = RedisLink.open(TestRedis.url(network))) {
      String key = "sent-once:" + System.nanoTime();
      assertThat(link.sync().ping()).isEqualTo("PONG");

      network.dropReplyTo(key);

      assertThatThrownBy(
              () ->
                  link.sync()
                      .<Long>eval(
                          "return redis.call('INCR', KEYS[1])", ScriptOutputType.INTEGER, key))
          .satisfies(e -> assertThat(RedisFaults.translate(e)).isInstanceOf(Unavailable.class));
      // The next command waits for the link to come back, then goes once.
      assertThat(link.sync().get(key)).as("the script ran once").isEqualTo("1");
      assertThat(TestRedis.link().sync().del(key)).isEqualTo(1);
    }
  }
}
