package hongbao.core.money;

/**
 * An amount of money in fen (0.01 CNY). Every amount in hongbao is an integral number of fen: no
 * floating point and no rounding anywhere inside; conversion to yuan happens only at a display
 * edge.
 */
public record Amount(long fen) implements Comparable<Amount> {

  public static final Amount ZERO = new Amount(0);

  /**
   * Redis Lua numbers are doubles: every amount must stay far below 2^53 to be exact there. We keep
   * a much tighter bound so that sums of many amounts stay exact too.
   */
  public static final long MAX_FEN = 1L << 50;

  public Amount {
    if (fen < -MAX_FEN || fen > MAX_FEN) {
      throw new ArithmeticException("amount out of range: " + fen);
    }
  }

  public static Amount fen(long fen) {
    return new Amount(fen);
  }

  public Amount plus(Amount other) {
    return new Amount(Math.addExact(fen, other.fen));
  }

  public Amount minus(Amount other) {
    return new Amount(Math.subtractExact(fen, other.fen));
  }

  public Amount times(long factor) {
    return new Amount(Math.multiplyExact(fen, factor));
  }

  public boolean isPositive() {
    return fen > 0;
  }

  public boolean isNegative() {
    return fen < 0;
  }

  @Override
  public int compareTo(Amount other) {
    return Long.compare(fen, other.fen);
  }

  @Override
  public String toString() {
    return fen + " fen";
  }
}
