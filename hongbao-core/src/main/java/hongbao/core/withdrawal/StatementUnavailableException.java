package hongbao.core.withdrawal;

import hongbao.core.Unavailable;

/** The gateway's statement could not be fetched; reconciliation says so instead of guessing. */
public final class StatementUnavailableException extends Unavailable {
  private static final long serialVersionUID = 1L;

  public StatementUnavailableException(String message, Throwable cause) {
    super("gateway", message, cause);
  }
}
