package hongbao.postgres;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketType;
import hongbao.core.password.PasswordMatch;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Maps the {@code packet} table to {@link Packet} and back. */
final class PacketRows {

  /** The columns {@link #read} needs, for SELECT lists. */
  static final String COLUMNS =
      "id, sender, type, amount, count, greeting, password_key, recipients, created_at, expires_at,"
          + " password_match";

  static final String INSERT =
      "INSERT INTO packet (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private PacketRows() {}

  /** Binds a packet to the eleven parameters of {@link #INSERT}, starting at {@code first}. */
  static void bind(Connection connection, PreparedStatement statement, int first, Packet packet)
      throws SQLException {
    int i = first;
    statement.setLong(i++, packet.id());
    statement.setString(i++, packet.sender());
    statement.setString(i++, packet.type().name());
    statement.setLong(i++, packet.amount().fen());
    statement.setInt(i++, packet.count());
    statement.setString(i++, packet.greeting());
    statement.setString(i++, packet.passwordKey());
    statement.setArray(i++, connection.createArrayOf("text", packet.recipients().toArray()));
    statement.setObject(i++, Sql.timestamp(packet.createdAt()));
    statement.setObject(i++, Sql.timestamp(packet.expiresAt()));
    statement.setString(i, packet.hasPassword() ? packet.passwordMatch().code() : null);
  }

  static Packet read(ResultSet row) throws SQLException {
    return new Packet(
        row.getLong("id"),
        row.getString("sender"),
        PacketType.valueOf(row.getString("type")),
        Amount.fen(row.getLong("amount")),
        row.getInt("count"),
        row.getString("greeting"),
        row.getString("password_key"),
        recipients(row.getArray("recipients")),
        Sql.instant(row, "created_at"),
        Sql.instant(row, "expires_at"),
        passwordMatch(row.getString("password_match")));
  }

  /** Null (no 口令, or a packet older than pinyin matching) is an exact match. */
  private static PasswordMatch passwordMatch(String code) {
    return code == null
        ? PasswordMatch.EXACT
        : PasswordMatch.parse(code)
            .orElseThrow(() -> new IllegalStateException("unknown password_match " + code));
  }

  static List<Packet> readAll(PreparedStatement statement) throws SQLException {
    List<Packet> packets = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        packets.add(read(rows));
      }
    }
    return packets;
  }

  private static List<String> recipients(Array array) throws SQLException {
    if (array == null) {
      return List.of();
    }
    try {
      return List.of((String[]) array.getArray());
    } finally {
      array.free();
    }
  }
}
