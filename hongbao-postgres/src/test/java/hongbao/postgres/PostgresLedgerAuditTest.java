package hongbao.postgres;

import static hongbao.postgres.TestSchema.task;
import static hongbao.postgres.TestSchema.user;
import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.packet.Packet;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A schema per test: corrupting the books must not leak into other tests. */
class PostgresLedgerAuditTest {

  private TestSchema db;
  private String alice;
  private String bob;
  private Packet packet;

  @BeforeEach
  void busyLedger() {
    db = TestDatabase.freshSchema();
    alice = user("alice");
    bob = user("bob");
    db.topUp(alice, 10_000);
    packet = db.send(alice, 3_000, 3);
    db.ledger.pay(List.of(task(packet, bob, 1_000), task(packet, alice, 500)));
    db.ledger.refund(packet.id(), Amount.fen(1_500), Instant.parse("2026-11-23T00:00:00Z"));
  }

  @AfterEach
  void dropSchema() {
    db.close();
  }

  @Test
  void accountProblems_onCleanLedger_findsNothing() {
    assertThat(db.audit.accountProblems()).isEmpty();
  }

  @Test
  void accountProblems_findsAWalletWhoseBalanceWasChangedBehindTheLedgersBack() {
    db.execute("UPDATE account SET balance = balance + 1 WHERE id = 'wallet:" + bob + "'");

    assertThat(db.audit.accountProblems())
        .containsExactly(
            "account wallet:" + bob + " holds 1001 fen but its transfers sum to 1000 fen");
  }

  @Test
  void accountProblems_findsANegativeEscrowAndAMissingAccount() {
    // Only possible with the CHECK gone: the audit must not trust the schema alone.
    db.execute("ALTER TABLE account DROP CONSTRAINT account_balance_not_negative");
    db.execute(
        "INSERT INTO transfer (key, kind, debit_account, credit_account, amount, packet_id, user_id)"
            + " VALUES ('grab:"
            + packet.id()
            + ":ghost', 'GRAB', 'escrow:"
            + packet.id()
            + "', 'wallet:ghost', 7, "
            + packet.id()
            + ", 'ghost')");
    db.execute("UPDATE account SET balance = -7 WHERE id = 'escrow:" + packet.id() + "'");

    assertThat(db.audit.accountProblems())
        .containsExactly(
            "account escrow:" + packet.id() + " is negative: -7 fen",
            "account wallet:ghost is missing; its transfers sum to 7 fen");
  }

  @Test
  void packets_pagesAscendingAfterTheGivenId() {
    Packet second = db.send(alice, 100, 1);
    Packet third = db.send(alice, 100, 1);

    assertThat(db.audit.packets(0, 2))
        .extracting(Packet::id)
        .containsExactly(packet.id(), second.id());
    assertThat(db.audit.packets(second.id(), 10))
        .extracting(Packet::id)
        .containsExactly(third.id());
  }

  @Test
  void escrowBalance_isWhatIsLeftInThePacket() {
    Packet fresh = db.send(alice, 100, 1);

    assertThat(db.audit.escrowBalance(packet.id())).isEqualTo(Amount.ZERO);
    assertThat(db.audit.escrowBalance(fresh.id())).isEqualTo(Amount.fen(100));
  }
}
