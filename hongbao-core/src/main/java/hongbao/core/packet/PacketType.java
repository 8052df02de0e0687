package hongbao.core.packet;

/** How a packet's amount is shared and who may grab it. */
public enum PacketType {
  /** Random shares drawn by the configured split policy. */
  LUCKY,
  /** Equal shares; the amount divides by the count. */
  FIXED,
  /** Only the listed recipients may grab, one share each. */
  EXCLUSIVE
}
