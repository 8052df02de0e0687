package hongbao.postgres;

import hongbao.core.money.Amount;
import hongbao.core.packet.GrabView;
import hongbao.core.packet.OpenRefusedClaim;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.RefusedClaim;
import hongbao.core.packet.StuckRefund;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Packets and their settled history, read from the ledger's tables. Every list is paged or limited;
 * every query runs on an index (see {@code V1__ledger.sql} and {@code V2__packet.sql}).
 */
public final class PostgresPacketStore implements PacketStore {

  public static final int PAGE_MAX = 1_000;

  private final Transactions transactions;

  PostgresPacketStore(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public Optional<Packet> find(long packetId) {
    return transactions.read(
        "find packet " + packetId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT " + PacketRows.COLUMNS + " FROM packet WHERE id = ?")) {
            find.setLong(1, packetId);
            return PacketRows.readAll(find).stream().findFirst();
          }
        });
  }

  @Override
  public List<Packet> sentBy(String userId, Long beforeId, int limit) {
    checkLimit(limit);
    return transactions.read(
        "packets sent by " + userId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + PacketRows.COLUMNS
                      + " FROM packet WHERE sender = ? AND id < ? ORDER BY id DESC LIMIT ?")) {
            find.setString(1, userId);
            find.setLong(2, beforeId == null ? Long.MAX_VALUE : beforeId);
            find.setInt(3, limit);
            return PacketRows.readAll(find);
          }
        });
  }

  @Override
  public List<Long> paidTo(String userId, Long beforeId, int limit) {
    checkLimit(limit);
    return transactions.read(
        "packets paid to " + userId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT packet_id FROM transfer"
                      + " WHERE credit_account = ? AND kind = 'GRAB' AND packet_id < ?"
                      + " ORDER BY packet_id DESC LIMIT ?")) {
            find.setString(1, Sql.walletAccount(userId));
            find.setLong(2, beforeId == null ? Long.MAX_VALUE : beforeId);
            find.setInt(3, limit);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rows = find.executeQuery()) {
              while (rows.next()) {
                ids.add(rows.getLong(1));
              }
            }
            return ids;
          }
        });
  }

  @Override
  public List<Packet> unarmed(Instant createdBefore, Instant now, int limit) {
    checkLimit(limit);
    return transactions.read(
        "unarmed packets",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + PacketRows.COLUMNS
                      + " FROM packet WHERE NOT armed AND held_reason IS NULL"
                      + " AND created_at < ? AND expires_at > ?"
                      + " ORDER BY created_at, id LIMIT ?")) {
            find.setObject(1, Sql.timestamp(createdBefore));
            find.setObject(2, Sql.timestamp(now));
            find.setInt(3, limit);
            return PacketRows.readAll(find);
          }
        });
  }

  @Override
  public void markArmed(long packetId) {
    transactions.write(
        "mark packet " + packetId + " armed",
        connection -> {
          try (PreparedStatement mark =
              connection.prepareStatement(
                  "UPDATE packet SET armed = true WHERE id = ? AND NOT armed")) {
            mark.setLong(1, packetId);
            return mark.executeUpdate();
          }
        });
  }

  /**
   * Rows another sweeper is claiming are skipped, not waited for: each claim takes the oldest
   * packets nobody holds.
   */
  @Override
  public List<Packet> claimExpired(Instant now, Instant until, int limit) {
    checkLimit(limit);
    List<Packet> claimed =
        transactions.write(
            "claim expired packets",
            connection -> {
              List<Packet> rows;
              try (PreparedStatement claim =
                  connection.prepareStatement(
                      "UPDATE packet SET refund_retry_at = ?, closing_at = COALESCE(closing_at, ?)"
                          + " WHERE id IN (SELECT id FROM packet"
                          + " WHERE closed_at IS NULL AND expires_at <= ?"
                          + " AND (refund_retry_at IS NULL OR refund_retry_at <= ?)"
                          + " ORDER BY expires_at, id LIMIT ? FOR UPDATE SKIP LOCKED)"
                          + " RETURNING "
                          + PacketRows.COLUMNS)) {
                claim.setObject(1, Sql.timestamp(until));
                claim.setObject(2, Sql.timestamp(now));
                claim.setObject(3, Sql.timestamp(now));
                claim.setObject(4, Sql.timestamp(now));
                claim.setInt(5, limit);
                rows = PacketRows.readAll(claim);
              }
              // The mark commits only once no claim of these packets is being paid: a payment
              // holds its escrow's lock until it commits, so the sweeper's reads that follow see
              // it. Escrows in id order, as a payout batch locks them; the packets are never
              // waited for (skipped when locked), so no cycle can form.
              if (rows.isEmpty()) {
                return rows;
              }
              try (PreparedStatement lock =
                  connection.prepareStatement(
                      "SELECT 1 FROM account WHERE id = ANY(?) ORDER BY id FOR UPDATE")) {
                lock.setArray(
                    1,
                    connection.createArrayOf(
                        "text", rows.stream().map(p -> Sql.escrowAccount(p.id())).toArray()));
                lock.executeQuery().close();
              }
              return rows;
            });
    return claimed.stream()
        .sorted(Comparator.comparing(Packet::expiresAt).thenComparingLong(Packet::id))
        .toList();
  }

  @Override
  public void releaseClaims(Collection<Long> packetIds, Instant until) {
    if (packetIds.isEmpty()) {
      return;
    }
    transactions.write(
        "release claims of " + packetIds.size() + " packets",
        connection -> {
          try (PreparedStatement release =
              connection.prepareStatement(
                  "UPDATE packet SET refund_retry_at = NULL"
                      + " WHERE id = ANY(?) AND refund_retry_at = ? AND closed_at IS NULL")) {
            release.setArray(1, connection.createArrayOf("bigint", packetIds.toArray()));
            release.setObject(2, Sql.timestamp(until));
            return release.executeUpdate();
          }
        });
  }

  @Override
  public void markHeld(long packetId, String reason) {
    transactions.write(
        "hold packet " + packetId,
        connection -> {
          try (PreparedStatement hold =
              connection.prepareStatement(
                  "UPDATE packet SET held_reason = ? WHERE id = ? AND held_reason IS NULL")) {
            hold.setString(1, reason);
            hold.setLong(2, packetId);
            return hold.executeUpdate();
          }
        });
  }

  @Override
  public Set<Long> heldAmong(Collection<Long> packetIds) {
    return among(packetIds, "held", "held_reason IS NOT NULL");
  }

  @Override
  public Set<Long> closedAmong(Collection<Long> packetIds) {
    return among(packetIds, "closed", "closed_at IS NOT NULL");
  }

  @Override
  public Set<Long> knownAmong(Collection<Long> packetIds) {
    return among(packetIds, "known", "TRUE");
  }

  /** The ids among {@code packetIds} whose packet row meets {@code condition} (a fixed text). */
  private Set<Long> among(Collection<Long> packetIds, String what, String condition) {
    if (packetIds.isEmpty()) {
      return Set.of();
    }
    return transactions.read(
        what + " among " + packetIds.size() + " packets",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT id FROM packet WHERE id = ANY (?) AND " + condition)) {
            find.setArray(1, connection.createArrayOf("bigint", packetIds.toArray()));
            Set<Long> found = new HashSet<>();
            try (ResultSet rows = find.executeQuery()) {
              while (rows.next()) {
                found.add(rows.getLong(1));
              }
            }
            return found;
          }
        });
  }

  @Override
  public List<Packet> open(long afterId, int limit) {
    checkLimit(limit);
    return transactions.read(
        "open packets",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + PacketRows.COLUMNS
                      + " FROM packet WHERE closed_at IS NULL AND id > ? ORDER BY id LIMIT ?")) {
            find.setLong(1, afterId);
            find.setInt(2, limit);
            return PacketRows.readAll(find);
          }
        });
  }

  @Override
  public int postponeRefund(long packetId, IntFunction<Instant> retryAt, String reason) {
    return transactions.write(
        "postpone refund of packet " + packetId,
        connection -> {
          int attempts;
          try (PreparedStatement count =
              connection.prepareStatement(
                  "UPDATE packet SET refund_attempts = refund_attempts + 1,"
                      + " refund_error = coalesce(?, refund_error)"
                      + " WHERE id = ? RETURNING refund_attempts")) {
            count.setString(1, reason);
            count.setLong(2, packetId);
            try (ResultSet row = count.executeQuery()) {
              if (!row.next()) {
                return 0;
              }
              attempts = row.getInt(1);
            }
          }
          try (PreparedStatement retry =
              connection.prepareStatement("UPDATE packet SET refund_retry_at = ? WHERE id = ?")) {
            retry.setObject(1, Sql.timestamp(retryAt.apply(attempts)));
            retry.setLong(2, packetId);
            retry.executeUpdate();
          }
          return attempts;
        });
  }

  @Override
  public List<StuckRefund> stuckRefunds(Instant expiredBefore, int limit) {
    checkLimit(limit);
    return transactions.read(
        "stuck refunds",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT p.id, p.expires_at, coalesce(a.balance, 0), p.refund_attempts,"
                      + " p.refund_error, p.held_reason"
                      + " FROM packet p LEFT JOIN account a ON a.id = 'escrow:' || p.id"
                      + " WHERE p.closed_at IS NULL"
                      + " AND (p.expires_at < ? OR p.held_reason IS NOT NULL)"
                      + " ORDER BY p.expires_at, p.id LIMIT ?")) {
            find.setObject(1, Sql.timestamp(expiredBefore));
            find.setInt(2, limit);
            List<StuckRefund> stuck = new ArrayList<>();
            try (ResultSet rows = find.executeQuery()) {
              while (rows.next()) {
                stuck.add(
                    new StuckRefund(
                        rows.getLong(1),
                        rows.getObject(2, OffsetDateTime.class).toInstant(),
                        Amount.fen(rows.getLong(3)),
                        rows.getInt(4),
                        rows.getString(5),
                        rows.getString(6)));
              }
            }
            return stuck;
          }
        });
  }

  @Override
  public void recordRefusedClaim(RefusedClaim claim) {
    transactions.write(
        "refused claim on packet " + claim.packetId(),
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO refused_claim"
                      + " (packet_id, user_id, amount, reason, at, packet_created_at)"
                      + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            insert.setLong(1, claim.packetId());
            insert.setString(2, claim.userId());
            insert.setLong(3, claim.amount().fen());
            insert.setString(4, claim.reason());
            insert.setObject(5, Sql.timestamp(claim.at()));
            insert.setObject(6, Sql.timestamp(claim.packetCreatedAt()));
            return insert.executeUpdate();
          }
        });
  }

  @Override
  public List<OpenRefusedClaim> openRefusedClaims(int limit) {
    checkLimit(limit);
    return transactions.read(
        "refused claims",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT r.id, "
                      + REFUSED_CLAIM_COLUMNS
                      + " FROM refused_claim r WHERE "
                      + REFUSED_CLAIM_OPEN
                      + " ORDER BY r.at, r.packet_id, r.user_id LIMIT ?")) {
            find.setInt(1, limit);
            List<OpenRefusedClaim> claims = new ArrayList<>();
            try (ResultSet rows = find.executeQuery()) {
              while (rows.next()) {
                claims.add(new OpenRefusedClaim(rows.getLong("id"), refusedClaim(rows)));
              }
            }
            return claims;
          }
        });
  }

  /** The columns {@link #refusedClaim} reads, of {@code refused_claim r}. */
  static final String REFUSED_CLAIM_COLUMNS =
      "r.packet_id, r.user_id, r.amount, r.reason, r.at, r.packet_created_at";

  /**
   * Of {@code refused_claim r}: its grab has not been paid since, of the packet creation its
   * receipt named.
   */
  static final String REFUSED_CLAIM_UNPAID =
      """
      NOT EXISTS (
        SELECT 1 FROM transfer t JOIN packet p ON p.id = r.packet_id
        WHERE t.key = 'grab:' || r.packet_id || ':' || r.user_id
          AND (r.packet_created_at IS NULL
               OR r.packet_created_at = date_trunc('milliseconds', p.created_at)))
      """;

  /** A refused claim still reported: no operator decided it, and its grab is still unpaid. */
  private static final String REFUSED_CLAIM_OPEN = "r.decision IS NULL AND " + REFUSED_CLAIM_UNPAID;

  static RefusedClaim refusedClaim(ResultSet rows) throws SQLException {
    return new RefusedClaim(
        rows.getLong("packet_id"),
        rows.getString("user_id"),
        Amount.fen(rows.getLong("amount")),
        rows.getString("reason"),
        rows.getObject("at", OffsetDateTime.class).toInstant(),
        Sql.instant(rows, "packet_created_at"));
  }

  @Override
  public Map<String, Amount> paidGrabs(long packetId) {
    return transactions.read(
        "paid grabs of packet " + packetId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT user_id, amount FROM transfer WHERE packet_id = ? AND kind = 'GRAB'"
                      + " ORDER BY id")) {
            find.setLong(1, packetId);
            Map<String, Amount> grabs = new LinkedHashMap<>();
            try (ResultSet rows = find.executeQuery()) {
              while (rows.next()) {
                grabs.put(rows.getString(1), Amount.fen(rows.getLong(2)));
              }
            }
            return grabs;
          }
        });
  }

  @Override
  public List<GrabView> paidGrabViews(long packetId) {
    return transactions.read(
        "paid grab views of packet " + packetId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT user_id, amount, grabbed_at FROM transfer"
                      + " WHERE packet_id = ? AND kind = 'GRAB' ORDER BY grabbed_at, id")) {
            find.setLong(1, packetId);
            List<GrabView> grabs = new ArrayList<>();
            try (ResultSet rows = find.executeQuery()) {
              while (rows.next()) {
                Instant at = rows.getObject(3, OffsetDateTime.class).toInstant();
                grabs.add(new GrabView(rows.getString(1), Amount.fen(rows.getLong(2)), at, true));
              }
            }
            return grabs;
          }
        });
  }

  @Override
  public Amount refunded(long packetId) {
    return transactions.read(
        "refund of packet " + packetId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement("SELECT amount FROM transfer WHERE key = ?")) {
            find.setString(1, "refund:" + packetId);
            try (ResultSet row = find.executeQuery()) {
              return row.next() ? Amount.fen(row.getLong(1)) : Amount.ZERO;
            }
          }
        });
  }

  private static void checkLimit(int limit) {
    if (limit < 0 || limit > PAGE_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 0.." + PAGE_MAX);
    }
  }
}
