package hongbao.postgres;

import hongbao.core.Invariants;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import hongbao.core.withdrawal.Move;
import hongbao.core.withdrawal.Transition;
import hongbao.core.withdrawal.Withdrawal;
import hongbao.core.withdrawal.WithdrawalBooks;
import hongbao.core.withdrawal.WithdrawalStatus;
import hongbao.core.withdrawal.WithdrawalStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Withdrawals on PostgreSQL (schema in {@code V5__withdrawal.sql}), beside the ledger so that each
 * move of a withdrawal, its transition row and the money it moves commit in one transaction.
 *
 * <p>Locks: a move locks the withdrawal row first, then accounts in id order ({@code gateway}
 * before {@code wallet:*} before {@code withdrawal:*}), the order every ledger writer follows. The
 * row lock makes the compare-and-set: a second settler waits, then finds the status changed.
 */
public final class PostgresWithdrawals implements WithdrawalStore, WithdrawalBooks {

  public static final int PAGE_MAX = 1_000;

  static final String GATEWAY_ACCOUNT = "gateway";

  private static final String COLUMNS =
      "id, user_id, amount, out_trade_no, status, gateway_ref, cause, attempts, refusals, checks,"
          + " created_at, updated_at";

  private final Transactions transactions;
  private final PostgresLedger ledger;

  PostgresWithdrawals(Transactions transactions) {
    this.transactions = transactions;
    this.ledger = new PostgresLedger(transactions);
  }

  static String inFlightAccount(long id) {
    return "withdrawal:" + id;
  }

  static String debitKey(long id) {
    return "withdraw:" + id;
  }

  static String paidKey(long id) {
    return "withdraw-paid:" + id;
  }

  static String returnKey(long id) {
    return "withdraw-return:" + id;
  }

  @Override
  public long nextId() {
    return transactions.write(
        "next withdrawal id",
        connection -> {
          try (PreparedStatement next =
                  connection.prepareStatement("SELECT nextval('withdrawal_id_seq')");
              ResultSet row = next.executeQuery()) {
            row.next();
            return row.getLong(1);
          }
        });
  }

  // ------------------------------------------------------------------------------------ request

  /** The in-flight account, the transfer into it, the withdrawal and its first transition. */
  private static final String OPEN =
      """
      WITH flight AS (
          INSERT INTO account (id, kind, balance) VALUES (?, 'WITHDRAWAL', ?)
      ), posting AS (
          INSERT INTO transfer (key, kind, debit_account, credit_account, amount, user_id)
          VALUES (?, 'WITHDRAW', ?, ?, ?, ?)
      ), created AS (
          INSERT INTO withdrawal (id, user_id, amount, out_trade_no, status, cause, next_check_at,
                                  created_at, updated_at, idempotency_key)
          VALUES (?, ?, ?, ?, 'REQUESTED', ?, ?, ?, ?, ?)
      )
      INSERT INTO withdrawal_transition (withdrawal_id, from_status, to_status, cause, at)
      VALUES (?, NULL, 'REQUESTED', ?, ?)
      """;

  @Override
  public void request(
      Withdrawal withdrawal, Instant checkAt, IdempotencyKey key, StoredAnswer answer) {
    Invariants.check(
        withdrawal.status() == WithdrawalStatus.REQUESTED, "new withdrawal %s", withdrawal);
    transactions.write(
        "request withdrawal " + withdrawal.id(),
        connection -> {
          PostgresLedger.claimKey(connection, key, answer);
          refuseKeyUsedBefore(connection, withdrawal, key);
          debitWallet(connection, withdrawal);
          open(connection, withdrawal, checkAt, key);
          return null;
        });
  }

  /**
   * A key whose stored answer was purged (past its retention) while its withdrawal stays: the same
   * key again is a request already made, answered 409 rather than paid a second time. The key's
   * claim above serialises requests under one key, so this look cannot race another.
   */
  private static void refuseKeyUsedBefore(
      Connection connection, Withdrawal withdrawal, IdempotencyKey key) throws SQLException {
    if (keyUsed(connection, withdrawal.userId(), key.key())) {
      throw WithdrawalStore.keyUsedBefore();
    }
  }

