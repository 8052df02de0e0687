package hongbao.core.ledger;

/** Why money moved, as a wallet shows it. */
public enum EntryKind {
  TOPUP,
  SEND,
  GRAB,
  REFUND,
  /** A reward paid from a campaign's escrow. */
  REWARD
}
