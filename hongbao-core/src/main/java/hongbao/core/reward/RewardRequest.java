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

  /** Throws the first rule of the fields the request breaks. */
  public void check() {
    RewardRules.check(tradeNo, userId, campaignId, scene, type, amount, desc);
    RewardRules.checkText(desc);
  }

  /** The reward accepted at {@code at}; throws the first rule the request breaks. */
  public Reward at(Instant at) {
    check();
    return new Reward(tradeNo, userId, campaignId, scene, type, Amount.fen(amount), desc, at);
  }
}
