package hongbao.core.campaign;

/**
 * One line of a round's prizes: {@code count} prizes of {@code amount} (fen for a CASH type, units
 * of a coupon or item otherwise) of reward type {@code type}.
 */
public record PrizeLine(String type, long amount, long count) {

  /** What the line costs the budget when its type is paid in cash. */
  public long cashValue() {
    return Math.multiplyExact(amount, count);
  }
}
