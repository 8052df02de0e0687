package hongbao.postgres;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.RefusedClaim;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * An operator's resolution of a refused claim, in the caller's transaction: the packet's escrow and
 * then the claim's row are locked, so two operators resolving it at once are answered one after the
 * other, and the second finds it decided. A compensation moves the claim's amount from the system
 * account to the user's wallet under the key {@code compensation:<claim id>}, so it is paid once
 * whatever happens.
 */
final class RefusedClaimResolutions {

  private static final String FIND =
      "SELECT "
          + PostgresPacketStore.REFUSED_CLAIM_COLUMNS
          + ", r.decision, r.decision_note, r.decided_at, NOT "
          + PostgresPacketStore.REFUSED_CLAIM_UNPAID
          + " AS paid FROM refused_claim r WHERE r.id = ? FOR UPDATE";

  private RefusedClaimResolutions() {}

  static Optional<ClaimResolution> resolve(
      Connection connection, long claimId, ClaimDecision decision, String note, Instant at)
      throws SQLException {
    Long packetId = packetOf(connection, claimId);
    if (packetId == null) {
      return Optional.empty();
    }
    // Before the claim's grab is read as unpaid: a payout of it in flight (a worker's batch polled
    // before the loss that refused the claim) holds the escrow's lock until it commits, and is
    // then seen. One that starts after the compensation would pay the grab twice; a worker's
    // batch does not outlive a loss by the time an operator takes to decide.
    try (PreparedStatement lock =
        connection.prepareStatement("SELECT 1 FROM account WHERE id = ? FOR UPDATE")) {
      lock.setString(1, Sql.escrowAccount(packetId));
      lock.executeQuery().close();
    }
    try (PreparedStatement find = connection.prepareStatement(FIND)) {
      find.setLong(1, claimId);
      try (ResultSet row = find.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        RefusedClaim claim = PostgresPacketStore.refusedClaim(row);
        String decided = row.getString("decision");
        if (decided != null) {
          ClaimResolution earlier =
              resolution(
                  claimId,
                  claim,
                  ClaimDecision.valueOf(decided),
                  row.getString("decision_note"),
                  Sql.instant(row, "decided_at"));
          if (earlier.decision() != decision) {
            throw new RejectedException(
                Rejection.CONFLICT,
                "refused claim %d was resolved: %s".formatted(claimId, earlier.decision()));
          }
          return Optional.of(earlier);
        }
        if (row.getBoolean("paid")) {
          throw new RejectedException(
              Rejection.CONFLICT,
              "the grab of refused claim %d has been paid since".formatted(claimId));
        }
        if (decision == ClaimDecision.COMPENSATE) {
          compensate(connection, claimId, claim);
        }
        record(connection, claimId, decision, note, at);
        return Optional.of(resolution(claimId, claim, decision, note, at));
      }
    }
  }

  private static Long packetOf(Connection connection, long claimId) throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement("SELECT packet_id FROM refused_claim WHERE id = ?")) {
      find.setLong(1, claimId);
      try (ResultSet row = find.executeQuery()) {
        return row.next() ? row.getLong(1) : null;
      }
    }
  }

  private static void compensate(Connection connection, long claimId, RefusedClaim claim)
      throws SQLException {
    SystemCredit.post(
        connection,
        "compensation:" + claimId,
        "COMPENSATION",
        claim.userId(),
        claim.packetId(),
        claim.amount());
  }

  private static void record(
      Connection connection, long claimId, ClaimDecision decision, String note, Instant at)
      throws SQLException {
    try (PreparedStatement decide =
        connection.prepareStatement(
            "UPDATE refused_claim SET decision = ?, decision_note = ?, decided_at = ?"
                + " WHERE id = ?")) {
      decide.setString(1, decision.name());
      decide.setString(2, note);
      decide.setObject(3, Sql.timestamp(at));
      decide.setLong(4, claimId);
      decide.executeUpdate();
    }
  }

  private static ClaimResolution resolution(
      long claimId, RefusedClaim claim, ClaimDecision decision, String note, Instant at) {
    Amount paid = decision == ClaimDecision.COMPENSATE ? claim.amount() : Amount.ZERO;
    return new ClaimResolution(claimId, claim.packetId(), claim.userId(), decision, paid, note, at);
  }
}
