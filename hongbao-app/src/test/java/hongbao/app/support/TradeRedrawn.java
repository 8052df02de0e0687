package hongbao.app.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;

/**
 * Fault: Redis rolled back past a reward's trade (an AOF that lost its tail), and another request
 * then reserved the same tradeNo at another cost, as a rain's win number drawn again after the loss
 * does with another prize. The trade's record and its budget key's reserved sum are rewritten as
 * that request would have left them; the reward book keeps the reward it credited first.
 */
public final class TradeRedrawn {

  private TradeRedrawn() {}

  public static void atCost(String redisUrl, String campaignId, String tradeNo, long cost) {
    RedisClient client = RedisClient.create(redisUrl);
    try (var connection = client.connect()) {
      var redis = connection.sync();
      ScanIterator<String> keys =
          ScanIterator.scan(redis, ScanArgs.Builder.matches("*:rwb:{" + campaignId + ":*}:t"));
      int found = 0;
      while (keys.hasNext()) {
        String trades = keys.next();
        String record = redis.hget(trades, tradeNo);
        if (record == null) {
          continue;
        }
        // "digest|cost|accepted at|token", then flags: another request's digest, another cost.
        String[] parts = record.split("\\|", 3);
        redis.hset(trades, tradeNo, "another-request|" + cost + "|" + parts[2]);
        String budget = trades.substring(0, trades.length() - ":t".length());
        redis.hincrby(budget, "used", cost - Long.parseLong(parts[1]));
        found++;
      }
      assertThat(found).as("the trade of " + tradeNo).isEqualTo(1);
    } finally {
      client.shutdown();
    }
  }
}
