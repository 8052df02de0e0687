package hongbao.redis.reward;

import hongbao.core.Invariants;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** A reward event as the fields of a stream entry: one-letter names keep entries small. */
final class RewardFields {

  private RewardFields() {}

  static Map<String, String> of(Reward reward, int attempt) {
    var fields = new LinkedHashMap<String, String>();
    fields.put("t", reward.tradeNo());
    fields.put("u", reward.userId());
    fields.put("c", reward.campaignId());
    fields.put("s", reward.scene());
    fields.put("y", reward.type());
    fields.put("a", Long.toString(reward.amount().fen()));
    fields.put("d", reward.desc());
    fields.put("w", Long.toString(reward.awardedAt().toEpochMilli()));
    fields.put("n", Integer.toString(attempt));
    return fields;
  }

  static Reward reward(Map<String, String> fields) {
    for (String name : new String[] {"t", "u", "c", "s", "y", "a", "d", "w"}) {
      Invariants.check(fields.get(name) != null, "reward entry without field %s: %s", name, fields);
    }
    return new Reward(
        fields.get("t"),
        fields.get("u"),
        fields.get("c"),
        fields.get("s"),
        fields.get("y"),
        Amount.fen(Long.parseLong(fields.get("a"))),
        fields.get("d"),
        Instant.ofEpochMilli(Long.parseLong(fields.get("w"))));
  }

  static int attempt(Map<String, String> fields) {
    String n = fields.get("n");
    return n == null ? 0 : Integer.parseInt(n);
  }
}
