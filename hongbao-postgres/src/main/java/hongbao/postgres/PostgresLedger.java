package hongbao.postgres;

import hongbao.core.Invariants;
import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.ClaimPayment;
import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.Wallet;
import hongbao.core.ledger.WalletEntry;
import hongbao.core.ledger.WalletSnapshot;
import hongbao.core.money.Amount;
import hongbao.core.packet.ClaimDecision;
import hongbao.core.packet.ClaimResolution;
import hongbao.core.packet.Packet;
import hongbao.core.payout.PayoutRefused;
import hongbao.core.payout.PayoutTask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The ledger on PostgreSQL (schema in {@code db/migration}). Each operation is one transaction;
 * each transfer carries a unique key, so a replay inserts nothing and moves nothing.
 *
 * <p>Row locks are always taken in account-id order — {@code escrow:*} before {@code system} before
 * {@code wallet:*}, and wallets among themselves by id — so concurrent payouts, refunds and top-ups
 * queue behind each other instead of deadlocking. A send locks only its sender's wallet and creates
 * a fresh escrow. Deadlocks that slip through anyway are retried by {@link Transactions}.
 */
public final class PostgresLedger implements Ledger {

  /** Tasks per {@link #pay} call: one transaction must stay short enough not to stall others. */
  public static final int PAY_BATCH_MAX = 5_000;

  public static final int WALLET_ENTRIES_MAX = 1_000;

  private final Transactions transactions;

