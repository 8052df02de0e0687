package hongbao.core;

/**
 * Checks that must always hold. A failure is a bug, never an expected outcome: it fails loudly and
 * is never caught to carry on.
 */
public final class Invariants {

  private Invariants() {}

  public static void check(boolean condition, String format, Object... args) {
    if (!condition) {
      throw new InvariantViolation(String.format(format, args));
    }
  }

  /**
   * Thrown when an invariant does not hold. An {@link Error}, not an exception: the loops and
   * handlers that retry outages catch {@link RuntimeException} (or only {@link
   * hongbao.core.Unavailable}), and a bug must not be retried like an outage. It stops the loop
   * that found it.
   */
  public static final class InvariantViolation extends Error {
    private static final long serialVersionUID = 1L;

    public InvariantViolation(String message) {
      super(message);
    }
  }
}
