package hongbao.postgres;

import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.Ledger;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.ledger.TopUpService;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.packet.PacketStore;
import hongbao.core.packet.PacketType;
import hongbao.core.payout.PayoutTask;
import hongbao.core.reconcile.LedgerAudit;
import hongbao.core.send.SendService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** One migrated schema and the adapters on it, with shorthands for arranging a ledger. */
final class TestSchema implements AutoCloseable {

  static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  private static final AtomicLong SEQUENCE = new AtomicLong();

  final PostgresDatabase database;
  final String schema;
  final Ledger ledger;
  final PacketStore packets;
  final LedgerAudit audit;

  TestSchema(PostgresDatabase database, String schema) {
    this.database = database;
    this.schema = schema;
    this.ledger = database.ledger();
    this.packets = database.packets();
    this.audit = database.audit();
  }

  /** A user id no other test uses. */
  static String user(String name) {
    return name + "-" + SEQUENCE.incrementAndGet();
  }

  static IdempotencyKey key(String userId, String endpoint, String key) {
    return new IdempotencyKey(userId, endpoint, key, "hash-of-" + key);
  }

  static StoredAnswer answer(IdempotencyKey key, String body) {
    return new StoredAnswer(key.requestHash(), "CREATED", body);
  }

  Amount topUp(String userId, long fen) {
    IdempotencyKey key = key("admin", TopUpService.ENDPOINT, "k" + SEQUENCE.incrementAndGet());
    StoredAnswer answer =
        ledger.topUp(
            userId,
            Amount.fen(fen),
            key,
            balance -> new StoredAnswer(key.requestHash(), "DONE", Long.toString(balance.fen())));
    return Amount.fen(Long.parseLong(answer.payload()));
  }

  Packet packet(String sender, long fen, int count, Instant createdAt, Duration lifetime) {
    return new Packet(
        ledger.nextPacketId(),
        sender,
        PacketType.LUCKY,
        Amount.fen(fen),
        count,
        "恭喜发财",
        null,
        List.of(),
        createdAt,
        createdAt.plus(lifetime));
  }

  /** Sends a packet of {@code fen} in {@code count} shares, created at T0, living a day. */
  Packet send(String sender, long fen, int count) {
    return send(packet(sender, fen, count, T0, Duration.ofDays(1)));
  }

  Packet send(Packet packet) {
    IdempotencyKey key =
        key(packet.sender(), SendService.ENDPOINT, "send-" + SEQUENCE.incrementAndGet());
    ledger.send(packet, key, answer(key, "{\"id\":" + packet.id() + "}"));
    return packet;
  }

  static PayoutTask task(Packet packet, String userId, long fen) {
    return new PayoutTask(packet.id(), userId, Amount.fen(fen), T0.plusSeconds(1), "tag");
  }

  Amount balance(String userId) {
    return ledger.wallet(userId, 0).balance();
  }

  void execute(String sql) {
    TestDatabase.execute(database, sql);
  }

  @Override
  public void close() {
    try {
      execute("DROP SCHEMA " + schema + " CASCADE");
    } finally {
      database.close();
    }
  }
}
