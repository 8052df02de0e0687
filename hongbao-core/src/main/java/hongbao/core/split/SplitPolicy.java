package hongbao.core.split;

import java.util.random.RandomGenerator;

/**
 * How a packet's amount is cut into shares. Every policy keeps the sum exact, gives every share at
 * least one fen and is deterministic for a given random source.
 */
public interface SplitPolicy {

  /** The policy's name in configuration and on the command line. */
  String name();

  /**
   * Cuts {@code amountFen} into {@code count} shares, in the order they will be handed out.
   *
   * @throws IllegalArgumentException when the request is impossible (amount below count, or a cap
   *     too small for the amount)
   */
  long[] split(long amountFen, int count, RandomGenerator random);
}
