package hongbao.core.ledger;

/** What the ledger did with a claim it was asked to pay from the escrow directly. */
public enum ClaimPayment {
  /** Paid now, or paid before (the grab's transfer key was posted): the grab has its share. */
  PAID,
  /** Nothing moved: the escrow cannot spare the share beyond what it must keep. */
  NO_ROOM,
  /**
   * Nothing moved: a sweeper is closing the packet and has not refunded it yet. The remainder it
   * counted did not count this grab; weighed again once the refund is done, the claim is paid only
   * from what the escrow holds beyond the payouts still owed.
   */
  CLOSING
}
