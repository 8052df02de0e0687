package hongbao.core.withdrawal;

/** The gateway's statement could not be fetched; reconciliation says so instead of guessing. */
public final class StatementUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StatementUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
