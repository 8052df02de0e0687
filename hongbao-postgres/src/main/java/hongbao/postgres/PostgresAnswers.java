package hongbao.postgres;

import hongbao.core.ledger.AnswerRetention;
import java.sql.PreparedStatement;
import java.time.Instant;

/** The stored idempotency answers, purged oldest first through the {@code created_at} index. */
final class PostgresAnswers implements AnswerRetention.Answers {

  /**
   * A bounded delete: the subquery picks at most {@code limit} rows by the age index, so one call
   * is one short statement however many rows have aged out.
   */
  private static final String DELETE_OLDEST =
      """
      DELETE FROM idempotency WHERE ctid IN (
          SELECT ctid FROM idempotency WHERE created_at < ? ORDER BY created_at LIMIT ?)
      """;

  private final Transactions transactions;

  PostgresAnswers(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public int deleteStoredBefore(Instant cutoff, int limit) {
    if (limit < 1 || limit > AnswerRetention.BATCH_MAX) {
      throw new IllegalArgumentException(
          "limit " + limit + " not in 1.." + AnswerRetention.BATCH_MAX);
    }
    return transactions.write(
        "purge idempotency answers",
        connection -> {
          try (PreparedStatement delete = connection.prepareStatement(DELETE_OLDEST)) {
            delete.setObject(1, Sql.timestamp(cutoff));
            delete.setInt(2, limit);
            return delete.executeUpdate();
          }
        });
  }
}
