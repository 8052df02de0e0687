package hongbao.redis.reward;

import hongbao.core.reward.FailureLog;
import hongbao.core.reward.Reward;
import hongbao.redis.RedisLink;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.util.ArrayList;
import java.util.List;

/** The failure stream: one entry per reward given up on, with the reason. Thread-safe. */
public final class RedisFailureLog implements FailureLog {

  private final RedisLink redis;
  private final RewardKeys keys;

  public RedisFailureLog(RedisLink redis, RewardKeys keys) {
    this.redis = redis;
    this.keys = keys;
  }

  @Override
  public void fail(Reward reward, String reason) {
    var fields = RewardFields.of(reward, 0);
    fields.put("r", reason);
    redis.sync().xadd(keys.failures(), fields);
  }

  @Override
  public List<String> entries(int max) {
    var lines = new ArrayList<String>();
    for (StreamMessage<String, String> entry : read(max)) {
      var body = entry.getBody();
      lines.add(
          "%s of %s %s to %s: %s"
              .formatted(
                  body.get("t"), body.get("a"), body.get("y"), body.get("u"), body.get("r")));
    }
    return lines;
  }

  @Override
  public List<String> tradeNos(int max) {
    return read(max).stream().map(e -> e.getBody().get("t")).toList();
  }

  @Override
  public List<Failure> failures(int max) {
    return read(max).stream()
        .map(e -> new Failure(e.getId(), RewardFields.reward(e.getBody()), e.getBody().get("r")))
        .toList();
  }

  @Override
  public boolean forget(String id) {
    return redis.sync().xdel(keys.failures(), id) > 0;
  }

  private List<StreamMessage<String, String>> read(int max) {
    return redis.sync().xrange(keys.failures(), Range.unbounded(), Limit.from(max));
  }
}