  @Override
  public boolean keyUsed(String userId, String key) {
    return transactions.read("withdrawal key of " + userId, c -> keyUsed(c, userId, key));
  }

  private static boolean keyUsed(Connection connection, String userId, String key)
      throws SQLException {
    try (PreparedStatement used =
        connection.prepareStatement(
            "SELECT 1 FROM withdrawal WHERE user_id = ? AND idempotency_key = ?")) {
      used.setString(1, userId);
      used.setString(2, key);
      try (ResultSet row = used.executeQuery()) {
        return row.next();
      }
    }
  }

  private static void debitWallet(Connection connection, Withdrawal withdrawal)
      throws SQLException {
    try (PreparedStatement debit =
        connection.prepareStatement(
            "UPDATE account SET balance = balance - ? WHERE id = ? AND balance >= ?")) {
      debit.setLong(1, withdrawal.amount().fen());
      debit.setString(2, Sql.walletAccount(withdrawal.userId()));
      debit.setLong(3, withdrawal.amount().fen());
      if (debit.executeUpdate() == 0) {
        throw new RejectedException(
            Rejection.INSUFFICIENT_FUNDS, "the wallet holds less than " + withdrawal.amount());
      }
    }
  }

  private static void open(Connection connection, Withdrawal w, Instant checkAt, IdempotencyKey key)
      throws SQLException {
    String flight = inFlightAccount(w.id());
    try (PreparedStatement open = connection.prepareStatement(OPEN)) {
      int i = 1;
      open.setString(i++, flight);
      open.setLong(i++, w.amount().fen());
      open.setString(i++, debitKey(w.id()));
      open.setString(i++, Sql.walletAccount(w.userId()));
      open.setString(i++, flight);
      open.setLong(i++, w.amount().fen());
      open.setString(i++, w.userId());
      open.setLong(i++, w.id());
      open.setString(i++, w.userId());
      open.setLong(i++, w.amount().fen());
      open.setString(i++, w.outTradeNo());
      open.setString(i++, w.cause());
      open.setObject(i++, Sql.timestamp(checkAt));
      open.setObject(i++, Sql.timestamp(w.createdAt()));
      open.setObject(i++, Sql.timestamp(w.updatedAt()));
      open.setString(i++, key.key());
      open.setLong(i++, w.id());
      open.setString(i++, w.cause());
      open.setObject(i, Sql.timestamp(w.createdAt()));
      open.executeUpdate();
    }
  }

