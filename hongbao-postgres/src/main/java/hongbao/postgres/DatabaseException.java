package hongbao.postgres;

import java.sql.SQLException;

/**
 * The database failed us: unreachable, timed out, or refused a statement for a reason that is not a
 * domain outcome. Callers retry later (a payout worker leaves the batch unacknowledged).
 */
public final class DatabaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Carries the server's own words (their first line, e.g. "ERROR: ... violates check constraint
   * ..."): the message is what an operator reads, in a log line or as a refund's kept reason.
   */
  public DatabaseException(String message, SQLException cause) {
    super(message + " [SQLState " + cause.getSQLState() + ": " + firstLine(cause) + "]", cause);
  }

  private static String firstLine(SQLException cause) {
    String text = String.valueOf(cause.getMessage()).strip();
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end).strip();
  }

  public DatabaseException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The SQLState of the underlying failure, or null when it was not the database's answer. */
  public String sqlState() {
    return getCause() instanceof SQLException sql ? sql.getSQLState() : null;
  }
}
