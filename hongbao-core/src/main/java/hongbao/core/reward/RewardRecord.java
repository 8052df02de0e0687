package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.time.Instant;

/** A reward as the reward book (the truth about issuing) holds it: one row per tradeNo. */
public record RewardRecord(
    Reward reward, String digest, RewardKind kind, Status status, Instant settledAt, String note) {

  public enum Status {
    /** Issued: money in the wallet, or the coupon or item with its owner. */
    CREDITED,
    /** The issuer refused it for good; it is in the failure stream, its budget still reserved. */
    FAILED
  }

  public Amount amount() {
    return reward.amount();
  }
}
