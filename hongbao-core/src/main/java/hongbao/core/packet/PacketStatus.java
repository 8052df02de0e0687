package hongbao.core.packet;

/** Where a packet stands, as the details page shows it. */
public enum PacketStatus {
  /** Shares left and not expired. */
  ACTIVE,
  /** Every share taken (also after its expiry time). */
  EMPTY,
  /** Expired with shares left; the remainder goes back to the sender. */
  EXPIRED
}
