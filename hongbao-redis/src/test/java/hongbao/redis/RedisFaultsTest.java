package hongbao.redis;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.Unavailable;
import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Redis's "not now" replies are outages wherever they meet the service: a worker waits them out as
 * the HTTP layer answers 503. A replica refusing writes after a failover, memory full, persistence
 * failing, a script running long: each passed through as a bug before, and a worker treated it so.
 */
class RedisFaultsTest {

  @Test
  void notNowReplies_areOutages() {
    for (String reply :
        new String[] {
          "READONLY You can't write against a read only replica.",
          "OOM command not allowed when used memory > 'maxmemory'.",
          "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist",
          "BUSY Redis is busy running a script.",
          "NOREPLICAS Not enough good replicas to write.",
          "LOADING Redis is loading the dataset in memory",
          "ERR Error running script (call to f_1): @user_script:9: -OOM command not allowed"
        }) {
      assertThat(RedisFaults.translate(new RedisCommandExecutionException(reply)))
          .as(reply)
          .isInstanceOf(Unavailable.class);
    }
  }

  @Test
  void otherReplies_areTheCallersBug_andPassThrough() {
    var wrongType =
        new RedisCommandExecutionException(
            "WRONGTYPE Operation against a key holding the wrong kind of value");
    assertThat(RedisFaults.translate(wrongType)).isSameAs(wrongType);
    var scriptError =
        new RedisCommandExecutionException("ERR user_script:3: attempt to compare nil with number");
    assertThat(RedisFaults.translate(scriptError)).isSameAs(scriptError);
    var groupExists =
        new RedisCommandExecutionException("BUSYGROUP Consumer Group name already exists");
    assertThat(RedisFaults.translate(groupExists)).as("not BUSY").isSameAs(groupExists);
  }
}
