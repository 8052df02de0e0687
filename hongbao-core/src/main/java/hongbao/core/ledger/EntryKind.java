package hongbao.core.ledger;

/** Why money moved, as a wallet shows it. */
public enum EntryKind {
  TOPUP,
  SEND,
  GRAB,
  REFUND,
  /** Money left the wallet for a withdrawal in flight. */
  WITHDRAW,
  /** A failed withdrawal's money came back. */
  WITHDRAW_RETURN,
  /** A reward paid from a campaign's escrow. */
  REWARD,
  /** A refused claim of a grab that an operator honoured, paid from the platform's account. */
  COMPENSATION
}
