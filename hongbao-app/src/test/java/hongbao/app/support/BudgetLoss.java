package hongbao.app.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import java.util.List;

/** Fault: Redis loses one campaign's reward budget, as a restart without its data would. */
public final class BudgetLoss {

  private BudgetLoss() {}

  /** Every budget key of the campaign, their trades, and its entry in the campaigns' layouts. */
  public static void lose(String redisUrl, String campaignId) {
    RedisClient client = RedisClient.create(redisUrl);
    try (var connection = client.connect()) {
      var redis = connection.sync();
      long lost = 0;
      for (String pattern : List.of("*:rwb:{" + campaignId + ":*", "*:rw:campaigns")) {
        ScanIterator<String> keys = ScanIterator.scan(redis, ScanArgs.Builder.matches(pattern));
        while (keys.hasNext()) {
          String key = keys.next();
          lost += key.endsWith(":rw:campaigns") ? redis.hdel(key, campaignId) : redis.del(key);
        }
      }
      assertThat(lost).as("the campaign's layout and budget keys").isGreaterThan(1);
    } finally {
      client.shutdown();
    }
  }
}
