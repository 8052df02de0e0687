package hongbao.postgres;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Conversions between Java values and what the PostgreSQL driver binds. PostgreSQL keeps
 * microseconds: an {@link Instant} with nanoseconds comes back truncated.
 */
final class Sql {

  private Sql() {}

  static OffsetDateTime timestamp(Instant instant) {
    return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  static Instant instant(ResultSet row, String column) throws SQLException {
    OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  /** Micros since the epoch, for binding many instants as one bigint[] array. */
  static Long epochMicros(Instant instant) {
    return instant == null ? null : ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  static String walletAccount(String userId) {
    return "wallet:" + userId;
  }

  static String escrowAccount(long packetId) {
    return "escrow:" + packetId;
  }

  /** The packet of an {@link #escrowAccount}. */
  static long packetOfEscrow(String account) {
    return Long.parseLong(account.substring("escrow:".length()));
  }

  static final String SYSTEM_ACCOUNT = "system";

  static final String UNIQUE_VIOLATION = "23505";
  static final String CHECK_VIOLATION = "23514";
}