  PostgresLedger(Transactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public long nextPacketId() {
    return transactions.write(
        "next packet id",
        connection -> {
          try (PreparedStatement next =
                  connection.prepareStatement("SELECT nextval('packet_id_seq')");
              ResultSet row = next.executeQuery()) {
            row.next();
            return row.getLong(1);
          }
        });
  }

  // ---------------------------------------------------------------------------------------- send

  private static final String DEBIT_WALLET =
      "UPDATE account SET balance = balance - ? WHERE id = ? AND balance >= ?";

  /** The escrow, the transfer into it and the packet, in one round trip. */
  private static final String OPEN_ESCROW =
      """
      WITH escrow AS (
          INSERT INTO account (id, kind, balance, shares_left, opened_at)
          VALUES (?, 'ESCROW', ?, ?, ?)
      ), posting AS (
          INSERT INTO transfer (key, kind, debit_account, credit_account, amount, packet_id, user_id)
          VALUES (?, 'SEND', ?, ?, ?, ?, ?)
      )
      """
          + PacketRows.INSERT;

  @Override
  public void send(Packet packet, IdempotencyKey key, StoredAnswer answer) {
    Invariants.check(packet.amount().isPositive(), "packet %d amount not positive", packet.id());
    transactions.write(
        "send packet " + packet.id(),
        connection -> {
          claimKey(connection, key, answer);
          debitWallet(connection, packet);
          openEscrow(connection, packet);
          return null;
        });
  }

  private static void debitWallet(Connection connection, Packet packet) throws SQLException {
    try (PreparedStatement debit = connection.prepareStatement(DEBIT_WALLET)) {
      debit.setLong(1, packet.amount().fen());
      debit.setString(2, Sql.walletAccount(packet.sender()));
      debit.setLong(3, packet.amount().fen());
      if (debit.executeUpdate() == 0) {
        throw new RejectedException(
            Rejection.INSUFFICIENT_FUNDS, "the wallet holds less than " + packet.amount());
      }
    }
  }

  private static void openEscrow(Connection connection, Packet packet) throws SQLException {
    String escrow = Sql.escrowAccount(packet.id());
    try (PreparedStatement open = connection.prepareStatement(OPEN_ESCROW)) {
      open.setString(1, escrow);
      open.setLong(2, packet.amount().fen());
      open.setInt(3, packet.count());
      open.setObject(4, Sql.timestamp(packet.createdAt()));
      open.setString(5, "send:" + packet.id());
      open.setString(6, Sql.walletAccount(packet.sender()));
      open.setString(7, escrow);
      open.setLong(8, packet.amount().fen());
      open.setLong(9, packet.id());
      open.setString(10, packet.sender());
      PacketRows.bind(connection, open, 11, packet);
      open.executeUpdate();
    }
  }

  // ------------------------------------------------------------------------------- idempotency

  /**
   * Inserts the key's row or, when a concurrent request holds the key, waits for it to finish and
   * throws: the winner's answer is then stored, or the key is free again for a retry.
   */
  static void claimKey(Connection connection, IdempotencyKey key, StoredAnswer answer)
      throws SQLException {
    try (PreparedStatement claim =
        connection.prepareStatement(
            """
            INSERT INTO idempotency (user_id, endpoint, key, request_hash, kind, payload)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, endpoint, key) DO NOTHING
            """)) {
      claim.setString(1, key.userId());
      claim.setString(2, key.endpoint());
      claim.setString(3, key.key());
      claim.setString(4, key.requestHash());
      claim.setString(5, answer.kind());
      claim.setString(6, answer.payload());
      if (claim.executeUpdate() == 0) {
        throw new IdempotencyRaceException(
            "idempotency key of " + key.userId() + " on " + key.endpoint() + " already stored");
      }
    }
  }

  @Override
  public Optional<StoredAnswer> answerFor(IdempotencyKey key) {
    return transactions.read(
        "answer for idempotency key",
        connection -> {
          try (PreparedStatement find =
              connection.prepareStatement(
                  "SELECT request_hash, kind, payload FROM idempotency"
                      + " WHERE user_id = ? AND endpoint = ? AND key = ?")) {
            find.setString(1, key.userId());
            find.setString(2, key.endpoint());
            find.setString(3, key.key());
            try (ResultSet row = find.executeQuery()) {
              return row.next()
                  ? Optional.of(
                      new StoredAnswer(row.getString(1), row.getString(2), row.getString(3)))
                  : Optional.<StoredAnswer>empty();
            }
          }
        });
  }

  // -------------------------------------------------------------------------------------- top-up

  @Override
  public StoredAnswer topUp(
      String userId, Amount amount, IdempotencyKey key, Function<Amount, StoredAnswer> answer) {
    Invariants.check(amount.isPositive(), "top-up of %s", amount);
    return transactions.write(
        "top up " + userId,
        connection -> {
          // Claimed with a placeholder first, so that a racing request waits here and moves no
          // money; the real answer needs the new balance and is filled in below, before commit.
          claimKey(connection, key, new StoredAnswer(key.requestHash(), "", ""));
          Amount balance = creditFromSystem(connection, userId, amount, key);
          StoredAnswer rendered = answer.apply(balance);
          storeAnswer(connection, key, rendered);
          return rendered;
        });
  }

  private static Amount creditFromSystem(
      Connection connection, String userId, Amount amount, IdempotencyKey key) throws SQLException {
    // Scoped like the idempotency key: two operators may use the same key for one wallet.
    String transferKey = "topup:" + key.userId() + ":" + key.endpoint() + ":" + key.key();
    try {
      return SystemCredit.post(connection, transferKey, "TOPUP", userId, null, amount);
    } catch (SQLException e) {
      if (Sql.UNIQUE_VIOLATION.equals(e.getSQLState())) {
        // The key's stored answer was purged (past its retention), its transfer was not: the
        // same key again is a request that was already made, not a new top-up.
        throw new RejectedException(
            Rejection.IDEMPOTENCY_CONFLICT,
            "this Idempotency-Key was used for a top-up whose answer is no longer kept:"
                + " use a new key");
      }
      throw e;
    }
  }

  private static void storeAnswer(Connection connection, IdempotencyKey key, StoredAnswer answer)
      throws SQLException {
    try (PreparedStatement store =
        connection.prepareStatement(
            "UPDATE idempotency SET request_hash = ?, kind = ?, payload = ?"
                + " WHERE user_id = ? AND endpoint = ? AND key = ?")) {
      store.setString(1, answer.requestHash());
      store.setString(2, answer.kind());
      store.setString(3, answer.payload());
      store.setString(4, key.userId());
      store.setString(5, key.endpoint());
      store.setString(6, key.key());
      Invariants.check(store.executeUpdate() == 1, "claimed idempotency key vanished");
    }
  }

  // ----------------------------------------------------------------------------------------- pay

  /**
   * Locks the batch's escrows in id order before anything else touches them. Its wallets are locked
   * after them by {@link #POST_GRABS}'s upsert, which takes them in id order too; locking them here
   * as well cost an index probe per grab, most of them for wallets that do not exist yet. The rows
   * come back with when each escrow was opened, for the check that the tasks are its packet's.
   */
  private static final String LOCK_ESCROWS =
      "SELECT id, opened_at FROM account WHERE id = ANY(?) ORDER BY id FOR UPDATE";

  /**
   * The whole batch in one statement: insert the transfers that are new (a replayed key inserts
   * nothing), then move exactly what was inserted: debit each escrow by its sum, credit each wallet
   * by its sum (creating it), in account-id order. The CHECKs on account reject an overdrawn escrow
   * and an escrow paying more grabs than it has shares, failing the statement and so the batch: the
   * ledger itself refuses to pay a share the grab store handed out twice.
   */
  private static final String POST_GRABS =
      """
      WITH task AS (
          SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[])
              AS t(packet_id, user_id, amount, grabbed_micros)
      ), paid AS (
          INSERT INTO transfer
              (key, kind, debit_account, credit_account, amount, packet_id, user_id, grabbed_at)
          SELECT 'grab:' || packet_id || ':' || user_id, 'GRAB',
                 'escrow:' || packet_id, 'wallet:' || user_id, amount, packet_id, user_id,
                 timestamptz 'epoch' + grabbed_micros * interval '1 microsecond'
          FROM task
          ON CONFLICT (key) DO NOTHING
          RETURNING debit_account, credit_account, amount
      ), debited AS (
          UPDATE account SET balance = account.balance - d.total,
                             shares_left = account.shares_left - d.grabs
          FROM (SELECT debit_account AS id, sum(amount)::bigint AS total, count(*)::int AS grabs
                FROM paid GROUP BY debit_account) d
          WHERE account.id = d.id
          RETURNING account.id
      ), credited AS (
          INSERT INTO account (id, kind, balance)
          SELECT credit_account, 'WALLET', sum(amount)::bigint
          FROM paid GROUP BY credit_account ORDER BY credit_account
          ON CONFLICT (id) DO UPDATE SET balance = account.balance + excluded.balance
          RETURNING id
      )
      SELECT (SELECT count(*) FROM paid),
             (SELECT count(DISTINCT debit_account) FROM paid),
             (SELECT count(*) FROM debited)
      """;

  /**
   * A task whose transfer was already posted for another share: the grab store handed the user a
   * second share of the packet (it lost the first grab, and the user grabbed again before the
   * repair put it back). A replay carries the grab's amount and time (a redelivery, a retried dead
   * letter and a claim all carry the grab's own); a second grab has another time, and with an
   * unequal split another amount. Skipping it like a replay would lose it without a word; the whole
   * batch is refused instead, so the task is dead-lettered and the reconciler names it. Times are
   * compared to the millisecond, the grab store's precision.
   */
  private static final String ANOTHER_SHARE =
      """
      SELECT t.key, transfer.amount, transfer.grabbed_at, t.amount, t.grabbed_at
      FROM (SELECT 'grab:' || packet_id || ':' || user_id AS key, amount,
                   timestamptz 'epoch' + grabbed_micros * interval '1 microsecond' AS grabbed_at
            FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::bigint[])
                AS u(packet_id, user_id, amount, grabbed_micros)) t
      JOIN transfer ON transfer.key = t.key
      WHERE transfer.amount <> t.amount
         OR date_trunc('milliseconds', transfer.grabbed_at)
            <> date_trunc('milliseconds', t.grabbed_at)
      LIMIT 1
      """;

  /** Only when some task was not inserted: a replay, or a second share under the same key. */
  private static void refuseAnotherShare(
      Connection connection, Long[] packetIds, String[] userIds, Long[] amounts, Long[] micros)
      throws SQLException {
    try (PreparedStatement check = connection.prepareStatement(ANOTHER_SHARE)) {
      check.setArray(1, connection.createArrayOf("bigint", packetIds));
      check.setArray(2, connection.createArrayOf("text", userIds));
      check.setArray(3, connection.createArrayOf("bigint", amounts));
      check.setArray(4, connection.createArrayOf("bigint", micros));
      try (ResultSet row = check.executeQuery()) {
        if (row.next()) {
          throw new PayoutRefused(
              "%s was paid %d fen grabbed at %s; this task pays %d fen grabbed at %s"
                  .formatted(
                      row.getString(1),
                      row.getLong(2),
                      millis(row.getObject(3, OffsetDateTime.class)),
                      row.getLong(4),
                      millis(row.getObject(5, OffsetDateTime.class))));
        }
      }
    }
  }

  private static Instant millis(OffsetDateTime at) {
    return Instant.ofEpochMilli(at.toInstant().toEpochMilli());
  }

  @Override
  public void checkReachable() {
    transactions.read(
        "reach the ledger",
        connection -> {
          try (Statement ping = connection.createStatement()) {
            return ping.execute("SELECT 1");
          }
        });
  }

  @Override
  public int pay(List<PayoutTask> tasks) {
    if (tasks.isEmpty()) {
      return 0;
    }
    if (tasks.size() > PAY_BATCH_MAX) {
      throw new IllegalArgumentException(
          "payout batch of " + tasks.size() + " tasks; at most " + PAY_BATCH_MAX);
    }
    for (PayoutTask task : tasks) {
      // The key is spelled out only when the check fails: building it for every task was a
      // visible share of the worker's CPU.
      Invariants.check(
          task.amount().isPositive(),
          "payout grab:%s:%s of %s",
          task.packetId(),
          task.userId(),
          task.amount());
    }
    return transactions.write(
        "pay " + tasks.size() + " grabs",
        connection -> {
          lockEscrows(connection, tasks);
          return postGrabs(connection, tasks);
        });
  }

  @Override
  public ClaimPayment payClaim(PayoutTask task, Amount keep) {
    Invariants.check(
        task.amount().isPositive(), "payout %s of %s", task.transferKey(), task.amount());
    return transactions.write(
        "pay claimed " + task.transferKey(),
        connection -> {
          lockEscrows(connection, List.of(task));
          if (!transferExists(connection, task.transferKey())) {
            // Read under the escrow's lock, which a sweeper's claim of the packet and its refund
            // take too.
            if (closing(connection, task.packetId())) {
              return ClaimPayment.CLOSING;
            }
            Amount balance =
                lockedBalance(connection, Sql.escrowAccount(task.packetId()), task.packetId());
            if (balance.minus(task.amount()).fen() < keep.fen()) {
              return ClaimPayment.NO_ROOM;
            }
          }
          postGrabs(connection, List.of(task));
          return ClaimPayment.PAID;
        });
  }

  @Override
  public Optional<ClaimResolution> resolveRefusedClaim(
      long claimId, ClaimDecision decision, String note, Instant at) {
    return transactions.write(
        "resolve refused claim " + claimId,
        connection -> RefusedClaimResolutions.resolve(connection, claimId, decision, note, at));
  }

  private static boolean closing(Connection connection, long packetId) throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT closing_at IS NOT NULL AND closed_at IS NULL FROM packet WHERE id = ?")) {
      find.setLong(1, packetId);
      try (ResultSet row = find.executeQuery()) {
        return row.next() && row.getBoolean(1);
      }
    }
  }

  private static boolean transferExists(Connection connection, String key) throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement("SELECT 1 FROM transfer WHERE key = ?")) {
      find.setString(1, key);
      try (ResultSet row = find.executeQuery()) {
        return row.next();
      }
    }
  }

  /**
   * The statement orders the locks; each escrow is named once. Nothing else needs the batch in any
   * order: the upsert sorts the wallets, and two batches holding the same transfer key hold the
   * same escrow, so they queue on its lock before either inserts.
   */
  private static void lockEscrows(Connection connection, List<PayoutTask> tasks)
      throws SQLException {
    var escrows = new LinkedHashSet<String>();
    long previous = 0;
    for (PayoutTask task : tasks) {
      if (escrows.isEmpty() || task.packetId() != previous) {
        escrows.add(Sql.escrowAccount(task.packetId()));
        previous = task.packetId();
      }
    }
    // By packet: naming each task's escrow would build a string per task on the hottest write.
    var openedAt = new HashMap<Long, Long>();
    try (PreparedStatement lock = connection.prepareStatement(LOCK_ESCROWS)) {
      lock.setArray(1, connection.createArrayOf("text", escrows.toArray()));
      try (ResultSet rows = lock.executeQuery()) {
        while (rows.next()) {
          OffsetDateTime opened = rows.getObject(2, OffsetDateTime.class);
          if (opened != null) {
            openedAt.put(Sql.packetOfEscrow(rows.getString(1)), opened.toInstant().toEpochMilli());
          }
        }
      }
    }
    refuseAnotherPacketsTasks(tasks, openedAt);
  }

  /**
   * A task grabbed from another packet than the escrow's: an older packet under the same id, which
   * the ledger forgot when it was restored from a backup while the grab store kept that packet's
   * tasks. The escrow keeps its packet's creation time ({@code opened_at}, V16) and the task the
   * one the grab store held; they differ, so the batch is refused and the task dead-lettered, not
   * paid from the newer packet's money. Escrows opened before V16, and tasks that do not say
   * (queued by an older version, or claimed from a receipt sealed before version 2), are not
   * checked.
   */
  private static void refuseAnotherPacketsTasks(List<PayoutTask> tasks, Map<Long, Long> openedAt) {
    if (openedAt.isEmpty()) {
      return;
    }
    for (PayoutTask task : tasks) {
      if (task.packetCreatedAt() == null) {
        continue;
      }
      Long opened = openedAt.get(task.packetId());
      if (opened != null && opened != task.packetCreatedAt().toEpochMilli()) {
        throw new PayoutRefused(
            "%s was opened at %s, for another packet than the one %s was grabbed from (created %s)"
                .formatted(
                    Sql.escrowAccount(task.packetId()),
                    Instant.ofEpochMilli(opened),
                    task.transferKey(),
                    task.packetCreatedAt()));
      }
    }
  }

  private static int postGrabs(Connection connection, List<PayoutTask> tasks) throws SQLException {
    int n = tasks.size();
    Long[] packetIds = new Long[n];
    String[] userIds = new String[n];
    Long[] amounts = new Long[n];
    Long[] grabbedMicros = new Long[n];
    for (int i = 0; i < n; i++) {
      PayoutTask task = tasks.get(i);
      packetIds[i] = task.packetId();
      userIds[i] = task.userId();
      amounts[i] = task.amount().fen();
      grabbedMicros[i] = Sql.epochMicros(task.grabbedAt());
    }
    try (PreparedStatement post = connection.prepareStatement(POST_GRABS)) {
      post.setArray(1, connection.createArrayOf("bigint", packetIds));
      post.setArray(2, connection.createArrayOf("text", userIds));
      post.setArray(3, connection.createArrayOf("bigint", amounts));
      post.setArray(4, connection.createArrayOf("bigint", grabbedMicros));
      try (ResultSet row = post.executeQuery()) {
        row.next();
        int paid = row.getInt(1);
        int escrows = row.getInt(2);
        int debited = row.getInt(3);
        if (debited != escrows) {
          // A task of a packet the ledger does not know (restored from a backup older than the
          // grab store's state): refused and reported, like any payout the books cannot make.
          throw new PayoutRefused(
              "no escrow for %d of the batch's %d packets".formatted(escrows - debited, escrows));
        }
        if (paid < n) {
          refuseAnotherShare(connection, packetIds, userIds, amounts, grabbedMicros);
        }
        return paid;
      }
    } catch (SQLException e) {
      if (Sql.CHECK_VIOLATION.equals(e.getSQLState())) {
        throw new PayoutRefused(
            "the books refuse: an escrow would pay more than its amount or its count of shares"
                + " ("
                + e.getMessage()
                + ")");
      }
      throw e;
    }
  }

  // -------------------------------------------------------------------------------------- refund

  @Override
  public boolean refund(long packetId, Amount remainder, Instant at) {
    Invariants.check(!remainder.isNegative(), "refund of %s for packet %d", remainder, packetId);
    return transactions.write(
        "refund packet " + packetId,
        connection -> {
          // The packet row is the once-only gate: a second refunder waits on its lock, then finds
          // it closed. The unique refund key backs this up.
          String sender = close(connection, packetId, at);
          if (sender == null) {
            return false;
          }
          if (remainder.isPositive()) {
            returnRemainder(connection, packetId, sender, remainder);
          }
          return true;
        });
  }

  private static String close(Connection connection, long packetId, Instant at)
      throws SQLException {
    try (PreparedStatement close =
        connection.prepareStatement(
            "UPDATE packet SET closed_at = ? WHERE id = ? AND closed_at IS NULL RETURNING sender")) {
      close.setObject(1, Sql.timestamp(at));
      close.setLong(2, packetId);
      try (ResultSet row = close.executeQuery()) {
        return row.next() ? row.getString(1) : null;
      }
    }
  }

  /**
   * Returns what the escrow can give back: the close's remainder, but never more than the escrow
   * holds. They differ only when the grab store lost its record of the packet and its close claimed
   * more than is left (the ledger paid grabs the store forgot); the reconciler reports that
   * difference, and the sender gets exactly what is left.
   */
  private static void returnRemainder(
      Connection connection, long packetId, String sender, Amount remainder) throws SQLException {
    String escrow = Sql.escrowAccount(packetId);
    String wallet = Sql.walletAccount(sender);
    // Escrow first, wallet second: the lock order every writer follows.
    Amount held = lockedBalance(connection, escrow, packetId);
    Amount refund = remainder.fen() <= held.fen() ? remainder : held;
    if (!refund.isPositive()) {
      return;
    }
    try (PreparedStatement debit =
        connection.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?")) {
      debit.setLong(1, refund.fen());
      debit.setString(2, escrow);
      Invariants.check(debit.executeUpdate() == 1, "packet %d has no escrow", packetId);
    }
    try (PreparedStatement credit =
        connection.prepareStatement(
            """
            WITH posting AS (
                INSERT INTO transfer
                    (key, kind, debit_account, credit_account, amount, packet_id, user_id)
                VALUES (?, 'REFUND', ?, ?, ?, ?, ?)
            )
            INSERT INTO account (id, kind, balance) VALUES (?, 'WALLET', ?)
            ON CONFLICT (id) DO UPDATE SET balance = account.balance + excluded.balance
            """)) {
      credit.setString(1, "refund:" + packetId);
      credit.setString(2, escrow);
      credit.setString(3, wallet);
      credit.setLong(4, refund.fen());
      credit.setLong(5, packetId);
      credit.setString(6, sender);
      credit.setString(7, wallet);
      credit.setLong(8, refund.fen());
      credit.executeUpdate();
    }
  }

  private static Amount lockedBalance(Connection connection, String account, long packetId)
      throws SQLException {
    try (PreparedStatement lock =
        connection.prepareStatement("SELECT balance FROM account WHERE id = ? FOR UPDATE")) {
      lock.setString(1, account);
      try (ResultSet row = lock.executeQuery()) {
        Invariants.check(row.next(), "packet %d has no escrow", packetId);
        return Amount.fen(row.getLong(1));
      }
    }
  }

  // -------------------------------------------------------------------------------------- wallet

  /**
   * The newest entries on each side of the wallet, merged: two index scans, no full sort. A GRAB
   * never debits a wallet (it debits an escrow), and saying so lets the debit side use {@code
   * transfer_by_debit_account}, which leaves grabs out to spare every payout one index write.
   */
  static final String WALLET_ENTRIES =
      """
      SELECT kind, amount, packet_id, created_at FROM (
          (SELECT id, kind, -amount AS amount, packet_id, created_at FROM transfer
           WHERE debit_account = ? AND kind <> 'GRAB' ORDER BY id DESC LIMIT ?)
          UNION ALL
          (SELECT id, kind, amount, packet_id, created_at FROM transfer
           WHERE credit_account = ? ORDER BY id DESC LIMIT ?)
      ) entry
      ORDER BY id DESC LIMIT ?
      """;

  @Override
  public WalletSnapshot wallet(String userId, int limit, Collection<Long> packetIds) {
    if (limit < 0 || limit > WALLET_ENTRIES_MAX) {
      throw new IllegalArgumentException("limit " + limit + " not in 0.." + WALLET_ENTRIES_MAX);
    }
    String account = Sql.walletAccount(userId);
    // One read transaction is one snapshot, so the balance and the paid set agree.
    return transactions.read(
        "wallet of " + userId,
        connection ->
            new WalletSnapshot(
                new Wallet(
                    userId, balance(connection, account), entries(connection, account, limit)),
                paidAmong(connection, account, packetIds)));
  }

  private static Set<Long> paidAmong(Connection connection, String account, Collection<Long> ids)
      throws SQLException {
    if (ids.isEmpty()) {
      return Set.of();
    }
    try (PreparedStatement find =
        connection.prepareStatement(
            "SELECT packet_id FROM transfer WHERE credit_account = ? AND kind = 'GRAB'"
                + " AND packet_id = ANY (?)")) {
      find.setString(1, account);
      find.setArray(2, connection.createArrayOf("bigint", ids.toArray()));
      Set<Long> paid = new HashSet<>();
      try (ResultSet rows = find.executeQuery()) {
        while (rows.next()) {
          paid.add(rows.getLong(1));
        }
      }
      return paid;
    }
  }

  static Amount balance(Connection connection, String account) throws SQLException {
    try (PreparedStatement find =
        connection.prepareStatement("SELECT balance FROM account WHERE id = ?")) {
      find.setString(1, account);
      try (ResultSet row = find.executeQuery()) {
        return row.next() ? Amount.fen(row.getLong(1)) : Amount.ZERO;
      }
    }
  }

  private static List<WalletEntry> entries(Connection connection, String account, int limit)
      throws SQLException {
    List<WalletEntry> entries = new ArrayList<>();
    try (PreparedStatement find = connection.prepareStatement(WALLET_ENTRIES)) {
      find.setString(1, account);
      find.setInt(2, limit);
      find.setString(3, account);
      find.setInt(4, limit);
      find.setInt(5, limit);
      try (ResultSet row = find.executeQuery()) {
        while (row.next()) {
          entries.add(
              new WalletEntry(
                  EntryKind.valueOf(row.getString("kind")),
                  Amount.fen(row.getLong("amount")),
                  row.getObject("packet_id", Long.class),
                  Sql.instant(row, "created_at")));
        }
      }
    }
    return entries;
  }
}