  @Override
  public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
    return ledger.answerFor(key);
  }

  // --------------------------------------------------------------------------------------- read

  @Override
  public Optional<Withdrawal> find(long id) {
    return transactions.read(
        "withdrawal " + id,
        connection -> one(connection, "SELECT " + COLUMNS + " FROM withdrawal WHERE id = ?", id));
  }

  @Override
  public Optional<Withdrawal> findByOutTradeNo(String outTradeNo) {
    return transactions.read(
        "withdrawal " + outTradeNo,
        connection ->
            one(
                connection,
                "SELECT " + COLUMNS + " FROM withdrawal WHERE out_trade_no = ?",
                outTradeNo));
  }

  private static Optional<Withdrawal> one(Connection connection, String sql, Object key)
      throws SQLException {
    try (PreparedStatement find = connection.prepareStatement(sql)) {
      find.setObject(1, key);
      try (ResultSet row = find.executeQuery()) {
        return row.next() ? Optional.of(read(row)) : Optional.empty();
      }
    }
  }

  @Override
  public List<Transition> transitions(long id) {
    return transactions.read(
        "transitions of withdrawal " + id,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT from_status, to_status, cause, at FROM withdrawal_transition"
                      + " WHERE withdrawal_id = ? ORDER BY id")) {
            find.setLong(1, id);
            List<Transition> transitions = new ArrayList<>();
            try (ResultSet row = find.executeQuery()) {
              while (row.next()) {
                String from = row.getString("from_status");
                transitions.add(
                    new Transition(
                        from == null ? null : WithdrawalStatus.valueOf(from),
                        WithdrawalStatus.valueOf(row.getString("to_status")),
                        row.getString("cause"),
                        Sql.instant(row, "at")));
              }
            }
            return transitions;
          }
        });
  }

  @Override
  public List<Withdrawal> page(String userId, Long beforeId, int limit) {
    checkLimit(limit);
    return transactions.read(
        "withdrawals of " + userId,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM withdrawal WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?")) {
            find.setString(1, userId);
            find.setLong(2, beforeId == null ? Long.MAX_VALUE : beforeId);
            find.setInt(3, limit);
            return readAll(find);
          }
        });
  }

  // --------------------------------------------------------------------------------------- move

  @Override
  public Optional<Withdrawal> move(Move move) {
    return transactions.write(
        "withdrawal " + move.id() + " to " + move.to(),
        connection -> {
          Optional<Withdrawal> current =
              one(
                  connection,
                  "SELECT " + COLUMNS + " FROM withdrawal WHERE id = ? FOR UPDATE",
                  move.id());
          if (current.isEmpty() || !applies(move, current.get())) {
            return Optional.<Withdrawal>empty();
          }
          Withdrawal moved = update(connection, move);
          recordTransition(connection, move, current.get().status());
          if (move.to() == WithdrawalStatus.SUCCEEDED) {
            payOut(connection, moved);
          } else if (move.to() == WithdrawalStatus.FAILED) {
            giveBack(connection, moved);
          }
          return Optional.of(moved);
        });
  }

  private static boolean applies(Move move, Withdrawal current) {
    return move.from().contains(current.status())
        && (move.attemptsSeen() == Move.ANY_ATTEMPTS || move.attemptsSeen() == current.attempts());
  }

  private static Withdrawal update(Connection connection, Move move) throws SQLException {
    try (PreparedStatement update =
        connection.prepareStatement(
            "UPDATE withdrawal SET status = ?, cause = ?, updated_at = ?, next_check_at = ?,"
                + " gateway_ref = coalesce(?, gateway_ref), attempts = attempts + ?"
                + " WHERE id = ? RETURNING "
                + COLUMNS)) {
      update.setString(1, move.to().name());
      update.setString(2, move.cause());
      update.setObject(3, Sql.timestamp(move.at()));
      update.setObject(4, Sql.timestamp(move.nextCheckAt()));
      update.setString(5, move.gatewayRef());
      update.setInt(6, move.attempt() ? 1 : 0);
      update.setLong(7, move.id());
      try (ResultSet row = update.executeQuery()) {
        row.next();
        return read(row);
      }
    }
  }

  @Override
  public Optional<Withdrawal> countRefusal(long id) {
    return transactions.write(
        "refusal of withdrawal " + id,
        connection -> {
          try (PreparedStatement count =
              connection.prepareStatement(
                  "UPDATE withdrawal SET refusals = refusals + 1"
                      + " WHERE id = ? AND status IN ('SENT', 'UNKNOWN') RETURNING "
                      + COLUMNS)) {
            count.setLong(1, id);
            try (ResultSet row = count.executeQuery()) {
              return row.next() ? Optional.of(read(row)) : Optional.<Withdrawal>empty();
            }
          }
        });
  }

  private static void recordTransition(Connection connection, Move move, WithdrawalStatus from)
      throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO withdrawal_transition (withdrawal_id, from_status, to_status, cause, at)"
                + " VALUES (?, ?, ?, ?, ?)")) {
      insert.setLong(1, move.id());
      insert.setString(2, from.name());
      insert.setString(3, move.to().name());
      insert.setString(4, move.cause());
      insert.setObject(5, Sql.timestamp(move.at()));
      insert.executeUpdate();
    }
  }

  /**
   * In flight to the gateway account. 'gateway' sorts before 'withdrawal:*', so it is locked first.
   * Every SUCCEEDED updates that one row: successes commit one after another, which the gateway's
   * own rate makes harmless; the row is held for two short updates.
   */
  private static void payOut(Connection connection, Withdrawal w) throws SQLException {
    adjust(connection, GATEWAY_ACCOUNT, w.amount().fen());
    adjust(connection, inFlightAccount(w.id()), -w.amount().fen());
    post(connection, paidKey(w.id()), "WITHDRAW_PAID", inFlightAccount(w.id()), GATEWAY_ACCOUNT, w);
  }

  /** In flight back to the wallet; 'wallet:*' sorts before 'withdrawal:*'. */
  private static void giveBack(Connection connection, Withdrawal w) throws SQLException {
    String wallet = Sql.walletAccount(w.userId());
    try (PreparedStatement credit =
        connection.prepareStatement(
            "INSERT INTO account (id, kind, balance) VALUES (?, 'WALLET', ?)"
                + " ON CONFLICT (id) DO UPDATE SET balance = account.balance + excluded.balance")) {
      credit.setString(1, wallet);
      credit.setLong(2, w.amount().fen());
      credit.executeUpdate();
    }
    adjust(connection, inFlightAccount(w.id()), -w.amount().fen());
    post(connection, returnKey(w.id()), "WITHDRAW_RETURN", inFlightAccount(w.id()), wallet, w);
  }

  private static void adjust(Connection connection, String account, long deltaFen)
      throws SQLException {
    try (PreparedStatement adjust =
        connection.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?")) {
      adjust.setLong(1, deltaFen);
      adjust.setString(2, account);
      Invariants.check(adjust.executeUpdate() == 1, "account %s is missing", account);
    } catch (SQLException e) {
      if (Sql.CHECK_VIOLATION.equals(e.getSQLState())) {
        throw new Invariants.InvariantViolation(
            "moving " + deltaFen + " fen would overdraw " + account + ": " + e.getMessage());
      }
      throw e;
    }
  }

  /** The unique key refuses a second posting: the status check above makes one impossible. */
  private static void post(
      Connection connection, String key, String kind, String debit, String credit, Withdrawal w)
      throws SQLException {
    try (PreparedStatement post =
        connection.prepareStatement(
            "INSERT INTO transfer (key, kind, debit_account, credit_account, amount, user_id)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      post.setString(1, key);
      post.setString(2, kind);
      post.setString(3, debit);
      post.setString(4, credit);
      post.setLong(5, w.amount().fen());
      post.setString(6, w.userId());
      post.executeUpdate();
    }
  }

  // ---------------------------------------------------------------------------------- janitor

  @Override
  public List<Withdrawal> claimDue(
      Instant now, int limit, Function<Withdrawal, Instant> nextCheck) {
    checkLimit(limit);
    return transactions.write(
        "claim due withdrawals",
        connection -> {
          List<Withdrawal> due;
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT "
                      + COLUMNS
                      + " FROM withdrawal WHERE next_check_at IS NOT NULL AND next_check_at <= ?"
                      + " ORDER BY next_check_at LIMIT ? FOR UPDATE SKIP LOCKED")) {
            find.setObject(1, Sql.timestamp(now));
            find.setInt(2, limit);
            due = readAll(find);
          }
          if (!due.isEmpty()) {
            lease(connection, due, nextCheck);
          }
          return due;
        });
  }

  private static void lease(
      Connection connection, List<Withdrawal> due, Function<Withdrawal, Instant> nextCheck)
      throws SQLException {
    Long[] ids = new Long[due.size()];
    Long[] nextMicros = new Long[due.size()];
    for (int i = 0; i < due.size(); i++) {
      ids[i] = due.get(i).id();
      nextMicros[i] = Sql.epochMicros(nextCheck.apply(due.get(i)));
    }
    try (PreparedStatement lease =
        connection.prepareStatement(
            """
            UPDATE withdrawal SET checks = checks + 1,
                   next_check_at = timestamptz 'epoch' + l.next_micros * interval '1 microsecond'
            FROM unnest(?::bigint[], ?::bigint[]) AS l(id, next_micros)
            WHERE withdrawal.id = l.id
            """)) {
      lease.setArray(1, connection.createArrayOf("bigint", ids));
      lease.setArray(2, connection.createArrayOf("bigint", nextMicros));
      Invariants.check(lease.executeUpdate() == due.size(), "a claimed withdrawal vanished");
    }
  }

  // ------------------------------------------------------------------------------------ books

  private static final String BOOKED =
      "SELECT w.id, w.user_id, w.amount, w.out_trade_no, w.status, w.gateway_ref, w.cause,"
          + " w.attempts, w.refusals, w.checks, w.created_at, w.updated_at,"
          + " coalesce(d.amount, 0) AS debited, coalesce(p.amount, 0) AS paid,"
          + " coalesce(r.amount, 0) AS returned, coalesce(a.balance, 0) AS in_flight"
          + " FROM withdrawal w"
          + " LEFT JOIN transfer d ON d.key = 'withdraw:' || w.id"
          + " LEFT JOIN transfer p ON p.key = 'withdraw-paid:' || w.id"
          + " LEFT JOIN transfer r ON r.key = 'withdraw-return:' || w.id"
          + " LEFT JOIN account a ON a.id = 'withdrawal:' || w.id";

  @Override
  public List<Booked> since(Instant since, int limit) {
    // Created or moved since: updated_at is the creation time until the first move, and each
    // move sets it to a later instant.
    return booked("withdrawals since " + since, "w.updated_at >= ?", since, limit);
  }

  @Override
  public List<Booked> unsettledBefore(Instant before, int limit) {
    // next_check_at is null exactly when settled: the janitor's index holds the rest.
    return booked(
        "unsettled withdrawals before " + before,
        "w.next_check_at IS NOT NULL AND w.created_at < ?",
        before,
        limit);
  }

  /**
   * Withdrawals with their books {@code where} (one instant to bind), by id, at most {@code limit}.
   */
  private List<Booked> booked(String what, String where, Instant at, int limit) {
    return transactions.read(
        what,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(BOOKED + " WHERE " + where + " ORDER BY w.id LIMIT ?")) {
            find.setObject(1, Sql.timestamp(at));
            find.setInt(2, limit);
            return readBooked(find);
          }
        });
  }

  @Override
  public Optional<Booked> byOutTradeNo(String outTradeNo) {
    return transactions.read(
        "booked withdrawal " + outTradeNo,
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(BOOKED + " WHERE w.out_trade_no = ?")) {
            find.setString(1, outTradeNo);
            return readBooked(find).stream().findFirst();
          }
        });
  }

  private static List<Booked> readBooked(PreparedStatement find) throws SQLException {
    List<Booked> booked = new ArrayList<>();
    try (ResultSet row = find.executeQuery()) {
      while (row.next()) {
        booked.add(
            new Booked(
                read(row),
                Amount.fen(row.getLong("debited")),
                Amount.fen(row.getLong("paid")),
                Amount.fen(row.getLong("returned")),
                Amount.fen(row.getLong("in_flight"))));
      }
    }
    return booked;
  }

  // ------------------------------------------------------------------------------------- rows

  private static List<Withdrawal> readAll(PreparedStatement find) throws SQLException {
    List<Withdrawal> withdrawals = new ArrayList<>();
    try (ResultSet row = find.executeQuery()) {
      while (row.next()) {
        withdrawals.add(read(row));
      }
    }
    return withdrawals;
  }

  private static Withdrawal read(ResultSet row) throws SQLException {
    return new Withdrawal(
        row.getLong("id"),
        row.getString("user_id"),
        Amount.fen(row.getLong("amount")),
        row.getString("out_trade_no"),
        WithdrawalStatus.valueOf(row.getString("status")),
        row.getString("gateway_ref"),
        row.getString("cause"),
        row.getInt("attempts"),
        row.getInt("refusals"),
        row.getInt("checks"),
        Sql.instant(row, "created_at"),
        Sql.instant(row, "updated_at"));
  }

  private static void checkLimit(int limit) {
    if (limit < 1 || limit > PAGE_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 1.." + PAGE_MAX);
    }
  }
}
