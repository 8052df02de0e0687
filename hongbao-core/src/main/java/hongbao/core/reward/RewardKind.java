package hongbao.core.reward;

/** What a reward is paid in: money from the ledger, or a coupon or item from an issuer. */
public enum RewardKind {
  CASH,
  COUPON,
  ITEM
}
