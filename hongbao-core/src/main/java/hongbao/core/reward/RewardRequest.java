package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.time.Instant;

/** A request to issue one reward, as a caller (the SDK, the HTTP API) hands it in. */
public record RewardRequest(
    String tradeNo,
    String userId,
    String campaignId,
    String scene,
    String type,
    long amount,
    String desc) {

  /** The reward accepted at {@code at}; throws the first rule the request breaks. */
  public Reward at(Instant at) {
    RewardRules.check(tradeNo, userId, campaignId, scene, type, amount, desc);
    RewardRules.checkText(desc);
    return new Reward(tradeNo, userId, campaignId, scene, type, Amount.fen(amount), desc, at);
  }
}
