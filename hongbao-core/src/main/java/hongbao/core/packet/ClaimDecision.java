package hongbao.core.packet;

/** What an operator decided about a refused claim. */
public enum ClaimDecision {
  /**
   * Honoured: the platform pays the claim's amount into the user's wallet from its own account (the
   * packet's escrow no longer holds it).
   */
  COMPENSATE,
  /** Not honoured (the receipt's grab was paid some other way, or the claim is not believed). */
  DISMISS
}
