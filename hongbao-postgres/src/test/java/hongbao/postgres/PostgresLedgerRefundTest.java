package hongbao.postgres;

import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresLedgerRefundTest extends LedgerTestBase {

  private static final Instant AFTER_EXPIRY = TestSchema.T0.plus(Duration.ofDays(2));

  @Test
  void refund_returnsRemainderToSenderAndClosesPacket() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);
    db.ledger.pay(List.of(task(packet, user("bob"), 400)));

    boolean refunded = db.ledger.refund(packet.id(), Amount.fen(600), AFTER_EXPIRY);

    assertThat(refunded).isTrue();
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(600));
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.ZERO);
    assertThat(db.packets.refunded(packet.id())).isEqualTo(Amount.fen(600));
    assertThat(db.packets.claimExpired(AFTER_EXPIRY, AFTER_EXPIRY, 1_000))
        .extracting(Packet::id)
        .doesNotContain(packet.id());
  }

  @Test
  void refund_ofNothing_stillClosesThePacket_asTheReconcilerSeesIt() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet closing = db.send(alice, 500, 2);
    Packet open = db.send(alice, 500, 2);
    assertThat(db.packets.closedAmong(List.of(closing.id(), open.id()))).isEmpty();

    boolean refunded = db.ledger.refund(closing.id(), Amount.ZERO, AFTER_EXPIRY);

    assertThat(refunded).isTrue();
    assertThat(db.packets.refunded(closing.id())).isEqualTo(Amount.ZERO);
    assertThat(db.audit.escrowBalance(closing.id())).isEqualTo(Amount.fen(500));
    assertThat(db.packets.closedAmong(List.of(closing.id(), open.id())))
        .containsExactly(closing.id());
    assertThat(db.packets.knownAmong(List.of(closing.id(), open.id(), Long.MAX_VALUE)))
        .as("closed or not, the ledger knows both; not an id it never handed out")
        .containsExactlyInAnyOrder(closing.id(), open.id());
  }

  @Test
  void refund_secondCall_movesNothing() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);
    db.ledger.refund(packet.id(), Amount.fen(500), AFTER_EXPIRY);

    boolean again = db.ledger.refund(packet.id(), Amount.fen(500), AFTER_EXPIRY);

    assertThat(again).isFalse();
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(500));
    assertThat(db.packets.refunded(packet.id())).isEqualTo(Amount.fen(500));
  }

  @Test
  void refund_byConcurrentSweepers_happensExactlyOnce() throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 3);

    List<Race.Result<Boolean>> results =
        Race.run(4, () -> db.ledger.refund(packet.id(), Amount.fen(1_000), AFTER_EXPIRY));

    assertThat(results).allSatisfy(r -> assertThat(r.failure()).isNull());
    assertThat(results).filteredOn(Race.Result::value).hasSize(1);
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(1_000));
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.ZERO);
  }

  @Test
  void refund_ofZeroRemainder_closesPacketWithoutTransfer() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.send(alice, 1_000, 1);
    db.ledger.pay(List.of(task(packet, user("bob"), 1_000)));

    boolean closed = db.ledger.refund(packet.id(), Amount.ZERO, AFTER_EXPIRY);

    assertThat(closed).isTrue();
    assertThat(db.packets.refunded(packet.id())).isEqualTo(Amount.ZERO);
    assertThat(db.ledger.refund(packet.id(), Amount.ZERO, AFTER_EXPIRY)).isFalse();
    assertThat(db.packets.claimExpired(AFTER_EXPIRY, AFTER_EXPIRY, 1_000))
        .extracting(Packet::id)
        .doesNotContain(packet.id());
  }

  @Test
  void refund_ofUnknownPacket_movesNothing() {
    assertThat(db.ledger.refund(Long.MAX_VALUE / 3, Amount.fen(5), AFTER_EXPIRY)).isFalse();
  }
}
