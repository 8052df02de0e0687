package hongbao.postgres;

import static hongbao.postgres.TestSchema.answer;
import static hongbao.postgres.TestSchema.key;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.ledger.EntryKind;
import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.IdempotencyRaceException;
import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import hongbao.core.send.SendService;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresLedgerSendTest extends LedgerTestBase {

  @Test
  void send_movesAmountFromSenderWalletToEscrowAndRecordsPacket() {
    String alice = user("alice");
    db.topUp(alice, 10_000);
    Packet packet = db.packet(alice, 3_000, 3, TestSchema.T0, Duration.ofDays(1));
    IdempotencyKey key = key(alice, SendService.ENDPOINT, "k1");

    db.ledger.send(packet, key, answer(key, "{\"id\":1}"));

    assertThat(db.balance(alice)).isEqualTo(Amount.fen(7_000));
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(3_000));
    assertThat(db.packets.find(packet.id())).contains(packet);
    assertThat(db.ledger.answerFor(key)).contains(answer(key, "{\"id\":1}"));
    assertThat(db.ledger.wallet(alice, 10).entries().getFirst().kind()).isEqualTo(EntryKind.SEND);
  }

  @Test
  void send_withInsufficientFunds_rejectsAndChangesNothing() {
    String alice = user("alice");
    db.topUp(alice, 1_000);
    Packet packet = db.packet(alice, 3_000, 3, TestSchema.T0, Duration.ofDays(1));
    IdempotencyKey key = key(alice, SendService.ENDPOINT, "k1");

    assertThatThrownBy(() -> db.ledger.send(packet, key, answer(key, "{}")))
        .isInstanceOfSatisfying(
            RejectedException.class,
            e -> assertThat(e.rejection()).isEqualTo(Rejection.INSUFFICIENT_FUNDS));

    assertThat(db.balance(alice)).isEqualTo(Amount.fen(1_000));
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.ZERO);
    assertThat(db.packets.find(packet.id())).isEmpty();
    assertThat(db.ledger.answerFor(key)).isEmpty();
  }

  @Test
  void send_afterInsufficientFunds_canReuseTheKeyOnceFunded() {
    String alice = user("alice");
    Packet packet = db.packet(alice, 3_000, 3, TestSchema.T0, Duration.ofDays(1));
    IdempotencyKey key = key(alice, SendService.ENDPOINT, "k1");
    assertThatThrownBy(() -> db.ledger.send(packet, key, answer(key, "{}")))
        .isInstanceOf(RejectedException.class);

    db.topUp(alice, 3_000);
    db.ledger.send(packet, key, answer(key, "{}"));

    assertThat(db.balance(alice)).isEqualTo(Amount.ZERO);
    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.fen(3_000));
  }

  @Test
  void send_concurrentlyWithOneIdempotencyKey_debitsOnceAndRaisesRaceForTheOthers()
      throws InterruptedException {
    String alice = user("alice");
    db.topUp(alice, 100_000);
    IdempotencyKey key = key(alice, SendService.ENDPOINT, "retried");

    List<Race.Result<Long>> results =
        Race.run(
            8,
            () -> {
              Packet packet = db.packet(alice, 1_000, 10, TestSchema.T0, Duration.ofDays(1));
              db.ledger.send(packet, key, answer(key, "{\"id\":" + packet.id() + "}"));
              return packet.id();
            });

    List<Long> sent =
        results.stream().filter(r -> r.failure() == null).map(r -> r.value()).toList();
    assertThat(sent).hasSize(1);
    assertThat(results)
        .filteredOn(r -> r.failure() != null)
        .hasSize(7)
        .allSatisfy(r -> assertThat(r.failure()).isInstanceOf(IdempotencyRaceException.class));
    assertThat(db.balance(alice)).isEqualTo(Amount.fen(99_000));
    assertThat(db.packets.sentBy(alice, null, 100))
        .extracting(Packet::id)
        .containsExactly(sent.get(0));
    assertThat(db.ledger.answerFor(key).orElseThrow().payload())
        .isEqualTo("{\"id\":" + sent.get(0) + "}");
  }

  @Test
  void nextPacketId_neverRepeats() {
    long first = db.ledger.nextPacketId();
    long second = db.ledger.nextPacketId();

    assertThat(second).isGreaterThan(first);
  }
}
