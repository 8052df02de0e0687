package hongbao.postgres;

import hongbao.core.Invariants;
import hongbao.core.activity.Activity;
import hongbao.core.activity.ActivityStore;
import hongbao.core.packet.Packet;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Activities on PostgreSQL (table {@code activity}, V7). The grabs paid in an activity are the GRAB
 * transfers of its packets, found by the id range its packets occupy (see {@link
 * Packet#idRangeOf}), which the transfer-by-packet index serves.
 */
public final class PostgresActivityStore implements ActivityStore {

  private final Transactions transactions;

  PostgresActivityStore(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public Activity create(String name, int maxGrabsPerUser, String createdBy, Instant at) {
    return transactions.write(
        "create activity",
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  """
                  INSERT INTO activity (id, name, max_grabs_per_user, created_by, created_at)
                  VALUES (nextval('activity_id_seq'), ?, ?, ?, ?)
                  RETURNING id
                  """)) {
            insert.setString(1, name);
            insert.setInt(2, maxGrabsPerUser);
            insert.setString(3, createdBy);
            insert.setObject(4, Sql.timestamp(at));
            try (ResultSet row = insert.executeQuery()) {
              row.next();
              return new Activity(row.getLong(1), name, maxGrabsPerUser, createdBy, at);
            }
          }
        });
  }

  @Override
  public Optional<Activity> find(long activityId) {
    if (activityId < 1 || activityId > Packet.MAX_ACTIVITY_ID) {
      return Optional.empty();
    }
    return transactions.read(
        "find activity",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT id, name, max_grabs_per_user, created_by, created_at"
                      + " FROM activity WHERE id = ?")) {
            find.setLong(1, activityId);
            try (ResultSet row = find.executeQuery()) {
              return row.next()
                  ? Optional.of(
                      new Activity(
                          row.getLong("id"),
                          row.getString("name"),
                          row.getInt("max_grabs_per_user"),
                          row.getString("created_by"),
                          Sql.instant(row, "created_at")))
                  : Optional.<Activity>empty();
            }
          }
        });
  }

  @Override
  public Map<String, List<Long>> paidGrabs(long activityId) {
    Invariants.check(
        activityId >= 1 && activityId <= Packet.MAX_ACTIVITY_ID, "activity id %s", activityId);
    return transactions.read(
        "paid grabs of activity " + activityId,
        connection -> {
          try (PreparedStatement grabs =
              connection.prepareStatement(
                  "SELECT user_id, packet_id FROM transfer"
                      + " WHERE kind = 'GRAB' AND packet_id BETWEEN ? AND ?"
                      + " ORDER BY user_id, packet_id")) {
            long[] ids = Packet.idRangeOf(activityId);
            grabs.setLong(1, ids[0]);
            grabs.setLong(2, ids[1]);
            var paid = new LinkedHashMap<String, List<Long>>();
            try (ResultSet rows = grabs.executeQuery()) {
              while (rows.next()) {
                paid.computeIfAbsent(rows.getString(1), user -> new ArrayList<>())
                    .add(rows.getLong(2));
              }
            }
            return paid;
          }
        });
  }

  @Override
  public int paidGrabsOf(long activityId, String userId) {
    Invariants.check(
        activityId >= 1 && activityId <= Packet.MAX_ACTIVITY_ID, "activity id %s", activityId);
    return transactions.read(
        "paid grabs of a user in activity " + activityId,
        connection -> {
          // The trigger's own count (V7), one row per user and activity.
          try (PreparedStatement count =
              connection.prepareStatement(
                  "SELECT grabs FROM activity_grab WHERE activity_id = ? AND user_id = ?")) {
            count.setLong(1, activityId);
            count.setString(2, userId);
            try (ResultSet row = count.executeQuery()) {
              return row.next() ? row.getInt(1) : 0;
            }
          }
        });
  }
}
